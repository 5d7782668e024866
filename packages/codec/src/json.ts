/**
 * JSON for protobufjs messages exactly as the Cosmos SDK REST gateway writes and reads it
 * (grpc-gateway v1 + gogoproto jsonpb with `EmitDefaults`, `OrigName`, compact output).
 *
 * Output rules (see docs: cosmos-rest-and-cometbft-rpc.md A.1):
 * - proto (snake_case) field names, every field emitted, in declaration order (a oneof at the position
 *   of its first member, only the set member, nothing when unset);
 * - 64-bit integers as decimal strings, 32-bit integers / floats / bools as JSON numbers / bools
 *   (non-finite floats as `"NaN"`, `"Infinity"`, `"-Infinity"`; float32 with its shortest digits);
 * - bytes as padded standard base64; a zero-length singular bytes field is written as `null` (Go writes
 *   nil slices as `null`, and proto3 cannot tell nil from empty); zero-length elements of repeated bytes and
 *   bytes map values are written as `""` (decoded Go slices are never nil there);
 * - enums by value name (unknown numbers as numbers); unset message fields `null` (gogoproto
 *   `nullable=false` fields: the default message instead); unset proto3 `optional` scalars `null`;
 *   repeated `[]`; maps `{}` with Go's key order;
 * - `google.protobuf.Any` inline with `"@type"` (well-known payloads as `{"@type":…,"value":…}`),
 *   `Timestamp` RFC 3339 `Z` with 0/3/6/9 fraction digits, `Duration` `"<s>[.fff]s"` (0/3/6/9 digits, so
 *   1.5 s is `"1.500s"`), wrappers as their value, `Struct`/`Value`/`ListValue` as plain JSON;
 * - `Dec` custom types (`(gogoproto.customtype)` ending in `Dec`, or `(cosmos_proto.scalar) = "cosmos.Dec"`)
 *   hold the integer scaled by 10^18 on the wire and are written with exactly 18 decimals; `Int` custom
 *   types are decimal text (empty → `"0"`).
 *
 * Known limit: the result is a JS value; JS objects list integer-like keys first, so maps whose keys look
 * like non-negative integers keep numeric (not Go's lexicographic) order after `JSON.stringify`.
 */
import protobuf from 'protobufjs';

// ------------------------------------------------------------------------------------------------
// Public API
// ------------------------------------------------------------------------------------------------

/** A codec failure; `message` mirrors the gateway's text, `code` is the gRPC status code to answer with. */
export class CodecError extends Error {
  /** gRPC code: 3 (InvalidArgument) for bad input, 2 (Unknown) for messages that cannot be written. */
  readonly code: number;
  constructor(message: string, code = 3) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
  }
}

/** Resolves the type URL of a `google.protobuf.Any` to its message type (undefined when unknown). */
export interface AnyResolver {
  resolveAny(typeUrl: string): protobuf.Type | undefined;
}

/**
 * Writes a message (protobufjs instance or plain object with the proto field names; 64-bit values as
 * Long, number, bigint or string) as gateway JSON. The result is ready for `JSON.stringify`.
 * Throws `CodecError` (code 2) for an unresolvable `Any` or an out-of-range Timestamp/Duration.
 */
export function toGatewayJSON(type: protobuf.Type, message: unknown, resolver: AnyResolver): unknown {
  return encMessage(planOf(type), message, resolver);
}

/**
 * Reads gateway JSON (an already parsed value) into a protobufjs message: snake_case and lowerCamel names,
 * unknown fields ignored, `null` = unset, enums by name or number, 64-bit integers as string or number,
 * bytes as standard or URL-safe base64, `Any` via `"@type"`, Timestamp/Duration strings, `Dec` text back
 * to the scaled integer. Throws `CodecError` (code 3) with gogo-jsonpb-like messages.
 */
export function fromGatewayJSON(type: protobuf.Type, json: unknown, resolver: AnyResolver): protobuf.Message {
  if (json === null || json === undefined) return type.create();
  return decMessage(planOf(type), json, resolver) as unknown as protobuf.Message;
}

// ------------------------------------------------------------------------------------------------
// Compiled per-type plans (cached, shared with query-params.ts)
// ------------------------------------------------------------------------------------------------

/** @internal Value kinds after folding wire variants (sint32 → int32, fixed64 → uint64, …). */
export type Kind = 'double' | 'float' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool' | 'string' | 'bytes' | 'enum' | 'message';

/** @internal Well-known types with a special JSON form. */
export type Wkt =
  | 'Any'
  | 'Timestamp'
  | 'Duration'
  | 'Struct'
  | 'Value'
  | 'ListValue'
  | 'Empty'
  | 'FieldMask'
  | 'DoubleValue'
  | 'FloatValue'
  | 'Int64Value'
  | 'UInt64Value'
  | 'Int32Value'
  | 'UInt32Value'
  | 'BoolValue'
  | 'StringValue'
  | 'BytesValue';

/** @internal Custom scalar types: none, `Dec` (scaled by 10^18 on the wire) or `Int` (decimal text). */
export const CUSTOM_NONE = 0;
/** @internal */
export const CUSTOM_DEC = 1;
/** @internal */
export const CUSTOM_INT = 2;

/** @internal How one value (a singular field, a list element or a map value) is typed. */
export interface ValueSpec {
  kind: Kind;
  unsigned: boolean;
  enumPlan: EnumPlan | undefined;
  msgType: protobuf.Type | undefined;
  custom: number;
  /** JSON for an empty custom value: zero text, `null` (nullable customtype) or `""` (scalar-only Dec). */
  customEmpty: string | null;
  /** Empty text is accepted on input (scalar-only Dec, a plain Go string). */
  customEmptyOk: boolean;
}

/** @internal */
export interface OneofPlan {
  isOneof: true;
  name: string;
  members: FieldPlan[];
}

/** @internal */
export interface FieldPlan extends ValueSpec {
  isOneof: false;
  field: protobuf.Field;
  /** JS property on messages (protobufjs field name). */
  key: string;
  protoName: string;
  jsonName: string;
  /** Go struct field name (gateway error messages). */
  goName: string;
  repeated: boolean;
  map: boolean;
  keyKind: Kind;
  keyUnsigned: boolean;
  oneof: OneofPlan | undefined;
  /** proto3 `optional` (synthetic oneof). */
  optional: boolean;
  /** gogoproto `nullable=false` message field. */
  nonNullable: boolean;
  /** gogoproto `stdtime` + `nullable=false`: unset means Go's zero `time.Time` (0001-01-01). */
  zeroTime: boolean;
}

/** @internal */
export interface TypePlan {
  type: protobuf.Type;
  /** Full proto name without the leading dot. */
  protoName: string;
  /** Go type as the gateway prints it (`types.Coin`). */
  goType: string;
  wkt: Wkt | undefined;
  fields: FieldPlan[];
  /** Emission order: fields and oneof groups (at their first member). */
  order: Array<FieldPlan | OneofPlan>;
  /** protoName → field and lowerCamel → field. */
  byProto: Map<string, FieldPlan>;
  byJson: Map<string, FieldPlan>;
}

/** @internal */
export interface EnumPlan {
  protoName: string;
  goType: string;
  byNumber: Map<number, string>;
  byName: Map<string, number>;
  defaultNumber: number;
}

