/**
 * A versioned IAVL+ tree on LevelDB with the hashing of cosmos/iavl v0.19/v0.20 (Cosmos SDK v0.45/v0.47): the
 * same AVL shape (insert, update, remove and rotations as `MutableTree.recursiveSet` / `recursiveRemove` /
 * `balance` do them), the same node versions (every node created or copied while building version V carries V),
 * hence the same root hashes. Nodes live in the caller's classic-level database under a key prefix, addressed by
 * hash; old versions are removed through orphan records (IAVL's legacy `nodedb` scheme).
 */
import type { ClassicLevel } from 'classic-level';
import { NodeCache } from './cache.js';
import {
  type Bytes,
  EMPTY_HASH,
  bytesEqual,
  compareBytes,
  concatBytes,
  copyBytes,
  hashId,
  putBE64,
  readBE64,
} from './encoding.js';
import { HASH_SIZE, Node, decodeNode, encodeNode, innerHash, leafHash } from './node.js';
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
const K_NODE = 0x6e; // 'n' || hash                               -> node
const K_ROOT = 0x72; // 'r' || BE64(version)                      -> root hash (empty: empty tree)
const K_ORPHAN = 0x6f; // 'o' || BE64(to) || BE64(from) || hash   -> empty: node lives in versions [from, to]

const EMPTY = new Uint8Array(0);

const enum Side {
  Left = 0,
  Right = 1,
}

/** Reads persisted nodes: the pending (staged, not yet written) nodes, the cache, then the database. */
class NodeReader {
  readonly cache: NodeCache;
  pending: Map<string, Node> | undefined = undefined;
  private readonly keyBuf: Uint8Array;
  reads = 0;

  constructor(
    readonly db: IavlDb,
    readonly prefix: Bytes,
    cacheSize: number,
  ) {
    this.cache = new NodeCache(cacheSize);
    this.keyBuf = new Uint8Array(prefix.length + 1 + HASH_SIZE);
    this.keyBuf.set(prefix, 0);
    this.keyBuf[prefix.length] = K_NODE;
  }

  nodeKey(hash: Bytes): Bytes {
    const k = new Uint8Array(this.prefix.length + 1 + HASH_SIZE);
    k.set(this.prefix, 0);
    k[this.prefix.length] = K_NODE;
    k.set(hash, this.prefix.length + 1);
    return k;
  }

  load(hash: Bytes, id: string): Node {
    const c = this.cache.get(id);
    if (c !== undefined) return c;
    if (this.pending !== undefined) {
      const p = this.pending.get(id);
      if (p !== undefined) return p;
    }
    this.keyBuf.set(hash, this.prefix.length + 1);
    const buf = this.db.getSync(this.keyBuf);
    if (buf === undefined) throw new Error(`iavl: node ${Buffer.from(hash).toString('hex')} not found (pruned version?)`);
    this.reads++;
    const n = decodeNode(buf, copyBytes(hash), id);
    this.cache.add(id, n);
    return n;
  }

  child(n: Node, side: Side): Node {
    if (side === Side.Left) return n.left ?? this.load(n.leftHash!, n.leftId!);
    return n.right ?? this.load(n.rightHash!, n.rightId!);
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
    return this.root?.hash ?? EMPTY_HASH;
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
      yield n.hash!;
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
        path.push({ height: n.height, size: n.size, version: n.version, right: n.rightHash! });
        n = r.child(n, Side.Left);
      } else {
        path.push({ height: n.height, size: n.size, version: n.version, left: n.leftHash! });
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
  /** Persisted nodes replaced since the last save: id -> node. */
  private orphans = new Map<string, Node>();
  private staged: { previousRoot: Node | undefined; previousVersions: number[] } | undefined = undefined;
  private removedValue: Bytes | undefined = undefined;
  private updated = false;

  private constructor(opts: IavlTreeOptions, versions: number[], root: Node | undefined) {
    super();
    this.db = opts.db;
    this.prefix = copyBytes(opts.prefix);
    this.reader = new NodeReader(opts.db, this.prefix, opts.cacheSize ?? 100_000);
    this.initialVersion = opts.initialVersion ?? 1;
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
      const root = tree.loadRoot(versions[versions.length - 1]!);
      tree.savedRoot = root;
      tree.root = root;
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
    return this.savedRoot?.hash ?? EMPTY_HASH;
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
    putBE64(k, this.prefix.length + 1, version);
    return k;
  }

  private orphanKey(to: number, from: number, hash: Bytes): Bytes {
    const p = this.prefix.length;
    const k = new Uint8Array(p + 17 + HASH_SIZE);
    k.set(this.prefix, 0);
    k[p] = K_ORPHAN;
    putBE64(k, p + 1, to);
    putBE64(k, p + 9, from);
    k.set(hash, p + 17);
    return k;
  }

  private loadRoot(version: number): Node | undefined {
    const h = this.db.getSync(this.rootKey(version));
    if (h === undefined) throw new Error(`iavl: version ${version} does not exist`);
    if (h.length === 0) return undefined;
    return this.reader.load(h, hashId(h));
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
    this.root = this.setRec(this.root, key, value, v);
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
    this.orphans.clear();
  }

  private assertNotStaged(): void {
    if (this.staged !== undefined) throw new Error('iavl: a staged version awaits commitStaged() or discardStaged()');
  }

  private orphan(n: Node): void {
    if (n.persisted) this.orphans.set(n.id!, n);
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
      n.leftId = undefined;
    } else {
      n.right = child;
      n.rightHash = undefined;
      n.rightId = undefined;
    }
  }

