/**
 * slashing params (x/slashing/types/params.go of SDK v0.45): the proto shape (Dec fields as wire atomics,
 * the jail duration a protobuf Duration), the same values as `Dec`s / bigint nanoseconds, the defaults, and
 * the per-param validation of the params subspace with the SDK's messages.
 */
import { aminoJson, defineParamSubspace, paramKey } from '@chain/app';
import type { Context, ParamSubspace } from '@chain/app';
import type { google_protobuf } from '@chain/codec';
import { Dec } from '@chain/math';
import type { Params } from './gen/chain/slashing/v1beta1.js';

/** `chain.slashing.v1beta1.Params` as stored. */
export type SlashingParams = Params;

export interface SlashingParamsValues {
  readonly signedBlocksWindow: bigint;
  readonly minSignedPerWindow: Dec;
  /** nanoseconds */
  readonly downtimeJailDuration: bigint;
  readonly slashFractionDoubleSign: Dec;
  readonly slashFractionDowntime: Dec;
}

export const DEFAULT_SIGNED_BLOCKS_WINDOW = 100n;
export const DEFAULT_DOWNTIME_JAIL_DURATION_NS = 600n * 1_000_000_000n;

/** `DefaultParams()`: 100, 0.5, 600s, 1/20, 1/100. */
export function defaultParamsValues(): SlashingParamsValues {
  return {
    signedBlocksWindow: DEFAULT_SIGNED_BLOCKS_WINDOW,
    minSignedPerWindow: Dec.withPrec(5, 1),
    downtimeJailDuration: DEFAULT_DOWNTIME_JAIL_DURATION_NS,
    slashFractionDoubleSign: Dec.one().quo(Dec.fromInt(20)),
    slashFractionDowntime: Dec.one().quo(Dec.fromInt(100)),
  };
}

export function durationToNanos(d: google_protobuf.Duration | null): bigint {
  return d === null ? 0n : d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

export function nanosToDuration(ns: bigint): google_protobuf.Duration {
  return { seconds: ns / 1_000_000_000n, nanos: Number(ns % 1_000_000_000n) };
}

function decOf(atomics: string): Dec {
  return atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics);
}

export function paramsToProto(p: SlashingParamsValues): SlashingParams {
  return {
    signed_blocks_window: p.signedBlocksWindow,
    min_signed_per_window: p.minSignedPerWindow.atomics(),
    downtime_jail_duration: nanosToDuration(p.downtimeJailDuration),
    slash_fraction_double_sign: p.slashFractionDoubleSign.atomics(),
    slash_fraction_downtime: p.slashFractionDowntime.atomics(),
  };
}

export function paramsFromProto(p: SlashingParams): SlashingParamsValues {
  return {
    signedBlocksWindow: p.signed_blocks_window,
    minSignedPerWindow: decOf(p.min_signed_per_window),
    downtimeJailDuration: durationToNanos(p.downtime_jail_duration),
    slashFractionDoubleSign: decOf(p.slash_fraction_double_sign),
    slashFractionDowntime: decOf(p.slash_fraction_downtime),
  };
}

export function defaultParams(): SlashingParams {
  return paramsToProto(defaultParamsValues());
}

export const DEFAULT_PARAMS: Readonly<SlashingParams> = Object.freeze(defaultParams());

/** Go's `time.Duration.String()` (`600s` → `10m0s`, `1h0m0s`, `1.5s`, `0s`, `-1m0s`). */
export function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    // sub-second: ns, µs or ms with a fraction
    const fmt = (unit: bigint, suffix: string): string => {
      const whole = u / unit;
      const frac = (u % unit).toString().padStart(unit.toString().length - 1, '0').replace(/0+$/, '');
      return whole.toString() + (frac ? '.' + frac : '') + suffix;
    };
    out = u < 1000n ? `${u}ns` : u < 1_000_000n ? fmt(1000n, 'µs') : fmt(1_000_000n, 'ms');
  } else {
    const fracNs = u % 1_000_000_000n;
    u /= 1_000_000_000n;
    const secs = u % 60n;
    const mins = (u / 60n) % 60n;
    const hours = u / 3600n;
    const frac = fracNs === 0n ? '' : '.' + fracNs.toString().padStart(9, '0').replace(/0+$/, '');
    out = `${secs}${frac}s`;
    if (hours > 0n || mins > 0n) out = `${mins}m` + out;
    if (hours > 0n) out = `${hours}h` + out;
  }
  return neg ? '-' + out : out;
}

