/**
 * A versioned IAVL+ tree on LevelDB with the hashing of cosmos/iavl v0.19/v0.20 (Cosmos SDK v0.45/v0.47): the
 * same AVL shape (insert, update, remove and rotations as `MutableTree.recursiveSet` / `recursiveRemove` /
 * `balance` do them), the same node versions (every node created or copied while building version V carries V),
 * hence the same root hashes. Nodes live in the caller's classic-level database under a key prefix, addressed by
 * a per-tree sequence number assigned at save (a version's new nodes are written contiguously, appended at the end
 * of the key space; the hash stays IAVL's, computed from the node's fields); old versions are removed through one
 * orphan list per version (IAVL's legacy orphan scheme, packed).
 */
import type { ClassicLevel } from 'classic-level';
import { type BuildHost, type SortedBuild, SortedBuilder } from './build.js';
import { RemoteSortedBuild } from './build-remote.js';
import { NodeCache } from './cache.js';
import {
  type Bytes,
  EMPTY_HASH,
  bytesEqual,
  compareBytes,
  concatBytes,
  copyBytes,
  putUvarint,
  readBE64,
  readU32le,
  readUvarint,
  writeBE64,
  writeU32le,
} from './encoding.js';
import {
  HASH_SIZE,
  type Hash,
  Node,
  decodeNode,
  encodeNodeInto,
  encodedSizeBound,
  hashFromBytes,
  hashToBytes,
  innerHashOf,
  leafHashOf,
  putHash,
} from './node.js';
import {
  type CommitmentProof,
  type ExistenceProof,
  type PathStep,
  iavlInnerOps,
  iavlLeafOp,
} from './proof.js';

/** The database the tree reads and writes: a classic-level database opened with `'view'` key and value encodings. */
export type IavlDb = ClassicLevel<Bytes, Bytes>;

/** Where a version's writes go: an array collector, or a classic-level chained batch (`db.batch()`). */
export interface BatchSink {
  put(key: Bytes, value: Bytes): unknown;
  del(key: Bytes): unknown;
}

export type BatchOp = { type: 'put'; key: Bytes; value: Bytes } | { type: 'del'; key: Bytes };

/** Collects batch operations into an array usable with `db.batch(ops)`. */
export class OpsCollector implements BatchSink {
  readonly ops: BatchOp[] = [];
  put(key: Bytes, value: Bytes): void {
    this.ops.push({ type: 'put', key, value });
  }
  del(key: Bytes): void {
    this.ops.push({ type: 'del', key });
  }
}

export interface IavlTreeOptions {
  db: IavlDb;
  /** Key prefix of this tree's namespace in the database (may be empty when the database is the tree's own). */
  prefix: Bytes;
  /** Node cache size, in nodes (default 100,000). */
  cacheSize?: number;
  /**
   * Levels at the top of the tree whose nodes keep direct references to their children (outside the cache: they
   * are on every path). About 2^pinnedLevels nodes; default 14.
   */
  pinnedLevels?: number;
  /** The first version to save when the tree has none (IAVL's `InitialVersion`; default 1). */
  initialVersion?: number;
}

export interface SavedVersion {
  version: number;
  /** The root hash; sha256("") for an empty tree, as iavl v0.19+ returns from `SaveVersion`. */
  rootHash: Bytes;
}

export interface StagedVersion extends SavedVersion {
  /** The batch operations, when no sink was given. */
  ops: BatchOp[];
}

// Sub-namespaces under the caller's prefix.
const K_NODE = 0x6e; // 'n' || BE64(chunk)    -> up to CHUNK nodes with ids chunk*CHUNK + i (see encodeChunk)
const K_ROOT = 0x72; // 'r' || BE64(version)  -> rootHash(32) || BE64(rootId) || BE64(nextId), or BE64(nextId) (empty tree)
const K_ORPHAN = 0x6f; // 'o' || BE64(to)     -> uvarint(id)*: nodes whose last version is `to`

const EMPTY = new Uint8Array(0);

/**
 * Nodes per database record. Node ids are assigned in post-order at save (a sorted build: in the order its nodes
 * are finalized, children before parents), and each version starts at a multiple of CHUNK, so a version's nodes
 * fill whole records of their own (~4 KB): one LevelDB write per CHUNK nodes.
 * Record: count(1) || count x u32le end offset of entry i in the data || data; an entry of length 0 is a
 * missing (pruned) node.
 */
const CHUNK = 32;

/** The byte range [start, end) of entry `idx` in a chunk record (empty when absent or pruned). */
function chunkEntry(rec: Uint8Array, idx: number): [number, number] {
  const count = rec[0]!;
  if (idx >= count) return [0, 0];
  const base = 1 + 4 * count;
  const start = idx === 0 ? 0 : readU32le(rec, 1 + 4 * (idx - 1));
  return [base + start, base + readU32le(rec, 1 + 4 * idx)];
}

/** A chunk record without the entries in `dead` (undefined when no entry is left). */
function pruneChunk(rec: Uint8Array, dead: Set<number>): Uint8Array | undefined {
  const count = rec[0]!;
  const parts: Uint8Array[] = [];
  let live = 0;
  for (let i = 0; i < count; i++) {
    const [a, b] = chunkEntry(rec, i);
    const part = dead.has(i) ? EMPTY : rec.subarray(a, b);
    if (part.length > 0) live++;
    parts.push(part);
  }
  if (live === 0) return undefined;
  let len = 1 + 4 * count;
  for (const part of parts) len += part.length;
  const out = new Uint8Array(len);
  out[0] = count;
  let off = 0;
  for (let i = 0; i < count; i++) {
    out.set(parts[i]!, 1 + 4 * count + off);
    off += parts[i]!.length;
    writeU32le(out, 1 + 4 * i, off);
  }
  return out;
}

/** Size of the arenas the staged records are encoded into (a record that does not fit gets an arena of its own). */
const ARENA = 256 * 1024;

/**
 * Encodes a version's new nodes, given in id order (contiguous ids, the first a multiple of CHUNK), into chunk
 * records as they come, and puts each full record into the sink. Records are views into arenas allocated here
 * (the sink may keep them until the batch is written).
 *
 * For the sorted build (`IavlTree.beginSorted`) the sink can change between records (`setOut`), be null (hash
 * only: a record started without a sink is not encoded, a record completed without one is dropped), and the
 * nodes are not kept (`keep` false).
 */
