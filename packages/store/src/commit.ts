/** CommitStore: the node's persistent, versioned, committed state on one LevelDB database. */
import { ClassicLevel } from 'classic-level';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Commitment, VersionNotFoundError, type ProofOp } from './commitment.js';
import { assertBytes, bytesEqual, compareBytes, compareRanges, toKey } from './keys.js';
import {
  FIRST_HEIGHT_KEY,
  FORMAT_KEY,
  META_KEY,
  STORE_FORMAT,
  NS_FIRST_EXTERNAL,
  NS_LEGACY_CHANGES,
  NS_LEGACY_VERSIONS,
  NS_STATE,
  NS_TREES,
  decodeMeta,
  encodeMeta,
  readBE64,
  stateKey,
} from './layout.js';
import { MemKVStore } from './mem.js';
import { branch } from './cache.js';
import { DEFAULT_STATE_CACHE_SIZE, LiveState } from './live.js';
import { packChanges, SpilledState } from './spill.js';
import { STORES_KEY, PRUNED_KEY } from './commitment.js';
import { BulkWriter, EntryFile } from './bulk.js';
import type { BatchOp, Bytes, CacheKVStore, Change, KVStore, PackedChanges } from './types.js';
import { type RawIterateOptions, checkLimit, iterateRawOf } from './raw.js';

/** The app hash before the first block (the SDK's empty commit info hash: no bytes). */
export const GENESIS_APP_HASH: Bytes = new Uint8Array(0);

/** Options of {@link CommitStore.open}. */
export interface CommitStoreOptions {
  /** IAVL node cache of each store, in nodes (app.toml `iavl-cache-size`; default 100,000). */
  iavlCacheSize?: number;
  /**
   * Cache of the current state's values, in entries (app.toml `state-cache-size`; default 200,000). The state
   * itself is on disk: a miss is one synchronous LevelDB read.
   */
  stateCacheSize?: number;
  /**
   * Pruning of past states, as the SDK's app.toml: every `interval` blocks, the states of heights at or below
   * `height - 1 - keepRecent` are deleted. `interval` 0 (pruning = "nothing"): every state is kept.
   */
  pruning?: { keepRecent: number; interval: number };
  /**
   * Every key in one store of this name (for tests and tools that use raw keys). By default a key
   * `<store>/<rest>` belongs to store `<store>` (what `ctx.kv(storeKey)` writes), as the SDK's multistore.
   */
  singleStore?: string;
  /**
   * A progress display for long work (the first block's tree build after a large genesis): called with a label and
   * the expected count, it gets `tick(n)` as work advances and `done()` at the end.
   */
  progress?: (label: string, total?: number) => { tick(n: number): void; done(): void };
  /**
   * The first block after a large genesis builds the tree of each store InitChain moved at least this many entries of
   * to disk on a worker thread (default 100,000; Infinity: every tree on this thread).
   */
  workerBuildEntries?: number;
}

type DB = ClassicLevel<Bytes, Bytes>;


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

/** A block staged ahead of its commit (FinalizeBlock computes the app hash; Commit writes the batch). */
interface Prepared {
  height: number;
  changes: readonly Change[];
  batch: ReturnType<DB['batch']>;
  appHash: Bytes;
}

/**
 * The committed state: the current values on disk (a flat copy, NS_STATE) behind a bounded cache for execution
 * and latest-height queries (live.ts: synchronous reads, iteration over the trees), the state commitment (one
 * IAVL tree per store, see commitment.ts) for the app hash, proofs and past heights, and the last height/app
 * hash in NS_META, all on one LevelDB database. Opening reads no state: a restart costs the same at any size.
 * Each block is persisted by one atomic, synced LevelDB batch, so a crash leaves either the whole block
 * or none of it. Not safe for concurrent commits (a second commit while one is in flight throws).
 */
export class CommitStore {
  /** The committed state (cache, then disk). Read-only: write through `branch(store.state)` + commit(). */
  readonly state: KVStore;
  private height: number;
  private appHash: Bytes;
  private first: number;
  private committing = false;
  private prepared: Prepared | undefined;
  /** the state InitChain moved to disk before the first block (spillGenesis), until that block commits */
  private spill: SpilledState | undefined;
  /** stores InitChain deleted keys of while moving its state to disk (mounted by the first block even if empty) */
  private readonly spillDeleted = new Set<string>();
  /** entries InitChain moved to disk, by store (the first block builds the big stores' trees on worker threads) */
  private readonly spillStores = new Map<string, number>();
  private readonly snapshots = new Map<number, KVStore>();
  private readonly pinned = new Set<PinnedView>();

