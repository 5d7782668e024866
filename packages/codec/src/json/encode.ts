/** Encoding: message → gateway JSON value (see ../json.ts for the output rules). */
import protobuf from 'protobufjs';
import { CUSTOM_NONE, encCustom } from './decimal.js';
import { CodecError } from './errors.js';
import { fieldOf, planOf } from './plan.js';
import type { EnumPlan, FieldPlan, Kind, OneofPlan, TypePlan, ValueSpec } from './plan.js';
import type { AnyResolver } from './resolver.js';
import { EMPTY, hasOwn, isLongLike, put, setMember, toBigInt64, toBytes, toNumber } from './values.js';
import type { Rec } from './values.js';
import { GO_ZERO_TIME, anyNeedsValue, encDuration, encTimestamp } from './wkt.js';

/**
 * Writes a message (protobufjs instance or plain object with the proto field names; 64-bit values as
 * Long, number, bigint or string) as gateway JSON. The result is ready for `JSON.stringify`.
 * Throws `CodecError` (code 2) for an unresolvable `Any` or an out-of-range Timestamp/Duration.
 */
export function toGatewayJSON(type: protobuf.Type, message: unknown, resolver: AnyResolver): unknown {
  return encMessage(planOf(type), message, resolver);
}

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

function encWkt(p: TypePlan, m: unknown, r: AnyResolver): unknown {
  const msg = (m ?? EMPTY) as Rec;
  switch (p.wkt) {
    case 'Any':
      return encAny(p, msg, r);
    case 'Timestamp':
      return encTimestamp(msg);
    case 'Duration':
      return encDuration(msg);
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

// Scalar text forms

function int64ToString(v: unknown, unsigned: boolean): string {
  if (typeof v === 'number' && Number.isSafeInteger(v) && (v >= 0 || !unsigned)) return String(v === 0 ? 0 : v);
  if (isLongLike(v)) {
    if (v.high === 0) return String(v.low >>> 0);
    if (!unsigned && v.high === -1 && v.low < 0) return String(v.low);
  }
  return toBigInt64(v, unsigned).toString();
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

function bytesToB64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

function bytesToText(v: unknown): string {
  if (typeof v === 'string') return v;
  const b = toBytes(v);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}

