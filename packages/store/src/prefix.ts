/** prefixStore(): a key-namespaced view of a parent KVStore. */
import type { Bytes, KVStore } from './types.js';

/**
 * The smallest key greater than every key that starts with `prefix`, or undefined when there is none
 * (empty prefix, or a prefix made only of 0xFF bytes): drop trailing 0xFF bytes, then increment the
 * last byte.
 */
export function prefixEnd(prefix: Bytes): Bytes | undefined {
  let n = prefix.length;
  while (n > 0 && prefix[n - 1] === 0xff) n--;
  if (n === 0) return undefined;
  const out = prefix.slice(0, n);
  out[n - 1]! += 1;
  return out;
}

/**
 * A view of `parent` where every key is stored as prefix||key. Keys are returned without the prefix
 * and iterator bounds are relative to it. Iterators have the parent's iterator semantics (a snapshot
 * for the stores of this package).
 */
export function prefixStore(parent: KVStore, prefix: Bytes): KVStore {
  return new PrefixStore(parent, prefix);
}

class PrefixStore implements KVStore {
  private readonly prefix: Bytes;
  private readonly end: Bytes | undefined;

  constructor(
    private readonly parent: KVStore,
    prefix: Bytes,
  ) {
    this.prefix = prefix.slice();
    this.end = prefixEnd(this.prefix);
  }

  private full(key: Bytes): Bytes {
    const p = this.prefix;
    const out = new Uint8Array(p.length + key.length);
    out.set(p, 0);
    out.set(key, p.length);
    return out;
  }

  get(key: Bytes): Bytes | undefined {
    return this.parent.get(this.full(key));
  }

  has(key: Bytes): boolean {
    return this.parent.has(this.full(key));
  }

  set(key: Bytes, value: Bytes): void {
    this.parent.set(this.full(key), value);
  }

  delete(key: Bytes): void {
    this.parent.delete(this.full(key));
  }

  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    const it = this.parent.iterator(
      start === undefined ? this.prefix : this.full(start),
      end === undefined ? this.end : this.full(end),
      reverse,
    );
    return strip(it, this.prefix.length);
  }
}

function* strip(it: Iterable<[Bytes, Bytes]>, n: number): Generator<[Bytes, Bytes], void, undefined> {
  for (const [k, v] of it) yield [k.subarray(n), v];
}
