/**
 * mint params (x/mint/types/params.go of SDK v0.45): the proto type (Dec fields as wire atomics), the same
 * values as `Dec`s, the defaults and their validation with the SDK's messages.
 */
import { aminoJson, defineParamSubspace, paramKey, validateParamDenom } from '@chain/app';
import type { Context, ParamSubspace } from '@chain/app';
import { Dec, validateDenom } from '@chain/math';
import type { Params } from './gen/chain/mint/v1beta1.js';

/** `chain.mint.v1beta1.Params` as stored (Dec fields hold the atomics text). */
export type MintParams = Params;

/** The params with their Dec fields as `Dec`. */
export interface MintParamsValues {
  readonly mintDenom: string;
  readonly inflationRateChange: Dec;
  readonly inflationMax: Dec;
  readonly inflationMin: Dec;
  readonly goalBonded: Dec;
  readonly blocksPerYear: bigint;
}

/** `sdk.DefaultBondDenom` */
export const DEFAULT_MINT_DENOM = 'stake';
/** 60 × 60 × 8766 / 5: 5-second blocks */
export const DEFAULT_BLOCKS_PER_YEAR = 6311520n;

/** `DefaultParams()`: stake, 0.13, 0.20, 0.07, 0.67, 6311520. */
export function defaultParamsValues(): MintParamsValues {
  return {
    mintDenom: DEFAULT_MINT_DENOM,
    inflationRateChange: Dec.withPrec(13, 2),
    inflationMax: Dec.withPrec(20, 2),
    inflationMin: Dec.withPrec(7, 2),
    goalBonded: Dec.withPrec(67, 2),
    blocksPerYear: DEFAULT_BLOCKS_PER_YEAR,
  };
}

export function paramsToProto(p: MintParamsValues): MintParams {
  return {
    mint_denom: p.mintDenom,
    inflation_rate_change: p.inflationRateChange.atomics(),
    inflation_max: p.inflationMax.atomics(),
    inflation_min: p.inflationMin.atomics(),
    goal_bonded: p.goalBonded.atomics(),
    blocks_per_year: p.blocksPerYear,
  };
}

/** Wire atomics → Dec ('' = zero, as an unset non-nullable Dec field). */
export function decOf(atomics: string): Dec {
  return atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics);
}

export function paramsFromProto(p: MintParams): MintParamsValues {
  return {
    mintDenom: p.mint_denom,
    inflationRateChange: decOf(p.inflation_rate_change),
    inflationMax: decOf(p.inflation_max),
    inflationMin: decOf(p.inflation_min),
    goalBonded: decOf(p.goal_bonded),
    blocksPerYear: p.blocks_per_year,
  };
}

/** A fresh copy of the defaults, in the proto shape. */
export function defaultParams(): MintParams {
  return paramsToProto(defaultParamsValues());
}

export const DEFAULT_PARAMS: Readonly<MintParams> = Object.freeze(defaultParams());

function validateFraction(v: Dec, name: string): void {
  if (v.isNegative()) throw new Error(`${name} cannot be negative: ${v.toString()}`);
  if (v.gt(Dec.one())) throw new Error(`${name} too large: ${v.toString()}`);
}

/**
 * `Params.Validate()` of v0.45, in its order and with its messages (plain errors: v0.45 mint registers no
 * error codes): `mint denom cannot be blank`, `invalid denom: <d>`, `inflation rate change cannot be
 * negative: <d>` / `… too large: <d>`, the same for `max inflation`, `min inflation`, `goal bonded`,
 * `blocks per year must be positive: 0`, `max inflation (<max>) must be greater than or equal to min inflation (<min>)`.
 */
export function validateParamsValues(p: MintParamsValues): void {
  if (p.mintDenom.trim() === '') throw new Error('mint denom cannot be blank');
  validateDenom(p.mintDenom);
  validateFraction(p.inflationRateChange, 'inflation rate change');
  validateFraction(p.inflationMax, 'max inflation');
  validateFraction(p.inflationMin, 'min inflation');
  validateFraction(p.goalBonded, 'goal bonded');
  if (p.blocksPerYear === 0n) throw new Error(`blocks per year must be positive: ${p.blocksPerYear}`);
  if (p.inflationMax.lt(p.inflationMin)) {
    throw new Error(`max inflation (${p.inflationMax.toString()}) must be greater than or equal to min inflation (${p.inflationMin.toString()})`);
  }
}

/** Validates params in the proto shape (see `validateParamsValues`). */
export function validateParams(p: MintParams): void {
  validateParamsValues(paramsFromProto(p));
}

/** What the mint subspace reads and writes: the keeper's params. */
export interface MintParamsAccess {
  getParamsProto(ctx: Context): MintParams;
  setParams(ctx: Context, p: MintParamsValues): void;
}

type DecField = 'inflation_rate_change' | 'inflation_max' | 'inflation_min' | 'goal_bonded';

/**
 * The `mint` params subspace of x/params (SDK v0.45 x/mint/types/params.go): `MintDenom` (string),
 * `InflationRateChange`, `InflationMax`, `InflationMin`, `GoalBonded` (Dec, quoted 18 decimals) and
 * `BlocksPerYear` (uint64, quoted), each checked by the SDK's validator; the keeper then checks the whole
 * params (max inflation at least min inflation).
 */
export function paramSubspace(k: MintParamsAccess): ParamSubspace {
  const dec = (key: string, field: DecField, what: string) =>
    paramKey<MintParams, string>(key, aminoJson.decAtomics, (p) => p[field], (p, v) => ({ ...p, [field]: v }), (atomics) => validateFraction(decOf(atomics), what));
  return defineParamSubspace('mint', { get: (ctx) => k.getParamsProto(ctx), set: (ctx, p) => k.setParams(ctx, paramsFromProto(p)) }, [
    paramKey<MintParams, string>('MintDenom', aminoJson.string, (p) => p.mint_denom, (p, v) => ({ ...p, mint_denom: v }), (v) => {
      if (v.trim() === '') throw new Error('mint denom cannot be blank');
      validateParamDenom(v);
    }),
    dec('InflationRateChange', 'inflation_rate_change', 'inflation rate change'),
    dec('InflationMax', 'inflation_max', 'max inflation'),
    dec('InflationMin', 'inflation_min', 'min inflation'),
    dec('GoalBonded', 'goal_bonded', 'goal bonded'),
    paramKey<MintParams, bigint>('BlocksPerYear', aminoJson.uint64, (p) => p.blocks_per_year, (p, v) => ({ ...p, blocks_per_year: v }), (v) => {
      if (v === 0n) throw new Error(`blocks per year must be positive: ${v}`);
    }),
  ]);
}
