/**
 * The state a large InitChain moved out of memory before the first block (see `CommitStore.spillGenesis`). Each move
 * is a sorted run: its keys in memory (packed bytes, ~the key sizes, with whether each was written or deleted), its
 * values appended to a file of its own (sequential writes; no LevelDB, whose compactions of overlapping runs would
 * compete with everything else for the cores). One hash index over all moved keys gives each key's last move, so a
 * point read is an index probe and, for a written key, one `readSync` of its value (from the page cache). Iteration
 * merges the runs' keys and reads each value (a key written by one move and deleted by a later one is skipped).
 * `merged()` gives the whole moved state in key order, each run's file read sequentially (the first block builds the
 * trees and writes the flat copy from it). Nothing here reads or writes the flat copy, so the view stays the state
 * before the first block while that block is written.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '@chain/iavl';
import { compareBytes } from './keys.js';
import type { HashRunMessage } from './spill-hash-worker.js';
import type { Bytes, Change, KVStore, PackedChanges } from './types.js';

/**
 * Sorted keys packed into one buffer: key i is bytes[offs[i], offs[i + 1]), written (1) or deleted (0) by put[i].
 * `base`: the ordinal of its first key among all moved keys (the index numbers keys across runs).
 */
interface Run {
  readonly bytes: Uint8Array;
  readonly offs: Uint32Array;
  readonly put: Uint8Array;
  readonly n: number;
  readonly base: number;
  /** the value of key i is bytes [vals[i], vals[i + 1]) of the run's file (empty for a delete) */
  readonly vals: Float64Array;
  readonly fd: number;
  /** the leaf hashes of its entries, computed on the hash worker (see `addRun`) */
  leaf?: { readonly version: number; readonly path: string; readonly done: Promise<boolean>; ok?: boolean; fd?: number };
}

/** Where the first block's trees will have the moved entries as leaves: their version, and how keys map to tree keys. */
export interface LeafHashing {
  /** the first block's height (a leaf hash depends on its node's version) */
  readonly version: number;
  /** every key is a tree key as it is (a store opened with `singleStore`) */
  readonly single: boolean;
}

const HASH_SIZE = 32;
/** leaf hashes read at once by `merged` (per run) */
const HASH_BLOCK = 8192;
const HASH_WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './spill-hash-worker.ts' : './spill-hash-worker.js', import.meta.url).href;

/**
 * One open-addressing hash index over the keys of every run: per position, the ordinal + 1 of a key's last move (0
 * empty) and the key's hash, side by side (a probe reads one cache line). A key moved again points to its newest run.
 */
class KeyIndex {
  /** [ordinal + 1, hash] per position */
  private table = new Int32Array(2 << 16);
  private mask = (1 << 16) - 1;
  private size = 0;

  constructor(private readonly at: (ordinal: number) => { run: Run; i: number }) {}

  /** The position of the key bytes[start, end) (hash h): holding it or empty. */
  private find(bytes: Bytes, start: number, end: number, h: number): number {
    const t = this.table;
    let pos = h & this.mask;
    for (;;) {
      const slot = t[2 * pos]!;
      if (slot === 0) return pos;
      if (t[2 * pos + 1] === h) {
        const { run, i } = this.at(slot - 1);
        if (equalAt(run, i, bytes, start, end)) return pos;
      }
      pos = (pos + 1) & this.mask;
    }
  }

  /** Records key i of `run` (hash h), ordinal `ordinal`, as its last move. */
  setAt(run: Run, i: number, h: number, ordinal: number): void {
    if ((this.size + 1) * 3 > (this.mask + 1) * 2) this.grow();
    const pos = this.find(run.bytes, run.offs[i]!, run.offs[i + 1]!, h);
    const t = this.table;
    if (t[2 * pos] === 0) this.size++;
    t[2 * pos] = ordinal + 1;
    t[2 * pos + 1] = h;
  }

  /** The ordinal of the key's last move, or -1. */
  get(key: Bytes, h: number): number {
    return this.table[2 * this.find(key, 0, key.length, h)]! - 1;
  }

