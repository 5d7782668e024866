/**
 * Streaming sorted bulk build (`IavlTree.beginSorted`): the version an empty IAVL tree gets when its keys are
 * inserted in ascending order (what the Cosmos SDK does at genesis: the cache store writes its keys sorted into
 * the empty tree), built in O(height) memory.
 *
 * Every new key goes to the rightmost leaf: an inner node (key = the new key, left = the old rightmost leaf,
 * right = the new leaf, height 1, size 2) replaces that leaf, heights are updated up the right spine and IAVL's
 * `balance` rotates where needed. With ascending inserts `balance` only ever makes single left rotations (a node
 * on the spine is never left-heavy, and the right child of a node made right-heavy by an insert has just grown on
 * its right); the builder asserts it. A node that leaves the right spine (the old rightmost leaf; a node rotated
 * down to the left) is never modified again: it is hashed, numbered and encoded at once, and only its hash, id,
 * height and size stay (in its parent). Spine sizes are derived when a spine node is finalized (the size of a
 * spine node is its left size plus the size of the next spine node).
 *
 * Node ids: consecutive from the first id of the build (the tree's next id rounded up to a multiple of the chunk
 * size, as `stageVersion` does), in the order nodes are finalized (children always before their parent; the spine
 * last, bottom-up, at `finish`). They are not post-order, which nothing relies on: the tree only needs a version's
 * ids to be contiguous, above the previous versions' ids and starting at a chunk boundary.
 */
import { type Bytes, compareBytes, copyBytes } from './encoding.js';
import { type Hash, Node, hashFromBytes, innerHashOf, leafHashOf } from './node.js';
import type { BatchSink, SavedVersion } from './tree.js';

/** A streaming sorted build of an empty tree's working version; see `IavlTree.beginSorted`. */
export interface SortedBuild {
  /** The version being built (the tree's `initialVersion`). */
  readonly version: number;
  /**
   * Add the next entry. Keys must be non-empty and strictly ascending (bytewise); throws otherwise, leaving the
   * build unchanged. The builder keeps references to `key` and `value` instead of copying them: do not modify
   * them afterwards (a value is encoded at the next `add` or at `finish`; a key is also the key of an inner node
   * that may stay on the right spine until `finish`). `leafHash`: the entry's leaf hash (`leafHash(key, value,
   * version)`, 32 bytes) when it was computed ahead (it is taken as given: a wrong one gives a wrong root hash).
   */
  add(key: Bytes, value: Bytes, leafHash?: Bytes): void;
  /**
   * Records completed from now on go to `sink` (e.g. the next chained batch); `null`: hash only, records
   * completed from now on are dropped (and nodes not encoded). Resets `pendingBytes`. Switching from `null` to a
   * sink is only possible at a record boundary (throws otherwise): with `null` from the start, the build writes
   * nothing.
   */
  setSink(sink: BatchSink | null): void;
  /** Bytes (keys + values) of the records put into the current sink since the last `setSink` (or the start). */
  readonly pendingBytes: number;
  /** Entries added. */
  readonly count: number;
  /** Nodes finalized (hashed, numbered, encoded) so far. */
  readonly nodes: number;
  /** Nodes of the right spine held in memory (O(log count)): for tests and diagnostics. */
  readonly spineLength: number;
  /**
   * Hash, number and encode the remaining (spine) nodes into the current sink and put the last record. The tree
   * is then staged with this version, exactly as after `stageVersion()`: `commitStaged()` makes it the saved
   * version once the caller has written every record (including `putRoot`), `discardStaged()` reverts (without
   * reusing the build's ids). The root record is not written here: see `putRoot`.
   */
  finish(): SavedVersion;
  /** Give up before `finish`: the tree is empty again (its next id stays past the ids used; see `deleteRecords`). */
  abort(): void;
  /** Put the root record of the built version (after `finish`): the same record `stageVersion` writes. */
  putRoot(sink: BatchSink): void;
  /** Put a `del` of every node chunk record of this build (not the root record): to drop a thrown away build. */
  deleteRecords(sink: BatchSink): void;
}

/** Where finalized nodes go: the tree's chunk record writer. */
export interface BuildWriter {
  add(n: Node): void;
  flush(): void;
  setOut(out: BatchSink | null): void;
  readonly bytes: number;
}

/** What the builder needs of its tree (closures over the tree's private state). */
export interface BuildHost {
  /** Stage the built version: `root` (persisted, or undefined when empty) and the next free id. */
  stage(root: Node | undefined, nextId: number): SavedVersion;
  /** The build ended without a version (abort). */
  release(nextId: number): void;
  /** Put the root record of `version`. */
  putRoot(sink: BatchSink, version: number, root: Node | undefined, nextId: number): void;
  /** Put a del of the chunk records holding ids [from, to). */
  deleteRange(sink: BatchSink, from: number, to: number): void;
}

const enum State {
  Adding = 0,
  Finished = 1,
  Aborted = 2,
}

export class SortedBuilder implements SortedBuild {
  /** The right spine, root first; the last is the rightmost leaf. Inner spine nodes hold their left child's hash,
   * id, height and size, and their right child's height (`rh`; `rs` is derived at finalization). */
  private readonly spine: Node[] = [];
  private nextId: number;
  private last: Bytes | undefined = undefined;
  private state = State.Adding;
  private root: Node | undefined = undefined;
  count = 0;

