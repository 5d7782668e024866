/**
 * The state commitment: one IAVL tree per module store and the app hash over the store roots, as the Cosmos
 * SDK's `rootmulti` store (cosmos/iavl v0.19 hashing, `CommitInfo.Hash()` over the sorted name/root pairs).
 *
 * A state key `<name>/<rest>` belongs to store `<name>` under the tree key `<rest>` (the prefix a module's
 * `ctx.kv(storeKey)` adds), so the `acc` tree holds `0x01 || address` as the SDK's does. A store is mounted the
 * first time a block writes to it and stays mounted (an emptied store keeps the empty tree's hash); the list of
 * mounted stores is persisted with the block that mounts one. Every mounted tree saves one version per block
 * (version = block height), so heights and versions are the same numbers in every tree.
 *
 * This module only keeps the trees: the current state for execution is the flat copy the `CommitStore` reads
 * (in memory), and the `CommitStore` writes both in one atomic batch.
 */
import {
  IavlTree,
  putUvarint,
  readUvarint,
  uvarintSize,
  PROOF_OP_IAVL,
  PROOF_OP_SIMPLE,
  TreeView,
  encodeCommitmentProof,
  multistoreProof,
  multistoreRoot,
  OpsCollector,
  type BatchSink,
  type RemoteSortedBuild,
  type SortedBuild,
  type StoreRoot,
} from '@chain/iavl';
import type { ClassicLevel } from 'classic-level';
import { concatBytes } from '@chain/crypto';
import { BulkWriter } from './bulk.js';
import { prefixEnd } from './prefix.js';
import { compareBytes, startsWith } from './keys.js';
import { NS_META, NS_TREES, readBE64, writeBE64 } from './layout.js';
import type { Bytes, Change, KVStore } from './types.js';

type DB = ClassicLevel<Bytes, Bytes>;

const SLASH = 0x2f;
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

/** NS_META 0x03: the mounted stores, `uvarint count` then per store `uvarint len || name || BE64(first height)`. */
export const STORES_KEY: Bytes = Uint8Array.of(NS_META, 0x03);
/** NS_META 0x04: BE64(last pruned height): heights at or below it have no state any more. */
export const PRUNED_KEY: Bytes = Uint8Array.of(NS_META, 0x04);

/** A Tendermint `ProofOp` (`tendermint.crypto.ProofOp`): what `abci_query` with `prove` returns, in order. */
export interface ProofOp {
  type: string;
  key: Bytes;
  data: Bytes;
}

/** How state keys map to stores. `single` (tests, tools): every key in one store of that name, the key as is. */
export interface CommitmentOptions {
  /** IAVL node cache of each store, in nodes (app.toml `iavl-cache-size`). */
  cacheSize?: number;
  single?: string;
}

interface Mounted {
  name: string;
  /** `<name>/` as bytes: the flat key prefix of the store (empty in single mode) */
  prefix: Bytes;
  tree: IavlTree;
  /** the first height the store has a version for */
  first: number;
}

/** An error about a height whose state is not kept (pruned, or before the chain's first block). */
export class VersionNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VersionNotFoundError';
  }
}

export class Commitment {
  /** mounted stores, ordered by flat key prefix (the order their keys have in the flat key space) */
  private stores: Mounted[];
  private readonly byName = new Map<string, Mounted>();
  private staged: { height: number; fresh: string[]; hash: Bytes; builds?: (SortedBuild | RemoteSortedBuild)[] } | undefined;
  /** deletes of node records written for a version that was then discarded (see collectGarbage) */
  private garbage: OpsCollector | undefined;
  /** stores mounted by the block being staged */
  private fresh: string[] = [];
  private pruned: number;

  private constructor(
    private readonly db: DB,
    private readonly opts: CommitmentOptions,
    stores: Mounted[],
    pruned: number,
  ) {
    this.stores = stores;
    for (const s of stores) this.byName.set(s.name, s);
    this.pruned = pruned;
  }

  static async open(db: DB, opts: CommitmentOptions = {}): Promise<Commitment> {
    const rec = await db.get(STORES_KEY);
    const list = rec === undefined ? [] : decodeStores(rec);
    const stores: Mounted[] = [];
    for (const { name, first } of list) stores.push(await openTree(db, opts, name, first));
    sortStores(stores);
    const p = await db.get(PRUNED_KEY);
    return new Commitment(db, opts, stores, p === undefined ? 0 : readBE64(p, 0));
  }