const SCALAR_KIND: Record<string, Kind> = {
  double: 'double',
  float: 'float',
  int32: 'int32',
  sint32: 'int32',
  sfixed32: 'int32',
  uint32: 'uint32',
  fixed32: 'uint32',
  int64: 'int64',
  sint64: 'int64',
  sfixed64: 'int64',
  uint64: 'uint64',
  fixed64: 'uint64',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
};

/** @internal Go type of a scalar kind in encoding/json messages. */
export const GO_KIND: Record<Kind, string> = {
  double: 'float64',
  float: 'float32',
  int32: 'int32',
  uint32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  bool: 'bool',
  string: 'string',
  bytes: '[]uint8',
  enum: 'int32',
  message: 'struct',
};

const WKT_NAMES: Record<string, Wkt> = {};
for (const n of [
  'Any',
  'Timestamp',
  'Duration',
  'Struct',
  'Value',
  'ListValue',
  'Empty',
  'FieldMask',
  'DoubleValue',
  'FloatValue',
  'Int64Value',
  'UInt64Value',
  'Int32Value',
  'UInt32Value',
  'BoolValue',
  'StringValue',
  'BytesValue',
] as const) {
  WKT_NAMES['.google.protobuf.' + n] = n;
}

const typePlans = new WeakMap<protobuf.Type, TypePlan>();
const enumPlans = new WeakMap<protobuf.Enum, EnumPlan>();

/** @internal The compiled plan of a message type (built once per Type). */
export function planOf(type: protobuf.Type): TypePlan {
  let p = typePlans.get(type);
  if (p === undefined) {
    p = buildTypePlan(type);
    typePlans.set(type, p);
  }
  return p;
}

/** @internal The compiled plan of an enum type. */
export function enumPlanOf(e: protobuf.Enum): EnumPlan {
  let p = enumPlans.get(e);
  if (p === undefined) {
    const byNumber = new Map<number, string>();
    const byName = new Map<string, number>();
    let first: number | undefined;
    for (const [name, num] of Object.entries(e.values)) {
      if (first === undefined) first = num;
      byName.set(name, num);
      if (!byNumber.has(num)) byNumber.set(num, name);
    }
    p = { protoName: e.fullName.replace(/^\./, ''), goType: goTypeOf(e), byNumber, byName, defaultNumber: first ?? 0 };
    enumPlans.set(e, p);
  }
  return p;
}

function buildTypePlan(type: protobuf.Type): TypePlan {
  const fields: FieldPlan[] = [];
  const order: Array<FieldPlan | OneofPlan> = [];
  const oneofs = new Map<protobuf.OneOf, OneofPlan>();
  for (const field of type.fieldsArray) {
    if (field.declaringField) continue; // proto2 extension sister fields
    field.resolve();
    const fp = buildFieldPlan(field);
    fields.push(fp);
    const oo = field.partOf;
    if (oo && !fp.optional) {
      let op = oneofs.get(oo);
      if (op === undefined) {
        op = { isOneof: true, name: oo.name, members: [] };
        oneofs.set(oo, op);
        order.push(op);
      }
      op.members.push(fp);
      fp.oneof = op;
    } else {
      order.push(fp);
    }
  }
  const byProto = new Map<string, FieldPlan>();
  const byJson = new Map<string, FieldPlan>();
  for (const f of fields) if (!byProto.has(f.protoName)) byProto.set(f.protoName, f);
  for (const f of fields) if (!byJson.has(f.jsonName)) byJson.set(f.jsonName, f);
  return {
    type,
    protoName: type.fullName.replace(/^\./, ''),
    goType: goTypeOf(type),
    wkt: WKT_NAMES[type.fullName],
    fields,
    order,
    byProto,
    byJson,
  };
}

function buildFieldPlan(field: protobuf.Field): FieldPlan {
  const opts = (field.options ?? {}) as Record<string, unknown>;
  const rt = field.resolvedType;
  let kind: Kind;
  let enumPlan: EnumPlan | undefined;
  let msgType: protobuf.Type | undefined;
  if (rt instanceof protobuf.Enum) {
    kind = 'enum';
    enumPlan = enumPlanOf(rt);
  } else if (rt instanceof protobuf.Type) {
    kind = 'message';
    msgType = rt;
  } else {
    const k = SCALAR_KIND[field.type];
    if (k === undefined) throw new CodecError(`unsupported field type ${field.type} in ${field.fullName}`, 13);
    kind = k;
  }
  let custom = CUSTOM_NONE;
  let customEmpty: string | null = null;
  let customEmptyOk = false;
  if (kind === 'string' || kind === 'bytes') {
    const ct = opts['(gogoproto.customtype)'];
    const nullable = opts['(gogoproto.nullable)'] === true;
    if (typeof ct === 'string' && ct.endsWith('Dec')) {
      custom = CUSTOM_DEC;
      customEmpty = nullable ? null : DEC_ZERO;
    } else if (typeof ct === 'string' && ct.endsWith('Int')) {
      custom = CUSTOM_INT;
      customEmpty = nullable ? null : '0';
    } else if (opts['(cosmos_proto.scalar)'] === 'cosmos.Dec') {
      custom = CUSTOM_DEC;
      customEmpty = kind === 'bytes' ? null : '';
      customEmptyOk = true;
    }
  }
  const isMap = field.map;
  const keyType = isMap ? (field as unknown as protobuf.MapField).keyType : '';
  const optional = field.partOf !== null && field.partOf !== undefined && opts['proto3_optional'] === true;
  const protoName = field.protoName ?? field.name;
  return {
    isOneof: false,
    field,
    key: field.name,
    protoName,
    jsonName: field.jsonName ?? protobuf.util.jsonName(protoName),
    goName: goCamelCase(protoName),
    kind,
    unsigned: field.type === 'uint64' || field.type === 'fixed64',
    enumPlan,
    msgType,
    custom,
    customEmpty,
    customEmptyOk,
    repeated: field.repeated && !isMap,
    map: isMap,
    keyKind: isMap ? (SCALAR_KIND[keyType] ?? 'string') : 'string',
    keyUnsigned: keyType === 'uint64' || keyType === 'fixed64',
    oneof: undefined,
    optional,
    nonNullable: kind === 'message' && opts['(gogoproto.nullable)'] === false,
    zeroTime: kind === 'message' && opts['(gogoproto.nullable)'] === false && opts['(gogoproto.stdtime)'] === true,
  };
}

/** @internal protoc-gen-go `CamelCase` (Go struct field / type names). */
export function goCamelCase(s: string): string {
  let out = '';
  let i = 0;
  if (s.startsWith('_')) {
    out = 'X';
    i = 1;
  }
  for (; i < s.length; i++) {
    let c = s[i]!;
    if (c === '_' && i + 1 < s.length && isLower(s[i + 1]!)) continue;
    if (c >= '0' && c <= '9') {
      out += c;
      continue;
    }
    if (isLower(c)) c = c.toUpperCase();
    out += c;
    while (i + 1 < s.length && isLower(s[i + 1]!)) {
      i++;
      out += s[i];
    }
  }
  return out;
}

function isLower(c: string): boolean {
  return c >= 'a' && c <= 'z';
}

