/**
 * tendermint/liquidity v1.4.5 `x/liquidity/keeper/store_test.go`, in the Go tests' style (test/helpers.ts `GoCtx`).
 * The original's store getters are filters over our collections here:
 *   GetAllPoolBatchSwapMsgStatesAsPointer / …States  = k.swapMsgStates(pool)
 *   GetAllNotProcessedPoolBatchSwapMsgStates          = !executed && !succeeded && !to_be_deleted
 *   GetAllRemainingPoolBatch{Deposit,Swap}MsgStates   = executed && !to_be_deleted
 *   GetAllPoolBatch{Deposit,Withdraw}MsgStatesNotToBeDeleted = !to_be_deleted
 *   Iterate/GetAll{Deposit,Withdraw,Swap}MsgStates (every pool) = the collection's values
 * `TestGetAllLiquidityPoolBatchSwapMsgs` runs seeds 0..9 of our PRNG (the original: 100 seeds of Go's math/rand) with
 * the original's generators (`GetRandPoolAmt`, `GetRandomOrders`).
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import type { DepositMsgState, SwapMsgState, WithdrawMsgState } from '../src/index.js';
import { exportLiquidityGenesis, initLiquidityGenesis } from '../src/index.js';
import { GoCtx, c, devKey, kmsg, offerFee, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const FAUCET = devKey(9);
const BIG = 10n ** 40n;
const addr = (i: number) => devKey(i).address;
const notProcessed = (ms: SwapMsgState[]) => ms.filter((m) => !m.executed && !m.succeeded && !m.to_be_deleted);
const remaining = <T extends { executed: boolean; to_be_deleted: boolean }>(ms: T[]) => ms.filter((m) => m.executed && !m.to_be_deleted);
const notToBeDeleted = <T extends { to_be_deleted: boolean }>(ms: T[]) => ms.filter((m) => !m.to_be_deleted);

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

describe('liquidity: ported keeper tests (store_test.go, Go style)', function () {
  this.timeout(120_000);
  const open: TestSetup[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const start = async () => {
    const s = await startChain({ 9: ['achain', 'denomA', 'denomB', 'denomX', 'denomY'].map((d) => c(BIG, d)) });
    open.push(s);
    const g = new GoCtx(s);
    const save = (to: string, coins: ReturnType<typeof c>[]) => g.send(FAUCET.address, to, [...coins].sort((a, b) => (a.denom < b.denom ? -1 : 1)));
    const k = s.keeper;
    /** app.TestCreatePool */
    const createPool = (x: bigint, y: bigint, dx: string, dy: string, who: string) => {
      save(who, [c(x, dx), c(y, dy), c(FEE, 'achain')]);
      return k.createPool(g.ctx, kmsg.create(who, [c(x, dx), c(y, dy)])).id;
    };
    /** app.TestDepositPool(x, y, [who], poolID, withEndblock) */
    const deposit = (x: bigint, y: bigint, who: string, poolId: bigint, endBlock: boolean) => {
      const [dx, dy] = k.getPool(g.ctx, poolId)!.reserve_coin_denoms as [string, string];
      save(who, [c(x, dx), c(y, dy)]);
      k.depositWithinBatch(g.ctx, kmsg.deposit(who, poolId, [c(x, dx), c(y, dy)]));
      if (endBlock) g.end();
    };
    /** app.TestWithdrawPool(amount, [who], poolID, false) */
    const withdraw = (amount: bigint, who: string, poolId: bigint) => {
      const pool = k.getPool(g.ctx, poolId)!;
      expect(g.balance(who, pool.pool_coin_denom) >= amount).to.equal(true);
      k.withdrawWithinBatch(g.ctx, kmsg.withdraw(who, poolId, c(amount, pool.pool_coin_denom)));
    };
    /** app.TestSwapPool([offer], [price], [who], poolID, withEndblock): the states it returns */
    const swap = (offer: ReturnType<typeof c>, price: string, who: string, poolId: bigint, endBlock: boolean): SwapMsgState => {
      const [d0, d1] = k.getPool(g.ctx, poolId)!.reserve_coin_denoms as [string, string];
      if (g.balance(who, offer.denom) < BigInt(offer.amount)) save(who, [c(BigInt(offer.amount) + offerFee(BigInt(offer.amount)), offer.denom)]);
      const st = k.swapWithinBatch(g.ctx, kmsg.swap(who, poolId, offer, offer.denom === d0 ? d1 : d0, price));
      if (endBlock) g.end();
      return st;
    };
    const next = () => {
      g.next();
      g.begin();
    };
    return { s, g, k, save, createPool, deposit, withdraw, swap, next };
  };

  it('TestGetAllLiquidityPoolBatchSwapMsgs (seeds 0..9): 20 orders; odd msg indexes deleted → 10; swap msg index 21; from index 18446744073709551610 two more → 12, the last two the new ones', async () => {
    for (let seed = 0; seed < 10; seed++) {
      const r = rng(seed);
      const intn = (n: number) => Math.floor(r() * n);
      const randRange = (min: bigint, max: bigint) => min + BigInt(Math.floor(r() * Number(max - min)));
      const { g, k, save, createPool } = await start();
      // GetRandPoolAmt: [MinInitDepositAmount, 10^14) × 10^[0, 10)
      const X = randRange(1_000_000n, 100_000_000_000_000n) * 10n ** BigInt(intn(10));
      const Y = randRange(1_000_000n, 100_000_000_000_000n) * 10n ** BigInt(intn(10));
      const poolId = createPool(X, Y, 'denomX', 'denomY', addr(0));
      // GetRandomOrders(X, Y, 11, 11): price X/Y × [0.991, 1.009); amount X (or Y) × [0.0001, 0.01) or [1000, 10000)
      const current = Dec.fromInt(X).quo(Dec.fromInt(Y));
      const orders = (n: number, reserve: bigint, offerDenom: string, demandDenom: string, who: (i: number) => string) => {
        const out: ReturnType<typeof kmsg.swap>[] = [];
        while (out.length < n) {
          const price = current.mul(Dec.withPrec(randRange(991n, 1009n), 3));
          const amt = intn(2) === 1 ? Dec.fromInt(reserve).mul(Dec.withPrec(randRange(1n, 100n), 4)) : Dec.fromInt(randRange(1000n, 10000n));
          if (amt.quo(price).truncateInt() === 0n) continue;
          const offer = amt.ceil().truncateInt();
          out.push(kmsg.swap(who(out.length), poolId, c(offer, offerDenom), demandDenom, price.toString()));
        }
        return out;
      };
      const xToY = orders(11, X, 'denomX', 'denomY', (i) => addr(10 + i));
      const yToX = orders(11, Y, 'denomY', 'denomX', (i) => addr(30 + i));
      for (const m of [...xToY, ...yToX]) save(m.swap_requester_address, [c(BigInt(m.offer_coin.amount) + BigInt(m.offer_coin_fee.amount), m.offer_coin.denom)]);
      expect(k.getBatch(g.ctx, poolId)!.swap_msg_index).to.equal(1n);
      for (const m of [...xToY.slice(0, 10), ...yToX.slice(0, 10)]) k.swapWithinBatch(g.ctx, m);
      expect(k.swapMsgStates(g.ctx, poolId)).to.have.length(20);
      for (const m of k.swapMsgStates(g.ctx, poolId)) if (m.msg_index % 2n === 1n) k.state.SwapMsgStates.remove(g.ctx, [poolId, m.msg_index]);
      expect(k.swapMsgStates(g.ctx, poolId)).to.have.length(10);
      const batch = k.getBatch(g.ctx, poolId)!;
      expect(batch.swap_msg_index).to.equal(21n);
      k.setBatch(g.ctx, { ...batch, swap_msg_index: 18446744073709551610n });
      k.swapWithinBatch(g.ctx, xToY[10]!);
      k.swapWithinBatch(g.ctx, yToX[10]!);
      const msgs = k.swapMsgStates(g.ctx, poolId);
      expect(msgs, `seed ${seed}`).to.have.length(12);
      expect([msgs[10]!.msg, msgs[11]!.msg]).to.deep.equal([xToY[10], yToX[10]]);
      expect([msgs[10]!.msg_index, msgs[11]!.msg_index]).to.deep.equal([18446744073709551610n, 18446744073709551611n]);
      await g.s.chain.close();
      open.splice(open.indexOf(g.s), 1);
    }
  });

  it('TestGetAllNotProcessedPoolBatchSwapMsgs: 2 × 3 orders of 10000 X at 1.1, the second three marked executed / succeeded / to be deleted: 6 msgs, 3 not processed', async () => {
    const { g, k, createPool, deposit, swap, next } = await start();
    const X = 1_000_000_000n;
    const Y = 1_000_000_000n;
    const poolId = createPool(X, Y, 'denomX', 'denomY', addr(0));
    deposit(X / 10n, Y, addr(1), poolId, true);
    deposit(X, Y / 10n, addr(2), poolId, true);
    next();
    const round = () => [1, 2, 3].map((i) => swap(c(10000, 'denomX'), '1.1', addr(i), poolId, false));
    const first = round();
    const second = round();
    expect(first).to.have.length(3);
    for (const m of second) k.setSwapMsgState(g.ctx, poolId, { ...m, executed: true, succeeded: true, to_be_deleted: true });
    const all = k.swapMsgStates(g.ctx, poolId);
    expect([all.length, notProcessed(all).length]).to.deep.equal([6, 3]);
  });

  it('TestIterateAllBatchMsgs: the counts of deposit / withdraw / swap msg states over two pools and four blocks; export → InitGenesis → export equal; DeletePoolBatch', async () => {
    const { g, k, createPool, deposit, withdraw, swap, next } = await start();
    const X = 1_000_000_000n;
    const Y = 500_000_000n;
    const A = 500_000_000n;
    const B = 1_000_000_000n;
    const pool1 = createPool(X, Y, 'denomX', 'denomY', addr(0));
    const pool2 = createPool(A, B, 'denomA', 'denomB', addr(4));
    expect(k.getBatch(g.ctx, pool1)).not.to.equal(undefined);
    for (let i = 0; i < 3; i++) deposit(X / 10n, Y, addr(1), pool1, false);
    for (let i = 0; i < 3; i++) deposit(X, Y / 10n, addr(2), pool1, false);

    next();
    deposit(A, B / 10n, addr(4), pool2, false);
    withdraw(1000n, addr(4), pool2);
    swap(c(5000, 'denomA'), '1.1', addr(4), pool2, true);

    next();
    deposit(A, B / 10n, addr(4), pool2, false);
    withdraw(1000n, addr(4), pool2);
    swap(c(5000, 'denomA'), '1.1', addr(4), pool2, true);

    next();
    deposit(X / 10n, Y, addr(1), pool1, false);
    deposit(X / 10n, Y, addr(1), pool1, false);
    deposit(X, Y / 10n, addr(2), pool1, false);
    deposit(X, Y / 10n, addr(2), pool1, false);
    withdraw(50n, addr(1), pool1);
    withdraw(500n, addr(1), pool1);
    withdraw(50n, addr(2), pool1);
    withdraw(500n, addr(2), pool1);

    expect(remaining(k.depositMsgStates(g.ctx, pool1))).to.have.length(0);
    const allDeposits = (): DepositMsgState[] => k.state.DepositMsgStates.values(g.ctx).toArray();
    const allWithdraws = (): WithdrawMsgState[] => k.state.WithdrawMsgStates.values(g.ctx).toArray();
    const allSwaps = (): SwapMsgState[] => k.state.SwapMsgStates.values(g.ctx).toArray();
    const depositMsgs = allDeposits();
    expect(depositMsgs).to.have.length(4);
    k.setDepositMsgState(g.ctx, pool1, { ...depositMsgs[0]!, to_be_deleted: true });
    expect(notToBeDeleted(k.depositMsgStates(g.ctx, pool1))).to.have.length(3);

    const withdrawMsgs = allWithdraws();
    k.setWithdrawMsgState(g.ctx, pool1, { ...withdrawMsgs[0]!, to_be_deleted: true });
    const withdrawNotToDelete = notToBeDeleted(k.withdrawMsgStates(g.ctx, pool1));
    expect([withdrawMsgs.length, withdrawNotToDelete.length]).to.deep.equal([4, 3]);
    expect(withdrawNotToDelete).not.to.deep.equal(withdrawMsgs);

    deposit(A, B / 10n, addr(4), pool2, false);
    withdraw(1000n, addr(4), pool2);
    expect([allDeposits().length, allWithdraws().length]).to.deep.equal([5, 5]);

    g.end();
    expect(remaining(k.depositMsgStates(g.ctx, pool1))).to.have.length(0);

    next();
    expect([allDeposits().length, allWithdraws().length]).to.deep.equal([0, 0]);

    for (let i = 0; i < 3; i++) swap(c(10000, 'denomX'), '1.1', addr(1), pool1, false);
    swap(c(5000, 'denomY'), '1.2', addr(2), pool1, false);
    swap(c(5000, 'denomA'), '1.1', addr(4), pool2, false);

    const swapsPool1 = k.swapMsgStates(g.ctx, pool1);
    expect(swapsPool1).to.have.length(4);
    expect(k.state.SwapMsgStates.get(g.ctx, [pool1, 1n])).to.deep.equal(swapsPool1[0]);
    const swapsAll = allSwaps();
    expect(swapsAll).to.have.length(5);
    expect(swapsAll.slice(0, swapsPool1.length)).to.deep.equal(swapsPool1);
    k.setSwapMsgState(g.ctx, pool1, { ...swapsAll[1]!, executed: true });
    expect(remaining(k.swapMsgStates(g.ctx, pool1))).to.have.length(1);

    g.end();
    next();
    expect(allSwaps()).to.have.length(0);
    g.end();

    const gen = exportLiquidityGenesis(g.ctx, k);
    initLiquidityGenesis(g.ctx, k, gen);
    expect(exportLiquidityGenesis(g.ctx, k)).to.deep.equal(gen);

    const batch = k.getBatch(g.ctx, pool1)!;
    k.deletePoolBatch(g.ctx, batch);
    expect(k.getBatch(g.ctx, pool1)).to.equal(undefined);
  });
});
