/**
 * IAVL benchmark:
 *   node --import tsx --conditions=source packages/iavl/bench.ts [keys=1000000] [cacheNodes=3000000] [smallCacheNodes=300000]
 * Builds a tree of `keys` 32-byte keys with 100-byte values in versions of 50k inserts, then, for 2k, 6k and 20k
 * changed keys per version (80% updates of random existing keys, 20% inserts), measures `set` and `saveVersion`
 * (hash + encode + one synced LevelDB batch); then warm gets, existence proofs; then reopens the same database with
 * a node cache smaller than the tree and repeats. Prints the database size and RSS.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { IavlTree } from './src/index.js';

const N = Number(process.argv[2] ?? 1_000_000);
const CACHE = Number(process.argv[3] ?? 3_000_000);
const SMALL = Number(process.argv[4] ?? 300_000);
const BUILD_STEP = 50_000;
const dir = mkdtempSync(join(tmpdir(), 'iavl-bench-'));
const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
const dirSize = (d: string): number => readdirSync(d).reduce((s, f) => s + statSync(join(d, f)).size, 0);
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (b: number): string => `${Math.round(b / 1e6)} MB`;
const rss = (): string => `rss ${mb(process.memoryUsage().rss)} (max ${mb(process.resourceUsage().maxRSS * 1024)})`;

// Values: 100-byte windows of a random pool (the tree copies them).
const pool = randomBytes(1 << 20);
const value = (): Uint8Array => {
  const o = Math.floor(Math.random() * (pool.length - 100));
  return pool.subarray(o, o + 100);
};
const keys: Uint8Array[] = [];
const pick = (): Uint8Array => keys[Math.floor(Math.random() * keys.length)]!;

function changes(tree: IavlTree, n: number): void {
  const inserts = Math.floor(n / 5);
  for (let i = 0; i < n - inserts; i++) tree.set(pick(), value());
  for (let i = 0; i < inserts; i++) {
    const k = randomBytes(32);
    keys.push(k);
    tree.set(k, value());
  }
}

async function commitPhase(tree: IavlTree, label: string): Promise<void> {
  for (const [per, versions] of [[2_000, 10], [6_000, 8], [20_000, 4]] as const) {
    const save: number[] = [];
    const saveCpu: number[] = [];
    const hashMs: number[] = [];
    const encMs: number[] = [];
    const nodes: number[] = [];
    const sets: number[] = [];
    const e2e: number[] = [];
    const r0 = tree.dbReads;
    for (let v = 0; v < versions; v++) {
      const t0 = process.hrtime.bigint();
      changes(tree, per);
      const setMs = ms(t0);
      const ts = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      await tree.saveVersion();
      const c = process.cpuUsage(c0);
      save.push(ms(ts));
      saveCpu.push((c.user + c.system) / 1000);
      hashMs.push(tree.lastStage?.hashMs ?? 0);
      encMs.push(tree.lastStage?.encodeMs ?? 0);
      nodes.push(tree.lastStage?.nodes ?? 0);
      sets.push(setMs);
      e2e.push(ms(t0));
    }
    const s = med(save);
    console.log(`  [${label}] ${per} changes/version x ${versions}: saveVersion median ${s.toFixed(1)} ms ` +
      `(${Math.round(per / (s / 1000))} changed keys/s; cpu ${med(saveCpu).toFixed(1)} ms), set median ${med(sets).toFixed(1)} ms ` +
      `(${Math.round(per / (med(sets) / 1000))}/s), set+save ${Math.round(per / (med(e2e) / 1000))} keys/s; ` +
      `db reads ${tree.dbReads - r0}; per version ${med(nodes)} nodes written, hash ${med(hashMs).toFixed(1)} ms, ` +
      `encode+put ${med(encMs).toFixed(1)} ms`);
  }
}

function readPhase(tree: IavlTree, label: string): void {
  for (let i = 0; i < 50_000; i++) tree.get(pick());
  const R = 200_000;
  const readKeys = Array.from({ length: R }, pick);
  const r0 = tree.dbReads;
  let t0 = process.hrtime.bigint();
  let found = 0;
  for (const k of readKeys) if (tree.get(k) !== undefined) found++;
  const readMs = ms(t0);
  console.log(`  [${label}] gets: ${Math.round(R / (readMs / 1000))}/s (${found}/${R} found, ` +
    `${((tree.dbReads - r0) / R).toFixed(2)} db reads per get, cache holds ${tree.cacheSize})`);
  t0 = process.hrtime.bigint();
  for (let i = 0; i < 20_000; i++) tree.getProof(readKeys[i]!);
  console.log(`  [${label}] existence proofs: ${Math.round(20_000 / (ms(t0) / 1000))}/s`);
}

/** Build, then commit and read with the big cache (the tree is released afterwards). */
async function bigPhase(): Promise<void> {
  const tree = await IavlTree.open({ db, prefix: Uint8Array.of(0x20, 0x01), cacheSize: CACHE });
  const t0 = process.hrtime.bigint();
  const buildRates: number[] = [];
  for (let done = 0; done < N; ) {
    const n = Math.min(BUILD_STEP, N - done);
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
  console.log(`build: ${N} keys in ${buildRates.length} versions of ${BUILD_STEP}: ${(buildMs / 1000).toFixed(1)} s, ` +
    `${Math.round(N / (buildMs / 1000))} keys/s (median version ${Math.round(med(buildRates))}/s); ` +
    `height ${tree.height}; ${rss()}`);

  console.log(`cache ${CACHE} nodes (the tree has ${2 * tree.size - 1}):`);
  await commitPhase(tree, 'big cache');
  readPhase(tree, 'big cache');
  console.log(`  ${rss()}`);
}

try {
  await bigPhase();

  const small = await IavlTree.open({ db, prefix: Uint8Array.of(0x20, 0x01), cacheSize: SMALL });
  console.log(`reopened with cache ${SMALL} nodes (tree has ${2 * small.size - 1}):`);
  const tc = process.hrtime.bigint();
  for (let i = 0; i < 20_000; i++) small.get(pick());
  console.log(`  [small cache] gets right after reopen: ${Math.round(20_000 / (ms(tc) / 1000))}/s`);
  await commitPhase(small, 'small cache');
  readPhase(small, 'small cache');

  await db.close();
  console.log(`db size: ${mb(dirSize(dir))} for ${small.size} keys, ${small.version} versions (no pruning); ${rss()}`);
} finally {
  await db.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
