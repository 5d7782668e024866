/**
 * The few validator numbers distribution needs (x/staking/types/validator.go of SDK v0.45), computed from
 * the proto fields with @chain/math: `tokens` is Int text, `delegator_shares` and the commission rate Dec
 * atomics text.
 */
import { Dec } from '@chain/math';
import type { Validator } from './expected-keepers.js';

const decOf = (atomics: string | undefined): Dec => (!atomics ? Dec.zero() : Dec.fromAtomics(atomics));

export function validatorTokens(v: Validator): bigint {
  return BigInt(v.tokens || '0');
}

export function validatorDelegatorShares(v: Validator): Dec {
  return decOf(v.delegator_shares);
}

/** `GetCommission()`: the current commission rate. */
export function validatorCommissionRate(v: Validator): Dec {
  return decOf(v.commission?.commission_rates?.rate);
}

/** `TokensFromShares`: `shares.MulInt(tokens).Quo(delegatorShares)` (throws on zero delegator shares, as the SDK panics). */
export function tokensFromShares(v: Validator, shares: Dec): Dec {
  return shares.mulInt(validatorTokens(v)).quo(validatorDelegatorShares(v));
}

/** `TokensFromSharesTruncated`: `shares.MulInt(tokens).QuoTruncate(delegatorShares)`. */
export function tokensFromSharesTruncated(v: Validator, shares: Dec): Dec {
  return shares.mulInt(validatorTokens(v)).quoTruncate(validatorDelegatorShares(v));
}
