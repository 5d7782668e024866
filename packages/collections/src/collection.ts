/** What every collection shares: its place in the module store and a generic export/import. */
import type { KVStore } from '@chain/store';
import { utf8 } from './bytes.js';

/**
 * Where collections get their store: `ctx.kv(storeKey)`. `Context` of @chain/app satisfies it (metered in
 * tx modes); tests can pass `{ kv: (k) => prefixStore(mem, utf8(k + '/')) }`.
 */
export interface StoreAccessor {
  kv(storeKey: string): KVStore;
}

export type CollectionKind = 'map' | 'keySet' | 'item' | 'sequence' | 'indexedMap' | 'multiIndex' | 'uniqueIndex';

/** One exported entry: the decoded key (null for items and sequences) and the decoded value. */
export type ExportEntry = [key: unknown, value: unknown];

/** A collection's place in its schema. */
export interface CollectionConfig {
  readonly storeKey: string;
  /** the collection's key prefix inside the module store */
  readonly prefix: Uint8Array;
  readonly name: string;
}

export interface Collection {
  readonly kind: CollectionKind;
  readonly storeKey: string;
  readonly name: string;
  /** Key prefix inside the module store (do not mutate). */
  readonly prefix: Uint8Array;
  /** Secondary indexes hold derived data: `Schema.exportAll` skips them, imports rebuild them. */
  readonly isIndex: boolean;
  /** Every entry, decoded, in key order. */
  exportEntries(ctx: StoreAccessor): ExportEntry[];
  /** Write entries as produced by `exportEntries` (through the collection's own `set`). */
  importEntries(ctx: StoreAccessor, entries: readonly (readonly unknown[])[]): void;
}

/** A collection prefix: a byte 0-255, a string (its UTF-8 bytes) or bytes. */
export type PrefixLike = number | string | Uint8Array;

/** The bytes of a prefix (a fresh copy); throws on an empty or out-of-range prefix. */
export function toPrefix(prefix: PrefixLike): Uint8Array {
  let out: Uint8Array;
  if (typeof prefix === 'number') {
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 255) {
      throw new Error(`invalid collection prefix ${prefix}: a numeric prefix is one byte (0-255)`);
    }
    out = Uint8Array.of(prefix);
  } else if (typeof prefix === 'string') {
    out = utf8(prefix);
  } else if (prefix instanceof Uint8Array) {
    out = prefix.slice();
  } else {
    throw new Error(`invalid collection prefix: ${typeof prefix}`);
  }
  if (out.length === 0) throw new Error('invalid collection prefix: empty');
  return out;
}

/** What indexed maps need from their schema to declare their indexes. */
export interface CollectionRegistrar {
  /** Check and normalise a prefix and a name (before building the collection). */
  config(prefix: PrefixLike, name: string): CollectionConfig;
  /** Add a collection: refuses a name already used or a prefix overlapping another collection's. */
  add<C extends Collection>(collection: C): C;
}
