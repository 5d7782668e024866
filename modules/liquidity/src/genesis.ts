/**
 * liquidity genesis (x/liquidity/keeper/genesis.go, types/genesis.go of the original): the default state,
 * validation, InitGenesis (the params, then each pool record, checked against the bank's reserves and pool
 * coin supply as `ValidatePoolRecord`) and ExportGenesis (the params and one record per pool), plus the
 * fork's success records, which the original's export dropped.
 */
import type { Context } from '@chain/app';
import { LiquidityErrors } from './errors.js';
import type { GenesisState, PoolRecord } from './gen/chain/liquidity/v1beta1.js';
import type { LiquidityKeeper } from './keeper.js';
import { newCoins } from './keeper.js';
import { defaultParams, validateParams } from './params.js';
import { alphabeticalDenomPair, poolCoinDenom, poolName } from './pool.js';
import { amt } from './swap.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return { params: defaultParams(), pool_records: [], deposit_success_msgs: [], swap_success_msgs: [], withdraw_success_msgs: [] };
}

/**
 * `PoolRecord.Validate`: the batch's msg indexes follow the last msg state of each kind. A record without a batch
 * is the original's zero `PoolBatch` (non-nullable there): msg index 0 → 32.
 */
export function validatePoolRecord(r: PoolRecord): void {
  const b = r.pool_batch ?? { deposit_msg_index: 0n, withdraw_msg_index: 0n, swap_msg_index: 0n };
  const last = (xs: { msg_index: bigint }[]) => xs[xs.length - 1]!.msg_index + 1n;
  if (b.deposit_msg_index === 0n || (r.deposit_msg_states.length > 0 && b.deposit_msg_index !== last(r.deposit_msg_states))) throw LiquidityErrors.BadBatchMsgIndex.error();
  if (b.withdraw_msg_index === 0n || (r.withdraw_msg_states.length > 0 && b.withdraw_msg_index !== last(r.withdraw_msg_states))) throw LiquidityErrors.BadBatchMsgIndex.error();
  if (b.swap_msg_index === 0n || (r.swap_msg_states.length > 0 && b.swap_msg_index !== last(r.swap_msg_states))) throw LiquidityErrors.BadBatchMsgIndex.error();
}

/** `ValidateGenesis` (stateless): the params, then each record's msg indexes. */
export function validateGenesis(gen: GenesisState): void {
  validateParams(gen.params ?? defaultParams());
  for (const r of gen.pool_records) validatePoolRecord(r);
}

/**
 * The keeper's `ValidatePoolRecord`: `ValidatePool` + `ValidatePoolMetadata` against the state (the bank's reserves and
 * pool coin supply; the bank's genesis comes first), then `PoolRecord.Validate`.
 */
export function validatePoolRecordState(ctx: Context, k: LiquidityKeeper, r: PoolRecord): void {
  const pool = r.pool!;
  const params = k.getParams(ctx);
  const poolType = params.pool_types[pool.type_id - 1];
  if (poolType === undefined || poolType.id !== pool.type_id) throw LiquidityErrors.PoolTypeNotExists.error();
  const reserves = newCoins(k.getReserveCoins(ctx, pool));
  if (reserves.length > poolType.max_reserve_coin_num || poolType.min_reserve_coin_num > reserves.length) throw LiquidityErrors.NumOfReserveCoin.error();
  if (pool.reserve_coin_denoms.length !== reserves.length) throw LiquidityErrors.NumOfReserveCoin.error();
  pool.reserve_coin_denoms.forEach((d, i) => {
    if (d !== reserves[i]!.denom) throw LiquidityErrors.InvalidDenom.error();
  });
  const [a, b] = alphabeticalDenomPair(pool.reserve_coin_denoms[0]!, pool.reserve_coin_denoms[1]!);
  if (a !== pool.reserve_coin_denoms[0] || b !== pool.reserve_coin_denoms[1]) throw LiquidityErrors.BadOrderingReserveCoin.error();
  if (pool.pool_coin_denom !== poolCoinDenom(poolName(pool.reserve_coin_denoms, pool.type_id))) throw LiquidityErrors.BadPoolCoinDenom.error();
  const meta = r.pool_metadata!;
  const metaReserves = newCoins(meta.reserve_coins);
  if (metaReserves.length !== reserves.length || metaReserves.some((c, i) => c.denom !== reserves[i]!.denom || c.amount !== reserves[i]!.amount)) {
    throw LiquidityErrors.NumOfReserveCoin.error();
  }
  const supply = k.getPoolCoinTotalSupply(ctx, pool);
  if (meta.pool_coin_total_supply?.denom !== pool.pool_coin_denom || amt(meta.pool_coin_total_supply) !== supply) throw LiquidityErrors.BadPoolCoinAmount.error();
  validatePoolRecord(r);
}

