/** JSON with bytes and bigints, for block-store records (not a wire format). */
import { bytesToString } from '@chain/crypto';

/**
 * The record of `v`: JSON where a Uint8Array is `{"$b": base64}`, a bigint `{"$n": decimal}` and a Date `{"$d": ISO}`.
 * The special values are replaced first (`plain`), then `JSON.stringify` runs without a replacer: with one, V8 leaves
 * its fast path and calls back into JS for every key, which cost ~25 ms of the node's thread per 2,000-send block's
 * results record (its events). The bytes are the same as `JSON.stringify(v, replacer)` gave.
 */
export function serialize(v: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(plain(v, '')));
}

/** `v` with its Uint8Arrays, bigints and Dates replaced; the same object where nothing under it is (no copy). */
function plain(v: unknown, key: string | number): unknown {
  if (typeof v === 'bigint') return { $n: v.toString() };
  if (typeof v !== 'object' || v === null) return v;
  if (v instanceof Uint8Array) return { $b: bytesToString(v, 'base64') };
  if (v instanceof Date) return { $d: v.toISOString() };
  // what JSON.stringify does first (Buffer and Date are handled above, as the replacer saw them before their toJSON)
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return plain((toJSON as (k: string) => unknown).call(v, String(key)), key);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = plain(x, i);
      if (out !== undefined) out.push(y);
      else if (y !== x) { out = v.slice(0, i); out.push(y); }
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let out: Record<string, unknown> | undefined;
  for (const k of keys) {
    const x = o[k];
    const y = plain(x, k);
    if (y !== x) {
      if (out === undefined) { out = {}; for (const k2 of keys) out[k2] = o[k2]; }
      out[k] = y;
    }
  }
  return out ?? o;
}

export function deserialize<T>(bz: Uint8Array): T {
  return JSON.parse(new TextDecoder().decode(bz), (_k, x: unknown) => {
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      const o = x as Record<string, unknown>;
      if (typeof o.$b === 'string') return new Uint8Array(Buffer.from(o.$b, 'base64'));
      if (typeof o.$n === 'string') return BigInt(o.$n);
      if (typeof o.$d === 'string') return new Date(o.$d);
    }
    return x;
  }) as T;
}
