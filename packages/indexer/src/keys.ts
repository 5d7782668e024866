/**
 * Byte helpers shared by the tx and block indexes: concatenation, big-endian numbers, key-range bounds
 * and the counter/marker records that make the index ranked (see README.md, "Key layout").
 */
import type { Bytes } from '@chain/store';

export const enc = new TextEncoder();
export const EMPTY = new Uint8Array(0);
export const ZERO = Uint8Array.of(0);

export function cat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

const TWO_32 = 2 ** 32;

/** Writes a non-negative safe integer as 8 big-endian bytes at `off`. */
export function writeBe64(b: Uint8Array, off: number, n: number): void {
  const hi = Math.floor(n / TWO_32);
  const lo = n - hi * TWO_32;
  b[off] = hi >>> 24; b[off + 1] = (hi >>> 16) & 0xff; b[off + 2] = (hi >>> 8) & 0xff; b[off + 3] = hi & 0xff;
  b[off + 4] = lo >>> 24; b[off + 5] = (lo >>> 16) & 0xff; b[off + 6] = (lo >>> 8) & 0xff; b[off + 7] = lo & 0xff;
}

export function be64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  writeBe64(b, 0, n);
  return b;
}

export function readBe64(b: Uint8Array, off = 0): number {
  const hi = ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) >>> 0;
  const lo = ((b[off + 4]! << 24) | (b[off + 5]! << 16) | (b[off + 6]! << 8) | b[off + 7]!) >>> 0;
  return hi * TWO_32 + lo;
}

export function readBe32(b: Uint8Array, off = 0): number {
  return ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) >>> 0;
}

/**
 * `ns || tag || 0x00 [|| value || 0x00] [|| tail]` in one allocation (UTF-8 strings): the key of an
 * index entry (tail = position) or of a counter (no tail).
 */
export function attrKey(ns: Uint8Array, tag: string, value: string | undefined, tail?: Uint8Array): Uint8Array {
  const tl = Buffer.byteLength(tag, 'utf8');
  const vl = value === undefined ? -1 : Buffer.byteLength(value, 'utf8');
  const out = Buffer.allocUnsafe(ns.length + tl + 1 + (vl < 0 ? 0 : vl + 1) + (tail?.length ?? 0));
  out.set(ns, 0);
  let o = ns.length;
  o += out.write(tag, o, 'utf8');
  out[o++] = 0;
  if (value !== undefined) { o += out.write(value, o, 'utf8'); out[o++] = 0; }
  if (tail) out.set(tail, o);
  return new Uint8Array(out.buffer, out.byteOffset, out.length); // a plain Uint8Array (the pool slab is shared, read-only use)
}

/** The smallest key greater than every key starting with `prefix`. */
export function upperBound(prefix: Uint8Array): Uint8Array {
  const out = prefix.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) { out[i]!++; return out.subarray(0, i + 1); }
  }
  return Uint8Array.of(0xff, 0xff, 0xff, 0xff);
}

/** The smallest key greater than `key` (`key || 0x00`). */
export function successor(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out.set(key);
  return out;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
}

export function fromLatin1(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'latin1'));
}

/** `tag || 0x00` or `tag || 0x00 || value || 0x00` (the attribute part of event and counter keys). */
export function attrPart(compositeKey: string, value?: string): Uint8Array {
  return value === undefined
    ? cat(enc.encode(compositeKey), ZERO)
    : cat(enc.encode(compositeKey), ZERO, enc.encode(value), ZERO);
}

/** Synchronous raw read (CommitStore.getRawSync): what makes read-modify-write counters possible. */
export type SyncRead = (key: Bytes) => Bytes | undefined;

interface Pending { key: Uint8Array; n: number }

/**
 * Committed counter values kept between batches, so values seen before (senders, recipients, amounts)
 * cost no database read. Valid only while the database is in the state `at` (the encoded marker the
 * batch that filled it wrote): a batch that was not committed leaves a different marker, and the next
 * batch starts from an empty cache. Values counted once (unique per tx: signatures, acc_seq) are not
 * kept; the cache is cleared when it exceeds `max` entries.
 */
