/**
 * Tree nodes: the in-memory shape, IAVL's node hash (cosmos/iavl v0.19/v0.20 `Node.writeHashBytes`) and the
 * database encoding (this package's own; only the hash has to match IAVL).
 */
import { type Bytes, putUvarint, putVarint, readUvarint, sha256 } from './encoding.js';
import { paddedLength, sha256Into, sha256PaddedHash } from './sha256.js';

export const HASH_SIZE = 32;

/**
 * A node hash in memory: the 32 digest bytes as a 16-character string, each UTF-16 code unit holding two bytes
 * (big-endian). A string is one small immutable heap object (about 50 bytes), where a `Uint8Array(32)` costs about
 * 240 bytes in three objects; the tree holds a hash per node and its children's hashes, so this is most of the
 * garbage collector's work per node. Converted to bytes only at the API boundary (root hashes, proofs).
 */
export type Hash = string;

/** The `Hash` of `b[off, off + 32)`. */
export function hashFromBytes(b: Uint8Array, off: number): Hash {
  return String.fromCharCode(
    (b[off]! << 8) | b[off + 1]!, (b[off + 2]! << 8) | b[off + 3]!, (b[off + 4]! << 8) | b[off + 5]!,
    (b[off + 6]! << 8) | b[off + 7]!, (b[off + 8]! << 8) | b[off + 9]!, (b[off + 10]! << 8) | b[off + 11]!,
    (b[off + 12]! << 8) | b[off + 13]!, (b[off + 14]! << 8) | b[off + 15]!, (b[off + 16]! << 8) | b[off + 17]!,
    (b[off + 18]! << 8) | b[off + 19]!, (b[off + 20]! << 8) | b[off + 21]!, (b[off + 22]! << 8) | b[off + 23]!,
    (b[off + 24]! << 8) | b[off + 25]!, (b[off + 26]! << 8) | b[off + 27]!, (b[off + 28]! << 8) | b[off + 29]!,
    (b[off + 30]! << 8) | b[off + 31]!,
  );
}

/** Write the 32 bytes of `h` at `out[off]`; returns the new offset. */
export function putHash(out: Uint8Array, off: number, h: Hash): number {
  for (let i = 0; i < 16; i++) {
    const c = h.charCodeAt(i);
    out[off++] = c >>> 8;
    out[off++] = c & 0xff;
  }
  return off;
}

/** The 32 bytes of `h`, as a new array. */
export function hashToBytes(h: Hash): Uint8Array {
  const out = new Uint8Array(HASH_SIZE);
  putHash(out, 0, h);
  return out;
}

/**
 * A node of the tree. A leaf (height 0) holds a key and value; an inner node holds the smallest key of its right
 * subtree, its two children's hashes, storage ids, heights and sizes (so changing a path never reads a sibling).
 * A persisted node (saved, or staged by `stageVersion`) is immutable and has `hash` and a storage `id` (a
 * sequence number per tree, assigned at save in post-order: a version's new nodes are contiguous on disk). It may
 * keep direct references to its children (`left`/`right`) when it is one of the top levels of the tree (pinned;
 * the rest is reached through the bounded cache). A dirty node (created by changes since the last saved version)
 * is mutated in place and may point at child objects (dirty or persisted); its hash is computed once, at
 * `stageVersion`.
 */
export class Node {
  key: Bytes;
  value: Bytes | undefined;
  version: number;
  height: number;
  size: number;
  hash: Hash | undefined = undefined;
  /** Storage id (0: not persisted yet; ids start at CHUNK). */
  id = 0;
  leftHash: Hash | undefined = undefined;
  leftId = 0;
  rightHash: Hash | undefined = undefined;
  rightId = 0;
  left: Node | undefined = undefined;
  right: Node | undefined = undefined;
  /** Child heights and sizes (inner nodes). */
  lh = 0;
  rh = 0;
  ls = 0;
  rs = 0;

  constructor(key: Bytes, value: Bytes | undefined, version: number, height: number, size: number) {
    this.key = key;
    this.value = value;
    this.version = version;
    this.height = height;
    this.size = size;
  }

