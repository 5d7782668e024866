/** KeySet<K>: a set of keys under one prefix, stored with empty values (cosmossdk.io/collections KeySet). */
import type { Collection, CollectionConfig, ExportEntry, StoreAccessor } from './collection.js';
import type { KeyCodec } from './key-codec.js';
import type { ValueCodec } from './values.js';
import type { Range } from './range.js';
import type { CollectionIterator } from './iter.js';
import { CollectionMap } from './map.js';
import { EncodingError } from './errors.js';
import { EMPTY, hex } from './bytes.js';

/** The SDK's NoValue: an empty byte string, decoded as null. */
const noValue: ValueCodec<null> = {
  valueType: 'no_value',
  encode: () => EMPTY,
  decode(bytes) {
    if (bytes.length !== 0) throw new EncodingError(`no_value: want 0 bytes, got 0x${hex(bytes)}`);
    return null;
  },
  stringify: () => 'null',
};

export class KeySet<K, P = never> implements Collection {
  readonly kind = 'keySet' as const;
  readonly isIndex = false;
  readonly storeKey: string;
  readonly name: string;
  readonly prefix: Uint8Array;
  private readonly map: CollectionMap<K, null, P>;

  constructor(config: CollectionConfig, readonly keyCodec: KeyCodec<K, P>) {
    this.storeKey = config.storeKey;
    this.name = config.name;
    this.prefix = config.prefix;
    this.map = new CollectionMap(config, keyCodec, noValue, 'keySet');
  }

  has(ctx: StoreAccessor, key: K): boolean {
    return this.map.has(ctx, key);
  }
  set(ctx: StoreAccessor, key: K): void {
    this.map.set(ctx, key, null);
  }
  remove(ctx: StoreAccessor, key: K): void {
    this.map.remove(ctx, key);
  }
  /** @internal The module-store key of `key` (prefix || encoding), as `set` writes it. */
  encodeKey(key: K): Uint8Array {
    return this.map.encodeKey(key);
  }
  /** @internal The value `set` writes (empty). */
  encodeValue(): Uint8Array {
    return EMPTY;
  }
  /** Keys in order (or reversed). */
  iterate(ctx: StoreAccessor, range?: Range<K, P>): CollectionIterator<K> {
    return this.map.keys(ctx, range);
  }
  clear(ctx: StoreAccessor, range?: Range<K, P>): void {
    this.map.clear(ctx, range);
  }
  /** Entries are `[key, null]`. */
  exportEntries(ctx: StoreAccessor): ExportEntry[] {
    return this.map.exportEntries(ctx);
  }
  importEntries(ctx: StoreAccessor, entries: readonly (readonly unknown[])[]): void {
    this.map.importEntries(
      ctx,
      entries.map((e) => [e[0], null]),
    );
  }
}
