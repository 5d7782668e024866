/**
 * Test helpers: a TxIndexer over a real CommitStore in a temp dir, fed block by block through
 * indexOps + store.commit (the way the engine writes the index in the block's batch), with an
 * in-memory events loader standing in for the block store.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore } from '@chain/store';
import type { BatchOp, Bytes } from '@chain/store';
import { parseQuery, Query } from '@chain/events';
import type { Condition, Event } from '@chain/events';
import { kvValueMatcher } from '../src/conditions.js';
import { TxIndexer, txEventMap } from '../src/index.js';
import type { IndexedTx, RawDB, TxSearchOptions, TxSearchResult } from '../src/index.js';

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const sha256 = (s: string): Uint8Array => new Uint8Array(createHash('sha256').update(s).digest());

/** Deterministic 32-byte hash of the tx at (height, index). */
export const txHashAt = (height: number, index: number): Uint8Array => sha256(`tx-${height}-${index}`);

/** An event from `[key, value]` pairs (indexed) or `[key, value, false]` (not indexed). */
export function ev(type: string, ...attrs: [string, string, boolean?][]): Event {
  return { type, attributes: attrs.map(([key, value, index]) => (index === false ? { key, value, index: false } : { key, value, index: true })) };
}

export function tempDir(tag: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chain-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A TxIndexer on a CommitStore; `block()` indexes one block of txs and commits the ops. */
export class IndexFixture {
  /** (height, index) → events, what the block store would give the events loader */
  readonly events = new Map<string, { hash: Uint8Array; events: Event[] }>();
  readonly loads: [number, number][] = [];
  indexer: TxIndexer;

  private constructor(public store: CommitStore, private readonly tmp: { dir: string; remove: () => void }) {
    this.indexer = this.makeIndexer(store);
  }

  static async create(): Promise<IndexFixture> {
    const tmp = tempDir('indexer');
    return new IndexFixture(await CommitStore.open(tmp.dir), tmp);
  }

  /** A TxIndexer over `db` (e.g. a wrapper of `store`) with this fixture's events loader. */
  makeIndexer(db: RawDB): TxIndexer {
    return new TxIndexer(db, async (height, index) => {
      this.loads.push([height, index]);
      const e = this.events.get(`${height}/${index}`);
      return e?.events;
    });
  }

  /** Indexes the txs (events per tx) of the next block and commits them. Returns the ops. */
  async block(txs: Event[][], indexer: TxIndexer = this.indexer, blockEvents?: Event[]): Promise<BatchOp[]> {
    const height = this.store.lastHeight + 1;
    const indexed: IndexedTx[] = txs.map((events, index) => ({ hash: txHashAt(height, index), height, index, events }));
    const ops = indexer.indexOps(indexed);
    if (blockEvents) ops.push(...indexer.blockIndexOps(height, blockEvents));
    await this.store.commit(height, [], ops);
    for (const t of indexed) this.events.set(`${height}/${t.index}`, { hash: t.hash, events: [...t.events] });
    return ops;
  }

  /** Closes and reopens the store (a node restart) with a fresh indexer on it. */
  async reopen(): Promise<void> {
    await this.store.close();
    this.store = await CommitStore.open(this.tmp.dir);
    this.indexer = this.makeIndexer(this.store);
  }

  async search(q: string, opts: Partial<TxSearchOptions> = {}): Promise<TxSearchResult> {
    return this.indexer.search(parseQuery(q), { page: 1, perPage: 100, orderDesc: false, ...opts });
  }

  /** `[height, index]` pairs of a search (all pages). */
  async refs(q: string, opts: Partial<TxSearchOptions> = {}): Promise<[number, number][]> {
    const r = await this.search(q, opts);
    return r.txs.map((t) => [t.height, t.index]);
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    this.tmp.remove();
  }
}

/** An in-memory RawDB over a sorted map (bytewise order), for unit tests that need no LevelDB. */
export class MemRawDB implements RawDB {
  private readonly m = new Map<string, Bytes>();
  private sorted: string[] | undefined;
  private static key(b: Bytes): string { return Buffer.from(b).toString('latin1'); }
  apply(ops: readonly BatchOp[]): void {
    for (const op of ops) {
      if (op.type === 'put') this.m.set(MemRawDB.key(op.key), op.value);
      else this.m.delete(MemRawDB.key(op.key));
    }
    this.sorted = undefined;
  }
  async getRaw(key: Bytes): Promise<Bytes | undefined> {
    return this.m.get(MemRawDB.key(key));
  }
  getRawSync(key: Bytes): Bytes | undefined {
    return this.m.get(MemRawDB.key(key));
  }
  async iterateRaw(gte: Bytes, lt: Bytes, opts: { reverse?: boolean; limit?: number } = {}): Promise<[Bytes, Bytes][]> {
    const keys = (this.sorted ??= [...this.m.keys()].sort());
    const lowerIndex = (k: string): number => {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) { const mid = (lo + hi) >>> 1; if (keys[mid]! < k) lo = mid + 1; else hi = mid; }
      return lo;
    };
    const a = lowerIndex(MemRawDB.key(gte));
    const b = lowerIndex(MemRawDB.key(lt));
    const limit = opts.limit ?? Infinity;
    const out: [Bytes, Bytes][] = [];
    const row = (i: number): [Bytes, Bytes] => [new Uint8Array(Buffer.from(keys[i]!, 'latin1')), this.m.get(keys[i]!)!];
    if (opts.reverse) for (let i = b - 1; i >= a && out.length < limit; i--) out.push(row(i));
    else for (let i = a; i < b && out.length < limit; i++) out.push(row(i));
    return out;
  }
}

