/**
 * Keeper scenarios ported from tendermint/liquidity v1.4.5 with their expected numbers:
 * `types/swap_test.go` TestMaxOrderRatio (the limit trunc(reserve × max_order_amount_ratio), inclusive) and
 * `keeper/batch_test.go` TestLiquidityScenario (two pools; nine deposits in one batch, nine withdrawals in the
 * next; the msgs handled and deleted, the batch at index 3), with the amounts each gets checked exactly.
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { balance, c, devKey, escrow, msg, reserves, startChain, supply, tx } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const A = devKey(0);

describe('liquidity: ported keeper scenarios (batch_test.go, TestMaxOrderRatio)', () => {
  const open: TestSetup[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });

  it('TestMaxOrderRatio: 1000 passes; the whole reserve fails (31); trunc(X × 0.1) passes; one more fails (31)', async () => {
    const X = 1_000_000n; // MinInitDepositAmount
    const s = await startChain({ 0: [c(X, 'denomX'), c(X, 'denomY'), c(FEE, 'achain')], 1: [c(10n ** 9n, 'denomX')], 2: [c(10n ** 9n, 'denomY')] });
    open.push(s);
    expect((await s.chain.deliver(tx(s, A, [msg.create(s, A.address, [c(X, 'denomX'), c(X, 'denomY')])]))).code).to.equal(0);
    const max = Dec.fromInt(X).mul(Dec.fromString('0.1')).truncateInt();
    expect(max).to.equal(100_000n);
    const fee = (n: bigint) => Dec.fromInt(n).mul(Dec.fromString('0.0015')).ceil().truncateInt();
    const both = async (n: bigint) => {
      const [b, sl] = [devKey(1), devKey(2)];
      const res = await s.chain.block([
        tx(s, b, [msg.swap(s, b.address, 1n, c(n, 'denomX'), 'denomY', '1.1', c(fee(n), 'denomX'))]),
        tx(s, sl, [msg.swap(s, sl.address, 1n, c(n, 'denomY'), 'denomX', '1.2', c(fee(n), 'denomY'))]),
      ]);
      return res.txResults.map((r) => (r.code === 0 ? 0 : `${r.codespace}:${r.code}`));
    };
    expect(await both(1_000n)).to.deep.equal([0, 0]);
    expect(await both(X)).to.deep.equal(['liquidity:31', 'liquidity:31']);
    // the reserves after the first batch decide the limit of the next orders: recompute from them
    const [rx, ry] = reserves(s, s.keeper.getPool(s.chain.ctx(), 1n)!);
    const [mx, my] = [Dec.fromInt(rx).mul(Dec.fromString('0.1')).truncateInt(), Dec.fromInt(ry).mul(Dec.fromString('0.1')).truncateInt()];
    const [b, sl] = [devKey(1), devKey(2)];
    const at = await s.chain.block([
      tx(s, b, [msg.swap(s, b.address, 1n, c(mx, 'denomX'), 'denomY', '1.1', c(fee(mx), 'denomX'))]),
      tx(s, sl, [msg.swap(s, sl.address, 1n, c(my, 'denomY'), 'denomX', '1.2', c(fee(my), 'denomY'))]),
    ]);
    expect(at.txResults.map((r) => r.code)).to.deep.equal([0, 0]);
    const [rx2, ry2] = reserves(s, s.keeper.getPool(s.chain.ctx(), 1n)!);
    const over = await s.chain.block([
      tx(s, b, [msg.swap(s, b.address, 1n, c(Dec.fromInt(rx2).mul(Dec.fromString('0.1')).truncateInt() + 1n, 'denomX'), 'denomY', '1.1', c(fee(Dec.fromInt(rx2).mul(Dec.fromString('0.1')).truncateInt() + 1n), 'denomX'))]),
      tx(s, sl, [msg.swap(s, sl.address, 1n, c(Dec.fromInt(ry2).mul(Dec.fromString('0.1')).truncateInt() + 1n, 'denomY'), 'denomX', '1.2', c(fee(Dec.fromInt(ry2).mul(Dec.fromString('0.1')).truncateInt() + 1n), 'denomY'))]),
    ]);
    expect(over.txResults.map((r) => `${r.codespace}:${r.code}`)).to.deep.equal(['liquidity:31', 'liquidity:31']);
    expect(balance(s, escrow(s), 'denomX')).to.equal(0n);
    expect(balance(s, escrow(s), 'denomY')).to.equal(0n);
  });

  it('TestLiquidityScenario: two pools (ids 1, 2); 9 deposits of 10^9/10^9 in one batch, 9 withdrawals of 500000 in the next; batch index 3', async () => {
    const X = 1_000_000_000n;
    const accounts = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(devKey);
    const s = await startChain({
      0: [c(2n * X, 'denomX'), c(X, 'denomY'), c(X, 'testDenom'), c(2n * FEE, 'achain')],
      ...Object.fromEntries(accounts.map((_, i) => [i + 1, [c(X, 'denomX'), c(X, 'denomY')]])),
    });
    open.push(s);
    for (const other of ['denomY', 'testDenom']) {
      const r = await s.chain.deliver(tx(s, A, [msg.create(s, A.address, [c(X, 'denomX'), c(X, other)])]));
      expect(r.code, r.log).to.equal(0);
    }
    expect(s.keeper.getAllPools(s.chain.ctx()).map((p) => p.id)).to.deep.equal([1n, 2n]);
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    const dep = await s.chain.block(accounts.map((k) => tx(s, k, [msg.deposit(s, k.address, 1n, [c(X, 'denomX'), c(X, 'denomY')])])));
    expect(dep.txResults.map((r) => r.code)).to.deep.equal(Array(9).fill(0));
    // in turn (the reference's formulas): mint = trunc(S×a/R), rate = trunc(mint)/S (truncated), accepted = trunc(R×rate)
    let [S, R] = [1_000_000n, X];
    const got: { mint: bigint; accepted: bigint }[] = [];
    for (let i = 0; i < accounts.length; i++) {
      const mint = Dec.fromInt(S).mulTruncate(Dec.fromInt(X)).quoTruncate(Dec.fromInt(R)).truncateInt();
      const rate = Dec.fromInt(mint).quoTruncate(Dec.fromInt(S));
      const accepted = Dec.fromInt(R).mul(rate).truncateInt();
      got.push({ mint, accepted });
      [S, R] = [S + mint, R + accepted];
    }
    expect(got.some((g) => g.accepted < X), 'some deposits lose a unit to the truncated rate').to.equal(true);
    accounts.forEach((k, i) => expect([balance(s, k.address, 'denomX'), balance(s, k.address, pool.pool_coin_denom)]).to.deep.equal([X - got[i]!.accepted, got[i]!.mint]));
    expect(reserves(s, pool)).to.deep.equal([R, R]);
    const wd = await s.chain.block(accounts.map((k) => tx(s, k, [msg.withdraw(s, k.address, 1n, c(500_000, pool.pool_coin_denom))])));
    expect(wd.txResults.map((r) => r.code)).to.deep.equal(Array(9).fill(0));
    expect(s.keeper.depositMsgStates(s.chain.ctx(), 1n)).to.deep.equal([]);
    // out = trunc(R×P)/S in turn (withdraw_fee_rate 0)
    accounts.forEach((k, i) => {
      const out = (R * 500_000n) / S;
      expect([balance(s, k.address, 'denomX'), balance(s, k.address, 'denomY'), balance(s, k.address, pool.pool_coin_denom)]).to.deep.equal([X - got[i]!.accepted + out, X - got[i]!.accepted + out, got[i]!.mint - 500_000n]);
      [R, S] = [R - out, S - 500_000n];
    });
    expect(reserves(s, pool)).to.deep.equal([R, R]);
    expect(supply(s, pool.pool_coin_denom)).to.equal(S);
    await s.chain.block([]);
    expect(s.keeper.withdrawMsgStates(s.chain.ctx(), 1n)).to.deep.equal([]);
    expect(s.keeper.getBatch(s.chain.ctx(), 1n)).to.deep.include({ index: 3n, executed: false });
  });
});
