/** Test helpers: byte builders, a reference sorted-map model, a seeded PRNG and reference hashing. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bytes, Change } from '../src/types.js';

/** Bytes from a list of numbers. */
export const u = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
/** UTF-8 bytes of a string. */
export const s = (str: string): Uint8Array => new TextEncoder().encode(str);
/** Hex of bytes (for readable assertions). */
export const hex = (b: Bytes): string => Buffer.from(b).toString('hex');

/** Compare bytes bytewise (independent of the implementation under test). */
export function cmp(a: Bytes, b: Bytes): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

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

/** A random integer in [0, n). */
export const randInt = (r: () => number, n: number): number => Math.floor(r() * n);

/** Random bytes of length in [0, maxLen], biased to 0x00 / 0xFF / small values to hit edge cases. */
export function randBytes(r: () => number, maxLen: number): Uint8Array {
  const n = randInt(r, maxLen + 1);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const x = r();
    out[i] = x < 0.25 ? 0 : x < 0.45 ? 0xff : x < 0.7 ? randInt(r, 3) : randInt(r, 256);
  }
  return out;
}

/** Reference model: a sorted map keyed by hex, compared bytewise. */
export class Model {
  readonly m = new Map<string, [Bytes, Bytes]>();
  set(k: Bytes, v: Bytes): void {
    this.m.set(hex(k), [k.slice(), v]);
  }
  delete(k: Bytes): void {
    this.m.delete(hex(k));
  }
  get(k: Bytes): Bytes | undefined {
    return this.m.get(hex(k))?.[1];
  }
  clone(): Model {
    const c = new Model();
    for (const [k, e] of this.m) c.m.set(k, e);
    return c;
  }
  range(start?: Bytes, end?: Bytes, reverse = false): [Bytes, Bytes][] {
    const out = [...this.m.values()].filter(
      ([k]) => (start === undefined || cmp(k, start) >= 0) && (end === undefined || cmp(k, end) < 0),
    );
    out.sort((a, b) => cmp(a[0], b[0]));
    if (reverse) out.reverse();
    return out;
  }
}

/** Entries as [hexKey, hexValue] pairs, for deep-equality assertions. */
export function hexEntries(entries: Iterable<[Bytes, Bytes]>): [string, string][] {
  return [...entries].map(([k, v]) => [hex(k), hex(v)]);
}

/** A fresh temporary directory and its remover. */
export function tempDir(tag: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chain-store-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const sha = (...parts: Bytes[]): Buffer => {
  const h = createHash('sha256');
  h.update(Buffer.concat(parts.map((p) => Buffer.from(p))));
  return h.digest();
};

/** Reference uvarint. */
function refUvarint(n: number): Bytes {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Uint8Array.from(out);
}

/** Reference leaf hash, written independently from src/apphash.ts. */
export function refLeaf(c: Change): Buffer {
  const tail = c.value === undefined ? u(0) : Buffer.concat([u(1), c.value]);
  return sha(u(0), refUvarint(c.key.length), c.key, tail);
}

/** Reference RFC 6962 Merkle tree hash (recursive definition). */
export function refMth(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(u(1), refMth(leaves.slice(0, k)), refMth(leaves.slice(k)));
}

/** Reference app hash step: changes are sorted here; empty changeset keeps the hash. */
export function refNextAppHash(prev: Bytes, changes: Change[]): Uint8Array {
  if (changes.length === 0) return Uint8Array.from(prev);
  const sorted = changes.slice().sort((a, b) => cmp(a.key, b.key));
  return Uint8Array.from(sha(u(2), prev, refMth(sorted.map(refLeaf))));
}
