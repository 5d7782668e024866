/** MemKVStore: an in-memory, sorted KVStore over a B-tree. */
import { newTree, treeRange, type Tree } from './tree.js';
import { assertBytes, fromKey, toKey } from './keys.js';
import type { Bytes, KVStore } from './types.js';
import { KEYED } from './cache.js';

/**
 * An in-memory KVStore backed by a sorted B-tree keyed by latin1 strings.
 *
 * Values are stored by reference: do not mutate a value after `set`, nor a value returned by `get`.
 * Iterators see a snapshot of the store taken when `iterator()` is called (O(1) copy-on-write clone),
 * so writing to the store while iterating is safe and does not affect the running iterator.
 */
export class MemKVStore implements KVStore {
  private tree: Tree<Bytes> = newTree<Bytes>();

  /** Create a store, optionally filled with `entries`. */
  constructor(entries?: Iterable<readonly [Bytes, Bytes]>) {
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  /** Number of keys held. */
  get size(): number {
    return this.tree.size;
  }

  /** The value under `key`, or undefined. */
  get(key: Bytes): Bytes | undefined {
    return this.tree.get(toKey(key));
  }

  /** Whether `key` is present. */
  has(key: Bytes): boolean {
    return this.tree.has(toKey(key));
  }

  /** Set `key` to `value` (stored by reference). */
  set(key: Bytes, value: Bytes): void {
    assertBytes(value, 'value');
    this.tree.set(toKey(key), value);
  }

  /** Remove `key` (no-op when absent). */
  delete(key: Bytes): void {
    this.tree.delete(toKey(key));
  }

  /** Entries with start <= key < end over a snapshot taken now; see the class doc. */
  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    const snap = this.tree.clone();
    return mapKeys(
      treeRange(snap, start === undefined ? undefined : toKey(start), end === undefined ? undefined : toKey(end), reverse),
    );
  }

  /** @internal KeyedKV (cache.ts): reads and writes by latin1 key string from a branch above. */
  hasK(k: string): boolean {
    return this.tree.has(k);
  }

  getK(k: string): Bytes | undefined {
    return this.tree.get(k);
  }

  /** @internal KeyedKV */
  setK(k: string, value: Bytes): void {
    this.tree.set(k, value);
  }

  /** @internal KeyedKV */
  deleteK(k: string): void {
    this.tree.delete(k);
  }

  /** @internal Fast path: set by latin1 key string (stored by reference; ascending order builds fastest). */
  setByKey(k: string, value: Bytes): void {
    this.tree.set(k, value);
  }

  /** @internal Fast path: delete by latin1 key string. */
  deleteByKey(k: string): void {
    this.tree.delete(k);
  }
}

function* mapKeys(it: Iterable<[string, Bytes]>): Generator<[Bytes, Bytes], void, undefined> {
  for (const [k, v] of it) yield [fromKey(k), v];
}

Object.defineProperty(MemKVStore.prototype, KEYED, { value: true });