/** Go type name as `pkg.Outer_Inner` (package from `go_package`, `types` for google.protobuf). */
function goTypeOf(obj: protobuf.ReflectionObject): string {
  const names: string[] = [];
  let p: protobuf.ReflectionObject | null = obj;
  while (p && (p instanceof protobuf.Type || p instanceof protobuf.Enum)) {
    names.unshift(goCamelCase(p.name));
    p = p.parent;
  }
  let pkg = '';
  if (obj.fullName.startsWith('.google.protobuf.')) pkg = 'types';
  for (let ns = p; pkg === '' && ns; ns = ns.parent) {
    const gp = (ns.options as Record<string, unknown> | undefined)?.['go_package'];
    if (typeof gp === 'string' && gp !== '') {
      const semi = gp.indexOf(';');
      pkg = semi >= 0 ? gp.slice(semi + 1) : gp.slice(gp.lastIndexOf('/') + 1);
    }
  }
  if (pkg === '') pkg = p && p.name ? p.name : 'main';
  return pkg + '.' + names.join('_');
}

// ------------------------------------------------------------------------------------------------
// Small value helpers (shared with query-params.ts)
// ------------------------------------------------------------------------------------------------

type Rec = Record<string, unknown>;
const EMPTY: Rec = Object.freeze({}) as Rec;
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}
interface LongCtor {
  fromBits(low: number, high: number, unsigned?: boolean): LongLike;
}
const LongImpl = (protobuf.util as unknown as { Long?: LongCtor }).Long;
const U32 = 0xffffffffn;

/** @internal A 64-bit value in the form protobufjs decodes to (Long when available). */
export function makeLong(v: bigint, unsigned: boolean): unknown {
  const u = BigInt.asUintN(64, v);
  if (LongImpl) return LongImpl.fromBits(Number(u & U32) | 0, Number(u >> 32n) | 0, unsigned);
  return Number(unsigned ? u : BigInt.asIntN(64, u));
}

function isLongLike(v: unknown): v is LongLike {
  return typeof v === 'object' && v !== null && typeof (v as LongLike).low === 'number' && typeof (v as LongLike).high === 'number';
}

/** @internal Any 64-bit representation (Long, number, bigint, decimal string) as a bigint. */
export function toBigInt64(v: unknown, unsigned: boolean): bigint {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new CodecError(`invalid 64-bit integer ${v}`, 2);
    b = BigInt(Math.trunc(v));
  } else if (typeof v === 'string') {
    const t = v.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new CodecError(`invalid 64-bit integer ${JSON.stringify(v)}`, 2);
    b = BigInt(t);
  } else if (isLongLike(v)) {
    b = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  } else if (v === null || v === undefined) {
    return 0n;
  } else {
    throw new CodecError(`invalid 64-bit integer of type ${typeof v}`, 2);
  }
  return unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

function int64ToString(v: unknown, unsigned: boolean): string {
  if (typeof v === 'number' && Number.isSafeInteger(v) && (v >= 0 || !unsigned)) return String(v === 0 ? 0 : v);
  if (isLongLike(v)) {
    if (v.high === 0) return String(v.low >>> 0);
    if (!unsigned && v.high === -1 && v.low < 0) return String(v.low);
  }
  return toBigInt64(v, unsigned).toString();
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === null || v === undefined) return 0;
  if (typeof v === 'bigint') return Number(v);
  if (isLongLike(v)) return Number(toBigInt64(v, v.unsigned === true));
  if (typeof v === 'string') return Number(v);
  return Number(v);
}

function floatJSON(v: number, f32: boolean): number | string {
  if (v !== v) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (!f32) return v;
  const f = Math.fround(v);
  if (f === Infinity) return 'Infinity';
  if (f === -Infinity) return '-Infinity';
  for (let p = 1; p < 10; p++) {
    const n = Number(f.toPrecision(p));
    if (Math.fround(n) === f) return n;
  }
  return f;
}

/** @internal Bytes from Uint8Array, Buffer, number[] or (already encoded) base64 string. */
export function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return Uint8Array.from(v as number[]);
  if (v === null || v === undefined) return EMPTY_BYTES;
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  throw new CodecError(`invalid bytes value of type ${typeof v}`, 2);
}
const EMPTY_BYTES = new Uint8Array(0);

function bytesToB64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

function bytesToText(v: unknown): string {
  if (typeof v === 'string') return v;
  const b = toBytes(v);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}

