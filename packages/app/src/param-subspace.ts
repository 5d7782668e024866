/**
 * Parameter subspaces: a module's params seen one key at a time, each value in the amino JSON that the
 * Cosmos SDK v0.45 params store holds (`x/params`' `Subspace`). The params module answers `Query/Params`
 * and applies `ParameterChangeProposal`s through them; each module builds its own (it knows its key names,
 * value types and validators) over its live params, so nothing is stored twice.
 *
 * Amino JSON of the scalar types (go-amino's JSON with the SDK's custom types), both ways:
 * - int64 / uint64, and `time.Duration` (int64 nanoseconds): quoted decimal text (`"100"`,
 *   `"1814400000000000"`); a bare number is refused, as go-amino refuses it;
 * - uint32: a bare number (`100`); a quoted one is refused, as encoding/json refuses it;
 * - `sdk.Dec`: a quoted decimal, written with 18 decimals (`"0.500000000000000000"`), read with at most 18;
 *   `sdk.Int`: a quoted integer;
 * - bool bare, string quoted; `sdk.Coins` `[{"denom":"…","amount":"…"}]`.
 * Decoding errors are plain `Error`s with Go's texts; the params module wraps them (`params` 3).
 */
import type { Context } from './context.js';
import { isValidDenom } from './coins.js';
import type { Coin } from './coins.js';

/** A module's parameters, one key at a time, in amino JSON (what the params module calls). */
export interface ParamSubspace {
  /** the subspace name: the module name of the SDK (`staking`, `distribution`, `evm`, ...) */
  readonly name: string;
  /** the registered keys (`MaxValidators`, ...) */
  keys(): readonly string[];
  /** the live value of `key` as amino JSON; throws `parameter <key> not registered` for another key */
  getAmino(ctx: Context, key: string): string;
  /**
   * Decodes `value` (amino JSON) on top of the current value, runs the key's validator and the module's own
   * validation of its params, and stores the params. Throws (a plain error with the SDK's text, or the
   * module's registered error) and writes nothing when any step fails.
   */
  setAmino(ctx: Context, key: string, value: string): void;
}

/** One key of a subspace over params of type `P`. */
export interface ParamKeyDef<P> {
  readonly key: string;
  /** the key's value in `p`, as amino JSON */
  get(p: P): string;
  /** `p` with the key set to the amino JSON `value` (decoded on top of the current value) and validated */
  set(p: P, value: string): P;
}

/** Encodes and decodes one value type as amino JSON. `decode` may start from the current value (objects). */
export interface AminoCodec<V> {
  encode(v: V): string;
  decode(json: string, current: V): V;
}

/**
 * One key: its amino codec, how to read and replace the value in `P`, and the key's validator (the SDK's
 * `ParamSetPair` validator; its error surfaces as `invalid parameter value: <reason>`, as `Subspace.Validate`).
 */
