/** Item<V>: a single value stored at the collection's prefix itself (cosmossdk.io/collections Item). */
import type { Collection, CollectionConfig, CollectionKind, ExportEntry, StoreAccessor } from './collection.js';
import type { ValueCodec } from './values.js';
import { CollectionError, encodingFailure } from './errors.js';

export class Item<V> implements Collection {
  readonly kind: CollectionKind;
  readonly isIndex = false;
  readonly storeKey: string;
  readonly name: string;
  readonly prefix: Uint8Array;

  constructor(
    config: CollectionConfig,
    readonly valueCodec: ValueCodec<V>,
    kind: CollectionKind = 'item',
  ) {
    this.kind = kind;
    this.storeKey = config.storeKey;
    this.name = config.name;
    this.prefix = config.prefix;
  }

  /** The value, or undefined when unset. */
  get(ctx: StoreAccessor): V | undefined {
    const raw = ctx.kv(this.storeKey).get(this.prefix);
    if (raw === undefined) return undefined;
    try {
      return this.valueCodec.decode(raw);
    } catch (e) {
      encodingFailure(this.name, 'decoding the value', e);
    }
  }

  /** The value, or `fallback` when unset. */
  getOr(ctx: StoreAccessor, fallback: V): V {
    const v = this.get(ctx);
    return v === undefined ? fallback : v;
  }

  has(ctx: StoreAccessor): boolean {
    return ctx.kv(this.storeKey).has(this.prefix);
  }

  set(ctx: StoreAccessor, value: V): void {
    let raw: Uint8Array;
    try {
      raw = this.valueCodec.encode(value);
    } catch (e) {
      encodingFailure(this.name, 'encoding the value', e);
    }
    ctx.kv(this.storeKey).set(this.prefix, raw);
  }

  remove(ctx: StoreAccessor): void {
    ctx.kv(this.storeKey).delete(this.prefix);
  }

  /** `[]` when unset, else `[[null, value]]`. */
  exportEntries(ctx: StoreAccessor): ExportEntry[] {
    const v = this.get(ctx);
    return v === undefined ? [] : [[null, v]];
  }

  importEntries(ctx: StoreAccessor, entries: readonly (readonly unknown[])[]): void {
    if (entries.length > 1) {
      throw new CollectionError(this.name, 'import', `a ${this.kind} has at most one entry, got ${entries.length}`);
    }
    const e = entries[0];
    if (e === undefined) return;
    if (!Array.isArray(e) || e.length !== 2) {
      throw new CollectionError(this.name, 'import', 'the entry must be a [null, value] pair');
    }
    this.set(ctx, e[1] as V);
  }
}
