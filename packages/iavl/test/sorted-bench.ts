/**
 * Sorted build benchmark (not a mocha test):
 *   cd packages/iavl && node --import tsx --conditions=source test/sorted-bench.ts [entries=1000000] [batchMB=32]
 * Builds `entries` sorted random 32-byte keys with 100-byte values (1) hash only (null sink), (2) into a sink that
 * counts bytes, (3) into classic-level chained batches written every `batchMB` of records (temp dir), then
 * commits and checks a few reads.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { type BatchSink, IavlTree } from '../src/index.js';

const N = Number(process.argv[2] ?? 1_000_000);
const BATCH = Number(process.argv[3] ?? 32) * 1024 * 1024;
const mb = (b: number): string => `${Math.round(b / 1e6)} MB`;
const rss = (): string => `rss ${mb(process.memoryUsage().rss)}, heap ${mb(process.memoryUsage().heapUsed)}`;

// Sorted distinct random keys in one buffer (views); values are 100-byte windows of a random pool.
const keyBuf = randomBytes(32 * N);
const keys: Uint8Array[] = [];
for (let i = 0; i < N; i++) keys.push(keyBuf.subarray(32 * i, 32 * i + 32));
keys.sort(Buffer.compare);
const pool = randomBytes(1 << 20);
const value = (i: number): Uint8Array => {
  const off = (i * 7919) % (pool.length - 100);
  return pool.subarray(off, off + 100);
};

const dir = mkdtempSync(join(tmpdir(), 'iavl-sorted-bench-'));
const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
await db.open();

async function run(label: string, prefix: string, mode: 'null' | 'count' | 'db'): Promise<IavlTree> {
  const tree = await IavlTree.open({ db, prefix: new TextEncoder().encode(prefix) });
  let bytes = 0;
  const counter: BatchSink = {
    put: (k: Uint8Array, v: Uint8Array) => {
      bytes += k.length + v.length;
    },
    del: () => undefined,
  };
  let batch = db.batch();
  let writeMs = 0;
  let batches = 0;
  const t0 = performance.now();
  const b = tree.beginSorted(mode === 'null' ? null : mode === 'count' ? counter : batch);
  for (let i = 0; i < N; i++) {
    b.add(keys[i]!, value(i));
    if (mode === 'db' && b.pendingBytes >= BATCH) {
      const full = batch;
      batch = db.batch();
      b.setSink(batch);
      const w0 = performance.now();
      await full.write({ sync: false });
      writeMs += performance.now() - w0;
      batches++;
    }
  }
  const saved = b.finish();
  if (mode === 'db') {
    b.putRoot(batch);
    const w0 = performance.now();
    await batch.write({ sync: true });
    writeMs += performance.now() - w0;
    batches++;
    tree.commitStaged();
  } else tree.discardStaged();
  const ms = performance.now() - t0;
  console.log(
    `${label}: ${N} entries in ${(ms / 1000).toFixed(2)} s = ${Math.round(N / (ms / 1000))} entries/s` +
      (mode === 'count' ? `, ${mb(bytes)} of records` : '') +
      (mode === 'db' ? `, ${batches} batches, ${(writeMs / 1000).toFixed(2)} s in batch.write` : '') +
      `; root ${Buffer.from(saved.rootHash).toString('hex').slice(0, 16)}…; ${rss()}`,
  );
  return tree;
}

await run('hash only (null sink)', 'h/', 'null');
await run('count sink', 'c/', 'count');
const tree = await run('classic-level batches', 'd/', 'db');
for (let i = 0; i < N; i += Math.floor(N / 10)) {
  const v = tree.get(keys[i]!);
  if (v === undefined || Buffer.compare(v, value(i)) !== 0) throw new Error(`bad read ${i}`);
}
await db.close();
rmSync(dir, { recursive: true, force: true });
