/**
 * tendermint/liquidity v1.4.5 `x/liquidity/keeper/liquidity_pool_test.go` (the cases not in keeper.test.ts), ported
 * with their expected values in the Go tests' style (test/helpers.ts `GoCtx`). `app.SaveAccount` (which adds
 * coins to an account) is genesis balances or a send from a funded account; the pool creation fee is `achain`
 * (the original's `stake`). Where the Go test only prints or only requires no error, the amounts are asserted
 * from the reference formulas.
 */
import { expect } from 'chai';
import { LiquidityErrors, LiquidityModule, poolCoinDenom, poolName } from '../src/index.js';
import type { Pool } from '../src/index.js';
import { GoCtx, c, codeOf, devKey, escrow, kmsg, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const A = devKey(0);
const B = devKey(1);
const C = devKey(2);
const code = (e: { error(): { codespace: string; code: number } }) => `${e.error().codespace}:${e.error().code}`;
const E6 = 1_000_000n;
const pow10 = (n: number) => 10n ** BigInt(n);
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('liquidity: ported keeper tests (liquidity_pool_test.go, Go style)', function () {
  this.timeout(120_000);
  const open: TestSetup[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const start = async (balances: Parameters<typeof startChain>[0], params: Parameters<typeof startChain>[1] = {}) => {
    const s = await startChain(balances, params);
    open.push(s);
    return { s, g: new GoCtx(s), k: s.keeper };
  };
  const create = (g: GoCtx, coins: ReturnType<typeof c>[], creator = A.address): Pool => g.s.keeper.createPool(g.ctx, kmsg.create(creator, coins));
  const setParams = (g: GoCtx, p: Record<string, unknown>) => g.s.keeper.setParams(g.ctx, { ...g.s.keeper.getParams(g.ctx), ...p });
  /** `createTestPool(X, Y)`: a creator holding exactly the deposit and the fee creates the pool. */
  const testPool = async (x: bigint, y: bigint, extra: Parameters<typeof startChain>[0] = {}) => {
    const r = await start({ 0: [c(x, 'denomX'), c(y, 'denomY'), c(FEE, 'achain')], ...extra });
    return { ...r, pool: create(r.g, [c(x, 'denomX'), c(y, 'denomY')]) };
  };
  const uDeposit = [c(100n * E6, 'uETH'), c(2000n * E6, 'uUSD')];

  it('TestLiquidityPool: SetPool / GetPool round trip (id 0, type 0, reserve denoms a, b, pool coin "poolCoin")', async () => {
    const { g, k } = await start({});
    // the original's pool has an empty reserve account address; our SetPool also writes the reserve-account index,
    // so the pool carries a real address
    const lp: Pool = { id: 0n, type_id: 0, reserve_coin_denoms: ['a', 'b'], reserve_account_address: A.address, pool_coin_denom: 'poolCoin' };
    k.setPool(g.ctx, lp);
    expect(k.getPool(g.ctx, 0n)).to.deep.equal(lp);
  });

  it('TestCreatePool: pool 1 (uETH, uUSD); type 2 is ErrPoolTypeNotExists; the creator holds the whole supply; again ErrPoolAlreadyExists', async () => {
    const { g, k } = await start({ 0: [...uDeposit, c(FEE, 'achain')] });
    create(g, uDeposit);
    expect(codeOf(() => k.createPool(g.ctx, { ...kmsg.create(A.address, uDeposit), pool_type_id: 2 }))).to.equal(code(LiquidityErrors.PoolTypeNotExists));
    const pools = k.getAllPools(g.ctx);
    expect(pools.map((p) => [p.id, ...p.reserve_coin_denoms])).to.deep.equal([[1n, 'uETH', 'uUSD']]);
    expect(k.state.NextPoolId.get(g.ctx)!.value - 1n).to.equal(1n);
    expect(g.supply(pools[0]!.pool_coin_denom)).to.equal(g.balance(A.address, pools[0]!.pool_coin_denom));
    expect(codeOf(() => create(g, uDeposit))).to.equal(code(LiquidityErrors.PoolAlreadyExists));
  });

  it('TestCreatePoolInsufficientAmount: 1000/1000 is ErrLessThanMinInitDeposit; more than the balance is ErrInsufficientBalance', async () => {
    const { g } = await start({ 0: [c(1000, 'denomX'), c(1000, 'denomY'), c(FEE, 'achain')] });
    expect(codeOf(() => create(g, [c(1000, 'denomX'), c(1000, 'denomY')]))).to.equal(code(LiquidityErrors.LessThanMinInitDeposit));
    expect(codeOf(() => create(g, [c(1000n + E6, 'denomX'), c(1000n + E6, 'denomY')]))).to.equal(code(LiquidityErrors.InsufficientBalance));
  });

  it('TestPoolCreationFee: a fee equal to the deposit is ErrInsufficientPoolCreationFee; the default fee goes to the community pool', async () => {
    const { g } = await start({ 0: [...uDeposit, c(FEE, 'achain')] });
    setParams(g, { pool_creation_fee: uDeposit });
    expect(codeOf(() => create(g, uDeposit))).to.equal(code(LiquidityErrors.InsufficientPoolCreationFee));
    setParams(g, { pool_creation_fee: [c(FEE, 'achain')] });
    const feePool = g.s.ak.getModuleAddress('distribution');
    expect(g.balance(feePool, 'achain')).to.equal(0n);
    create(g, uDeposit);
    expect(g.s.bank.getAllBalances(g.ctx, feePool)).to.deep.equal([c(FEE, 'achain')]);
  });

  it('TestExecuteDeposit: ExecuteDeposit of the same amounts as the pool mints the depositor the new supply (10^6)', async () => {
    const { g, k } = await start({ 0: [...uDeposit, c(FEE, 'achain')], 1: uDeposit });
    const pool = create(g, uDeposit);
    const before = g.supply(pool.pool_coin_denom);
    k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, uDeposit));
    const msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    k.executeDeposit(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!);
    expect(g.supply(pool.pool_coin_denom) - before).to.equal(g.balance(B.address, pool.pool_coin_denom));
    expect(g.balance(B.address, pool.pool_coin_denom)).to.equal(E6);
  });

  it('TestReserveCoinLimit: max_reserve_coin_amount 10^12 refuses the pool (38) and then a deposit (38), also at ExecuteDeposit; 0 lifts it', async () => {
    const LIMIT = '1000000000000';
    const dep = [c(E6, 'uETH'), c(E6, 'uUSD')];
    const { g, k } = await start({ 0: [c(10n ** 12n, 'uETH'), c(E6, 'uUSD'), c(FEE, 'achain')], 1: [c(2n * E6, 'uETH'), c(2n * E6, 'uUSD')] }, { max_reserve_coin_amount: LIMIT });
    const limit = code(LiquidityErrors.ExceededReserveCoinLimit);
    const createMsg = kmsg.create(A.address, [c(10n ** 12n, 'uETH'), c(E6, 'uUSD')]);
    expect(codeOf(() => k.createPool(g.ctx, createMsg))).to.equal(limit);
    setParams(g, { max_reserve_coin_amount: '0' });
    const pool = k.createPool(g.ctx, createMsg);
    setParams(g, { max_reserve_coin_amount: LIMIT });
    expect(codeOf(() => k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, dep)))).to.equal(limit);
    setParams(g, { max_reserve_coin_amount: '0' });
    k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, dep));
    expect(k.depositMsgStates(g.ctx, pool.id)).to.have.length(1);
    k.executePoolBatches(g.ctx);
    g.next();
    k.deleteAndInitPoolBatches(g.ctx);
    k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, dep));
    setParams(g, { max_reserve_coin_amount: LIMIT });
    const msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    expect(codeOf(() => k.executeDeposit(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!))).to.equal(limit);
  });

  it('TestExecuteWithdrawal: half the pool coins give half the reserves (fee rate 0); then all of them give the whole deposit', async () => {
    const { g, k } = await start({ 0: [...uDeposit, c(FEE, 'achain')] });
    const pool = create(g, uDeposit);
    const before = g.supply(pool.pool_coin_denom);
    expect(g.balance(A.address, pool.pool_coin_denom)).to.equal(before);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(before / 2n, pool.pool_coin_denom)));
    expect(k.withdrawMsgStates(g.ctx, pool.id)).to.have.length(1);
    g.end();
    g.begin();
    expect([g.supply(pool.pool_coin_denom), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([before / 2n, before / 2n]);
    expect([g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD')]).to.deep.equal([50n * E6, 1000n * E6]);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(before / 2n, pool.pool_coin_denom)));
    const msgs = k.withdrawMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    k.executeWithdrawal(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!);
    expect([g.supply(pool.pool_coin_denom), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([0n, 0n]);
    expect([g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD')]).to.deep.equal([100n * E6, 2000n * E6]);
  });

  it('TestSmallWithdrawalCase: 1 of 10^12 pool coins of a 1250001·10^6 / 9·10^6 pool rounds uUSD to 0: refunded, nothing changes', async () => {
    const dep = [c(1_250_001n * E6, 'uETH'), c(9n * E6, 'uUSD')];
    const { g, k } = await start({ 0: [...dep, c(FEE, 'achain')] }, { init_pool_coin_mint_amount: '1000000000000' });
    const pool = create(g, dep);
    const supplyBefore = g.supply(pool.pool_coin_denom);
    const heldBefore = g.balance(A.address, pool.pool_coin_denom);
    expect(supplyBefore).to.equal(heldBefore);
    const [aBefore, bBefore] = [g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD')];
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(1, pool.pool_coin_denom)));
    expect(k.withdrawMsgStates(g.ctx, pool.id)).to.have.length(1);
    g.end();
    g.begin();
    expect([g.supply(pool.pool_coin_denom), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([supplyBefore, heldBefore]);
    expect(g.reserves(pool)).to.deep.equal([1_250_001n * E6, 9n * E6]);
    expect([g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD')]).to.deep.equal([aBefore, bBefore]);
  });

  it('TestReinitializePool: withdrawing everything depletes the pool (swap: ErrDepletedPool); a deposit re-initialises it', async () => {
    const dep = [c(100n * E6, 'uETH'), c(100n * E6, 'uUSD')];
    const { g, k } = await start({ 0: [...dep, c(FEE, 'achain')] });
    const pool = create(g, dep);
    const supply = g.supply(pool.pool_coin_denom);
    expect(k.getReserveCoins(g.ctx, pool)).to.deep.equal(dep);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(supply, pool.pool_coin_denom)));
    const batch = k.getBatch(g.ctx, pool.id)!;
    const msgs = k.withdrawMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    k.executeWithdrawal(g.ctx, msgs[0]!, batch);
    expect([g.supply(pool.pool_coin_denom), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([0n, 0n]);
    expect([g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD')]).to.deep.equal([100n * E6, 100n * E6]);
    expect(g.reserves(pool)).to.deep.equal([0n, 0n]);
    expect(codeOf(() => k.swapWithinBatch(g.ctx, kmsg.swap(A.address, pool.id, c(50n * E6, 'uETH'), 'uUSD', '0.1')))).to.equal(code(LiquidityErrors.DepletedPool));
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, dep));
    const deps = k.depositMsgStates(g.ctx, pool.id);
    expect(deps).to.have.length(1);
    k.executeDeposit(g.ctx, deps[0]!, batch);
    expect(g.supply(pool.pool_coin_denom)).to.equal(g.balance(A.address, pool.pool_coin_denom));
    expect(k.getReserveCoins(g.ctx, pool)).to.deep.equal(dep);
  });

  it('TestReserveAccManipulation: coins sent to the reserve account count in the reserves (not other denoms) and go to the withdrawers', async () => {
    const { s, g, k } = await start({ 0: [...uDeposit, c(FEE, 'achain')], 1: [...uDeposit, c(100n * E6, 'stake')] });
    const pool = create(g, uDeposit);
    const reserveAcc = k.reserveAccount(pool);
    expect(s.bank.getAllBalances(g.ctx, reserveAcc)).to.deep.equal(uDeposit);
    g.send(B.address, reserveAcc, [c(30n * E6, 'uETH')]);
    const meta = () => new LiquidityModule(k).exportGenesis(g.ctx).pool_records[0]!.pool_metadata!;
    expect(meta().reserve_coins.find((x) => x.denom === 'uETH')!.amount).to.equal(String(130n * E6));
    const half = g.balance(A.address, pool.pool_coin_denom) / 2n;
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(half, pool.pool_coin_denom)));
    g.end();
    g.begin();
    g.send(B.address, reserveAcc, [c(70n * E6, 'uETH')]);
    g.send(B.address, reserveAcc, [c(100n * E6, 'stake')]);
    expect(meta().reserve_coins.map((x) => x.denom)).to.deep.equal(['uETH', 'uUSD']);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(g.supply(pool.pool_coin_denom), pool.pool_coin_denom)));
    k.executeWithdrawal(g.ctx, k.withdrawMsgStates(g.ctx, pool.id).at(-1)!, k.getBatch(g.ctx, pool.id)!);
    // 100 + 30 + 70 uETH in all; the other denom stays in the reserve account
    expect([g.balance(A.address, 'uETH'), g.balance(A.address, 'uUSD'), g.balance(A.address, 'stake')]).to.deep.equal([200n * E6, 2000n * E6, 0n]);
    expect(g.balance(reserveAcc, 'stake')).to.equal(100n * E6);
  });

  it('TestGetLiquidityPoolMetadata: the metadata (genesis pool_metadata) is the pool id, the reserve coins (= the deposit), the supply (= the creator\'s)', async () => {
    const { g, k } = await start({ 0: [...uDeposit, c(FEE, 'achain')] });
    create(g, uDeposit);
    const pool = k.getAllPools(g.ctx)[0]!;
    expect([k.getAllPools(g.ctx).length, pool.id, k.state.NextPoolId.get(g.ctx)!.value - 1n, ...pool.reserve_coin_denoms]).to.deep.equal([1, 1n, 1n, 'uETH', 'uUSD']);
    expect(codeOf(() => create(g, uDeposit))).to.equal(code(LiquidityErrors.PoolAlreadyExists));
    const meta = new LiquidityModule(k).exportGenesis(g.ctx).pool_records[0]!.pool_metadata!;
    expect(meta.pool_id).to.equal(pool.id);
    expect(meta.reserve_coins).to.deep.equal(k.getReserveCoins(g.ctx, pool));
    expect(meta.reserve_coins).to.deep.equal(uDeposit);
    expect(meta.pool_coin_total_supply).to.deep.equal(c(g.supply(pool.pool_coin_denom), pool.pool_coin_denom));
    expect(meta.pool_coin_total_supply).to.deep.equal(c(g.balance(A.address, pool.pool_coin_denom), pool.pool_coin_denom));
  });

  it('TestIsPoolCoinDenom / TestGetPoolByReserveAccIndex: name denomA/denomB/1, its pool coin denom is one, the name is not; the reserve-account index finds the pool', async () => {
    const dep = [c(100n * E6, 'denomA'), c(2000n * E6, 'denomB')];
    const { g, k } = await start({ 0: [...dep, c(FEE, 'achain')] });
    const pool = create(g, dep);
    expect(k.getPool(g.ctx, pool.id)).to.deep.equal(pool);
    expect(k.getAllPools(g.ctx)[0]).to.deep.equal(pool);
    const name = poolName(pool.reserve_coin_denoms, pool.type_id);
    expect(name).to.equal('denomA/denomB/1');
    expect(poolCoinDenom(name)).to.equal(pool.pool_coin_denom);
    expect([k.isPoolCoinDenom(g.ctx, pool.pool_coin_denom), k.isPoolCoinDenom(g.ctx, name)]).to.deep.equal([true, false]);
    expect(k.getPoolByReserveAcc(g.ctx, k.reserveAccount(pool))).to.deep.equal(pool);
  });

  it('TestDepositWithdrawEdgecase (seeded): 20 pools of 10^6 + rand(10^6) each; per block a random deposit or withdrawal of the creator: always accepted, escrow empty after each batch', async () => {
    // the original: 20 math/rand seeds × 500 blocks; here our PRNG, seeds 0..19 × 100 blocks, the same actions
    for (let seed = 0; seed < 20; seed++) {
      const r = rng(seed);
      const rand = (n: bigint) => BigInt(Math.floor(r() * Number(n))); // Int63n
      const X = E6 + rand(E6);
      const Y = E6 + rand(E6);
      const { s, g, k } = await start({ 0: [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')] });
      const pool = create(g, [c(X, 'denomX'), c(Y, 'denomY')]);
      for (let i = 0; i < 100; i++) {
        g.begin();
        const [bx, by, bp] = [g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY'), g.balance(A.address, pool.pool_coin_denom)];
        const actions: string[] = [];
        if (bx > 0n && by > 0n) actions.push('deposit'); // the original draws Int63n of both balances
        if (bp > 1n) actions.push('withdraw');
        expect(actions.length, `seed ${seed} block ${i}`).to.be.greaterThan(0);
        if (actions[Math.floor(r() * actions.length)] === 'deposit') {
          k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(1n + rand(bx), 'denomX'), c(1n + rand(by), 'denomY')]));
        } else {
          const total = g.supply(pool.pool_coin_denom);
          const amt = 1n + rand(bp);
          k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(amt < total - 1n ? amt : total - 1n, pool.pool_coin_denom)));
        }
        g.end();
        for (const d of ['denomX', 'denomY', pool.pool_coin_denom]) expect(g.balance(escrow(s), d)).to.equal(0n);
        g.next();
      }
      await s.chain.close();
      open.splice(open.indexOf(s), 1);
    }
  });

  it('TestWithdrawEdgecase: 10^6 X / 10^7 Y; withdraw all but 2, then 1, then 1 (the last to the executed batch): reserves 2/20, 1/10, 0/0', async () => {
    // the original prints the supply and balances after each step; these are them
    const { g, k, pool } = await testPool(E6, 10n * E6);
    const p = pool.pool_coin_denom;
    g.begin();
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(g.balance(A.address, p) - 2n, p)));
    g.end();
    expect([g.supply(p), ...g.reserves(pool), g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY')]).to.deep.equal([2n, 2n, 20n, 999_998n, 9_999_980n]);
    g.begin();
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(1, p)));
    g.end();
    expect([g.supply(p), ...g.reserves(pool), g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY')]).to.deep.equal([1n, 1n, 10n, 999_999n, 9_999_990n]);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(1, p)));
    g.begin();
    g.end();
    expect([g.supply(p), ...g.reserves(pool), g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY')]).to.deep.equal([0n, 0n, 0n, E6, 10n * E6]);
  });

  it('TestWithdrawEdgecase2 / TestWithdrawSmallAmount: 1002 withdrawals of 998 then one of 1 from a 10^6 / 1.5·10^6 pool: each as the reference (a 0 output refunds)', async () => {
    const { g, k, pool } = await testPool(E6, 1_500_000n);
    const p = pool.pool_coin_denom;
    let [S, RX, RY] = [E6, E6, 1_500_000n];
    const step = (P: bigint) => {
      g.begin();
      k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(P, p)));
      g.end();
      const [ox, oy] = P === S ? [RX, RY] : [(RX * P) / S, (RY * P) / S];
      if (ox > 0n && oy > 0n) [S, RX, RY] = [S - P, RX - ox, RY - oy];
      expect([g.supply(p), ...g.reserves(pool), g.balance(A.address, p)]).to.deep.equal([S, RX, RY, S]);
    };
    // TestWithdrawSmallAmount: 1 pool coin of the fresh pool gives 1 X and 1 Y
    const fresh = await testPool(E6, 1_500_000n);
    fresh.g.begin();
    fresh.k.withdrawWithinBatch(fresh.g.ctx, kmsg.withdraw(A.address, fresh.pool.id, c(1, p)));
    fresh.g.end();
    expect([fresh.g.balance(A.address, 'denomX'), fresh.g.balance(A.address, 'denomY'), fresh.g.supply(p)]).to.deep.equal([1n, 1n, E6 - 1n]);
    for (let i = 0; i < 1002; i++) step(998n);
    step(1n);
    expect(S).to.equal(E6 - 1002n * 998n - 1n);
  });

  it('TestGetReserveCoins: two reserve coins 10^6 / 10^6; after withdrawing everything still two, both 0', async () => {
    const { g, k, pool } = await testPool(E6, E6);
    expect(k.getReserveCoins(g.ctx, pool)).to.deep.equal([c(E6, 'denomX'), c(E6, 'denomY')]);
    g.begin();
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(E6, pool.pool_coin_denom)));
    g.end();
    expect(k.getReserveCoins(g.ctx, pool)).to.deep.equal([c(0, 'denomX'), c(0, 'denomY')]);
  });

  it('TestDepositToDepletedPool: on a depleted pool holding 10000 X a deposit of 10000/10000 is refunded (below min init); 990000/10^6 re-initialises it', async () => {
    const { g, k, pool } = await testPool(E6, E6);
    g.begin();
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(g.balance(A.address, pool.pool_coin_denom), pool.pool_coin_denom)));
    g.end();
    expect(g.reserves(pool)).to.deep.equal([0n, 0n]);
    expect(k.isDepletedPool(g.ctx, pool)).to.equal(true);
    g.send(A.address, k.reserveAccount(pool), [c(10_000, 'denomX')]);
    g.begin();
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(10_000, 'denomX'), c(10_000, 'denomY')]));
    g.end();
    expect(g.reserves(pool)).to.deep.equal([10_000n, 0n]);
    expect([g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY')]).to.deep.equal([990_000n, E6]);
    g.begin();
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(990_000, 'denomX'), c(E6, 'denomY')]));
    g.end();
    expect(g.reserves(pool)).to.deep.equal([E6, E6]);
    expect([g.balance(A.address, 'denomX'), g.balance(A.address, 'denomY'), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([0n, 0n, E6]);
  });

  it('TestDepositWithCoinsSent: 1 X, 2 Y (and denomZ, ignored) sent to a 1/1 pool (×10^6); a 3/3 deposit: reserves 4/6, refund 1 X, 10^6 pool coins', async () => {
    const extra = [c(E6, 'denomX'), c(2n * E6, 'denomY'), c(E6, 'denomZ')];
    const { g, k, pool } = await testPool(E6, E6, { 1: [c(4n * E6, 'denomX'), c(5n * E6, 'denomY'), c(E6, 'denomZ')] });
    g.send(B.address, k.reserveAccount(pool), extra);
    expect(k.getReserveCoins(g.ctx, pool)).to.deep.equal([c(2n * E6, 'denomX'), c(3n * E6, 'denomY')]);
    expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY')]).to.deep.equal([3n * E6, 3n * E6]);
    g.begin();
    k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, [c(3n * E6, 'denomX'), c(3n * E6, 'denomY')]));
    g.end();
    expect(g.reserves(pool)).to.deep.equal([4n * E6, 6n * E6]);
    expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY'), g.balance(B.address, pool.pool_coin_denom)]).to.deep.equal([E6, 0n, E6]);
  });

  it('TestCreatePoolEqualDenom: two coins of one denom: ErrEqualDenom', async () => {
    const { g } = await start({ 0: [c(2n * E6, 'denomA'), c(FEE, 'achain')] });
    expect(codeOf(() => create(g, [c(E6, 'denomA'), c(E6, 'denomA')]))).to.equal(code(LiquidityErrors.EqualDenom));
  });

  it('TestOverflowAndZeroCases: deposits of 10^72 overflow (41, refunded), 10^54 passes; withdrawing it overflows (41); a swap at 1.1·10^59 overflows, one at 10^-18 is refunded', async () => {
    const h72 = pow10(72);
    const { g, k } = await start({ 0: [c(E6 + h72 + pow10(18), 'uETH'), c(2n * pow10(24) + 2n * h72, 'uUSD'), c(FEE, 'achain')] });
    const overflow = code(LiquidityErrors.OverflowAmount);
    const pool = create(g, [c(E6, 'uETH'), c(2n * pow10(24), 'uUSD')]);
    const poolCoin = g.supply(pool.pool_coin_denom);
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(h72, 'uETH'), c(h72, 'uUSD')]));
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(pow10(18), 'uETH'), c(h72, 'uUSD')]));
    let batch = k.getBatch(g.ctx, pool.id)!;
    let msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(2);
    const refund = (k as unknown as { refundDeposit(ctx: unknown, m: unknown, b: unknown): void }).refundDeposit.bind(k);
    expect(codeOf(() => k.executeDeposit(g.ctx, msgs[0]!, batch))).to.equal(overflow);
    refund(g.ctx, msgs[0]!, batch);
    expect(codeOf(() => k.executeDeposit(g.ctx, msgs[1]!, batch))).to.equal(overflow);
    refund(g.ctx, msgs[1]!, batch);
    expect([g.supply(pool.pool_coin_denom), g.balance(A.address, pool.pool_coin_denom)]).to.deep.equal([poolCoin, poolCoin]);
    k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(pow10(54), 'uETH'), c(pow10(54), 'uUSD')]));
    msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(3);
    k.executeDeposit(g.ctx, msgs[2]!, batch);
    const held = g.balance(A.address, pool.pool_coin_denom);
    k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(held - 1n, pool.pool_coin_denom)));
    batch = k.getBatch(g.ctx, pool.id)!;
    const wds = k.withdrawMsgStates(g.ctx, pool.id);
    expect(wds).to.have.length(1);
    expect(codeOf(() => k.executeWithdrawal(g.ctx, wds[0]!, batch))).to.equal(overflow);
    (k as unknown as { refundWithdrawal(ctx: unknown, m: unknown, b: unknown): void }).refundWithdrawal(g.ctx, wds[0]!, batch);
    const before = g.s.bank.getAllBalances(g.ctx, g.s.ak.addressCodec.decode(A.address));
    g.begin();
    expect(codeOf(() => k.swapWithinBatch(g.ctx, kmsg.swap(A.address, pool.id, c(pow10(27), 'uETH'), 'uUSD', '110000000000000000000000000000000000000000000000000000000000.000000000000000001')))).to.equal(overflow);
    k.swapWithinBatch(g.ctx, kmsg.swap(A.address, pool.id, c(pow10(48), 'uUSD'), 'uETH', '0.000000000000000001'));
    g.end();
    g.begin();
    expect(g.s.bank.getAllBalances(g.ctx, g.s.ak.addressCodec.decode(A.address))).to.deep.equal(before);
    expect([k.depositMsgStates(g.ctx, pool.id).length, k.withdrawMsgStates(g.ctx, pool.id).length, k.swapMsgStates(g.ctx, pool.id).length]).to.deep.equal([0, 0, 0]);
  });

  it('TestExecuteBigDeposit: deposits of 2^63−1 each: the first accepted whole, the second refunds 8 of each (Dec precision); withdrawing the first gives 2^63−1 − 4', async () => {
    const h = 9_223_372_036_854_775_807n;
    const init = [c(h, 'uETH'), c(h, 'uUSD')];
    const { g, k } = await start({ 0: [...init, c(FEE, 'achain')], 1: init, 2: init });
    const pool = create(g, [c(E6, 'uETH'), c(E6, 'uUSD')]);
    const init0 = g.supply(pool.pool_coin_denom);
    expect(init0).to.equal(E6);
    k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, init));
    let msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    k.executeDeposit(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!);
    const poolCoin = g.supply(pool.pool_coin_denom);
    expect(poolCoin - init0).to.equal(g.balance(B.address, pool.pool_coin_denom));
    // DeleteAllReadyPoolBatchDepositMsgStates: the msgs to be deleted
    for (const m of k.depositMsgStates(g.ctx, pool.id)) if (m.to_be_deleted) k.state.DepositMsgStates.remove(g.ctx, [pool.id, m.msg_index]);
    k.depositWithinBatch(g.ctx, kmsg.deposit(C.address, pool.id, init));
    msgs = k.depositMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(1);
    k.executeDeposit(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!);
    expect(g.supply(pool.pool_coin_denom) - poolCoin).to.equal(g.balance(C.address, pool.pool_coin_denom));
    expect(g.balance(B.address, pool.pool_coin_denom)).to.equal(g.balance(C.address, pool.pool_coin_denom));
    expect([g.balance(B.address, 'uETH'), g.balance(B.address, 'uUSD')]).to.deep.equal([0n, 0n]);
    expect([g.balance(C.address, 'uETH'), g.balance(C.address, 'uUSD')]).to.deep.equal([8n, 8n]);
    const state = k.withdrawWithinBatch(g.ctx, kmsg.withdraw(B.address, pool.id, c(g.balance(B.address, pool.pool_coin_denom), pool.pool_coin_denom)));
    k.executeWithdrawal(g.ctx, state, k.getBatch(g.ctx, pool.id)!);
    const after = [g.balance(B.address, pool.pool_coin_denom), g.balance(B.address, 'uETH') - h, g.balance(B.address, 'uUSD') - h];
    g.end();
    g.begin();
    expect(after).to.deep.equal([0n, -4n, -4n]);
  });

});
