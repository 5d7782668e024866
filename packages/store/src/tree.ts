/** Internal: the sorted-btree instance type over latin1 string keys, and range iteration over it. */
import BTreeModule from 'sorted-btree';
import { compareKeys } from './keys.js';

// sorted-btree is CommonJS with `exports.default = BTree`. Native ESM gives module.exports as the default
// import, while a CJS-transpiled load (tsx under require) gives the class itself: accept both.
type BTreeClass = typeof BTreeModule.default;
const loaded = BTreeModule as unknown as BTreeClass | { default: BTreeClass };
const BTreeCtor: BTreeClass = typeof loaded === 'function' ? loaded : loaded.default;

/** A B-tree keyed by latin1 key strings. */
export type Tree<V> = InstanceType<typeof BTreeCtor<string, V>>;

/** Create an empty tree ordered bytewise. */
export function newTree<V>(): Tree<V> {
  return new BTreeCtor<string, V>(undefined, compareKeys);
}

/**
 * Entries of `tree` with start <= key < end (bounds optional), ascending or descending.
 * Iterate a snapshot (`tree.clone()`, O(1) copy-on-write) if the tree may be written meanwhile.
 */
export function* treeRange<V>(
  tree: Tree<V>,
  start: string | undefined,
  end: string | undefined,
  reverse: boolean,
): Generator<[string, V], void, undefined> {
  if (!reverse) {
    for (const e of tree.entries(start)) {
      if (end !== undefined && e[0] >= end) return;
      yield e;
    }
  } else {
    const it = end === undefined ? tree.entriesReversed() : tree.entriesReversed(end, undefined, true);
    for (const e of it) {
      if (start !== undefined && e[0] < start) return;
      yield e;
    }
  }
}
