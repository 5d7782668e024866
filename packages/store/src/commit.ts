/** CommitStore: the node's persistent, versioned, committed state on one LevelDB database. */
import { ClassicLevel } from 'classic-level';
import { nextAppHash, GENESIS_APP_HASH } from './apphash.js';
import { assertBytes, compareBytes, toKey } from './keys.js';
import {
  FIRST_HEIGHT_KEY,
  META_KEY,
  NS_FIRST_EXTERNAL,
  NS_STATE,
  NS_VERSIONS,
  NS_CHANGES,
  changeLogKey,
  decodeMeta,
  decodeVersionKey,
  decodeVersionValue,
  encodeMeta,
  encodeVersionValue,
  readBE64,
  stateKey,
  versionKey,
  versionPrefix,
  withHeight,
} from './layout.js';
import { MemKVStore } from './mem.js';
import { branch } from './cache.js';
import type { BatchOp, Bytes, CacheKVStore, Change, KVStore } from './types.js';

type DB = ClassicLevel<Bytes, Bytes>;

const EMPTY = new Uint8Array(0);

/**
 * A read-only view of the state at one height that stays at that height while later blocks commit
 * (see {@link CommitStore.openView}). `release()` it when done; until then every commit copies the
 * previous values of the keys it changes into the view.
 */
export interface StateView {
  readonly store: KVStore;
  readonly height: number;
  release(): void;
}

/** Options of {@link CommitStore.iterateRaw}. */
export interface RawIterateOptions {
  readonly reverse?: boolean;
  readonly limit?: number;
}

/**
 * The committed state: current values in memory (a MemKVStore loaded from NS_STATE at open), the
 * history in NS_VERSIONS and the last height/app hash in NS_META, all on one LevelDB database.
 * Each block is persisted by one atomic, synced LevelDB batch, so a crash leaves either the whole block
 * or none of it. Not safe for concurrent commits (a second commit while one is in flight throws).
 */
export class CommitStore {
  /** The committed state (reads from memory). Read-only: write through `branch(store.state)` + commit(). */
  readonly state: KVStore;
  private height: number;
  private appHash: Bytes;
  private first: number;
  private committing = false;
  private readonly snapshots = new Map<number, { at: number; view: KVStore }>();
  private readonly pinned = new Set<PinnedView>();

  private constructor(
    private readonly db: DB,
    private readonly mem: MemKVStore,
    height: number,
    appHash: Bytes,
    first: number,
  ) {
    this.state = new ReadOnlyKV(mem);
    this.height = height;
    this.appHash = appHash;
    this.first = first;
  }

