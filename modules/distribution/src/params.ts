/** distribution params (x/distribution/types/params.go of SDK v0.45): proto shape, Dec values, defaults, validation. */
import { Dec } from '@chain/math';
import type { Params } from './gen/chain/distribution/v1beta1.js';

/** `chain.distribution.v1beta1.Params` as stored (Dec fields hold the atomics text). */
export type DistributionParams = Params;

export interface DistributionParamsValues {
  readonly communityTax: Dec;
  readonly baseProposerReward: Dec;
  readonly bonusProposerReward: Dec;
  readonly withdrawAddrEnabled: boolean;
}

/** Wire atomics → Dec (`""` = zero). */
export function decOf(atomics: string): Dec {
  return atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics);
}

/** `DefaultParams()`: community tax 0.02, base proposer 0.01, bonus proposer 0.04, withdraw address enabled. */
export function defaultParamsValues(): DistributionParamsValues {
  return { communityTax: Dec.withPrec(2, 2), baseProposerReward: Dec.withPrec(1, 2), bonusProposerReward: Dec.withPrec(4, 2), withdrawAddrEnabled: true };
}

export function paramsToProto(p: DistributionParamsValues): DistributionParams {
  return {
    community_tax: p.communityTax.atomics(),
    base_proposer_reward: p.baseProposerReward.atomics(),
    bonus_proposer_reward: p.bonusProposerReward.atomics(),
    withdraw_addr_enabled: p.withdrawAddrEnabled,
  };
}

export function paramsFromProto(p: DistributionParams): DistributionParamsValues {
  return {
    communityTax: decOf(p.community_tax),
    baseProposerReward: decOf(p.base_proposer_reward),
    bonusProposerReward: decOf(p.bonus_proposer_reward),
    withdrawAddrEnabled: p.withdraw_addr_enabled,
  };
}

/** A fresh copy of the defaults, in the proto shape. */
export function defaultParams(): DistributionParams {
  return paramsToProto(defaultParamsValues());
}

export const DEFAULT_PARAMS: Readonly<DistributionParams> = Object.freeze(defaultParams());

/**
 * `Params.ValidateBasic()` of v0.45 (plain errors, its messages): `community tax should be non-negative and
 * less than one: <t>`, `base proposer reward should be positive: <b>`, `bonus proposer reward should be
 * positive: <b>`, `sum of base, bonus proposer rewards, and community tax cannot be greater than one: <s>`.
 */
export function validateParamsValues(p: DistributionParamsValues): void {
  if (p.communityTax.isNegative() || p.communityTax.gt(Dec.one())) {
    throw new Error(`community tax should be non-negative and less than one: ${p.communityTax.toString()}`);
  }
  if (p.baseProposerReward.isNegative()) throw new Error(`base proposer reward should be positive: ${p.baseProposerReward.toString()}`);
  if (p.bonusProposerReward.isNegative()) throw new Error(`bonus proposer reward should be positive: ${p.bonusProposerReward.toString()}`);
  const sum = p.baseProposerReward.add(p.bonusProposerReward).add(p.communityTax);
  if (sum.gt(Dec.one())) throw new Error(`sum of base, bonus proposer rewards, and community tax cannot be greater than one: ${sum.toString()}`);
}

export function validateParams(p: DistributionParams): void {
  validateParamsValues(paramsFromProto(p));
}
