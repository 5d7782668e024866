import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { IavlTree, type IavlDb } from '../src/index.js';

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const u = (s: string): Uint8Array => new TextEncoder().encode(s);

export interface TempDb {
  dir: string;
  db: IavlDb;
  reopen(): Promise<IavlDb>;
  remove(): Promise<void>;
}

export async function tempDb(name = 'iavl'): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const t: TempDb = {
    dir,
    db: new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' }),
    async reopen() {
      await t.db.close();
      t.db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
      await t.db.open();
      return t.db;
    },
    async remove() {
      await t.db.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await t.db.open();
  return t;
}

export async function openTree(db: IavlDb, cacheSize = 10_000, prefix = u('s/k:acc/')): Promise<IavlTree> {
  return IavlTree.open({ db, prefix, cacheSize });
}

/** A small seeded PRNG (mulberry32) for the model tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randBytes(r: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

/** The seed of a randomized test: IAVL_SEED from the environment, or a fresh one (printed). */
export function testSeed(label: string): number {
  const env = process.env.IAVL_SEED;
  const seed = env !== undefined ? Number(env) : Math.floor(Math.random() * 2 ** 31);
  console.log(`      [${label}] seed ${seed} (rerun with IAVL_SEED=${seed})`);
  return seed;
}