export class CounterCache {
  at: string | undefined;
  readonly pairs = new Map<string, Map<string, number>>();
  readonly tags = new Map<string, number>();
  size = 0;
  constructor(readonly max = 300_000) {}
  clear(): void { this.pairs.clear(); this.tags.clear(); this.size = 0; this.at = undefined; }
}

/**
 * Per-key counters for one batch: the first use of a key reads its committed value (from the cache or
 * the database), later uses in the same batch (several txs of a block sharing a value) count in memory;
 * `ops()` emits one put per key.
 */
export class CounterBatch {
  private readonly pairs = new Map<string, Map<string, Pending>>();
  private readonly tags = new Map<string, Pending>();
  constructor(private readonly read: SyncRead, private readonly cache?: CounterCache) {}

  private load(key: Uint8Array, cached: number | undefined): Pending {
    if (cached !== undefined) return { key, n: cached };
    const v = this.read(key);
    return { key, n: v && v.length >= 8 ? readBe64(v) : 0 };
  }

  /** The current count of (tag, value) (the rank of the entry being added), then increments it. */
  nextPair(tag: string, value: string, key: (tag: string, value: string) => Uint8Array): number {
    let byValue = this.pairs.get(tag);
    if (!byValue) { byValue = new Map(); this.pairs.set(tag, byValue); }
    let e = byValue.get(value);
    if (!e) { e = this.load(key(tag, value), this.cache?.pairs.get(tag)?.get(value)); byValue.set(value, e); }
    return e.n++;
  }

  /** Increments the count of `tag`; returns the previous count. */
  nextTag(tag: string, key: (tag: string) => Uint8Array): number {
    let e = this.tags.get(tag);
    if (!e) { e = this.load(key(tag), this.cache?.tags.get(tag)); this.tags.set(tag, e); }
    return e.n++;
  }

  /** One put per counter; records the new values in the cache as of database state `at`. */
  ops(at?: string): { type: 'put'; key: Uint8Array; value: Uint8Array }[] {
    const out: { type: 'put'; key: Uint8Array; value: Uint8Array }[] = [];
    const c = this.cache;
    if (c && c.size > c.max) c.clear();
    for (const [tag, byValue] of this.pairs) {
      let cached = c?.pairs.get(tag);
      if (c && !cached) { cached = new Map(); c.pairs.set(tag, cached); }
      for (const [value, e] of byValue) {
        out.push({ type: 'put', key: e.key, value: be64(e.n) });
        if (cached && e.n > 1) {
          if (!cached.has(value)) c!.size++;
          cached.set(value, e.n);
        }
      }
    }
    for (const [tag, e] of this.tags) {
      out.push({ type: 'put', key: e.key, value: be64(e.n) });
      c?.tags.set(tag, e.n);
    }
    if (c) c.at = at;
    return out;
  }
}

/**
 * The state of a ranked index (one per namespace): where ranking started, the last position indexed,
 * the number of entries of the order stream, and whether every write so far kept ranks consistent
 * (positions strictly increasing, written with counters). Layout: `valid(1) || total(8) ||
 * posLen(1) || first(posLen) || last(posLen)` (last is all zero before the first entry).
 */
export interface Marker {
  valid: boolean;
  total: number;
  first: Uint8Array;
  last: Uint8Array | undefined;
}

export function encodeMarker(m: Marker, posLen: number): Uint8Array {
  return cat(Uint8Array.of(m.valid ? 1 : 0), be64(m.total), Uint8Array.of(posLen), m.first, m.last ?? new Uint8Array(posLen));
}

/** An invalid marker: written by an indexer that cannot keep counters (no `getRawSync`). */
export function invalidMarker(posLen: number): Uint8Array {
  return encodeMarker({ valid: false, total: 0, first: new Uint8Array(posLen), last: undefined }, posLen);
}

export function decodeMarker(v: Uint8Array | undefined): Marker | undefined {
  if (!v || v.length < 10) return undefined;
  const posLen = v[9]!;
  if (v.length !== 10 + 2 * posLen) return { valid: false, total: 0, first: new Uint8Array(), last: undefined };
  const total = readBe64(v, 1);
  return {
    valid: v[0] === 1,
    total,
    first: v.slice(10, 10 + posLen),
    last: total > 0 ? v.slice(10 + posLen) : undefined,
  };
}
