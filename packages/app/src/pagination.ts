/** Cosmos pagination over a (prefixed) store: offset or key based, count_total, reverse, max 100. */
import { statusError, GrpcCode } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { Bytes, KVStore } from '@chain/store';

export interface PageRequest {
  key?: Uint8Array | null;
  offset?: bigint | number;
  limit?: bigint | number;
  count_total?: boolean;
  reverse?: boolean;
}

export interface PageResponse {
  next_key: Uint8Array | null;
  total: bigint;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 100;

/** Normalizes a page request; errors are InvalidArgument (HTTP 400) with a readable message. */
export function pageParams(req: PageRequest | null | undefined): { key?: Uint8Array; offset: number; limit: number; countTotal: boolean; reverse: boolean } {
  const key = req?.key && req.key.length > 0 ? req.key : undefined;
  const offset = Number(req?.offset ?? 0);
  let limit = Number(req?.limit ?? 0);
  let countTotal = req?.count_total ?? false;
  if (key && offset > 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'paginate: invalid request, either offset or key is expected, got both');
  if (limit > MAX_PAGE_LIMIT) throw statusError(GrpcCode.INVALID_ARGUMENT, `pagination.limit must be at most ${MAX_PAGE_LIMIT}, got ${limit}`);
  if (limit === 0) {
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  return { key, offset, limit, countTotal, reverse: req?.reverse ?? false };
}

function increment(key: Bytes): Bytes {
  const out = new Uint8Array(key.length + 1);
  out.set(key);
  return out;
}

/**
 * Pages through `store` (keys relative to the queried prefix). `map` turns an entry into an item or
 * undefined to skip it (skipped entries are not counted).
 */
export function paginate<T>(store: KVStore, req: PageRequest | null | undefined, map: (key: Bytes, value: Bytes) => T | undefined): { items: T[]; pagination: PageResponse } {
  const p = pageParams(req);
  const items: T[] = [];
  let nextKey: Uint8Array | null = null;
  let count = 0;
  let total = 0n;
  const it = p.key
    ? (p.reverse ? store.iterator(undefined, increment(p.key), true) : store.iterator(p.key, undefined, false))
    : store.iterator(undefined, undefined, p.reverse);
  for (const [k, v] of it) {
    const item = map(k, v);
    if (item === undefined) continue;
    if (p.key) {
      if (items.length === p.limit) { nextKey = k.slice(); break; }
      items.push(item);
      continue;
    }
    if (count >= p.offset && items.length < p.limit) items.push(item);
    else if (count >= p.offset + p.limit && nextKey === null) {
      nextKey = k.slice();
      if (!p.countTotal) break;
    }
    count++;
  }
  if (!p.key && p.countTotal) total = BigInt(count);
  return { items, pagination: { next_key: nextKey, total } };
}

/**
 * The parts of a `@chain/collections` Map / KeySet / index that `paginateCollection` reads (declared here by
 * shape, so that this package needs no collections import).
 */
export interface PageableCollection<K, P, V> {
  readonly storeKey: string;
  readonly prefix: Uint8Array;
  readonly keyCodec: {
    read(buf: Uint8Array, start: number, end: number): K;
    /** the codec of a partial key (a pair's first part, ...), whose encoding prefixes every key under it */
    readonly prefix?: { size(p: P): number; write(buf: Uint8Array, pos: number, p: P): number };
  };
  /** absent for key sets: `map` then gets `null` as the value */
  readonly valueCodec?: { decode(raw: Uint8Array): V };
}

/**
 * Pages through a collection (or the part of it under the partial key `under`) with the request's
 * pagination: `map` turns a decoded (key, value) into an item, or undefined to skip it.
 */
export function paginateCollection<K, P, V, T>(
  ctx: { kv(storeKey: string): KVStore },
  coll: PageableCollection<K, P, V>,
  under: P | undefined,
  req: PageRequest | null | undefined,
  map: (key: K, value: V) => T | undefined,
): { items: T[]; pagination: PageResponse } {
  const { prefix, keyCodec, valueCodec } = coll;
  let base = prefix;
  if (under !== undefined) {
    const pc = keyCodec.prefix;
    if (!pc) throw new Error(`paginateCollection: the collection under ${coll.storeKey} has no partial keys`);
    base = new Uint8Array(prefix.length + pc.size(under));
    base.set(prefix, 0);
    pc.write(base, prefix.length, under);
  }
  return paginate(prefixStore(ctx.kv(coll.storeKey), base), req, (rel, raw) => {
    const full = new Uint8Array(base.length + rel.length);
    full.set(base, 0);
    full.set(rel, base.length);
    return map(keyCodec.read(full, prefix.length, full.length), valueCodec ? valueCodec.decode(raw) : (null as V));
  });
}
