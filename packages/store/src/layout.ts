/**
 * Key layout of the node database. The first key byte is the namespace; 0x00-0x0F belong to the store,
 * 0x10 and above to other components (block store, tx indexer, ...), written through `extraOps`.
 *
 *   NS_STATE    0x01 || key                                    -> value        (current state)
 *   NS_VERSIONS 0x02 || escape(key) || 0x00 0x00 || BE64(h)    -> 0x00 | 0x01 || value
 *   NS_META     0x03 || 0x01                                   -> BE64(lastHeight) || lastAppHash
 *               0x03 || 0x02                                   -> BE64(first height) (absent: 1)
 *   NS_CHANGES  0x04 || BE64(h) || key                         -> empty        (keys changed in block h)
 *
 * escape() replaces each 0x00 byte with 0x00 0xFF, so `escape(key) || 0x00 0x00` is prefix-free and
 * order preserving: all versions of one key are contiguous, keys in bytewise order, heights ascending.
 */
import type { Bytes } from './types.js';

/** Namespace of the current state: NS_STATE || key -> value. */
export const NS_STATE = 0x01;
/** Namespace of the state history: one entry per changed key per height. */
export const NS_VERSIONS = 0x02;
/** Namespace of the commit metadata (last height, last app hash). */
export const NS_META = 0x03;
/** Namespace of the per-block change log: NS_CHANGES || BE64(h) || key -> empty (for snapshots at past heights). */
export const NS_CHANGES = 0x04;

/** NS_CHANGES || BE64(height) || key. */
export function changeLogKey(height: number, key: Bytes): Bytes {
  const out = new Uint8Array(9 + key.length);
  out[0] = NS_CHANGES;
  new DataView(out.buffer).setBigUint64(1, BigInt(height));
  out.set(key, 9);
  return out;
}
/** First namespace byte available to other components (0x00-0x0F are reserved for the store). */
export const NS_FIRST_EXTERNAL = 0x10;

/** The single metadata key: value is BE64(lastHeight) || lastAppHash. */
export const META_KEY: Bytes = new Uint8Array([NS_META, 0x01]);

/**
 * The height of the first committed block, written with it when it is not 1 (a chain started from an
 * exported genesis with `initial_height` > 1); absent in a store whose first block was height 1.
 */
export const FIRST_HEIGHT_KEY: Bytes = new Uint8Array([NS_META, 0x02]);

/** NS_STATE || key. */
export function stateKey(key: Bytes): Bytes {
  const out = new Uint8Array(key.length + 1);
  out[0] = NS_STATE;
  out.set(key, 1);
  return out;
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

/** NS_VERSIONS || escape(key) || 0x00 0x00: the common prefix of every version entry of `key`. */
export function versionPrefix(key: Bytes): Bytes {
  let zeros = 0;
  for (let i = 0; i < key.length; i++) if (key[i] === 0) zeros++;
  const out = new Uint8Array(1 + key.length + zeros + 2);
  out[0] = NS_VERSIONS;
  let o = 1;
  for (let i = 0; i < key.length; i++) {
    const b = key[i]!;
    out[o++] = b;
    if (b === 0) out[o++] = 0xff;
  }
  // The trailing 0x00 0x00 terminator is already zero.
  return out;
}

/** The version entry key of `key` at `height`. */
export function versionKey(key: Bytes, height: number): Bytes {
  return withHeight(versionPrefix(key), height);
}

/** `prefix || BE64(height)` as a fresh array. */
export function withHeight(prefix: Bytes, height: number): Bytes {
  const out = new Uint8Array(prefix.length + 8);
  out.set(prefix, 0);
  writeBE64(out, prefix.length, height);
  return out;
}

/** Decode a version entry key into the state key and height; throws on malformed input. */
export function decodeVersionKey(dbKey: Bytes): { key: Bytes; height: number } {
  if (dbKey.length < 11 || dbKey[0] !== NS_VERSIONS) throw new Error('not a version key');
  const end = dbKey.length - 10; // index of the 0x00 0x00 terminator
  if (dbKey[end] !== 0 || dbKey[end + 1] !== 0) throw new Error('malformed version key');
  const out: number[] = [];
  for (let i = 1; i < end; i++) {
    const b = dbKey[i]!;
    out.push(b);
    if (b === 0) {
      if (dbKey[i + 1] !== 0xff) throw new Error('malformed version key escape');
      i++;
    }
  }
  return { key: Uint8Array.from(out), height: readBE64(dbKey, end + 2) };
}

/** Version entry value: 0x00 for deleted, 0x01 || value for set. */
export function encodeVersionValue(value: Bytes | undefined): Bytes {
  if (value === undefined) return new Uint8Array([0x00]);
  const out = new Uint8Array(value.length + 1);
  out[0] = 0x01;
  out.set(value, 1);
  return out;
}

/** Decode a version entry value (undefined = deleted); throws on malformed input. */
export function decodeVersionValue(v: Bytes): Bytes | undefined {
  if (v.length === 1 && v[0] === 0x00) return undefined;
  if (v.length >= 1 && v[0] === 0x01) return v.slice(1);
  throw new Error('malformed version value');
}

/** Metadata value: BE64(height) || appHash. */
export function encodeMeta(height: number, appHash: Bytes): Bytes {
  const out = new Uint8Array(8 + appHash.length);
  writeBE64(out, 0, height);
  out.set(appHash, 8);
  return out;
}

/** Decode the metadata value. */
export function decodeMeta(v: Bytes): { height: number; appHash: Bytes } {
  if (v.length < 8) throw new Error('malformed store metadata');
  return { height: readBE64(v, 0), appHash: v.slice(8) };
}
