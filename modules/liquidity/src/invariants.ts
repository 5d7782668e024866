/**
 * Invariants of the original (x/liquidity/keeper/invariants.go of tendermint/liquidity v1.4.5):
 * - `escrowAmountInvariant`: the `escrow-amount` route (`LiquidityPoolsEscrowAmountInvariant`, `AllInvariants`):
 *   the escrow (the `liquidity` module account) holds at least the remaining offer coins, deposit coins and pool
 *   coins of every batch msg not to be deleted. This chain has no x/crisis; the function is for tests and tools.
 * - the batch logic checks the original runs only with `BatchLogicInvariantCheckFlag` (false in production, never
 *   set by the keeper): `mintingPoolCoinsInvariant`, `withdrawAmountInvariant`, as pure functions that throw where
 *   the original panics, with the original's thresholds (5 % error rate, amounts from 20). Not called by the keeper
 *   (as the original with the flag off).
 */
import type { Context } from '@chain/app';
import { Dec } from '@chain/math';
import type { LiquidityKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { amt } from './swap.js';

const ERROR_RATE_THRESHOLD = Dec.withPrec(5, 2);
const COIN_AMOUNT_THRESHOLD = 20n;

/** `sdk.FormatInvariant`. */
export const formatInvariant = (module: string, name: string, msg: string): string => `${module}: ${name} invariant\n${msg}\n`;

/** `LiquidityPoolsEscrowAmountInvariant(k)(ctx)`: [message, broken]. */
export function escrowAmountInvariant(ctx: Context, k: LiquidityKeeper): [string, boolean] {
  const remaining = new Map<string, bigint>();
  const add = (denom: string, amount: bigint) => {
    if (amount !== 0n) remaining.set(denom, (remaining.get(denom) ?? 0n) + amount);
  };
  for (const batch of k.state.Batches.values(ctx).toArray()) {
    const id = batch.pool_id;
    for (const m of k.swapMsgStates(ctx, id)) if (!m.to_be_deleted) add(m.remaining_offer_coin?.denom ?? '', amt(m.remaining_offer_coin));
    for (const m of k.depositMsgStates(ctx, id)) if (!m.to_be_deleted) for (const c of m.msg?.deposit_coins ?? []) add(c.denom, amt(c));
    for (const m of k.withdrawMsgStates(ctx, id)) if (!m.to_be_deleted) add(m.msg?.pool_coin?.denom ?? '', amt(m.msg?.pool_coin));
  }
  const escrow = k.ak.getModuleAddress(MODULE_NAME);
  // `escrowAmt.IsAllGTE(remainingCoins)`
  const broken = [...remaining].some(([denom, need]) => k.bk.getBalance(ctx, escrow, denom) < need);
  return [formatInvariant(MODULE_NAME, 'batch escrow amount invariant broken', 'batch escrow amount LT batch remaining amount'), broken];
}

/** `errorRate`: |actual − expected| / expected, 1 when expected is 0. */
function errorRate(expected: Dec, actual: Dec): Dec {
  if (expected.isZero()) return Dec.one();
  return actual.sub(expected).quo(expected).abs();
}

const bmax = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const bmin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** `MintingPoolCoinsInvariant`: the pool coins minted for a deposit follow the deposit's share of the reserves. */
export function mintingPoolCoinsInvariant(
  poolCoinTotalSupply: bigint, mintPoolCoin: bigint, depositCoinA: bigint, depositCoinB: bigint,
  lastReserveCoinA: bigint, lastReserveCoinB: bigint, refundedCoinA: bigint, refundedCoinB: bigint,
): void {
  const depA = depositCoinA - refundedCoinA;
  const depB = depositCoinB - refundedCoinB;
  const poolCoinRatio = Dec.fromInt(mintPoolCoin).quoInt(poolCoinTotalSupply);
  const depositCoinARatio = Dec.fromInt(depA).quoInt(lastReserveCoinA);
  const depositCoinBRatio = Dec.fromInt(depB).quoInt(lastReserveCoinB);
  const expectedA = depositCoinARatio.mulInt(poolCoinTotalSupply).truncateInt();
  const expectedB = depositCoinBRatio.mulInt(poolCoinTotalSupply).truncateInt();
  const t = COIN_AMOUNT_THRESHOLD;
  if (depA >= t && depB >= t && lastReserveCoinA >= t && lastReserveCoinB >= t && mintPoolCoin >= t && poolCoinTotalSupply >= t) {
    if (errorRate(depositCoinARatio, poolCoinRatio).gt(ERROR_RATE_THRESHOLD) || errorRate(depositCoinBRatio, poolCoinRatio).gt(ERROR_RATE_THRESHOLD)) {
      throw new Error('invariant check fails due to incorrect ratio of pool coins');
    }
  }
  // as the original: the B side's spread is taken against min(mint, expectedA)
  if (mintPoolCoin >= t && (Dec.fromInt(bmax(mintPoolCoin, expectedA) - bmin(mintPoolCoin, expectedA)).quoInt(mintPoolCoin).gt(ERROR_RATE_THRESHOLD)
    || Dec.fromInt(bmax(mintPoolCoin, expectedB) - bmin(mintPoolCoin, expectedA)).quoInt(mintPoolCoin).gt(ERROR_RATE_THRESHOLD))) {
    throw new Error('invariant check fails due to incorrect amount of pool coins');
  }
}

/** `WithdrawAmountInvariant`: each withdrawn amount within 1 of reserve × burned / supply × (1 − fee rate). */
export function withdrawAmountInvariant(
  withdrawCoinA: bigint, withdrawCoinB: bigint, reserveCoinA: bigint, reserveCoinB: bigint, burnedPoolCoin: bigint, poolCoinSupply: bigint, withdrawFeeRate: Dec,
): void {
  const ratio = Dec.fromInt(burnedPoolCoin).quo(Dec.fromInt(poolCoinSupply)).mul(Dec.one().sub(withdrawFeeRate));
  const idealA = Dec.fromInt(reserveCoinA).mul(ratio);
  const idealB = Dec.fromInt(reserveCoinB).mul(ratio);
  const diffA = idealA.sub(Dec.fromInt(withdrawCoinA)).abs();
  const diffB = idealB.sub(Dec.fromInt(withdrawCoinB)).abs();
  if (burnedPoolCoin !== poolCoinSupply) {
    if (diffA.gte(Dec.one())) throw new Error(`withdraw coin amount ${withdrawCoinA} differs too much from ${idealA.toString()}`);
    if (diffB.gte(Dec.one())) throw new Error(`withdraw coin amount ${withdrawCoinB} differs too much from ${idealB.toString()}`);
  }
}
