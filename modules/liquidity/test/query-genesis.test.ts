/**
 * On a real auth + bank + liquidity chain: every query of the Query service over ABCI under both service names
 * (`chain.liquidity.v1beta1.Query`, the original `tendermint.liquidity.v1beta1.Query`) with its not-found and
 * bad-input errors; the genesis export / import round trip (into a second chain, which then carries on); the
 * circuit breaker (code 40 on create, deposit, swap; withdrawals still work, as the original chain's fork); the
 * exact `swap_transacted` attributes; and the refund of an order dropped at execution (the original's lost escrow).
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { balance, c, deliver, devKey, escrow, eventsOf, genesis, msg, openChain, reserves, startChain, supply } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const A = devKey(0);
const B = devKey(1);
const INIT = [c(1_000_000_000, 'aaa'), c(1_000_000_000, 'bbb')];

describe('liquidity: queries over ABCI, genesis round trip, circuit breaker, dropped orders', () => {
  const open: TestSetup[] = [];
  const start = async (...args: Parameters<typeof startChain>): Promise<TestSetup> => {
    const s = await startChain(...args);
    open.push(s);
    return s;
  };
  after(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });

  /** A pool 1 of aaa/bbb by A; B deposits, withdraws and swaps in one tx (batch executed at the returned height). */
  async function withBatch(params = {}): Promise<{ s: TestSetup; h: number; poolDenom: string }> {
    const s = await start({ 0: [...INIT, c(FEE, 'achain')], 1: [c(10n ** 12n, 'aaa'), c(10n ** 12n, 'bbb')] }, params);
    expect((await deliver(s, A, msg.create(s, A.address, INIT))).code).to.equal(0);
    const poolDenom = s.keeper.getPool(s.chain.ctx(), 1n)!.pool_coin_denom;
    // B needs pool coins to withdraw: a first deposit
    expect((await deliver(s, B, msg.deposit(s, B.address, 1n, [c(10_000_000, 'aaa'), c(10_000_000, 'bbb')]))).code).to.equal(0);
    const r = await deliver(s, B,
      msg.deposit(s, B.address, 1n, [c(1_000_000, 'aaa'), c(1_000_000, 'bbb')]),
      msg.withdraw(s, B.address, 1n, c(1_000, poolDenom)),
      msg.swap(s, B.address, 1n, c(1_000_000, 'aaa'), 'bbb', '1.1', c(1_500, 'aaa')));
    expect(r.code, r.log).to.equal(0);
    return { s, h: s.chain.app.lastHeight, poolDenom };
  }

  it('every query under both service names; NotFound and InvalidArgument as the original', async () => {
    const { s, h, poolDenom } = await withBatch();
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    const q = async (method: string, req: Record<string, unknown>, height?: number) => {
      const [a, b] = [await s.chain.query<any>(`/chain.liquidity.v1beta1.Query/${method}`, req, height), await s.chain.query<any>(`/tendermint.liquidity.v1beta1.Query/${method}`, req, height)];
      expect(b.res.code, method).to.equal(a.res.code);
      expect(b.res.log, method).to.equal(a.res.log);
      expect(b.value, method).to.deep.equal(a.value);
      return a;
    };
    const ok = async (method: string, req: Record<string, unknown>, height?: number) => {
      const r = await q(method, req, height);
      expect(r.res.code, `${method}: ${r.res.log}`).to.equal(0);
      return r.value;
    };
    expect((await ok('Params', {})).params.swap_fee_rate).to.equal(Dec.fromString('0.003').atomics());
    expect((await ok('LiquidityPools', {})).pools).to.deep.equal([pool]);
    expect((await ok('LiquidityPool', { pool_id: 1n })).pool).to.deep.equal(pool);
    expect((await ok('LiquidityPoolByPoolCoinDenom', { pool_coin_denom: poolDenom })).pool).to.deep.equal(pool);
    expect((await ok('LiquidityPoolByReserveAcc', { reserve_acc: pool.reserve_account_address })).pool).to.deep.equal(pool);
    expect((await ok('LiquidityPoolBatch', { pool_id: 1n }, h)).batch).to.deep.include({ pool_id: 1n, executed: true, deposit_msg_index: 3n, withdraw_msg_index: 2n, swap_msg_index: 2n });
    for (const [kind, list, one, index] of [['Swap', 'swaps', 'swap', 1n], ['Deposit', 'deposits', 'deposit', 2n], ['Withdraw', 'withdraws', 'withdraw', 1n]] as const) {
      const all = (await ok(`PoolBatch${kind}Msgs`, { pool_id: 1n }, h))[list];
      expect(all.map((m: any) => [m.msg_index, m.executed, m.succeeded, m.to_be_deleted]), kind).to.deep.equal([[index, true, true, true]]);
      expect((await ok(`PoolBatch${kind}Msg`, { pool_id: 1n, msg_index: index }, h))[one], kind).to.deep.equal(all[0]);
      // gone at the next height (BeginBlock deletes the msgs to be deleted)
      await s.chain.block([]);
      const gone = await q(`PoolBatch${kind}Msg`, { pool_id: 1n, msg_index: index });
      expect(gone.res.log, kind).to.equal(`rpc error: code = NotFound desc = the msg given msg_index ${index} doesn't exist or deleted: key not found`);
      expect((await ok(`PoolBatch${kind}Msgs`, { pool_id: 1n }))[list], kind).to.deep.equal([]);
    }
    // success records: by msg index and by address (the creation is deposit 0 of A)
    expect((await ok('PoolDepositSuccessMsg', { pool_id: 1n, msg_index: 0n })).deposit).to.deep.include({ depositor_address: A.address, msg_index: 0n });
    expect((await ok('PoolDepositSuccessMsgs', { pool_id: 1n, depositor_address: B.address })).deposits.map((d: any) => d.msg_index)).to.deep.equal([1n, 2n]);
    expect((await ok('PoolDepositSuccessMsgs', { pool_id: 1n, depositor_address: '' })).deposits.map((d: any) => d.msg_index)).to.have.members([0n, 1n, 2n]);
    const swap = (await ok('PoolSwapSuccessMsg', { pool_id: 1n, msg_index: 1n })).swap;
    expect(swap.msg.swap_requester_address).to.equal(B.address);
    expect((await ok('PoolSwapSuccessMsgs', { pool_id: 1n, swap_address: B.address })).swaps).to.deep.equal([swap]);
    const wd = (await ok('PoolWithdrawSuccessMsg', { pool_id: 1n, msg_index: 1n })).withdraw;
    expect(wd.msg.pool_coin).to.deep.equal(c(1_000, poolDenom));
    expect((await ok('PoolWithdrawSuccessMsgs', { pool_id: 1n, withdraw_address: B.address })).withdraws).to.deep.equal([wd]);
    expect((await ok('PoolWithdrawSuccessMsgs', { pool_id: 1n, withdraw_address: A.address })).withdraws).to.deep.equal([]);

    // errors: gRPC NotFound / InvalidArgument with the original's messages (the ABCI log as the SDK writes a status)
    const err = async (method: string, req: Record<string, unknown>) => {
      const r = await q(method, req);
      expect(r.res.code, `${method}: ${r.res.log}`).to.not.equal(0);
      const m = /^rpc error: code = (\w+) desc = (.*?)(: key not found|: invalid request)?$/.exec(r.res.log);
      expect(m, r.res.log).to.not.equal(null);
      return `${m![1]}: ${m![2]}`;
    };
    expect(await err('LiquidityPool', { pool_id: 3n })).to.equal("NotFound: liquidity pool 3 doesn't exist");
    expect(await err('LiquidityPool', { pool_id: 0n })).to.equal('InvalidArgument: empty request');
    expect(await err('LiquidityPoolBatch', { pool_id: 3n })).to.equal("NotFound: liquidity pool 3 doesn't exist");
    expect(await err('LiquidityPoolByPoolCoinDenom', { pool_coin_denom: 'poolABC' })).to.equal("NotFound: liquidity pool with pool coin denom poolABC doesn't exist");
    expect(await err('LiquidityPoolByPoolCoinDenom', { pool_coin_denom: '' })).to.equal('InvalidArgument: empty request');
    expect(await err('LiquidityPoolByReserveAcc', { reserve_acc: 'nope' })).to.equal('NotFound: the reserve account address nope is not valid');
    expect(await err('LiquidityPoolByReserveAcc', { reserve_acc: A.address })).to.equal(`NotFound: liquidity pool with pool reserve account ${A.address} doesn't exist`);
    expect(await err('PoolBatchSwapMsgs', { pool_id: 3n })).to.equal("NotFound: liquidity pool 3 doesn't exist");
    expect(await err('PoolSwapSuccessMsg', { pool_id: 1n, msg_index: 9n })).to.equal("NotFound: the msg given msg_index 9 doesn't exist");
    expect(await err('PoolDepositSuccessMsg', { pool_id: 3n, msg_index: 1n })).to.equal("NotFound: liquidity pool 3 doesn't exist");
    expect(await err('PoolSwapSuccessMsgs', { pool_id: 1n, swap_address: 'bad' })).to.equal('InvalidArgument: invalid swap address bad');
    expect(await err('PoolBatchDepositMsg', { pool_id: 0n, msg_index: 0n })).to.equal('InvalidArgument: empty request');
  });

  it('the exact swap_transacted attributes of a filled order (X→Y at 1.1 against a 1:1 pool)', async () => {
    const s = await start({ 0: [...INIT, c(FEE, 'achain')], 1: [c(10n ** 12n, 'aaa')] });
    expect((await deliver(s, A, msg.create(s, A.address, INIT))).code).to.equal(0);
    const r = await deliver(s, B, msg.swap(s, B.address, 1n, c(1_000_000, 'aaa'), 'bbb', '1.1', c(1_500, 'aaa')));
    expect(r.code, r.log).to.equal(0);
    const h = String(s.chain.app.lastHeight);
    // Increasing: one buy level at 1.1 over p = 1: Ps = (X + 2EX)/(Y + 2EY) = (10^9 + 2·10^6)/10^9 = 1.002 < 1.1 → exact;
    // the order is filled whole: demand = 10^6/1.002, the withheld fee = 1500/1.002
    const ps = Dec.fromString('1.002');
    const demand = Dec.fromInt(1_000_000n).quo(ps);
    const exchFee = Dec.fromInt(1_500n).quo(ps);
    expect(eventsOf(r.blockEvents, 'swap_transacted')).to.deep.equal([{
      pool_id: '1', batch_index: '1', msg_index: '1', swap_requester: B.address, swap_type_id: '1', offer_coin_denom: 'aaa', offer_coin_amount: '1000000',
      demand_coin_denom: 'bbb', order_price: '1.100000000000000000', swap_price: ps.toString(), transacted_coin_amount: '1000000',
      remaining_offer_coin_amount: '0', exchanged_offer_coin_amount: '1000000', exchanged_demand_coin_amount: demand.sub(exchFee).truncateInt().toString(),
      offer_coin_fee_amount: '1500', exchanged_coin_fee_amount: exchFee.toString(), reserved_offer_coin_fee_amount: '0', order_expiry_height: h, success: 'success',
    }]);
    expect(balance(s, B.address, 'bbb')).to.equal(demand.sub(exchFee).truncateInt());
    expect(balance(s, escrow(s), 'aaa')).to.equal(0n);
  });

  it('genesis: export, import into a new chain (state equal), which carries on; the circuit breaker there refuses create, deposit, swap (40), not withdraw', async () => {
    const { s, poolDenom } = await withBatch();
    await s.chain.block([]);
    const exported = s.chain.app.exportGenesis();
    const liq = exported.liquidity as any;
    expect(liq.pool_records).to.have.length(1);
    expect(liq.deposit_success_msgs.map((d: any) => d.msg_index)).to.have.members(['0', '1', '2']);
    expect(liq.swap_success_msgs).to.have.length(1);
    expect(liq.withdraw_success_msgs).to.have.length(1);

    // the same state, imported: queries and re-export agree
    const t = await openChain();
    open.push(t);
    await t.chain.init(exported);
    // equal but for the batch's begin_height, which InitGenesis resets when it lies after the import height (as the original)
    const reexported = t.chain.app.exportGenesis().liquidity as any;
    expect(reexported.pool_records[0].pool_batch.begin_height).to.equal('0');
    expect(reexported).to.deep.equal({ ...liq, pool_records: [{ ...liq.pool_records[0], pool_batch: { ...liq.pool_records[0].pool_batch, begin_height: '0' } }] });
    expect(t.keeper.getPool(t.chain.ctx(), 1n)).to.deep.equal(s.keeper.getPool(s.chain.ctx(), 1n));
    expect(t.keeper.getBatch(t.chain.ctx(), 1n)).to.deep.include({ index: s.keeper.getBatch(s.chain.ctx(), 1n)!.index });
    expect(t.keeper.getSwapSuccess(t.chain.ctx(), 1n, 1n)).to.deep.equal(s.keeper.getSwapSuccess(s.chain.ctx(), 1n, 1n));
    const pool = t.keeper.getPool(t.chain.ctx(), 1n)!;
    expect(reserves(t, pool)).to.deep.equal(reserves(s, s.keeper.getPool(s.chain.ctx(), 1n)!));
    // it carries on: msg indexes continue (deposit 3 of the pool's life)
    const d = await deliver(t, B, msg.deposit(t, B.address, 1n, [c(1_000_000, 'aaa'), c(1_000_000, 'bbb')]));
    expect(d.code, d.log).to.equal(0);
    expect(t.keeper.getDepositSuccess(t.chain.ctx(), 1n, 3n)?.depositor_address).to.equal(B.address);

    // the circuit breaker on (an import with the param set): create, deposit, swap refused with 40, nothing escrowed
    const u = await openChain();
    open.push(u);
    const gen = structuredClone(exported) as any;
    gen.liquidity.params.circuit_breaker_enabled = true;
    gen.bank.balances.push({ address: devKey(2).address, coins: [c(FEE, 'achain'), c(10_000_000, 'ccc'), c(10_000_000, 'ddd')] });
    gen.bank.supply = [];
    await u.chain.init(gen);
    const before = [balance(u, B.address, 'aaa'), balance(u, B.address, 'bbb'), balance(u, escrow(u), 'aaa'), balance(u, escrow(u), 'bbb')];
    const refused = [
      await deliver(u, devKey(2), msg.create(u, devKey(2).address, [c(2_000_000, 'ccc'), c(2_000_000, 'ddd')])),
      await deliver(u, B, msg.deposit(u, B.address, 1n, [c(1_000_000, 'aaa'), c(1_000_000, 'bbb')])),
      await deliver(u, B, msg.swap(u, B.address, 1n, c(1_000_000, 'aaa'), 'bbb', '1.1', c(1_500, 'aaa'))),
    ];
    expect(refused.map((r) => [r.codespace, r.code, r.log])).to.deep.equal(Array(3).fill(['liquidity', 40, 'failed to execute message; message index: 0: circuit breaker is triggered']));
    expect([balance(u, B.address, 'aaa'), balance(u, B.address, 'bbb'), balance(u, escrow(u), 'aaa'), balance(u, escrow(u), 'bbb')]).to.deep.equal(before);
    expect(u.keeper.getPool(u.chain.ctx(), 2n)).to.equal(undefined);
    const supplyBefore = supply(u, poolDenom);
    const w = await deliver(u, B, msg.withdraw(u, B.address, 1n, c(1_000, poolDenom)));
    expect(w.code, w.log).to.equal(0);
    expect(supply(u, poolDenom)).to.equal(supplyBefore - 1_000n);
  });

  it('an order dropped at execution (its fee no longer valid after a params change) gets its escrow back (the original lost it)', async () => {
    // unit_batch_height 2: an order placed at an odd height waits for the next even one; the chain is exported
    // in between and imported with swap_fee_rate 0.005, so the order fails its re-validation at execution
    const s = await start({ 0: [...INIT, c(FEE, 'achain')], 1: [c(10n ** 12n, 'aaa')] }, { unit_batch_height: 2 });
    expect((await deliver(s, A, msg.create(s, A.address, INIT))).code).to.equal(0);
    if ((s.chain.app.lastHeight + 1) % 2 === 0) await s.chain.block([]);
    const r = await deliver(s, B, msg.swap(s, B.address, 1n, c(1_000_000, 'aaa'), 'bbb', '1.1', c(1_500, 'aaa')));
    expect(r.code, r.log).to.equal(0);
    const placed = BigInt(s.chain.app.lastHeight);
    expect(placed % 2n).to.equal(1n);
    const expiry = placed + ((2n - (placed % 2n)) % 2n); // height + ((U − height % U) % U)
    expect(balance(s, escrow(s), 'aaa')).to.equal(1_001_500n);
    const gen = s.chain.app.exportGenesis() as any;
    expect(gen.liquidity.pool_records[0].swap_msg_states).to.have.length(1);
    gen.liquidity.params.swap_fee_rate = '0.005000000000000000';
    const t = await openChain();
    open.push(t);
    await t.chain.init(gen); // height 1: no batch execution (1 % 2 ≠ 0)
    expect(balance(t, escrow(t), 'aaa')).to.equal(1_001_500n);
    const res = await t.chain.block([]); // height 2: executed, the order dropped
    expect(eventsOf(res.events, 'swap_transacted')).to.deep.equal([{
      pool_id: '1', batch_index: '1', msg_index: '1', swap_requester: B.address, swap_type_id: '1', offer_coin_denom: 'aaa', offer_coin_amount: '1000000',
      demand_coin_denom: 'bbb', order_price: '1.100000000000000000', remaining_offer_coin_amount: '1000000', exchanged_offer_coin_amount: '0',
      reserved_offer_coin_fee_amount: '1500', order_expiry_height: String(expiry), success: 'failure',
    }]);
    expect(balance(t, escrow(t), 'aaa')).to.equal(0n);
    expect(balance(t, B.address, 'aaa')).to.equal(10n ** 12n);
    expect(reserves(t, t.keeper.getPool(t.chain.ctx(), 1n)!)).to.deep.equal([1_000_000_000n, 1_000_000_000n]);
    await t.chain.block([]);
    expect(t.keeper.swapMsgStates(t.chain.ctx(), 1n)).to.deep.equal([]);
  });

  it('genesis validation refuses what the original refuses', async () => {
    const s = await openChain();
    open.push(s);
    const bad = genesis(s, {}) as any;
    bad.liquidity.params.swap_fee_rate = Dec.fromString('1.5').toString();
    expect(() => s.chain.initChain(bad)).to.throw();
  });
});