  /** True once any store is mounted (a database written before the state commitment existed has none). */
  get mounted(): number {
    return this.stores.length;
  }

  /** The last pruned height (0: nothing pruned). */
  get prunedTo(): number {
    return this.pruned;
  }

  /** The store and tree key of a state key. */
  route(key: Bytes): { store: string; rel: Bytes } {
    if (this.opts.single !== undefined) return { store: this.opts.single, rel: key };
    const i = key.indexOf(SLASH);
    if (i <= 0) throw new Error(`state key ${Buffer.from(key).toString('hex')} has no store: keys are <store>/<key>`);
    if (i === key.length - 1) throw new Error(`state key of store ${Buffer.from(key.subarray(0, i)).toString()} is empty`);
    return { store: dec.decode(key.subarray(0, i)), rel: key.subarray(i + 1) };
  }

  /**
   * Applies block `height`'s changes (sorted, unique) to the trees, mounting new stores, and stages every tree's
   * version `height` into `sink` (null: hash only, for a preview). Returns the app hash. Follow with
   * `commitStaged()` once the batch is written, or `discardStaged()`.
   */
  async stage(height: number, changes: readonly Change[], sink: BatchSink | null): Promise<Bytes> {
    if (this.staged !== undefined) throw new Error('commitment: a block is already staged');
    this.fresh = [];
    try {
      let cur: Mounted | undefined;
      for (const c of changes) {
        // sorted changes come store by store: a key under the current store's prefix needs no routing
        let rel: Bytes;
        if (cur !== undefined && c.key.length > cur.prefix.length && startsWith(c.key, cur.prefix)) {
          rel = c.key.subarray(cur.prefix.length);
        } else {
          const r = this.route(c.key);
          rel = r.rel;
          cur = this.byName.get(r.store) ?? (await this.mount(r.store, height));
        }
        if (c.value === undefined) cur.tree.remove(rel);
        else cur.tree.set(rel, c.value);
      }
    } catch (e) {
      for (const s of this.stores) s.tree.rollback();
      this.unmount(this.fresh);
      throw e;
    }
    for (const s of this.stores) s.tree.stageVersion(sink ?? undefined);
    if (sink !== null && this.fresh.length > 0) sink.put(STORES_KEY, encodeStores(this.stores));
    // a plain copy (the root may be a Buffer, whose slice() is a view)
    const hash = Uint8Array.from(multistoreRoot(this.stores.map((s) => ({ name: s.name, hash: s.tree.rootHash }))));
    this.staged = { height, fresh: this.fresh, hash };
    return hash;
  }

