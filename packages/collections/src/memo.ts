/**
 * Decoded values remembered by the identity of the bytes they were decoded from.
 *
 * A tx reads the same stored value several times (the ante handler reads the signer's account three times and the
 * auth params once; CheckTx's precheck read it before), and every read decoded the same bytes again: protobuf
 * decoding was the biggest allocator of a loaded node. Stores hand out the instance they hold (a branch the bytes
 * written to it, the committed state its cache's), so the same instance means the same stored value, and a decode
 * of it can be answered from here. Stored bytes never change in place (the stores keep what they are given), which
 * is what makes identity a safe key; a value whose bytes changed is a new instance, and is decoded.
 */

/**
 * At most about `2 x max` entries, in two generations: entries go into the young map, which becomes the old one when
 * full (the old one is dropped). Strong references: what it keeps is bounded, and no ephemeron tables for the
 * collector to walk.
 */
export class IdentityMemo<K extends object, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly max = 2048) {}

  get(key: K): V | undefined {
    return this.young.get(key) ?? this.old.get(key);
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.max) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}

/**
 * A copy of a decoded value that the caller may change without changing the remembered one: plain objects and
 * arrays are copied, recursively; byte arrays are shared (decoded bytes fields are views of the stored bytes, which
 * nobody changes in place), as are strings, numbers, bigints, booleans and null.
 */
export function clonePlain<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = clonePlain(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in value) out[k] = clonePlain((value as Record<string, unknown>)[k]);
  return out as T;
}
