/**
 * LiquidityKeeper: pools, batches and their msg states, through the schema of src/keys.ts, and the
 * original's keeper logic (tendermint/liquidity v1.4.5 x/liquidity/keeper: liquidity_pool.go, batch.go,
 * swap.go; the fork's success records): CreatePool, the batch messages with their escrow, the EndBlock
 * execution (swaps, then deposits, then withdrawals) and the BeginBlock clean-up.
 */
import type { Coin, Context } from '@chain/app';
import { coinsToString } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Dec, minDec } from '@chain/math';
import { LiquidityErrors } from './errors.js';
import { AttributeKey as A, EventType, FAILURE, SUCCESS, emit, event } from './events.js';
import type { LiquidityAccountKeeper, LiquidityBankKeeper, LiquidityDistributionKeeper } from './expected-keepers.js';
import type {
  DepositMsgState, DepositSuccessMsg, MsgCreatePool, MsgDepositWithinBatch, MsgSwapWithinBatch, MsgWithdrawWithinBatch, Pool, PoolBatch,
  SwapMsgState, SwapSuccessMsg, WithdrawMsgState, WithdrawSuccessMsg,
} from './gen/chain/liquidity/v1beta1.js';
import { MODULE_NAME, liquiditySchema } from './keys.js';
import type { LiquidityState } from './keys.js';
import { CANCEL_ORDER_LIFE_SPAN, decOf, defaultParams, intOf, validateParams } from './params.js';
import type { LiquidityParams } from './params.js';
import { alphabeticalDenomPair, poolCoinDenom, poolName, poolReserveAcc, reserveAccFromPoolCoinDenom } from './pool.js';
import {
  MatchType, OrderDirection, amt, findOrderMatch, makeOrderMap, match as matchBook, offerCoinFee, sortOrderBook, updateSwapMsgStates,
  validateOrderBook, validateStateAndExpireOrders,
} from './swap.js';
import type { BatchResult, MatchResult } from './swap.js';

export interface LiquidityKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: LiquidityAccountKeeper;
  readonly bankKeeper: LiquidityBankKeeper;
  /** receives the pool creation fee (the community pool) */
  readonly distributionKeeper: LiquidityDistributionKeeper;
}

/** One leg of a multi-send (`banktypes.Input`/`Output` pairs). */
interface Transfer {
  from: Uint8Array;
  to: Uint8Array;
  coins: Coin[];
}

/** `sdk.NewCoins`: sorted, zero amounts dropped (duplicate denoms summed). */
export function newCoins(coins: readonly Coin[]): Coin[] {
  const m = new Map<string, bigint>();
  for (const c of coins) m.set(c.denom, (m.get(c.denom) ?? 0n) + amt(c));
  return [...m.entries()].filter(([, a]) => a !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([denom, a]) => ({ denom, amount: a.toString() }));
}

const coin = (denom: string, amount: bigint): Coin => ({ denom, amount: amount.toString() });
const emptyCoin = (): Coin => ({ denom: '', amount: '0' });
/** `sdk.Coin.String()` of one coin (`Coin{}` prints as `0`). */
const coinString = (c: Coin): string => `${c.amount}${c.denom}`;

/** `CheckOverflowWithDec`: a×b, a/b and b/a must not overflow (nor divide by zero). */
export function checkOverflowWithDec(a: Dec, b: Dec): void {
  try {
    a.mul(b);
    a.quo(b);
    b.quo(a);
  } catch {
    throw LiquidityErrors.OverflowAmount.error();
  }
}

/** `CheckOverflow` on Ints (256 bits). */
export function checkOverflow(a: bigint, b: bigint): void {
  const bits = (v: bigint): number => (v < 0n ? -v : v).toString(2).length;
  if (bits(a * b) > 256 || a === 0n || b === 0n) throw LiquidityErrors.OverflowAmount.error();
}

