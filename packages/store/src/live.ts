/**
 * The current (latest committed) state as execution and latest-height queries read it: on disk, behind a
 * bounded cache, read synchronously.
 *
 * - Point reads (`get`, `has`): the cache, else one synchronous LevelDB read (`getSync`) of the flat copy
 *   (NS_STATE || key, written with every block), and the answer (present or absent) enters the cache.
 * - Iteration: the state trees' view of the last committed version (IAVL, read synchronously through each
 *   tree's node cache), merged across stores in key order. A committed version is immutable, so an iterator
 *   keeps showing the state it started on while later blocks commit (pruning keeps the latest version and
 *   every height a view holds open).
 *
 * While a block is being written (between its batch write and {@link LiveState.publish}), the flat copy on disk
 * may already show the new block; the cache still holds the last committed values and a miss reads the trees'
 * view of the last committed version instead of the flat copy, so readers never see half a block.
 */
import type { ClassicLevel } from 'classic-level';
import { fromKey, toKey } from './keys.js';
import { stateKey } from './layout.js';
import type { Bytes, Change, KVStore } from './types.js';
import { KEYED } from './cache.js';
import { WRITTEN, type SpilledState } from './spill.js';

type DB = ClassicLevel<Bytes, Bytes>;

/** Default bound of the state cache, in entries (app.toml `state-cache-size`). */
export const DEFAULT_STATE_CACHE_SIZE = 200_000;

/**
 * A bounded cache of two generations: hits in the older one move to the young one, and when the young one is
 * full it becomes the old one (the previous old one is dropped). No per-hit reordering; at most `max` entries.
 * `null` caches an absent key.
 */
class GenerationalCache {
  private young = new Map<string, Bytes | null>();
  private old = new Map<string, Bytes | null>();
  private readonly half: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  get(k: string): Bytes | null | undefined {
    const y = this.young.get(k);
    if (y !== undefined) return y;
    const o = this.old.get(k);
    if (o !== undefined) {
      this.old.delete(k);
      this.put(k, o);
    }
    return o;
  }

  put(k: string, v: Bytes | null): void {
    if (this.young.size >= this.half && !this.young.has(k)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(k, v);
    // a stale copy in the old generation would come back after the young one rotates
    if (this.old.size > 0) this.old.delete(k);
  }

  /** Replaces the entry of `k` if it is cached (nothing otherwise). */
  update(k: string, v: Bytes | null): void {
    if (this.young.has(k)) this.young.set(k, v);
    else if (this.old.has(k)) this.old.set(k, v);
  }

  get max(): number {
    return this.half * 2;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}

export class LiveState implements KVStore {
  private readonly cache: GenerationalCache;
  /** the trees' view of the last committed version (iteration; reads while a block is written) */
  private view: KVStore;
  /** true between a block's batch write and its publication */
  private writing = false;
  private hits = 0;
  private misses = 0;
  /** the state InitChain moved out of memory (until the first block): reads go there, not to the flat copy */
  private spilled: SpilledState | undefined;

  constructor(
    private readonly db: DB,
    view: KVStore,
    cacheSize: number = DEFAULT_STATE_CACHE_SIZE,
  ) {
    this.view = view;
    this.cache = new GenerationalCache(cacheSize > 0 ? cacheSize : 1);
  }

  get(key: Bytes): Bytes | undefined {
    return this.getK(toKey(key), key);
  }

  /** KeyedKV (cache.ts): a read from a branch above, by the key's latin1 string (`key`: its bytes, if known). */
  getK(k: string, key: Bytes | undefined): Bytes | undefined {
    const c = this.cache.get(k);
    if (c !== undefined) {
      this.hits++;
      return c ?? undefined;
    }
    this.misses++;
    const bytes = key ?? fromKey(k);
    let v: Bytes | undefined;
    if (this.writing) v = this.view.get(bytes);
    else if (this.spilled !== undefined) v = this.spilled.get(bytes);
    else v = this.db.getSync(stateKey(bytes));
    this.cache.put(k, v ?? null);
    return v;
  }

  /** KeyedKV: whether the key has a value (over a moved genesis, without reading the value). */
  hasK(k: string, key: Bytes | undefined): boolean {
    const s = this.spilled;
    if (s === undefined || this.writing) return this.getK(k, key) !== undefined;
    const c = this.cache.get(k);
    if (c !== undefined) {
      this.hits++;
      return c !== null;
    }
    return s.lookup(key ?? fromKey(k)) === WRITTEN;
  }

  setK(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  deleteK(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  has(key: Bytes): boolean {
    return this.hasK(toKey(key), key);
  }

  set(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  delete(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }

  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    return this.view.iterator(start, end, reverse);
  }

  /** The block's batch is about to be written: until {@link publish}, misses read the committed trees' view. */
  beginWrite(): void {
    this.writing = true;
  }

  /** The block's batch was not written: reads go back to the flat copy (which did not change). */
  abortWrite(): void {
    this.writing = false;
  }

  /**
   * The block is committed: its values enter the cache (a block of more changes than a quarter of the cache, e.g.
   * a genesis, only refreshes the keys already cached, instead of evicting everything for values read once), and
   * iteration moves to the new version's view.
   */
  publish(changes: readonly Change[], view: KVStore): void {
    const cache = this.cache;
    if (changes.length <= cache.max / 4) {
      for (const c of changes) cache.put(toKey(c.key), c.value === undefined ? null : c.value.slice());
    } else if (cache.size > 0) {
      for (const c of changes) cache.update(toKey(c.key), c.value === undefined ? null : c.value.slice());
    }
    this.view = view;
    this.spilled = undefined;
    this.writing = false;
  }

  /**
   * The state on disk changed outside a block (InitChain moved its writes there): forget every cached answer, and
   * iterate (and read, while a block is written) `view` from now on.
   */
  reset(spilled: SpilledState): void {
    this.cache.clear();
    this.view = spilled;
    this.spilled = spilled;
  }

  /** Cache figures (entries held, hits and misses since open). */
  get stats(): { entries: number; hits: number; misses: number } {
    return { entries: this.cache.size, hits: this.hits, misses: this.misses };
  }
}

Object.defineProperty(LiveState.prototype, KEYED, { value: true });
