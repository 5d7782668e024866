/**
 * Secondary indexes of an IndexedMap (cosmossdk.io/collections/indexes Multi and Unique, same layouts):
 * - multi:  prefix || ref (non-terminal) || primary key (terminal)  ->  empty value
 * - unique: prefix || ref (terminal)                                ->  primary key (terminal encoding)
 * They are written by the IndexedMap only; these classes expose reads.
 */
import { prefixEnd } from '@chain/store';
import type { KVStore } from '@chain/store';
import type { Collection, CollectionConfig, ExportEntry, StoreAccessor } from './collection.js';
import type { KeyCodec } from './key-codec.js';
import type { Entry, Range } from './range.js';
import { storeBounds } from './range.js';
import { pairKey } from './composite.js';
import { keyAsValue } from './values.js';
import { CollectionIterator } from './iter.js';
import { CollectionError, encodingFailure } from './errors.js';
import { EMPTY, concat, hex } from './bytes.js';
import { CollectionMap } from './map.js';

/** One index entry: a reference and the primary key it points to. */
export interface IndexEntry<R, K> {
  ref: R;
  key: K;
}

/** @internal How an IndexedMap keeps an index in sync. */
export interface IndexMaintainer<K, V> extends Collection {
  readonly unique: boolean;
  /** Module-store key of the index entry of (key, value). */
  entryKey(key: K, value: V): Uint8Array;
  /** The entry's value, given the terminal encoding of the primary key. */
  entryValue(pk: Uint8Array): Uint8Array;
  /** A readable form of an entry key (for errors). */
  describe(entryKey: Uint8Array): string;
}

function notImportable(name: string): never {
  throw new CollectionError(name, 'import', 'a secondary index is not imported: it is rebuilt by its indexed map');
}

/** Many primary keys per reference (e.g. delegations by validator). */
export class MultiIndex<R, K, V> implements IndexMaintainer<K, V> {
  readonly kind = 'multiIndex' as const;
  readonly isIndex = true;
  readonly unique = false;
  readonly storeKey: string;
  readonly name: string;
  readonly prefix: Uint8Array;
  private readonly end: Uint8Array | undefined;
  private readonly plen: number;
  private readonly entryCodec: KeyCodec<[R, K], [R]>;

  constructor(
    config: CollectionConfig,
    readonly refCodec: KeyCodec<R, unknown>,
    private readonly map: CollectionMap<K, V, unknown>,
    private readonly refOf: (value: V, key: K) => R,
  ) {
    this.storeKey = config.storeKey;
    this.name = config.name;
    this.prefix = config.prefix;
    this.plen = config.prefix.length;
    this.end = prefixEnd(config.prefix);
    this.entryCodec = pairKey(refCodec, map.keyCodec);
  }

  /** Primary keys referenced by `ref`, in primary-key order (or reversed). */
  match(ctx: StoreAccessor, ref: R, reverse = false): CollectionIterator<K> {
    const start = this.refPrefix(ref);
    const off = start.length;
    const it = ctx.kv(this.storeKey).iterator(start, prefixEnd(start), reverse);
    return new CollectionIterator(it, (k) => this.decodePrimary(k, off));
  }

  /** Primary keys referenced by `ref` with their values (one read of the map per entry). */
  matchEntries(ctx: StoreAccessor, ref: R, reverse = false): CollectionIterator<Entry<K, V>> {
    const store = ctx.kv(this.storeKey);
    const start = this.refPrefix(ref);
    const off = start.length;
    const it = store.iterator(start, prefixEnd(start), reverse);
    return new CollectionIterator(it, (k) => {
      const pk = concat(this.map.prefix, k.subarray(off));
      const raw = store.get(pk);
      if (raw === undefined) {
        throw new CollectionError(this.name, 'conflict', `index entry 0x${hex(k)} points to a missing ${this.map.describe(pk)} of "${this.map.name}"`);
      }
      return { key: this.decodePrimary(k, off), value: this.map.decodeValue(raw, pk) };
    });
  }

  /** Whether `key` is indexed under `ref`. */
  has(ctx: StoreAccessor, ref: R, key: K): boolean {
    return ctx.kv(this.storeKey).has(this.encode(ref, key));
  }

  /** Every (reference, primary key) in reference order then primary-key order; bounds are references. */
  iterate(ctx: StoreAccessor, range?: Range<R>): CollectionIterator<IndexEntry<R, K>> {
    const store = ctx.kv(this.storeKey);
    let it: Iterator<[Uint8Array, Uint8Array]> | undefined;
    if (range === undefined) {
      it = store.iterator(this.prefix, this.end);
    } else {
      let bounds: ReturnType<typeof storeBounds>;
      try {
        bounds = storeBounds(this.prefix, this.end, this.entryCodec, {
          start: range.start === undefined ? undefined : [range.start],
          startExclusive: range.startExclusive,
          end: range.end === undefined ? undefined : [range.end],
          endInclusive: range.endInclusive,
        });
      } catch (e) {
        encodingFailure(this.name, 'encoding the range', e);
      }
      it = bounds === null ? undefined : store.iterator(bounds.start, bounds.end, range.reverse === true);
    }
    return new CollectionIterator(it, (k) => {
      try {
        const [ref, key] = this.entryCodec.read(k, this.plen, k.length);
        return { ref, key };
      } catch (e) {
        encodingFailure(this.name, `decoding the index entry 0x${hex(k)}`, e);
      }
    });
  }

