/**
 * IndexedMap<K, V>: a Map whose secondary indexes (multi and unique) are kept in sync on every set,
 * remove and clear (cosmossdk.io/collections IndexedMap). Indexes are declared on the map, each with its
 * own prefix and name in the schema.
 */
import type { CollectionConfig, CollectionRegistrar, PrefixLike, StoreAccessor } from './collection.js';
import type { KeyCodec } from './key-codec.js';
import type { ValueCodec } from './values.js';
import type { Range } from './range.js';
import type { IndexMaintainer } from './indexes.js';
import { CollectionMap } from './map.js';
import { MultiIndex, UniqueIndex } from './indexes.js';
import { CollectionError } from './errors.js';
import { bytesEqual } from '@chain/store';
import { concat } from './bytes.js';

export class IndexedMap<K, V, P = never> extends CollectionMap<K, V, P> {
  private readonly maintainers: IndexMaintainer<K, V>[] = [];

  constructor(
    config: CollectionConfig,
    keyCodec: KeyCodec<K, P>,
    valueCodec: ValueCodec<V>,
    private readonly registrar: CollectionRegistrar,
  ) {
    super(config, keyCodec, valueCodec, 'indexedMap');
  }

  /** The indexes declared on this map, in declaration order. */
  get indexes(): readonly (MultiIndex<unknown, K, V> | UniqueIndex<unknown, K, V, unknown>)[] {
    return this.maintainers as unknown as (MultiIndex<unknown, K, V> | UniqueIndex<unknown, K, V, unknown>)[];
  }

  /**
   * Declare an index with many primary keys per reference: `refOf(value, key)` is the reference of an
   * entry. Declare indexes before writing (existing entries are not indexed retroactively).
   */
  multiIndex<R>(
    prefix: PrefixLike,
    name: string,
    refCodec: KeyCodec<R, unknown>,
    refOf: (value: V, key: K) => R,
  ): MultiIndex<R, K, V> {
    const index = new MultiIndex<R, K, V>(this.registrar.config(prefix, name), refCodec, this.asBase(), refOf);
    this.maintainers.push(this.registrar.add(index));
    return index;
  }

  /** Declare an index with at most one primary key per reference; `set` refuses a second one. */
  uniqueIndex<R, RP = never>(
    prefix: PrefixLike,
    name: string,
    refCodec: KeyCodec<R, RP>,
    refOf: (value: V, key: K) => R,
  ): UniqueIndex<R, K, V, RP> {
    const index = new UniqueIndex<R, K, V, RP>(this.registrar.config(prefix, name), refCodec, this.asBase(), refOf);
    this.maintainers.push(this.registrar.add(index));
    return index;
  }

  /**
   * Write `value` at `key` and its index entries; when `key` had a value whose references differ, its old
   * index entries are removed. A unique index whose reference already belongs to another primary key
   * makes the whole call throw before anything is written.
   */
  override set(ctx: StoreAccessor, key: K, value: V): void {
    const ms = this.maintainers;
    const n = ms.length;
    if (n === 0) return super.set(ctx, key, value);
    const pk = this.encodeKey(key);
    const encoded = this.encodeValue(value, pk);
    const store = ctx.kv(this.storeKey);
    const oldRaw = store.get(pk);
    const old = oldRaw === undefined ? undefined : this.decodeValue(oldRaw, pk);
    const pkBytes = pk.slice(this.prefix.length);

    const newKeys = new Array<Uint8Array>(n);
    const oldKeys = old === undefined ? undefined : new Array<Uint8Array>(n);
    for (let i = 0; i < n; i++) {
      const m = ms[i]!;
      newKeys[i] = m.entryKey(key, value);
      if (oldKeys !== undefined) oldKeys[i] = m.entryKey(key, old as V);
      if (m.unique) {
        const owner = store.get(newKeys[i]!);
        if (owner !== undefined && !bytesEqual(owner, pkBytes)) {
          throw new CollectionError(
            this.name,
            'conflict',
            `unique index "${m.name}": ${m.describe(newKeys[i]!)} already belongs to ${this.describe(
              concat(this.prefix, owner),
            )}; refusing it for ${this.describe(pk)}`,
          );
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const m = ms[i]!;
      const nk = newKeys[i]!;
      if (oldKeys !== undefined) {
        const ok = oldKeys[i]!;
        if (bytesEqual(ok, nk)) continue; // same reference: the entry is already right
        store.delete(ok);
      }
      store.set(nk, m.entryValue(pkBytes));
    }
    store.set(pk, encoded);
  }

  /** Delete `key` and its index entries (no-op when absent). */
  override remove(ctx: StoreAccessor, key: K): void {
    if (this.maintainers.length === 0) return super.remove(ctx, key);
    const pk = this.encodeKey(key);
    const store = ctx.kv(this.storeKey);
    const raw = store.get(pk);
    if (raw === undefined) return;
    const old = this.decodeValue(raw, pk);
    for (const m of this.maintainers) store.delete(m.entryKey(key, old));
    store.delete(pk);
  }

  /** Delete every entry (in `range`) and its index entries. */
  override clear(ctx: StoreAccessor, range?: Range<K, P>): void {
    if (this.maintainers.length === 0) return super.clear(ctx, range);
    const store = ctx.kv(this.storeKey);
    const it = this.rawIterator(store, range);
    if (it === undefined) return;
    for (let r = it.next(); !r.done; r = it.next()) {
      const [k, v] = r.value;
      const key = this.decodeKey(k);
      const old = this.decodeValue(v, k);
      for (const m of this.maintainers) store.delete(m.entryKey(key, old));
      store.delete(k);
    }
  }

  private asBase(): CollectionMap<K, V, unknown> {
    return this as unknown as CollectionMap<K, V, unknown>;
  }
}