  private calcHeightAndSize(n: Node): void {
    const l = this.reader.child(n, Side.Left);
    const r = this.reader.child(n, Side.Right);
    n.height = (l.height > r.height ? l.height : r.height) + 1;
    n.size = l.size + r.size;
  }

  private balanceOf(n: Node): number {
    return this.reader.child(n, Side.Left).height - this.reader.child(n, Side.Right).height;
  }

  private setRec(node: Node, key: Bytes, value: Bytes, version: number): Node {
    if (node.height === 0) {
      const c = compareBytes(key, node.key);
      if (c === 0) {
        this.orphan(node);
        this.updated = true;
        return Node.leaf(node.key, copyBytes(value), version);
      }
      const leaf = Node.leaf(copyBytes(key), copyBytes(value), version);
      const inner = new Node(c < 0 ? node.key : leaf.key, undefined, version, 1, 2);
      inner.left = c < 0 ? leaf : node;
      inner.right = c < 0 ? node : leaf;
      return inner;
    }
    const n = this.mutable(node, version);
    if (compareBytes(key, n.key) < 0) this.setChild(n, Side.Left, this.setRec(this.reader.child(n, Side.Left), key, value, version));
    else this.setChild(n, Side.Right, this.setRec(this.reader.child(n, Side.Right), key, value, version));
    if (this.updated) return n;
    this.calcHeightAndSize(n);
    return this.balance(n, version);
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
    this.setChild(l, Side.Right, n);
    this.calcHeightAndSize(n);
    this.calcHeightAndSize(l);
    return l;
  }

  /** Rotate left around dirty `n`: its right child (copied) becomes the subtree root. */
  private rotateLeft(n: Node, version: number): Node {
    const r = this.mutable(this.reader.child(n, Side.Right), version);
    n.right = r.left;
    n.rightHash = r.leftHash;
    n.rightId = r.leftId;
    this.setChild(r, Side.Left, n);
    this.calcHeightAndSize(n);
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
    const pending = new Map<string, Node>();
    const root = this.root;
    let rootHash: Bytes = EMPTY;
    if (root !== undefined) rootHash = this.persist(root, out, pending);
    out.put(this.rootKey(version), rootHash);
    const prev = this.version;
    for (const o of this.orphans.values()) out.put(this.orphanKey(prev, o.version, o.hash!), EMPTY);
    this.orphans.clear();
    this.staged = { previousRoot: this.savedRoot, previousVersions: this.versions.slice() };
    this.reader.pending = pending;
    this.versions.push(version);
    this.savedRoot = root;
    return { version, rootHash: root === undefined ? EMPTY_HASH : rootHash, ops: collector?.ops ?? [] };
  }

  /** The staged version was written: its nodes move into the cache. */
  commitStaged(): void {
    if (this.staged === undefined) throw new Error('iavl: nothing staged');
    const pending = this.reader.pending!;
    this.reader.pending = undefined;
    this.staged = undefined;
    for (const [id, n] of pending) this.reader.cache.add(id, n);
  }

