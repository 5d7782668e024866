/** Test helpers: an in-memory store accessor, bytes helpers and a seeded PRNG. */
import { MemKVStore, prefixStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import type { StoreAccessor } from '../src/index.js';

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
export const u = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

/** A fresh memory store and a `ctx` whose module stores are `<storeKey>/` prefixes of it (like Context). */
export function memCtx(): { mem: MemKVStore; ctx: StoreAccessor } {
  const mem = new MemKVStore();
  return { mem, ctx: { kv: (k: string): KVStore => prefixStore(mem, utf8(k + '/')) } };
}

/** Every raw entry of the memory store as [hex key, hex value]. */
export function dump(mem: KVStore): [string, string][] {
  return [...mem.iterator()].map(([k, v]) => [hex(k), hex(v)]);
}

/** Bytewise comparison, independent of the code under test. */
export function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export const sign = (x: number | bigint): number => (x > 0 ? 1 : x < 0 ? -1 : 0);

/** A deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of the randomized tests: fixed, overridable with COLLECTIONS_SEED, shown in test titles. */
export const SEED = Number(process.env.COLLECTIONS_SEED ?? 0x5eed);

export const randInt = (r: () => number, n: number): number => Math.floor(r() * n);

export function randBytes(r: () => number, maxLen: number, alphabet = 256): Uint8Array {
  const n = randInt(r, maxLen + 1);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = randInt(r, alphabet);
  return out;
}

/** Random 64-bit unsigned value, biased toward edges and small numbers. */
export function randU64(r: () => number): bigint {
  switch (randInt(r, 6)) {
    case 0:
      return BigInt(randInt(r, 4));
    case 1:
      return (1n << 64n) - 1n - BigInt(randInt(r, 4));
    case 2:
      return BigInt(randInt(r, 1 << 30));
    default: {
      const hi = BigInt(randInt(r, 2 ** 32));
      const lo = BigInt(randInt(r, 2 ** 32));
      return (hi << 32n) | lo;
    }
  }
}

/** Random string mixing ASCII, NUL-free multi-byte characters and astral (surrogate pair) characters. */
export function randString(r: () => number, maxLen: number, allowNul = false): string {
  const pool = ['a', 'b', 'z', 'A', '0', ' ', '~', '\u007f', 'é', 'ß', '\u0800', '\uffff', '\ud7ff', '\ue000', '😀', '\u{10ffff}'];
  if (allowNul) pool.push('\u0000');
  const n = randInt(r, maxLen + 1);
  let s = '';
  for (let i = 0; i < n; i++) s += pool[randInt(r, pool.length)]!;
  return s;
}

/** Code point order (= UTF-8 byte order), unlike JS `<` on UTF-16 code units. */
export function cmpCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