  constructor(
    readonly version: number,
    private readonly firstId: number,
    private readonly writer: BuildWriter,
    private readonly host: BuildHost,
  ) {
    this.nextId = firstId;
  }

  get pendingBytes(): number {
    return this.writer.bytes;
  }

  get nodes(): number {
    return this.nextId - this.firstId;
  }

  get spineLength(): number {
    return this.spine.length;
  }

  setSink(sink: BatchSink | null): void {
    if (this.state === State.Aborted) throw new Error('iavl: the sorted build was aborted');
    this.writer.setOut(sink);
  }

  add(key: Bytes, value: Bytes, leafHash?: Bytes): void {
    this.addHashed(key, value, leafHash === undefined ? undefined : hashFromBytes(leafHash, 0));
  }

  /** `add` with the leaf hash as a `Hash` (undefined: computed when the leaf is finalized). */
  addHashed(key: Bytes, value: Bytes, leafHash: Hash | undefined): void {
    if (this.state !== State.Adding) throw new Error('iavl: the sorted build is finished');
    if (!(key instanceof Uint8Array) || key.length === 0) throw new TypeError('iavl: key must be a non-empty Uint8Array');
    if (!(value instanceof Uint8Array)) throw new TypeError('iavl: value must be a Uint8Array');
    const last = this.last;
    if (last !== undefined) {
      if (key === last) throw new Error('iavl: sorted build: the same key array was passed twice (keys are not copied)');
      if (compareBytes(key, last) <= 0) throw new Error('iavl: sorted build: keys must be strictly ascending');
    }
    this.last = key;
    this.count++;
    const version = this.version;
    const leaf = new Node(key, value, version, 0, 1);
    leaf.hash = leafHash;
    const spine = this.spine;
    const top = spine.length - 1;
    if (top < 0) {
      spine.push(leaf);
      return;
    }
    // The rightmost leaf leaves the spine: an inner node over it and the new leaf takes its place.
    const old = spine[top]!;
    this.emit(old);
    const inner = new Node(key, undefined, version, 1, 2);
    inner.leftHash = old.hash;
    inner.leftId = old.id;
    inner.ls = 1;
    spine[top] = inner;
    spine.push(leaf);
    // Up the spine while the child's height changed (a balance factor only depends on heights).
    for (let i = top - 1; i >= 0; i--) {
      const n = spine[i]!;
      const c = spine[i + 1]!;
      if (n.rh === c.height) break;
      n.rh = c.height;
      if (n.rh - n.lh > 1) {
        // IAVL `balance`: right-heavy; a right child with balance > 0 would need a double rotation.
        if (c.lh > c.rh) throw new Error('iavl: sorted build: unexpected double rotation');
        // rotateLeft(n): n.right = c.left (finalized), c.left = n; n leaves the spine.
        n.rightHash = c.leftHash;
        n.rightId = c.leftId;
        n.rh = c.lh;
        n.rs = c.ls;
        n.height = (n.lh > n.rh ? n.lh : n.rh) + 1;
        n.size = n.ls + n.rs;
        this.emit(n);
        c.leftHash = n.hash;
        c.leftId = n.id;
        c.lh = n.height;
        c.ls = n.size;
        c.height = (c.lh > c.rh ? c.lh : c.rh) + 1;
        spine.splice(i, 1); // c takes n's place
      } else n.height = (n.lh > n.rh ? n.lh : n.rh) + 1;
    }
  }

  /** Hash, number and encode a node whose children are final. */
  private emit(n: Node): void {
    n.hash =
      n.height === 0
        ? (n.hash ?? leafHashOf(n.key, n.value!, n.version))
        : innerHashOf(n.height, n.size, n.version, n.leftHash!, n.rightHash!);
    n.id = this.nextId++;
    this.writer.add(n);
  }

  finish(): SavedVersion {
    if (this.state !== State.Adding) throw new Error('iavl: the sorted build is finished');
    const spine = this.spine;
    // Bottom-up: each spine node's right child is the next one, finalized just before.
    for (let i = spine.length - 1; i >= 0; i--) {
      const n = spine[i]!;
      if (i < spine.length - 1) {
        const c = spine[i + 1]!;
        n.rightHash = c.hash;
        n.rightId = c.id;
        n.rh = c.height;
        n.rs = c.size;
        n.height = (n.lh > n.rh ? n.lh : n.rh) + 1;
        n.size = n.ls + n.rs;
      }
      this.emit(n);
    }
    this.writer.flush();
    let root: Node | undefined;
    if (spine.length > 0) {
      // The tree keeps the root: own copies of its key and value (the caller's arrays are not kept).
      root = spine[0]!;
      root.key = copyBytes(root.key);
      if (root.value !== undefined) root.value = copyBytes(root.value);
    }
    spine.length = 0;
    this.last = undefined;
    this.root = root;
    this.state = State.Finished;
    return this.host.stage(root, this.nextId);
  }

  abort(): void {
    if (this.state !== State.Adding) throw new Error('iavl: the sorted build is finished');
    this.spine.length = 0;
    this.last = undefined;
    this.state = State.Aborted;
    this.writer.setOut(null);
    this.host.release(this.nextId);
  }

  putRoot(sink: BatchSink): void {
    if (this.state !== State.Finished) throw new Error('iavl: putRoot needs a finished sorted build');
    this.host.putRoot(sink, this.version, this.root, this.nextId);
  }

  deleteRecords(sink: BatchSink): void {
    if (this.nextId > this.firstId) this.host.deleteRange(sink, this.firstId, this.nextId);
  }
}
