/**
 * The app hash: a hash chain over per-block Merkle roots of the sorted changesets (see README.md).
 *
 *   leaf(c)   = sha256(0x00 || uvarint(len(key)) || key || (deleted ? 0x00 : 0x01 || value))
 *   root      = RFC 6962 Merkle tree hash over the leaves (inner = sha256(0x01 || left || right))
 *   appHash_h = sha256(0x02 || appHash_{h-1} || root)   if block h has changes
 *             = appHash_{h-1}                            otherwise;   appHash_0 = empty
 */
import * as nodeCrypto from 'node:crypto';
import type { Bytes, Change } from './types.js';

// One-shot crypto.hash (Node >= 20.12) is about twice as fast as createHash for small inputs; both are
// native OpenSSL SHA-256. The namespace import keeps older Node 20 releases (no `hash` export) working.
const oneShot: typeof nodeCrypto.hash | undefined = (nodeCrypto as Partial<typeof nodeCrypto>).hash;

/** SHA-256 of `data` (native). */
function sha256(data: Uint8Array): Buffer {
  return oneShot !== undefined ? oneShot('sha256', data, 'buffer') : nodeCrypto.createHash('sha256').update(data).digest();
}

/** The app hash before genesis (height 0): the empty byte string. */
export const GENESIS_APP_HASH: Bytes = new Uint8Array(0);

/** Unsigned LEB128 varint of a non-negative safe integer. */
export function uvarint(n: number): Bytes {
  const out = new Uint8Array(10);
  return out.subarray(0, writeUvarint(out, 0, n));
}

/** Write the uvarint of `n` at `off`; returns the offset after it. */
function writeUvarint(out: Uint8Array, off: number, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`uvarint: invalid ${n}`);
  while (n >= 0x80) {
    out[off++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[off++] = n;
  return off;
}

// Reused preimage buffers (crypto hashes copy their input, so reuse is safe; all of this is synchronous).
let leafBuf = new Uint8Array(256);
const innerBuf = new Uint8Array(65);

/** The Merkle leaf hash of one change: sha256(0x00 || uvarint(len(key)) || key || 0x00 | 0x01 || value). */
export function leafHash(change: Change): Buffer {
  const { key, value } = change;
  const need = 1 + 10 + key.length + 1 + (value === undefined ? 0 : value.length);
  if (leafBuf.length < need) leafBuf = new Uint8Array(Math.max(need, leafBuf.length * 2));
  const b = leafBuf;
  b[0] = 0x00;
  let off = writeUvarint(b, 1, key.length);
  b.set(key, off);
  off += key.length;
  if (value === undefined) {
    b[off++] = 0x00;
  } else {
    b[off++] = 0x01;
    b.set(value, off);
    off += value.length;
  }
  return sha256(b.subarray(0, off));
}

/** Inner node hash: sha256(0x01 || left || right). */
function innerHash(left: Uint8Array, right: Uint8Array): Buffer {
  innerBuf[0] = 0x01;
  innerBuf.set(left, 1);
  innerBuf.set(right, 33);
  return sha256(innerBuf);
}

/** RFC 6962 Merkle tree hash over 32-byte leaf hashes (n >= 1; split at the largest power of two < n). */
export function merkleRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) throw new Error('merkleRoot: no leaves');
  for (const l of leaves) if (l.length !== 32) throw new Error('merkleRoot: leaves must be 32-byte hashes');
  // Bottom-up pairing that promotes an odd last node unchanged builds exactly the RFC 6962 tree.
  let level = leaves.slice();
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(innerHash(level[i]!, level[i + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    level = next;
  }
  return level[0]!;
}

/**
 * The app hash after a block with `changes` (sorted by key, unique keys) on top of `prev`.
 * An empty changeset leaves the app hash unchanged.
 */
export function nextAppHash(prev: Bytes, changes: readonly Change[]): Bytes {
  if (changes.length === 0) return prev;
  const root = merkleRoot(changes.map(leafHash));
  const pre = new Uint8Array(1 + prev.length + 32);
  pre[0] = 0x02;
  pre.set(prev, 1);
  pre.set(root, 1 + prev.length);
  return new Uint8Array(sha256(pre));
}
