/**
 * The key/value contracts every state user codes against. Keys and values are raw bytes; ordering is
 * bytewise (memcmp). Reads are synchronous on purpose: the committed state answers from a bounded cache or one
 * synchronous disk read (live.ts; docs/architecture.md, "State"), so a transaction never awaits a read.
 */
export type Bytes = Uint8Array;

/**
 * A synchronous, bytewise-ordered key/value store. The stores of this package iterate over a snapshot
 * taken when `iterator()` is called: writing while iterating is safe and not seen by that iterator.
 */
export interface KVStore {
  get(key: Bytes): Bytes | undefined;
  has(key: Bytes): boolean;
  set(key: Bytes, value: Bytes): void;
  delete(key: Bytes): void;
  /** Entries with start <= key < end (either bound optional), ascending or descending. */
  iterator(start?: Bytes, end?: Bytes, reverse?: boolean): IterableIterator<[Bytes, Bytes]>;
}

/** One change of a changeset: value undefined means deleted. */
export interface Change {
  readonly key: Bytes;
  readonly value: Bytes | undefined;
}

/** A write-buffering layer over a parent store: a failed message or tx drops it, a good one writes it. */
export interface CacheKVStore extends KVStore {
  /** Flush the buffered writes into the parent, then clear the buffer. */
  write(): void;
  /** Drop every buffered write. */
  discard(): void;
  /** The buffered writes, sorted by key ascending. */
  changes(): Change[];
  /** The same, packed: no object or key buffer per write (a large genesis moves its writes to disk this way). */
  packedChanges(): PackedChanges;
  /** Number of buffered writes (sets and deletes). */
  readonly size: number;
}

/**
 * Writes sorted by key ascending (unique keys), packed: key i is bytes[offs[i], offs[i + 1]), its value values[i]
 * (undefined: a delete).
 */
export interface PackedChanges {
  readonly n: number;
  readonly bytes: Uint8Array;
  readonly offs: Uint32Array;
  readonly values: readonly (Bytes | undefined)[];
}

/** A raw write against the node database, committed in the same atomic batch as the state. */
export type BatchOp =
  | { readonly type: 'put'; readonly key: Bytes; readonly value: Bytes }
  | { readonly type: 'del'; readonly key: Bytes };
