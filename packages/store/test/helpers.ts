/** Test helpers: byte builders, a reference sorted-map model, a seeded PRNG and reference hashing. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IavlTree, multistoreRoot } from '@chain/iavl';
import { ClassicLevel } from 'classic-level';
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

/** A random non-empty key of length in [1, maxLen] (state keys are never empty, as in the SDK's stores). */
export function randKey(r: () => number, maxLen: number): Uint8Array {
  const k = randBytes(r, maxLen - 1);
  const out = new Uint8Array(k.length + 1);
  out[0] = randInt(r, 3);
  out.set(k, 1);
  return out;
}

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

/**
 * Reference app hash of a single-store CommitStore (`singleStore: 'test'`): an independent IAVL tree (@chain/iavl,
 * checked against the Go IAVL vectors) in its own database, fed the same blocks, and the SDK's multistore root of it.
 * A block before the store's first write has no store, so the empty hash.
 */
export class RefAppHash {
  private tree: IavlTree | undefined;
  private constructor(private readonly db: ClassicLevel<Bytes, Bytes>, private readonly dir: { remove: () => void }) {}

  static async open(): Promise<RefAppHash> {
    const dir = tempDir('ref');
    const db = new ClassicLevel<Bytes, Bytes>(dir.dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    return new RefAppHash(db, dir);
  }

  /** The app hash after block `height` with these changes (any order). */
  async next(height: number, changes: readonly Change[]): Promise<Uint8Array> {
    if (this.tree === undefined) {
      if (changes.length === 0) return new Uint8Array(0);
      this.tree = await IavlTree.open({ db: this.db, prefix: u(0x74), initialVersion: height });
    }
    for (const c of changes.slice().sort((a, b) => cmp(a.key, b.key))) {
      if (c.value === undefined) this.tree.remove(c.key);
      else this.tree.set(c.key, c.value);
    }
    const { rootHash } = await this.tree.saveVersion({ sync: false });
    return multistoreRoot([{ name: 'test', hash: rootHash }]);
  }

  async close(): Promise<void> {
    await this.db.close();
    this.dir.remove();
  }
}
