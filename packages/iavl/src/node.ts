/**
 * Tree nodes: the in-memory shape, IAVL's node hash (cosmos/iavl v0.19/v0.20 `Node.writeHashBytes`) and the
 * database encoding (this package's own; only the hash has to match IAVL).
 */
import { type Bytes, hashId, putUvarint, putVarint, readUvarint, sha256, uvarintSize } from './encoding.js';

export const HASH_SIZE = 32;

/**
 * A node of the tree. A leaf (height 0) holds a key and value; an inner node holds the smallest key of its right
 * subtree and two children. A persisted node (saved, or staged by `stageVersion`) is immutable, has `hash`/`id`
 * and references its children by hash only (`leftHash`/`leftId`), so the node cache bounds memory. A dirty node
 * (created by changes since the last saved version) is mutated in place and may point at child objects
 * (`left`/`right`, dirty or persisted); its hash is computed once, at `stageVersion`.
 */
export class Node {
  key: Bytes;
  value: Bytes | undefined;
  version: number;
  height: number;
  size: number;
  hash: Bytes | undefined = undefined;
  id: string | undefined = undefined;
  leftHash: Bytes | undefined = undefined;
  leftId: string | undefined = undefined;
  rightHash: Bytes | undefined = undefined;
  rightId: string | undefined = undefined;
  left: Node | undefined = undefined;
  right: Node | undefined = undefined;
  persisted = false;

  constructor(key: Bytes, value: Bytes | undefined, version: number, height: number, size: number) {
    this.key = key;
    this.value = value;
    this.version = version;
    this.height = height;
    this.size = size;
  }

  static leaf(key: Bytes, value: Bytes, version: number): Node {
    return new Node(key, value, version, 0, 1);
  }

  isLeaf(): boolean {
    return this.height === 0;
  }

  /** A dirty copy of an inner node at `version` (IAVL's `clone`): same key, children, height and size. */
  cloneAt(version: number): Node {
    const n = new Node(this.key, undefined, version, this.height, this.size);
    n.left = this.left;
    n.leftHash = this.leftHash;
    n.leftId = this.leftId;
    n.right = this.right;
    n.rightHash = this.rightHash;
    n.rightId = this.rightId;
    return n;
  }
}

// Reused hash preimage buffer (the hash copies its input; everything here is synchronous).
let pre = new Uint8Array(512);

function ensurePre(n: number): Uint8Array {
  if (pre.length < n) pre = new Uint8Array(Math.max(n, pre.length * 2));
  return pre;
}

/**
 * IAVL leaf hash: sha256(varint(0) || varint(1) || varint(version) || uvarint(len(key)) || key || uvarint(32) ||
 * sha256(value)), varint = Go's zigzag `binary.PutVarint`, lengths = `binary.PutUvarint`.
 */
export function leafHash(key: Bytes, value: Bytes, version: number): Buffer {
  const b = ensurePre(3 + 10 + 10 + key.length + 1 + HASH_SIZE);
  b[0] = 0; // varint(height = 0)
  b[1] = 2; // varint(size = 1)
  let off = putVarint(b, 2, version);
  off = putUvarint(b, off, key.length);
  b.set(key, off);
  off += key.length;
  b[off++] = HASH_SIZE;
  b.set(sha256(value), off);
  off += HASH_SIZE;
  return sha256(b.subarray(0, off));
}

/** IAVL inner hash: sha256(varint(height) || varint(size) || varint(version) || 0x20 || left || 0x20 || right). */
export function innerHash(height: number, size: number, version: number, left: Bytes, right: Bytes): Buffer {
  const b = ensurePre(30 + 2 + 2 * HASH_SIZE);
  let off = putVarint(b, 0, height);
  off = putVarint(b, off, size);
  off = putVarint(b, off, version);
  b[off++] = left.length;
  b.set(left, off);
  off += left.length;
  b[off++] = right.length;
  b.set(right, off);
  off += right.length;
  return sha256(b.subarray(0, off));
}

/**
 * Database value of a persisted node: height (1 byte) || uvarint(size) || uvarint(version) || uvarint(len(key)) ||
 * key || (leaf: uvarint(len(value)) || value | inner: leftHash(32) || rightHash(32)). The node's hash is its key.
 */
export function encodeNode(n: Node): Bytes {
  const key = n.key;
  let len = 1 + uvarintSize(n.size) + uvarintSize(n.version) + uvarintSize(key.length) + key.length;
  if (n.height === 0) len += uvarintSize(n.value!.length) + n.value!.length;
  else len += 2 * HASH_SIZE;
  const out = new Uint8Array(len);
  out[0] = n.height;
  let off = putUvarint(out, 1, n.size);
  off = putUvarint(out, off, n.version);
  off = putUvarint(out, off, key.length);
  out.set(key, off);
  off += key.length;
  if (n.height === 0) {
    off = putUvarint(out, off, n.value!.length);
    out.set(n.value!, off);
  } else {
    out.set(n.leftHash!, off);
    out.set(n.rightHash!, off + HASH_SIZE);
  }
  return out;
}

/** Decode a persisted node read from the database (`buf` is owned by the node afterwards: fields are views). */
export function decodeNode(buf: Uint8Array, hash: Bytes, id: string): Node {
  const height = buf[0]!;
  let [size, off] = readUvarint(buf, 1);
  let version: number;
  [version, off] = readUvarint(buf, off);
  let klen: number;
  [klen, off] = readUvarint(buf, off);
  const key = buf.subarray(off, off + klen);
  off += klen;
  const n = new Node(key, undefined, version, height, size);
  if (height === 0) {
    let vlen: number;
    [vlen, off] = readUvarint(buf, off);
    n.value = buf.subarray(off, off + vlen);
  } else {
    n.leftHash = buf.subarray(off, off + HASH_SIZE);
    n.rightHash = buf.subarray(off + HASH_SIZE, off + 2 * HASH_SIZE);
    n.leftId = hashId(n.leftHash);
    n.rightId = hashId(n.rightHash);
  }
  n.hash = hash;
  n.id = id;
  n.persisted = true;
  return n;
}