  /** Open (or create) the database in `dir` and load the current state into memory. */
  static async open(dir: string): Promise<CommitStore> {
    const db: DB = new ClassicLevel<Bytes, Bytes>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    try {
      const meta = await db.get(META_KEY);
      const { height, appHash } = meta === undefined ? { height: 0, appHash: GENESIS_APP_HASH } : decodeMeta(meta);
      const mem = new MemKVStore();
      // Buffer keys decode to latin1 natively; a large read-ahead cuts native round trips.
      const it = db.iterator<Buffer, Bytes>({
        gte: Buffer.from([NS_STATE]),
        lt: Buffer.from([NS_STATE + 1]),
        keyEncoding: 'buffer',
        highWaterMarkBytes: 1 << 20,
        fillCache: false,
      });
      try {
        for (;;) {
          const entries = await it.nextv(4096);
          if (entries.length === 0) break;
          // Keys arrive in ascending order, the cheapest insertion order for the B-tree.
          for (const [k, v] of entries) mem.setByKey(k.toString('latin1', 1), v);
        }
      } finally {
        await it.close();
      }
      if (height === 0 && mem.size > 0) throw new Error('store database is inconsistent: state without metadata');
      const firstBytes = height === 0 ? undefined : await db.get(FIRST_HEIGHT_KEY);
      const first = height === 0 ? 0 : firstBytes === undefined ? 1 : readBE64(firstBytes, 0);
      return new CommitStore(db, mem, height, appHash, first);
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  /** Close the database. */
  async close(): Promise<void> {
    await this.db.close();
  }

  /** Height of the last committed block (0 before genesis). */
  get lastHeight(): number {
    return this.height;
  }

  /**
   * Height of the first committed block (0 before it): 1, or the genesis `initial_height` of a chain
   * started from an exported state. Heights between 0 and it have no state.
   */
  get firstHeight(): number {
    return this.first;
  }

  /** App hash after the last committed block (empty before genesis). A copy. */
  get lastAppHash(): Uint8Array {
    return this.appHash.slice();
  }

  /**
   * Commit block `height` (must be lastHeight + 1; the first block may be any height >= 1, the genesis
   * `initial_height`): one atomic synced batch with the state updates, the
   * version entries, the metadata and `extraOps` (keys must start with a byte >= 0x10). Memory is
   * updated only after the batch succeeded. `changes` need not be sorted, but keys must be unique.
   * Returns the new app hash (see README.md).
   */
  async commit(height: number, changes: readonly Change[], extraOps: readonly BatchOp[] = []): Promise<Uint8Array> {
    if (this.committing) throw new Error('commit: another commit is in progress');
    const firstBlock = this.height === 0;
    if (!Number.isSafeInteger(height) || (firstBlock ? height < 1 : height !== this.height + 1)) {
      throw new Error(firstBlock ? `commit: the first height must be an integer >= 1, got ${height}` : `commit: height ${height} is not lastHeight + 1 (${this.height + 1})`);
    }
    const sorted = sortChanges(changes);
    for (const op of extraOps) checkExtraOp(op);
    const appHash = nextAppHash(this.appHash, sorted);

    this.committing = true; // until memory is updated: a concurrent commit would reuse this height
    try {
      // A chained batch: far cheaper per operation than db.batch(array) (no per-op object validation).
      const batch = this.db.batch();
      try {
        for (const c of sorted) {
          if (c.value === undefined) batch.del(stateKey(c.key));
          else batch.put(stateKey(c.key), c.value);
          batch.put(versionKey(c.key, height), encodeVersionValue(c.value));
          batch.put(changeLogKey(height, c.key), EMPTY);
        }
        batch.put(META_KEY, encodeMeta(height, appHash));
        if (firstBlock && height !== 1) batch.put(FIRST_HEIGHT_KEY, encodeMeta(height, EMPTY));
        for (const op of extraOps) {
          if (op.type === 'put') batch.put(op.key, op.value);
          else batch.del(op.key);
        }
        await batch.write({ sync: true });
      } finally {
        await batch.close().catch(() => undefined); // idempotent; frees the batch after a failure
      }
      // The batch is durable: now (and only now) publish the block in memory, after every open view
      // kept the values it sees of the keys about to change.
      for (const v of this.pinned) v.preserve(sorted);
      const mem = this.mem;
      for (const c of sorted) {
        if (c.value === undefined) mem.delete(c.key);
        else mem.set(c.key, c.value.slice()); // own copy: callers may reuse their buffers
      }
      this.height = height;
      this.appHash = appHash;
      if (firstBlock) this.first = height;
      return appHash.slice();
    } finally {
      this.committing = false;
    }
  }

  /**
   * A read-only view of the whole state as of the end of block `height`: the current state overlaid
   * with the values (at `height`) of every key changed since. Costs O(changes since `height`); the
   * view is synchronous like the current state, so query handlers run on it unchanged.
   */
  async snapshotAt(height: number): Promise<KVStore> {
    this.checkHeight(height);
    if (height === this.height) return this.state;
    const cached = this.snapshots.get(height);
    if (cached && cached.at === this.height) return cached.view;
    const gte = changeLogKey(height + 1, new Uint8Array());
    const lt = new Uint8Array([NS_CHANGES + 1]);
    const keys = new Map<string, Bytes>();
    for (const k of await this.db.keys({ gte, lt }).all()) {
      const key = k.subarray(9);
      keys.set(Buffer.from(key).toString('latin1'), key);
    }
    const overlay = branch(this.mem);
    for (const key of keys.values()) {
      const v = await this.getAt(height, key);
      if (v === undefined) overlay.delete(key);
      else overlay.set(key, v);
    }
    const view = readOnly(overlay);
    if (this.snapshots.size >= 8) this.snapshots.delete(this.snapshots.keys().next().value!);
    this.snapshots.set(height, { at: this.height, view });
    return view;
  }

  /**
   * A view of the state at the end of block `height` (default: the last one) that keeps showing that
   * state while later blocks commit, for work that awaits between reads (a query that yields to the
   * event loop). Opening one at the last height costs nothing; each commit while it is open copies the
   * previous values of the changed keys into it. Call `release()` when done.
   */
  async openView(height: number = this.height): Promise<StateView> {
    const base = height === this.height ? this.state : await this.snapshotAt(height);
    const view = new PinnedView(base, () => this.pinned.delete(view));
    this.pinned.add(view);
    return { store: view.store, height, release: () => view.release() };
  }

  /** Number of views opened by {@link openView} and not yet released. */
  get openViews(): number {
    return this.pinned.size;
  }

  /** The value of `key` at the end of block `height` (0 <= height <= lastHeight; 0 = before genesis). */
  async getAt(height: number, key: Bytes): Promise<Bytes | undefined> {
    this.checkHeight(height);
    if (height === this.height) return this.mem.get(key);
    if (height === 0) return undefined;
    const prefix = versionPrefix(key);
    const rows = await this.db
      .values({ gte: prefix, lte: withHeight(prefix, height), reverse: true, limit: 1 })
      .all();
    return rows.length === 0 ? undefined : decodeVersionValue(rows[0]!);
  }

  /**
   * The state at the end of block `height`: entries with start <= key < end, sorted (descending if
   * `reverse`), at most `limit` of them; deleted keys excluded. Past heights scan the version history.
   */
  async iterateAt(
    height: number,
    start?: Bytes,
    end?: Bytes,
    reverse = false,
    limit?: number,
  ): Promise<[Bytes, Bytes][]> {
    this.checkHeight(height);
    const max = checkLimit(limit);
    const out: [Bytes, Bytes][] = [];
    if (max === 0) return out;
    if (height === this.height) {
      for (const e of this.mem.iterator(start, end, reverse)) {
        out.push(e);
        if (out.length >= max) break;
      }
      return out;
    }
    const gte = start === undefined ? new Uint8Array([NS_VERSIONS]) : versionPrefix(start);
    const lt = end === undefined ? new Uint8Array([NS_VERSIONS + 1]) : versionPrefix(end);
    if (height === 0 || compareBytes(gte, lt) >= 0) return out;

    let group: string | undefined; // escaped key part of the current run of entries
    let best: [Bytes, Bytes] | undefined; // the version of `group` visible at `height`
    const flush = (): void => {
      if (best === undefined) return;
      const value = decodeVersionValue(best[1]);
      if (value !== undefined) out.push([decodeVersionKey(best[0]).key, value]);
      best = undefined;
    };
    const it = this.db.iterator({ gte, lt, reverse });
    try {
      for (;;) {
        const rows = await it.nextv(1024);
        if (rows.length === 0) break;
        for (const row of rows) {
          const k = row[0];
          const g = toKey(k.subarray(0, k.length - 8));
          if (g !== group) {
            flush();
            if (out.length >= max) return out;
            group = g;
          }
          // Forward: heights ascend, keep the last <= height. Reverse: they descend, keep the first.
          if (readBE64(k, k.length - 8) <= height && (!reverse || best === undefined)) best = row;
        }
      }
      flush();
      return out;
    } finally {
      await it.close();
    }
  }

  /** Raw read of any database key (any namespace). */
  async getRaw(key: Bytes): Promise<Bytes | undefined> {
    return this.db.get(key);
  }

  /** Synchronous raw read of any database key (any namespace). */
  getRawSync(key: Bytes): Bytes | undefined {
    return this.db.getSync(key);
  }

  /** Raw entries with gte <= key < lt, ascending (or descending), at most `opts.limit`. */
  async iterateRaw(gte: Bytes, lt: Bytes, opts: RawIterateOptions = {}): Promise<[Bytes, Bytes][]> {
    const limit = checkLimit(opts.limit);
    if (limit === 0) return [];
    return this.db
      .iterator({ gte, lt, reverse: opts.reverse ?? false, limit: limit === Infinity ? -1 : limit })
      .all();
  }

  private checkHeight(height: number): void {
    if (!Number.isSafeInteger(height) || height < 0 || height > this.height) {
      throw new RangeError(`height ${height} is not in [0, ${this.height}]`);
    }
    if (height > 0 && height < this.first) {
      throw new RangeError(`height ${height} is before the first height ${this.first} of this store (the chain's initial height)`);
    }
  }
}

/**
 * A view over `base` (the live state, or a snapshot overlaid on it) that is pinned: before a commit
 * changes the live state, `preserve` writes the values `base` shows of the changed keys into the view's
 * own overlay (once per key: the first pre-image is the one at the view's height).
 */
class PinnedView {
  private readonly overlay: CacheKVStore;
  private readonly kept = new Set<string>();
  private released = false;
  readonly store: KVStore;

  constructor(private readonly base: KVStore, private readonly onRelease: () => void) {
    this.overlay = branch(base);
    this.store = readOnly(this.overlay);
  }

  preserve(changes: readonly Change[]): void {
    for (const c of changes) {
      const k = toKey(c.key);
      if (this.kept.has(k)) continue;
      this.kept.add(k);
      const v = this.base.get(c.key);
      if (v === undefined) this.overlay.delete(c.key);
      else this.overlay.set(c.key, v);
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}

/** The committed state as seen by callers: reads delegate to memory, writes throw. */
class ReadOnlyKV implements KVStore {
  constructor(private readonly mem: KVStore) {}
  get(key: Bytes): Bytes | undefined {
    return this.mem.get(key);
  }
  has(key: Bytes): boolean {
    return this.mem.has(key);
  }
  set(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }
  delete(): void {
    throw new Error('committed state is read-only: write through branch(store.state) and commit()');
  }
  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    return this.mem.iterator(start, end, reverse);
  }
}

function readOnly(kv: KVStore): KVStore {
  return new ReadOnlyKV(kv);
}

/** Validate a changeset and return it sorted by key (the input itself when already sorted). */
function sortChanges(changes: readonly Change[]): readonly Change[] {
  let sorted = true;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    assertBytes(c.key, 'change key');
    if (c.value !== undefined) assertBytes(c.value, 'change value');
    if (i > 0 && compareBytes(changes[i - 1]!.key, c.key) >= 0) sorted = false;
  }
  if (sorted) return changes;
  const copy = changes.slice().sort((a, b) => compareBytes(a.key, b.key));
  for (let i = 1; i < copy.length; i++) {
    if (compareBytes(copy[i - 1]!.key, copy[i]!.key) === 0) throw new Error('commit: duplicate key in changes');
  }
  return copy;
}

function checkExtraOp(op: BatchOp): void {
  assertBytes(op.key, 'extraOps key');
  if (op.key.length === 0 || op.key[0]! < NS_FIRST_EXTERNAL) {
    throw new Error('commit: extraOps keys must start with a namespace byte >= 0x10 (0x00-0x0F are reserved)');
  }
  if (op.type === 'put') assertBytes(op.value, 'extraOps value');
  else if (op.type !== 'del') throw new Error('commit: extraOps type must be put or del');
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Infinity;
  if (!(Number.isSafeInteger(limit) && limit >= 0) && limit !== Infinity) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  return limit;
}
