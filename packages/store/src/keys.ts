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

/** compareBytes(x[xs, xe), y[ys, ye)), without views of them. */
export function compareRanges(x: Bytes, xs: number, xe: number, y: Bytes, ys: number, ye: number): number {
  const xl = xe - xs;
  const yl = ye - ys;
  const n = xl < yl ? xl : yl;
  for (let k = 0; k < n; k++) {
    const d = x[xs + k]! - y[ys + k]!;
    if (d !== 0) return d;
  }
  return xl - yl;
}

/**
 * Sorts key strings (one byte per character, see toKey) in place into byte order, as `keys.sort()` does: an MSD
 * radix sort on the characters (a pass per character position over each group of keys equal so far; groups of a
 * few keys by comparison). ~2-3x faster than the comparison sort on the keys of a large genesis, whose long shared
 * prefixes each comparison walks again.
 */
export function sortKeyStrings(keys: string[]): void {
  const n = keys.length;
  if (n < 2) return;
  const tmp = new Array<string>(n);
  const counts = new Int32Array(257);
  // groups still to sort: [start, end, depth]
  const stack: number[] = [0, n, 0];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const end = stack.pop()!;
    const start = stack.pop()!;
    if (end - start <= 24) {
      insertionSort(keys, start, end);
      continue;
    }
    // bucket 0: keys that end here (they come first), 1 + c: character c at `depth`
    counts.fill(0);
    for (let i = start; i < end; i++) {
      const k = keys[i]!;
      const c = depth < k.length ? k.charCodeAt(depth) + 1 : 0;
      if (c > 256) {
        // not a key string (a character above 0xff): the comparison sort, which orders any strings
        keys.sort();
        return;
      }
      counts[c]!++;
    }
    // all in one bucket (a shared character): the next position, without moving anything
    let single = -1;
    for (let b = 0; b < 257; b++) {
      if (counts[b] === end - start) single = b;
      if (counts[b] !== 0) break;
    }
    if (single > 0) {
      stack.push(start, end, depth + 1);
      continue;
    }
    if (single === 0) continue; // all equal (ended)
    let sum = start;
    for (let b = 0; b < 257; b++) {
      const c = counts[b]!;
      counts[b] = sum;
      sum += c;
    }
    for (let i = start; i < end; i++) {
      const k = keys[i]!;
      tmp[counts[depth < k.length ? k.charCodeAt(depth) + 1 : 0]!++] = k;
    }
    for (let i = start; i < end; i++) keys[i] = tmp[i]!;
    // counts[b] is now the end of bucket b; bucket 0 (ended keys) is sorted already
    let from = start + 0;
    for (let b = 0; b < 257; b++) {
      const to = counts[b]!;
      if (b > 0 && to - from > 1) stack.push(from, to, depth + 1);
      from = to;
    }
  }
}

function insertionSort(keys: string[], start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= start && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}