  private constructor(
    private readonly db: DB,
    private readonly live: LiveState,
    private readonly trees: Commitment,
    private readonly opts: CommitStoreOptions,
    private readonly dir: string,
    height: number,
    appHash: Bytes,
    first: number,
  ) {
    this.state = live;
    this.height = height;
    this.appHash = appHash;
    this.first = first;
  }

  /** Open (or create) the database in `dir` (reads the metadata and the trees' roots, not the state). */
  static async open(dir: string, opts: CommitStoreOptions = {}): Promise<CommitStore> {
    const db: DB = new ClassicLevel<Bytes, Bytes>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    try {
      const meta = await db.get(META_KEY);
      const { height, appHash } = meta === undefined ? { height: 0, appHash: GENESIS_APP_HASH } : decodeMeta(meta);
      for (const ns of [NS_LEGACY_VERSIONS, NS_LEGACY_CHANGES]) {
        const old = await db.keys({ gte: Uint8Array.of(ns), lt: Uint8Array.of(ns + 1), limit: 1 }).all();
        if (old.length > 0) {
          throw new Error(
            `${dir} was written by an older chaind (state history without the IAVL state commitment); this version ` +
            'cannot continue it: export the state with the older version (chaind export) and start a new chain from ' +
            'it, or remove the data folder',
          );
        }
      }
      if (height > 0) {
        const f = await db.get(FORMAT_KEY);
        if (f === undefined || readBE64(f, 0) !== STORE_FORMAT) {
          throw new Error(
            `${dir} was written by an older chaind (state tree format ${f === undefined ? 1 : readBE64(f, 0)}, this version ` +
            `reads format ${STORE_FORMAT}); export the state with the older version (chaind export) and start a new chain ` +
            'from it, or remove the data folder',
          );
        }
      }
      if (height === 0) {
        // no block was committed: whatever state is here was moved to disk by an InitChain that did not reach its
        // first block (spillGenesis), and InitChain runs again
        for (const ns of [NS_STATE, NS_TREES]) await db.clear({ gte: Uint8Array.of(ns), lt: Uint8Array.of(ns + 1) });
        await db.batch([{ type: 'del', key: STORES_KEY }, { type: 'del', key: PRUNED_KEY }]);
        rmSync(spillDir(dir), { recursive: true, force: true });
      }
      const trees = await Commitment.open(db, { cacheSize: opts.iavlCacheSize, single: opts.singleStore });
      if (height > 0 && !bytesEqual(trees.appHashAt(height), appHash)) {
        throw new Error(`store database is inconsistent: the state trees do not give the app hash of height ${height}`);
      }
      const firstBytes = height === 0 ? undefined : await db.get(FIRST_HEIGHT_KEY);
      const first = height === 0 ? 0 : firstBytes === undefined ? 1 : readBE64(firstBytes, 0);
      const live = new LiveState(db, trees.viewAt(height), opts.stateCacheSize ?? DEFAULT_STATE_CACHE_SIZE);
      return new CommitStore(db, live, trees, opts, dir, height, appHash, first);
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  /** Close the database. */
  async close(): Promise<void> {
    await this.dropPrepared();
    this.spill?.close();
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

  /** The lowest height whose state is kept (past heights below it were pruned); 0 before genesis. */
  get earliestHeight(): number {
    return this.height === 0 ? 0 : Math.max(this.first, this.trees.prunedTo + 1);
  }

  /** App hash after the last committed block (empty before genesis). A copy. */
  get lastAppHash(): Uint8Array {
    return this.appHash.slice();
  }

  /** The state cache's figures: entries held, hits and misses since open. */
  get stateCacheStats(): { entries: number; hits: number; misses: number } {
    return this.live.stats;
  }

  /** The mounted stores (names of the state trees), sorted. */
  get storeNames(): string[] {
    return this.trees.names;
  }

  /**
   * Computes the app hash of block `height` with these changes (FinalizeBlock) and keeps the block staged, so
   * the `commit` with the same changes only writes it. A later prepare or a commit with other changes replaces it.
   */
  async prepare(height: number, changes: readonly Change[]): Promise<Uint8Array> {
    if (this.committing) throw new Error('prepare: a commit is in progress');
    this.checkNextHeight(height, 'prepare');
    const sorted = sortChanges(changes);
    await this.dropPrepared();
    const batch = this.db.batch();
    try {
      const appHash = await this.stageBlock(height, sorted, batch);
      this.prepared = { height, changes: sorted, batch, appHash };
      return appHash.slice();
    } catch (e) {
      await batch.close().catch(() => undefined);
      throw e;
    }
  }

  /** The app hash block `height` would have with these changes; nothing is kept (a dry run). */
  async previewAppHash(height: number, changes: readonly Change[]): Promise<Uint8Array> {
    if (this.committing) throw new Error('previewAppHash: a commit is in progress');
    this.checkNextHeight(height, 'previewAppHash');
    const sorted = sortChanges(changes);
    await this.dropPrepared();
    const hash = await this.stageBlock(height, sorted, null);
    this.trees.discardStaged();
    await this.trees.collectGarbage();
    return hash.slice();
  }

  private async dropPrepared(): Promise<void> {
    const p = this.prepared;
    if (p === undefined) return;
    this.prepared = undefined;
    this.trees.discardStaged();
    await p.batch.close().catch(() => undefined);
    await this.trees.collectGarbage();
  }

  /**
   * The trees' version `height` with these changes: applied to the last version, or, for the first block after
   * InitChain moved its state to disk, every tree built from the flat copy and the block's changes.
   */
  private stageBlock(height: number, sorted: readonly Change[], sink: ReturnType<DB['batch']> | null): Promise<Bytes> {
    if (this.spill === undefined) return this.trees.stage(height, sorted, sink);
    return this.stageFromFlat(height, sorted, sink);
  }

  private async stageFromFlat(height: number, sorted: readonly Change[], sink: ReturnType<DB['batch']> | null): Promise<Bytes> {
    const p = this.opts.progress?.('state trees of the first block', this.spill!.moved);
    const min = this.opts.workerBuildEntries ?? 100_000;
    const onWorker = new Set([...this.spillStores].filter(([, n]) => n >= min).map(([name]) => name));
    // the leaf hashes the runs got on the other core during the import (for this height)
    await this.spill!.leafHashesReady();
    const hash = await this.trees.stageFromFlat(height, sorted, sink, this.genesisEntries(sink !== null, height), this.spillDeleted, (n) => p?.tick(n), onWorker);
    p?.done();
    return hash;
  }

  /**
   * The moved genesis state in key order (chunks), written to the flat copy when `write` (put aside in a file as it
   * goes, then into the database once the last chunk is taken; the first block's own changes go into its batch): the
   * same entries each time, so a block prepared again writes the same. Entries
   * come with the leaf hashes computed for `height` during the import, where there are some (see `spillGenesis`).
   */
  private async *genesisEntries(write: boolean, height: number): AsyncGenerator<readonly [Bytes, Bytes, Bytes?][]> {
    // the flat copy waits in a file while the trees are built from the same entries, then goes in as one ascending
    // run of keys (EntryFile, bulk.ts); one batch written while the next fills
    const staged = write ? new EntryFile(join(spillDir(this.dir), 'flat'), NS_STATE) : undefined;
    const out = write ? new BulkWriter(this.db) : undefined;
    try {
      for (const chunk of this.spill!.merged(1000, height)) {
        if (staged !== undefined) for (const [k, v] of chunk) staged.add(k, v);
        yield chunk;
      }
      if (staged !== undefined) await staged.putInto(out!);
      await out?.drain();
    } finally {
      await out?.close();
      staged?.close();
    }
  }

  /**
   * Moves InitChain's changes so far out of memory (a large genesis: the caller then drops them), as a sorted run on
   * disk (spill.ts): from now until the first block commits, reads of the current state see them there, and the first
   * block writes them to the flat copy and builds every tree from them and its own changes, writing the trees as it
   * goes. Only before the first block. A restart before that block commits finds height 0 and clears everything
   * (InitChain runs again). With `firstHeight` (the height the first block will have: InitChain's initial height), the
   * leaf hashes of the moved entries are computed on a worker thread meanwhile, and a first block of that height
   * builds its trees without hashing those leaves again.
   */
  async spillGenesis(changes: readonly Change[] | PackedChanges, firstHeight?: number): Promise<void> {
    if (this.height !== 0) throw new Error('spillGenesis: the store already has blocks');
    if (this.committing || this.prepared !== undefined) throw new Error('spillGenesis: a block is being committed');
    const packed = 'offs' in changes ? checkPacked(changes) : packChanges(sortChanges(changes));
    const { n, bytes, offs, values } = packed;
    const spill = this.spill ?? new SpilledState(spillDir(this.dir));
    // entries per store (sorted keys come store by store: a key under the current store's prefix needs no routing)
    let store = '';
    let prefix: Bytes | undefined;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const start = offs[i]!;
      const end = offs[i + 1]!;
      if (prefix === undefined || !startsWithAt(bytes, start, end, prefix)) {
        if (prefix !== undefined) this.spillStores.set(store, (this.spillStores.get(store) ?? 0) + count);
        const key = bytes.subarray(start, end);
        const r = this.trees.route(key);
        store = r.store;
        prefix = key.slice(0, key.length - r.rel.length);
        count = 0;
      }
      count++;
      if (values[i] === undefined) this.spillDeleted.add(store);
    }
    if (prefix !== undefined) this.spillStores.set(store, (this.spillStores.get(store) ?? 0) + count);
    // the leaf hashes of the first block's trees, computed on the other core meanwhile (used if it is that height)
    spill.addRun(packed, firstHeight === undefined ? undefined : { version: firstHeight, single: this.opts.singleStore !== undefined });
    this.spill = spill;
    this.live.reset(spill);
  }

  /** Entries InitChain moved to disk (spillGenesis) that the first block has not committed yet (0: none). */
  get spilledGenesis(): number {
    return this.spill?.moved ?? 0;
  }

  private checkNextHeight(height: number, what: string): void {
    const firstBlock = this.height === 0;
    if (!Number.isSafeInteger(height) || (firstBlock ? height < 1 : height !== this.height + 1)) {
      throw new Error(firstBlock ? `${what}: the first height must be an integer >= 1, got ${height}` : `${what}: height ${height} is not lastHeight + 1 (${this.height + 1})`);
    }
  }

  /**
   * Commit block `height` (must be lastHeight + 1; the first block may be any height >= 1, the genesis
   * `initial_height`): one atomic synced batch with the state updates (flat state and state trees), the
   * metadata and `extraOps` (keys must start with a byte >= 0x10). Memory is updated only after the batch
   * succeeded. `changes` need not be sorted, but keys must be unique. Returns the new app hash (the
   * multistore root of the state trees, see commitment.ts).
   */
  async commit(height: number, changes: readonly Change[], extraOps: readonly BatchOp[] = []): Promise<Uint8Array> {
    if (this.committing) throw new Error('commit: another commit is in progress');
    this.checkNextHeight(height, 'commit');
    const firstBlock = this.height === 0;
    const sorted = sortChanges(changes);
    for (const op of extraOps) checkExtraOp(op);

    this.committing = true; // until memory is updated: a concurrent commit would reuse this height
    try {
      let p = this.prepared;
      if (p === undefined || p.height !== height || !sameChanges(p.changes, sorted)) {
        await this.dropPrepared();
        const batch = this.db.batch();
        try {
          p = { height, changes: sorted, batch, appHash: await this.stageBlock(height, sorted, batch) };
        } catch (e) {
          await batch.close().catch(() => undefined);
          throw e;
        }
      }
      this.prepared = undefined;
      const { batch, appHash } = p;
      try {
        for (const c of sorted) {
          if (c.value === undefined) batch.del(stateKey(c.key));
          else batch.put(stateKey(c.key), c.value);
        }
        batch.put(META_KEY, encodeMeta(height, appHash));
        if (firstBlock && height !== 1) batch.put(FIRST_HEIGHT_KEY, encodeMeta(height, GENESIS_APP_HASH));
        if (firstBlock) batch.put(FORMAT_KEY, encodeMeta(STORE_FORMAT, GENESIS_APP_HASH));
        for (const op of extraOps) {
          if (op.type === 'put') batch.put(op.key, op.value);
          else batch.del(op.key);
        }
        // from here the flat copy on disk may show the block before it is published: reads use the trees (or, over
        // a state InitChain moved to disk, the values the block's keys had)
        this.live.beginWrite();
        await batch.write({ sync: true });
      } catch (e) {
        this.live.abortWrite();
        this.trees.discardStaged();
        await this.trees.collectGarbage().catch(() => undefined);
        throw e;
      } finally {
        await batch.close().catch(() => undefined); // idempotent; frees the batch after a failure
      }
      // The batch is durable: every open view keeps the values it sees of the keys about to change (reads
      // still show the last block), then the block is published.
      for (const v of this.pinned) v.preserve(sorted);
      this.trees.commitStaged();
      this.live.publish(sorted, this.trees.viewAt(height));
      this.spill?.close();
      this.spill = undefined;
      this.spillDeleted.clear();
      this.spillStores.clear();
      this.height = height;
      this.appHash = appHash;
      if (firstBlock) this.first = height;
      await this.maybePrune(height);
      return appHash.slice();
    } finally {
      this.committing = false;
    }
  }

  /** SDK pruning: at every `interval`-th height, drop the states at or below `height - 1 - keepRecent`. */
  private async maybePrune(height: number): Promise<void> {
    const pr = this.opts.pruning;
    if (pr === undefined || pr.interval <= 0 || height % pr.interval !== 0 || height <= pr.keepRecent) return;
    let to = height - 1 - pr.keepRecent;
    // never under an open view
    for (const v of this.pinned) if (v.height <= to) to = v.height - 1;
    if (to < this.first || to <= this.trees.prunedTo) return;
    await this.trees.pruneTo(to);
    // past states are immutable tree versions: a cached view only goes stale when its version is pruned
    this.snapshots.clear();
  }

  /**
   * A read-only view of the whole state as of the end of block `height`: the latest is the in-memory state,
   * older ones read the state trees (synchronous like the current state, so query handlers run on it unchanged).
   */
  async snapshotAt(height: number): Promise<KVStore> {
    this.checkHeight(height);
    if (height === this.height) return this.state;
    if (height === 0) return EMPTY_STORE;
    const cached = this.snapshots.get(height);
    if (cached !== undefined) return cached;
    const view = this.trees.viewAt(height);
    if (this.snapshots.size >= 8) this.snapshots.delete(this.snapshots.keys().next().value!);
    this.snapshots.set(height, view);
    return view;
  }

  /**
   * A view of the state at the end of block `height` (default: the last one) that keeps showing that
   * state while later blocks commit, for work that awaits between reads (a query that yields to the
   * event loop). Opening one at the last height costs nothing; each commit while it is open copies the
   * previous values of the changed keys into it (a past height's view reads immutable tree versions, and
   * pruning keeps them while the view is open). Call `release()` when done.
   */
  async openView(height: number = this.height): Promise<StateView> {
    const live = height === this.height;
    const base = live ? this.state : await this.snapshotAt(height);
    const view = new PinnedView(base, height, live, () => this.pinned.delete(view));
    this.pinned.add(view);
    return { store: view.store, height, release: () => view.release() };
  }

  /** Number of views opened by {@link openView} and not yet released. */
  get openViews(): number {
    return this.pinned.size;
  }

  /** The value of `key` at the end of block `height` (0 <= height <= lastHeight; 0 = before genesis). */
  async getAt(height: number, key: Bytes): Promise<Bytes | undefined> {
    return (await this.snapshotAt(height)).get(key);
  }

  /**
   * The state at the end of block `height`: entries with start <= key < end, sorted (descending if
   * `reverse`), at most `limit` of them.
   */
  async iterateAt(
    height: number,
    start?: Bytes,
    end?: Bytes,
    reverse = false,
    limit?: number,
  ): Promise<[Bytes, Bytes][]> {
    const max = checkLimit(limit);
    const view = await this.snapshotAt(height);
    const out: [Bytes, Bytes][] = [];
    if (max === 0) return out;
    for (const e of view.iterator(start, end, reverse)) {
      out.push(e);
      if (out.length >= max) break;
    }
    return out;
  }

  /**
   * The value of `key` (a tree key) in store `store` at the end of block `height`, with its proof against the
   * app hash of that height (which the header of block `height + 1` carries): an ICS-23 existence proof of the
   * value, or a non-existence proof, in the store's IAVL tree (`ics23:iavl`), then the store's root in the app
   * hash (`ics23:simple`), as the SDK's `abci_query` on `/store/<name>/key` with `prove` returns them.
   */
  proveAt(height: number, store: string, key: Bytes): { value: Bytes | undefined; proofOps: ProofOp[] } {
    this.checkHeight(height);
    if (height === 0) throw new VersionNotFoundError('no state before the first block');
    const { value, ops } = this.trees.prove(height, store, key);
    return { value, proofOps: ops };
  }

  /** Raw read of any database key (any namespace). */
  async getRaw(key: Bytes): Promise<Bytes | undefined> {
    return this.db.get(key);
  }

  /**
   * Deletes the raw keys gte <= key < lt of a component namespace (keys from 0x10 on: not the state, its trees or the
   * metadata), outside any block: for data a component moved out of this database.
   */
  async clearRaw(gte: Bytes, lt: Bytes): Promise<void> {
    if (gte.length === 0 || gte[0]! < NS_FIRST_EXTERNAL) throw new Error('clearRaw: keys must start with a namespace byte >= 0x10 (0x00-0x0F are reserved)');
    await this.db.clear({ gte, lt });
  }

  /** Synchronous raw read of any database key (any namespace). */
  getRawSync(key: Bytes): Bytes | undefined {
    return this.db.getSync(key);
  }

  /** Raw entries with gte <= key < lt, ascending (or descending), at most `opts.limit`. */
  async iterateRaw(gte: Bytes, lt: Bytes, opts: RawIterateOptions = {}): Promise<[Bytes, Bytes][]> {
    return iterateRawOf(this.db, gte, lt, opts);
  }

  private checkHeight(height: number): void {
    if (!Number.isSafeInteger(height) || height < 0 || height > this.height) {
      throw new RangeError(`height ${height} is not in [0, ${this.height}]`);
    }
    if (height > 0 && height < this.first) {
      throw new RangeError(`height ${height} is before the first height ${this.first} of this store (the chain's initial height)`);
    }
    if (height > 0 && height < this.height) this.trees.checkHeight(height, this.height);
  }
}

/**
 * A view over `base` that is pinned. Over the live state, `preserve` writes the values `base` shows of the
 * keys a commit is about to change into the view's own overlay (once per key: the first pre-image is the one
 * at the view's height). Over a past height's (immutable) tree view there is nothing to preserve.
 */
class PinnedView {
  private readonly overlay: CacheKVStore | undefined;
  private readonly kept = new Set<string>();
  private released = false;
  readonly store: KVStore;

  constructor(private readonly base: KVStore, readonly height: number, live: boolean, private readonly onRelease: () => void) {
    this.overlay = live ? branch(base) : undefined;
    this.store = this.overlay !== undefined ? readOnly(this.overlay) : base;
  }

  preserve(changes: readonly Change[]): void {
    const overlay = this.overlay;
    if (overlay === undefined) return;
    for (const c of changes) {
      const k = toKey(c.key);
      if (this.kept.has(k)) continue;
      this.kept.add(k);
      const v = this.base.get(c.key);
      if (v === undefined) overlay.delete(c.key);
      else overlay.set(c.key, v);
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

/** The packed changes, checked: keys strictly ascending, values bytes. */
function checkPacked(p: PackedChanges): PackedChanges {
  const { n, bytes, offs, values } = p;
  assertBytes(bytes, 'change keys');
  if (offs.length !== n + 1 || values.length !== n || offs[0] !== 0 || offs[n] !== bytes.length) throw new Error('spillGenesis: packed changes of inconsistent sizes');
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== undefined) assertBytes(v, 'change value');
    if (offs[i + 1]! < offs[i]!) throw new Error('spillGenesis: packed changes with a negative key length');
    if (i > 0 && compareRanges(bytes, offs[i - 1]!, offs[i]!, bytes, offs[i]!, offs[i + 1]!) >= 0) throw new Error('spillGenesis: packed changes not in ascending key order');
  }
  return p;
}

/** Whether bytes[start, end) starts with `prefix`. */
function startsWithAt(bytes: Bytes, start: number, end: number, prefix: Bytes): boolean {
  if (end - start < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[start + k] !== prefix[k]) return false;
  return true;
}

function checkExtraOp(op: BatchOp): void {
  assertBytes(op.key, 'extraOps key');
  if (op.key.length === 0 || op.key[0]! < NS_FIRST_EXTERNAL) {
    throw new Error('commit: extraOps keys must start with a namespace byte >= 0x10 (0x00-0x0F are reserved)');
  }
  if (op.type === 'put') assertBytes(op.value, 'extraOps value');
  else if (op.type !== 'del') throw new Error('commit: extraOps type must be put or del');
}

/** Whether two sorted changesets are the same writes. */
function sameChanges(a: readonly Change[], b: readonly Change[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (!bytesEqual(x.key, y.key)) return false;
    if (x.value === undefined || y.value === undefined ? x.value !== y.value : !bytesEqual(x.value, y.value)) return false;
  }
  return true;
}

/** Where InitChain's moved state goes (spillGenesis): a folder in the database's. */
function spillDir(dir: string): string {
  return join(dir, 'genesis-spill');
}

/** The state before the first block. */
const EMPTY_STORE: KVStore = readOnly(new MemKVStore());
