/** staking params: the proto type, the defaults and the validation of Cosmos SDK v0.45 (x/staking/types/params.go). */
import { aminoJson, defineParamSubspace, isValidDenom, paramKey, validateParamDenom } from '@chain/app';
import type { Context, ParamSubspace, ProtoDuration } from '@chain/app';
import type { Params } from './gen/chain/staking/v1beta1.js';

/** `chain.staking.v1beta1.Params`. */
export type StakingParams = Params;

/** The SDK's defaults: 3 weeks, 100 validators, 7 entries, 10000 historical entries, `stake`. */
export const DEFAULT_PARAMS: Readonly<StakingParams> = Object.freeze({
  unbonding_time: Object.freeze({ seconds: 60n * 60n * 24n * 7n * 3n, nanos: 0 }),
  max_validators: 100,
  max_entries: 7,
  historical_entries: 10000,
  bond_denom: 'stake',
});

/** A fresh copy of the defaults. */
export function defaultParams(): StakingParams {
  return { ...DEFAULT_PARAMS, unbonding_time: { ...DEFAULT_PARAMS.unbonding_time! } };
}

/** The duration in nanoseconds (Go's `time.Duration`). */
export function durationNanos(d: { seconds: bigint; nanos: number } | null): bigint {
  return d ? d.seconds * 1_000_000_000n + BigInt(d.nanos) : 0n;
}

/**
 * `Params.Validate` of the SDK, in its order and with its messages (plain errors, as the SDK's `fmt.Errorf`):
 * unbonding time, max validators, max entries, bond denom (historical entries may be 0).
 */
export function validateParams(p: StakingParams): void {
  const ns = durationNanos(p.unbonding_time);
  if (ns <= 0n) throw new Error(`unbonding time must be positive: ${ns}`);
  if (p.max_validators === 0) throw new Error('max validators must be positive');
  if (p.max_entries === 0) throw new Error('max entries must be positive');
  if (p.bond_denom.trim() === '') throw new Error('bond denom cannot be blank');
  if (!isValidDenom(p.bond_denom)) throw new Error(`invalid denom: ${p.bond_denom}`);
}

/** What the staking subspace reads and writes: the keeper's params. */
export interface StakingParamsAccess {
  getParams(ctx: Context): StakingParams;
  setParams(ctx: Context, p: StakingParams): void;
}

/**
 * The `staking` params subspace of x/params (SDK v0.45 x/staking/types/params.go): `UnbondingTime` (duration,
 * quoted nanoseconds), `MaxValidators`, `MaxEntries`, `HistoricalEntries` (uint32, bare numbers) and
 * `BondDenom` (string), each checked by the SDK's validator, then the whole params by `validateParams`.
 */
export function paramSubspace(k: StakingParamsAccess): ParamSubspace {
  const u32 = (key: string, field: 'max_validators' | 'max_entries' | 'historical_entries', what?: string) =>
    paramKey<StakingParams, number>(key, aminoJson.uint32, (p) => p[field], (p, v) => ({ ...p, [field]: v }), what === undefined ? undefined : (v) => {
      if (v === 0) throw new Error(`${what} must be positive: ${v}`);
    });
  return defineParamSubspace('staking', { get: (ctx) => k.getParams(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    paramKey<StakingParams, ProtoDuration | null>('UnbondingTime', aminoJson.duration, (p) => p.unbonding_time, (p, v) => ({ ...p, unbonding_time: v }), (v) => {
      const ns = durationNanos(v);
      if (ns <= 0n) throw new Error(`unbonding time must be positive: ${ns}`);
    }),
    u32('MaxValidators', 'max_validators', 'max validators'),
    u32('MaxEntries', 'max_entries', 'max entries'),
    u32('HistoricalEntries', 'historical_entries'),
    paramKey<StakingParams, string>('BondDenom', aminoJson.string, (p) => p.bond_denom, (p, v) => ({ ...p, bond_denom: v }), (v) => {
      if (v.trim() === '') throw new Error('bond denom cannot be blank');
      validateParamDenom(v);
    }),
  ]);
}