  /**
   * The first block after InitChain moved its state to disk: every tree (all empty) is built as version `height` from
   * the flat copy `flat` (the genesis state, in key order, an entry with its leaf hash when it was computed ahead for
   * this height) with the block's changes (sorted, unique) over it, as
   * inserting the merged entries in key order into empty trees does (what the SDK's first commit does), by a sorted
   * build that writes each finished node as it goes: the nodes go to the database in batches of their own (garbage
   * until a block refers to them), the roots and the mounted list into `sink` (null: hash only). Returns the app hash;
   * follow with `commitStaged()` or `discardStaged()` as after `stage`. The trees of the stores in `onWorker` are built
   * on worker threads (`IavlTree.beginSortedOnWorker`; not for a hash-only build): this thread merges (the caller's
   * `flat`) and packs their entries while the other cores hash and encode their nodes.
   */
  async stageFromFlat(
    height: number,
    changes: readonly Change[],
    sink: BatchSink | null,
    flat: AsyncIterable<readonly (readonly [Bytes, Bytes, Bytes?])[]>,
    alsoMount: Iterable<string> = [],
    onEntries?: (n: number) => void,
    onWorker: ReadonlySet<string> = new Set(),
  ): Promise<Bytes> {
    if (this.staged !== undefined) throw new Error('commitment: a block is already staged');
    if (this.stores.length > 0) throw new Error('commitment: a build from the flat state needs a store without trees');
    this.fresh = [];
    const records = sink === null ? null : new BulkWriter(this.db);
    const builds: (SortedBuild | RemoteSortedBuild)[] = [];
    // worker builds finishing while the next stores stream (each resolves once its records are in `records`)
    const finishing: Promise<unknown>[] = [];
    let cur: { m: Mounted; b: SortedBuild } | { m: Mounted; b: RemoteSortedBuild; remote: true } | undefined;
    const finishCur = (): void => {
      if (cur === undefined) return;
      if ('remote' in cur) {
        const p = cur.b.finish();
        p.catch(() => undefined); // awaited below
        finishing.push(p);
      } else cur.b.finish();
      cur = undefined;
    };
    const into = async (key: Bytes): Promise<Bytes> => {
      if (cur !== undefined && key.length > cur.m.prefix.length && startsWith(key, cur.m.prefix)) return key.subarray(cur.m.prefix.length);
      const r = this.route(key);
      finishCur();
      const m = this.byName.get(r.store) ?? (await this.mount(r.store, height));
      if (m.tree.version !== 0 || m.tree.dirty) throw new Error(`commitment: store ${m.name} is not empty`);
      if (records !== null && onWorker.has(r.store)) {
        const b = m.tree.beginSortedOnWorker(records);
        cur = { m, b, remote: true };
      } else cur = { m, b: m.tree.beginSorted(records) };
      builds.push(cur.b);
      return r.rel;
    };
    try {
      let i = 0;
      const n = changes.length;
      for await (const entries of flat) {
        for (const e of entries) {
          const k = e[0];
          const v = e[1];
          // the block's changes before this key, then this key (changed by the block, or as the genesis wrote it)
          while (i < n && compareBytes(changes[i]!.key, k) < 0) {
            const c = changes[i++]!;
            const rel = await into(c.key);
            if (c.value !== undefined) cur!.b.add(rel, c.value);
          }
          let value: Bytes | undefined = v;
          if (i < n && compareBytes(changes[i]!.key, k) === 0) value = changes[i++]!.value;
          // (the common case, a key of the current store, without an await per entry)
          const p = cur?.m.prefix;
          const rel = p !== undefined && k.length > p.length && startsWith(k, p) ? k.subarray(p.length) : await into(k);
          // (the leaf hash computed ahead, for the genesis value only; a build on this thread keeps the key and the
          // value in its nodes: copies, not views of the blocks the flat state was read or merged into)
          if (value !== undefined) {
            const genesis = value === v;
            const here = !('remote' in cur!);
            cur!.b.add(here ? rel.slice() : rel, genesis && here ? value.slice() : value, genesis ? e[2] : undefined);
          }
        }
        if (cur !== undefined && 'remote' in cur) await cur.b.pump();
        if (records !== null && records.full) await records.flush();
        onEntries?.(entries.length);
      }
      while (i < n) {
        const c = changes[i++]!;
        const rel = await into(c.key);
        if (c.value !== undefined) cur!.b.add(rel, c.value);
      }
      finishCur();
      // stores the genesis only deleted from are mounted too (empty), as a block that deletes mounts them
      for (const name of alsoMount) {
        if (this.byName.has(name)) continue;
        const m = await this.mount(name, height);
        const b = m.tree.beginSorted(records);
        builds.push(b);
        b.finish();
      }
      await Promise.all(finishing);
      if (records !== null) await records.drain();
    } catch (e) {
      for (const b of builds) if ('pump' in b) b.abort();
      await records?.close();
      for (const s of this.stores) s.tree.discardStaged();
      for (const b of builds) if (records !== null) b.deleteRecords(this.garbageSink());
      this.unmount(this.fresh);
      throw e;
    }
    if (sink !== null) {
      for (const b of builds) b.putRoot(sink);
      if (this.fresh.length > 0) sink.put(STORES_KEY, encodeStores(this.stores));
    }
    const hash = Uint8Array.from(multistoreRoot(this.stores.map((s) => ({ name: s.name, hash: s.tree.rootHash }))));
    this.staged = { height, fresh: this.fresh, hash, builds: records === null ? [] : builds };
    return hash;
  }