export function initGenesis(ctx: Context, k: LiquidityKeeper, gen: GenesisState): void {
  k.setParams(ctx, gen.params ?? defaultParams());
  const height = BigInt(ctx.block.height);
  let next = 1n;
  for (const r of gen.pool_records) {
    const pool = r.pool!;
    k.setPool(ctx, pool);
    if (pool.id >= next) next = pool.id + 1n;
    const batch = { ...r.pool_batch! };
    if (batch.begin_height > height) batch.begin_height = 0n;
    k.setBatch(ctx, batch);
    for (const m of r.deposit_msg_states) k.setDepositMsgState(ctx, pool.id, m);
    for (const m of r.withdraw_msg_states) k.setWithdrawMsgState(ctx, pool.id, m);
    for (const m of r.swap_msg_states) k.setSwapMsgState(ctx, pool.id, m);
    validatePoolRecordState(ctx, k, r);
  }
  if (gen.pool_records.length > 0) k.state.NextPoolId.set(ctx, { value: next });
  const dec = (a: string) => k.ak.addressCodec.decode(a);
  for (const r of gen.deposit_success_msgs) k.setDepositSuccess(ctx, r.pool_id, dec(r.depositor_address), r);
  for (const r of gen.swap_success_msgs) k.setSwapSuccess(ctx, r.msg!.pool_id, dec(r.msg!.swap_requester_address), r);
  for (const r of gen.withdraw_success_msgs) k.setWithdrawSuccess(ctx, r.msg!.pool_id, dec(r.msg!.withdrawer_address), r);
}

/** The collections the export covers: the records walk pools, batches and msg states; the indexes follow. */
const EXPORTED = new Set([
  'params', 'next_pool_id', 'pools', 'pool_by_reserve_acc', 'batches', 'deposit_msg_states', 'withdraw_msg_states', 'swap_msg_states',
  'deposit_success_msgs', 'deposit_success_index', 'swap_success_msgs', 'swap_success_index', 'withdraw_success_msgs', 'withdraw_success_index',
]);

/**
 * `ExportGenesis`: the params, one record per pool (with its metadata from the bank) and the success records.
 * A collection added to src/keys.ts and not covered here makes the export throw.
 */
export function exportGenesis(ctx: Context, k: LiquidityKeeper): GenesisState {
  const left = k.state.schema.collections().map((c) => c.name).filter((n) => !EXPORTED.has(n));
  if (left.length > 0) throw new Error(`liquidity genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  const pool_records: PoolRecord[] = [];
  for (const pool of k.getAllPools(ctx)) {
    const batch = k.getBatch(ctx, pool.id);
    if (!batch) continue;
    pool_records.push({
      pool,
      pool_metadata: {
        pool_id: pool.id,
        pool_coin_total_supply: { denom: pool.pool_coin_denom, amount: k.getPoolCoinTotalSupply(ctx, pool).toString() },
        reserve_coins: k.getReserveCoins(ctx, pool),
      },
      pool_batch: batch,
      deposit_msg_states: k.depositMsgStates(ctx, pool.id),
      withdraw_msg_states: k.withdrawMsgStates(ctx, pool.id),
      swap_msg_states: k.swapMsgStates(ctx, pool.id),
    });
  }
  return {
    params: k.getParams(ctx),
    pool_records,
    deposit_success_msgs: k.state.DepositSuccess.values(ctx).toArray(),
    swap_success_msgs: k.state.SwapSuccess.values(ctx).toArray(),
    withdraw_success_msgs: k.state.WithdrawSuccess.values(ctx).toArray(),
  };
}