  private grow(): void {
    const old = this.table;
    const cap = (this.mask + 1) * 2;
    const t = new Int32Array(2 * cap);
    this.table = t;
    this.mask = cap - 1;
    for (let p = 0; p < old.length; p += 2) {
      const slot = old[p]!;
      if (slot === 0) continue;
      const h = old[p + 1]!;
      let pos = h & this.mask;
      while (t[2 * pos] !== 0) pos = (pos + 1) & this.mask;
      t[2 * pos] = slot;
      t[2 * pos + 1] = h;
    }
  }
}

/** FNV-1a of a key, mixed (a 32-bit hash for the runs' indexes). */
function hashOf(key: Bytes): number {
  return hashRange(key, 0, key.length);
}

/** hashOf(bytes[start, end)) */
function hashRange(bytes: Bytes, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** compareBytes(key i of a, key j of b). */
function compareRuns(a: Run, i: number, b: Run, j: number): number {
  const x = a.bytes;
  const y = b.bytes;
  const xs = a.offs[i]!;
  const xl = a.offs[i + 1]! - xs;
  const ys = b.offs[j]!;
  const yl = b.offs[j + 1]! - ys;
  const n = xl < yl ? xl : yl;
  for (let k = 0; k < n; k++) {
    const d = x[xs + k]! - y[ys + k]!;
    if (d !== 0) return d;
  }
  return xl - yl;
}

/** Whether key i of r equals bytes[start, end). */
function equalAt(r: Run, i: number, bytes: Bytes, start: number, end: number): boolean {
  const s = r.offs[i]!;
  const len = end - start;
  if (r.offs[i + 1]! - s !== len) return false;
  const b = r.bytes;
  for (let j = len - 1; j >= 0; j--) if (b[s + j] !== bytes[start + j]) return false;
  return true;
}

/** compareBytes(key i of r, key) without a view. */
function compareAt(r: Run, i: number, key: Bytes): number {
  const b = r.bytes;
  const start = r.offs[i]!;
  const len = r.offs[i + 1]! - start;
  const n = len < key.length ? len : key.length;
  for (let j = 0; j < n; j++) {
    const d = b[start + j]! - key[j]!;
    if (d !== 0) return d;
  }
  return len - key.length;
}

/** Sorted changes packed (see PackedChanges), as `SpilledState.addRun` takes them. */
export function packChanges(sorted: readonly Change[]): PackedChanges {
  const n = sorted.length;
  let size = 0;
  for (const c of sorted) size += c.key.length;
  const bytes = new Uint8Array(size);
  const offs = new Uint32Array(n + 1);
  const values = new Array<Bytes | undefined>(n);
  for (let i = 0; i < n; i++) {
    const c = sorted[i]!;
    bytes.set(c.key, offs[i]!);
    offs[i + 1] = offs[i]! + c.key.length;
    values[i] = c.value;
  }
  return { n, bytes, offs, values };
}

/** Bytes of the blocks `merged` copies its keys into. */
const KEY_BLOCK = 64 << 10;

/** What the moved state says of a key: written (WRITTEN), deleted or never moved (undefined). */
export const WRITTEN = 1;

function keyAt(r: Run, i: number): Bytes {
  return r.bytes.subarray(r.offs[i]!, r.offs[i + 1]!);
}

/** First index of `r` whose key is >= `key` (strictly > when `after`). */
function lowerBound(r: Run, key: Bytes, after: boolean): number {
  let lo = 0;
  let hi = r.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareAt(r, mid, key);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SpilledState implements KVStore {
  private readonly runs: Run[] = [];
  private closed = false;
  private readonly index = new KeyIndex((ordinal) => this.at(ordinal));

  /** entries moved (puts and deletes, over all moves) */
  moved = 0;
  /** computes the runs' leaf hashes on the other core while the import goes on (see `addRun`) */
  private hasher: Worker | undefined;
  private readonly hashing = new Map<number, (ok: boolean) => void>();
  /** entries `merged` gave with a leaf hash computed ahead (for tests and diagnostics) */
  hashedEntries = 0;

  /** `dir`: where the runs' value files go (created; removed by `close`) */
  constructor(private readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  /** Closes and removes the runs' files. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.hasher !== undefined) void this.hasher.terminate();
    for (const [, done] of this.hashing) done(false);
    this.hashing.clear();
    for (const r of this.runs) {
      closeSync(r.fd);
      if (r.leaf?.fd !== undefined) closeSync(r.leaf.fd);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Records the keys of one move (sorted ascending, unique). With `leaf`, the leaf hashes its written entries will
   * have in the first block's trees are computed on a worker thread meanwhile (a core the import leaves idle), into
   * a file next to the run's values: `merged(…, version)` gives them with the entries, and the trees' builds take
   * them instead of hashing those leaves again (`leafHashesReady` waits for them).
   */
  addRun(changes: PackedChanges, leaf?: LeafHashing): void {
    const { n, bytes, offs, values } = changes;
    if (n === 0) return;
    const put = new Uint8Array(n);
    const vals = new Float64Array(n + 1);
    const fd = openSync(join(this.dir, `run-${this.runs.length}`), 'w+');
    // (the run keeps the packed keys as they are)
    const run: Run = { bytes, offs, put, n, base: this.moved, vals, fd };
    // pushed first: the index may compare a key with one of this run added before it
    this.runs.push(run);
    // values are written in blocks of ~1 MB
    let block = Buffer.allocUnsafe(1 << 20);
    let used = 0;
    let filePos = 0;
    const flush = (): void => {
      let done = 0;
      while (done < used) done += writeSync(fd, block, done, used - done, filePos + done);
      filePos += used;
      used = 0;
    };
    let valPos = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      put[i] = v === undefined ? 0 : 1;
      if (v !== undefined) {
        if (used + v.length > block.length) {
          flush();
          if (v.length > block.length) block = Buffer.allocUnsafe(v.length);
        }
        block.set(v, used);
        used += v.length;
        valPos += v.length;
      }
      vals[i + 1] = valPos;
      this.index.setAt(run, i, hashRange(bytes, offs[i]!, offs[i + 1]!), run.base + i);
    }
    flush();
    this.moved += n;
    if (leaf !== undefined) this.hashRun(run, leaf);
  }

  /** Hands the run to the hash worker (started with the first run); its `leaf.done` says whether the file is whole. */
  private hashRun(run: Run, leaf: LeafHashing): void {
    const id = this.runs.length - 1;
    const path = join(this.dir, `run-${id}.leaf`);
    const done = new Promise<boolean>((resolve) => this.hashing.set(id, resolve));
    run.leaf = { version: leaf.version, path, done };
    if (this.hasher === undefined) {
      const w = moduleWorker(HASH_WORKER_URL, {});
      w.on('message', (m: { id: number; error?: string }) => {
        const r = this.hashing.get(m.id);
        this.hashing.delete(m.id);
        r?.(m.error === undefined);
      });
      // a failed worker only costs the hashing: every run not answered builds its leaves as before
      const fail = (): void => {
        for (const [, r] of this.hashing) r(false);
        this.hashing.clear();
      };
      w.on('error', fail);
      w.on('exit', fail);
      this.hasher = w;
    }
    const msg: HashRunMessage = {
      id, bytes: run.bytes, offs: run.offs, put: run.put, vals: run.vals, n: run.n,
      values: join(this.dir, `run-${id}`), out: path, version: leaf.version, single: leaf.single,
    };
    // (the arrays are copied to the worker: the run keeps its own)
    this.hasher.postMessage(msg);
  }

  /** Waits for the leaf hashes of every run handed to the worker (the runs whose hashing failed have none). */
  async leafHashesReady(): Promise<void> {
    await Promise.all(
      this.runs.map(async (r) => {
        if (r.leaf !== undefined && r.leaf.ok === undefined) r.leaf.ok = await r.leaf.done;
      }),
    );
    // the worker is not needed any more
    if (this.hashing.size === 0 && this.hasher !== undefined) {
      void this.hasher.terminate();
      this.hasher = undefined;
    }
  }

  /** WRITTEN if the last move of `key` wrote it; undefined if it deleted it or never moved it. No disk read. */
  lookup(key: Bytes): number | undefined {
    const g = this.index.get(key, hashOf(key));
    if (g < 0) return undefined;
    const { run, i } = this.at(g);
    return run.put[i] === 1 ? WRITTEN : undefined;
  }

  /** The run and index of the key of ordinal g. */
  private at(g: number): { run: Run; i: number } {
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (runs[mid]!.base <= g) lo = mid;
      else hi = mid - 1;
    }
    const run = runs[lo]!;
    return { run, i: g - run.base };
  }

  /** The value of key i of run r (read from its file). */
  private valueAt(r: Run, i: number): Bytes {
    const a = r.vals[i]!;
    const len = r.vals[i + 1]! - a;
    const out = new Uint8Array(len);
    let done = 0;
    while (done < len) {
      const got = readSync(r.fd, out, done, len - done, a + done);
      if (got === 0) throw new Error('moved genesis state: a value file is shorter than its index');
      done += got;
    }
    return out;
  }

  get(key: Bytes): Bytes | undefined {
    const g = this.index.get(key, hashOf(key));
    if (g < 0) return undefined;
    const { run, i } = this.at(g);
    return run.put[i] === 1 ? this.valueAt(run, i) : undefined;
  }

  /**
   * The whole moved state in key order (the last move of each key; deleted keys left out), in chunks; each run's
   * file is read sequentially, in blocks. Keys are views of blocks they are copied into, values views of the blocks
   * read (neither block is written again; copy one to keep it without its block). With `version`: an entry whose run's leaf hashes for that version are
   * ready (`leafHashesReady`) comes with its leaf hash (a view of 32 bytes).
   */
  *merged(chunk = 1000, version?: number): Generator<[Bytes, Bytes, Bytes?][]> {
    const runs = this.runs;
    const pos = new Array<number>(runs.length).fill(0);
    // per run with leaf hashes: a block of its leaf file (entries [at, at + HASH_BLOCK))
    const hashed = runs.map((r) => {
      const l = r.leaf;
      if (version === undefined || l === undefined || l.ok !== true || l.version !== version) return undefined;
      l.fd ??= openSync(l.path, 'r');
      return { fd: l.fd, buf: new Uint8Array(0), at: 0 };
    });
    const hashAt = (ri: number, i: number): Bytes | undefined => {
      const h = hashed[ri];
      if (h === undefined) return undefined;
      if (i < h.at || i >= h.at + h.buf.length / HASH_SIZE) {
        const count = Math.min(HASH_BLOCK, runs[ri]!.n - i);
        const buf = new Uint8Array(count * HASH_SIZE);
        let got = 0;
        while (got < buf.length) {
          const k = readSync(h.fd, buf, got, buf.length - got, i * HASH_SIZE + got);
          if (k === 0) throw new Error('moved genesis state: a leaf hash file is shorter than its run');
          got += k;
        }
        h.buf = buf;
        h.at = i;
      }
      return h.buf.subarray((i - h.at) * HASH_SIZE, (i - h.at + 1) * HASH_SIZE);
    };
    // per run: a block of its file and the file position it starts at
    const blocks = runs.map(() => ({ buf: new Uint8Array(0), at: 0 }));
    const value = (ri: number, i: number): Bytes => {
      const r = runs[ri]!;
      const a = r.vals[i]!;
      const b = r.vals[i + 1]!;
      const blk = blocks[ri]!;
      if (a < blk.at || b > blk.at + blk.buf.length) {
        const size = Math.max(1 << 20, b - a);
        const buf = new Uint8Array(size);
        let got = 0;
        for (;;) {
          const k = readSync(r.fd, buf, got, size - got, a + got);
          if (k === 0) break;
          got += k;
          if (got >= b - a) break;
        }
        blk.buf = buf.subarray(0, got);
        blk.at = a;
      }
      // a view: each block is read into a buffer of its own, never reused (no allocation per value)
      return blk.buf.subarray(a - blk.at, b - blk.at);
    };
    // a binary heap of the runs not yet exhausted, by their current key (equal keys: the newest run first)
    const before = (a: number, b: number): boolean => {
      const c = compareRuns(runs[a]!, pos[a]!, runs[b]!, pos[b]!);
      return c < 0 || (c === 0 && a > b);
    };
    const heap: number[] = [];
    const down = (i: number): void => {
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) return;
        const r = l + 1;
        const m = r < n && before(heap[r]!, heap[l]!) ? r : l;
        if (!before(heap[m]!, heap[i]!)) return;
        const t = heap[i]!;
        heap[i] = heap[m]!;
        heap[m] = t;
        i = m;
      }
    };
    /** moves the top run to its next key (or out of the heap) */
    const advanceTop = (): void => {
      const ri = heap[0]!;
      pos[ri] = pos[ri]! + 1;
      if (pos[ri]! >= runs[ri]!.n) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      if (heap.length > 0) down(0);
    };
    for (let ri = 0; ri < runs.length; ri++) if (runs[ri]!.n > 0) heap.push(ri);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let out: [Bytes, Bytes, Bytes?][] = [];
    // the keys are copied into shared blocks (a view each): no buffer allocated per key
    let kbuf = new Uint8Array(KEY_BLOCK);
    let kused = 0;
    while (heap.length > 0) {
      const best = heap[0]!;
      const r = runs[best]!;
      const i = pos[best]!;
      const ka = r.offs[i]!;
      const kb = r.offs[i + 1]!;
      if (kused + kb - ka > kbuf.length) {
        kbuf = new Uint8Array(Math.max(KEY_BLOCK, kb - ka));
        kused = 0;
      }
      const k0 = kused;
      const src = r.bytes;
      for (let k = ka; k < kb; k++) kbuf[kused++] = src[k]!;
      const key = kbuf.subarray(k0, kused);
      const written = r.put[i] === 1;
      const v = written ? value(best, i) : undefined;
      const h = written ? hashAt(best, i) : undefined;
      advanceTop();
      // the same key in older runs (earlier moves) is skipped
      while (heap.length > 0 && compareAt(runs[heap[0]!]!, pos[heap[0]!]!, key) === 0) advanceTop();
      if (v !== undefined) {
        if (h === undefined) out.push([key, v]);
        else {
          out.push([key, v, h]);
          this.hashedEntries++;
        }
        if (out.length >= chunk) {
          yield out;
          out = [];
        }
      }
    }
    if (out.length > 0) yield out;
  }

  has(key: Bytes): boolean {
    return this.get(key) !== undefined;
  }

  set(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  delete(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  *iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    // per run: the next index to look at (ascending: from the first key >= start; descending: from the last < end)
    const runs = this.runs.slice();
    const pos = runs.map((r) => {
      if (!reverse) return start === undefined ? 0 : lowerBound(r, start, false);
      return (end === undefined ? r.n : lowerBound(r, end, false)) - 1;
    });
    let prev: Bytes | undefined;
    for (;;) {
      // the smallest (largest, reversed) head among the runs
      let best = -1;
      let bestKey: Bytes | undefined;
      for (let i = 0; i < runs.length; i++) {
        const r = runs[i]!;
        const p = pos[i]!;
        if (p < 0 || p >= r.n) continue;
        const k = keyAt(r, p);
        if (bestKey === undefined || (reverse ? compareBytes(k, bestKey) > 0 : compareBytes(k, bestKey) < 0)) {
          best = i;
          bestKey = k;
        }
      }
      if (bestKey === undefined) return;
      pos[best] = pos[best]! + (reverse ? -1 : 1);
      if (prev !== undefined && compareBytes(prev, bestKey) === 0) continue;
      prev = bestKey;
      if (!reverse ? end !== undefined && compareBytes(bestKey, end) >= 0 : start !== undefined && compareBytes(bestKey, start) < 0) return;
      const key = bestKey.slice();
      const v = this.get(key);
      if (v !== undefined) yield [key, v];
    }
  }
}
