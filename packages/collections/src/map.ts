/** Map<K, V>: typed entries under one prefix of a module store (cosmossdk.io/collections Map). */
import type { KVStore } from '@chain/store';
import type { Collection, CollectionConfig, CollectionKind, ExportEntry, StoreAccessor } from './collection.js';
import type { KeyCodec } from './key-codec.js';
import type { ValueCodec } from './values.js';
import type { Entry, Range } from './range.js';
import { fullKey, storeBounds } from './range.js';
import { CollectionIterator } from './iter.js';
import { CollectionError, encodingFailure } from './errors.js';
import { hex } from './bytes.js';
import { prefixEnd } from '@chain/store';

export class CollectionMap<K, V, P = never> implements Collection {
  readonly kind: CollectionKind;
  readonly isIndex: boolean = false;
  readonly storeKey: string;
  readonly name: string;
  readonly prefix: Uint8Array;
  /** first store key after the collection (undefined: to the end of the module store) */
  protected readonly end: Uint8Array | undefined;
  private readonly plen: number;

  constructor(
    config: CollectionConfig,
    readonly keyCodec: KeyCodec<K, P>,
    readonly valueCodec: ValueCodec<V>,
    kind: CollectionKind = 'map',
  ) {
    this.kind = kind;
    this.storeKey = config.storeKey;
    this.name = config.name;
    this.prefix = config.prefix;
    this.plen = config.prefix.length;
    this.end = prefixEnd(config.prefix);
  }

  /** The value at `key`, or undefined. */
  get(ctx: StoreAccessor, key: K): V | undefined {
    const k = this.encodeKey(key);
    const raw = ctx.kv(this.storeKey).get(k);
    return raw === undefined ? undefined : this.decodeValue(raw, k);
  }

  has(ctx: StoreAccessor, key: K): boolean {
    return ctx.kv(this.storeKey).has(this.encodeKey(key));
  }

  set(ctx: StoreAccessor, key: K, value: V): void {
    const k = this.encodeKey(key);
    const v = this.encodeValue(value, k);
    ctx.kv(this.storeKey).set(k, v);
  }

  /** Delete `key` (no-op when absent). */
  remove(ctx: StoreAccessor, key: K): void {
    ctx.kv(this.storeKey).delete(this.encodeKey(key));
  }

  /** Entries in key order (or reversed), decoded one at a time as the iterator advances. */
  iterate(ctx: StoreAccessor, range?: Range<K, P>): CollectionIterator<Entry<K, V>> {
    return new CollectionIterator(this.rawIterator(ctx.kv(this.storeKey), range), (k, v) => ({
      key: this.decodeKey(k),
      value: this.decodeValue(v, k),
    }));
  }

  /** Keys only (values are not decoded). */
  keys(ctx: StoreAccessor, range?: Range<K, P>): CollectionIterator<K> {
    return new CollectionIterator(this.rawIterator(ctx.kv(this.storeKey), range), (k) => this.decodeKey(k));
  }

  /** Values only (keys are not decoded). */
  values(ctx: StoreAccessor, range?: Range<K, P>): CollectionIterator<V> {
    return new CollectionIterator(this.rawIterator(ctx.kv(this.storeKey), range), (k, v) => this.decodeValue(v, k));
  }

  /** Delete every entry (in `range`). */
  clear(ctx: StoreAccessor, range?: Range<K, P>): void {
    const store = ctx.kv(this.storeKey);
    const it = this.rawIterator(store, range);
    if (it === undefined) return;
    // store iterators work on a snapshot (KVStore contract): deleting while iterating is safe
    for (let r = it.next(); !r.done; r = it.next()) store.delete(r.value[0]);
  }

  exportEntries(ctx: StoreAccessor): ExportEntry[] {
    const out: ExportEntry[] = [];
    for (const e of this.iterate(ctx)) out.push([e.key, e.value]);
    return out;
  }

  importEntries(ctx: StoreAccessor, entries: readonly (readonly unknown[])[]): void {
    for (const e of entries) {
      if (!Array.isArray(e) || e.length !== 2) {
        throw new CollectionError(this.name, 'import', 'each entry must be a [key, value] pair');
      }
      this.set(ctx, e[0] as K, e[1] as V);
    }
  }

  // ---- internals shared with indexed maps and indexes ----

  /** @internal Store iterator over `range` of this collection; undefined when the range is empty. */
  rawIterator(store: KVStore, range?: Range<K, P>): Iterator<[Uint8Array, Uint8Array]> | undefined {
    if (range === undefined) return store.iterator(this.prefix, this.end);
    let bounds: ReturnType<typeof storeBounds>;
    try {
      bounds = storeBounds(this.prefix, this.end, this.keyCodec, range);
    } catch (e) {
      encodingFailure(this.name, 'encoding the range', e);
    }
    if (bounds === null) return undefined;
    return store.iterator(bounds.start, bounds.end, range.reverse === true);
  }

  /** @internal The module-store key of `key`: prefix || terminal encoding. */
  encodeKey(key: K): Uint8Array {
    try {
      return fullKey(this.prefix, this.keyCodec, key);
    } catch (e) {
      encodingFailure(this.name, 'encoding a key', e);
    }
  }

  /** @internal */
  decodeKey(raw: Uint8Array): K {
    try {
      return this.keyCodec.read(raw, this.plen, raw.length);
    } catch (e) {
      encodingFailure(this.name, `decoding the key 0x${hex(raw)}`, e);
    }
  }

  /** @internal `at` is the module-store key (for the error message). */
  encodeValue(value: V, at: Uint8Array): Uint8Array {
    try {
      return this.valueCodec.encode(value);
    } catch (e) {
      encodingFailure(this.name, `encoding the value for ${this.describe(at)}`, e);
    }
  }

  /** @internal `at` is the module-store key (for the error message). */
  decodeValue(raw: Uint8Array, at: Uint8Array): V {
    try {
      return this.valueCodec.decode(raw);
    } catch (e) {
      encodingFailure(this.name, `decoding the value at ${this.describe(at)}`, e);
    }
  }

  /** @internal A readable form of a module-store key of this collection. */
  describe(at: Uint8Array): string {
    try {
      return `key ${this.keyCodec.stringify(this.keyCodec.read(at, this.plen, at.length))}`;
    } catch {
      return `key 0x${hex(at.subarray(this.plen))}`;
    }
  }
}
