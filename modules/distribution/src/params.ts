/** distribution params (x/distribution/types/params.go of SDK v0.45): proto shape, Dec values, defaults, validation. */
import { aminoJson, defineParamSubspace, paramKey } from '@chain/app';
import type { Context, ParamSubspace } from '@chain/app';
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

/** What the distribution subspace reads and writes: the keeper's params in the proto shape. */
export interface DistributionParamsAccess {
  getParamsProto(ctx: Context): DistributionParams;
  setParams(ctx: Context, p: DistributionParams): void;
}

type DecField = 'community_tax' | 'base_proposer_reward' | 'bonus_proposer_reward';

/**
 * The `distribution` params subspace of x/params (SDK v0.45 x/distribution/types/params.go, lowercase keys):
 * `communitytax`, `baseproposerreward`, `bonusproposerreward` (Dec, quoted 18 decimals; the SDK's validator
 * `<what> must be positive: <d>` / `<what> too large: <d>`) and `withdrawaddrenabled` (bool). The stored
 * params must then pass `Params.ValidateBasic` (sum of the three at most one), which the keeper checks.
 */
export function paramSubspace(k: DistributionParamsAccess): ParamSubspace {
  const dec = (key: string, field: DecField, what: string) =>
    paramKey<DistributionParams, string>(key, aminoJson.decAtomics, (p) => p[field], (p, v) => ({ ...p, [field]: v }), (atomics) => {
      const d = decOf(atomics);
      if (d.isNegative()) throw new Error(`${what} must be positive: ${d}`);
      if (d.gt(Dec.one())) throw new Error(`${what} too large: ${d}`);
    });
  return defineParamSubspace('distribution', { get: (ctx) => k.getParamsProto(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    dec('communitytax', 'community_tax', 'community tax'),
    dec('baseproposerreward', 'base_proposer_reward', 'base proposer reward'),
    dec('bonusproposerreward', 'bonus_proposer_reward', 'bonus proposer reward'),
    paramKey<DistributionParams, boolean>('withdrawaddrenabled', aminoJson.bool, (p) => p.withdraw_addr_enabled, (p, v) => ({ ...p, withdraw_addr_enabled: v })),
  ]);
}