function put(out: Rec, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/** @internal A fresh message instance of a type. */
export function newMessage(t: protobuf.Type): Rec {
  return t.create() as unknown as Rec;
}

// ------------------------------------------------------------------------------------------------
// Dec / Int custom types
// ------------------------------------------------------------------------------------------------

const DEC_ZERO = '0.000000000000000000';

/** @internal Scaled integer text (wire form of `Dec`) → 18-decimal text. Text that already has a point passes. */
export function scaledToDec(text: string): string {
  if (text.includes('.')) return text;
  let digits = text;
  let neg = false;
  if (digits.startsWith('-')) {
    neg = true;
    digits = digits.slice(1);
  } else if (digits.startsWith('+')) {
    digits = digits.slice(1);
  }
  if (!/^\d+$/.test(digits)) throw new CodecError(`invalid Dec value ${JSON.stringify(text)}`, 2);
  digits = digits.replace(/^0+(?=\d)/, '');
  if (digits.length < 19) digits = digits.padStart(19, '0');
  const s = digits.slice(0, -18) + '.' + digits.slice(-18);
  return neg && s !== DEC_ZERO ? '-' + s : s;
}

/** @internal Decimal text → scaled integer text (`LegacyNewDecFromStr` rules and messages). */
export function decTextToScaled(input: string): string {
  let str = input;
  let neg = false;
  if (str.length > 0 && str[0] === '-') {
    neg = true;
    str = str.slice(1);
  }
  if (str.length === 0) throw new CodecError('decimal string cannot be empty');
  const parts = str.split('.');
  let lenDecs = 0;
  let combined = parts[0]!;
  if (parts.length === 2) {
    lenDecs = parts[1]!.length;
    if (lenDecs === 0 || combined.length === 0) throw new CodecError('invalid decimal length');
    combined += parts[1];
  } else if (parts.length > 2) {
    throw new CodecError('invalid decimal string');
  }
  if (lenDecs > 18) {
    throw new CodecError(`value '${str}' exceeds max precision by ${18 - lenDecs} decimal places: max precision 18`);
  }
  combined += '0'.repeat(18 - lenDecs);
  if (!/^[+-]?\d+$/.test(combined)) throw new CodecError(`failed to set decimal string with base 10: ${combined}`);
  let v = BigInt(combined);
  if (neg) v = -v;
  return v.toString();
}

/** @internal `math.Int` text (big.Int base-0 syntax, ≤ 256 bits) → normalized decimal text. */
export function intTextNormalize(text: string): string {
  const v = parseBigIntBase0(text);
  if (v === undefined) throw new CodecError(`math/big: cannot unmarshal ${goQuote(text)} into a *big.Int`);
  if ((v < 0n ? -v : v).toString(2).length > 256 && v !== 0n) throw new CodecError(`integer out of range: ${text}`);
  return v.toString();
}

function parseBigIntBase0(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith('+') || s.startsWith('-')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let body: string;
  let prefix: string;
  if (/^0[xX]/.test(s)) {
    prefix = '0x';
    body = s.slice(2);
    if (!/^[0-9a-fA-F_]+$/.test(body)) return undefined;
  } else if (/^0[bB]/.test(s)) {
    prefix = '0b';
    body = s.slice(2);
    if (!/^[01_]+$/.test(body)) return undefined;
  } else if (/^0[oO]/.test(s)) {
    prefix = '0o';
    body = s.slice(2);
    if (!/^[0-7_]+$/.test(body)) return undefined;
  } else if (s.startsWith('0') && s.length > 1) {
    prefix = '0o';
    body = s.slice(1);
    if (!/^[0-7_]+$/.test(body)) return undefined;
  } else {
    prefix = '';
    body = s;
    if (!/^\d+$/.test(body)) return undefined;
  }
  if (body.includes('_')) {
    if (!underscoreOK(text)) return undefined;
    body = body.replace(/_/g, '');
  }
  if (body === '') return undefined;
  const v = BigInt(prefix + body);
  return neg ? -v : v;
}

function encCustom(spec: ValueSpec, text: string): string | null {
  if (text === '') return spec.customEmpty;
  return spec.custom === CUSTOM_DEC ? scaledToDec(text) : text;
}

// ------------------------------------------------------------------------------------------------
// Encoding (message → JSON value)
// ------------------------------------------------------------------------------------------------

function encMessage(p: TypePlan, m: unknown, r: AnyResolver): unknown {
  if (p.wkt !== undefined && p.wkt !== 'Empty' && p.wkt !== 'FieldMask') return encWkt(p, m, r);
  const msg = (m ?? EMPTY) as Rec;
  const out: Rec = {};
  for (const item of p.order) {
    if (item.isOneof) {
      const f = setMember(item, msg);
      if (f !== undefined) put(out, f.protoName, encSingle(f, msg[f.key], r, false));
      continue;
    }
    const v = msg[item.key];
    if (item.map) put(out, item.protoName, encMap(item, v, r));
    else if (item.repeated) put(out, item.protoName, encList(item, v, r));
    else if (item.optional) put(out, item.protoName, v === null || v === undefined || !hasOwn(msg, item.key) ? null : encSingle(item, v, r, false));
    else put(out, item.protoName, encSingle(item, v, r, false));
  }
  return out;
}

/** The set member of a oneof (own, non-null property), if any. */
function setMember(o: OneofPlan, msg: Rec): FieldPlan | undefined {
  let found: FieldPlan | undefined;
  for (const f of o.members) {
    const v = msg[f.key];
    if (v !== undefined && v !== null && hasOwn(msg, f.key)) {
      if (found === undefined) found = f;
      else if (msg[o.name] === f.key) found = f; // several set: trust the virtual oneof property
    }
  }
  return found;
}

function encList(f: FieldPlan, v: unknown, r: AnyResolver): unknown[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new CodecError(`field ${f.protoName}: expected an array`, 2);
  const out = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = encSingle(f, v[i], r, true);
  return out;
}

function encMap(f: FieldPlan, v: unknown, r: AnyResolver): Rec {
  const out: Rec = {};
  if (v === null || v === undefined) return out;
  const entries: Array<[string, unknown]> = [];
  if (v instanceof Map) for (const [k, x] of v) entries.push([mapKeyText(f, String(k)), x]);
  else for (const k of Object.keys(v as Rec)) entries.push([mapKeyText(f, k), (v as Rec)[k]]);
  sortMapEntries(f.keyKind, entries);
  for (const [k, x] of entries) put(out, k, encSingle(f, x, r, true));
  return out;
}

function mapKeyText(f: FieldPlan, k: string): string {
  switch (f.keyKind) {
    case 'bool':
      return k === 'true' || k === '1' ? 'true' : 'false';
    case 'int64':
    case 'uint64':
      if (/^-?\d+$/.test(k)) return toBigInt64(k, f.keyUnsigned).toString();
      if (k.length === 8) return toBigInt64(protobuf.util.longFromHash(k, f.keyUnsigned), f.keyUnsigned).toString();
      return k;
    case 'int32':
    case 'uint32':
      return String(Number(k));
    default:
      return k;
  }
}

function sortMapEntries(kind: Kind, entries: Array<[string, unknown]>): void {
  if (kind === 'int64' || kind === 'uint64') {
    entries.sort((a, b) => {
      const x = BigInt(a[0]);
      const y = BigInt(b[0]);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  } else if (kind === 'int32' || kind === 'uint32') {
    entries.sort((a, b) => Number(a[0]) - Number(b[0]));
  } else {
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}

function encSingle(f: ValueSpec & { nonNullable?: boolean; zeroTime?: boolean }, v: unknown, r: AnyResolver, element: boolean): unknown {
  switch (f.kind) {
    case 'string': {
      const s = typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
      return f.custom !== CUSTOM_NONE ? encCustom(f, s) : s;
    }
    case 'bool':
      return typeof v === 'string' ? v === 'true' : Boolean(v);
    case 'int32':
      return typeof v === 'number' ? v : toNumber(v) | 0;
    case 'uint32':
      return typeof v === 'number' ? v >>> 0 : toNumber(v) >>> 0;
    case 'int64':
      return int64ToString(v, false);
    case 'uint64':
      return int64ToString(v, true);
    case 'double':
      return floatJSON(toNumber(v), false);
    case 'float':
      return floatJSON(toNumber(v), true);
    case 'bytes': {
      if (f.custom !== CUSTOM_NONE) return encCustom(f, bytesToText(v));
      if (typeof v === 'string') return v === '' && !element ? null : v;
      const b = toBytes(v);
      return b.length === 0 ? (element ? '' : null) : bytesToB64(b);
    }
    case 'enum':
      return encEnum(f.enumPlan!, v);
    case 'message': {
      const mp = planOf(f.msgType!);
      if (v === null || v === undefined) {
        if (element || !f.nonNullable || mp.wkt === 'Any') return null;
        if (f.zeroTime) return GO_ZERO_TIME;
        return encMessage(mp, undefined, r);
      }
      return encMessage(mp, v, r);
    }
  }
}

function encEnum(ep: EnumPlan, v: unknown): unknown {
  if (typeof v === 'number') return ep.byNumber.get(v) ?? v;
  if (typeof v === 'string') {
    if (ep.byName.has(v)) return v;
    const n = Number(v);
    if (v.trim() !== '' && Number.isInteger(n)) return ep.byNumber.get(n) ?? n;
    return v;
  }
  if (v === null || v === undefined) return ep.byNumber.get(ep.defaultNumber) ?? ep.defaultNumber;
  const n = toNumber(v);
  return ep.byNumber.get(n) ?? n;
}

function fieldOf(p: TypePlan, protoName: string): FieldPlan {
  const f = p.byProto.get(protoName);
  if (f === undefined) throw new CodecError(`${p.protoName} has no field ${protoName}`, 13);
  return f;
}

function encWkt(p: TypePlan, m: unknown, r: AnyResolver): unknown {
  const msg = (m ?? EMPTY) as Rec;
  switch (p.wkt) {
    case 'Any':
      return encAny(p, msg, r);
    case 'Timestamp':
      return encTimestamp(msg);
    case 'Duration':
      return encDuration(p, msg);
    case 'Struct': {
      const f = fieldOf(p, 'fields');
      return encMap(f, msg[f.key], r);
    }
    case 'ListValue': {
      const f = fieldOf(p, 'values');
      return encList(f, msg[f.key], r);
    }
    case 'Value': {
      const kind = p.order.find((x): x is OneofPlan => x.isOneof);
      const f = kind ? setMember(kind, msg) : undefined;
      if (f === undefined) throw new CodecError('nil Value', 2);
      if (f.kind === 'enum') return null;
      return encSingle(f, msg[f.key], r, false);
    }
    default: {
      // wrappers: the wrapped value
      const f = fieldOf(p, 'value');
      return encSingle(f, msg[f.key], r, false);
    }
  }
}

/** Well-known types written as `{"@type":…,"value":…}` inside an Any. */
function anyNeedsValue(p: TypePlan): boolean {
  return p.wkt !== undefined && p.wkt !== 'FieldMask';
}

function encAny(p: TypePlan, msg: Rec, r: AnyResolver): unknown {
  const urlField = fieldOf(p, 'type_url');
  const valueField = fieldOf(p, 'value');
  const typeUrl = String(msg[urlField.key] ?? msg['typeUrl'] ?? '');
  const t = r.resolveAny(typeUrl);
  if (t === undefined) throw new CodecError(`unable to resolve type URL ${typeUrl}`, 2);
  const raw = msg[valueField.key];
  let inner: unknown;
  if (raw === null || raw === undefined || raw instanceof Uint8Array || Array.isArray(raw) || typeof raw === 'string') {
    try {
      inner = t.decode(toBytes(raw));
    } catch (e) {
      throw new CodecError(`cannot decode Any of type ${typeUrl}: ${(e as Error).message}`, 2);
    }
  } else {
    inner = raw; // an already unpacked message
  }
  const ip = planOf(t);
  const out: Rec = { '@type': typeUrl };
  if (anyNeedsValue(ip)) {
    out['value'] = encMessage(ip, inner, r);
    return out;
  }
  const body = encMessage(ip, inner, r) as Rec;
  for (const k of Object.keys(body)) put(out, k, body[k]);
  return out;
}

function encTimestamp(msg: Rec): string {
  let secs: number;
  let nanos: number;
  if ((msg as unknown) instanceof Date) {
    const ms = (msg as unknown as Date).getTime();
    if (!Number.isFinite(ms)) throw new CodecError('invalid Date for Timestamp', 2);
    secs = Math.floor(ms / 1000);
    nanos = (ms - secs * 1000) * 1e6;
  } else {
    secs = Number(toBigInt64(msg['seconds'], false));
    nanos = toNumber(msg['nanos']);
  }
  if (!(nanos >= 0 && nanos < 1e9)) throw new CodecError('ns out of range [0, 1000000000)', 2);
  return formatTimestamp(secs, nanos);
}

/** @internal RFC 3339 UTC text with 0/3/6/9 fraction digits (Go `Format` with year padded to 4). */
export function formatTimestamp(secs: number, nanos: number): string {
  const days = Math.floor(secs / 86400);
  const sod = secs - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  const year = y < 0 ? '-' + String(-y).padStart(4, '0') : String(y).padStart(4, '0');
  const hh = Math.floor(sod / 3600);
  const mi = Math.floor((sod % 3600) / 60);
  const ss = sod % 60;
  return `${year}-${pad2(mo)}-${pad2(d)}T${pad2(hh)}:${pad2(mi)}:${pad2(ss)}${fraction(nanos)}Z`;
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const s = String(nanos).padStart(9, '0');
  if (nanos % 1e6 === 0) return '.' + s.slice(0, 3);
  if (nanos % 1e3 === 0) return '.' + s.slice(0, 6);
  return '.' + s;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

/** @internal Days since 1970-01-01 of a proleptic Gregorian date. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const MAX_DURATION_SECONDS = 315576000000n;

function encDuration(_p: TypePlan, msg: Rec): string {
  const s = toBigInt64(msg['seconds'], false);
  let ns = toNumber(msg['nanos']);
  if (s < -MAX_DURATION_SECONDS || s > MAX_DURATION_SECONDS) throw new CodecError(`seconds out of range ${s}`, 2);
  if (ns <= -1e9 || ns >= 1e9) throw new CodecError('ns out of range (-1000000000, 1000000000)', 2);
  if ((s > 0n && ns < 0) || (s < 0n && ns > 0)) throw new CodecError('signs of seconds and nanos do not match', 2);
  let sign = '';
  if (ns < 0) {
    ns = -ns;
    if (s === 0n) sign = '-';
  }
  let x = `${sign}${s}.${String(ns).padStart(9, '0')}`;
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('.000')) x = x.slice(0, -4);
  return x + 's';
}

// ------------------------------------------------------------------------------------------------
// Decoding (JSON value → message)
// ------------------------------------------------------------------------------------------------

/** @internal encoding/json's name for the kind of a parsed JSON value. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function typeErr(v: unknown, goType: string): CodecError {
  return new CodecError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
}

function isObject(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decMessage(p: TypePlan, json: unknown, r: AnyResolver): Rec {
  if (p.wkt !== undefined && p.wkt !== 'Empty' && p.wkt !== 'FieldMask') return decWkt(p, json, r);
  if (!isObject(json)) throw typeErr(json, 'map[string]json.RawMessage');
  const msg = newMessage(p.type);
  for (const f of p.fields) {
    let raw: unknown;
    let found = false;
    if (hasOwn(json, f.protoName)) {
      raw = json[f.protoName];
      found = true;
    }
    if (f.jsonName !== f.protoName && hasOwn(json, f.jsonName)) {
      raw = json[f.jsonName];
      found = true;
    }
    if (!found || raw === undefined) continue;
    if (raw === null) {
      if (f.kind === 'message' && !f.repeated && !f.map && planOf(f.msgType!).wkt === 'Value') {
        msg[f.key] = decMessage(planOf(f.msgType!), null, r);
      }
      continue;
    }
    let v: unknown;
    if (f.map) v = decMap(f, raw, r);
    else if (f.repeated) v = decList(f, raw, r);
    else v = decSingle(f, raw, r);
    if (f.oneof !== undefined) for (const o of f.oneof.members) if (o !== f) delete msg[o.key];
    msg[f.key] = v;
  }
  return msg;
}

function decList(f: FieldPlan, raw: unknown, r: AnyResolver): unknown[] {
  if (!Array.isArray(raw)) throw typeErr(raw, '[]json.RawMessage');
  const out = new Array<unknown>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const x: unknown = raw[i];
    out[i] = x === null ? defaultValue(f, r) : decSingle(f, x, r);
  }
  return out;
}

function decMap(f: FieldPlan, raw: unknown, r: AnyResolver): Rec {
  if (!isObject(raw)) throw typeErr(raw, 'map[string]json.RawMessage');
  const out: Rec = {};
  for (const ks of Object.keys(raw)) {
    const key = decMapKey(f, ks);
    const x = raw[ks];
    put(out, key, x === null ? defaultValue(f, r) : decSingle(f, x, r));
  }
  return out;
}

function decMapKey(f: FieldPlan, ks: string): string {
  switch (f.keyKind) {
    case 'string':
      return ks;
    case 'bool':
      if (ks === 'true' || ks === 'false') return ks;
      throw new CodecError(`json: cannot unmarshal ${jsonTextKind(ks)} into Go value of type bool`);
    case 'int64':
    case 'uint64': {
      const v = jsonIntText(ks, f.keyKind);
      return protobuf.util.longToHash(makeLong(v, f.keyUnsigned) as protobuf.Long);
    }
    default:
      return String(jsonIntText(ks, f.keyKind));
  }
}

function defaultValue(spec: ValueSpec, r: AnyResolver): unknown {
  switch (spec.kind) {
    case 'message':
      return spec.msgType ? decDefaultMessage(spec.msgType, r) : null;
    case 'enum':
      return spec.enumPlan!.defaultNumber;
    case 'int64':
    case 'uint64':
      return makeLong(0n, spec.unsigned);
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

function decDefaultMessage(t: protobuf.Type, _r: AnyResolver): Rec {
  return newMessage(t);
}

function decSingle(f: ValueSpec, raw: unknown, r: AnyResolver): unknown {
  switch (f.kind) {
    case 'string': {
      if (typeof raw !== 'string') throw typeErr(raw, 'string');
      if (f.custom === CUSTOM_NONE) return raw;
      return decCustomText(f, raw);
    }
    case 'bytes': {
      if (f.custom !== CUSTOM_NONE) {
        if (typeof raw !== 'string') throw typeErr(raw, 'string');
        return Buffer.from(decCustomText(f, raw), 'utf8');
      }
      if (typeof raw !== 'string') throw typeErr(raw, '[]uint8');
      return base64Lenient(raw);
    }
    case 'bool':
      if (typeof raw !== 'boolean') throw typeErr(raw, 'bool');
      return raw;
    case 'int32':
    case 'uint32':
      return Number(jsonInt(raw, f.kind, GO_KIND[f.kind]));
    case 'int64':
    case 'uint64':
      return makeLong(jsonInt(raw, f.kind, GO_KIND[f.kind]), f.unsigned);
    case 'double':
    case 'float':
      return jsonFloat(raw, f.kind === 'float');
    case 'enum':
      return decEnum(f.enumPlan!, raw);
    case 'message':
      return decMessage(planOf(f.msgType!), raw, r);
  }
}

function decCustomText(f: ValueSpec, text: string): string {
  if (f.custom === CUSTOM_DEC) {
    if (text === '' && f.customEmptyOk) return '';
    return decTextToScaled(text);
  }
  return intTextNormalize(text);
}

function decEnum(ep: EnumPlan, raw: unknown): number {
  if (typeof raw === 'string') {
    const n = ep.byName.get(raw);
    if (n === undefined) throw new CodecError(`unknown value ${goQuote(raw)} for enum ${ep.protoName}`);
    return n;
  }
  if (typeof raw === 'number') return Number(jsonInt(raw, 'int32', ep.goType));
  throw typeErr(raw, ep.goType);
}

const INT_RANGE: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** An integer JSON value (number or quoted number) for an integer Go type. */
function jsonInt(raw: unknown, kind: Kind, goType: string): bigint {
  let text: string;
  let v: bigint;
  if (typeof raw === 'number') {
    text = String(raw);
    if (!Number.isInteger(raw)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
    v = BigInt(raw);
  } else if (typeof raw === 'bigint') {
    text = raw.toString();
    v = raw;
  } else if (typeof raw === 'string') {
    text = jsonNumberText(raw);
    if (!/^-?\d+$/.test(text)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
    v = BigInt(text);
  } else {
    throw typeErr(raw, goType);
  }
  const [lo, hi] = INT_RANGE[kind]!;
  if (v < lo || v > hi) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  return v;
}

/** Map keys are raw JSON text (`"1"` → `1`). */
function jsonIntText(ks: string, kind: Kind): bigint {
  const goType = GO_KIND[kind];
  if (ks.startsWith('"')) throw new CodecError(`json: cannot unmarshal string into Go value of type ${goType}`);
  const text = jsonNumberText(ks);
  if (!/^-?\d+$/.test(text)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  const v = BigInt(text);
  const [lo, hi] = INT_RANGE[kind]!;
  if (v < lo || v > hi) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  return v;
}

function jsonTextKind(s: string): string {
  const t = s.trim();
  if (t.startsWith('"')) return 'string';
  if (t === 'true' || t === 'false') return 'bool';
  if (t.startsWith('[')) return 'array';
  if (t.startsWith('{')) return 'object';
  return 'number';
}

const MAX_FLOAT32 = 3.4028234663852886e38;

function jsonFloat(raw: unknown, f32: boolean): number {
  const goType = f32 ? 'float32' : 'float64';
  let v: number;
  let text: string;
  if (typeof raw === 'number') {
    v = raw;
    text = String(raw);
  } else if (typeof raw === 'string') {
    if (raw === 'NaN') return NaN;
    if (raw === 'Infinity') return Infinity;
    if (raw === '-Infinity') return -Infinity;
    text = jsonNumberText(raw);
    v = Number(text);
  } else {
    throw typeErr(raw, goType);
  }
  if (!Number.isFinite(v) || (f32 && Math.abs(v) > MAX_FLOAT32 && !Number.isFinite(Math.fround(v)))) {
    throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  }
  return f32 ? Math.fround(v) : v;
}

/**
 * Validates text as one JSON number (surrounding JSON whitespace allowed) and returns it trimmed;
 * throws encoding/json's syntax errors otherwise.
 */
function jsonNumberText(s: string): string {
  const t = s.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (t === '') throw new CodecError('unexpected end of JSON input');
  let i = 0;
  const n = t.length;
  const digit = (k: number): boolean => k < n && t.charCodeAt(k) >= 48 && t.charCodeAt(k) <= 57;
  const fail = (k: number, where: string): never => {
    if (k >= n) throw new CodecError('unexpected end of JSON input');
    throw new CodecError(`invalid character ${quoteChar(t[k]!)} ${where}`);
  };
  if (t[i] === '-') i++;
  if (i === 0 && !digit(0)) fail(0, 'looking for beginning of value');
  if (!digit(i)) fail(i, 'in numeric literal');
  if (t[i] === '0') i++;
  else while (digit(i)) i++;
  if (t[i] === '.') {
    i++;
    if (!digit(i)) fail(i, 'after decimal point in numeric literal');
    while (digit(i)) i++;
  }
  if (t[i] === 'e' || t[i] === 'E') {
    i++;
    if (t[i] === '+' || t[i] === '-') i++;
    if (!digit(i)) fail(i, 'in exponent of numeric literal');
    while (digit(i)) i++;
  }
  if (i < n) fail(i, 'after top-level value');
  return t;
}

function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = goQuote(c);
  return `'${q.slice(1, -1)}'`;
}

function decWkt(p: TypePlan, json: unknown, r: AnyResolver): Rec {
  switch (p.wkt) {
    case 'Any':
      return decAny(p, json, r);
    case 'Timestamp': {
      if (typeof json !== 'string') throw typeErr(json, 'string');
      let ts: { seconds: bigint; nanos: number };
      try {
        ts = goParseRFC3339(json);
      } catch (e) {
        throw new CodecError(`bad Timestamp, should be RFC 3339 encoded: ${(e as Error).message}`);
      }
      return timeMessage(p, ts.seconds, ts.nanos);
    }
    case 'Duration': {
      if (typeof json !== 'string') throw typeErr(json, 'string');
      let d: bigint;
      try {
        d = goParseDuration(json);
      } catch (e) {
        throw new CodecError(`bad Duration: ${(e as Error).message}`);
      }
      return timeMessage(p, d / 1_000_000_000n, Number(d % 1_000_000_000n));
    }
    case 'Struct': {
      if (!isObject(json)) throw new CodecError(`bad StructValue: ${typeErr(json, 'map[string]json.RawMessage').message}`);
      const f = fieldOf(p, 'fields');
      const msg = newMessage(p.type);
      const vp = planOf(f.msgType!);
      const out: Rec = {};
      for (const k of Object.keys(json)) {
        try {
          put(out, k, decMessage(vp, json[k], r));
        } catch (e) {
          throw new CodecError(`bad value in StructValue for key ${goQuote(k)}: ${(e as Error).message}`);
        }
      }
      msg[f.key] = out;
      return msg;
    }
    case 'ListValue': {
      if (!Array.isArray(json)) throw new CodecError(`bad ListValue: ${typeErr(json, '[]json.RawMessage').message}`);
      const f = fieldOf(p, 'values');
      const msg = newMessage(p.type);
      const vp = planOf(f.msgType!);
      msg[f.key] = json.map((x: unknown) => decMessage(vp, x, r));
      return msg;
    }
    case 'Value': {
      const msg = newMessage(p.type);
      const set = (protoName: string, v: unknown): Rec => {
        msg[fieldOf(p, protoName).key] = v;
        return msg;
      };
      if (json === null || json === undefined) return set('null_value', 0);
      if (typeof json === 'number') return set('number_value', json);
      if (typeof json === 'string') return set('string_value', json);
      if (typeof json === 'boolean') return set('bool_value', json);
      if (Array.isArray(json)) return set('list_value', decMessage(planOf(fieldOf(p, 'list_value').msgType!), json, r));
      if (isObject(json)) return set('struct_value', decMessage(planOf(fieldOf(p, 'struct_value').msgType!), json, r));
      throw new CodecError(`unrecognized type for Value ${goQuote(String(json))}`);
    }
    default: {
      const f = fieldOf(p, 'value');
      const msg = newMessage(p.type);
      msg[f.key] = decSingle(f, json, r);
      return msg;
    }
  }
}

function timeMessage(p: TypePlan, seconds: bigint, nanos: number): Rec {
  const msg = newMessage(p.type);
  msg[fieldOf(p, 'seconds').key] = makeLong(seconds, false);
  msg[fieldOf(p, 'nanos').key] = nanos;
  return msg;
}

function decAny(p: TypePlan, json: unknown, r: AnyResolver): Rec {
  if (!isObject(json)) throw typeErr(json, 'map[string]*json.RawMessage');
  const at = json['@type'];
  if (at === undefined || at === null) throw new CodecError("Any JSON doesn't have '@type'");
  if (typeof at !== 'string') throw new CodecError(`can't unmarshal Any's '@type': ${goQuote(JSON.stringify(at))}`);
  const t = r.resolveAny(at);
  if (t === undefined) throw new CodecError(`unable to resolve type URL ${at}`);
  const ip = planOf(t);
  let inner: Rec;
  try {
    if (anyNeedsValue(ip)) {
      if (!hasOwn(json, 'value')) throw new CodecError("Any JSON doesn't have 'value'");
      inner = decMessage(ip, json['value'], r);
    } else {
      const rest: Rec = {};
      for (const k of Object.keys(json)) if (k !== '@type') put(rest, k, json[k]);
      inner = decMessage(ip, rest, r);
    }
  } catch (e) {
    if (e instanceof CodecError && e.message === "Any JSON doesn't have 'value'") throw e;
    throw new CodecError(`can't unmarshal Any nested proto *${ip.goType}: ${(e as Error).message}`);
  }
  const msg = newMessage(p.type);
  msg[fieldOf(p, 'type_url').key] = at;
  msg[fieldOf(p, 'value').key] = t.encode(inner as unknown as protobuf.Message).finish();
  return msg;
}

// ------------------------------------------------------------------------------------------------
// Go-compatible parsers (strconv, encoding/base64, time) — shared with query-params.ts
// ------------------------------------------------------------------------------------------------

/** @internal Go `strconv.Quote` (close enough for error texts). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** @internal The `time` package's quote (non-ASCII and control bytes as `\xNN`). */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c >= 0x80) {
      for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

function numError(fn: string, s: string, what: 'invalid syntax' | 'value out of range'): CodecError {
  return new CodecError(`strconv.${fn}: parsing ${goQuote(s)}: ${what}`);
}

/** @internal Go `underscoreOK` (digit separators in base-prefixed literals). */
export function underscoreOK(input: string): boolean {
  let s = input;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

interface UintResult {
  value: bigint;
  range: boolean;
}

function parseUintCore(s0: string, base0: number, bitSize: number, fn: string): UintResult {
  if (s0 === '') throw numError(fn, s0, 'invalid syntax');
  let s = s0;
  let base = base0;
  const isBase0 = base0 === 0;
  if (base0 === 0) {
    base = 10;
    if (s[0] === '0') {
      const l = (s[1] ?? '').toLowerCase();
      if (s.length >= 3 && l === 'b') {
        base = 2;
        s = s.slice(2);
      } else if (s.length >= 3 && l === 'o') {
        base = 8;
        s = s.slice(2);
      } else if (s.length >= 3 && l === 'x') {
        base = 16;
        s = s.slice(2);
      } else {
        base = 8;
        s = s.slice(1);
      }
    }
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  const b = BigInt(base);
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    let d: number;
    const lc = c.toLowerCase();
    if (c === '_' && isBase0) {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
    else if (lc >= 'a' && lc <= 'z' && lc.length === 1) d = lc.charCodeAt(0) - 87;
    else throw numError(fn, s0, 'invalid syntax');
    if (d >= base) throw numError(fn, s0, 'invalid syntax');
    n = n * b + BigInt(d);
    if (n > maxVal) return { value: maxVal, range: true };
  }
  if (underscores && !underscoreOK(s0)) throw numError(fn, s0, 'invalid syntax');
  return { value: n, range: false };
}

/** @internal Go `strconv.ParseUint(s, base, bitSize)`; throws CodecError with Go's message. */
export function goParseUint(s: string, base: number, bitSize: number): bigint {
  const r = parseUintCore(s, base, bitSize, 'ParseUint');
  if (r.range) throw numError('ParseUint', s, 'value out of range');
  return r.value;
}

/** @internal Go `strconv.ParseInt(s, base, bitSize)`; throws CodecError with Go's message. */
export function goParseInt(s0: string, base: number, bitSize: number): bigint {
  if (s0 === '') throw numError('ParseInt', s0, 'invalid syntax');
  let s = s0;
  let neg = false;
  if (s[0] === '+') s = s.slice(1);
  else if (s[0] === '-') {
    neg = true;
    s = s.slice(1);
  }
  let un: UintResult;
  try {
    un = parseUintCore(s, base, bitSize, 'ParseInt');
  } catch {
    throw numError('ParseInt', s0, 'invalid syntax');
  }
  const cutoff = 1n << BigInt(bitSize - 1);
  if (!neg && un.value >= cutoff) throw numError('ParseInt', s0, 'value out of range');
  if (neg && un.value > cutoff) throw numError('ParseInt', s0, 'value out of range');
  return neg ? -un.value : un.value;
}

/** @internal Go `strconv.ParseBool`. */
export function goParseBool(s: string): boolean {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false;
  }
  throw new CodecError(`strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax`);
}

/** @internal Go `strconv.ParseFloat` for decimal syntax, inf/infinity and nan. */
export function goParseFloat(s: string, bitSize: 32 | 64): number {
  let v: number;
  if (/^[+-]?(inf|infinity)$/i.test(s)) v = s.startsWith('-') ? -Infinity : Infinity;
  else if (/^nan$/i.test(s)) v = NaN;
  else if (/^[+-]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][+-]?\d+)?$/.test(s)) {
    v = Number(s.replace(/_/g, ''));
    if (!Number.isFinite(v) || (bitSize === 32 && !Number.isFinite(Math.fround(v)))) {
      throw new CodecError(`strconv.ParseFloat: parsing ${goQuote(s)}: value out of range`);
    }
  } else {
    throw new CodecError(`strconv.ParseFloat: parsing ${goQuote(s)}: invalid syntax`);
  }
  return bitSize === 32 ? Math.fround(v) : v;
}

const B64_STD = decodeTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const B64_URL = decodeTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');

function decodeTable(alphabet: string): Int16Array {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}

/**
 * @internal Go `base64.StdEncoding/URLEncoding.DecodeString` (padded, newlines ignored).
 * Returns the bytes or the offset Go reports in `illegal base64 data at input byte N`.
 */
export function goBase64Decode(src: string, url: boolean): Uint8Array | number {
  const map = url ? B64_URL : B64_STD;
  const n = src.length;
  const out = new Uint8Array(Math.floor((n * 3) / 4) + 3);
  let o = 0;
  let si = 0;
  const isNl = (k: number): boolean => src.charCodeAt(k) === 10 || src.charCodeAt(k) === 13;
  const dbuf = [0, 0, 0, 0];
  for (;;) {
    let dlen = 4;
    let end = false;
    dbuf[0] = dbuf[1] = dbuf[2] = dbuf[3] = 0;
    for (let j = 0; j < 4; j++) {
      if (si === n) {
        if (j === 0) return out.subarray(0, o);
        return si - j;
      }
      const c = src.charCodeAt(si);
      si++;
      const d = c < 128 ? map[c]! : -1;
      if (d >= 0) {
        dbuf[j] = d;
        continue;
      }
      if (c === 10 || c === 13) {
        j--;
        continue;
      }
      if (c !== 61) return si - 1;
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < n && isNl(si)) si++;
        if (si === n) return n;
        if (src.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < n && isNl(si)) si++;
      if (si < n) return si;
      dlen = j;
      end = true;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    if (dlen >= 2) out[o++] = (val >> 16) & 0xff;
    if (dlen >= 3) out[o++] = (val >> 8) & 0xff;
    if (dlen >= 4) out[o++] = val & 0xff;
    if (end) return out.subarray(0, o);
  }
}

/** Bytes in JSON bodies: standard base64, else URL-safe, padded or not. */
function base64Lenient(s: string): Uint8Array {
  const std = goBase64Decode(s, false);
  if (typeof std !== 'number') return std;
  const url = goBase64Decode(s, true);
  if (typeof url !== 'number') return url;
  const bare = s.replace(/[\r\n]/g, '');
  if (/^[A-Za-z0-9+/\-_]*$/.test(bare) && bare.length % 4 !== 1) {
    const padded = bare.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (bare.length % 4)) % 4);
    const raw = goBase64Decode(padded, false);
    if (typeof raw !== 'number') return raw;
  }
  throw new CodecError(`illegal base64 data at input byte ${std}`);
}

const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

/**
 * @internal Go `time.Parse(time.RFC3339Nano, s)` → Unix seconds and nanos; throws Error with Go's
 * `parsing time …` message.
 */
export function goParseRFC3339(value: string): { seconds: bigint; nanos: number } {
  let rest = value;
  const cannot = (layoutElem: string): Error =>
    new Error(`parsing time ${timeQuote(value)} as ${timeQuote(RFC3339_NANO)}: cannot parse ${timeQuote(rest)} as ${timeQuote(layoutElem)}`);
  const range = (what: string): Error => new Error(`parsing time ${timeQuote(value)}: ${what} out of range`);
  const isD = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';
  const getnum = (fixed: boolean, elem: string): number => {
    if (!isD(rest, 0)) throw cannot(elem);
    if (!isD(rest, 1)) {
      if (fixed) throw cannot(elem);
      const v = rest.charCodeAt(0) - 48;
      rest = rest.slice(1);
      return v;
    }
    const v = (rest.charCodeAt(0) - 48) * 10 + rest.charCodeAt(1) - 48;
    rest = rest.slice(2);
    return v;
  };
  const lit = (p: string): void => {
    if (!rest.startsWith(p)) throw cannot(p);
    rest = rest.slice(p.length);
  };
  if (rest.length < 4 || !/^\d{4}/.test(rest)) throw cannot('2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);
  lit('-');
  const month = getnum(true, '01');
  if (month <= 0 || month > 12) throw range('month');
  lit('-');
  const day = getnum(true, '02');
  lit('T');
  const hour = getnum(false, '15');
  if (hour >= 24) throw range('hour');
  lit(':');
  const minute = getnum(true, '04');
  if (minute >= 60) throw range('minute');
  lit(':');
  const second = getnum(true, '05');
  if (second >= 60) throw range('second');
  let nanos = 0;
  if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isD(rest, 1)) {
    let i = 0;
    while (isD(rest, i + 1)) i++;
    const digits = rest.slice(1, 1 + Math.min(i, 9));
    nanos = Number(digits.padEnd(9, '0'));
    rest = rest.slice(1 + i);
  }
  let offset = 0;
  if (rest.startsWith('Z')) {
    rest = rest.slice(1);
  } else {
    if (rest.length < 6 || rest[3] !== ':') throw cannot('Z07:00');
    const sign = rest[0]!;
    const hh = rest.slice(1, 3);
    const mm = rest.slice(4, 6);
    if (!/^\d\d$/.test(hh) || !/^\d\d$/.test(mm) || (sign !== '+' && sign !== '-')) throw cannot('Z07:00');
    const hr = Number(hh);
    const mn = Number(mm);
    if (hr > 24) throw range('time zone offset hour');
    if (mn > 60) throw range('time zone offset minute');
    offset = (hr * 60 + mn) * 60 * (sign === '-' ? -1 : 1);
    rest = rest.slice(6);
  }
  if (rest.length > 0) throw new Error(`parsing time ${timeQuote(value)}: extra text: ${timeQuote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) throw range('day');
  const secs = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return { seconds: BigInt(secs), nanos };
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** @internal Go `time.ParseDuration` → nanoseconds; throws Error with Go's message. */
export function goParseDuration(orig: string): bigint {
  const bad = (): Error => new Error(`time: invalid duration ${timeQuote(orig)}`);
  const LIMIT = 1n << 63n;
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw bad();
  const isD = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  let d = 0n;
  while (s !== '') {
    let v = 0n;
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isD(s[0]))) throw bad();
    let i = 0;
    for (; i < s.length && isD(s[i]); i++) {
      if (v > LIMIT / 10n) throw bad();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw bad();
    }
    const pre = i > 0;
    s = s.slice(i);
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isD(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw bad();
    let k = 0;
    for (; k < s.length; k++) if (s[k] === '.' || isD(s[k])) break;
    if (k === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = DURATION_UNITS[u];
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > LIMIT / unit) throw bad();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw bad();
    }
    d += v;
    if (d > LIMIT) throw bad();
  }
  if (neg) return -d;
  if (d > LIMIT - 1n) throw bad();
  return d;
}
