/**
 * Micro benchmark of the store: branch+set throughput and the latency of 10k-change blocks over a 1M-key
 * state (the app hash at prepare, as FinalizeBlock computes it, then the commit's write), in two stores.
 * Run: npx tsx --conditions=source bench/commit.ts   (STATE_KEYS=200000 for a smaller state)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore, MemKVStore, branch, type Change } from '../src/index.js';

const STATE_KEYS = Number(process.env.STATE_KEYS ?? 1_000_000);
const LOAD_BLOCK = 25_000;
const BLOCK = 10_000;
const BLOCKS = 8;

const STORES = [new TextEncoder().encode('acc/'), new TextEncoder().encode('bank/')];
const key = (): Uint8Array => {
  // a store prefix, then e.g. a module prefix byte followed by a 20-byte address
  const p = STORES[Math.random() < 0.5 ? 0 : 1]!;
  const k = new Uint8Array(p.length + 21);
  k.set(p, 0);
  k.set(randomBytes(21), p.length);
  k[p.length] = 0x02;
  return k;
};
const value = (): Uint8Array => new Uint8Array(randomBytes(40));
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

function benchBranch(): void {
  const base = new MemKVStore();
  const keys = Array.from({ length: 100_000 }, key);
  for (const k of keys) base.set(k, value());
  const v = value();
  // Raw branch + set.
  let t0 = process.hrtime.bigint();
  const N = 1_000_000;
  let b = branch(base);
  for (let i = 0; i < N; i++) {
    if (i % 1000 === 0) b = branch(base);
    b.set(keys[i % keys.length]!, v);
  }
  console.log(`branch.set:                   ${fmt(N / (ms(t0) / 1000))} sets/s`);
  // Tx pattern: tx = branch(block); 5 x (get + set); tx.write().
  const block = branch(base);
  const TX = 200_000;
  t0 = process.hrtime.bigint();
  for (let t = 0; t < TX; t++) {
    const tx = branch(block);
    for (let j = 0; j < 5; j++) {
      const k = keys[(t * 5 + j) % keys.length]!;
      tx.get(k);
      tx.set(k, v);
    }
    tx.write();
  }
  const txMs = ms(t0);
  console.log(`tx (branch, 5 get+set, write): ${fmt(TX / (txMs / 1000))} tx/s over a block buffer of ${fmt(block.changes().length)} keys`);
  t0 = process.hrtime.bigint();
  const changes = block.changes();
  console.log(`block.changes():               ${ms(t0).toFixed(1)} ms for ${fmt(changes.length)} changes`);
}

async function benchCommit(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-store-bench-'));
  try {
    let store = await CommitStore.open(dir, { iavlCacheSize: Number(process.env.CACHE ?? 100_000) });
    const keys: Uint8Array[] = [];
    let t0 = process.hrtime.bigint();
    for (let h = 1; h <= STATE_KEYS / LOAD_BLOCK; h++) {
      const cs: Change[] = [];
      for (let i = 0; i < LOAD_BLOCK; i++) {
        const k = key();
        keys.push(k);
        cs.push({ key: k, value: value() });
      }
      await store.commit(h, cs);
    }
    console.log(`load:                          ${fmt(STATE_KEYS)} keys in ${(ms(t0) / 1000).toFixed(1)} s (blocks of ${fmt(LOAD_BLOCK)})`);
    const times: number[] = [];
    const prepares: number[] = [];
    for (let n = 0; n < BLOCKS; n++) {
      const b = branch(store.state);
      for (let i = 0; i < BLOCK; i++) {
        const r = Math.random();
        if (r < 0.7) b.set(keys[Math.floor(Math.random() * keys.length)]!, value()); // update
        else if (r < 0.95) b.set(key(), value()); // insert
        else b.delete(keys[Math.floor(Math.random() * keys.length)]!); // delete
      }
      const cs = b.changes();
      t0 = process.hrtime.bigint();
      await store.prepare(store.lastHeight + 1, cs);
      prepares.push(ms(t0));
      await store.commit(store.lastHeight + 1, cs);
      times.push(ms(t0));
    }
    const show = (what: string, xs: number[]): void => {
      xs.sort((a, b) => a - b);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      console.log(
        `${what} of ${fmt(BLOCK)} changes:`.padEnd(31) + `mean ${mean.toFixed(1)} ms, median ${xs[xs.length >> 1]!.toFixed(1)} ms, max ${xs[xs.length - 1]!.toFixed(1)} ms (${BLOCKS} blocks, state ~${fmt(STATE_KEYS)} keys)`,
      );
    };
    show('prepare (app hash)', prepares);
    show('prepare + commit', times);
    const height = store.lastHeight;
    await store.close();
    t0 = process.hrtime.bigint();
    store = await CommitStore.open(dir);
    console.log(`reopen (metadata and tree roots): ${(ms(t0) / 1000).toFixed(1)} s at height ${height}`);
    t0 = process.hrtime.bigint();
    await store.getAt(1, keys[5]!);
    console.log(`getAt(1, key):                 ${ms(t0).toFixed(2)} ms`);
    await store.close();
    console.log(`heap used:                     ${fmt(process.memoryUsage().heapUsed / 2 ** 20)} MiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const start = process.hrtime.bigint();
benchBranch();
await benchCommit();
console.log(`total:                         ${(ms(start) / 1000).toFixed(1)} s`);
