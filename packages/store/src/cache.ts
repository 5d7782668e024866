/** branch(): a write buffer (CacheKVStore) over any KVStore. */
import { newTree, treeRange, type Tree } from './tree.js';
import { assertBytes, compareBytes, fromKey, sortKeyStrings, toKey } from './keys.js';
import type { Bytes, CacheKVStore, Change, KVStore, PackedChanges } from './types.js';

/**
 * @internal A store of this package that also takes keys as the internal latin1 strings, so a chain of branches
 * converts a key once. `key` (the same key as bytes) is passed when the caller has it, else undefined.
 */
export interface KeyedKV {
  getK(k: string, key: Bytes | undefined): Bytes | undefined;
  /** whether the key has a value (a store may answer without reading it) */
  hasK(k: string, key: Bytes | undefined): boolean;
  setK(k: string, value: Bytes): void;
  deleteK(k: string): void;
}

/** @internal Marks the prototype of a class of this package that implements KeyedKV. */
export const KEYED: unique symbol = Symbol('chain.store.keyed');

/**
 * Whether `kv` is an instance of exactly such a class (not of a subclass: one that overrides `set` or `get`
 * must see every call).
 */
export function isKeyed(kv: KVStore): kv is KVStore & KeyedKV {
  const proto = Object.getPrototypeOf(kv) as object | null;
  return proto !== null && Object.prototype.hasOwnProperty.call(proto, KEYED);
}

/** Buffered write: a value for set, null for delete. */
type Pending = Bytes | null;

/**
 * Create a write buffer over `parent`. Reads fall through to the parent for keys not written in the
 * buffer; writes stay in the buffer until `write()` flushes them to the parent (in key order, but into a
 * parent branch, which takes them in any order).
 * Branches nest: `branch(branch(x))`.
 *
 * The buffer is a hash map (O(1) reads and writes, as the SDK's cachekv keeps an unsorted cache); a sorted
 * B-tree of it is built only when the branch is iterated, and then kept up to date lazily: the keys written
 * since the last iteration are merged into it when the next iterator opens. A branch that is never iterated
 * (most of InitChain's, a tx's) never sorts anything; `changes()` sorts once.
 *
 * Iterator semantics: `iterator()` takes a snapshot of the buffered writes (O(1) copy-on-write of the sorted
 * tree) and opens the parent's iterator immediately, so it reflects the contents at the moment it was created
 * (assuming the parent's iterator snapshots too, as every store of this package does). Writes made
 * to the branch or its parent while iterating are not seen by that iterator and never break it.
 */
export function branch(parent: KVStore): CacheKVStore {
  return new CacheKV(parent);
}

class CacheKV implements CacheKVStore, KeyedKV {
  private readonly buf = new Map<string, Pending>();
  /** the buffer in key order, once the branch has been iterated: every key of `buf` but those in `unsorted` */
  private sorted: Tree<Pending> | undefined;
  /** keys written since `sorted` was last brought up to date (with repeats; only while `sorted` exists) */
  private unsorted: string[] = [];
  /** the parent when it takes key strings (a branch, the committed state, a MemKVStore): no reconversion */
  private readonly keyed: KeyedKV | undefined;

  constructor(private readonly parent: KVStore) {
    this.keyed = isKeyed(parent) ? parent : undefined;
  }

  get(key: Bytes): Bytes | undefined {
    return this.getK(toKey(key), key);
  }

  getK(k: string, key: Bytes | undefined): Bytes | undefined {
    const p = this.buf.get(k);
    if (p === undefined) {
      if (this.keyed !== undefined) return this.keyed.getK(k, key);
      return this.parent.get(key ?? fromKey(k));
    }
    return p ?? undefined;
  }

  has(key: Bytes): boolean {
    return this.hasK(toKey(key), key);
  }

  hasK(k: string, key: Bytes | undefined): boolean {
    const p = this.buf.get(k);
    if (p !== undefined) return p !== null;
    if (this.keyed !== undefined) return this.keyed.hasK(k, key);
    return this.parent.has(key ?? fromKey(k));
  }

  private put(k: string, p: Pending): void {
    this.buf.set(k, p);
    if (this.sorted !== undefined) this.unsorted.push(k);
  }

  set(key: Bytes, value: Bytes): void {
    assertBytes(value, 'value');
    this.put(toKey(key), value);
  }

  setK(k: string, value: Bytes): void {
    this.put(k, value);
  }