/** The same database without `getRawSync`: an indexer on it writes the index without counters. */
export function withoutSync(db: RawDB): RawDB {
  return { getRaw: (k) => db.getRaw(k), iterateRaw: (gte, lt, opts) => db.iterateRaw(gte, lt, opts) };
}

/** A RawDB wrapper counting reads: rows returned by iterateRaw, iterateRaw calls and point reads. */
export class CountingDB implements RawDB {
  rows = 0;
  iterations = 0;
  gets = 0;
  constructor(private readonly db: RawDB) {}
  reset(): void { this.rows = 0; this.iterations = 0; this.gets = 0; }
  async getRaw(key: Bytes): Promise<Bytes | undefined> { this.gets++; return this.db.getRaw(key); }
  getRawSync(key: Bytes): Bytes | undefined { return this.db.getRawSync!(key); }
  async iterateRaw(gte: Bytes, lt: Bytes, opts?: { reverse?: boolean; limit?: number }): Promise<[Bytes, Bytes][]> {
    this.iterations++;
    const r = await this.db.iterateRaw(gte, lt, opts);
    this.rows += r.length;
    return r;
  }
}

/**
 * Whether a tx or block matches `query` as CometBFT v0.38's kv indexer decides, by brute force over its events
 * (the reference of the index tests): no tm.event key; the reserved keys (tx.height / block.height) by
 * `Query.matches`; event conditions on indexed attributes with kvValueMatcher's value rules, all in ONE event
 * when `sameEvent` (the tx index), each in any event otherwise (the block index keeps no event sequence).
 */
export function kvReferenceMatches(query: Query, events: readonly Event[], reserved: Record<string, string[]>, sameEvent: boolean): boolean {
  const eventConds: Condition[] = [];
  for (const c of query.conditions) {
    if (c.tag === 'tm.event') return false;
    if (c.tag in reserved) {
      if (!Query.fromConditions([c]).matches(reserved)) return false;
    } else {
      eventConds.push(c);
    }
  }
  if (eventConds.length === 0) return true;
  const holdsIn = (es: readonly Event[], c: Condition): boolean => {
    const m = kvValueMatcher(c);
    return es.some((e) => !!e.type && e.attributes.some((a) => !!a.key && a.index !== false && `${e.type}.${a.key}` === c.tag && m(a.value)));
  };
  if (!sameEvent) return eventConds.every((c) => holdsIn(events, c));
  return events.some((e) => eventConds.every((c) => holdsIn([e], c)));
}
