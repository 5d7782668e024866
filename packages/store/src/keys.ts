/**
 * Byte/key helpers shared by the stores. Internally, keys are held as latin1 strings (one char per
 * byte, code points 0..255): JavaScript string comparison then equals bytewise (memcmp) order, and
 * strings are cheap B-tree keys.
 */
import { bytesToString } from '@chain/crypto';
import type { Bytes } from './types.js';

/** Encode bytes as an internal latin1 key string (order preserving). */
export function toKey(bytes: Bytes): string {
  const n = bytes.length;
  if (n <= 16) {
    // Short keys: no native call, and a flat string (a char loop builds a rope, slower to compare later)
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  // no Buffer view of a small typed array (@chain/crypto's bytesToString)
  return bytesToString(bytes, 'latin1');
}

/** Decode an internal latin1 key string back to a fresh plain Uint8Array. */
export function fromKey(key: string): Bytes {
  const n = key.length;
  const out = new Uint8Array(n);
  if (n <= 128) {
    // a char loop beats the native write (and its Buffer view) up to ~100 bytes
    for (let i = 0; i < n; i++) out[i] = key.charCodeAt(i);
  } else {
    Buffer.from(out.buffer, out.byteOffset, n).write(key, 0, n, 'latin1');
  }
  return out;
}

/** Bytewise comparison (memcmp order): negative, zero or positive. */
export function compareBytes(a: Bytes, b: Bytes): number {
  return Buffer.compare(a, b);
}

/** Bytewise equality. */
export function bytesEqual(a: Bytes, b: Bytes): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Comparator for latin1 key strings (bytewise order). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Validate that a value is a Uint8Array (guards JS callers and casts). */
export function assertBytes(v: unknown, what: string): asserts v is Bytes {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
}

/** Whether `key` begins with `prefix`. */
export function startsWith(key: Bytes, prefix: Bytes): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