export class ChunkWriter {
  private arena = new Uint8Array(0);
  /** write position; start of the current record's key; its value (the count byte); entries in it */
  private pos = 0;
  private rec = 0;
  private hdr = 0;
  private count = 0;
  /** Whether the current record is being encoded (a sink was set when it started). */
  private encoding = true;
  /** The nodes added, in id order (when `keep`). */
  readonly nodes: Node[] = [];
  /** Bytes (keys + values) put into the current sink since the last `setOut`. */
  bytes = 0;

  constructor(
    private readonly prefix: Bytes,
    private out: BatchSink | null,
    private readonly keep = true,
  ) {}

  /** Records completed from now on go to `out` (null: dropped). */
  setOut(out: BatchSink | null): void {
    if (out !== null && this.count > 0 && !this.encoding)
      throw new Error('iavl: sorted build: cannot set a sink in the middle of a record started without one');
    this.out = out;
    this.bytes = 0;
  }

  add(n: Node): void {
    if (this.keep) this.nodes.push(n);
    if (this.count === 0) {
      this.encoding = this.out !== null;
      if (!this.encoding) {
        this.count = 1;
        return;
      }
      const need = encodedSizeBound(n);
      this.ensure(this.prefix.length + 10 + 4 * CHUNK + need);
      const a = this.arena;
      const p = this.prefix.length;
      this.rec = this.pos;
      a.set(this.prefix, this.pos);
      a[this.pos + p] = K_NODE;
      writeBE64(a, this.pos + p + 1, Math.floor(n.id / CHUNK));
      this.hdr = this.pos + p + 9;
      this.pos = this.hdr + 1 + 4 * CHUNK;
    } else if (!this.encoding) {
      if (++this.count === CHUNK) this.count = 0;
      return;
    } else this.ensure(encodedSizeBound(n));
    const base = this.hdr + 1 + 4 * CHUNK;
    this.pos = encodeNodeInto(n, this.arena, this.pos);
    writeU32le(this.arena, this.hdr + 1 + 4 * this.count, this.pos - base);
    if (++this.count === CHUNK) this.flush();
  }

  /** Put the current record (a last record of fewer than CHUNK entries has its data moved up to its header). */
  flush(): void {
    const c = this.count;
    if (c === 0) return;
    this.count = 0;
    const out = this.out;
    if (!this.encoding) return;
    if (out === null) {
      this.pos = this.rec; // dropped: its space is reused
      return;
    }
    const a = this.arena;
    a[this.hdr] = c;
    if (c < CHUNK) {
      const from = this.hdr + 1 + 4 * CHUNK;
      a.copyWithin(this.hdr + 1 + 4 * c, from, this.pos);
      this.pos -= 4 * (CHUNK - c);
    }
    this.bytes += this.pos - this.rec;
    out.put(a.subarray(this.rec, this.hdr), a.subarray(this.hdr, this.pos));
  }

  /** Room for `need` more bytes, moving the current record to a new arena if needed. */
  private ensure(need: number): void {
    if (this.pos + need <= this.arena.length) return;
    const start = this.count === 0 ? this.pos : this.rec;
    const used = this.pos - start;
    const next = new Uint8Array(Math.max(ARENA, used + need + this.prefix.length + 10 + 4 * CHUNK));
    if (used > 0) next.set(this.arena.subarray(start, this.pos), 0);
    this.hdr -= start;
    this.rec -= start;
    this.pos = used;
    this.arena = next;
  }
}

/**
 * Chunk records kept after a read (round robin): a version's nodes are stored in post-order, so the nodes of
 * neighbouring subtrees, which sorted changes visit one after the other, often share a record.
 */
const RECENT = 8;

/** A version's root record: rootHash(32) || BE64(rootId) || BE64(nextId), or BE64(nextId) for an empty tree. */
function rootRecord(root: Node | undefined, nextId: number): Uint8Array {
  if (root === undefined) {
    const rec = new Uint8Array(8);
    writeBE64(rec, 0, nextId);
    return rec;
  }
  const rec = new Uint8Array(HASH_SIZE + 16);
  putHash(rec, 0, root.hash!);
  writeBE64(rec, HASH_SIZE, root.id);
  writeBE64(rec, HASH_SIZE + 8, nextId);
  return rec;
}

const enum Side {
  Left = 0,
  Right = 1,
}

/** Reads persisted nodes: the pending (staged, not yet written) nodes, the cache, then the database. */
class NodeReader {
  readonly cache: NodeCache;
  /** The staged version's nodes (written at commit), by id - `pendingFirst`. */
  pending: Node[] | undefined = undefined;
  pendingFirst = 0;
  /** Persisted nodes above this height keep references to their children (the pinned top of the tree). */
  pinHeight = 1 << 30;
  private readonly keyBuf: Uint8Array;
  reads = 0;

  constructor(
    readonly db: IavlDb,
    readonly prefix: Bytes,
    cacheSize: number,
  ) {
    this.cache = new NodeCache(cacheSize);
    this.keyBuf = new Uint8Array(prefix.length + 9);
    this.keyBuf.set(prefix, 0);
    this.keyBuf[prefix.length] = K_NODE;
  }

  /** Key of the chunk record holding node `id`. */
  chunkKey(chunk: number): Bytes {
    const k = new Uint8Array(this.prefix.length + 9);
    k.set(this.prefix, 0);
    k[this.prefix.length] = K_NODE;
    writeBE64(k, this.prefix.length + 1, chunk);
    return k;
  }

  /** The last RECENT chunk records read, by chunk number (-1: none), written round robin. */
  private readonly recChunks = new Float64Array(RECENT).fill(-1);
  private readonly recs: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(RECENT).fill(undefined);
  private recNext = 0;

  /** Forget the chunk records kept (after pruning rewrote records, and at commit). */
  invalidate(): void {
    this.recChunks.fill(-1);
    this.recs.fill(undefined);
  }