  /** Saved (or staged): immutable, with a hash and an id. */
  get persisted(): boolean {
    return this.id !== 0;
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
    n.lh = this.lh;
    n.rh = this.rh;
    n.ls = this.ls;
    n.rs = this.rs;
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

/** `leafHash` as a `Hash` (JS SHA-256: no native call, no Buffer). */
export function leafHashOf(key: Bytes, value: Bytes, version: number): Hash {
  const b = ensurePre(paddedLength(3 + 10 + 10 + key.length + 1 + HASH_SIZE));
  b[0] = 0; // varint(height = 0)
  b[1] = 2; // varint(size = 1)
  let off = putVarint(b, 2, version);
  off = putUvarint(b, off, key.length);
  off = put(b, off, key);
  b[off++] = HASH_SIZE;
  sha256Into(value, b, off);
  off += HASH_SIZE;
  return sha256PaddedHash(b, off);
}

/** `leafHash` written into `out` at `off` (32 bytes): for leaf hashes computed ahead of a build (JS SHA-256). */
export function leafHashInto(key: Bytes, value: Bytes, version: number, out: Uint8Array, off: number): void {
  putHash(out, off, leafHashOf(key, value, version));
}

/** `innerHash` as a `Hash` (JS SHA-256). */
export function innerHashOf(height: number, size: number, version: number, left: Hash, right: Hash): Hash {
  const b = ensurePre(paddedLength(30 + 2 + 2 * HASH_SIZE));
  let off = putVarint(b, 0, height);
  off = putVarint(b, off, size);
  off = putVarint(b, off, version);
  b[off++] = HASH_SIZE;
  off = putHash(b, off, left);
  b[off++] = HASH_SIZE;
  off = putHash(b, off, right);
  return sha256PaddedHash(b, off);
}

/** `out.set(src, off)`, as a loop for short arrays (a native `set` call costs more than copying 32 bytes). */
function put(out: Uint8Array, off: number, src: Uint8Array): number {
  const n = src.length;
  if (n > 64) out.set(src, off);
  else for (let i = 0; i < n; i++) out[off + i] = src[i]!;
  return off + n;
}

/** Upper bound of the encoded size of `n` (see `encodeNodeInto`). */
export function encodedSizeBound(n: Node): number {
  if (n.height === 0) return 1 + 10 + 5 + n.key.length + n.value!.length;
  return 1 + 10 + 10 + 10 + 1 + 5 + n.key.length + 2 * HASH_SIZE + 10 + 10;
}

/**
 * Database value of a persisted node (its hash is in the parent / the root record, not here):
 * leaf:  0x00 || uvarint(version) || uvarint(len key) || key || value (the rest);
 * inner: height || uvarint(version) || uvarint(size) || uvarint(leftSize) || childHeights || uvarint(len key) ||
 *        key || leftHash || rightHash || uvarint(leftId) || uvarint(rightId)
 * with childHeights bit 0 set when the left child's height is height-2 (else height-1), bit 1 for the right.
 * Written at `off` of `out`; returns the new offset.
 */
export function encodeNodeInto(n: Node, out: Uint8Array, off: number): number {
  const key = n.key;
  out[off++] = n.height;
  off = putUvarint(out, off, n.version);
  if (n.height === 0) {
    off = putUvarint(out, off, key.length);
    off = put(out, off, key);
    return put(out, off, n.value!);
  }
  off = putUvarint(out, off, n.size);
  off = putUvarint(out, off, n.ls);
  out[off++] = (n.lh === n.height - 2 ? 1 : 0) | (n.rh === n.height - 2 ? 2 : 0);
  off = putUvarint(out, off, key.length);
  off = put(out, off, key);
  off = putHash(out, off, n.leftHash!);
  off = putHash(out, off, n.rightHash!);
  off = putUvarint(out, off, n.leftId);
  return putUvarint(out, off, n.rightId);
}

/** A copy of `buf[a, b)`: at most 64 bytes live on the V8 heap (no separate backing store for the GC to track). */
function copyOut(buf: Uint8Array, a: number, b: number): Uint8Array {
  const out = new Uint8Array(b - a);
  for (let i = a, j = 0; i < b; i++, j++) out[j] = buf[i]!;
  return out;
}

/**
 * Decode the persisted node stored at `buf[start, end)` (a chunk record entry). Fields are copies: the node keeps
 * nothing of `buf`.
 */
export function decodeNode(buf: Uint8Array, start: number, end: number, hash: Hash, id: number): Node {
  const height = buf[start]!;
  let [version, off] = readUvarint(buf, start + 1);
  let n: Node;
  if (height === 0) {
    let klen: number;
    [klen, off] = readUvarint(buf, off);
    n = new Node(copyOut(buf, off, off + klen), copyOut(buf, off + klen, end), version, 0, 1);
  } else {
    let size: number;
    let ls: number;
    let klen: number;
    [size, off] = readUvarint(buf, off);
    [ls, off] = readUvarint(buf, off);
    const ch = buf[off++]!;
    [klen, off] = readUvarint(buf, off);
    n = new Node(copyOut(buf, off, off + klen), undefined, version, height, size);
    off += klen;
    n.leftHash = hashFromBytes(buf, off);
    n.rightHash = hashFromBytes(buf, off + HASH_SIZE);
    off += 2 * HASH_SIZE;
    [n.leftId, off] = readUvarint(buf, off);
    [n.rightId, off] = readUvarint(buf, off);
    n.ls = ls;
    n.rs = size - ls;
    n.lh = ch & 1 ? height - 2 : height - 1;
    n.rh = ch & 2 ? height - 2 : height - 1;
  }
  n.hash = hash;
  n.id = id;
  return n;
}
