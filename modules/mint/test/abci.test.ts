/**
 * BeginBlock (x/mint/abci.go of SDK v0.45) over a few blocks on an auth + bank + mint chain: the minter, the
 * minted amount, the fee collector's balance, the supply and the events. Expected values come from an
 * independent model of the v0.45 Dec rules (Python big integers), not from this package.
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { BONDED_POOL, FEE_COLLECTOR, USER, attrsOf, flatEvents, genesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('mint: BeginBlock', () => {
  let s: TestSetup;
  afterEach(async () => {
    await s.chain.close();
  });

  it('mints the block provision to the fee collector, updates the minter, emits mint (3 blocks, exact)', async () => {
    s = await openChain();
    // supply 10^12 stake, half of it bonded: bonded ratio 0.5 below the 0.67 goal, inflation rises
    s.chain.initChain(genesis(s, { [USER.address]: 500_000_000_000n, [s.addr[BONDED_POOL]!]: 500_000_000_000n }));
    const expected = [
      ['0.500000000000000000', '0.130000005226169707', '130000005226.169707000000000000', '20597'],
      ['0.499999989701500212', '0.130000010452339730', '130000013129.949945286841418810', '20597'],
      ['0.499999979403000848', '0.130000015678510070', '130000021033.730715860543823580', '20597'],
    ];
    const mintAddr = s.addr['mint']!;
    const feeAddr = s.addr[FEE_COLLECTOR]!;
    let fees = 0n;
    for (const [h, [bondedRatio, inflation, annualProvisions, amount]] of expected.entries()) {
      const res = await s.chain.block([]);
      fees += BigInt(amount!);
      expect(attrsOf(res.events, 'mint'), `height ${h + 1}`).to.deep.equal({ bonded_ratio: bondedRatio, inflation, annual_provisions: annualProvisions, amount });
      // mint to the module account, then send it to the fee collector, then the mint event
      expect(flatEvents(res.events).filter(([t]) => ['coin_received', 'coinbase', 'coin_spent', 'transfer', 'message', 'mint'].includes(t))).to.deep.equal([
        ['coin_received', [['receiver', mintAddr], ['amount', `${amount}stake`]]],
        ['coinbase', [['minter', mintAddr], ['amount', `${amount}stake`]]],
        ['coin_spent', [['spender', mintAddr], ['amount', `${amount}stake`]]],
        ['coin_received', [['receiver', feeAddr], ['amount', `${amount}stake`]]],
        ['transfer', [['recipient', feeAddr], ['sender', mintAddr], ['amount', `${amount}stake`]]],
        ['message', [['sender', mintAddr]]],
        ['mint', [['bonded_ratio', bondedRatio!], ['inflation', inflation!], ['annual_provisions', annualProvisions!], ['amount', amount!]]],
      ]);
      const ctx = s.chain.ctx();
      const m = s.keeper.getMinter(ctx);
      expect(m.inflation.toString()).to.equal(inflation);
      expect(m.annualProvisions.toString()).to.equal(annualProvisions);
      expect(s.bk.getBalance(ctx, s.ak.getModuleAddress(FEE_COLLECTOR), 'stake')).to.equal(fees);
      expect(s.bk.getBalance(ctx, s.ak.getModuleAddress('mint'), 'stake')).to.equal(0n);
      expect(s.bk.getSupply(ctx, 'stake')).to.equal(1_000_000_000_000n + fees);
    }
  });

  it('clamps at the max with nothing bonded; a zero provision mints nothing but still sends and emits', async () => {
    s = await openChain();
    // no bonded tokens: the inflation rises by 0.13/6311520 per block, capped at inflation_max 0.2
    // supply 1000: annual provisions 200 → 200 / 6311520 truncates to 0 per block
    const mint = {
      minter: { inflation: '0.199999999999999999', annual_provisions: '0.000000000000000000' },
      params: {
        mint_denom: 'stake',
        inflation_rate_change: '0.130000000000000000',
        inflation_max: '0.200000000000000000',
        inflation_min: '0.070000000000000000',
        goal_bonded: '0.670000000000000000',
        blocks_per_year: '6311520',
      },
    };
    s.chain.initChain(genesis(s, { [USER.address]: 1000n }, mint));
    const res = await s.chain.block([]);
    expect(attrsOf(res.events, 'mint')).to.deep.equal({
      bonded_ratio: '0.000000000000000000',
      inflation: '0.200000000000000000',
      annual_provisions: '200.000000000000000000',
      amount: '0',
    });
    // MintCoins is skipped for an empty set; AddCollectedFees still sends the empty set (as the SDK)
    const mintAddr = s.addr['mint']!;
    const feeAddr = s.addr[FEE_COLLECTOR]!;
    expect(flatEvents(res.events).filter(([t]) => ['coin_received', 'coinbase', 'coin_spent', 'transfer', 'message'].includes(t))).to.deep.equal([
      ['coin_spent', [['spender', mintAddr], ['amount', '']]],
      ['coin_received', [['receiver', feeAddr], ['amount', '']]],
      ['transfer', [['recipient', feeAddr], ['sender', mintAddr], ['amount', '']]],
      ['message', [['sender', mintAddr]]],
    ]);
    expect(s.bk.getSupply(s.chain.ctx(), 'stake')).to.equal(1000n);
    expect(s.keeper.getMinter(s.chain.ctx()).inflation.equal(Dec.withPrec(20, 2))).to.equal(true);
  });

  it('clamps at the min when everything is bonded', async () => {
    s = await openChain();
    s.chain.initChain(
      genesis(
        s,
        { [s.addr[BONDED_POOL]!]: 10n ** 15n },
        {
          minter: { inflation: '0.070000000100000000', annual_provisions: '0' },
          params: {
            mint_denom: 'stake',
            inflation_rate_change: '0.130000000000000000',
            inflation_max: '0.200000000000000000',
            inflation_min: '0.070000000000000000',
            goal_bonded: '0.670000000000000000',
            blocks_per_year: '6311520',
          },
        },
      ),
    );
    const res = await s.chain.block([]);
    // 0.0700000001 − 0.000000010144917666 < 0.07 → 0.07; 0.07 × 10^15 / 6311520 = 11090830.0007… → 11090830
    expect(attrsOf(res.events, 'mint')).to.deep.equal({
      bonded_ratio: '1.000000000000000000',
      inflation: '0.070000000000000000',
      annual_provisions: '70000000000000.000000000000000000',
      amount: '11090830',
    });
  });
});