  load(id: number, hash: Hash): Node {
    const pend = this.pending;
    if (pend !== undefined && id >= this.pendingFirst && id - this.pendingFirst < pend.length) return pend[id - this.pendingFirst]!;
    const c = this.cache.get(id);
    if (c !== undefined) return c;
    const chunk = Math.floor(id / CHUNK);
    let rec: Uint8Array | undefined;
    const rc = this.recChunks;
    for (let i = 0; i < RECENT; i++) {
      if (rc[i] === chunk) {
        rec = this.recs[i];
        break;
      }
    }
    if (rec === undefined) {
      writeBE64(this.keyBuf, this.prefix.length + 1, chunk);
      rec = this.db.getSync(this.keyBuf);
      this.reads++;
      if (rec !== undefined) {
        const i = this.recNext;
        rc[i] = chunk;
        this.recs[i] = rec;
        this.recNext = i + 1 === RECENT ? 0 : i + 1;
      }
    }
    const [a, b] = rec === undefined ? [0, 0] : chunkEntry(rec, id - chunk * CHUNK);
    if (a === b) throw new Error(`iavl: node ${id} not found (pruned version?)`);
    const n = decodeNode(rec!, a, b, hash, id); // copies: the cached node does not keep the record alive
    this.cache.add(id, n, n.height === 0 ? 0 : 1);
    return n;
  }

  child(n: Node, side: Side): Node {
    if (side === Side.Left) {
      const c = n.left;
      if (c !== undefined) return c;
      const l = this.load(n.leftId, n.leftHash!);
      if (n.height > this.pinHeight && n.persisted) n.left = l;
      return l;
    }
    const c = n.right;
    if (c !== undefined) return c;
    const r = this.load(n.rightId, n.rightHash!);
    if (n.height > this.pinHeight && n.persisted) n.right = r;
    return r;
  }
}

function checkKey(key: Bytes): void {
  if (!(key instanceof Uint8Array) || key.length === 0) throw new TypeError('iavl: key must be a non-empty Uint8Array');
}

/** Read-only operations over a root (a saved version, or the working tree). */
abstract class TreeReads {
  protected abstract readonly reader: NodeReader;
  protected abstract currentRoot(): Node | undefined;

  /** The value of `key`, or undefined. */
  get(key: Bytes): Bytes | undefined {
    let n = this.currentRoot();
    if (n === undefined) return undefined;
    const r = this.reader;
    while (n.height > 0) n = r.child(n, compareBytes(key, n.key) < 0 ? Side.Left : Side.Right);
    return bytesEqual(n.key, key) ? n.value : undefined;
  }

  has(key: Bytes): boolean {
    return this.get(key) !== undefined;
  }

  /** Number of keys. */
  get size(): number {
    return this.currentRoot()?.size ?? 0;
  }

  /** Height of the tree (0 for a single leaf, -1 when empty). */
  get height(): number {
    return this.currentRoot()?.height ?? -1;
  }

  /**
   * Entries with `start <= key < end` (either bound may be undefined) in key order, or reverse order.
   * Synchronous; on the working tree, do not change the tree while iterating.
   */
  *iterator(start?: Bytes, end?: Bytes, reverse = false): Generator<[Bytes, Bytes]> {
    const root = this.currentRoot();
    if (root === undefined) return;
    const r = this.reader;
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.height === 0) {
        if ((start === undefined || compareBytes(n.key, start) >= 0) && (end === undefined || compareBytes(n.key, end) < 0))
          yield [n.key, n.value!];
        continue;
      }
      // Keys of the left subtree are < n.key, those of the right subtree >= n.key.
      const goLeft = start === undefined || compareBytes(start, n.key) < 0;
      const goRight = end === undefined || compareBytes(n.key, end) < 0;
      if (reverse) {
        if (goLeft) stack.push(r.child(n, Side.Left));
        if (goRight) stack.push(r.child(n, Side.Right));
      } else {
        if (goRight) stack.push(r.child(n, Side.Right));
        if (goLeft) stack.push(r.child(n, Side.Left));
      }
    }
  }
}

/** An immutable view of one saved version. */
export class TreeView extends TreeReads {
  constructor(
    protected readonly reader: NodeReader,
    readonly version: number,
    private readonly root: Node | undefined,
  ) {
    super();
  }

  protected currentRoot(): Node | undefined {
    return this.root;
  }

  /** The root hash (sha256("") when empty). */
  get rootHash(): Bytes {
    return this.root === undefined ? EMPTY_HASH : hashToBytes(this.root.hash!);
  }

  /**
   * An ICS-23 proof of `key` against `rootHash`: an existence proof when the key is present, otherwise a
   * non-existence proof with the neighbours (cosmos/iavl `GetMembershipProof` / `GetNonMembershipProof`).
   * Throws on an empty tree (IAVL has no proof of absence in an empty tree).
   */
  getProof(key: Bytes): CommitmentProof {
    checkKey(key);
    if (this.root === undefined) throw new Error('iavl: cannot prove a key in an empty tree');
    if (this.get(key) !== undefined) return { exist: this.existenceProof(key) };
    let left: Bytes | undefined;
    let right: Bytes | undefined;
    for (const [k] of this.iterator(undefined, key, true)) {
      left = k;
      break;
    }
    for (const [k] of this.iterator(key, undefined, false)) {
      right = k;
      break;
    }
    const nonexist: { key: Bytes; left?: ExistenceProof; right?: ExistenceProof } = { key: copyBytes(key) };
    if (left !== undefined) nonexist.left = this.existenceProof(left);
    if (right !== undefined) nonexist.right = this.existenceProof(right);
    return { nonexist };
  }

  /** The hashes of every node of this version (pre-order); for tools, export and tests. */
  *nodeHashes(): Generator<Bytes> {
    if (this.root === undefined) return;
    const stack: Node[] = [this.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      yield hashToBytes(n.hash!);
      if (n.height > 0) stack.push(this.reader.child(n, Side.Right), this.reader.child(n, Side.Left));
    }
  }

  /** The existence proof of a present key (IAVL `createExistenceProof`). */
  existenceProof(key: Bytes): ExistenceProof {
    let n = this.root;
    if (n === undefined) throw new Error('iavl: empty tree');
    const r = this.reader;
    const path: PathStep[] = [];
    while (n.height > 0) {
      if (compareBytes(key, n.key) < 0) {
        path.push({ height: n.height, size: n.size, version: n.version, right: hashToBytes(n.rightHash!) });
        n = r.child(n, Side.Left);
      } else {
        path.push({ height: n.height, size: n.size, version: n.version, left: hashToBytes(n.leftHash!) });
        n = r.child(n, Side.Right);
      }
    }
    if (!bytesEqual(n.key, key)) throw new Error('iavl: key not in tree');
    return { key: copyBytes(n.key), value: copyBytes(n.value!), leaf: iavlLeafOp(n.version), path: iavlInnerOps(path) };
  }
}

