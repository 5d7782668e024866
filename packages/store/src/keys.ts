/**
 * Byte/key helpers shared by the stores. Internally, keys are held as latin1 strings (one char per
 * byte, code points 0..255): JavaScript string comparison then equals bytewise (memcmp) order, and
 * strings are cheap B-tree keys.
 */
import type { Bytes } from './types.js';

/**
 * Node's latin1 conversion of a byte range to a string, on any Uint8Array (a Buffer method, undocumented but in every
 * Node.js release): no Buffer view to make, and no ArrayBuffer for V8 to materialize behind a small typed array,
 * which `Buffer.from(bytes.buffer, ...)` costs (~4x slower at 30-60 bytes, the size of most state keys).
 */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Uint8Array, start: number, end: number) => string }).latin1Slice;

/** Encode bytes as an internal latin1 key string (order preserving). */
export function toKey(bytes: Bytes): string {
  const n = bytes.length;
  if (n <= 16) {
    // Short keys: no native call, and a flat string (a char loop builds a rope, slower to compare later)
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, 0, n);
  return Buffer.from(bytes.buffer, bytes.byteOffset, n).toString('latin1');
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
