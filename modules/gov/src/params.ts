/**
 * gov params (x/gov/types/params.go of SDK v0.45): the deposit, voting and tally param sets, their
 * defaults and validation, and their amino JSON as the x/params subspace `gov` reads and writes them
 * (keys `depositparams`, `votingparams`, `tallyparams`).
 */
import type { AminoCodec, Coin, Context, ParamKeyDef, ParamSubspace } from '@chain/app';
import { aminoJson, coinsToString, defineParamSubspace, paramKey, parseAminoJson, validateCoins } from '@chain/app';
import { Dec } from '@chain/math';
import type { DepositParams, Params, TallyParams, VotingParams } from './gen/chain/gov/v1beta1.js';
import { durationNanos, goDurationString, nanosDuration } from './time.js';

/** `chain.gov.v1beta1.Params`: the three param sets as stored. */
export type GovParams = Params;
export type { DepositParams, TallyParams, VotingParams };

/** The params as values: periods in nanoseconds, thresholds as Dec. */
export interface GovParamsValues {
  readonly minDeposit: readonly Coin[];
  readonly maxDepositPeriod: bigint;
  readonly votingPeriod: bigint;
  readonly quorum: Dec;
  readonly threshold: Dec;
  readonly vetoThreshold: Dec;
}

const NS = 1_000_000_000n;
/** `DefaultPeriod`: 2 days */
export const DEFAULT_PERIOD_NANOS = 172800n * NS;
/** `sdk.DefaultBondDenom` */
export const DEFAULT_MIN_DEPOSIT_DENOM = 'stake';

/** The SDK's `DefaultParams()`: 10000000stake, 2 days, 2 days, quorum 0.334, threshold 0.5, veto 0.334. */
export function defaultParamsValues(): GovParamsValues {
  return {
    minDeposit: [{ denom: DEFAULT_MIN_DEPOSIT_DENOM, amount: '10000000' }],
    maxDepositPeriod: DEFAULT_PERIOD_NANOS,
    votingPeriod: DEFAULT_PERIOD_NANOS,
    quorum: Dec.withPrec(334, 3),
    threshold: Dec.withPrec(5, 1),
    vetoThreshold: Dec.withPrec(334, 3),
  };
}

/** A bytes Dec field (empty = zero). */
export const decOfBytes = (b: Uint8Array | null | undefined): Dec => Dec.fromAtomicsBytes(b ?? new Uint8Array());

export function depositParamsOf(v: Pick<GovParamsValues, 'minDeposit' | 'maxDepositPeriod'>): DepositParams {
  return { min_deposit: v.minDeposit.map((c) => ({ ...c })), max_deposit_period: nanosDuration(v.maxDepositPeriod) };
}
export function votingParamsOf(v: Pick<GovParamsValues, 'votingPeriod'>): VotingParams {
  return { voting_period: nanosDuration(v.votingPeriod) };
}
export function tallyParamsOf(v: Pick<GovParamsValues, 'quorum' | 'threshold' | 'vetoThreshold'>): TallyParams {
  return { quorum: v.quorum.atomicsBytes(), threshold: v.threshold.atomicsBytes(), veto_threshold: v.vetoThreshold.atomicsBytes() };
}

export function paramsToProto(v: GovParamsValues): GovParams {
  return { deposit_params: depositParamsOf(v), voting_params: votingParamsOf(v), tally_params: tallyParamsOf(v) };
}

export function paramsFromProto(p: GovParams): GovParamsValues {
  return {
    minDeposit: p.deposit_params?.min_deposit ?? [],
    maxDepositPeriod: durationNanos(p.deposit_params?.max_deposit_period ?? null),
    votingPeriod: durationNanos(p.voting_params?.voting_period ?? null),
    quorum: decOfBytes(p.tally_params?.quorum),
    threshold: decOfBytes(p.tally_params?.threshold),
    vetoThreshold: decOfBytes(p.tally_params?.veto_threshold),
  };
}

/** A fresh copy of the defaults, in the proto shape. */
export function defaultParams(): GovParams {
  return paramsToProto(defaultParamsValues());
}

export const DEFAULT_PARAMS: Readonly<GovParams> = Object.freeze(defaultParams());

