/**
 * The few numbers the queries need. `Dec` values are held as in the protos: the atomics (value × 10^18) as
 * decimal text; the arithmetic is @chain/math's (the SDK's Dec).
 */
import { Dec } from '@chain/math';

export const PRECISION = 10n ** 18n;

/** A Dec field's wire text (atomics) → bigint; `""` is zero. */
export function decAtomics(text: string): bigint {
  return text === '' ? 0n : BigInt(text);
}

/**
 * `validator.TokensFromShares(shares).TruncateInt()` (x/staking/types/validator.go v0.45), the balance of
 * a delegation or a redelegation entry in query responses: `shares.MulInt(tokens).Quo(delegatorShares)`
 * with the SDK's Dec rounding (@chain/math), truncated. Zero delegator shares is a division by zero in the
 * SDK (a panic); it throws here.
 */
export function tokensFromSharesTruncated(sharesAtomics: bigint, tokens: bigint, delegatorSharesAtomics: bigint): bigint {
  if (delegatorSharesAtomics === 0n) throw new Error('division by zero: validator has no delegator shares');
  return Dec.fromAtomics(sharesAtomics).mulInt(tokens).quo(Dec.fromAtomics(delegatorSharesAtomics)).truncateInt();
}

export { tokensToConsensusPower } from '@chain/math';
