/**
 * Decoding of RPC parameters the way CometBFT's JSON-RPC server does it (rpc/jsonrpc/server):
 * - JSON object params by name (unknown names ignored, missing or null → the zero value);
 * - JSON array params positionally, exactly one per declared parameter;
 * - URI query (GET form): integers bare or quoted, strings JSON-quoted or `0x` hex, bytes `0x` hex or a
 *   quoted string, bools bare.
 * 64-bit integers are JSON strings in CometBFT; bare JSON numbers are accepted too (integers only).
 */
import { fromBase64, fromHex } from '@chain/crypto';
import { RpcError } from './errors.js';

export type ParamType = 'int' | 'string' | 'bytes' | 'hexbytes' | 'bool';
export interface ParamSpec { readonly name: string; readonly type: ParamType }
export type Params = Record<string, string | number | boolean | Uint8Array | undefined>;

/** A parameter that cannot be converted; the caller wraps the text in its transport's error. */
export class ParamError extends Error {}

const INT_RE = /^-?[0-9]+$/;

function intOf(name: string, text: string): number {
  if (!INT_RE.test(text)) throw new ParamError(`${name}: invalid 64-bit integer encoding ${JSON.stringify(text)}, expected string`);
  const n = Number(text);
  // beyond int64 CometBFT fails to parse; beyond 2^53 we cannot represent the value exactly
  if (!Number.isSafeInteger(n)) throw new ParamError(`${name}: value ${text} out of range`);
  return n;
}

function fromJson(spec: ParamSpec, v: unknown): Params[string] {
  if (v === null || v === undefined) return undefined;
  switch (spec.type) {
    case 'int': {
      if (typeof v === 'number' && Number.isInteger(v)) return intOf(spec.name, String(v));
      if (typeof v === 'string') return intOf(spec.name, v);
      throw new ParamError(`${spec.name}: invalid 64-bit integer encoding ${JSON.stringify(v)}, expected string`);
    }
    case 'string':
      if (typeof v !== 'string') throw new ParamError(`${spec.name}: json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
      return v;
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw new ParamError(`${spec.name}: json: cannot unmarshal ${jsonKind(v)} into Go value of type bool`);
    case 'bytes':
      if (typeof v !== 'string') throw new ParamError(`${spec.name}: json: cannot unmarshal ${jsonKind(v)} into Go value of type []uint8`);
      try { return fromBase64(v); } catch { throw new ParamError(`${spec.name}: illegal base64 data`); }
    case 'hexbytes':
      if (typeof v !== 'string') throw new ParamError(`${spec.name}: json: cannot unmarshal ${jsonKind(v)} into Go value of type bytes.HexBytes`);
      try { return fromHex(v); } catch { throw new ParamError(`${spec.name}: encoding/hex: invalid byte`); }
  }
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** JSON-RPC params (object by name or array by position). Throws ParamError. */
export function decodeJsonParams(specs: readonly ParamSpec[], params: unknown): Params {
  const out: Params = {};
  if (params === undefined || params === null) return out;
  if (Array.isArray(params)) {
    if (params.length !== specs.length) {
      throw new ParamError(`expected ${specs.length} parameters (${specs.map((s) => s.name).join(',')}), got ${params.length}`);
    }
    specs.forEach((s, i) => { out[s.name] = fromJson(s, params[i]); });
    return out;
  }
  if (typeof params !== 'object') throw new ParamError(`unknown type for JSON params: ${jsonKind(params)}. Expected map or array`);
  const o = params as Record<string, unknown>;
  for (const s of specs) out[s.name] = Object.prototype.hasOwnProperty.call(o, s.name) ? fromJson(s, o[s.name]) : undefined;
  return out;
}

function jsonParse(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ParamError(`${name}: invalid character in ${JSON.stringify(text.slice(0, 64))}`);
  }
}

function hexArg(name: string, raw: string): Uint8Array {
  try {
    return fromHex(raw.slice(2));
  } catch {
    throw new ParamError(`${name}: encoding/hex: invalid byte in ${JSON.stringify(raw.slice(0, 64))}`);
  }
}

/** URI form (`GET /method?arg=…`), CometBFT's `httpParamsToArgs`. Throws ParamError. */
export function decodeUriParams(specs: readonly ParamSpec[], query: URLSearchParams): Params {
  const out: Params = {};
  for (const s of specs) {
    const raw = query.get(s.name);
    if (raw === null || raw === '') continue;
    const isInt = INT_RE.test(raw);
    const isQuoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
    const isHex = raw.toLowerCase().startsWith('0x');
    switch (s.type) {
      case 'int':
        if (isInt) { out[s.name] = intOf(s.name, raw); break; }
        if (isHex) throw new ParamError(`${s.name}: got a hex string arg, but expected 'int64'`);
        out[s.name] = fromJson(s, jsonParse(s.name, raw));
        break;
      case 'bool':
        if (isHex) throw new ParamError(`${s.name}: got a hex string arg, but expected 'bool'`);
        out[s.name] = fromJson(s, jsonParse(s.name, raw));
        break;
      case 'string':
        if (isHex) { out[s.name] = Buffer.from(hexArg(s.name, raw)).toString('utf8'); break; }
        out[s.name] = fromJson(s, jsonParse(s.name, raw));
        break;
      case 'bytes':
      case 'hexbytes':
        if (isHex) { out[s.name] = hexArg(s.name, raw); break; }
        if (isQuoted) {
          const v = jsonParse(s.name, raw);
          if (typeof v !== 'string') throw new ParamError(`${s.name}: expected a quoted string`);
          out[s.name] = new TextEncoder().encode(v);
          break;
        }
        out[s.name] = fromJson(s, jsonParse(s.name, raw));
        break;
    }
  }
  return out;
}

/** Wraps a ParamError as the JSON-RPC `Invalid params` error of a transport. */
export function invalidParams(e: unknown, form: 'json' | 'http'): RpcError | unknown {
  if (!(e instanceof ParamError)) return e;
  return new RpcError(-32602, 'Invalid params', `error converting ${form} params to arguments: ${e.message}`);
}
