/**
 * Block benchmark, the pattern of `@chain/store`'s bench/commit.ts without the store around it: two trees in one
 * database (the state split between them), blocks of `BLOCK` sorted changes (70% updates of existing keys, 25%
 * inserts, 5% removes) applied with `set`/`remove`, then `stageVersion(batch)` (prepare), then
 * `batch.write({ sync: true })` + `commitStaged()` (commit).
 *
 *   cd packages/iavl && STATE_KEYS=200000 npx tsx --conditions=source bench/block.ts
 *
 * Env: STATE_KEYS (default 200,000), BLOCK (10,000), BLOCKS (8), CACHE (node cache per tree, 100,000), SEED;
 * PROFILE=file.cpuprofile writes a CPU profile of the measured blocks only (not the load).
 * Keys are 22 bytes (0x02 || 21 random bytes), values 40 bytes, as in the store bench.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { ClassicLevel } from 'classic-level';
import { IavlTree } from '../src/index.js';

const STATE_KEYS = Number(process.env.STATE_KEYS ?? 200_000);
const BLOCK = Number(process.env.BLOCK ?? 10_000);
const BLOCKS = Number(process.env.BLOCKS ?? 8);
const CACHE = Number(process.env.CACHE ?? 100_000);
const LOAD_BLOCK = 25_000;

// A seeded PRNG (mulberry32): runs are comparable with each other.
let seed = Number(process.env.SEED ?? 12345) >>> 0;
const rand = (): number => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const bytes = (n: number): Uint8Array => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (rand() * 256) | 0;
  return b;
};
const newKey = (): Uint8Array => {
  const k = bytes(22);
  k[0] = 0x02;
  return k;
};
const cmp = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

interface Change {
  tree: number;
  key: Uint8Array;
  value: Uint8Array | undefined;
}

const dir = mkdtempSync(join(tmpdir(), 'iavl-block-bench-'));
const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
try {
  await db.open();
  const trees = [
    await IavlTree.open({ db, prefix: Uint8Array.of(0x10, 0x61, 0x2f), cacheSize: CACHE }),
    await IavlTree.open({ db, prefix: Uint8Array.of(0x10, 0x62, 0x2f), cacheSize: CACHE }),
  ];
  const keys: Uint8Array[][] = [[], []];
  const apply = async (cs: Change[]): Promise<{ setMs: number; writeMs: number; commitMs: number; cpu: number; prepare: number; total: number; nodes: number; hashMs: number; encodeMs: number; reads: number }> => {
    // the store sorts its changes (store by store, key order)
    cs.sort((a, b) => a.tree - b.tree || cmp(a.key, b.key));
    const r0 = trees[0]!.dbReads + trees[1]!.dbReads;
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const batch = db.batch();
    for (const c of cs) {
      const t = trees[c.tree]!;
      if (c.value === undefined) t.remove(c.key);
      else t.set(c.key, c.value);
    }
    const setMs = ms(t0);
    let nodes = 0;
    let hashMs = 0;
    let encodeMs = 0;
    for (const t of trees) {
      t.stageVersion(batch);
      nodes += t.lastStage.nodes;
      hashMs += t.lastStage.hashMs;
      encodeMs += t.lastStage.encodeMs;
    }
    const prepare = ms(t0);
    await batch.write({ sync: true });
    const written = ms(t0);
    for (const t of trees) t.commitStaged();
    const total = ms(t0);
    const cu = process.cpuUsage(c0);
    await batch.close();
    return { setMs, writeMs: written - prepare, commitMs: total - written, cpu: (cu.user + cu.system) / 1000, prepare, total, nodes, hashMs, encodeMs, reads: trees[0]!.dbReads + trees[1]!.dbReads - r0 };
  };
  let t0 = process.hrtime.bigint();
  for (let h = 0; h < STATE_KEYS / LOAD_BLOCK; h++) {
    const cs: Change[] = [];
    for (let i = 0; i < LOAD_BLOCK; i++) {
      const tree = rand() < 0.5 ? 0 : 1;
      const key = newKey();
      keys[tree]!.push(key);
      cs.push({ tree, key, value: bytes(40) });
    }
    await apply(cs);
  }
  console.log(`load: ${STATE_KEYS} keys in ${(ms(t0) / 1000).toFixed(1)} s`);
  const res: Awaited<ReturnType<typeof apply>>[] = [];
  const session = process.env.PROFILE !== undefined ? new Session() : undefined;
  if (session !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let b = 0; b < BLOCKS; b++) {
    const seen = new Set<string>();
    const cs: Change[] = [];
    while (cs.length < BLOCK) {
      const r = rand();
      const tree = rand() < 0.5 ? 0 : 1;
      const ks = keys[tree]!;
      let key: Uint8Array;
      let value: Uint8Array | undefined = bytes(40);
      if (r < 0.7) key = ks[(rand() * ks.length) | 0]!;
      else if (r < 0.95) {
        key = newKey();
        ks.push(key);
      } else {
        key = ks[(rand() * ks.length) | 0]!;
        value = undefined;
      }
      const id = `${tree}:${Buffer.from(key).toString('hex')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      cs.push({ tree, key, value });
    }
    res.push(await apply(cs));
  }
  if (session !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
    session.disconnect();
  }
  const mean = (f: (r: (typeof res)[number]) => number): string => (res.reduce((s, r) => s + f(r), 0) / res.length).toFixed(1);
  const median = (f: (r: (typeof res)[number]) => number): string => {
    const xs = res.map(f).sort((a, b) => a - b);
    return xs[xs.length >> 1]!.toFixed(1);
  };
  console.log(
    `block of ${BLOCK} changes over ${STATE_KEYS} keys (${BLOCKS} blocks): prepare mean ${mean((r) => r.prepare)} ms (median ${median((r) => r.prepare)}), ` +
      `prepare+commit mean ${mean((r) => r.total)} ms (median ${median((r) => r.total)}, cpu ${mean((r) => r.cpu)} ms); per block: nodes ${mean((r) => r.nodes)}, ` +
      `set/remove ${mean((r) => r.setMs)} ms, stage ${mean((r) => r.prepare - r.setMs)} ms (hash ${mean((r) => r.hashMs)}, encode ${mean((r) => r.encodeMs)}), write ${mean((r) => r.writeMs)} ms, commitStaged ${mean((r) => r.commitMs)} ms, db reads ${mean((r) => r.reads)}`,
  );
  console.log(`roots: ${trees.map((t) => Buffer.from(t.rootHash).toString('hex').slice(0, 16)).join(' ')}`);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