// ---- validation: the SDK's param validators (plain errors, their messages) ----

/** `validateDepositParams`: `invalid minimum deposit: <coins>`, `maximum deposit period must be positive: <ns>`. */
export function validateDepositParams(v: Pick<GovParamsValues, 'minDeposit' | 'maxDepositPeriod'>): void {
  try {
    validateCoins(v.minDeposit);
  } catch {
    throw new Error(`invalid minimum deposit: ${coinsToString(v.minDeposit)}`);
  }
  if (v.maxDepositPeriod <= 0n) throw new Error(`maximum deposit period must be positive: ${v.maxDepositPeriod}`);
}

/** `validateVotingParams`: `voting period must be positive: <duration>`. */
export function validateVotingParams(v: Pick<GovParamsValues, 'votingPeriod'>): void {
  if (v.votingPeriod <= 0n) throw new Error(`voting period must be positive: ${goDurationString(v.votingPeriod)}`);
}

/** `validateTallyParams`: quorum in [0, 1], threshold and veto threshold in (0, 1] (the SDK's messages, "quorom" sic). */
export function validateTallyParams(v: Pick<GovParamsValues, 'quorum' | 'threshold' | 'vetoThreshold'>): void {
  const one = Dec.one();
  const all = `quorum: ${v.quorum} threshold: ${v.threshold} veto_threshold: ${v.vetoThreshold}`;
  if (v.quorum.isNegative()) throw new Error(`quorom cannot be negative: ${v.quorum}`);
  if (v.quorum.gt(one)) throw new Error(`quorom too large: ${all}`);
  if (!v.threshold.isPositive()) throw new Error(`vote threshold must be positive: ${v.threshold}`);
  if (v.threshold.gt(one)) throw new Error(`vote threshold too large: ${all}`);
  if (!v.vetoThreshold.isPositive()) throw new Error(`veto threshold must be positive: ${v.threshold}`);
  if (v.vetoThreshold.gt(one)) throw new Error(`veto threshold too large: ${all}`);
}

/** The three validators, in the subspace's key order. */
export function validateParamsValues(v: GovParamsValues): void {
  validateDepositParams(v);
  validateVotingParams(v);
  validateTallyParams(v);
}

export function validateParams(p: GovParams): void {
  validateParamsValues(paramsFromProto(p));
}

// ---- amino JSON (the x/params subspace `gov`) ----

/** The subspace keys (`ParamStoreKeyDepositParams`, `...VotingParams`, `...TallyParams`). */
export const PARAM_KEYS = ['depositparams', 'votingparams', 'tallyparams'] as const;
export type GovParamKey = (typeof PARAM_KEYS)[number];

/** A JSON object's fields (amino JSON of a struct); unknown fields are refused. */
function fieldsOf(json: string, fields: readonly string[]): Record<string, string> {
  const v = parseAminoJson(json);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new Error(`json: cannot unmarshal ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v} into Go struct`);
  }
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!fields.includes(k)) throw new Error(`unknown field "${k}"`);
    out[k] = JSON.stringify(x);
  }
  return out;
}

type DepositValues = Pick<GovParamsValues, 'minDeposit' | 'maxDepositPeriod'>;
type VotingValues = Pick<GovParamsValues, 'votingPeriod'>;
type TallyValues = Pick<GovParamsValues, 'quorum' | 'threshold' | 'vetoThreshold'>;

const decCodec: AminoCodec<Dec> = {
  encode: (d) => aminoJson.decAtomics.encode(d.atomics()),
  decode: (json) => Dec.fromAtomics(aminoJson.decAtomics.decode(json)),
};

/** `depositparams`: `{"min_deposit":[…],"max_deposit_period":"<ns>"}` (an empty min_deposit left out: `omitempty`). */
export const depositParamsAmino: AminoCodec<DepositValues> = {
  encode: (v) => {
    const parts: string[] = [];
    if (v.minDeposit.length > 0) parts.push(`"min_deposit":${aminoJson.coins.encode(v.minDeposit)}`);
    parts.push(`"max_deposit_period":${aminoJson.int64.encode(v.maxDepositPeriod)}`);
    return `{${parts.join(',')}}`;
  },
  decode: (json, cur) => {
    const f = fieldsOf(json, ['min_deposit', 'max_deposit_period']);
    return {
      minDeposit: f['min_deposit'] === undefined ? cur.minDeposit : aminoJson.coins.decode(f['min_deposit']),
      maxDepositPeriod: f['max_deposit_period'] === undefined ? cur.maxDepositPeriod : aminoJson.int64.decode(f['max_deposit_period']),
    };
  },
};