export function paramKey<P, V>(
  key: string,
  codec: AminoCodec<V>,
  get: (p: P) => V,
  set: (p: P, v: V) => P,
  validate?: (v: V) => void,
): ParamKeyDef<P> {
  return {
    key,
    get: (p) => codec.encode(get(p)),
    set: (p, value) => {
      const v = codec.decode(value, get(p));
      if (validate) {
        try {
          validate(v);
        } catch (e) {
          throw new Error(`invalid parameter value: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      return set(p, v);
    },
  };
}

/** Where a subspace reads and writes the module's params (its keeper's getParams / setParams). */
export interface ParamsAccess<P> {
  get(ctx: Context): P;
  /** stores the params after the module's own validation (throws without writing when they are invalid) */
  set(ctx: Context, p: P): void;
}

/**
 * A subspace over one params object: `getAmino` reads the live params and encodes one field, `setAmino`
 * decodes one field into a copy, validates it and stores the whole params through the module's setter.
 */
export function defineParamSubspace<P>(name: string, params: ParamsAccess<P>, keys: readonly ParamKeyDef<P>[]): ParamSubspace {
  return defineKeyedParamSubspace(name, keys.map((k) => paramKeyOn(params, k)));
}

/** One key of a params object as a key that reads and writes on its own (to mix with others in a keyed subspace). */
export function paramKeyOn<P>(params: ParamsAccess<P>, k: ParamKeyDef<P>): ParamKeyAccess {
  return {
    key: k.key,
    getCtx: (ctx) => k.get(params.get(ctx)),
    setCtx: (ctx, value) => params.set(ctx, k.set(params.get(ctx), value)),
  };
}

/** One key of a subspace whose keys live in different places (e.g. a param kept in its own collection). */
export interface ParamKeyAccess {
  readonly key: string;
  getCtx(ctx: Context): string;
  setCtx(ctx: Context, value: string): void;
}

/** A subspace whose keys each read and write on their own. */
export function defineKeyedParamSubspace(name: string, keys: readonly ParamKeyAccess[]): ParamSubspace {
  const byKey = new Map<string, ParamKeyAccess>();
  for (const k of keys) {
    if (byKey.has(k.key)) throw new Error(`param subspace ${name}: key ${k.key} declared twice`);
    byKey.set(k.key, k);
  }
  const keyOf = (key: string): ParamKeyAccess => {
    const k = byKey.get(key);
    if (!k) throw new Error(`parameter ${key} not registered`);
    return k;
  };
  const names = Object.freeze([...byKey.keys()]);
  return {
    name,
    keys: () => names,
    getAmino: (ctx, key) => keyOf(key).getCtx(ctx),
    setAmino: (ctx, key, value) => keyOf(key).setCtx(ctx, value),
  };
}

// ---- amino JSON codecs -----------------------------------------------------------------------------------

/** JSON.parse with encoding/json's texts for the common failures. */
export function parseAminoJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const t = text.trim();
    if (t === '') throw new Error('unexpected end of JSON input');
    if (!/^[[{"\-0-9tfn]/.test(t)) throw new Error(`invalid character '${t[0]}' looking for beginning of value`);
    throw new Error(`invalid JSON: ${t}`);
  }
}

/** encoding/json's kind name of a parsed value (its `cannot unmarshal <kind> into Go value of type <T>`). */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'object';
}

function typeError(v: unknown, goType: string): Error {
  return new Error(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
}

const RANGES = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
} as const;

function quotedInt(json: string, goType: 'int64' | 'uint64'): bigint {
  const t = json.trim();
  // go-amino: 64-bit integers only quoted ("for javascript numeric support"), then encoding/json on the inside
  if (t.length < 2 || !t.startsWith('"') || !t.endsWith('"')) {
    throw new Error('invalid character -- Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support');
  }
  const inner = t.slice(1, -1);
  if (!/^-?(0|[1-9]\d*)$/.test(inner)) {
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(inner)) throw new Error(`json: cannot unmarshal number ${inner} into Go value of type ${goType}`);
    throw new Error(`invalid character in numeric literal: ${JSON.stringify(inner)}`);
  }
  const v = BigInt(inner);
  const [lo, hi] = RANGES[goType];
  if (v < lo || v > hi) throw new Error(`json: cannot unmarshal number ${inner} into Go value of type ${goType}`);
  return v;
}

function quotedString(json: string, goType: string): string {
  const v = parseAminoJson(json);
  if (typeof v !== 'string') throw typeError(v, goType);
  return v;
}

/** Decimal text → 18-decimal scaled integer (the SDK v0.45 `NewDecFromStr` rules and texts). */
export function decTextToAtomics(input: string): bigint {
  let str = input;
  let neg = false;
  if (str.length > 0 && str[0] === '-') {
    neg = true;
    str = str.slice(1);
  }
  if (str.length === 0) throw new Error('decimal string cannot be empty');
  const parts = str.split('.');
  let lenDecs = 0;
  let combined = parts[0]!;
  if (parts.length === 2) {
    lenDecs = parts[1]!.length;
    if (lenDecs === 0 || combined.length === 0) throw new Error('invalid decimal length');
    combined += parts[1];
  } else if (parts.length > 2) {
    throw new Error('invalid decimal string');
  }
  if (lenDecs > 18) throw new Error(`invalid precision; max: 18, got: ${lenDecs}`);
  combined += '0'.repeat(18 - lenDecs);
  if (!/^\d+$/.test(combined)) throw new Error(`failed to set decimal string: ${combined}`);
  const v = BigInt(combined);
  // the SDK's maxDecBitLen: 256 integer bits + the 60 bits of 10^18
  if (v.toString(2).length > 316) throw new Error('decimal out of range; bitLen: got ' + v.toString(2).length + ', max 316');
  return neg ? -v : v;
}

function atomicsToDecText(atomics: bigint): string {
  const neg = atomics < 0n;
  const a = neg ? -atomics : atomics;
  const scale = 10n ** 18n;
  const s = `${a / scale}.${(a % scale).toString().padStart(18, '0')}`;
  return neg ? '-' + s : s;
}

/** A protobuf Duration (`google.protobuf.Duration` as the registry decodes it). */
export interface ProtoDuration {
  seconds: bigint;
  nanos: number;
}

const NS = 1_000_000_000n;

/** The amino JSON codecs of the SDK's scalar param types. */
export const aminoJson = {
  /** uint64: quoted decimal text */
  uint64: {
    encode: (v: bigint): string => JSON.stringify(v.toString()),
    decode: (json: string): bigint => quotedInt(json, 'uint64'),
  } satisfies AminoCodec<bigint>,
  /** int64: quoted decimal text */
  int64: {
    encode: (v: bigint): string => JSON.stringify(v.toString()),
    decode: (json: string): bigint => quotedInt(json, 'int64'),
  } satisfies AminoCodec<bigint>,
  /** uint32: a bare JSON number */
  uint32: {
    encode: (v: number): string => String(v),
    decode: (json: string): number => {
      const v = parseAminoJson(json);
      if (typeof v !== 'number') throw typeError(v, 'uint32');
      if (!Number.isInteger(v) || v < 0 || v > Number(RANGES.uint32[1])) throw new Error(`json: cannot unmarshal number ${json.trim()} into Go value of type uint32`);
      return v;
    },
  } satisfies AminoCodec<number>,
  bool: {
    encode: (v: boolean): string => (v ? 'true' : 'false'),
    decode: (json: string): boolean => {
      const v = parseAminoJson(json);
      if (typeof v !== 'boolean') throw typeError(v, 'bool');
      return v;
    },
  } satisfies AminoCodec<boolean>,
  string: {
    encode: (v: string): string => JSON.stringify(v),
    decode: (json: string): string => quotedString(json, 'string'),
  } satisfies AminoCodec<string>,
  /** `sdk.Int`: quoted decimal text (`"1000000000"`) */
  int: {
    encode: (v: bigint): string => JSON.stringify(v.toString()),
    decode: (json: string): bigint => {
      const text = quotedString(json, 'string');
      if (!/^[+-]?\d+$/.test(text)) throw new Error(`failed to parse Int from ${JSON.stringify(text)}`);
      const v = BigInt(text);
      if ((v < 0n ? -v : v).toString(2).length > 256 && v !== 0n) throw new Error('integer out of range');
      return v;
    },
  } satisfies AminoCodec<bigint>,
  /**
   * `sdk.Dec` held as its wire form, the integer scaled by 10^18 as decimal text (`""` = zero): quoted
   * 18-decimal text in JSON.
   */
  decAtomics: {
    encode: (atomics: string): string => JSON.stringify(atomicsToDecText(atomics === '' ? 0n : BigInt(atomics))),
    decode: (json: string): string => decTextToAtomics(quotedString(json, 'string')).toString(),
  } satisfies AminoCodec<string>,
  /** `time.Duration` (int64 nanoseconds, quoted) held as a protobuf Duration */
  duration: {
    encode: (d: ProtoDuration | null): string => JSON.stringify((d ? d.seconds * NS + BigInt(d.nanos) : 0n).toString()),
    decode: (json: string): ProtoDuration => {
      const ns = quotedInt(json, 'int64');
      return { seconds: ns / NS, nanos: Number(ns % NS) };
    },
  } satisfies AminoCodec<ProtoDuration | null>,
  /** `sdk.Coins`: `[{"denom":"…","amount":"…"}]` (amounts quoted; an empty list is `[]`) */
  coins: {
    encode: (coins: readonly Coin[]): string => JSON.stringify(coins.map((c) => ({ denom: c.denom, amount: c.amount }))),
    decode: (json: string): Coin[] => {
      const v = parseAminoJson(json);
      if (v === null) return [];
      if (!Array.isArray(v)) throw typeError(v, 'types.Coins');
      return v.map((c: unknown) => {
        if (typeof c !== 'object' || c === null || Array.isArray(c)) throw typeError(c, 'types.Coin');
        const o = c as Record<string, unknown>;
        const denom = o.denom ?? '';
        if (typeof denom !== 'string') throw typeError(denom, 'string');
        const amount = o.amount;
        if (typeof amount !== 'string') throw typeError(amount ?? null, 'string');
        if (!/^-?\d+$/.test(amount)) throw new Error(`invalid amount: ${amount}`);
        return { denom, amount: BigInt(amount).toString() };
      });
    },
  } satisfies AminoCodec<readonly Coin[]>,
} as const;

/** The SDK's `sdk.ValidateDenom` as a param validator (plain error `invalid denom: <d>`). */
export function validateParamDenom(denom: string): void {
  if (!isValidDenom(denom)) throw new Error(`invalid denom: ${denom}`);
}
