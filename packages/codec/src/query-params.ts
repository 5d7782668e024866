/**
 * Request messages from URL path and query parameters the way grpc-gateway v1 builds them
 * (generated path-parameter code + `runtime.PopulateQueryParameters`):
 * - path parameters set (possibly dotted) fields; a bad value → `type mismatch, parameter: <name>, error: …`;
 * - query keys are dotted field paths (`pagination.limit`), proto or lowerCamel names; keys equal to (or
 *   below) a path parameter are skipped; unknown keys are ignored; `map_field[key]=value` fills maps;
 * - repeated fields by repeating the key; a non-repeated field given several values takes the first;
 * - scalars by Go's `strconv` (integers with base prefixes `0x`/`0o`/`0b`/`0`, bools `1/t/T/TRUE/true/True`
 *   and the false forms), bytes as standard then URL-safe base64 (padded), enums by name or number,
 *   Timestamp (RFC 3339), Duration (Go syntax), wrappers and FieldMask as the gateway parses them;
 *   `Dec`/`Int` custom types from decimal text (the gateway cannot parse these at all).
 * Errors are `CodecError`s (code 3) with the gateway's message text.
 */
import protobuf from 'protobufjs';
import { CUSTOM_NONE, decCustomText } from './json/decimal.js';
import { CodecError } from './json/errors.js';
import { goBase64Decode } from './json/go-base64.js';
import { goParseBool, goParseFloat, goParseInt, goParseUint } from './json/go-strconv.js';
import { goParseDuration, goParseRFC3339 } from './json/go-time.js';
import { planOf } from './json/plan.js';
import type { EnumPlan, FieldPlan, TypePlan } from './json/plan.js';
import type { AnyResolver } from './json/resolver.js';
import { hasOwn, makeLong, newMessage, put, setField, setMember, zeroValue } from './json/values.js';
import type { Rec } from './json/values.js';

const MAP_KEY_RE = /^(.*)\[(.*)\]$/;

/**
 * Builds a request message from path parameters (applied first) and query parameters, with
 * grpc-gateway v1 semantics. `resolver` is accepted for symmetry with the JSON codec (query strings
 * cannot carry `Any`).
 */
export function fromQueryParams(
  type: protobuf.Type,
  query: Record<string, string | string[] | undefined>,
  pathParams: Record<string, string>,
  resolver: AnyResolver,
): protobuf.Message {
  void resolver;
  const plan = planOf(type);
  const msg = newMessage(type);
  const pathNames = Object.keys(pathParams);
  for (const name of pathNames) {
    const val = pathParams[name];
    if (val === undefined) continue;
    try {
      setPathParam(plan, msg, name, val);
    } catch (e) {
      if (e instanceof CodecError) throw new CodecError(`type mismatch, parameter: ${name}, error: ${e.message}`);
      throw e;
    }
  }
  const filter = pathNames.map((n) => n.split('.'));
  for (const rawKey of Object.keys(query)) {
    const raw = query[rawKey];
    if (raw === undefined) continue;
    let values = Array.isArray(raw) ? raw.slice() : [raw];
    let key = rawKey;
    const m = MAP_KEY_RE.exec(key);
    if (m) {
      key = m[1]!;
      values = [m[2]!, ...values];
    }
    const path = key.split('.');
    if (filter.some((f) => isPrefix(f, path))) continue;
    populatePath(msg, plan, path, values);
  }
  return msg as unknown as protobuf.Message;
}

