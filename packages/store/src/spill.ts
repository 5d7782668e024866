/**
 * The state a large InitChain moved to disk before the first block (see `CommitStore.spillGenesis`): the values are
 * in the flat copy (NS_STATE), and this view reads them there (`getSync`). LevelDB has no synchronous iteration, so
 * the keys of each move are kept in memory as one sorted run (packed bytes, ~the key sizes, with whether each was
 * written or deleted and a hash index), and iteration merges the runs and reads each value (a key written by one
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
}

/**
 * One open-addressing hash index over the keys of every run: slot = ordinal + 1 of the key's last move (0 empty),
 * tag = its hash. A key moved again points to its newest run.
 */
class KeyIndex {
  private slots = new Int32Array(1 << 16);
  private tags = new Int32Array(1 << 16);
  private mask = (1 << 16) - 1;
  private size = 0;

  constructor(private readonly at: (ordinal: number) => { run: Run; i: number }) {}

  /** The slot of `key` (hash h): its position, holding it or empty. */
  private find(key: Bytes, h: number): number {
    let pos = h & this.mask;
    for (;;) {
      const slot = this.slots[pos]!;
      if (slot === 0) return pos;
      if (this.tags[pos] === h) {
        const { run, i } = this.at(slot - 1);
        if (equalAt(run, i, key)) return pos;
      }
      pos = (pos + 1) & this.mask;
    }
  }

  set(key: Bytes, h: number, ordinal: number): void {
    if ((this.size + 1) * 3 > this.slots.length * 2) this.grow();
    const pos = this.find(key, h);
    if (this.slots[pos] === 0) this.size++;
    this.slots[pos] = ordinal + 1;
    this.tags[pos] = h;
  }

  /** The ordinal of the key's last move, or -1. */
  get(key: Bytes, h: number): number {
    return this.slots[this.find(key, h)]! - 1;
  }

  private grow(): void {
    const { slots, tags } = this;
    const cap = slots.length * 2;
    this.slots = new Int32Array(cap);
    this.tags = new Int32Array(cap);
    this.mask = cap - 1;
    for (let p = 0; p < slots.length; p++) {
      const slot = slots[p]!;
      if (slot === 0) continue;
      let pos = tags[p]! & this.mask;
      while (this.slots[pos] !== 0) pos = (pos + 1) & this.mask;
      this.slots[pos] = slot;
      this.tags[pos] = tags[p]!;
    }
  }
}

/** FNV-1a of a key, mixed (a 32-bit hash for the runs' indexes). */
function hashOf(key: Bytes): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** Whether key i of r equals `key`. */
function equalAt(r: Run, i: number, key: Bytes): boolean {
  const start = r.offs[i]!;
  if (r.offs[i + 1]! - start !== key.length) return false;
  const b = r.bytes;
  for (let j = key.length - 1; j >= 0; j--) if (b[start + j] !== key[j]) return false;
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
  private readonly index = new KeyIndex((ordinal) => this.at(ordinal));
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
    const run: Run = { bytes, offs, put, n, base: this.moved };
    this.runs.push(run);
    let off = 0;
    for (let i = 0; i < n; i++) {
      const c = changes[i]!;
      bytes.set(c.key, off);
      off += c.key.length;
      offs[i + 1] = off;
      put[i] = c.value === undefined ? 0 : 1;
      this.index.set(c.key, hashOf(c.key), run.base + i);
    }
    this.moved += n;
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
