/** Coin helpers for operations (the SDK's simtypes.RandomFees / RandomAmount, over @chain/app's Coin). */
import type { Coin } from '@chain/app';
import type { Rand } from './rand.js';

/** A uniform amount in [0, max], biased (as the SDK's `RandomAmount`) toward 0 and `max` one time in ten each. */
export function randomAmount(rand: Rand, max: bigint): bigint {
  if (max <= 0n) return 0n;
  const r = rand.int(0, 9);
  if (r === 0) return 0n;
  if (r === 1) return max;
  return rand.bigint(0n, max);
}

/** A positive amount in [1, max] (max ≥ 1), one time in ten a tiny one (at most 1000: rounding edges). */
export function positiveAmount(rand: Rand, max: bigint): bigint {
  if (max < 1n) throw new Error(`positiveAmount: max ${max} < 1`);
  if (rand.bool(0.1)) return rand.bigint(1n, max < 1000n ? max : 1000n);
  const a = randomAmount(rand, max);
  return a === 0n ? 1n : a;
}

/** Coins with a random positive amount of a random non-empty subset of `spendable` (empty if nothing is spendable). */
export function randomCoins(rand: Rand, spendable: readonly Coin[]): Coin[] {
  const positive = spendable.filter((c) => BigInt(c.amount) > 0n);
  if (positive.length === 0) return [];
  const chosen = positive.filter(() => rand.bool(0.5));
  const subset = chosen.length > 0 ? chosen : [rand.pick(positive)];
  return subset.map((c) => ({ denom: c.denom, amount: positiveAmount(rand, BigInt(c.amount)).toString() }));
}

/**
 * A random fee payable from `spendable` (the SDK's `RandomFees`): nothing half of the time, else a small
 * random amount (at most 1/`divisor` of the balance) of one denom.
 */
export function randomFees(rand: Rand, spendable: readonly Coin[], divisor = 1000n): Coin[] {
  const positive = spendable.filter((c) => BigInt(c.amount) / divisor > 0n);
  if (positive.length === 0 || rand.bool(0.5)) return [];
  const c = rand.pick(positive);
  return [{ denom: c.denom, amount: rand.bigint(1n, BigInt(c.amount) / divisor).toString() }];
}

/** Per denom, the smaller of two balances (denoms missing from either are dropped). */
export function minCoins(a: readonly Coin[], b: readonly Coin[]): Coin[] {
  const out: Coin[] = [];
  for (const c of a) {
    const other = b.find((x) => x.denom === c.denom);
    if (!other) continue;
    const m = BigInt(c.amount) < BigInt(other.amount) ? c.amount : other.amount;
    if (BigInt(m) > 0n) out.push({ denom: c.denom, amount: m });
  }
  return out;
}

/** `a - b` per denom (coins of `b` absent from `a` are an error), zero entries dropped. */
export function subCoins(a: readonly Coin[], b: readonly Coin[]): Coin[] {
  const out = new Map<string, bigint>(a.map((c) => [c.denom, BigInt(c.amount)]));
  for (const c of b) {
    const v = (out.get(c.denom) ?? 0n) - BigInt(c.amount);
    if (v < 0n) throw new Error(`subCoins: negative ${c.denom}`);
    out.set(c.denom, v);
  }
  return [...out.entries()].filter(([, v]) => v > 0n).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([denom, v]) => ({ denom, amount: v.toString() }));
}

/** The amount of `denom` in `coins` (0 when absent). */
export function amountOfDenom(coins: readonly Coin[], denom: string): bigint {
  const c = coins.find((x) => x.denom === denom);
  return c ? BigInt(c.amount) : 0n;
}
