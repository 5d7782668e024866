import { expect } from 'chai';
import { Prc10Errors, feeFactor, issueFee, operateFee } from '../src/index.js';
import type { Prc10Params, Token } from '../src/index.js';
import { E18, NATIVE, TABLE_PARAMS, startChain, startChainWith } from './helpers.js';
import type { TestSetup } from './helpers.js';

/** the native token as the fee functions look it up (by symbol or min unit) */
const NATIVE_TOKEN: Token = {
  symbol: 'chain', name: 'chain', scale: 18, min_unit: NATIVE, initial_supply: 0n, max_supply: 18446744073709551615n, mintable: true, owner: '',
};
const tokenOf = (d: string): Token | undefined => (d === 'chain' || d === NATIVE ? NATIVE_TOKEN : undefined);
const coin = (amount: bigint | string, denom = NATIVE) => ({ denom, amount: String(amount) });
const symbolOfLength = (n: number): string => 'abcdefghijklmnop'.slice(0, n);

describe('token: fees', () => {
  it('the factor by symbol length is round2((log2 len)^3), the original table', () => {
    const table: [number, string][] = [[2, '1.00'], [3, '3.98'], [4, '8.00'], [5, '12.52'], [6, '17.27'], [7, '22.13'], [8, '27.00']];
    for (const [n, f] of table) expect(feeFactor(symbolOfLength(n)).toString(), `length ${n}`).to.equal(`${f}0000000000000000`);
    // lengths beyond 8 (a MsgMintToken symbol is not validated before its fee) keep growing
    expect(feeFactor(symbolOfLength(9)).toString()).to.equal('31.85' + '0'.repeat(16));
    expect(() => feeFactor('a')).to.throw(/at least 2/);
    expect(() => feeFactor('')).to.throw(/at least 2/);
  });

  it('issue and operate fees for a base fee of 500000000 (the original default in its min unit): the original table', () => {
    const table: [number, bigint, bigint][] = [
      [2, 500000000n, 50000000n], [3, 125628140n, 12562814n], [4, 62500000n, 6250000n], [5, 39936102n, 3993610n],
      [6, 28951939n, 2895193n], [7, 22593764n, 2259376n], [8, 18518518n, 1851851n],
    ];
    for (const [n, issue, operate] of table) {
      expect(issueFee(TABLE_PARAMS, symbolOfLength(n), tokenOf), `issue, length ${n}`).to.deep.equal(coin(issue));
      expect(operateFee(TABLE_PARAMS, symbolOfLength(n), tokenOf), `operate, length ${n}`).to.deep.equal(coin(operate));
    }
  });

  it('the default base fee, 500 chain in achain: the same table scaled by 10^18 (truncated)', () => {
    const p: Prc10Params = { issue_token_base_fee: coin(500n * E18), operate_token_fee_ratio: (10n ** 17n).toString() };
    const table: [number, string, string][] = [
      [2, '500000000000000000000', '50000000000000000000'], [3, '125628140703517587939', '12562814070351758793'],
      [4, '62500000000000000000', '6250000000000000000'], [5, '39936102236421725239', '3993610223642172523'],
      [6, '28951939779965257672', '2895193977996525767'], [7, '22593764121102575689', '2259376412110257568'],
      [8, '18518518518518518518', '1851851851851851851'],
    ];
    for (const [n, issue, operate] of table) {
      expect(issueFee(p, symbolOfLength(n), tokenOf), `issue, length ${n}`).to.deep.equal(coin(issue));
      expect(operateFee(p, symbolOfLength(n), tokenOf), `operate, length ${n}`).to.deep.equal(coin(operate));
    }
  });

  it('a base fee in the symbol: whole tokens (truncated), then × 10^scale in the min unit', () => {
    const p: Prc10Params = { issue_token_base_fee: coin(500n, 'chain'), operate_token_fee_ratio: (10n ** 17n).toString() };
    // 500 / 3.98 = 125.6… → 125 chain; × 0.1 = 12.56… → 12 chain
    expect(issueFee(p, 'abc', tokenOf)).to.deep.equal(coin(125n * E18));
    expect(operateFee(p, 'abc', tokenOf)).to.deep.equal(coin(12n * E18));
  });

  it('a fee is at least 1 (of the base fee denom, then converted): a zero base fee or ratio still costs 1', () => {
    const zero: Prc10Params = { issue_token_base_fee: coin(0n), operate_token_fee_ratio: (10n ** 17n).toString() };
    expect(issueFee(zero, 'abcdefgh', tokenOf)).to.deep.equal(coin(1n));
    expect(operateFee(zero, 'ab', tokenOf)).to.deep.equal(coin(1n));
    const noRatio: Prc10Params = { issue_token_base_fee: coin(500n * E18), operate_token_fee_ratio: '0' };
    expect(operateFee(noRatio, 'ab', tokenOf)).to.deep.equal(coin(1n));
    // in the symbol, the 1 is one whole token
    expect(operateFee({ ...noRatio, issue_token_base_fee: coin(500n, 'chain') }, 'ab', tokenOf)).to.deep.equal(coin(E18));
  });

  it('a base fee denom that is no token: token 10', () => {
    const p: Prc10Params = { issue_token_base_fee: coin(5n, 'nothing'), operate_token_fee_ratio: '0' };
    let err: unknown;
    try {
      issueFee(p, 'abc', tokenOf);
    } catch (e) {
      err = e;
    }
    expect(Prc10Errors.TokenNotExists.is(err), String(err)).to.equal(true);
    expect(String((err as Error).message)).to.equal('token: nothing does not exist: token does not exist');
  });

  describe('Query/Fees', () => {
    let s: TestSetup;
    afterEach(async () => {
      await s.chain.close();
    });

    it('answers the fees of a symbol in the min unit and whether it exists', async () => {
      s = await startChainWith({ params: TABLE_PARAMS });
      for (const [symbol, exist, issue, operate] of [['kitty', false, 39936102n, 3993610n], ['chain', true, 39936102n, 3993610n], ['abc', false, 125628140n, 12562814n]] as const) {
        const { res, value } = await s.chain.query('/chain.prc10.Query/Fees', { symbol });
        expect(res.code, res.log).to.equal(0);
        expect(value).to.deep.equal({ exist, issue_fee: coin(issue), operate_fee: coin(operate) });
      }
    });

    it('refuses an invalid symbol with InvalidArgument and the validation message', async () => {
      s = await startChain();
      for (const [symbol, text] of [['K', 'invalid symbol: K, only accepts english lowercase letters and numbers, length [2, 8]'], ['ether', 'invalid token: ether, can not begin with keyword']] as const) {
        const { res } = await s.chain.query('/chain.prc10.Query/Fees', { symbol });
        expect(res.code, symbol).to.not.equal(0);
        expect(res.log).to.contain('code = InvalidArgument').and.to.contain(text);
      }
    });
  });
});