/** `votingparams`: `{"voting_period":"<ns>"}`. */
export const votingParamsAmino: AminoCodec<VotingValues> = {
  encode: (v) => `{"voting_period":${aminoJson.int64.encode(v.votingPeriod)}}`,
  decode: (json, cur) => {
    const f = fieldsOf(json, ['voting_period']);
    return { votingPeriod: f['voting_period'] === undefined ? cur.votingPeriod : aminoJson.int64.decode(f['voting_period']) };
  },
};

/** `tallyparams`: `{"quorum":"0.334…","threshold":"0.5…","veto_threshold":"0.334…"}`. */
export const tallyParamsAmino: AminoCodec<TallyValues> = {
  encode: (v) => `{"quorum":${decCodec.encode(v.quorum)},"threshold":${decCodec.encode(v.threshold)},"veto_threshold":${decCodec.encode(v.vetoThreshold)}}`,
  decode: (json, cur) => {
    const f = fieldsOf(json, ['quorum', 'threshold', 'veto_threshold']);
    return {
      quorum: f['quorum'] === undefined ? cur.quorum : decCodec.decode(f['quorum'], Dec.zero()),
      threshold: f['threshold'] === undefined ? cur.threshold : decCodec.decode(f['threshold'], Dec.zero()),
      vetoThreshold: f['veto_threshold'] === undefined ? cur.vetoThreshold : decCodec.decode(f['veto_threshold'], Dec.zero()),
    };
  },
};

/** The amino JSON of one param set, as v0.45 stores it in the subspace. */
export function paramAminoJSON(v: GovParamsValues, key: GovParamKey): string {
  switch (key) {
    case 'depositparams':
      return depositParamsAmino.encode(v);
    case 'votingparams':
      return votingParamsAmino.encode(v);
    case 'tallyparams':
      return tallyParamsAmino.encode(v);
  }
}

/** The subspace keys with their codecs and the SDK's validators (`ParamSetPairs`). */
const KEY_DEFS: readonly ParamKeyDef<GovParamsValues>[] = [
  paramKey<GovParamsValues, DepositValues>('depositparams', depositParamsAmino, (p) => p, (p, v) => ({ ...p, ...v }), validateDepositParams),
  paramKey<GovParamsValues, VotingValues>('votingparams', votingParamsAmino, (p) => p, (p, v) => ({ ...p, ...v }), validateVotingParams),
  paramKey<GovParamsValues, TallyValues>('tallyparams', tallyParamsAmino, (p) => p, (p, v) => ({ ...p, ...v }), validateTallyParams),
];

/**
 * The params after `json` (amino JSON of the param set `key`) is decoded on top of the current values (so
 * a partial object changes only its fields, as the SDK's `Subspace.Update`), then validated (`invalid
 * parameter value: <reason>`). Unknown key: `parameter <key> not registered`.
 */
export function updateFromAmino(current: GovParamsValues, key: string, json: string): GovParamsValues {
  const def = KEY_DEFS.find((d) => d.key === key);
  if (!def) throw new Error(`parameter ${key} not registered`);
  return def.set(current, json);
}

/** The keeper side the subspace needs. */
export interface ParamsStore {
  getParamsValues(ctx: Context): GovParamsValues;
  setParamsValues(ctx: Context, v: GovParamsValues): void;
}

/** gov's params as the subspace `gov` of the params module (its query and ParameterChangeProposal). */
export function govParamSubspace(k: ParamsStore): ParamSubspace {
  return defineParamSubspace<GovParamsValues>('gov', { get: (ctx) => k.getParamsValues(ctx), set: (ctx, v) => k.setParamsValues(ctx, v) }, KEY_DEFS);
}