/**
 * The params subspace's validators (params.go `validate*`), in field order: `signed blocks window must be
 * positive: <n>`, `min signed per window cannot be negative: <d>` / `… too large: <d>`, `downtime jail
 * duration must be positive: <d>`, `double sign slash fraction cannot be negative: <d>` / `… too large`,
 * `downtime slash fraction cannot be negative: <d>` / `… too large: <d>` (plain errors).
 */
export function validateParamsValues(p: SlashingParamsValues): void {
  if (p.signedBlocksWindow <= 0n) throw new Error(`signed blocks window must be positive: ${p.signedBlocksWindow}`);
  if (p.minSignedPerWindow.isNegative()) throw new Error(`min signed per window cannot be negative: ${p.minSignedPerWindow}`);
  if (p.minSignedPerWindow.gt(Dec.one())) throw new Error(`min signed per window too large: ${p.minSignedPerWindow}`);
  if (p.downtimeJailDuration <= 0n) throw new Error(`downtime jail duration must be positive: ${goDurationString(p.downtimeJailDuration)}`);
  if (p.slashFractionDoubleSign.isNegative()) throw new Error(`double sign slash fraction cannot be negative: ${p.slashFractionDoubleSign}`);
  if (p.slashFractionDoubleSign.gt(Dec.one())) throw new Error(`double sign slash fraction too large: ${p.slashFractionDoubleSign}`);
  if (p.slashFractionDowntime.isNegative()) throw new Error(`downtime slash fraction cannot be negative: ${p.slashFractionDowntime}`);
  if (p.slashFractionDowntime.gt(Dec.one())) throw new Error(`downtime slash fraction too large: ${p.slashFractionDowntime}`);
}

export function validateParams(p: SlashingParams): void {
  validateParamsValues(paramsFromProto(p));
}

/** What the slashing subspace reads and writes: the keeper's params in the proto shape. */
export interface SlashingParamsAccess {
  getParamsProto(ctx: Context): SlashingParams;
  setParams(ctx: Context, p: SlashingParams): void;
}

/** A fraction param's validator: `<what> cannot be negative: <d>` / `<what> too large: <d>`. */
function fraction(what: string): (atomics: string) => void {
  return (atomics) => {
    const d = decOf(atomics);
    if (d.isNegative()) throw new Error(`${what} cannot be negative: ${d}`);
    if (d.gt(Dec.one())) throw new Error(`${what} too large: ${d}`);
  };
}

type DecField = 'min_signed_per_window' | 'slash_fraction_double_sign' | 'slash_fraction_downtime';

/**
 * The `slashing` params subspace of x/params (SDK v0.45 x/slashing/types/params.go): `SignedBlocksWindow`
 * (int64, quoted), `MinSignedPerWindow`, `SlashFractionDoubleSign`, `SlashFractionDowntime` (Dec, quoted 18
 * decimals) and `DowntimeJailDuration` (duration, quoted nanoseconds), each checked by the SDK's validator.
 */
export function paramSubspace(k: SlashingParamsAccess): ParamSubspace {
  const dec = (key: string, field: DecField, what: string) =>
    paramKey<SlashingParams, string>(key, aminoJson.decAtomics, (p) => p[field], (p, v) => ({ ...p, [field]: v }), fraction(what));
  return defineParamSubspace('slashing', { get: (ctx) => k.getParamsProto(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    paramKey<SlashingParams, bigint>('SignedBlocksWindow', aminoJson.int64, (p) => p.signed_blocks_window, (p, v) => ({ ...p, signed_blocks_window: v }), (v) => {
      if (v <= 0n) throw new Error(`signed blocks window must be positive: ${v}`);
    }),
    dec('MinSignedPerWindow', 'min_signed_per_window', 'min signed per window'),
    paramKey<SlashingParams, google_protobuf.Duration | null>('DowntimeJailDuration', aminoJson.duration, (p) => p.downtime_jail_duration, (p, v) => ({ ...p, downtime_jail_duration: v }), (v) => {
      const ns = durationToNanos(v);
      if (ns <= 0n) throw new Error(`downtime jail duration must be positive: ${goDurationString(ns)}`);
    }),
    dec('SlashFractionDoubleSign', 'slash_fraction_double_sign', 'double sign slash fraction'),
    dec('SlashFractionDowntime', 'slash_fraction_downtime', 'downtime slash fraction'),
  ]);
}
