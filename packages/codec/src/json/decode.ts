/** Decoding: gateway JSON value → protobufjs message (see ../json.ts for the accepted forms). */
import protobuf from 'protobufjs';
import { CUSTOM_NONE, decCustomText } from './decimal.js';
import { CodecError } from './errors.js';
import { base64Lenient } from './go-base64.js';
import { GO_KIND, jsonFloat, jsonInt, jsonIntText, jsonTextKind, typeErr } from './go-json.js';
import { goQuote } from './go-strconv.js';
import { fieldOf, planOf } from './plan.js';
import type { EnumPlan, FieldPlan, TypePlan, ValueSpec } from './plan.js';
import type { AnyResolver } from './resolver.js';
import { hasOwn, isObject, makeLong, newMessage, put, setField, zeroValue } from './values.js';
import type { Rec } from './values.js';
import { anyNeedsValue, decDuration, decTimestamp } from './wkt.js';

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
    setField(msg, f, v);
  }
  return msg;
}

function decList(f: FieldPlan, raw: unknown, r: AnyResolver): unknown[] {
  if (!Array.isArray(raw)) throw typeErr(raw, '[]json.RawMessage');
  const out = new Array<unknown>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const x: unknown = raw[i];
    out[i] = x === null ? zeroValue(f) : decSingle(f, x, r);
  }
  return out;
}

function decMap(f: FieldPlan, raw: unknown, r: AnyResolver): Rec {
  if (!isObject(raw)) throw typeErr(raw, 'map[string]json.RawMessage');
  const out: Rec = {};
  for (const ks of Object.keys(raw)) {
    const key = decMapKey(f, ks);
    const x = raw[ks];
    put(out, key, x === null ? zeroValue(f) : decSingle(f, x, r));
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

function decEnum(ep: EnumPlan, raw: unknown): number {
  if (typeof raw === 'string') {
    const n = ep.byName.get(raw);
    if (n === undefined) throw new CodecError(`unknown value ${goQuote(raw)} for enum ${ep.protoName}`);
    return n;
  }
  if (typeof raw === 'number') return Number(jsonInt(raw, 'int32', ep.goType));
  throw typeErr(raw, ep.goType);
}

function decWkt(p: TypePlan, json: unknown, r: AnyResolver): Rec {
  switch (p.wkt) {
    case 'Any':
      return decAny(p, json, r);
    case 'Timestamp':
      return decTimestamp(p, json);
    case 'Duration':
      return decDuration(p, json);
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
      // the fields are read by name from `json` itself (own properties; no field is named `@type`), as they
      // would be from a copy without `@type`
      inner = decMessage(ip, json, r);
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
