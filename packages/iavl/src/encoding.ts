/**
 * Byte helpers shared by the tree, its proofs and the multistore commitment: Go's varints, SHA-256 (native,
 * one-shot), bytewise comparison.
 */
import * as nodeCrypto from 'node:crypto';

export type Bytes = Uint8Array;

// One-shot crypto.hash (Node >= 20.12) is about twice as fast as createHash for small inputs.
const oneShot: typeof nodeCrypto.hash | undefined = (nodeCrypto as Partial<typeof nodeCrypto>).hash;

/** SHA-256 of `data` (native OpenSSL). The input is copied by the hash, so callers may reuse buffers. */
export function sha256(data: Uint8Array): Buffer {
  return oneShot !== undefined
    ? (oneShot('sha256', data, 'buffer') as Buffer)
    : nodeCrypto.createHash('sha256').update(data).digest();
}

/** sha256 of the empty input: IAVL's hash of an empty tree (RFC 6962, iavl v0.19+ `Hash()` / `SaveVersion()`). */
export const EMPTY_HASH: Bytes = sha256(new Uint8Array(0));

/**
 * Bytewise comparison (-1, 0, 1), as Go's `bytes.Compare`. A JS loop for short keys (a native `Buffer.compare`
 * call costs more than comparing the few bytes a tree walk needs), native for long ones.
 */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = a.length < b.length ? a.length : b.length;
  if (n > 64) return Buffer.compare(a, b);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (a.length > 64) return Buffer.compare(a, b) === 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Length of Go's `binary.PutUvarint(n)` for a non-negative safe integer. */
export function uvarintSize(n: number): number {
  let s = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    s++;
  }
  return s;
}

/** Go's `binary.PutUvarint` (unsigned LEB128) of a non-negative safe integer at `off`; returns the new offset. */
export function putUvarint(out: Uint8Array, off: number, n: number): number {
  while (n >= 0x80) {
    out[off++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[off++] = n;
  return off;
}

/**
 * Go's `binary.PutVarint` (zigzag, then LEB128) of a safe integer at `off`: IAVL's encoding of a node's
 * height, size and version in its hash preimage. Returns the new offset.
 */
export function putVarint(out: Uint8Array, off: number, n: number): number {
  return putUvarint(out, off, n >= 0 ? n * 2 : -n * 2 - 1);
}

/** Go's `binary.PutVarint(n)` as bytes. */
export function varint(n: number): Bytes {
  const b = new Uint8Array(10);
  return b.slice(0, putVarint(b, 0, n));
}

/** Read an unsigned LEB128 varint: [value, newOffset]. */
export function readUvarint(buf: Uint8Array, off: number): [number, number] {
  let n = 0;
  let mul = 1;
  for (;;) {
    if (off >= buf.length) throw new RangeError('uvarint: truncated');
    const b = buf[off++]!;
    n += (b & 0x7f) * mul;
    if (b < 0x80) return [n, off];
    mul *= 0x80;
    if (mul > 2 ** 56) throw new RangeError('uvarint: too long');
  }
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** The binary string (latin1) of 32 hash bytes: the node's cache id. */
export function hashId(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1');
}

/** A copy of `b` as a plain Uint8Array (`Buffer#slice` would return a view). */
export function copyBytes(b: Uint8Array): Uint8Array {
  return new Uint8Array(b);
}

/** Write `n` (a non-negative safe integer) as 8 big-endian bytes at `off`. */
export function writeBE64(out: Uint8Array, off: number, n: number): void {
  const hi = Math.floor(n / 0x1_0000_0000);
  const lo = n >>> 0;
  out[off] = hi >>> 24;
  out[off + 1] = (hi >>> 16) & 0xff;
  out[off + 2] = (hi >>> 8) & 0xff;
  out[off + 3] = hi & 0xff;
  out[off + 4] = lo >>> 24;
  out[off + 5] = (lo >>> 16) & 0xff;
  out[off + 6] = (lo >>> 8) & 0xff;
  out[off + 7] = lo & 0xff;
}

/** Read 8 big-endian bytes at `off` as a number (must be a safe integer). */
export function readBE64(b: Bytes, off: number): number {
  const hi = ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) >>> 0;
  const lo = ((b[off + 4]! << 24) | (b[off + 5]! << 16) | (b[off + 6]! << 8) | b[off + 7]!) >>> 0;
  const n = hi * 0x1_0000_0000 + lo;
  if (!Number.isSafeInteger(n)) throw new RangeError('BE64 value exceeds the safe integer range');
  return n;
}

/** Little-endian u32 at `b[off]`. */
export function writeU32le(b: Uint8Array, off: number, n: number): void {
  b[off] = n & 0xff;
  b[off + 1] = (n >>> 8) & 0xff;
  b[off + 2] = (n >>> 16) & 0xff;
  b[off + 3] = n >>> 24;
}

/** The little-endian u32 at `b[off]`. */
export function readU32le(b: Uint8Array, off: number): number {
  return (b[off]! | (b[off + 1]! << 8) | (b[off + 2]! << 16)) + b[off + 3]! * 0x1000000;
}
