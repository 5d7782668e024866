/**
 * The state a large InitChain moved to disk before the first block (see `CommitStore.spillGenesis`): the values are
 * in the flat copy (NS_STATE), and this view reads them there (`getSync`). LevelDB has no synchronous iteration, so
 * the keys of each move are kept in memory as one sorted run (packed bytes, ~the key sizes, with whether each was
 * written or deleted and a Bloom filter), and iteration merges the runs and reads each value (a key written by one
 * move and deleted by a later one has none and is skipped). The runs also tell which keys exist without a disk read
 * (`lookup`): the current state reads a value only for a key that was written.
 *
 * While the first block is being written, the flat copy may already show it: `keepBefore` records the values the
 * block's keys had, and reads of those keys answer them until the view is dropped.
 */
import type { ClassicLevel } from 'classic-level';
import { compareBytes, toKey } from './keys.js';
import { stateKey } from './layout.js';
import type { Bytes, Change, KVStore } from './types.js';

type DB = ClassicLevel<Bytes, Bytes>;

/** Sorted keys packed into one buffer: key i is bytes[offs[i], offs[i + 1]), written (1) or deleted (0) by put[i]. */
interface Run {
  readonly bytes: Uint8Array;
  readonly offs: Uint32Array;
  readonly put: Uint8Array;
  readonly n: number;
  /** Bloom filter over the keys: BLOOM_BITS bits per key, BLOOM_K probes */
  readonly bloom: Uint32Array;
  readonly bloomBits: number;
}

const BLOOM_BITS = 10;
const BLOOM_K = 4;

/** Two 32-bit hashes of a key (FNV-1a and a multiplicative variant), for double hashing. */
function hashes(key: Bytes): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const b = key[i]!;
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return [h1 >>> 0, (h2 | 1) >>> 0];
}

function bloomMayHave(r: Run, h1: number, h2: number): boolean {
  for (let i = 0; i < BLOOM_K; i++) {
    const bit = ((h1 + Math.imul(i, h2)) >>> 0) % r.bloomBits;
    if ((r.bloom[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  }
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
  private before: Map<string, Bytes | null> | undefined;
  /** entries moved (puts and deletes, over all moves) */
  moved = 0;

  constructor(private readonly db: DB) {}

  /** Records the keys of one move (sorted ascending, unique). */
  addRun(changes: readonly Change[]): void {
    const n = changes.length;
    if (n === 0) return;
    let size = 0;
    for (const c of changes) size += c.key.length;
    const bytes = new Uint8Array(size);
    const offs = new Uint32Array(n + 1);
    const put = new Uint8Array(n);
    const bloomBits = Math.max(64, n * BLOOM_BITS);
    const bloom = new Uint32Array(Math.ceil(bloomBits / 32));
    let off = 0;
    for (let i = 0; i < n; i++) {
      const c = changes[i]!;
      bytes.set(c.key, off);
      off += c.key.length;
      offs[i + 1] = off;
      put[i] = c.value === undefined ? 0 : 1;
      const [h1, h2] = hashes(c.key);
      for (let j = 0; j < BLOOM_K; j++) {
        const bit = ((h1 + Math.imul(j, h2)) >>> 0) % bloomBits;
        bloom[bit >>> 5]! |= 1 << (bit & 31);
      }
    }
    this.runs.push({ bytes, offs, put, n, bloom, bloomBits });
    this.moved += n;
  }

  /** WRITTEN if the last move of `key` wrote it; undefined if it deleted it or never moved it. No disk read. */
  lookup(key: Bytes): number | undefined {
    const [h1, h2] = hashes(key);
    for (let i = this.runs.length - 1; i >= 0; i--) {
      const r = this.runs[i]!;
      if (!bloomMayHave(r, h1, h2)) continue;
      const j = lowerBound(r, key, false);
      if (j < r.n && compareAt(r, j, key) === 0) return r.put[j] === 1 ? WRITTEN : undefined;
    }
    return undefined;
  }

  /** The first block is about to be written: its keys keep answering their values before it. */
  keepBefore(changes: readonly Change[]): void {
    const m = new Map<string, Bytes | null>();
    for (const c of changes) m.set(toKey(c.key), this.db.getSync(stateKey(c.key)) ?? null);
    this.before = m;
  }

  /** The first block was not written after all: reads go to the flat copy again. */
  forgetBefore(): void {
    this.before = undefined;
  }

  get(key: Bytes): Bytes | undefined {
    const b = this.before;
    if (b !== undefined) {
      const v = b.get(toKey(key));
      if (v !== undefined) return v ?? undefined;
    }
    return this.db.getSync(stateKey(key));
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