/** Result of removing from a subtree: the new subtree (undefined: it was the removed leaf) and the new leftmost key. */
interface Removed {
  node: Node | undefined;
  newKey: Bytes | undefined;
}

/**
 * The mutable, versioned tree (IAVL's `MutableTree`). Changes accumulate in the working tree; `saveVersion()`
 * (or `stageVersion()` + the caller's batch write + `commitStaged()`) hashes the changed nodes and persists them as
 * the next version.
 */
export class IavlTree extends TreeReads {
  protected readonly reader: NodeReader;
  private readonly db: IavlDb;
  private readonly prefix: Bytes;
  private readonly initialVersion: number;
  /** Saved versions, ascending. */
  private versions: number[];
  private savedRoot: Node | undefined;
  private root: Node | undefined;
  /** Ids of the persisted nodes replaced since the last save. */
  private orphans: number[] = [];
  /** The next node id. */
  private nextId = 1;
  private readonly pinnedLevels: number;
  private staged:
    | { previousRoot: Node | undefined; previousVersions: number[]; previousNextId: number; sorted: boolean }
    | undefined = undefined;
  /** The sorted build in progress (`beginSorted` until its `finish` or `abort`). */
  private building: SortedBuilder | RemoteSortedBuild | undefined = undefined;
  private removedValue: Bytes | undefined = undefined;
  /** Figures of the last `stageVersion`: nodes written, orphans recorded, ms hashing, ms encoding into the sink. */
  lastStage = { nodes: 0, orphans: 0, hashMs: 0, encodeMs: 0 };
  private updated = false;

  private constructor(opts: IavlTreeOptions, versions: number[], root: Node | undefined) {
    super();
    this.db = opts.db;
    this.prefix = copyBytes(opts.prefix);
    this.reader = new NodeReader(opts.db, this.prefix, opts.cacheSize ?? 100_000);
    this.initialVersion = opts.initialVersion ?? 1;
    this.pinnedLevels = opts.pinnedLevels ?? 14;
    this.versions = versions;
    this.savedRoot = root;
    this.root = root;
  }

  /** Open the tree at its latest saved version (reads the version list and the latest root only). */
  static async open(opts: IavlTreeOptions): Promise<IavlTree> {
    const db = opts.db;
    if (db.status !== 'open') await db.open();
    if (db.keyEncoding().commonName !== 'view' || db.valueEncoding().commonName !== 'view')
      throw new Error("iavl: the database must use keyEncoding and valueEncoding 'view'");
    const iv = opts.initialVersion ?? 1;
    if (!Number.isSafeInteger(iv) || iv < 1) throw new RangeError(`iavl: invalid initialVersion ${iv}`);
    const prefix = opts.prefix;
    const versions: number[] = [];
    const lo = concatBytes(prefix, Uint8Array.of(K_ROOT));
    const hi = concatBytes(prefix, Uint8Array.of(K_ROOT + 1));
    for await (const k of db.keys({ gte: lo, lt: hi })) versions.push(readBE64(k, prefix.length + 1));
    const tree = new IavlTree(opts, versions, undefined);
    if (versions.length > 0) {
      const rec = tree.readRootRecord(versions[versions.length - 1]!);
      tree.nextId = rec.nextId;
      const root = tree.rootOf(rec);
      tree.savedRoot = root;
      tree.root = root;
      tree.updatePin();
    }
    return tree;
  }

  protected currentRoot(): Node | undefined {
    return this.root;
  }

  /** The latest saved version (0 when none). */
  get version(): number {
    return this.versions.length > 0 ? this.versions[this.versions.length - 1]! : 0;
  }

  /** The version the next save will create. */
  get workingVersion(): number {
    return this.versions.length > 0 ? this.version + 1 : this.initialVersion;
  }

  /** The root hash of the latest saved version (sha256("") when empty or none). */
  get rootHash(): Bytes {
    return this.savedRoot === undefined ? EMPTY_HASH : hashToBytes(this.savedRoot.hash!);
  }

  /** Saved versions still available, ascending. */
  availableVersions(): number[] {
    return this.versions.slice();
  }

  versionExists(version: number): boolean {
    return this.indexOfVersion(version) >= 0;
  }

  /** Number of node reads that went to the database (cache misses) since open. */
  get dbReads(): number {
    return this.reader.reads;
  }

  get cacheSize(): number {
    return this.reader.cache.size;
  }