  delete(key: Bytes): void {
    this.put(toKey(key), null);
  }

  deleteK(k: string): void {
    this.put(k, null);
  }

  /** The sorted tree of the buffer, brought up to date. */
  private sortedTree(): Tree<Pending> {
    let t = this.sorted;
    if (t === undefined) {
      t = newTree<Pending>();
      // ascending inserts fill a B-tree fastest
      for (const [k, v] of this.sortedEntries()) t.set(k, v);
      this.sorted = t;
    } else if (this.unsorted.length > 0) {
      for (const k of this.unsorted) t.set(k, this.buf.get(k)!);
      this.unsorted = [];
    }
    return t;
  }

  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    const snap = this.sortedTree().clone();
    const fromParent = this.parent.iterator(start, end, reverse);
    const fromBuf = treeRange(
      snap,
      start === undefined ? undefined : toKey(start),
      end === undefined ? undefined : toKey(end),
      reverse,
    );
    return merge(fromParent, fromBuf, reverse);
  }

  write(): void {
    // Clear only after the whole flush: if the parent throws, the buffer is kept (re-flushing is idempotent).
    // Into a parent branch in the order the keys were first written (a hash map takes any order); into any other
    // store in key order, as a sorted store builds fastest and a custom one may expect.
    const keyed = this.keyed;
    if (keyed !== undefined) {
      const entries = keyed instanceof CacheKV ? this.buf : this.sortedEntries();
      for (const [k, v] of entries) {
        if (v === null) keyed.deleteK(k);
        else keyed.setK(k, v);
      }
    } else {
      for (const [k, v] of this.sortedEntries()) {
        if (v === null) this.parent.delete(fromKey(k));
        else this.parent.set(fromKey(k), v);
      }
    }
    this.discard();
  }

  /** The buffered writes in key order. */
  private sortedEntries(): [string, Pending][] {
    const keys = [...this.buf.keys()];
    sortKeyStrings(keys);
    const out: [string, Pending][] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = [keys[i]!, this.buf.get(keys[i]!)!];
    return out;
  }

  discard(): void {
    this.buf.clear();
    this.sorted = undefined;
    this.unsorted = [];
  }

  get size(): number {
    return this.buf.size;
  }

  /** The buffered writes in key order (a delete as an undefined value). */
  changes(): Change[] {
    return this.sortedEntries().map(([k, v]) => ({ key: fromKey(k), value: v ?? undefined }));
  }

  /** The buffered writes in key order, the keys' bytes in one buffer. */
  packedChanges(): PackedChanges {
    const keys = [...this.buf.keys()];
    sortKeyStrings(keys);
    const n = keys.length;
    let size = 0;
    for (let i = 0; i < n; i++) size += keys[i]!.length;
    const bytes = new Uint8Array(size);
    const offs = new Uint32Array(n + 1);
    const values = new Array<Bytes | undefined>(n);
    let off = 0;
    for (let i = 0; i < n; i++) {
      // (a key string holds one byte per character: see toKey)
      const k = keys[i]!;
      for (let j = 0; j < k.length; j++) bytes[off + j] = k.charCodeAt(j);
      off += k.length;
      offs[i + 1] = off;
      values[i] = this.buf.get(k) ?? undefined;
    }
    return { n, bytes, offs, values };
  }
}

Object.defineProperty(CacheKV.prototype, KEYED, { value: true });

/** Merge the parent's entries with buffered writes: buffered sets override, buffered deletes hide. */
function* merge(
  parent: Iterator<[Bytes, Bytes]>,
  buffered: Iterator<[string, Pending]>,
  reverse: boolean,
): Generator<[Bytes, Bytes], void, undefined> {
  let a = parent.next();
  let b = buffered.next();
  let bKey = b.done ? undefined : fromKey(b.value[0]);
  for (;;) {
    if (b.done || bKey === undefined) {
      if (a.done) return;
      yield a.value;
      a = parent.next();
      continue;
    }
    let c = a.done ? 1 : compareBytes(a.value[0], bKey);
    if (reverse && !a.done) c = -c;
    if (c < 0 && !a.done) {
      yield a.value;
      a = parent.next();
      continue;
    }
    if (c === 0) a = parent.next();
    const v = b.value[1];
    if (v !== null) yield [bKey, v];
    b = buffered.next();
    bKey = b.done ? undefined : fromKey(b.value[0]);
  }
}