  /** Entries `[ref, primaryKey]` (for inspection; schema exports skip indexes). */
  exportEntries(ctx: StoreAccessor): ExportEntry[] {
    const out: ExportEntry[] = [];
    for (const e of this.iterate(ctx)) out.push([e.ref, e.key]);
    return out;
  }

  importEntries(): void {
    notImportable(this.name);
  }

  entryKey(key: K, value: V): Uint8Array {
    return this.encode(this.refOf(value, key), key);
  }

  entryValue(): Uint8Array {
    return EMPTY;
  }

  describe(entryKey: Uint8Array): string {
    try {
      return `entry ${this.entryCodec.stringify(this.entryCodec.read(entryKey, this.plen, entryKey.length))}`;
    } catch {
      return `entry 0x${hex(entryKey.subarray(this.plen))}`;
    }
  }

  private encode(ref: R, key: K): Uint8Array {
    try {
      const rc = this.refCodec;
      const kc = this.map.keyCodec;
      const out = new Uint8Array(this.plen + rc.sizeNonTerminal(ref) + kc.size(key));
      out.set(this.prefix, 0);
      kc.write(out, rc.writeNonTerminal(out, this.plen, ref), key);
      return out;
    } catch (e) {
      encodingFailure(this.name, 'encoding an index entry', e);
    }
  }

  private refPrefix(ref: R): Uint8Array {
    try {
      const rc = this.refCodec;
      const out = new Uint8Array(this.plen + rc.sizeNonTerminal(ref));
      out.set(this.prefix, 0);
      rc.writeNonTerminal(out, this.plen, ref);
      return out;
    } catch (e) {
      encodingFailure(this.name, 'encoding a reference', e);
    }
  }

  private decodePrimary(k: Uint8Array, off: number): K {
    try {
      return this.map.keyCodec.read(k, off, k.length);
    } catch (e) {
      encodingFailure(this.name, `decoding the primary key in index entry 0x${hex(k)}`, e);
    }
  }
}

/** One primary key per reference (e.g. validators by consensus address); a second one is refused. */
export class UniqueIndex<R, K, V, RP = never> implements IndexMaintainer<K, V> {
  readonly kind = 'uniqueIndex' as const;
  readonly isIndex = true;
  readonly unique = true;
  readonly storeKey: string;
  readonly name: string;
  readonly prefix: Uint8Array;
  /** reference -> primary key */
  private readonly refs: CollectionMap<R, K, RP>;

  constructor(
    config: CollectionConfig,
    readonly refCodec: KeyCodec<R, RP>,
    private readonly map: CollectionMap<K, V, unknown>,
    private readonly refOf: (value: V, key: K) => R,
  ) {
    this.storeKey = config.storeKey;
    this.name = config.name;
    this.prefix = config.prefix;
    this.refs = new CollectionMap(config, refCodec, keyAsValue(map.keyCodec), 'uniqueIndex');
  }

  /** The primary key referenced by `ref`, or undefined. */
  get(ctx: StoreAccessor, ref: R): K | undefined {
    return this.refs.get(ctx, ref);
  }

  /** The value of the primary key referenced by `ref`, or undefined. */
  getValue(ctx: StoreAccessor, ref: R): V | undefined {
    const store = ctx.kv(this.storeKey);
    const at = this.refs.encodeKey(ref);
    const pkRaw = store.get(at);
    if (pkRaw === undefined) return undefined;
    return this.primaryValue(store, at, pkRaw);
  }

  has(ctx: StoreAccessor, ref: R): boolean {
    return this.refs.has(ctx, ref);
  }

  /** (reference, primary key) pairs in reference order (or reversed); prefix ranges need a composite reference. */
  iterate(ctx: StoreAccessor, range?: Range<R, RP>): CollectionIterator<IndexEntry<R, K>> {
    const it = this.refs.rawIterator(ctx.kv(this.storeKey), range);
    return new CollectionIterator(it, (k, v) => ({ ref: this.refs.decodeKey(k), key: this.refs.decodeValue(v, k) }));
  }

  /** Entries `[ref, primaryKey]` (for inspection; schema exports skip indexes). */
  exportEntries(ctx: StoreAccessor): ExportEntry[] {
    return this.refs.exportEntries(ctx);
  }

  importEntries(): void {
    notImportable(this.name);
  }

  entryKey(key: K, value: V): Uint8Array {
    return this.refs.encodeKey(this.refOf(value, key));
  }

  entryValue(pk: Uint8Array): Uint8Array {
    return pk;
  }

  describe(entryKey: Uint8Array): string {
    return this.refs.describe(entryKey).replace(/^key /, 'reference ');
  }

  private primaryValue(store: KVStore, at: Uint8Array, pkRaw: Uint8Array): V {
    const pk = concat(this.map.prefix, pkRaw);
    const raw = store.get(pk);
    if (raw === undefined) {
      throw new CollectionError(this.name, 'conflict', `${this.describe(at)} points to a missing ${this.map.describe(pk)} of "${this.map.name}"`);
    }
    return this.map.decodeValue(raw, pk);
  }
}
