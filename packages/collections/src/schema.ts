/**
 * Schema: the collections of one module store, declared once. It refuses two collections with the same
 * name or with overlapping prefixes (one a prefix of the other), and walks every collection generically
 * for genesis export / import.
 */
import type {
  Collection,
  CollectionConfig,
  CollectionRegistrar,
  ExportEntry,
  PrefixLike,
  StoreAccessor,
} from './collection.js';
import { toPrefix } from './collection.js';
import type { KeyCodec } from './key-codec.js';
import type { ValueCodec } from './values.js';
import { CollectionMap } from './map.js';
import { KeySet } from './key-set.js';
import { Item } from './item.js';
import { Sequence } from './sequence.js';
import { IndexedMap } from './indexed-map.js';
import { CollectionError } from './errors.js';
import { hex } from './bytes.js';

/** Collection names: a letter, then letters, digits and underscores (the SDK's NameRegex). */
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Decoded entries per collection name, index collections excluded. */
export type SchemaExport = Record<string, ExportEntry[]>;

export class Schema implements CollectionRegistrar {
  private readonly list: Collection[] = [];
  private readonly byName = new Map<string, Collection>();

  constructor(readonly storeKey: string) {
    if (typeof storeKey !== 'string' || storeKey.length === 0 || storeKey.includes('/')) {
      throw new Error(`invalid store key ${JSON.stringify(storeKey)}: non-empty, without '/'`);
    }
  }

  /** Key/value entries under `prefix`. Composite key codecs (pairKey, tripleKey) enable prefix ranges. */
  map<K, V, P = never>(prefix: PrefixLike, name: string, keyCodec: KeyCodec<K, P>, valueCodec: ValueCodec<V>): CollectionMap<K, V, P> {
    return this.add(new CollectionMap(this.config(prefix, name), keyCodec, valueCodec));
  }

  /** A set of keys (stored with empty values). */
  keySet<K, P = never>(prefix: PrefixLike, name: string, keyCodec: KeyCodec<K, P>): KeySet<K, P> {
    return this.add(new KeySet(this.config(prefix, name), keyCodec));
  }

  /** One value stored at `prefix` itself. */
  item<V>(prefix: PrefixLike, name: string, valueCodec: ValueCodec<V>): Item<V> {
    return this.add(new Item(this.config(prefix, name), valueCodec));
  }

  /** A uint64 counter; `next` returns `start` first. */
  sequence(prefix: PrefixLike, name: string, start = 0n): Sequence {
    if (typeof start !== 'bigint' || start < 0n || start >= 1n << 64n) {
      throw new CollectionError(name, 'schema', `sequence start must be a uint64 bigint, got ${String(start)}`);
    }
    return this.add(new Sequence(this.config(prefix, name), start));
  }

  /** A map with secondary indexes, declared on it with `multiIndex` / `uniqueIndex`. */
  indexedMap<K, V, P = never>(prefix: PrefixLike, name: string, keyCodec: KeyCodec<K, P>, valueCodec: ValueCodec<V>): IndexedMap<K, V, P> {
    return this.add(new IndexedMap(this.config(prefix, name), keyCodec, valueCodec, this));
  }

  /** Every collection, indexes included, in declaration order. */
  collections(): readonly Collection[] {
    return this.list;
  }

  /** A collection by name. */
  collection(name: string): Collection | undefined {
    return this.byName.get(name);
  }

  /** Every non-index collection's entries, decoded, by name in declaration order. */
  exportAll(ctx: StoreAccessor): SchemaExport {
    const out: SchemaExport = {};
    for (const c of this.list) if (!c.isIndex) out[c.name] = c.exportEntries(ctx);
    return out;
  }

  /**
   * Write exported entries back (into an empty store: existing entries are overwritten, not cleared).
   * Indexes are rebuilt through their indexed maps; naming an unknown collection or an index throws.
   */
  importAll(ctx: StoreAccessor, data: Readonly<Record<string, readonly (readonly unknown[])[] | undefined>>): void {
    for (const name of Object.keys(data)) {
      const c = this.byName.get(name);
      if (c === undefined) throw new Error(`schema "${this.storeKey}": unknown collection "${name}" in import data`);
      if (c.isIndex) notImportable(c);
      if (!Array.isArray(data[name])) {
        throw new CollectionError(name, 'import', 'entries must be an array of [key, value] pairs');
      }
    }
    for (const c of this.list) {
      const entries = data[c.name];
      if (entries !== undefined) c.importEntries(ctx, entries);
    }
  }

  /** Check and normalise a prefix and a name before building a collection. */
  config(prefix: PrefixLike, name: string): CollectionConfig {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new Error(`schema "${this.storeKey}": invalid collection name ${JSON.stringify(name)} (want ${NAME.source})`);
    }
    let bytes: Uint8Array;
    try {
      bytes = toPrefix(prefix);
    } catch (e) {
      throw new CollectionError(name, 'schema', (e as Error).message);
    }
    return { storeKey: this.storeKey, prefix: bytes, name };
  }

  /** Add a collection built on `config(...)`: refuses a duplicate name or an overlapping prefix. */
  add<C extends Collection>(collection: C): C {
    const { name, prefix } = collection;
    if (collection.storeKey !== this.storeKey) {
      throw new CollectionError(name, 'schema', `belongs to store "${collection.storeKey}", not "${this.storeKey}"`);
    }
    if (this.byName.has(name)) {
      throw new CollectionError(name, 'schema', `the name is already used in schema "${this.storeKey}"`);
    }
    for (const other of this.list) {
      if (startsWith(prefix, other.prefix) || startsWith(other.prefix, prefix)) {
        throw new CollectionError(
          name,
          'schema',
          `prefix 0x${hex(prefix)} overlaps prefix 0x${hex(other.prefix)} of collection "${other.name}" in schema "${this.storeKey}"`,
        );
      }
    }
    this.list.push(collection);
    this.byName.set(name, collection);
    return collection;
  }
}

function startsWith(a: Uint8Array, p: Uint8Array): boolean {
  if (a.length < p.length) return false;
  for (let i = 0; i < p.length; i++) if (a[i] !== p[i]) return false;
  return true;
}

function notImportable(c: Collection): never {
  throw new CollectionError(c.name, 'import', 'a secondary index is not imported: it is rebuilt by its indexed map');
}