export class LiquidityKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: LiquidityAccountKeeper;
  readonly bk: LiquidityBankKeeper;
  readonly dk: LiquidityDistributionKeeper;
  /** The module's state: the collections of `liquiditySchema` (src/keys.ts). */
  readonly state: LiquidityState;

  constructor(opts: LiquidityKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bk = opts.bankKeeper;
    this.dk = opts.distributionKeeper;
    this.state = liquiditySchema(opts.registry);
  }

  // ---------------------------------------------------------------- params

  /** The stored params, or the defaults before genesis. */
  getParams(ctx: Context): LiquidityParams {
    return this.state.Params.getOr(ctx, defaultParams());
  }

  /** Validates (the original's messages) and stores the params. */
  setParams(ctx: Context, p: LiquidityParams): void {
    validateParams(p);
    this.state.Params.set(ctx, p);
  }

  get escrowAddress(): Uint8Array {
    return this.ak.getModuleAddress(MODULE_NAME);
  }

  // ---------------------------------------------------------------- pools and batches

  getPool(ctx: Context, id: bigint): Pool | undefined {
    return this.state.Pools.get(ctx, id);
  }

  getAllPools(ctx: Context): Pool[] {
    return this.state.Pools.values(ctx).toArray();
  }

  getPoolByReserveAcc(ctx: Context, acc: Uint8Array): Pool | undefined {
    const id = this.state.PoolByReserveAcc.get(ctx, acc);
    return id === undefined ? undefined : this.getPool(ctx, id.value);
  }

  /** `SetPoolAtomic`: the next pool id, the pool and its reserve-account index. */
  private setPoolAtomic(ctx: Context, pool: Pool): Pool {
    const id = this.state.NextPoolId.get(ctx)?.value ?? 1n;
    this.state.NextPoolId.set(ctx, { value: id + 1n });
    const p = { ...pool, id };
    this.setPool(ctx, p);
    return p;
  }

  setPool(ctx: Context, pool: Pool): void {
    this.state.Pools.set(ctx, pool.id, pool);
    this.state.PoolByReserveAcc.set(ctx, this.ak.addressCodec.decode(pool.reserve_account_address), { value: pool.id });
  }

  /**
   * `DeletePool`: removes the pool record only (as the original: its reserve-account index, batch, msg states
   * and reserves stay; batch msgs of a deleted pool are refunded at their execution).
   */
  deletePool(ctx: Context, pool: Pool): void {
    this.state.Pools.remove(ctx, pool.id);
  }

  /** `DeletePoolBatch`: removes the pool's batch (msgs to it then fail with ErrPoolBatchNotExists). */
  deletePoolBatch(ctx: Context, batch: PoolBatch): void {
    this.state.Batches.remove(ctx, batch.pool_id);
  }

  /** `InitNextPoolBatch`: an executed batch becomes the next (index + 1, begin height now, not executed). */
  initNextPoolBatch(ctx: Context, batch: PoolBatch): void {
    if (!batch.executed) throw LiquidityErrors.BatchNotExecuted.error();
    this.setBatch(ctx, { ...batch, index: batch.index + 1n, begin_height: BigInt(ctx.block.height), executed: false });
  }

  getBatch(ctx: Context, poolId: bigint): PoolBatch | undefined {
    return this.state.Batches.get(ctx, poolId);
  }

  setBatch(ctx: Context, b: PoolBatch): void {
    this.state.Batches.set(ctx, b.pool_id, b);
  }

  reserveAccount(pool: Pool): Uint8Array {
    return this.ak.addressCodec.decode(pool.reserve_account_address);
  }

  /** `GetReserveCoins`: the reserve account's balances of the pool's denoms (zero amounts kept), in denom order. */
  getReserveCoins(ctx: Context, pool: Pool): Coin[] {
    const acc = this.reserveAccount(pool);
    return pool.reserve_coin_denoms.map((d) => coin(d, this.bk.getBalance(ctx, acc, d)));
  }

  getPoolCoinTotalSupply(ctx: Context, pool: Pool): bigint {
    return this.bk.getSupply(ctx, pool.pool_coin_denom);
  }

  /** `IsDepletedPool`: no pool coin supply or an empty reserve. */
  isDepletedPool(ctx: Context, pool: Pool): boolean {
    const r = this.getReserveCoins(ctx, pool);
    return this.getPoolCoinTotalSupply(ctx, pool) <= 0n || amt(r[0]) === 0n || amt(r[1]) === 0n;
  }

  /** `IsPoolCoinDenom`. */
  isPoolCoinDenom(ctx: Context, denom: string): boolean {
    const acc = reserveAccFromPoolCoinDenom(denom);
    return acc !== undefined && this.getPoolByReserveAcc(ctx, acc) !== undefined;
  }

  // msg states
  depositMsgStates(ctx: Context, poolId: bigint): DepositMsgState[] {
    return this.state.DepositMsgStates.values(ctx, { prefix: [poolId] }).toArray();
  }
  withdrawMsgStates(ctx: Context, poolId: bigint): WithdrawMsgState[] {
    return this.state.WithdrawMsgStates.values(ctx, { prefix: [poolId] }).toArray();
  }
  swapMsgStates(ctx: Context, poolId: bigint): SwapMsgState[] {
    return this.state.SwapMsgStates.values(ctx, { prefix: [poolId] }).toArray();
  }
  setDepositMsgState(ctx: Context, poolId: bigint, s: DepositMsgState): void {
    this.state.DepositMsgStates.set(ctx, [poolId, s.msg_index], s);
  }
  setWithdrawMsgState(ctx: Context, poolId: bigint, s: WithdrawMsgState): void {
    this.state.WithdrawMsgStates.set(ctx, [poolId, s.msg_index], s);
  }
  setSwapMsgState(ctx: Context, poolId: bigint, s: SwapMsgState): void {
    this.state.SwapMsgStates.set(ctx, [poolId, s.msg_index], s);
  }

  // success records (the fork's)
  setDepositSuccess(ctx: Context, poolId: bigint, depositor: Uint8Array, r: DepositSuccessMsg): void {
    this.state.DepositSuccess.set(ctx, [poolId, depositor, r.msg_index], r);
    this.state.DepositSuccessIndex.set(ctx, [poolId, r.msg_index], depositor);
  }
  setSwapSuccess(ctx: Context, poolId: bigint, requester: Uint8Array, r: SwapSuccessMsg): void {
    this.state.SwapSuccess.set(ctx, [poolId, requester, r.msg_index], r);
    this.state.SwapSuccessIndex.set(ctx, [poolId, r.msg_index], requester);
  }
  setWithdrawSuccess(ctx: Context, poolId: bigint, withdrawer: Uint8Array, r: WithdrawSuccessMsg): void {
    this.state.WithdrawSuccess.set(ctx, [poolId, withdrawer, r.msg_index], r);
    this.state.WithdrawSuccessIndex.set(ctx, [poolId, r.msg_index], withdrawer);
  }
  getDepositSuccess(ctx: Context, poolId: bigint, msgIndex: bigint): DepositSuccessMsg | undefined {
    const a = this.state.DepositSuccessIndex.get(ctx, [poolId, msgIndex]);
    return a && this.state.DepositSuccess.get(ctx, [poolId, a, msgIndex]);
  }
  getSwapSuccess(ctx: Context, poolId: bigint, msgIndex: bigint): SwapSuccessMsg | undefined {
    const a = this.state.SwapSuccessIndex.get(ctx, [poolId, msgIndex]);
    return a && this.state.SwapSuccess.get(ctx, [poolId, a, msgIndex]);
  }
  getWithdrawSuccess(ctx: Context, poolId: bigint, msgIndex: bigint): WithdrawSuccessMsg | undefined {
    const a = this.state.WithdrawSuccessIndex.get(ctx, [poolId, msgIndex]);
    return a && this.state.WithdrawSuccess.get(ctx, [poolId, a, msgIndex]);
  }

  // ---------------------------------------------------------------- bank helpers

  /**
   * `InputOutputCoins` of the SDK v0.45 bank: every input debited first, then every output credited (so a
   * reserve may pay out what the same batch pays in), `message{sender}` per input and `transfer{recipient,
   * amount}` per output; a new recipient gets an account.
   */
  private inputOutputCoins(ctx: Context, transfers: readonly Transfer[]): void {
    const legs = transfers.map((t) => ({ ...t, coins: newCoins(t.coins) })).filter((t) => t.coins.length > 0);
    for (const t of legs) {
      this.bk.subCoins(ctx, t.from, t.coins);
      ctx.events.emit('message', [['sender', this.ak.addressCodec.encode(t.from)]]);
    }
    for (const t of legs) {
      this.bk.addCoins(ctx, t.to, t.coins);
      ctx.events.emit('transfer', [['recipient', this.ak.addressCodec.encode(t.to)], ['amount', coinsToString(t.coins)]]);
    }
    for (const t of legs) if (!this.ak.hasAccount(ctx, t.to)) this.ak.createAccount(ctx, t.to);
  }

  private holdEscrow(ctx: Context, from: Uint8Array, coins: Coin[]): void {
    this.bk.sendCoinsFromAccountToModule(ctx, from, MODULE_NAME, newCoins(coins));
  }

  private releaseEscrow(ctx: Context, to: Uint8Array, coins: Coin[]): void {
    const c = newCoins(coins);
    if (c.length > 0) this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, to, c);
  }

  // ---------------------------------------------------------------- create pool

  /** `ValidateMsgCreatePool`: pool type, reserve coin count, order, distinct denoms, reserve limit, existence. */
  validateMsgCreatePool(ctx: Context, msg: MsgCreatePool): void {
    const params = this.getParams(ctx);
    const poolType = params.pool_types[msg.pool_type_id - 1];
    if (poolType === undefined || poolType.id !== msg.pool_type_id) throw LiquidityErrors.PoolTypeNotExists.error();
    const n = msg.deposit_coins.length;
    if (n > poolType.max_reserve_coin_num || poolType.min_reserve_coin_num > n) throw LiquidityErrors.NumOfReserveCoin.error();
    const denoms = msg.deposit_coins.map((c) => c.denom);
    const [a, b] = alphabeticalDenomPair(denoms[0]!, denoms[1]!);
    if (a !== denoms[0] || b !== denoms[1]) throw LiquidityErrors.BadOrderingReserveCoin.error();
    if (a === b) throw LiquidityErrors.EqualDenom.error();
    validateReserveCoinLimit(intOf(params.max_reserve_coin_amount), msg.deposit_coins);
    if (this.getPoolByReserveAcc(ctx, poolReserveAcc(poolName(denoms, msg.pool_type_id)))) throw LiquidityErrors.PoolAlreadyExists.error();
  }

  /** `MintAndSendPoolCoin`: the deposit to the reserve, init_pool_coin_mint_amount pool coins to the creator. */
  private mintAndSendPoolCoin(ctx: Context, pool: Pool, src: Uint8Array, creator: Uint8Array, deposit: Coin[]): Coin {
    const params = this.getParams(ctx);
    const minting = coin(pool.pool_coin_denom, intOf(params.init_pool_coin_mint_amount));
    this.bk.mintCoins(ctx, MODULE_NAME, [minting]);
    this.inputOutputCoins(ctx, [
      { from: src, to: this.reserveAccount(pool), coins: deposit },
      { from: this.escrowAddress, to: creator, coins: [minting] },
    ]);
    return minting;
  }

  /** `CreatePool` (with the fork's success record of msg_index 0). */
  createPool(ctx: Context, msg: MsgCreatePool): Pool {
    this.validateMsgCreatePool(ctx, msg);
    const params = this.getParams(ctx);
    const denoms = alphabeticalDenomPair(msg.deposit_coins[0]!.denom, msg.deposit_coins[1]!.denom);
    const name = poolName(denoms, msg.pool_type_id);
    let pool: Pool = {
      id: 0n, type_id: msg.pool_type_id, reserve_coin_denoms: [...denoms],
      reserve_account_address: this.ak.addressCodec.encode(poolReserveAcc(name)), pool_coin_denom: poolCoinDenom(name),
    };
    const creator = this.ak.addressCodec.decode(msg.pool_creator_address);
    const minInit = intOf(params.min_init_deposit_amount);
    for (const c of msg.deposit_coins) {
      if (amt(c) < minInit) throw LiquidityErrors.LessThanMinInitDeposit.wrap(`deposit coin ${coinString(c)} is smaller than ${minInit}`);
    }
    for (const c of msg.deposit_coins) {
      const bal = this.bk.getBalance(ctx, creator, c.denom);
      if (bal < amt(c)) throw LiquidityErrors.InsufficientBalance.wrap(`${bal}${c.denom} is smaller than ${coinString(c)}`);
    }
    for (const fee of params.pool_creation_fee) {
      const bal = this.bk.getBalance(ctx, creator, fee.denom);
      const needed = amt(fee) + amt(msg.deposit_coins.find((c) => c.denom === fee.denom));
      if (bal < needed) throw LiquidityErrors.InsufficientPoolCreationFee.wrap(`${bal}${fee.denom} is smaller than ${needed}${fee.denom}`);
    }
    this.mintAndSendPoolCoin(ctx, pool, creator, creator, msg.deposit_coins);
    this.dk.fundCommunityPool(ctx, newCoins(params.pool_creation_fee), creator);
    pool = this.setPoolAtomic(ctx, pool);
    const height = BigInt(ctx.block.height);
    this.setBatch(ctx, newPoolBatch(pool.id, 1n, height));
    this.setDepositSuccess(ctx, pool.id, creator, {
      msg_height: height, depositor_address: msg.pool_creator_address, pool_id: pool.id, msg_index: 0n,
      deposit_coins: this.getReserveCoins(ctx, pool), input_coins: msg.deposit_coins, output_coins: [],
    });
    return pool;
  }

  // ---------------------------------------------------------------- batch messages (DeliverTx)

  /** `ValidateMsgDepositWithinBatch`. */
  validateMsgDepositWithinBatch(ctx: Context, msg: MsgDepositWithinBatch): Pool {
    const pool = this.getPool(ctx, msg.pool_id);
    if (!pool) throw LiquidityErrors.PoolNotExists.error();
    if (msg.deposit_coins.length !== pool.reserve_coin_denoms.length) throw LiquidityErrors.NumOfReserveCoin.error();
    const params = this.getParams(ctx);
    validateReserveCoinLimit(intOf(params.max_reserve_coin_amount), newCoins([...this.getReserveCoins(ctx, pool), ...msg.deposit_coins]));
    const [a, b] = alphabeticalDenomPair(msg.deposit_coins[0]!.denom, msg.deposit_coins[1]!.denom);
    if (a !== pool.reserve_coin_denoms[0] || b !== pool.reserve_coin_denoms[1]) throw LiquidityErrors.NotMatchedReserveCoin.error();
    return pool;
  }

  /** `ValidateMsgWithdrawWithinBatch`. */
  validateMsgWithdrawWithinBatch(ctx: Context, msg: MsgWithdrawWithinBatch): Pool {
    const pool = this.getPool(ctx, msg.pool_id);
    if (!pool) throw LiquidityErrors.PoolNotExists.error();
    if (msg.pool_coin!.denom !== pool.pool_coin_denom) throw LiquidityErrors.BadPoolCoinDenom.error();
    const supply = this.getPoolCoinTotalSupply(ctx, pool);
    if (this.isDepletedPool(ctx, pool)) throw LiquidityErrors.DepletedPool.error();
    if (amt(msg.pool_coin) > supply) throw LiquidityErrors.BadPoolCoinAmount.error();
    return pool;
  }

  /** `ValidateMsgSwapWithinBatch`: pair, max order ratio, fee denom, overflow, the exact offer coin fee. */
  validateMsgSwapWithinBatch(ctx: Context, msg: MsgSwapWithinBatch, pool: Pool): void {
    const [a, b] = alphabeticalDenomPair(msg.offer_coin!.denom, msg.demand_coin_denom);
    if (a !== pool.reserve_coin_denoms[0] || b !== pool.reserve_coin_denoms[1]) throw LiquidityErrors.NotMatchedReserveCoin.error();
    const params = this.getParams(ctx);
    const reserve = amt(this.getReserveCoins(ctx, pool).find((c) => c.denom === msg.offer_coin!.denom));
    const maxOrderable = Dec.fromInt(reserve).mulTruncate(decOf(params.max_order_amount_ratio)).truncateInt();
    if (amt(msg.offer_coin) > maxOrderable) throw LiquidityErrors.ExceededMaxOrderable.error();
    if (msg.offer_coin_fee!.denom !== msg.offer_coin!.denom) throw LiquidityErrors.BadOfferCoinFee.error();
    checkOverflowWithDec(Dec.fromInt(amt(msg.offer_coin)), decOf(msg.order_price));
    if (amt(msg.offer_coin_fee) !== offerCoinFee(amt(msg.offer_coin), decOf(params.swap_fee_rate))) throw LiquidityErrors.BadOfferCoinFee.error();
  }

  private batchFor(ctx: Context, poolId: bigint): PoolBatch {
    const batch = this.getBatch(ctx, poolId);
    if (!batch) throw LiquidityErrors.PoolBatchNotExists.error();
    if (batch.begin_height === 0n) batch.begin_height = BigInt(ctx.block.height);
    return batch;
  }

  /** `DepositWithinBatch`: validate, escrow the deposit, append the msg state. */
  depositWithinBatch(ctx: Context, msg: MsgDepositWithinBatch): DepositMsgState {
    this.validateMsgDepositWithinBatch(ctx, msg);
    const batch = this.batchFor(ctx, msg.pool_id);
    const state: DepositMsgState = { msg_height: BigInt(ctx.block.height), msg_index: batch.deposit_msg_index, executed: false, succeeded: false, to_be_deleted: false, msg };
    this.holdEscrow(ctx, this.ak.addressCodec.decode(msg.depositor_address), msg.deposit_coins);
    batch.deposit_msg_index++;
    this.setBatch(ctx, batch);
    this.setDepositMsgState(ctx, batch.pool_id, state);
    return state;
  }

  /** `WithdrawWithinBatch`: validate, escrow the pool coins, append the msg state. */
  withdrawWithinBatch(ctx: Context, msg: MsgWithdrawWithinBatch): WithdrawMsgState {
    this.validateMsgWithdrawWithinBatch(ctx, msg);
    const batch = this.batchFor(ctx, msg.pool_id);
    const state: WithdrawMsgState = { msg_height: BigInt(ctx.block.height), msg_index: batch.withdraw_msg_index, executed: false, succeeded: false, to_be_deleted: false, msg };
    this.holdEscrow(ctx, this.ak.addressCodec.decode(msg.withdrawer_address), [msg.pool_coin!]);
    batch.withdraw_msg_index++;
    this.setBatch(ctx, batch);
    this.setWithdrawMsgState(ctx, batch.pool_id, state);
    return state;
  }

  /** `SwapWithinBatch`: pool, not depleted, the swap checks, escrow offer + fee, the msg state with its expiry. */
  swapWithinBatch(ctx: Context, msg: MsgSwapWithinBatch, orderExpirySpanHeight = CANCEL_ORDER_LIFE_SPAN): SwapMsgState {
    const pool = this.getPool(ctx, msg.pool_id);
    if (!pool) throw LiquidityErrors.PoolNotExists.error();
    if (this.isDepletedPool(ctx, pool)) throw LiquidityErrors.DepletedPool.error();
    this.validateMsgSwapWithinBatch(ctx, msg, pool);
    const batch = this.batchFor(ctx, msg.pool_id);
    const height = BigInt(ctx.block.height);
    let span = orderExpirySpanHeight;
    if (span === 0n) {
      const u = BigInt(this.getParams(ctx).unit_batch_height);
      span = (u - (height % u)) % u;
    }
    const state: SwapMsgState = {
      msg_height: height, msg_index: batch.swap_msg_index, executed: false, succeeded: false, to_be_deleted: false,
      order_expiry_height: height + span,
      exchanged_offer_coin: coin(msg.offer_coin!.denom, 0n),
      remaining_offer_coin: { ...msg.offer_coin! },
      reserved_offer_coin_fee: { ...msg.offer_coin_fee! },
      msg,
    };
    this.holdEscrow(ctx, this.ak.addressCodec.decode(msg.swap_requester_address), [msg.offer_coin!, msg.offer_coin_fee!]);
    batch.swap_msg_index++;
    this.setBatch(ctx, batch);
    this.setSwapMsgState(ctx, batch.pool_id, state);
    return state;
  }

  // ---------------------------------------------------------------- EndBlock

  /** `ExecutePoolBatches`: for each batch not executed at a batch height, swaps, then deposits, then withdrawals. */
  executePoolBatches(ctx: Context): void {
    const params = this.getParams(ctx);
    if (ctx.block.height % params.unit_batch_height !== 0) return;
    for (const batch of this.state.Batches.values(ctx).toArray()) {
      if (batch.executed) continue;
      let executed = this.swapExecution(ctx, batch);
      for (const m of this.depositMsgStates(ctx, batch.pool_id)) {
        if (m.executed || m.to_be_deleted || m.succeeded) continue;
        executed++;
        try {
          this.executeDeposit(ctx, m, batch);
        } catch {
          this.refundDeposit(ctx, m, batch);
        }
      }
      for (const m of this.withdrawMsgStates(ctx, batch.pool_id)) {
        if (m.executed || m.to_be_deleted || m.succeeded) continue;
        executed++;
        try {
          this.executeWithdrawal(ctx, m, batch);
        } catch {
          this.refundWithdrawal(ctx, m, batch);
        }
      }
      if (executed > 0) this.setBatch(ctx, { ...batch, executed: true });
    }
  }

  /** `ExecuteDeposit`: the deposit math with its truncations (or the re-initialisation of a depleted pool). */
  executeDeposit(ctx: Context, msg: DepositMsgState, batch: PoolBatch): void {
    if (msg.executed || msg.to_be_deleted || msg.succeeded) throw new Error('cannot process already executed batch msg');
    msg.executed = true;
    this.setDepositMsgState(ctx, batch.pool_id, msg);
    const m = msg.msg!;
    const pool = this.validateMsgDepositWithinBatch(ctx, m);
    const depositCoins = newCoins(m.deposit_coins);
    const escrow = this.escrowAddress;
    const reserveAcc = this.reserveAccount(pool);
    const depositor = this.ak.addressCodec.decode(m.depositor_address);
    const params = this.getParams(ctx);
    let reserveCoins = this.getReserveCoins(ctx, pool);
    const poolId = String(pool.id);

    if (this.isDepletedPool(ctx, pool)) {
      for (const c of m.deposit_coins) {
        if (amt(c) + amt(reserveCoins.find((r) => r.denom === c.denom)) < intOf(params.min_init_deposit_amount)) throw LiquidityErrors.LessThanMinInitDeposit.error();
      }
      const poolCoin = this.mintAndSendPoolCoin(ctx, pool, escrow, depositor, m.deposit_coins);
      msg.succeeded = true;
      msg.to_be_deleted = true;
      this.setDepositMsgState(ctx, batch.pool_id, msg);
      emit(ctx, event(EventType.DepositToPool, [
        [A.PoolId, poolId], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(msg.msg_index)], [A.Depositor, m.depositor_address],
        [A.AcceptedCoins, coinsToString(m.deposit_coins)], [A.RefundedCoins, ''], [A.PoolCoinDenom, poolCoin.denom],
        [A.PoolCoinAmount, poolCoin.amount], [A.Success, SUCCESS],
      ]));
      this.setDepositSuccess(ctx, pool.id, depositor, {
        msg_height: msg.msg_height, depositor_address: m.depositor_address, pool_id: pool.id, msg_index: msg.msg_index,
        deposit_coins: m.deposit_coins, input_coins: m.deposit_coins, output_coins: [],
      });
      return;
    }

    const [lastA, lastB] = [amt(reserveCoins[0]), amt(reserveCoins[1])];
    const [depA, depB] = [depositCoins[0]!, depositCoins[1]!];
    const supply = Dec.fromInt(this.getPoolCoinTotalSupply(ctx, pool));
    checkOverflowWithDec(supply, Dec.fromInt(amt(depA)));
    checkOverflowWithDec(supply, Dec.fromInt(amt(depB)));
    const mintAmt = minDec(
      supply.mulTruncate(Dec.fromInt(amt(depA))).quoTruncate(Dec.fromInt(lastA)),
      supply.mulTruncate(Dec.fromInt(amt(depB))).quoTruncate(Dec.fromInt(lastB)),
    );
    const mintRate = mintAmt.truncateDec().quoTruncate(supply);
    const accepted = newCoins([
      coin(depA.denom, Dec.fromInt(lastA).mul(mintRate).truncateInt()),
      coin(depB.denom, Dec.fromInt(lastB).mul(mintRate).truncateInt()),
    ]);
    const refunded = newCoins([coin(depA.denom, amt(depA) - amountOf(accepted, depA.denom)), coin(depB.denom, amt(depB) - amountOf(accepted, depB.denom))]);
    const mintPoolCoin = coin(pool.pool_coin_denom, mintAmt.truncateInt());
    if (amt(mintPoolCoin) === 0n || accepted.length === 0) throw new Error('pool coin truncated, no accepted coin, refund');
    this.bk.mintCoins(ctx, MODULE_NAME, [mintPoolCoin]);
    this.inputOutputCoins(ctx, [
      { from: escrow, to: depositor, coins: refunded },
      { from: escrow, to: reserveAcc, coins: accepted },
      { from: escrow, to: depositor, coins: [mintPoolCoin] },
    ]);
    msg.succeeded = true;
    msg.to_be_deleted = true;
    this.setDepositMsgState(ctx, batch.pool_id, msg);
    emit(ctx, event(EventType.DepositToPool, [
      [A.PoolId, poolId], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(msg.msg_index)], [A.Depositor, m.depositor_address],
      [A.AcceptedCoins, coinsToString(accepted)], [A.RefundedCoins, coinsToString(refunded)], [A.PoolCoinDenom, mintPoolCoin.denom],
      [A.PoolCoinAmount, mintPoolCoin.amount], [A.Success, SUCCESS],
    ]));
    this.setDepositSuccess(ctx, pool.id, depositor, {
      msg_height: msg.msg_height, depositor_address: m.depositor_address, pool_id: pool.id, msg_index: msg.msg_index,
      deposit_coins: accepted, input_coins: m.deposit_coins, output_coins: refunded,
    });
    reserveCoins = this.getReserveCoins(ctx, pool);
  }

  /** `ExecuteWithdrawal`: out = trunc(trunc(R×P)×(1−f))/S per reserve (all of it when P = S); pool coins burned. */
  executeWithdrawal(ctx: Context, msg: WithdrawMsgState, batch: PoolBatch): void {
    if (msg.executed || msg.to_be_deleted || msg.succeeded) throw new Error('cannot process already executed batch msg');
    msg.executed = true;
    this.setWithdrawMsgState(ctx, batch.pool_id, msg);
    const m = msg.msg!;
    const pool = this.validateMsgWithdrawWithinBatch(ctx, m);
    const P = amt(m.pool_coin);
    const supply = this.getPoolCoinTotalSupply(ctx, pool);
    const reserveCoins = this.getReserveCoins(ctx, pool);
    const withdrawer = this.ak.addressCodec.decode(m.withdrawer_address);
    const params = this.getParams(ctx);
    const proportion = Dec.one().sub(decOf(params.withdraw_fee_rate));
    let withdrawCoins: Coin[] = [];
    const withdrawFeeCoins: Coin[] = [];
    if (P === supply) {
      withdrawCoins = reserveCoins;
    } else {
      for (const r of reserveCoins) {
        checkOverflow(amt(r), P);
        checkOverflow(amt(r) * P, supply);
        const withFee = (amt(r) * P) / supply;
        const out = Dec.fromInt(amt(r) * P).mulTruncate(proportion).truncateInt() / supply;
        withdrawCoins.push(coin(r.denom, out));
        withdrawFeeCoins.push(coin(r.denom, withFee - out));
      }
    }
    // sdk.Coins.IsValid: every amount positive (a withdrawal that rounds a reserve to 0 fails and is refunded)
    if (withdrawCoins.length === 0 || withdrawCoins.some((c) => amt(c) <= 0n)) throw LiquidityErrors.BadPoolCoinAmount.error();
    this.inputOutputCoins(ctx, [{ from: this.reserveAccount(pool), to: withdrawer, coins: withdrawCoins }]);
    this.bk.burnCoins(ctx, MODULE_NAME, [m.pool_coin!]);
    msg.succeeded = true;
    msg.to_be_deleted = true;
    this.setWithdrawMsgState(ctx, batch.pool_id, msg);
    emit(ctx, event(EventType.WithdrawFromPool, [
      [A.PoolId, String(pool.id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(msg.msg_index)], [A.Withdrawer, m.withdrawer_address],
      [A.PoolCoinDenom, m.pool_coin!.denom], [A.PoolCoinAmount, m.pool_coin!.amount], [A.WithdrawCoins, coinsToString(withdrawCoins)],
      [A.WithdrawFeeCoins, coinsToString(withdrawFeeCoins)], [A.Success, SUCCESS],
    ]));
    this.setWithdrawSuccess(ctx, pool.id, withdrawer, {
      msg_height: msg.msg_height, msg_index: msg.msg_index, withdraw_coins: withdrawCoins, withdraw_fee_coins: withdrawFeeCoins, msg: m,
    });
  }

  /** `RefundDeposit`: the escrow back, `deposit_to_pool success=failure`. */
  private refundDeposit(ctx: Context, msg: DepositMsgState, batch: PoolBatch): void {
    const stored = this.state.DepositMsgStates.get(ctx, [batch.pool_id, msg.msg_index])!;
    if (!stored.executed || stored.succeeded) throw new Error('cannot refund not executed or already succeeded msg');
    const m = stored.msg!;
    this.releaseEscrow(ctx, this.ak.addressCodec.decode(m.depositor_address), m.deposit_coins);
    stored.to_be_deleted = true;
    this.setDepositMsgState(ctx, batch.pool_id, stored);
    emit(ctx, event(EventType.DepositToPool, [
      [A.PoolId, String(this.getPool(ctx, batch.pool_id)?.id ?? 0n)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(stored.msg_index)], [A.Depositor, m.depositor_address],
      [A.AcceptedCoins, ''], [A.RefundedCoins, coinsToString(m.deposit_coins)], [A.Success, FAILURE],
    ]));
  }

  /** `RefundWithdrawal`: the pool coins back, `withdraw_from_pool success=failure`. */
  private refundWithdrawal(ctx: Context, msg: WithdrawMsgState, batch: PoolBatch): void {
    const stored = this.state.WithdrawMsgStates.get(ctx, [batch.pool_id, msg.msg_index])!;
    if (!stored.executed || stored.succeeded) throw new Error('cannot refund not executed or already succeeded msg');
    const m = stored.msg!;
    this.releaseEscrow(ctx, this.ak.addressCodec.decode(m.withdrawer_address), [m.pool_coin!]);
    emit(ctx, event(EventType.WithdrawFromPool, [
      [A.PoolId, String(this.getPool(ctx, batch.pool_id)?.id ?? 0n)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(stored.msg_index)], [A.Withdrawer, m.withdrawer_address],
      [A.PoolCoinDenom, m.pool_coin!.denom], [A.PoolCoinAmount, m.pool_coin!.amount], [A.Success, FAILURE],
    ]));
    stored.to_be_deleted = true;
    this.setWithdrawMsgState(ctx, batch.pool_id, stored);
  }

  /** The `swap_transacted success=failure` event of an order that is dropped or not matched. */
  private swapFailureEvent(pool: Pool, batch: PoolBatch, sms: SwapMsgState, swapPrice?: Dec) {
    const m = sms.msg!;
    return event(EventType.SwapTransacted, [
      [A.PoolId, String(pool.id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(sms.msg_index)],
      [A.SwapRequester, m.swap_requester_address], [A.SwapTypeId, String(m.swap_type_id)], [A.OfferCoinDenom, m.offer_coin!.denom],
      [A.OfferCoinAmount, m.offer_coin!.amount], [A.DemandCoinDenom, m.demand_coin_denom], [A.OrderPrice, decOf(m.order_price).toString()],
      ...(swapPrice ? [[A.SwapPrice, swapPrice.toString()] as [string, string]] : []),
      [A.RemainingOfferCoinAmount, sms.remaining_offer_coin!.amount], [A.ExchangedOfferCoinAmount, sms.exchanged_offer_coin!.amount],
      [A.ReservedOfferCoinFeeAmount, sms.reserved_offer_coin_fee!.amount], [A.OrderExpiryHeight, String(sms.order_expiry_height)],
      [A.Success, FAILURE],
    ]);
  }

  /** `SwapExecution`: the batch's swaps matched at one price and settled; returns the number of msgs executed. */
  swapExecution(ctx: Context, batch: PoolBatch): number {
    const all = this.swapMsgStates(ctx, batch.pool_id).filter((s) => !s.executed && !s.succeeded && !s.to_be_deleted);
    if (all.length === 0) return 0;
    const pool = this.getPool(ctx, batch.pool_id);
    if (!pool) throw LiquidityErrors.PoolNotExists.error();
    if (this.isDepletedPool(ctx, pool)) throw LiquidityErrors.DepletedPool.error();
    const height = BigInt(ctx.block.height);
    let executed = 0;
    const kept: SwapMsgState[] = [];
    const dropped: SwapMsgState[] = [];
    for (const sms of all) {
      sms.executed = true;
      executed++;
      if (height > sms.order_expiry_height) sms.to_be_deleted = true;
      try {
        this.validateMsgSwapWithinBatch(ctx, sms.msg!, pool);
      } catch {
        sms.to_be_deleted = true;
      }
      if (!sms.to_be_deleted) kept.push(sms);
      else {
        dropped.push(sms);
        emit(ctx, this.swapFailureEvent(pool, batch, sms));
      }
    }
    // The original leaves the escrow of an order dropped here (failing its re-validation at execution, e.g.
    // after a params change of swap_fee_rate or max_order_amount_ratio) in the module account for good: its
    // msg state is deleted at the next BeginBlock and nothing ever releases the coins. We refund it.
    this.inputOutputCoins(ctx, dropped.map((sms) => ({
      from: this.escrowAddress, to: this.ak.addressCodec.decode(sms.msg!.swap_requester_address),
      coins: [sms.remaining_offer_coin!, sms.reserved_offer_coin_fee!],
    })));
    for (const sms of all) this.setSwapMsgState(ctx, pool.id, sms);
    validateStateAndExpireOrders(kept, height, false);

    const reserve = this.getReserveCoins(ctx, pool);
    let X = Dec.fromInt(amt(reserve[0]));
    let Y = Dec.fromInt(amt(reserve[1]));
    const [denomX, denomY] = [reserve[0]!.denom, reserve[1]!.denom];
    const { orderMap, xToY, yToX } = makeOrderMap(kept, denomX, denomY, false);
    const book = sortOrderBook(orderMap);
    const { result, found } = matchBook(book, X, Y);
    if (!found || X.quo(Y).isZero()) {
      this.refundSwaps(ctx, pool, kept);
      return executed;
    }
    let mXtoY: MatchResult[] = [];
    let mYtoX: MatchResult[] = [];
    if (result.matchType !== MatchType.No) {
      mXtoY = findOrderMatch(OrderDirection.XtoY, xToY, result.ex, result.swapPrice).matchResults;
      mYtoX = findOrderMatch(OrderDirection.YtoX, yToX, result.ey, result.swapPrice).matchResults;
    }
    const before = new Map(kept.map((s) => [s, amt(s.remaining_offer_coin)]));
    const upd = updateSwapMsgStates(X, Y, xToY, yToX, mXtoY, mYtoX);
    X = upd.x;
    Y = upd.y;
    const lastPrice = X.quo(Y);
    validateStateAndExpireOrders(xToY, height, false);
    validateStateAndExpireOrders(yToX, height, false);
    const executedBook = sortOrderBook(makeOrderMap([...xToY, ...yToX], denomX, denomY, true).orderMap);
    if (!validateOrderBook(executedBook, lastPrice)) throw LiquidityErrors.OrderBookInvalidity.error();
    validateStateAndExpireOrders(xToY, height, true);
    validateStateAndExpireOrders(yToX, height, true);
    const matches = new Map<bigint, MatchResult>();
    for (const m of [...mXtoY, ...mYtoX]) {
      if (matches.has(m.swapMsgState.msg_index)) throw new Error('duplicate match order');
      matches.set(m.swapMsgState.msg_index, m);
    }
    this.transactAndRefundSwaps(ctx, kept, matches, pool, batch, result, before);
    return executed;
  }

  /**
   * `TransactAndRefundSwapLiquidityPool`: one multi-send for the whole batch (offer coins and offer fees from
   * the escrow to the reserve, demand coins less the exchanged fee from the reserve, leftovers of expiring
   * orders back), a `swap_transacted` per order and the fork's success records.
   */
  private transactAndRefundSwaps(ctx: Context, states: SwapMsgState[], matches: Map<bigint, MatchResult>, pool: Pool, batch: PoolBatch,
    result: BatchResult, before: Map<SwapMsgState, bigint>): void {
    const transfers: Transfer[] = [];
    const escrow = this.escrowAddress;
    const reserveAcc = this.reserveAccount(pool);
    const height = BigInt(ctx.block.height);
    const events = [];
    for (const sms of states) {
      if (pool.id !== sms.msg!.pool_id) throw new Error('broken msg pool consistency');
      if (!sms.executed && sms.succeeded) throw new Error("can't refund not executed with succeed msg");
      const remaining = amt(sms.remaining_offer_coin);
      if (remaining < 0n) throw new Error('negative RemainingOfferCoin');
      if (remaining > 0n && ((!sms.to_be_deleted && sms.order_expiry_height <= height) || (sms.to_be_deleted && sms.order_expiry_height !== height))) {
        throw new Error('consistency of OrderExpiryHeight and ToBeDeleted flag is broken');
      }
      const m = sms.msg!;
      const requester = this.ak.addressCodec.decode(m.swap_requester_address);
      let getCoin: Coin = emptyCoin();
      const match = matches.get(sms.msg_index);
      if (match) {
        const transacted = match.transactedCoinAmt.truncateInt();
        const receive = match.exchangedDemandCoinAmt.sub(match.exchangedCoinFeeAmt).truncateInt();
        const offerFee = match.offerCoinFeeAmt.truncateInt();
        transfers.push({ from: escrow, to: reserveAcc, coins: [coin(m.offer_coin!.denom, transacted)] });
        getCoin = coin(m.demand_coin_denom, receive);
        transfers.push({ from: reserveAcc, to: requester, coins: [getCoin] });
        transfers.push({ from: escrow, to: reserveAcc, coins: [coin(m.offer_coin!.denom, offerFee)] });
        // A fill leaving exactly 1 is zeroed by UpdateSwapMsgStates (counted into the pool there) but the
        // original never moves that unit out of the escrow; it goes to the reserve, where the math put it.
        const dust = before.get(sms)! - transacted - remaining;
        if (dust > 0n) transfers.push({ from: escrow, to: reserveAcc, coins: [coin(m.offer_coin!.denom, dust)] });
        const leftover = remaining + amt(sms.reserved_offer_coin_fee);
        if (leftover > 0n && sms.order_expiry_height === height) {
          transfers.push({ from: escrow, to: requester, coins: [coin(m.offer_coin!.denom, leftover)] });
        }
        sms.succeeded = true;
        if (remaining === 0n) sms.to_be_deleted = true;
        events.push(event(EventType.SwapTransacted, [
          [A.PoolId, String(pool.id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(sms.msg_index)],
          [A.SwapRequester, m.swap_requester_address], [A.SwapTypeId, String(m.swap_type_id)], [A.OfferCoinDenom, m.offer_coin!.denom],
          [A.OfferCoinAmount, m.offer_coin!.amount], [A.DemandCoinDenom, m.demand_coin_denom], [A.OrderPrice, decOf(m.order_price).toString()],
          [A.SwapPrice, result.swapPrice.toString()], [A.TransactedCoinAmount, transacted.toString()],
          [A.RemainingOfferCoinAmount, sms.remaining_offer_coin!.amount], [A.ExchangedOfferCoinAmount, sms.exchanged_offer_coin!.amount],
          [A.ExchangedDemandCoinAmount, receive.toString()], [A.OfferCoinFeeAmount, offerFee.toString()],
          [A.ExchangedCoinFeeAmount, match.exchangedCoinFeeAmt.toString()], [A.ReservedOfferCoinFeeAmount, sms.reserved_offer_coin_fee!.amount],
          [A.OrderExpiryHeight, String(sms.order_expiry_height)], [A.Success, SUCCESS],
        ]));
      } else {
        transfers.push({ from: escrow, to: requester, coins: [coin(m.offer_coin!.denom, remaining + amt(sms.reserved_offer_coin_fee))] });
        sms.succeeded = false;
        sms.to_be_deleted = true;
        events.push(this.swapFailureEvent(pool, batch, sms, result.swapPrice));
      }
      this.setSwapSuccess(ctx, pool.id, requester, {
        msg_height: sms.msg_height, msg_index: sms.msg_index, exchanged_offer_coin: { ...sms.exchanged_offer_coin! },
        remaining_offer_coin: { ...sms.remaining_offer_coin! }, reserved_offer_coin_fee: { ...sms.reserved_offer_coin_fee! },
        swap_price: result.swapPrice.atomics(), get_coin: getCoin, msg: m,
      });
    }
    emit(ctx, ...events);
    this.inputOutputCoins(ctx, transfers);
    for (const sms of states) this.setSwapMsgState(ctx, pool.id, sms);
  }

  /** `RefundSwaps`: no scenario found: orders expiring now get remaining + reserved fee back, failed. */
  private refundSwaps(ctx: Context, pool: Pool, states: SwapMsgState[]): void {
    const height = BigInt(ctx.block.height);
    const transfers: Transfer[] = [];
    for (const sms of states) {
      if (sms.order_expiry_height === height) {
        transfers.push({ from: this.escrowAddress, to: this.ak.addressCodec.decode(sms.msg!.swap_requester_address), coins: [sms.remaining_offer_coin!, sms.reserved_offer_coin_fee!] });
        sms.succeeded = false;
        sms.to_be_deleted = true;
      }
    }
    this.inputOutputCoins(ctx, transfers);
    for (const sms of states) this.setSwapMsgState(ctx, pool.id, sms);
  }

  // ---------------------------------------------------------------- BeginBlock

  /**
   * `DeleteAndInitPoolBatches`: for each executed batch, the remaining msgs become not executed (swaps past
   * their expiry to be deleted), the msgs to be deleted are deleted, and the next batch begins.
   */
  deleteAndInitPoolBatches(ctx: Context): void {
    const height = BigInt(ctx.block.height);
    for (const batch of this.state.Batches.values(ctx).toArray()) {
      if (!batch.executed) continue;
      const id = batch.pool_id;
      for (const m of this.depositMsgStates(ctx, id)) {
        if (m.executed && !m.to_be_deleted) this.setDepositMsgState(ctx, id, { ...m, executed: false, succeeded: false });
      }
      for (const m of this.withdrawMsgStates(ctx, id)) {
        if (m.executed && !m.to_be_deleted) this.setWithdrawMsgState(ctx, id, { ...m, executed: false, succeeded: false });
      }
      for (const m of this.swapMsgStates(ctx, id)) {
        if (!m.executed || m.to_be_deleted) continue;
        this.setSwapMsgState(ctx, id, height > m.order_expiry_height ? { ...m, to_be_deleted: true } : { ...m, executed: false, succeeded: false });
      }
      for (const m of this.depositMsgStates(ctx, id)) if (m.to_be_deleted) this.state.DepositMsgStates.remove(ctx, [id, m.msg_index]);
      for (const m of this.withdrawMsgStates(ctx, id)) if (m.to_be_deleted) this.state.WithdrawMsgStates.remove(ctx, [id, m.msg_index]);
      for (const m of this.swapMsgStates(ctx, id)) if (m.to_be_deleted) this.state.SwapMsgStates.remove(ctx, [id, m.msg_index]);
      this.initNextPoolBatch(ctx, batch);
    }
  }
}

/** `NewPoolBatch` with its begin height. */
export function newPoolBatch(poolId: bigint, index: bigint, beginHeight = 0n): PoolBatch {
  return { pool_id: poolId, index, begin_height: beginHeight, deposit_msg_index: 1n, withdraw_msg_index: 1n, swap_msg_index: 1n, executed: false };
}

/** `GetCoinsTotalAmount`: the sum of the coins' amounts. */
export function getCoinsTotalAmount(coins: readonly Coin[]): bigint {
  return coins.reduce((s, c) => s + amt(c), 0n);
}

/** `ValidateReserveCoinLimit`: the sum of the amounts must not exceed a non-zero limit. */
export function validateReserveCoinLimit(max: bigint, coins: readonly Coin[]): void {
  const total = getCoinsTotalAmount(coins);
  if (max !== 0n && total > max) throw LiquidityErrors.ExceededReserveCoinLimit.error();
}

function amountOf(coins: readonly Coin[], denom: string): bigint {
  return amt(coins.find((c) => c.denom === denom));
}
