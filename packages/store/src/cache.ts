/** branch(): a write buffer (CacheKVStore) over any KVStore. */
import { newTree, treeRange, type Tree } from './tree.js';
import { assertBytes, compareBytes, fromKey, toKey } from './keys.js';
import type { Bytes, CacheKVStore, Change, KVStore } from './types.js';

/** Buffered write: a value for set, null for delete. */
type Pending = Bytes | null;

/**
 * Create a write buffer over `parent`. Reads fall through to the parent for keys not written in the
 * buffer; writes stay in the buffer until `write()` flushes them to the parent in key order.
 * Branches nest: `branch(branch(x))`.
 *
 * Iterator semantics: `iterator()` takes a snapshot of the buffered writes (O(1) copy-on-write) and
 * opens the parent's iterator immediately, so it reflects the contents at the moment it was created
 * (assuming the parent's iterator snapshots too, as every store of this package does). Writes made
 * to the branch or its parent while iterating are not seen by that iterator and never break it.
 */
export function branch(parent: KVStore): CacheKVStore {
  return new CacheKV(parent);
}

class CacheKV implements CacheKVStore {
  private readonly buf: Tree<Pending> = newTree<Pending>();

  constructor(private readonly parent: KVStore) {}

  get(key: Bytes): Bytes | undefined {
    const p = this.buf.get(toKey(key));
    if (p === undefined) return this.parent.get(key);
    return p ?? undefined;
  }

  has(key: Bytes): boolean {
    const p = this.buf.get(toKey(key));
    if (p === undefined) return this.parent.has(key);
    return p !== null;
  }

  set(key: Bytes, value: Bytes): void {
    assertBytes(value, 'value');
    this.buf.set(toKey(key), value);
  }

  delete(key: Bytes): void {
    this.buf.set(toKey(key), null);
  }

  iterator(start?: Bytes, end?: Bytes, reverse = false): IterableIterator<[Bytes, Bytes]> {
    const snap = this.buf.clone();
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
    for (const [k, v] of this.buf.entries()) {
      if (v === null) this.parent.delete(fromKey(k));
      else this.parent.set(fromKey(k), v);
    }
    this.buf.clear();
  }

  discard(): void {
    this.buf.clear();
  }

  changes(): Change[] {
    const out: Change[] = [];
    for (const [k, v] of this.buf.entries()) out.push({ key: fromKey(k), value: v ?? undefined });
    return out;
  }
}

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
