/**
 * The rest of tendermint/liquidity v1.4.5 `x/liquidity/keeper/batch_test.go`, ported with its expected values in
 * the Go tests' style (test/helpers.ts `GoCtx`: the keeper, BeginBlocker and EndBlocker called by the test on one
 * context whose height the test moves). `app.SaveAccount` (which sets an account's balances) is genesis
 * balances here, or a send from a funded account.
 */
import { expect } from 'chai';
import { Errors } from '@chain/errors';
import { LiquidityErrors, newPoolBatch } from '../src/index.js';
import type { Pool } from '../src/index.js';
import { GoCtx, c, codeOf, devKey, escrow, kmsg, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const A = devKey(0);
const B = devKey(1);
const C = devKey(2);
const D = devKey(3);
const code = (e: { error(): { codespace: string; code: number } }) => `${e.error().codespace}:${e.error().code}`;

describe('liquidity: ported keeper tests (batch_test.go, Go style)', function () {
  this.timeout(120_000);
  const open: TestSetup[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const start = async (balances: Parameters<typeof startChain>[0], params: Parameters<typeof startChain>[1] = {}) => {
    const s = await startChain(balances, params);
    open.push(s);
    return { s, g: new GoCtx(s) };
  };
  const createXY = (g: GoCtx, x: bigint, y: bigint, creator = A.address, dx = 'denomX', dy = 'denomY'): Pool =>
    g.s.keeper.createPool(g.ctx, kmsg.create(creator, [c(x, dx), c(y, dy)]));

  for (const kind of ['TestBadDeposit', 'TestBadWithdraw', 'TestBadSwap'] as const) {
    it(`${kind}: the empty msg (ErrPoolNotExists), more than the balance (sdk ErrInsufficientFunds), no batch (ErrPoolBatchNotExists)`, async () => {
      const { s, g } = await start({ 0: [c(1_000_000, 'denomX'), c(1_000_000, 'denomY'), c(FEE, 'achain')], 1: [c(100_000, 'denomX')] });
      const pool = createXY(g, 1_000_000n, 1_000_000n);
      const k = s.keeper;
      const notExists = code(LiquidityErrors.PoolNotExists);
      const insufficient = code(Errors.InsufficientFunds);
      const noBatch = code(LiquidityErrors.PoolBatchNotExists);
      const offer = c(100_000, 'denomX');
      const again = () => {
        if (kind === 'TestBadDeposit') return k.depositWithinBatch(g.ctx, kmsg.deposit(A.address, pool.id, [c(1, 'denomX'), c(1, 'denomY')]));
        if (kind === 'TestBadWithdraw') return k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(1, pool.pool_coin_denom)));
        return k.swapWithinBatch(g.ctx, kmsg.swap(A.address, pool.id, offer, 'denomY', '1'));
      };
      if (kind === 'TestBadDeposit') {
        expect(codeOf(() => k.depositWithinBatch(g.ctx, kmsg.deposit('', 0n, [])))).to.equal(notExists);
        // the creator has nothing left of X and Y
        expect(codeOf(again)).to.equal(insufficient);
      } else if (kind === 'TestBadWithdraw') {
        expect(codeOf(() => k.withdrawWithinBatch(g.ctx, { withdrawer_address: '', pool_id: 0n, pool_coin: undefined } as never))).to.equal(notExists);
        const held = g.balance(A.address, pool.pool_coin_denom);
        // 1000 extra pool coins minted, so held + 1 is within the supply but above the balance
        s.bank.mintCoins(g.ctx, 'liquidity', [c(1000, pool.pool_coin_denom)]);
        expect(codeOf(() => k.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(held + 1n, pool.pool_coin_denom))))).to.equal(insufficient);
      } else {
        expect(codeOf(() => k.swapWithinBatch(g.ctx, { swap_requester_address: '', pool_id: 0n, swap_type_id: 0, demand_coin_denom: '', order_price: '0' } as never))).to.equal(notExists);
        expect(codeOf(again)).to.equal(insufficient);
        // with exactly the offer (not the fee) the swap still fails and the balance does not change
        g.send(B.address, A.address, [offer]);
        expect(codeOf(again)).to.equal(insufficient);
        expect(g.balance(A.address, 'denomX')).to.equal(100_000n);
      }
      k.deletePoolBatch(g.ctx, k.getBatch(g.ctx, pool.id)!);
      expect(codeOf(again)).to.equal(noBatch);
    });
  }

  for (const name of ['TestCreateDepositWithdrawWithinBatch', 'TestCreateDepositWithdrawWithinBatch2'] as const) {
    it(`${name}: create, deposit (escrowed, then pool coins), withdraw all of it back (fee rate 0), batch index 1 → 2 → 3`, async () => {
      const X = 1_000_000_000n;
      const first = name === 'TestCreateDepositWithdrawWithinBatch';
      const dep = first ? X : X / 2n;
      const { s, g } = await start({
        0: [c(X, 'denomX'), c(X, 'denomY'), c(10n ** 12n, 'denomA'), c(10n ** 12n, 'denomB'), c(FEE, 'achain')],
        1: [c(dep, 'denomX'), c(dep, 'denomY')], 3: [c(FEE, 'achain')],
      });
      const k = s.keeper;
      const distribution = s.ak.getModuleAddress('distribution');
      const pool = createXY(g, X, X);
      expect(g.balance(distribution, 'achain')).to.equal(FEE);
      if (first) {
        expect(codeOf(() => createXY(g, X, X))).to.equal(code(LiquidityErrors.PoolAlreadyExists));
        // no creation fee left
        expect(codeOf(() => createXY(g, 10n ** 12n, 10n ** 12n, A.address, 'denomA', 'denomB'))).to.equal(code(LiquidityErrors.InsufficientPoolCreationFee));
        g.send(D.address, A.address, [c(FEE, 'achain')]);
        createXY(g, 10n ** 12n, 10n ** 12n, A.address, 'denomA', 'denomB');
        expect(g.balance(distribution, 'achain')).to.equal(2n * FEE);
        expect(k.getAllPools(g.ctx).map((p) => p.reserve_coin_denoms)).to.deep.equal([['denomX', 'denomY'], ['denomA', 'denomB']]);
      }
      expect(pool.id).to.equal(1n);
      const creatorPoolCoins = g.balance(A.address, pool.pool_coin_denom);
      expect(g.supply(pool.pool_coin_denom)).to.equal(creatorPoolCoins);
      g.begin();
      k.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, [c(dep, 'denomX'), c(dep, 'denomY')]));
      expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY'), g.supply(pool.pool_coin_denom)]).to.deep.equal([0n, 0n, creatorPoolCoins]);
      expect([g.balance(escrow(s), 'denomX'), g.balance(escrow(s), 'denomY')]).to.deep.equal([dep, dep]);
      g.end();
      const depositorPoolCoins = g.balance(B.address, pool.pool_coin_denom);
      expect(depositorPoolCoins).to.equal(first ? 1_000_000n : 500_000n);
      expect(g.supply(pool.pool_coin_denom)).to.equal(depositorPoolCoins + creatorPoolCoins);
      const msgs = k.depositMsgStates(g.ctx, pool.id);
      expect(msgs.map((m) => [m.executed, m.succeeded, m.to_be_deleted])).to.deep.equal([[true, true, true]]);
      expect(k.getBatch(g.ctx, pool.id)!.index).to.equal(1n);
      expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY')]).to.deep.equal([0n, 0n]);
      g.next();
      g.begin();
      expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY')]).to.deep.equal([0n, 0n]);
      expect(k.depositMsgStates(g.ctx, pool.id)).to.deep.equal([]);
      expect(k.getBatch(g.ctx, pool.id)!.index).to.equal(2n);
      expect(g.balance(escrow(s), pool.pool_coin_denom)).to.equal(0n);
      k.withdrawWithinBatch(g.ctx, kmsg.withdraw(B.address, pool.id, c(depositorPoolCoins, pool.pool_coin_denom)));
      expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY'), g.balance(B.address, pool.pool_coin_denom)]).to.deep.equal([0n, 0n, 0n]);
      expect(g.supply(pool.pool_coin_denom)).to.equal(creatorPoolCoins + depositorPoolCoins);
      expect(g.balance(escrow(s), pool.pool_coin_denom)).to.equal(depositorPoolCoins);
      g.end();
      // depositX × (1 − WithdrawFeeRate 0), truncated
      expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY'), g.balance(B.address, pool.pool_coin_denom)]).to.deep.equal([dep, dep, 0n]);
      expect(g.supply(pool.pool_coin_denom)).to.equal(creatorPoolCoins);
      expect(k.withdrawMsgStates(g.ctx, pool.id).map((m) => [m.executed, m.succeeded, m.to_be_deleted])).to.deep.equal([[true, true, true]]);
      expect(k.getBatch(g.ctx, pool.id)!.index).to.equal(2n);
      g.next();
      g.begin();
      expect(k.withdrawMsgStates(g.ctx, pool.id)).to.deep.equal([]);
      expect(k.getBatch(g.ctx, pool.id)).to.deep.include({ index: 3n, executed: false });
    });
  }

  it('TestDepositRefundDeletedPool: a deposit to a pool deleted (DeletePool) before the batch runs is refunded in full', async () => {
    const [X, Y] = [1_000_000_000n, 500_000_000n];
    const { s, g } = await start({ 0: [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')], 1: [c(X, 'denomX'), c(Y, 'denomY')] });
    const pool = createXY(g, X, Y);
    s.keeper.depositWithinBatch(g.ctx, kmsg.deposit(B.address, pool.id, [c(X, 'denomX'), c(Y, 'denomY')]));
    expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY')]).to.deep.equal([0n, 0n]);
    s.keeper.deletePool(g.ctx, s.keeper.getPool(g.ctx, pool.id)!);
    expect(s.keeper.getPool(g.ctx, pool.id)).to.equal(undefined);
    g.end();
    expect([g.balance(B.address, 'denomX'), g.balance(B.address, 'denomY')]).to.deep.equal([X, Y]);
    // the refund event carries GetPool's id of a deleted pool: 0, as the original
    const ev = g.ctx.events.events.filter((e) => e.type === 'deposit_to_pool').map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
    expect(ev).to.have.length(1);
    expect(ev[0]).to.deep.include({ pool_id: '0', success: 'failure', refunded_coins: `${X}denomX,${Y}denomY` });
    g.next();
    g.begin();
    expect(s.keeper.depositMsgStates(g.ctx, pool.id)).to.deep.equal([]);
  });

  it('TestLiquidityScenario5: withdrawing every pool coin of a pool deleted (DeletePool) before the batch runs refunds the pool coins', async () => {
    const [X, Y] = [1_000_000_000n, 500_000_000n];
    const { s, g } = await start({ 0: [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')] });
    const pool = createXY(g, X, Y);
    const poolCoin = g.balance(A.address, pool.pool_coin_denom);
    s.keeper.withdrawWithinBatch(g.ctx, kmsg.withdraw(A.address, pool.id, c(poolCoin, pool.pool_coin_denom)));
    expect(g.balance(A.address, pool.pool_coin_denom)).to.equal(0n);
    s.keeper.deletePool(g.ctx, pool);
    expect(s.keeper.getPool(g.ctx, pool.id)).to.equal(undefined);
    g.end();
    expect(g.balance(A.address, pool.pool_coin_denom)).to.equal(poolCoin);
    g.next();
    g.begin();
  });

  it('TestInitNextBatch: InitNextPoolBatch of a batch not executed is ErrBatchNotExecuted; of an executed one: index 2, not executed', async () => {
    const { s, g } = await start({ 0: [c(1_000_000, 'denomX'), c(1_000_000, 'denomY'), c(FEE, 'achain')] });
    // the original stores a bare Pool{Id: 1, TypeId: 1} with SetPool; our SetPool keeps the reserve-account index
    // (which needs an address), so the pool is a created one and its batch is replaced by NewPoolBatch(1, 1)
    const pool = createXY(g, 1_000_000n, 1_000_000n);
    let batch = newPoolBatch(pool.id, 1n);
    s.keeper.setBatch(g.ctx, batch);
    expect(codeOf(() => s.keeper.initNextPoolBatch(g.ctx, batch))).to.equal(code(LiquidityErrors.BatchNotExecuted));
    batch = { ...batch, executed: true };
    s.keeper.setBatch(g.ctx, batch);
    s.keeper.initNextPoolBatch(g.ctx, batch);
    expect(s.keeper.getBatch(g.ctx, pool.id)).to.deep.include({ executed: false, index: 2n });
  });

  for (const kind of ['Deposit', 'Withdraw'] as const) {
    it(`TestDeleteAndInitPoolBatch${kind}: of 6 executed ${kind.toLowerCase()} msgs, one forced back to executed and not to be deleted is the one remaining; none after DeleteAndInitPoolBatches`, async () => {
      const [X, Y] = [1_000_000_000n, 500_000_000n];
      const { s, g } = await start({
        0: [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')],
        1: [c(3n * X / 10n, 'denomX'), c(3n * Y, 'denomY')], 2: [c(3n * X, 'denomX'), c(3n * Y / 10n, 'denomY')],
      });
      const k = s.keeper;
      const pool = createXY(g, X, Y);
      for (const [key, a, b] of [[B, X / 10n, Y], [B, X / 10n, Y], [B, X / 10n, Y], [C, X, Y / 10n], [C, X, Y / 10n], [C, X, Y / 10n]] as const) {
        k.depositWithinBatch(g.ctx, kmsg.deposit(key.address, pool.id, [c(a, 'denomX'), c(b, 'denomY')]));
      }
      g.end();
      if (kind === 'Withdraw') {
        g.next();
        g.begin();
        for (const key of [B, C]) for (const p of [5000n, 500n, 50n]) k.withdrawWithinBatch(g.ctx, kmsg.withdraw(key.address, pool.id, c(p, pool.pool_coin_denom)));
        g.end();
      }
      const all = kind === 'Deposit' ? k.depositMsgStates(g.ctx, pool.id) : k.withdrawMsgStates(g.ctx, pool.id);
      expect(all).to.have.length(6);
      expect(all.every((m) => m.executed && m.succeeded && m.to_be_deleted)).to.equal(true);
      all[0] = { ...all[0]!, executed: true, to_be_deleted: false };
      for (const m of all) (kind === 'Deposit' ? k.setDepositMsgState(g.ctx, pool.id, m as never) : k.setWithdrawMsgState(g.ctx, pool.id, m as never));
      // GetAllRemainingPoolBatch*MsgStates: executed and not to be deleted
      const remaining = () => (kind === 'Deposit' ? k.depositMsgStates(g.ctx, pool.id) : k.withdrawMsgStates(g.ctx, pool.id)).filter((m) => m.executed && !m.to_be_deleted);
      const before = remaining();
      k.setBatch(g.ctx, { ...k.getBatch(g.ctx, pool.id)!, executed: true });
      k.deleteAndInitPoolBatches(g.ctx);
      expect([before.length, remaining().length]).to.deep.equal([1, 0]);
      // the forced one stays, reset to not executed; the other five are deleted
      expect((kind === 'Deposit' ? k.depositMsgStates(g.ctx, pool.id) : k.withdrawMsgStates(g.ctx, pool.id)).map((m) => [m.msg_index, m.executed])).to.deep.equal([[1n, false]]);
      g.next();
      g.begin();
    });
  }

  it('TestUnitBatchHeight: for unit_batch_height 1, 2, 3, 5, 9 over heights 1..100 with a swap each block: executed iff height % U = 0; begin height (h−1)/U×U+1', async () => {
    for (const U of [1, 2, 3, 5, 9]) {
      const { s, g } = await start({ 0: [c(1_000_000, 'denomX'), c(1_000_000, 'denomY'), c(FEE, 'achain')], 1: [c(100_000_000, 'denomX'), c(100_000_000, 'denomY')] }, { unit_batch_height: U });
      g.setHeight(1);
      const pool = createXY(g, 1_000_000n, 1_000_000n);
      const beginHeight = (h: number) => BigInt(Math.floor((h - 1) / U) * U + 1);
      for (; g.height <= 100; g.next()) {
        g.begin();
        let batch = s.keeper.getBatch(g.ctx, pool.id)!;
        expect(batch.executed, `U ${U} h ${g.height}`).to.equal(false);
        expect(batch.begin_height, `U ${U} h ${g.height}`).to.equal(beginHeight(g.height));
        s.keeper.swapWithinBatch(g.ctx, kmsg.swap(B.address, pool.id, c(1000, 'denomX'), 'denomY', '1.1'));
        g.end();
        batch = s.keeper.getBatch(g.ctx, pool.id)!;
        expect(batch.executed, `U ${U} h ${g.height}`).to.equal(g.height % U === 0);
        expect(batch.begin_height).to.equal(beginHeight(g.height));
      }
      await s.chain.close();
      open.splice(open.indexOf(s), 1);
    }
  });
});

