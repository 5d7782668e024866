/**
 * `sdk.Int` helpers (types/int.go, types/staking.go of SDK v0.45): integers are plain bigints here; `checkInt`
 * enforces the SDK's 256-bit bound where the SDK's Int operations panic with `Int overflow`.
 */
import { MathError } from './errors.js';

/** `maxBitLen` of `sdk.Int` (v0.45). */
export const INT_MAX_BIT_LEN = 256;

/** Go `big.Int.BitLen()`: bits of |x| (0 for 0). */
export function bitLen(x: bigint): number {
  if (x < 0n) x = -x;
  return x === 0n ? 0 : x.toString(2).length;
}

/** Returns `x` when it fits `sdk.Int` (|x| < 2^256), else throws `Int overflow` as the SDK panics. */
export function checkInt(x: bigint): bigint {
  if (bitLen(x) > INT_MAX_BIT_LEN) throw new MathError('Int overflow');
  return x;
}

/** `sdk.NewIntFromString`-like parse of decimal text (≤ 256 bits); throws on bad text or overflow. */
export function parseInt256(text: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new MathError(`invalid integer: ${JSON.stringify(text)}`);
  return checkInt(BigInt(text));
}

/**
 * The SDK's `DefaultPowerReduction` (10^6). This chain's tokens have 18 decimals and use 10^18 (see
 * `CHAIN_POWER_REDUCTION`): pass the reduction explicitly.
 */
export const DEFAULT_POWER_REDUCTION = 10n ** 6n;
/** This chain's power reduction: 10^18 base units (`achain`) per unit of consensus power. */
export const CHAIN_POWER_REDUCTION = 10n ** 18n;

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** `TokensToConsensusPower(tokens, r)`: `tokens / r` truncated, as an int64 (throws `Int64() out of bound`). */
export function tokensToConsensusPower(tokens: bigint, powerReduction: bigint): bigint {
  if (powerReduction === 0n) throw new MathError('division by zero');
  const p = tokens / powerReduction;
  if (p > INT64_MAX || p < INT64_MIN) throw new MathError('Int64() out of bound');
  return p;
}

/** `TokensFromConsensusPower(power, r)`: `power × r`. */
export function tokensFromConsensusPower(power: bigint | number, powerReduction: bigint): bigint {
  return checkInt(BigInt(power) * powerReduction);
}