  private garbageSink(): OpsCollector {
    return (this.garbage ??= new OpsCollector());
  }

  /** Deletes the node records of discarded sorted builds (see stageFromFlat). */
  async collectGarbage(): Promise<void> {
    const g = this.garbage;
    if (g === undefined) return;
    this.garbage = undefined;
    if (g.ops.length > 0) await this.db.batch(g.ops);
  }

  /** The staged block was written: it becomes the latest version of every tree. */
  commitStaged(): void {
    if (this.staged === undefined) throw new Error('commitment: nothing staged');
    for (const s of this.stores) s.tree.commitStaged();
    this.staged = undefined;
  }

  /** The staged block was not written (or was a preview): every tree returns to its last version. */
  discardStaged(): void {
    const st = this.staged;
    if (st === undefined) return;
    for (const s of this.stores) s.tree.discardStaged();
    for (const b of st.builds ?? []) b.deleteRecords(this.garbageSink());
    this.unmount(st.fresh);
    this.staged = undefined;
  }

  get stagedHeight(): number | undefined {
    return this.staged?.height;
  }

  /** Drops the stores mounted by a block that was not committed. */
  private unmount(names: readonly string[]): void {
    if (names.length === 0) return;
    for (const n of names) this.byName.delete(n);
    this.stores = this.stores.filter((s) => this.byName.has(s.name));
  }

  private async mount(name: string, height: number): Promise<Mounted> {
    if (name.length === 0 || name.includes('/')) throw new Error(`invalid store name ${JSON.stringify(name)}`);
    const m = await openTree(this.db, this.opts, name, height);
    if (m.tree.version !== 0) throw new Error(`commitment: store ${name} has versions but is not in the mounted list`);
    this.stores.push(m);
    this.fresh.push(name);
    sortStores(this.stores);
    this.byName.set(name, m);
    return m;
  }

  /** Throws unless the state of `height` is kept. */
  checkHeight(height: number, latest: number): void {
    if (height <= this.pruned) {
      throw new VersionNotFoundError(
        `failed to load state at height ${height}; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: ${latest})`,
      );
    }
  }

  /** The store roots at `height` (stores mounted at or before it). */
  rootsAt(height: number): StoreRoot[] {
    return this.stores.filter((s) => s.first <= height).map((s) => ({ name: s.name, hash: s.tree.view(height).rootHash }));
  }

  /** The app hash the trees give for `height` (for checks: equals the committed app hash of that height). */
  appHashAt(height: number): Bytes {
    return Uint8Array.from(multistoreRoot(this.rootsAt(height)));
  }

  /** A read-only KVStore of the whole state at `height` (flat keys), reading the trees. */
  viewAt(height: number): KVStore {
    const parts = this.stores.filter((s) => s.first <= height).map((s) => ({ prefix: s.prefix, view: s.tree.view(height) }));
    return new TreesView(parts);
  }

  /**
   * The value of `rel` in store `name` at `height`, with the SDK's proof ops: the IAVL existence or non-existence
   * proof of the key in the store's root (`ics23:iavl`), then the store root in the app hash (`ics23:simple`).
   */
  prove(height: number, name: string, rel: Bytes): { value: Bytes | undefined; ops: ProofOp[] } {
    const s = this.byName.get(name);
    if (s === undefined || s.first > height) throw new Error(`no such store: ${name}`);
    const view = s.tree.view(height);
    const value = view.get(rel);
    if (view.size === 0) throw new Error(`cannot prove a key of the empty store ${name}`);
    const iavl = view.getProof(rel);
    const simple = multistoreProof(this.rootsAt(height), name);
    return {
      value,
      ops: [
        { type: PROOF_OP_IAVL, key: rel.slice(), data: encodeCommitmentProof(iavl) },
        { type: PROOF_OP_SIMPLE, key: enc.encode(name), data: encodeCommitmentProof(simple) },
      ],
    };
  }

  /** The mounted store names, sorted. */
  get names(): string[] {
    return this.stores.map((s) => s.name).sort();
  }