  /** True when the working tree differs from the last saved version. */
  get dirty(): boolean {
    return this.root !== this.savedRoot;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Versions

  /** An immutable view of a saved version (default: the latest). */
  view(version = this.version): TreeView {
    if (version === this.version && this.staged === undefined) return new TreeView(this.reader, version, this.savedRoot);
    if (this.indexOfVersion(version) < 0) throw new Error(`iavl: version ${version} does not exist`);
    return new TreeView(this.reader, version, version === this.version ? this.savedRoot : this.loadRoot(version));
  }

  getAt(version: number, key: Bytes): Bytes | undefined {
    return this.view(version).get(key);
  }

  hasAt(version: number, key: Bytes): boolean {
    return this.getAt(version, key) !== undefined;
  }

  /** ICS-23 proof of `key` in a saved version (default: the latest). See `TreeView.getProof`. */
  getProof(key: Bytes, version = this.version): CommitmentProof {
    return this.view(version).getProof(key);
  }

  private indexOfVersion(v: number): number {
    const vs = this.versions;
    let lo = 0;
    let hi = vs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = vs[mid]!;
      if (x === v) return mid;
      if (x < v) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private rootKey(version: number): Bytes {
    const k = new Uint8Array(this.prefix.length + 9);
    k.set(this.prefix, 0);
    k[this.prefix.length] = K_ROOT;
    writeBE64(k, this.prefix.length + 1, version);
    return k;
  }

  private orphanKey(to: number): Bytes {
    const p = this.prefix.length;
    const k = new Uint8Array(p + 9);
    k.set(this.prefix, 0);
    k[p] = K_ORPHAN;
    writeBE64(k, p + 1, to);
    return k;
  }

  private readRootRecord(version: number): { hash: Hash | undefined; id: number; nextId: number } {
    const r = this.db.getSync(this.rootKey(version));
    if (r === undefined) throw new Error(`iavl: version ${version} does not exist`);
    if (r.length === 8) return { hash: undefined, id: 0, nextId: readBE64(r, 0) };
    if (r.length !== HASH_SIZE + 16) throw new Error(`iavl: bad root record of version ${version}`);
    return { hash: hashFromBytes(r, 0), id: readBE64(r, HASH_SIZE), nextId: readBE64(r, HASH_SIZE + 8) };
  }

  private rootOf(rec: { hash: Hash | undefined; id: number }): Node | undefined {
    return rec.hash === undefined ? undefined : this.reader.load(rec.id, rec.hash);
  }

  private loadRoot(version: number): Node | undefined {
    return this.rootOf(this.readRootRecord(version));
  }

  /** Pin the top `pinnedLevels` levels of the current tree. */
  private updatePin(): void {
    const h = this.savedRoot?.height ?? 0;
    this.reader.pinHeight = Math.max(1, h - this.pinnedLevels);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Changes (working tree)

  /** Set `key` to `value`; returns true when the key existed (an update). */
  set(key: Bytes, value: Bytes): boolean {
    checkKey(key);
    if (!(value instanceof Uint8Array)) throw new TypeError('iavl: value must be a Uint8Array');
    this.assertNotStaged();
    const v = this.workingVersion;
    if (this.root === undefined) {
      this.root = Node.leaf(copyBytes(key), copyBytes(value), v);
      return false;
    }
    this.updated = false;
    this.root = this.setRec(this.root, key, value, v, undefined);
    return this.updated;
  }

  /** Remove `key`; returns its previous value, or undefined when absent. */
  remove(key: Bytes): Bytes | undefined {
    checkKey(key);
    this.assertNotStaged();
    if (this.root === undefined) return undefined;
    this.removedValue = undefined;
    const r = this.removeRec(this.root, key, this.workingVersion);
    if (r === undefined) return undefined;
    this.root = r.node;
    return this.removedValue;
  }

  /** Drop the working changes (back to the latest saved version). */
  rollback(): void {
    this.assertNotStaged();
    this.root = this.savedRoot;
    this.orphans.length = 0;
  }

  private assertNotStaged(): void {
    if (this.staged !== undefined) throw new Error('iavl: a staged version awaits commitStaged() or discardStaged()');
    if (this.building !== undefined) throw new Error('iavl: a sorted build is in progress (beginSorted)');
  }

  private orphan(n: Node): void {
    if (n.persisted) {
      this.orphans.push(n.id);
      this.reader.cache.cool(n.id); // from now on it only serves views of older versions: first to leave the cache
    }
  }

  /** A node of the working version to modify: a dirty node itself, or a dirty copy of a persisted one. */
  private mutable(n: Node, version: number): Node {
    if (!n.persisted) return n;
    this.orphan(n);
    return n.cloneAt(version);
  }

  private setChild(n: Node, side: Side, child: Node): void {
    if (side === Side.Left) {
      n.left = child;
      n.leftHash = undefined;
      n.leftId = 0;
      n.lh = child.height;
      n.ls = child.size;
    } else {
      n.right = child;
      n.rightHash = undefined;
      n.rightId = 0;
      n.rh = child.height;
      n.rs = child.size;
    }
  }

  /** Height and size from the children's (kept in the node: no child is read). */
  private calcHeightAndSize(n: Node): void {
    n.height = (n.lh > n.rh ? n.lh : n.rh) + 1;
    n.size = n.ls + n.rs;
  }

  private balanceOf(n: Node): number {
    return n.lh - n.rh;
  }

  /**
   * Set `key` in the subtree of `node`. `minKey` is the smallest key of that subtree when known: the key of the
   * nearest ancestor the path went right at (an inner node's key is the smallest key of its right subtree), so a
   * persisted leaf on the path is known by its key, id and hash in its parent and is never read (see `setInLeaf`).
   */
  private setRec(node: Node, key: Bytes, value: Bytes, version: number, minKey: Bytes | undefined): Node {
    if (node.height === 0) {
      const c = compareBytes(key, node.key);
      if (c === 0) {
        this.orphan(node);
        this.updated = true;
        return Node.leaf(node.key, copyBytes(value), version);
      }
      const leaf = Node.leaf(copyBytes(key), copyBytes(value), version);
      const inner = new Node(c < 0 ? node.key : leaf.key, undefined, version, 1, 2);
      this.setChild(inner, Side.Left, c < 0 ? leaf : node);
      this.setChild(inner, Side.Right, c < 0 ? node : leaf);
      return inner;
    }
    const n = this.mutable(node, version);
    if (compareBytes(key, n.key) < 0) {
      const c = n.left;
      if (c === undefined && n.lh === 0 && minKey !== undefined) this.setInLeaf(n, Side.Left, minKey, key, value, version);
      else this.setChild(n, Side.Left, this.setRec(c ?? this.reader.child(n, Side.Left), key, value, version, minKey));
    } else {
      const c = n.right;
      if (c === undefined && n.rh === 0) this.setInLeaf(n, Side.Right, n.key, key, value, version);
      else this.setChild(n, Side.Right, this.setRec(c ?? this.reader.child(n, Side.Right), key, value, version, n.key));
    }
    if (this.updated) return n;
    this.calcHeightAndSize(n);
    return this.balance(n, version);
  }

  /**
   * `setRec` at the persisted leaf child `side` of dirty `n`, known only by its key `leafKey`, id and hash (in `n`):
   * an update replaces it by a new leaf, an insert by an inner node over it and the new leaf (IAVL's leaf split).
   */
  private setInLeaf(n: Node, side: Side, leafKey: Bytes, key: Bytes, value: Bytes, version: number): void {
    const c = compareBytes(key, leafKey);
    const id = side === Side.Left ? n.leftId : n.rightId;
    if (c === 0) {
      this.orphans.push(id);
      this.updated = true;
      this.setChild(n, side, Node.leaf(leafKey, copyBytes(value), version));
      return;
    }
    const hash = side === Side.Left ? n.leftHash : n.rightHash;
    const leaf = Node.leaf(copyBytes(key), copyBytes(value), version);
    const inner = new Node(c < 0 ? leafKey : leaf.key, undefined, version, 1, 2);
    if (c < 0) {
      this.setChild(inner, Side.Left, leaf);
      inner.rightHash = hash;
      inner.rightId = id;
      inner.rs = 1;
    } else {
      inner.leftHash = hash;
      inner.leftId = id;
      inner.ls = 1;
      this.setChild(inner, Side.Right, leaf);
    }
    this.setChild(n, side, inner);
  }

  private removeRec(node: Node, key: Bytes, version: number): Removed | undefined {
    if (node.height === 0) {
      if (!bytesEqual(key, node.key)) return undefined;
      this.orphan(node);
      this.removedValue = node.value;
      return { node: undefined, newKey: undefined };
    }
    if (compareBytes(key, node.key) < 0) {
      const r = this.removeRec(this.reader.child(node, Side.Left), key, version);
      if (r === undefined) return undefined;
      if (r.node === undefined) {
        // The left child was the removed leaf: this node collapses into its right child.
        const right = this.reader.child(node, Side.Right);
        this.orphan(node);
        return { node: right, newKey: node.key };
      }
      const n = this.mutable(node, version);
      this.setChild(n, Side.Left, r.node);
      this.calcHeightAndSize(n);
      return { node: this.balance(n, version), newKey: r.newKey };
    }
    const r = this.removeRec(this.reader.child(node, Side.Right), key, version);
    if (r === undefined) return undefined;
    if (r.node === undefined) {
      const left = this.reader.child(node, Side.Left);
      this.orphan(node);
      return { node: left, newKey: undefined };
    }
    const n = this.mutable(node, version);
    this.setChild(n, Side.Right, r.node);
    if (r.newKey !== undefined) n.key = r.newKey;
    this.calcHeightAndSize(n);
    return { node: this.balance(n, version), newKey: undefined };
  }

  /** Rotate right around dirty `n`: its left child (copied) becomes the subtree root. */
  private rotateRight(n: Node, version: number): Node {
    const l = this.mutable(this.reader.child(n, Side.Left), version);
    // n.left = l.right
    n.left = l.right;
    n.leftHash = l.rightHash;
    n.leftId = l.rightId;
    n.lh = l.rh;
    n.ls = l.rs;
    this.calcHeightAndSize(n);
    this.setChild(l, Side.Right, n);
    this.calcHeightAndSize(l);
    return l;
  }

  /** Rotate left around dirty `n`: its right child (copied) becomes the subtree root. */
  private rotateLeft(n: Node, version: number): Node {
    const r = this.mutable(this.reader.child(n, Side.Right), version);
    n.right = r.left;
    n.rightHash = r.leftHash;
    n.rightId = r.leftId;
    n.rh = r.lh;
    n.rs = r.ls;
    this.calcHeightAndSize(n);
    this.setChild(r, Side.Left, n);
    this.calcHeightAndSize(r);
    return r;
  }

  /** IAVL's `balance` on a dirty node. */
  private balance(n: Node, version: number): Node {
    const b = this.balanceOf(n);
    if (b > 1) {
      const l = this.reader.child(n, Side.Left);
      if (this.balanceOf(l) >= 0) return this.rotateRight(n, version);
      const ml = this.mutable(l, version);
      this.setChild(n, Side.Left, this.rotateLeft(ml, version));
      return this.rotateRight(n, version);
    }
    if (b < -1) {
      const r = this.reader.child(n, Side.Right);
      if (this.balanceOf(r) <= 0) return this.rotateLeft(n, version);
      const mr = this.mutable(r, version);
      this.setChild(n, Side.Right, this.rotateRight(mr, version));
      return this.rotateLeft(n, version);
    }
    return n;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Saving

  /**
   * Hash the changed nodes and write the next version (its nodes, root record and orphan records) into `sink`
   * (e.g. the caller's chained batch), or into the returned `ops` when no sink is given. The tree then serves the
   * new version from memory; after the caller's batch is written call `commitStaged()` (or `discardStaged()` if
   * the write failed: the tree returns to the previous version and the working changes are lost).
   */
  stageVersion(sink?: BatchSink): StagedVersion {
    this.assertNotStaged();
    const version = this.workingVersion;
    if (this.versions.length > 0 && version <= this.version) throw new Error('iavl: version overflow');
    const collector = sink === undefined ? new OpsCollector() : undefined;
    const out: BatchSink = sink ?? collector!;
    const root = this.root;
    const previousNextId = this.nextId;
    // Each version's nodes start a new chunk record.
    if (root !== undefined && !root.persisted) this.nextId = Math.ceil(this.nextId / CHUNK) * CHUNK || CHUNK;
    const firstId = this.nextId;
    const stats = { nodes: 0, orphans: this.orphans.length, hashMs: 0, encodeMs: 0 };
    let pending: Node[] = [];
    if (root !== undefined && !root.persisted) {
      const t0 = performance.now();
      // Hash, number and encode the dirty nodes bottom-up (post-order: ids are contiguous, children before
      // parents), CHUNK nodes per record; keys and values are views into the writer's arenas.
      const w = new ChunkWriter(this.prefix, out);
      this.hashDirty(root, Math.max(1, root.height - this.pinnedLevels), w);
      w.flush();
      pending = w.nodes;
      stats.hashMs = performance.now() - t0;
      stats.nodes = pending.length;
    }
    this.lastStage = stats;
    out.put(this.rootKey(version), rootRecord(root, this.nextId));
    if (this.orphans.length > 0) {
      const list = new Uint8Array(this.orphans.length * 8);
      let off = 0;
      for (const id of this.orphans) off = putUvarint(list, off, id);
      out.put(this.orphanKey(this.version), list.subarray(0, off));
    }
    this.orphans.length = 0;
    this.staged = { previousRoot: this.savedRoot, previousVersions: this.versions.slice(), previousNextId, sorted: false };
    this.reader.pending = pending;
    this.reader.pendingFirst = firstId;
    this.versions.push(version);
    this.savedRoot = root;
    this.updatePin();
    return { version, rootHash: root === undefined ? EMPTY_HASH : hashToBytes(root.hash!), ops: collector?.ops ?? [] };
  }

  /** The staged version was written: its nodes move into the cache. */
  commitStaged(): void {
    if (this.staged === undefined) throw new Error('iavl: nothing staged');
    const pending = this.reader.pending!;
    this.reader.pending = undefined;
    this.staged = undefined;
    // Inner nodes go to the cache hot (the next changes walk them); new leaves only cold and where there is room:
    // changes never read the leaf they replace (see setInLeaf), so leaves only serve reads.
    const cache = this.reader.cache;
    // Nodes at or above the pin height need no cache: their parents keep references to them.
    const pin = this.reader.pinHeight;
    for (let i = 0; i < pending.length; i++) {
      const n = pending[i]!;
      if (n.height === 0) cache.offer(n.id, n);
      else if (n.height < pin) cache.add(n.id, n, 1);
    }
    this.reader.invalidate();
  }

  /** The staged version was not written: back to the previous saved version (working changes are dropped). */
  discardStaged(): void {
    const s = this.staged;
    if (s === undefined) throw new Error('iavl: nothing staged');
    this.reader.pending = undefined;
    this.staged = undefined;
    // A sorted build's nodes were only reachable through stagedView: its ids are not reused, drop what was read.
    if (s.sorted) this.reader.cache.clear();
    this.reader.invalidate();
    this.versions = s.previousVersions;
    this.savedRoot = s.previousRoot;
    this.root = s.previousRoot;
    this.nextId = s.previousNextId;
    this.orphans.length = 0;
    this.updatePin();
  }

  /**
   * A view of the staged version (after `stageVersion`, or a sorted build's `finish`), to read it before
   * `commitStaged`. After a sorted build, read it only once every record of the build is written (the build's
   * nodes are read from the database; only its root is in memory).
   */
  stagedView(): TreeView {
    if (this.staged === undefined) throw new Error('iavl: nothing staged');
    return new TreeView(this.reader, this.version, this.savedRoot);
  }

  /**
   * Begin a streaming sorted build of the working version (`initialVersion`) of a tree with no saved version and
   * no working changes: the entries are then given in ascending key order to `add` and the result is the version
   * (same root hash, same node versions) inserting them in that order with `set` and saving would give, built in
   * O(height) memory: each node is hashed and encoded into the current sink as soon as it is final (see
   * build.ts). `sink` receives the node chunk records (`null`: hash only); `setSink` switches to the next
   * batch. `finish()` stages the version (the caller writes its records and `putRoot`, then `commitStaged()`;
   * or `discardStaged()` + `deleteRecords`). Until `finish` or `abort` the tree refuses changes and saves.
   *
   * Ids: the build's nodes get consecutive ids from the tree's next id rounded up to a multiple of CHUNK, in
   * the order they are finalized (children before parents), so its records are `'n' || BE64(chunk)` for the
   * chunks [firstId / CHUNK, ceil(nextId / CHUNK)). Ids are never given twice: after `discardStaged()` or
   * `abort()` the tree's next id stays past them (a view still reading the old records stays consistent until
   * they are deleted).
   */
  beginSorted(sink: BatchSink | null): SortedBuild {
    const { version, firstId, host } = this.sortedBuildHost();
    const b = new SortedBuilder(version, firstId, new ChunkWriter(this.prefix, sink, false), host);
    this.building = b;
    return b;
  }

  /**
   * `beginSorted` with the hashing and encoding on a worker thread (build-remote.ts): `add` packs the entries for the
   * worker, which sends the finished chunk records back into `sink` (never null here); `pump()` waits while the
   * worker is more than a few packs behind, `finish()` resolves once every record is in `sink`. The same nodes, ids,
   * records and hashes as `beginSorted`.
   */
  beginSortedOnWorker(sink: BatchSink): RemoteSortedBuild {
    const { version, firstId, host } = this.sortedBuildHost();
    const b = new RemoteSortedBuild(this.prefix, version, firstId, sink, host);
    this.building = b;
    return b;
  }

  private sortedBuildHost(): { version: number; firstId: number; host: BuildHost } {
    this.assertNotStaged();
    if (this.versions.length > 0) throw new Error('iavl: beginSorted needs a tree without saved versions');
    if (this.root !== undefined || this.orphans.length > 0)
      throw new Error('iavl: beginSorted needs a tree without working changes');
    const version = this.workingVersion;
    const previousNextId = this.nextId;
    const firstId = Math.ceil(previousNextId / CHUNK) * CHUNK || CHUNK;
    /** The next free id after a build that used ids [firstId, next) (an empty build uses none). */
    const after = (next: number): number => (next > firstId ? next : previousNextId);
    const host: BuildHost = {
      stage: (root, next) => {
        this.building = undefined;
        const nextId = after(next);
        this.nextId = nextId;
        this.lastStage = { nodes: next - firstId, orphans: 0, hashMs: 0, encodeMs: 0 };
        // discardStaged keeps the ids used (previousNextId = the new next id).
        this.staged = { previousRoot: undefined, previousVersions: [], previousNextId: nextId, sorted: true };
        this.reader.pending = [];
        this.reader.pendingFirst = 0;
        this.versions.push(version);
        this.savedRoot = root;
        this.root = root;
        this.updatePin();
        return { version, rootHash: root === undefined ? EMPTY_HASH : hashToBytes(root.hash!) };
      },
      release: (next) => {
        this.building = undefined;
        this.nextId = after(next);
      },
      putRoot: (out, v, root, next) => {
        out.put(this.rootKey(v), rootRecord(root, after(next)));
      },
      deleteRange: (out, from, to) => {
        const end = Math.ceil(to / CHUNK);
        for (let c = Math.floor(from / CHUNK); c < end; c++) out.del(this.reader.chunkKey(c));
      },
    };
    return { version, firstId, host };
  }

  /** Stage the next version and write it in one synced LevelDB batch. */
  async saveVersion(options: { sync?: boolean } = {}): Promise<SavedVersion> {
    const batch = this.db.batch();
    const staged = this.stageVersion(batch);
    try {
      await batch.write({ sync: options.sync ?? true });
    } catch (e) {
      this.discardStaged();
      throw e;
    }
    this.commitStaged();
    return { version: staged.version, rootHash: staged.rootHash };
  }

  /**
   * Post-order: hash the dirty nodes under dirty `n`, give them ids, mark them persisted and encode them into `w`
   * (in id order). Child references are kept only in the pinned top levels (the rest is reached through the cache).
   * A node is encoded right after it is hashed, while its fields are still in the CPU cache.
   */
  private hashDirty(n: Node, pinHeight: number, w: ChunkWriter): void {
    if (n.height === 0) {
      n.hash = leafHashOf(n.key, n.value!, n.version);
    } else {
      const l = n.left;
      if (l !== undefined) {
        if (!l.persisted) this.hashDirty(l, pinHeight, w);
        n.leftHash = l.hash;
        n.leftId = l.id;
      }
      const r = n.right;
      if (r !== undefined) {
        if (!r.persisted) this.hashDirty(r, pinHeight, w);
        n.rightHash = r.hash;
        n.rightId = r.id;
      }
      if (n.height <= pinHeight) {
        n.left = undefined;
        n.right = undefined;
      }
      n.hash = innerHashOf(n.height, n.size, n.version, n.leftHash!, n.rightHash!);
    }
    n.id = this.nextId++; // persisted from now on
    w.add(n);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Pruning

  /** The orphan list of version `to`: node ids. */
  private readOrphans(to: number): number[] {
    const rec = this.db.getSync(this.orphanKey(to));
    const out: number[] = [];
    if (rec === undefined) return out;
    let off = 0;
    while (off < rec.length) {
      let id: number;
      [id, off] = readUvarint(rec, off);
      out.push(id);
    }
    return out;
  }

  /**
   * Delete saved version `version` (not the latest): its root record, and the nodes no other kept version
   * references (IAVL's orphan scheme: an orphan in the list of version `to` is a node living in versions
   * [from, to]; deleting `to` deletes the node unless the previous kept version p is >= from, in which case the
   * orphan moves to p's list). Ids grow with versions, so `p >= from` is `id < nextId(p)`, the next id recorded
   * in p's root record: the lists need not store `from`. Written in one batch.
   */
  async deleteVersion(version: number): Promise<void> {
    this.assertNotStaged();
    const idx = this.indexOfVersion(version);
    if (idx < 0) throw new Error(`iavl: version ${version} does not exist`);
    if (version === this.version) throw new Error('iavl: cannot delete the latest version');
    const predecessor = idx > 0 ? this.versions[idx - 1]! : 0;
    const batch = this.db.batch();
    const deleted: number[] = [];
    const orphans = this.readOrphans(version);
    const moved: number[] = [];
    // nodes with ids >= bound were created after the predecessor: no kept version before `version` has them
    const bound = predecessor > 0 ? this.readRootRecord(predecessor).nextId : 0;
    for (const id of orphans) {
      if (id >= bound) deleted.push(id);
      else moved.push(id);
    }
    if (moved.length > 0) {
      const prev = this.readOrphans(predecessor);
      const all = prev.concat(moved);
      const list = new Uint8Array(all.length * 9);
      let off = 0;
      for (const x of all) off = putUvarint(list, off, x);
      batch.put(this.orphanKey(predecessor), list.subarray(0, off));
    }
    this.deleteNodes(batch, deleted);
    batch.del(this.orphanKey(version));
    batch.del(this.rootKey(version));
    await batch.write({ sync: true });
    this.versions.splice(idx, 1);
    for (const id of deleted) this.reader.cache.delete(id);
    this.reader.invalidate();
  }

  /** Delete every saved version <= `version` (which must be below the latest) in one batch. */
  async deleteVersionsTo(version: number): Promise<void> {
    this.assertNotStaged();
    if (version >= this.version) throw new Error('iavl: cannot delete the latest version');
    const doomed = this.versions.filter((v) => v <= version);
    if (doomed.length === 0) return;
    const batch = this.db.batch();
    const deleted: number[] = [];
    // Every orphan with to <= version lives only in versions <= version, all of which go.
    const p = this.prefix.length;
    const lo = this.orphanKey(0);
    const hi = this.orphanKey(version + 1);
    for await (const [k, list] of this.db.iterator({ gte: lo, lt: hi })) {
      void readBE64(k, p + 1);
      let off = 0;
      while (off < list.length) {
        let id: number;
        [id, off] = readUvarint(list, off);
        deleted.push(id);
      }
      batch.del(k);
    }
    this.deleteNodes(batch, deleted);
    for (const v of doomed) batch.del(this.rootKey(v));
    await batch.write({ sync: true });
    this.versions = this.versions.filter((v) => v > version);
    for (const id of deleted) this.reader.cache.delete(id);
    this.reader.invalidate();
  }

  /** Remove nodes from their chunk records: a record left empty is deleted, others are rewritten. */
  private deleteNodes(batch: BatchSink, ids: number[]): void {
    const byChunk = new Map<number, Set<number>>();
    for (const id of ids) {
      const c = Math.floor(id / CHUNK);
      let set = byChunk.get(c);
      if (set === undefined) byChunk.set(c, (set = new Set()));
      set.add(id - c * CHUNK);
    }
    for (const [c, dead] of byChunk) {
      const key = this.reader.chunkKey(c);
      const rec = this.db.getSync(key);
      if (rec === undefined) continue;
      const kept = pruneChunk(rec, dead);
      if (kept === undefined) batch.del(key);
      else batch.put(key, kept);
    }
  }

  /** Count of this tree's nodes stored in the database (a full scan: for tests and tools). */
  async countStoredNodes(): Promise<number> {
    const lo = concatBytes(this.prefix, Uint8Array.of(K_NODE));
    const hi = concatBytes(this.prefix, Uint8Array.of(K_NODE + 1));
    let n = 0;
    for await (const rec of this.db.values({ gte: lo, lt: hi })) {
      for (let i = 0; i < rec[0]!; i++) {
        const [a, b] = chunkEntry(rec, i);
        if (b > a) n++;
      }
    }
    return n;
  }

  /** Check the AVL invariants of the working tree (heights, sizes, balance, key order, inner keys); throws. */
  checkInvariants(): void {
    const r = this.reader;
    const walk = (n: Node): { min: Bytes; max: Bytes } => {
      if (n.height === 0) {
        if (n.size !== 1) throw new Error('leaf size != 1');
        return { min: n.key, max: n.key };
      }
      const l = r.child(n, Side.Left);
      const rt = r.child(n, Side.Right);
      if (n.lh !== l.height || n.rh !== rt.height || n.ls !== l.size || n.rs !== rt.size)
        throw new Error('stale child height/size');
      if (n.height !== Math.max(l.height, rt.height) + 1) throw new Error('bad height');
      if (n.size !== l.size + rt.size) throw new Error('bad size');
      if (Math.abs(l.height - rt.height) > 1) throw new Error('unbalanced');
      const a = walk(l);
      const b = walk(rt);
      if (compareBytes(a.max, b.min) >= 0) throw new Error('keys out of order');
      if (!bytesEqual(n.key, b.min)) throw new Error('inner key != min of right subtree');
      return { min: a.min, max: b.max };
    };
    if (this.root !== undefined) walk(this.root);
  }
}
