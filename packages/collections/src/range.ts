/** Key ranges of a collection and their translation to store iterator bounds (internal helpers). */
import { compareBytes, prefixEnd } from '@chain/store';
import type { KeyCodec } from './key-codec.js';

/**
 * Which entries of a map to visit. Bounds and prefixes are keys of the map; for composite keys a bound
 * may also be a partial key (e.g. `[k1]` for a pair), meaning "every key starting with it":
 * a partial start includes (or with `startExclusive` skips) every key under it, a partial end excludes
 * (or with `endInclusive` includes) every key under it. All constraints given apply together.
 */
export interface Range<K, P = never> {
  /** only keys whose first parts equal this partial key (composite keys only) */
  prefix?: P;
  /** lower bound, inclusive unless `startExclusive` */
  start?: K | P;
  startExclusive?: boolean;
  /** upper bound, exclusive unless `endInclusive` */
  end?: K | P;
  endInclusive?: boolean;
  /** descending key order */
  reverse?: boolean;
}

/** A decoded entry. */
export interface Entry<K, V> {
  key: K;
  value: V;
}

/** `base || encoding of a full key`, plus `extra` zero bytes (1 = the smallest key after it). */
export function fullKey<K>(base: Uint8Array, kc: KeyCodec<K, unknown>, key: K, extra = 0): Uint8Array {
  const n = base.length;
  const out = new Uint8Array(n + kc.size(key) + extra);
  out.set(base, 0);
  kc.write(out, n, key);
  return out;
}

/** `base || encoding of a partial key`. */
export function prefixKey<K, P>(base: Uint8Array, kc: KeyCodec<K, P>, p: P): Uint8Array {
  const pc = kc.prefix;
  if (!pc) throw new Error(`${kc.keyType} keys have no partial keys (prefix ranges need a composite key)`);
  const n = base.length;
  const out = new Uint8Array(n + pc.size(p));
  out.set(base, 0);
  pc.write(out, n, p);
  return out;
}

/**
 * Store bounds [start, end) for `range` inside the collection at `base` (whose end is `baseEnd`), or
 * null when the range is empty. `end` undefined means "to the end of the module store".
 */
export function storeBounds<K, P>(
  base: Uint8Array,
  baseEnd: Uint8Array | undefined,
  kc: KeyCodec<K, P>,
  range: Range<K, P>,
): { start: Uint8Array; end: Uint8Array | undefined } | null {
  let lo: Uint8Array = base;
  let hi: Uint8Array | undefined = baseEnd;

  if (range.prefix !== undefined) {
    lo = prefixKey(base, kc, range.prefix);
    hi = prefixEnd(lo) ?? baseEnd;
  }
  if (range.start !== undefined) {
    const b = bound(base, kc, range.start, range.startExclusive === true);
    if (b === undefined) return null; // nothing after a partial key made of 0xFF bytes
    if (compareBytes(b, lo) > 0) lo = b;
  }
  if (range.end !== undefined) {
    const b = bound(base, kc, range.end, range.endInclusive === true);
    if (b !== undefined && (hi === undefined || compareBytes(b, hi) < 0)) hi = b;
  }
  if (hi !== undefined && compareBytes(lo, hi) >= 0) return null;
  return { start: lo, end: hi };
}

/** The store key where a bound starts (not past) or the first key after it (past); undefined = none. */
function bound<K, P>(base: Uint8Array, kc: KeyCodec<K, P>, b: K | P, past: boolean): Uint8Array | undefined {
  if (kc.prefix?.isPrefix(b)) {
    const p = prefixKey(base, kc, b);
    return past ? prefixEnd(p) : p;
  }
  return fullKey(base, kc, b as K, past ? 1 : 0);
}
