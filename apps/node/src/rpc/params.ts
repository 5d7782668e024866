/** Decoding of RPC parameters: JSON object (by name), JSON array (positional) or URI query (GET form). */
import { fromBase64, fromHex } from '@chain/crypto';
import { RpcErrors } from './errors.js';

export type ParamType = 'int' | 'string' | 'bytes' | 'hexbytes' | 'bool';
export interface ParamSpec { readonly name: string; readonly type: ParamType }
export type Params = Record<string, string | number | boolean | Uint8Array | undefined>;

function fromJson(spec: ParamSpec, v: unknown): Params[string] {
  if (v === null || v === undefined) return undefined;
  switch (spec.type) {
    case 'int': {
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
      throw RpcErrors.invalidParams(`${spec.name}: invalid 64-bit integer encoding ${JSON.stringify(v)}, expected string`);
    }
    case 'string':
      if (typeof v !== 'string') throw RpcErrors.invalidParams(`${spec.name}: expected string, got ${typeof v}`);
      return v;
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw RpcErrors.invalidParams(`${spec.name}: expected boolean`);
    case 'bytes':
      if (typeof v !== 'string') throw RpcErrors.invalidParams(`${spec.name}: expected base64 string`);
      try { return fromBase64(v); } catch { throw RpcErrors.invalidParams(`${spec.name}: illegal base64 data`); }
    case 'hexbytes':
      if (typeof v !== 'string') throw RpcErrors.invalidParams(`${spec.name}: expected hex string`);
      try { return fromHex(v); } catch { throw RpcErrors.invalidParams(`${spec.name}: encoding/hex: invalid byte`); }
  }
}

export function decodeJsonParams(specs: readonly ParamSpec[], params: unknown): Params {
  const out: Params = {};
  if (params === undefined || params === null) return out;
  if (Array.isArray(params)) {
    if (params.length > specs.length) throw RpcErrors.invalidParams(`expected at most ${specs.length} parameters, got ${params.length}`);
    specs.forEach((s, i) => { out[s.name] = fromJson(s, params[i]); });
    return out;
  }
  if (typeof params !== 'object') throw RpcErrors.invalidParams('params must be an object or an array');
  const o = params as Record<string, unknown>;
  for (const s of specs) out[s.name] = fromJson(s, o[s.name]);
  return out;
}

/** URI form: integers bare, strings JSON-quoted, bytes as 0x-hex or a quoted string. */
export function decodeUriParams(specs: readonly ParamSpec[], query: URLSearchParams): Params {
  const out: Params = {};
  for (const s of specs) {
    const raw = query.get(s.name);
    if (raw === null || raw === '') continue;
    const unq = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : undefined;
    switch (s.type) {
      case 'int':
        if (!/^-?\d+$/.test(unq ?? raw)) throw RpcErrors.invalidParams(`${s.name}: invalid integer ${raw}`);
        out[s.name] = Number(unq ?? raw);
        break;
      case 'bool':
        if (raw !== 'true' && raw !== 'false') throw RpcErrors.invalidParams(`${s.name}: invalid boolean ${raw}`);
        out[s.name] = raw === 'true';
        break;
      case 'string':
        if (unq === undefined) throw RpcErrors.invalidParams(`${s.name}: strings must be quoted, got ${raw}`);
        out[s.name] = unq;
        break;
      case 'bytes':
      case 'hexbytes':
        if (raw.startsWith('0x')) {
          try { out[s.name] = fromHex(raw); } catch { throw RpcErrors.invalidParams(`${s.name}: invalid hex ${raw}`); }
        } else if (unq !== undefined) {
          out[s.name] = new TextEncoder().encode(unq);
        } else {
          throw RpcErrors.invalidParams(`${s.name}: expected 0x-prefixed hex or a quoted string`);
        }
        break;
    }
  }
  return out;
}
