/**
 * IAVL benchmark: node --import tsx --conditions=source packages/iavl/bench.ts [keys=200000] [cacheNodes=300000]
 * Builds a tree of `keys` 32-byte keys with 100-byte values in versions of 10k inserts, then 20 versions of 2k
 * random updates + 500 inserts; prints changed keys/s through saveVersion (set + hash + synced batch write), warm
 * reads/s, and the database size.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { IavlTree } from './src/index.js';

const N = Number(process.argv[2] ?? 200_000);
const CACHE = Number(process.argv[3] ?? 300_000);
const dir = mkdtempSync(join(tmpdir(), 'iavl-bench-'));
const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
const dirSize = (d: string): number => readdirSync(d).reduce((s, f) => s + statSync(join(d, f)).size, 0);
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const tree = await IavlTree.open({ db, prefix: Uint8Array.of(0x20, 0x01), cacheSize: CACHE });
  const keys: Uint8Array[] = [];
  const value = (): Uint8Array => randomBytes(100);

  let t0 = process.hrtime.bigint();
  const buildRates: number[] = [];
  for (let done = 0; done < N; ) {
    const n = Math.min(10_000, N - done);
    const tv = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      const k = randomBytes(32);
      keys.push(k);
      tree.set(k, value());
    }
    await tree.saveVersion();
    buildRates.push(n / (ms(tv) / 1000));
    done += n;
  }
  const buildMs = ms(t0);
  console.log(`build: ${N} keys in ${buildRates.length} versions of 10k: ${(buildMs / 1000).toFixed(1)} s, ` +
    `${Math.round(N / (buildMs / 1000))} keys/s (median version ${Math.round(med(buildRates))}/s); height ${tree.height}`);

  // 20 versions of 2k random updates + 500 inserts
  const rates: number[] = [];
  const setRates: number[] = [];
  const saveMs: number[] = [];
  const reads0 = tree.dbReads;
  t0 = process.hrtime.bigint();
  for (let v = 0; v < 20; v++) {
    const tv = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) tree.set(keys[Math.floor(Math.random() * keys.length)]!, value());
    for (let i = 0; i < 500; i++) {
      const k = randomBytes(32);
      keys.push(k);
      tree.set(k, value());
    }
    const setMs = ms(tv);
    const ts = process.hrtime.bigint();
    await tree.saveVersion();
    saveMs.push(ms(ts));
    setRates.push(2500 / (setMs / 1000));
    rates.push(2500 / (ms(tv) / 1000));
  }
  const updMs = ms(t0);
  console.log(`updates: 20 versions x (2000 updates + 500 inserts): ${Math.round(50_000 / (updMs / 1000))} changed keys/s ` +
    `end to end (median version ${Math.round(med(rates))}/s; set alone ${Math.round(med(setRates))}/s; ` +
    `median saveVersion ${med(saveMs).toFixed(1)} ms incl. synced batch); db node reads ${tree.dbReads - reads0}`);

  // warm reads
  for (let i = 0; i < 50_000; i++) tree.get(keys[Math.floor(Math.random() * keys.length)]!);
  const R = 200_000;
  const readKeys = Array.from({ length: R }, () => keys[Math.floor(Math.random() * keys.length)]!);
  const r0 = tree.dbReads;
  t0 = process.hrtime.bigint();
  let found = 0;
  for (const k of readKeys) if (tree.get(k) !== undefined) found++;
  const readMs = ms(t0);
  console.log(`reads (warm cache of ${CACHE} nodes, ${tree.cacheSize} held): ${Math.round(R / (readMs / 1000))} gets/s, ` +
    `${found}/${R} found, db reads ${tree.dbReads - r0}`);

  // proofs
  t0 = process.hrtime.bigint();
  for (let i = 0; i < 10_000; i++) tree.getProof(readKeys[i]!);
  console.log(`proofs: ${Math.round(10_000 / (ms(t0) / 1000))} existence proofs/s`);

  // cold-ish reads: a fresh tree object over the same db (empty cache)
  const cold = await IavlTree.open({ db, prefix: Uint8Array.of(0x20, 0x01), cacheSize: CACHE });
  t0 = process.hrtime.bigint();
  for (let i = 0; i < 20_000; i++) cold.get(readKeys[i]!);
  console.log(`reads (reopened, cache filling): ${Math.round(20_000 / (ms(t0) / 1000))} gets/s, db reads ${cold.dbReads}`);

  await db.close();
  console.log(`db size: ${(dirSize(dir) / 1e6).toFixed(1)} MB for ${tree.size} keys, ${tree.version} versions (no pruning)`);
} finally {
  await db.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