  /** Deletes every version at or below `height` of every tree, and records it (one batch per tree). */
  async pruneTo(height: number): Promise<void> {
    if (height <= this.pruned) return;
    if (this.staged !== undefined) throw new Error('commitment: cannot prune while a block is staged');
    for (const s of this.stores) {
      // keep the latest version always (a tree has one per block, so this only matters at the tip)
      const to = Math.min(height, s.tree.version - 1);
      if (to >= s.first) await s.tree.deleteVersionsTo(to);
    }
    const b = new Uint8Array(8);
    writeBE64(b, 0, height);
    await this.db.put(PRUNED_KEY, b);
    this.pruned = height;
  }
}

async function openTree(db: DB, opts: CommitmentOptions, name: string, first: number): Promise<Mounted> {
  const nameBytes = enc.encode(name);
  const treePrefix = new Uint8Array(2 + nameBytes.length);
  treePrefix[0] = NS_TREES;
  treePrefix.set(nameBytes, 1);
  treePrefix[treePrefix.length - 1] = SLASH;
  const tree = await IavlTree.open({ db, prefix: treePrefix, cacheSize: opts.cacheSize, initialVersion: first });
  const prefix = opts.single !== undefined ? new Uint8Array(0) : concatBytes(nameBytes, Uint8Array.of(SLASH));
  return { name, prefix, tree, first };
}

function sortStores(stores: Mounted[]): void {
  stores.sort((a, b) => compareBytes(a.prefix, b.prefix) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function encodeStores(stores: readonly Mounted[]): Bytes {
  const names = stores.map((s) => enc.encode(s.name));
  let size = uvarintSize(stores.length);
  for (const nb of names) size += uvarintSize(nb.length) + nb.length + 8;
  const out = new Uint8Array(size);
  let off = putUvarint(out, 0, stores.length);
  stores.forEach((s, i) => {
    const nb = names[i]!;
    off = putUvarint(out, off, nb.length);
    out.set(nb, off);
    writeBE64(out, off + nb.length, s.first);
    off += nb.length + 8;
  });
  return out;
}

function decodeStores(b: Bytes): { name: string; first: number }[] {
  let [count, off] = readUvarint(b, 0);
  const out: { name: string; first: number }[] = [];
  while (count-- > 0) {
    let len: number;
    [len, off] = readUvarint(b, off);
    out.push({ name: dec.decode(b.subarray(off, off + len)), first: readBE64(b, off + len) });
    off += len + 8;
  }
  return out;
}

/** The state at one height over the stores' tree views: flat keys, bytewise order across stores. */
class TreesView implements KVStore {
  constructor(private readonly parts: readonly { prefix: Bytes; view: TreeView }[]) {}

  private find(key: Bytes): { view: TreeView; rel: Bytes } | undefined {
    for (const p of this.parts) {
      if (key.length > p.prefix.length && startsWith(key, p.prefix)) return { view: p.view, rel: key.subarray(p.prefix.length) };
    }
    return undefined;
  }

  get(key: Bytes): Bytes | undefined {
    const f = this.find(key);
    return f === undefined ? undefined : f.view.get(f.rel);
  }

  has(key: Bytes): boolean {
    return this.get(key) !== undefined;
  }

  set(): void {
    throw new Error('a past state is read-only');
  }

  delete(): void {
    throw new Error('a past state is read-only');
  }

  *iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    const parts = reverse ? [...this.parts].reverse() : this.parts;
    for (const p of parts) {
      const pEnd = p.prefix.length === 0 ? undefined : prefixEnd(p.prefix);
      // the range [start, end) clipped to the store's keys [prefix, pEnd), as tree keys
      let lo: Bytes | undefined;
      let hi: Bytes | undefined;
      if (start !== undefined) {
        if (pEnd !== undefined && compareBytes(start, pEnd) >= 0) continue;
        if (compareBytes(start, p.prefix) > 0) lo = start.subarray(p.prefix.length);
      }
      if (end !== undefined) {
        if (compareBytes(end, p.prefix) <= 0) continue;
        if (pEnd === undefined || compareBytes(end, pEnd) < 0) hi = end.subarray(p.prefix.length);
      }
      if (lo !== undefined && hi !== undefined && compareBytes(lo, hi) >= 0) continue;
      for (const [k, v] of p.view.iterator(lo, hi, reverse)) yield [concatBytes(p.prefix, k), v];
    }
  }
}