function isPrefix(prefix: string[], path: string[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

/** Generated gateway code for one path parameter (`runtime.String/Uint64/…/Enum`, slices split on ","). */
function setPathParam(plan: TypePlan, msg: Rec, name: string, val: string): void {
  if (name.includes('.')) {
    populatePath(msg, plan, name.split('.'), [val]);
    return;
  }
  const f = lookup(plan, name);
  if (f === undefined) return;
  if (f.map || f.kind === 'message') {
    populatePath(msg, plan, [name], [val]);
    return;
  }
  if (f.repeated) {
    msg[f.key] = val.split(',').map((x) => (f.kind === 'enum' ? runtimeEnum(f.enumPlan!, x) : convScalar(f, x)));
    return;
  }
  setField(msg, f, f.kind === 'enum' ? runtimeEnum(f.enumPlan!, val) : convScalar(f, val));
}

function lookup(p: TypePlan, name: string): FieldPlan | undefined {
  return p.byProto.get(name) ?? p.byJson.get(name);
}

/** `populateFieldValueFromPath`: walks the dotted path, allocating messages, then sets the leaf. */
function populatePath(msg: Rec, plan: TypePlan, path: string[], values: string[]): void {
  let cur = msg;
  let curPlan = plan;
  let leaf: FieldPlan | undefined;
  for (let i = 0; i < path.length; i++) {
    const isLast = i === path.length - 1;
    const f = lookup(curPlan, path[i]!);
    if (f === undefined) return; // unknown fields are ignored
    if (f.oneof !== undefined) {
      if (setMember(f.oneof, cur) !== undefined) throw new CodecError(`field already set for ${f.oneof.name} oneof`);
      setField(cur, f, zeroValue(f));
    }
    if (f.map) {
      if (!isLast) throw nestedError(path, i);
      populateMap(cur, f, values);
      return;
    }
    if (f.repeated) {
      if (!isLast) throw new CodecError(`unexpected repeated field in ${path.join('.')}`);
      populateRepeated(cur, f, values);
      return;
    }
    if (f.kind === 'message') {
      let sub = cur[f.key];
      if (sub === null || sub === undefined || !hasOwn(cur, f.key)) {
        sub = newMessage(f.msgType!);
        cur[f.key] = sub;
      }
      const subPlan = planOf(f.msgType!);
      if (isLast) {
        populateMessage(sub as Rec, subPlan, path, values);
        return;
      }
      cur = sub as Rec;
      curPlan = subPlan;
      continue;
    }
    if (!isLast) {
      if (f.kind === 'bytes') throw new CodecError(`unexpected repeated field in ${path.join('.')}`);
      throw nestedError(path, i);
    }
    leaf = f;
  }
  if (leaf === undefined) return;
  if (values.length === 0) throw new CodecError(`no value of field: ${path.join('.')}`);
  const value = values[0]!;
  setField(cur, leaf, leaf.kind === 'enum' ? convertEnum(leaf.enumPlan!, value) : convScalar(leaf, value));
}

function nestedError(path: string[], i: number): CodecError {
  return new CodecError(`unexpected nested field ${path[i + 1]} in ${path.slice(0, i + 1).join('.')}`);
}

function populateRepeated(cur: Rec, f: FieldPlan, values: string[]): void {
  if (f.kind === 'enum') {
    cur[f.key] = values.map((v) => convertEnum(f.enumPlan!, v));
    return;
  }
  if (f.kind === 'message') throw new CodecError(`unsupported field type *${planOf(f.msgType!).goType}`);
  cur[f.key] = values.map((v) => convScalar(f, v));
}

function populateMap(cur: Rec, f: FieldPlan, values: string[]): void {
  if (values.length !== 2) throw new CodecError(`more than one value provided for key ${values[0] ?? '<nil>'} in map ${f.goName}`);
  if (f.kind === 'message') throw new CodecError(`unsupported value type *${planOf(f.msgType!).goType} in map ${f.goName}`);
  const key = mapKey(f, values[0]!);
  const value = f.kind === 'enum' ? Number(goParseInt(values[1]!, 0, 32)) : convScalar(f, values[1]!);
  let m = cur[f.key] as Rec | undefined;
  if (m === null || m === undefined || !hasOwn(cur, f.key) || Object.isFrozen(m)) {
    m = {};
    cur[f.key] = m;
  }
  put(m, key, value);
}

function mapKey(f: FieldPlan, k: string): string {
  switch (f.keyKind) {
    case 'bool':
      return String(goParseBool(k));
    case 'int32':
      return String(goParseInt(k, 0, 32));
    case 'uint32':
      return String(goParseUint(k, 0, 32));
    case 'int64':
      return protobuf.util.longToHash(makeLong(goParseInt(k, 0, 64), false) as protobuf.Long);
    case 'uint64':
      return protobuf.util.longToHash(makeLong(goParseUint(k, 0, 64), true) as protobuf.Long);
    default:
      return k;
  }
}

/** `populateField` on a message-typed leaf: the well-known types the gateway understands, else an error. */
function populateMessage(sub: Rec, p: TypePlan, path: string[], values: string[]): void {
  if (values.length === 0) throw new CodecError(`no value of field: ${path.join('.')}`);
  const value = values[0]!;
  const set = (protoName: string, v: unknown): void => {
    const f = p.byProto.get(protoName);
    if (f !== undefined) sub[f.key] = v;
  };
  switch (p.wkt) {
    case 'Timestamp':
    case 'Duration': {
      let secs = 0n;
      let nanos = 0;
      if (value !== 'null') {
        try {
          if (p.wkt === 'Timestamp') {
            const t = goParseRFC3339(value);
            secs = t.seconds;
            nanos = t.nanos;
          } else {
            const d = goParseDuration(value);
            secs = d / 1_000_000_000n;
            nanos = Number(d % 1_000_000_000n);
          }
        } catch (e) {
          throw new CodecError(`bad ${p.wkt}: ${(e as Error).message}`);
        }
      }
      set('seconds', makeLong(secs, false));
      set('nanos', nanos);
      return;
    }
    case 'DoubleValue':
    case 'FloatValue': {
      const v = parseNumericWrapper(value, (s) => goParseFloat(s, 64));
      set('value', p.wkt === 'FloatValue' ? Math.fround(v) : v);
      return;
    }
    case 'Int64Value':
    case 'Int32Value': {
      const v = parseNumericWrapper(value, (s) => goParseInt(s, 10, 64));
      set('value', p.wkt === 'Int64Value' ? makeLong(v, false) : Number(BigInt.asIntN(32, v)));
      return;
    }
    case 'UInt64Value':
    case 'UInt32Value': {
      const v = parseNumericWrapper(value, (s) => goParseUint(s, 10, 64));
      set('value', p.wkt === 'UInt64Value' ? makeLong(v, true) : Number(BigInt.asUintN(32, v)));
      return;
    }
    case 'BoolValue':
      if (value !== 'true' && value !== 'false') throw new CodecError(`bad BoolValue: ${value}`);
      set('value', value === 'true');
      return;
    case 'StringValue':
      set('value', value);
      return;
    case 'BytesValue': {
      const b = goBase64Decode(value, false);
      if (typeof b === 'number') throw new CodecError(`bad BytesValue: ${value}`);
      set('value', b);
      return;
    }
    case 'FieldMask': {
      const f = p.byProto.get('paths');
      if (f === undefined) return;
      const prev = hasOwn(sub, f.key) && Array.isArray(sub[f.key]) ? (sub[f.key] as string[]) : [];
      sub[f.key] = [...prev, ...value.split(',').filter((x) => x !== '')];
      return;
    }
    default:
      throw new CodecError(`field type *${p.goType} is not supported in query parameters`);
  }
}

/** A numeric wrapper's value; the gateway reports every numeric wrapper failure as `bad DoubleValue`. */
function parseNumericWrapper<T>(value: string, parse: (s: string) => T): T {
  try {
    return parse(value);
  } catch {
    throw new CodecError(`bad DoubleValue: ${value}`);
  }
}

/** `convFromType`: one scalar from text (`strconv` semantics). Enums are handled by the callers. */
function convScalar(f: FieldPlan, value: string): unknown {
  switch (f.kind) {
    case 'string':
      return f.custom === CUSTOM_NONE ? value : decCustomText(f, value);
    case 'bool':
      return goParseBool(value);
    case 'int32':
      return Number(goParseInt(value, 0, 32));
    case 'uint32':
      return Number(goParseUint(value, 0, 32));
    case 'int64':
      return makeLong(goParseInt(value, 0, 64), false);
    case 'uint64':
      return makeLong(goParseUint(value, 0, 64), true);
    case 'double':
      return goParseFloat(value, 64);
    case 'float':
      return goParseFloat(value, 32);
    case 'bytes': {
      if (f.custom !== CUSTOM_NONE) return Buffer.from(decCustomText(f, value), 'utf8');
      const std = goBase64Decode(value, false);
      if (typeof std !== 'number') return std;
      const url = goBase64Decode(value, true);
      if (typeof url !== 'number') return url;
      throw new CodecError(`illegal base64 data at input byte ${url}`);
    }
    case 'enum':
      return convertEnum(f.enumPlan!, value);
    case 'message':
      throw new CodecError(`field type *${planOf(f.msgType!).goType} is not supported in query parameters`);
  }
}

/** Query-string enum (`convertEnum`): name, else a decimal number that is a defined value. */
function convertEnum(ep: EnumPlan, value: string): number {
  return enumFromText(ep, value, 10, 64, `${value} is not a valid ${ep.goType}`);
}

/** Path-parameter enum (`runtime.Enum`): name, else an int32 (base prefixes allowed) that is defined. */
function runtimeEnum(ep: EnumPlan, value: string): number {
  return enumFromText(ep, value, 0, 32, `${value} is not valid`);
}

/** An enum value by name, else by number (`strconv.ParseInt(value, base, bitSize)`, truncated to int32) if defined. */
function enumFromText(ep: EnumPlan, value: string, base: number, bitSize: number, invalid: string): number {
  const byName = ep.byName.get(value);
  if (byName !== undefined) return byName;
  let n: bigint;
  try {
    n = goParseInt(value, base, bitSize);
  } catch {
    throw new CodecError(invalid);
  }
  const v = Number(BigInt.asIntN(32, n));
  if (!ep.byNumber.has(v)) throw new CodecError(invalid);
  return v;
}
