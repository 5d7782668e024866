/**
 * The share/token arithmetic of a validator (Cosmos SDK v0.45 x/staking/types/validator.go) and the
 * commission rules (types/commission.go), on @chain/math's Dec with the SDK's rounding. Validators are
 * the generated proto objects: `tokens` is Int text, `delegator_shares` and the commission rates are Dec
 * atomics text. The functions returning a validator return a copy; the input is not changed.
 */
import { Dec } from '@chain/math';
import type { CommissionRates, Validator } from './gen/chain/staking/v1beta1.js';
import { BondStatus } from './gen/chain/staking/v1beta1.js';
import { StakingErrors } from './errors.js';
import type { google_protobuf } from '@chain/codec';
import { tsNanos } from './time.js';

type Timestamp = google_protobuf.Timestamp;

/** A Dec field's atomics text ("" is zero). */
export const decOf = (atomics: string): Dec => (atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics));
/** A Dec as its wire text (atomics). */
export const decText = (d: Dec): string => d.atomics();
export const tokensOf = (v: Validator): bigint => BigInt(v.tokens || '0');
export const sharesOf = (v: Validator): Dec => decOf(v.delegator_shares);

export const isBonded = (v: Validator): boolean => v.status === BondStatus.BOND_STATUS_BONDED;
export const isUnbonding = (v: Validator): boolean => v.status === BondStatus.BOND_STATUS_UNBONDING;
export const isUnbonded = (v: Validator): boolean => v.status === BondStatus.BOND_STATUS_UNBONDED;

/** `InvalidExRate`: no tokens left but shares outstanding (everything slashed). */
export function invalidExRate(v: Validator): boolean {
  return tokensOf(v) === 0n && sharesOf(v).isPositive();
}

/** `TokensFromShares`: shares × tokens / delegator shares (`Quo`, banker's rounding). */
export function tokensFromShares(v: Validator, shares: Dec): Dec {
  return shares.mulInt(tokensOf(v)).quo(sharesOf(v));
}

/** `TokensFromSharesTruncated` (`QuoTruncate`). */
export function tokensFromSharesTruncated(v: Validator, shares: Dec): Dec {
  return shares.mulInt(tokensOf(v)).quoTruncate(sharesOf(v));
}

/** `TokensFromSharesRoundUp` (`QuoRoundUp`). */
export function tokensFromSharesRoundUp(v: Validator, shares: Dec): Dec {
  return shares.mulInt(tokensOf(v)).quoRoundUp(sharesOf(v));
}

/** `SharesFromTokens`: delegator shares × amount / tokens (`QuoInt`, truncating); no tokens: staking 22. */
export function sharesFromTokens(v: Validator, amount: bigint): Dec {
  const tokens = tokensOf(v);
  if (tokens === 0n) throw StakingErrors.InsufficientShares.error();
  return sharesOf(v).mulInt(amount).quoInt(tokens);
}

/** `SharesFromTokensTruncated`: delegator shares × amount `QuoTruncate` tokens; no tokens: staking 22. */
export function sharesFromTokensTruncated(v: Validator, amount: bigint): Dec {
  const tokens = tokensOf(v);
  if (tokens === 0n) throw StakingErrors.InsufficientShares.error();
  return sharesOf(v).mulInt(amount).quoTruncate(Dec.fromInt(tokens));
}

/** `AddTokensFromDel`: 1:1 shares for a validator without shares, else `SharesFromTokens`. */
export function addTokensFromDel(v: Validator, amount: bigint): [Validator, Dec] {
  const issued = sharesOf(v).isZero() ? Dec.fromInt(amount) : sharesFromTokens(v, amount);
  return [{ ...v, tokens: (tokensOf(v) + amount).toString(), delegator_shares: decText(sharesOf(v).add(issued)) }, issued];
}

/**
 * `RemoveDelShares`: the last shares take every token; otherwise `TokensFromShares(shares).TruncateInt()`
 * tokens are issued. Returns the validator and the issued tokens.
 */
export function removeDelShares(v: Validator, shares: Dec): [Validator, bigint] {
  const remaining = sharesOf(v).sub(shares);
  let issued: bigint;
  let tokens: bigint;
  if (remaining.isZero()) {
    issued = tokensOf(v);
    tokens = 0n;
  } else {
    issued = tokensFromShares(v, shares).truncateInt();
    tokens = tokensOf(v) - issued;
    if (tokens < 0n) throw new Error('attempting to remove more tokens than available in validator');
  }
  return [{ ...v, tokens: tokens.toString(), delegator_shares: decText(remaining) }, issued];
}

/** `RemoveTokens`: panics (throws) on a negative amount or more than the validator has. */
export function removeTokens(v: Validator, tokens: bigint): Validator {
  if (tokens < 0n) throw new Error(`should not happen: trying to remove negative tokens ${tokens}`);
  if (tokensOf(v) < tokens) throw new Error(`should not happen: only have ${tokensOf(v)} tokens, trying to remove ${tokens}`);
  return { ...v, tokens: (tokensOf(v) - tokens).toString() };
}

// ---- commission (types/commission.go) ----

export interface Rates {
  readonly rate: Dec;
  readonly maxRate: Dec;
  readonly maxChangeRate: Dec;
}

export function ratesOf(c: CommissionRates | null): Rates {
  return { rate: decOf(c?.rate ?? ''), maxRate: decOf(c?.max_rate ?? ''), maxChangeRate: decOf(c?.max_change_rate ?? '') };
}

/** `CommissionRates.Validate`, in the SDK's order. */
export function validateCommissionRates(cr: Rates): void {
  if (cr.maxRate.isNegative()) throw StakingErrors.CommissionNegative.error();
  if (cr.maxRate.gt(Dec.one())) throw StakingErrors.CommissionHuge.error();
  if (cr.rate.isNegative()) throw StakingErrors.CommissionNegative.error();
  if (cr.rate.gt(cr.maxRate)) throw StakingErrors.CommissionGTMaxRate.error();
  if (cr.maxChangeRate.isNegative()) throw StakingErrors.CommissionChangeRateNegative.error();
  if (cr.maxChangeRate.gt(cr.maxRate)) throw StakingErrors.CommissionChangeRateGTMaxRate.error();
}

const DAY_NS = 24n * 60n * 60n * 1_000_000_000n;

/**
 * `Commission.ValidateNewRate`: at most once per 24h (block time − update time < 24h: staking 12), not
 * negative (9), not above the max rate (11), an increase of at most the max change rate (15).
 */
export function validateNewRate(cr: Rates, updateTime: Timestamp, newRate: Dec, blockTime: Timestamp): void {
  if (tsNanos(blockTime) - tsNanos(updateTime) < DAY_NS) throw StakingErrors.CommissionUpdateTime.error();
  if (newRate.isNegative()) throw StakingErrors.CommissionNegative.error();
  if (newRate.gt(cr.maxRate)) throw StakingErrors.CommissionGTMaxRate.error();
  if (newRate.sub(cr.rate).gt(cr.maxChangeRate)) throw StakingErrors.CommissionGTMaxChangeRate.error();
}
