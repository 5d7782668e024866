/**
 * The SDK's test vectors of the share/token math and the commission rules, ported from Cosmos SDK v0.45
 * x/staking/types/validator_test.go, commission_test.go and keeper/delegation_test.go.
 */
import { expect } from 'chai';
import { ChainError } from '@chain/errors';
import { Dec } from '@chain/math';
import type { chain_staking_v1beta1 } from '../src/index.js';
import {
  addTokensFromDel, removeDelShares, sharesFromTokens, sharesFromTokensTruncated, tokensFromShares, tokensFromSharesRoundUp,
  updateDescription, validateCommissionRates, validateNewRate, validatorTokensFromSharesTruncated,
} from '../src/index.js';

type Validator = chain_staking_v1beta1.Validator;
const d = (n: bigint | number) => Dec.fromInt(BigInt(n));
const validator = (tokens: bigint, shares: Dec): Validator => ({
  operator_address: '', consensus_pubkey: null, jailed: false, status: 1, tokens: tokens.toString(), delegator_shares: shares.atomics(),
  description: null, unbonding_height: 0n, unbonding_time: null, commission: null, min_self_delegation: '1',
});
const codeOf = (f: () => void): string => {
  try {
    f();
  } catch (e) {
    return e instanceof ChainError ? `${e.codespace}/${e.code}` : `plain: ${(e as Error).message}`;
  }
  return 'ok';
};

describe('staking: share math (SDK vectors)', () => {
  it('TestAddTokensValidatorBonded / TestAddTokensFromDel: 1:1 for a validator without shares, then at the rate', () => {
    let [v, shares] = addTokensFromDel(validator(0n, Dec.zero()), 6n);
    expect([shares.toString(), v.tokens, Dec.fromAtomics(v.delegator_shares).toString()]).to.deep.equal(['6.000000000000000000', '6', '6.000000000000000000']);
    [v, shares] = addTokensFromDel(v, 3n);
    expect([shares.toString(), v.tokens, Dec.fromAtomics(v.delegator_shares).toString()]).to.deep.equal(['3.000000000000000000', '9', '9.000000000000000000']);
  });

  it('TestRemoveDelShares: 100/100 minus 10 shares; the random-test case 5102 tokens / 115 shares minus 29 shares → 1286 tokens', () => {
    const [v, tokens] = removeDelShares(validator(100n, d(100)), d(10));
    expect([tokens, v.tokens, Dec.fromAtomics(v.delegator_shares).toString()]).to.deep.equal([10n, '90', '90.000000000000000000']);
    const [, t2] = removeDelShares(validator(5102n, d(115)), d(29));
    expect(t2).to.equal(1286n);
    // the last shares take every token (no rounding left behind)
    const [v3, t3] = removeDelShares(validator(7n, d(3)), d(3));
    expect([t3, v3.tokens]).to.deep.equal([7n, '0']);
  });

  it('TestShareTokens: TokensFromShares at 1 and at 0.5 token per share', () => {
    const v = validator(100n, d(100));
    expect(tokensFromShares(v, d(50)).toString()).to.equal('50.000000000000000000');
    const half = validator(50n, d(100));
    expect(tokensFromShares(half, d(50)).toString()).to.equal('25.000000000000000000');
    expect(tokensFromShares(half, d(10)).toString()).to.equal('5.000000000000000000');
  });

  it('TestPossibleOverflow: 391432570689183511 shares over 2159 tokens, +71 tokens stays positive (exact QuoInt)', () => {
    const shares = Dec.fromString('391432570689183511');
    const [v, issued] = addTokensFromDel(validator(2159n, shares), 71n);
    expect(issued.isNegative()).to.equal(false);
    expect(issued.atomics()).to.equal(((391432570689183511n * 10n ** 18n * 71n) / 2159n).toString());
    expect(Dec.fromAtomics(v.delegator_shares).isNegative()).to.equal(false);
  });

  it('the three roundings of TokensFromShares and of SharesFromTokens (2 tokens for 3 shares)', () => {
    const v = validator(2n, d(3));
    expect(tokensFromShares(v, d(1)).toString()).to.equal('0.666666666666666667');
    expect(validatorTokensFromSharesTruncated(v, d(1)).toString()).to.equal('0.666666666666666666');
    expect(tokensFromSharesRoundUp(v, d(1)).toString()).to.equal('0.666666666666666667');
    const w = validator(3n, d(2));
    expect(sharesFromTokens(w, 1n).toString()).to.equal('0.666666666666666666');
    expect(sharesFromTokensTruncated(w, 1n).toString()).to.equal('0.666666666666666666');
    expect(codeOf(() => sharesFromTokens(validator(0n, d(1)), 1n))).to.equal('staking/22');
  });

  it('TestUpdateDescription: [do-not-modify] keeps every field', () => {
    const d1 = { moniker: '', identity: '', website: 'https://validator.cosmos', security_contact: '', details: '' };
    const dnm = '[do-not-modify]';
    expect(updateDescription(d1, { moniker: dnm, identity: dnm, website: dnm, security_contact: dnm, details: dnm })).to.deep.equal(d1);
  });

  it('TestCommissionValidate (commission_test.go)', () => {
    const P = (n: number) => Dec.withPrec(n, 2);
    const rates = (rate: Dec, maxRate: Dec, maxChangeRate: Dec) => ({ rate, maxRate, maxChangeRate });
    const cases: [ReturnType<typeof rates>, string][] = [
      [rates(Dec.zero(), Dec.zero(), Dec.zero()), 'ok'],
      [rates(Dec.zero(), d(-1), Dec.zero()), 'staking/9'],
      [rates(Dec.zero(), P(101), Dec.zero()), 'staking/10'],
      [rates(d(-1), Dec.zero(), Dec.zero()), 'staking/9'],
      [rates(P(20), P(10), Dec.zero()), 'staking/11'],
      [rates(Dec.zero(), Dec.zero(), d(-1)), 'staking/13'],
      [rates(Dec.zero(), P(99), d(1)), 'staking/14'],
      [rates(P(20), P(99), P(1)), 'ok'],
    ];
    expect(cases.map(([c]) => codeOf(() => validateCommissionRates(c)))).to.deep.equal(cases.map(([, e]) => e));
  });

  it('TestCommissionValidateNewRate (commission_test.go)', () => {
    const now = { seconds: 1_700_000_000n, nanos: 0 };
    const plus = (h: number) => ({ seconds: now.seconds + BigInt(h * 3600), nanos: 0 });
    const c1 = { rate: Dec.fromString('0.40'), maxRate: Dec.fromString('0.80'), maxChangeRate: Dec.fromString('0.10') };
    const cases: [Dec, { seconds: bigint; nanos: number }, string][] = [
      [Dec.fromString('0.50'), now, 'staking/12'], // within 24h
      [Dec.fromString('0.50'), { seconds: now.seconds + 86399n, nanos: 999_999_999 }, 'staking/12'],
      [Dec.fromString('-1.00'), plus(48), 'staking/9'],
      [Dec.fromString('0.90'), plus(48), 'staking/11'],
      [Dec.fromString('0.60'), plus(48), 'staking/15'],
      [Dec.fromString('0.50'), plus(48), 'ok'],
      [Dec.fromString('0.10'), plus(48), 'ok'],
      [Dec.fromString('0.50'), plus(24), 'ok'],
    ];
    expect(cases.map(([r, t]) => codeOf(() => validateNewRate(c1, now, r, t)))).to.deep.equal(cases.map(([, , e]) => e));
  });
});
