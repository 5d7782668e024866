/**
 * tendermint/liquidity v1.4.5 `x/liquidity/keeper/grpc_query_test.go` (the `KeeperTestSuite` with `createLiquidity` of
 * keeper/common_test.go as its fixture), through our query server (`createLiquidityQueryServer`) on the Go tests'
 * context (test/helpers.ts `GoCtx`): each case's pass / error, the pool ids, the page sizes, `pagination.total` and
 * whether a `next_key` comes back.
 */
import { expect } from 'chai';
import { createLiquidityQueryServer } from '../src/index.js';
import type { Pool, PoolBatch } from '../src/index.js';
import { GoCtx, c, devKey, kmsg, offerFee, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const FAUCET = devKey(9);
const addr = (i: number) => devKey(i).address;

describe('liquidity: ported keeper tests (grpc_query_test.go)', function () {
  this.timeout(120_000);
  let s: TestSetup;
  let g: GoCtx;
  let pools: Pool[];
  let batches: PoolBatch[];
  let q: ReturnType<typeof createLiquidityQueryServer>;

  /** keeper/common_test.go `createLiquidity` */
  before(async () => {
    s = await startChain({ 9: ['achain', 'denomA', 'denomB', 'denomX', 'denomY'].map((d) => c(10n ** 40n, d)) });
    g = new GoCtx(s);
    const k = s.keeper;
    const save = (to: string, coins: ReturnType<typeof c>[]) => g.send(FAUCET.address, to, [...coins].sort((a, b) => (a.denom < b.denom ? -1 : 1)));
    const X = 1_000_000_000n;
    const Y = 500_000_000n;
    const A = 500_000_000n;
    const B = 1_000_000_000n;
    save(addr(0), [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')]);
    const poolId = k.createPool(g.ctx, kmsg.create(addr(0), [c(X, 'denomX'), c(Y, 'denomY')])).id;
    save(addr(1), [c(A, 'denomA'), c(B, 'denomB'), c(FEE, 'achain')]);
    k.createPool(g.ctx, kmsg.create(addr(1), [c(A, 'denomA'), c(B, 'denomB')]));
    const deposit = (x: bigint, y: bigint, who: string) => {
      save(who, [c(x, 'denomX'), c(y, 'denomY')]);
      k.depositWithinBatch(g.ctx, kmsg.deposit(who, poolId, [c(x, 'denomX'), c(y, 'denomY')]));
    };
    for (let i = 0; i < 3; i++) deposit(X / 10n, Y, addr(1));
    for (let i = 0; i < 3; i++) deposit(X, Y / 10n, addr(2));
    g.end();
    g.next();
    g.begin();
    deposit(X / 10n, Y, addr(1));
    deposit(X / 10n, Y, addr(1));
    deposit(X, Y / 10n, addr(2));
    deposit(X, Y / 10n, addr(2));
    const poolCoin = k.getPool(g.ctx, poolId)!.pool_coin_denom;
    for (const [who, amount] of [[addr(1), 50n], [addr(1), 500n], [addr(2), 50n], [addr(2), 500n]] as const) {
      k.withdrawWithinBatch(g.ctx, kmsg.withdraw(who, poolId, c(amount, poolCoin)));
    }
    const swap = (who: string, amount: bigint, offer: string, demand: string, price: string) => {
      if (g.balance(who, offer) < amount) save(who, [c(amount + offerFee(amount), offer)]);
      k.swapWithinBatch(g.ctx, kmsg.swap(who, poolId, c(amount, offer), demand, price));
    };
    for (let i = 0; i < 3; i++) swap(addr(1), 10000n, 'denomX', 'denomY', '1.1');
    swap(addr(2), 5000n, 'denomY', 'denomX', '1.2');
    pools = k.getAllPools(g.ctx);
    batches = k.state.Batches.values(g.ctx).toArray();
    q = createLiquidityQueryServer(k);
  });
  after(async () => {
    await s.chain.close();
  });

  const fails = (f: () => unknown): boolean => {
    try {
      f();
      return false;
    } catch {
      return true;
    }
  };

  it('the fixture: two pools; pool 1\'s batch holds 4 deposits, 4 withdrawals and 4 swaps', () => {
    expect(pools.map((p) => p.id)).to.deep.equal([1n, 2n]);
    const k = s.keeper;
    expect([k.depositMsgStates(g.ctx, 1n).length, k.withdrawMsgStates(g.ctx, 1n).length, k.swapMsgStates(g.ctx, 1n).length]).to.deep.equal([4, 4, 4]);
  });

  it('TestGRPCLiquidityPool: empty request → error; pool 1', () => {
    expect(fails(() => q.LiquidityPool(g.ctx, { pool_id: 0n }))).to.equal(true);
    expect((q.LiquidityPool(g.ctx, { pool_id: pools[0]!.id }) as { pool: Pool }).pool.id).to.equal(pools[0]!.id);
  });

  it('TestGRPCLiquidityPoolByPoolCoinDenom: empty → error; the denom → pool 1; its first 10 characters → error', () => {
    expect(fails(() => q.LiquidityPoolByPoolCoinDenom(g.ctx, { pool_coin_denom: '' }))).to.equal(true);
    expect((q.LiquidityPoolByPoolCoinDenom(g.ctx, { pool_coin_denom: pools[0]!.pool_coin_denom }) as { pool: Pool }).pool.id).to.equal(pools[0]!.id);
    expect(fails(() => q.LiquidityPoolByPoolCoinDenom(g.ctx, { pool_coin_denom: pools[0]!.pool_coin_denom.slice(0, 10) }))).to.equal(true);
  });

  it('TestGRPCLiquidityPoolByReserveAcc: empty → error; the reserve account → pool 1; its first 10 characters → error', () => {
    expect(fails(() => q.LiquidityPoolByReserveAcc(g.ctx, { reserve_acc: '' }))).to.equal(true);
    expect((q.LiquidityPoolByReserveAcc(g.ctx, { reserve_acc: pools[0]!.reserve_account_address }) as { pool: Pool }).pool.id).to.equal(pools[0]!.id);
    expect(fails(() => q.LiquidityPoolByReserveAcc(g.ctx, { reserve_acc: pools[0]!.reserve_account_address.slice(0, 10) }))).to.equal(true);
  });

  it('TestGRPCQueryLiquidityPools: an empty page request → 2, no next key; limit 1 → 1 and a next key; limit 10 → 2; total 2 each', () => {
    const cases: [object, number, boolean][] = [[{}, 2, false], [{ limit: 1n, count_total: true }, 1, true], [{ limit: 10n, count_total: true }, 2, false]];
    for (const [pagination, n, hasNext] of cases) {
      const r = q.LiquidityPools(g.ctx, { pagination } as never) as { pools: Pool[]; pagination: { next_key: Uint8Array | null; total: bigint } };
      expect([r.pools.length, r.pagination.total, (r.pagination.next_key?.length ?? 0) > 0]).to.deep.equal([n, BigInt(pools.length), hasNext]);
    }
  });

  it('TestGRPCLiquidityPoolBatch: empty request → error; pool 1\'s batch', () => {
    expect(fails(() => q.LiquidityPoolBatch(g.ctx, { pool_id: 0n }))).to.equal(true);
    expect((q.LiquidityPoolBatch(g.ctx, { pool_id: pools[0]!.id }) as { batch: PoolBatch }).batch).to.deep.equal(s.keeper.getBatch(g.ctx, pools[0]!.id));
  });

  for (const [name, method, field] of [
    ['TestGRPCQueryBatchDepositMsgs', 'PoolBatchDepositMsgs', 'deposits'],
    ['TestGRPCQueryBatchWithdrawMsgs', 'PoolBatchWithdrawMsgs', 'withdraws'],
    ['TestGRPCQueryBatchSwapMsgs', 'PoolBatchSwapMsgs', 'swaps'],
  ] as const) {
    it(`${name}: empty request → error; all (no page request); limit 1 → 1 and a next key; limit 10 → all; total = all`, () => {
      const poolId = batches[0]!.pool_id;
      const all = { deposits: s.keeper.depositMsgStates(g.ctx, poolId), withdraws: s.keeper.withdrawMsgStates(g.ctx, poolId), swaps: s.keeper.swapMsgStates(g.ctx, poolId) }[field].length;
      const call = (req: object) => (q[method] as (ctx: unknown, r: unknown) => Record<string, unknown>)(g.ctx, req);
      expect(fails(() => call({ pool_id: 0n }))).to.equal(true);
      const cases: [object, number, boolean][] = [
        [{ pool_id: poolId }, all, false],
        [{ pool_id: poolId, pagination: { limit: 1n, count_total: true } }, 1, true],
        [{ pool_id: poolId, pagination: { limit: 10n, count_total: true } }, all, false],
      ];
      for (const [req, n, hasNext] of cases) {
        const r = call(req) as Record<string, unknown> & { pagination: { next_key: Uint8Array | null; total: bigint } };
        expect([(r[field] as unknown[]).length, r.pagination.total, (r.pagination.next_key?.length ?? 0) > 0]).to.deep.equal([n, BigInt(all), hasNext]);
      }
    });
  }
});