  /** The staged version was not written: back to the previous saved version (working changes are dropped). */
  discardStaged(): void {
    const s = this.staged;
    if (s === undefined) throw new Error('iavl: nothing staged');
    this.reader.pending = undefined;
    this.staged = undefined;
    this.versions = s.previousVersions;
    this.savedRoot = s.previousRoot;
    this.root = s.previousRoot;
    this.orphans.clear();
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

  /** Post-order: hash and persist the dirty nodes under `n`; returns `n`'s hash. */
  private persist(n: Node, out: BatchSink, pending: Map<string, Node>): Bytes {
    if (n.persisted) return n.hash!;
    let h: Buffer;
    if (n.height === 0) h = leafHash(n.key, n.value!, n.version);
    else {
      if (n.left !== undefined) {
        n.leftHash = this.persist(n.left, out, pending);
        n.leftId = n.left.id!;
        n.left = undefined;
      }
      if (n.right !== undefined) {
        n.rightHash = this.persist(n.right, out, pending);
        n.rightId = n.right.id!;
        n.right = undefined;
      }
      h = innerHash(n.height, n.size, n.version, n.leftHash!, n.rightHash!);
    }
    n.hash = h;
    n.id = h.toString('latin1');
    n.persisted = true;
    out.put(this.reader.nodeKey(h), encodeNode(n));
    pending.set(n.id, n);
    return h;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Pruning

  /**
   * Delete saved version `version` (not the latest): its root record, and the nodes no other kept version
   * references (IAVL's orphan scheme: an orphan record `(to, from, hash)` says the node lives in versions
   * [from, to]; deleting `to` deletes the node unless the previous kept version is >= from, in which case the
   * record moves to that version). Written in one batch.
   */
  async deleteVersion(version: number): Promise<void> {
    this.assertNotStaged();
    const idx = this.indexOfVersion(version);
    if (idx < 0) throw new Error(`iavl: version ${version} does not exist`);
    if (version === this.version) throw new Error('iavl: cannot delete the latest version');
    const predecessor = idx > 0 ? this.versions[idx - 1]! : 0;
    const batch = this.db.batch();
    const deleted: Bytes[] = [];
    for await (const [to, from, hash, key] of this.orphansIn(version, version)) {
      void to;
      batch.del(key);
      if (predecessor < from) {
        batch.del(this.reader.nodeKey(hash));
        deleted.push(hash);
      } else {
        batch.put(this.orphanKey(predecessor, from, hash), EMPTY);
      }
    }
    batch.del(this.rootKey(version));
    await batch.write({ sync: true });
    this.versions.splice(idx, 1);
    for (const h of deleted) this.reader.cache.delete(hashId(h));
  }

  /** Delete every saved version <= `version` (which must be below the latest) in one batch. */
  async deleteVersionsTo(version: number): Promise<void> {
    this.assertNotStaged();
    if (version >= this.version) throw new Error('iavl: cannot delete the latest version');
    const doomed = this.versions.filter((v) => v <= version);
    if (doomed.length === 0) return;
    const batch = this.db.batch();
    const deleted: Bytes[] = [];
    // Every orphan with to <= version lives only in versions <= version, all of which go.
    for await (const [, , hash, key] of this.orphansIn(0, version)) {
      batch.del(key);
      batch.del(this.reader.nodeKey(hash));
      deleted.push(hash);
    }
    for (const v of doomed) batch.del(this.rootKey(v));
    await batch.write({ sync: true });
    this.versions = this.versions.filter((v) => v > version);
    for (const h of deleted) this.reader.cache.delete(hashId(h));
  }

  /** Orphan records with fromTo <= to <= toTo: [to, from, hash, recordKey]. */
  private async *orphansIn(toLo: number, toHi: number): AsyncGenerator<[number, number, Bytes, Bytes]> {
    const p = this.prefix.length;
    const lo = this.orphanKey(toLo, 0, new Uint8Array(0)).subarray(0, p + 9);
    const hi = this.orphanKey(toHi + 1, 0, new Uint8Array(0)).subarray(0, p + 9);
    for await (const k of this.db.keys({ gte: lo, lt: hi })) {
      yield [readBE64(k, p + 1), readBE64(k, p + 9), k.subarray(p + 17, p + 17 + HASH_SIZE), k];
    }
  }

  /** Count of this tree's node records in the database (a full scan: for tests and tools). */
  async countStoredNodes(): Promise<number> {
    const lo = concatBytes(this.prefix, Uint8Array.of(K_NODE));
    const hi = concatBytes(this.prefix, Uint8Array.of(K_NODE + 1));
    let n = 0;
    for await (const _ of this.db.keys({ gte: lo, lt: hi })) n++;
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
