/**
 * Transaction index over the node database: by hash, by height order, and by every indexed event
 * attribute (`<type>.<key>` = value), searched with the CometBFT query language. Index writes are
 * returned as batch operations so they commit atomically with the block that produced them.
 *
 * The index is ranked: every `(key, value)` stream entry stores its rank in the stream and a counter
 * per `(key, value)` holds the stream's size, so a one-stream query counts its matches and reaches any
 * page with a few seeks; several `=` conditions are answered by a leapfrog join of their streams. See
 * README.md for the key layout and the cost of each query shape.
 */
import type { BatchOp, Bytes } from '@chain/store';
import { flattenEvents, Query } from '@chain/events';
import type { Condition, Event } from '@chain/events';
import {
  CounterBatch, CounterCache, EMPTY, attrKey, attrPart, be64, cat, compareBytes, decodeMarker, encodeMarker, fromLatin1, invalidMarker, latin1, readBe32,
  readBe64, upperBound, writeBe64,
} from './keys.js';
import type { Marker } from './keys.js';
import { heightRange, kvValueMatcher } from './conditions.js';
import { Cursor, MAX_HEIGHT, RankError, collect, fromArray, intersect, rankedPage, scan, stream } from './streams.js';
import type { PosCodec, RawDB } from './streams.js';
import { BlockIndexer } from './block-indexer.js';
import type { BlockSearchOptions, BlockSearchResult } from './block-indexer.js';

export type { RawDB } from './streams.js';

export interface IndexedTx {
  readonly hash: Uint8Array;
  readonly height: number;
  readonly index: number;
  readonly events: readonly Event[];
}

export interface TxRef { readonly height: number; readonly index: number; readonly hash: Uint8Array }

export interface TxSearchOptions {
  /** 1-based page */
  readonly page: number;
  readonly perPage: number;
  readonly orderDesc: boolean;
}

export interface TxSearchResult { readonly total: number; readonly txs: TxRef[] }

export const TX_HASH_PREFIX = 0x20;
export const TX_EVENT_PREFIX = 0x21;
export const TX_ORDER_PREFIX = 0x22;
/** Counters, the ranked order stream and the rank marker of the tx index. */
export const TX_RANK_PREFIX = 0x23;

const MARKER_KEY = Uint8Array.of(TX_RANK_PREFIX, 0x00);
const RANKED_ORDER = Uint8Array.of(TX_RANK_PREFIX, 0x01);
const PAIR_COUNTER = Uint8Array.of(TX_RANK_PREFIX, 0x02);
const TAG_COUNTER = Uint8Array.of(TX_RANK_PREFIX, 0x03);
const pairCounterKey = (tag: string, value: string): Uint8Array => attrKey(PAIR_COUNTER, tag, value);
const tagCounterKey = (tag: string): Uint8Array => attrKey(TAG_COUNTER, tag, undefined);
const HASH_NS = Uint8Array.of(TX_HASH_PREFIX);
const EVENT_NS = Uint8Array.of(TX_EVENT_PREFIX);
const ORDER_NS = Uint8Array.of(TX_ORDER_PREFIX);
const POS_LEN = 12;

function pos(height: number, index: number): Uint8Array {
  const b = new Uint8Array(POS_LEN);
  writeBe64(b, 0, height);
  b[8] = index >>> 24; b[9] = (index >>> 16) & 0xff; b[10] = (index >>> 8) & 0xff; b[11] = index & 0xff;
  return b;
}

function readPos(b: Uint8Array, off: number): { height: number; index: number } {
  return { height: readBe64(b, off), index: readBe32(b, off + 8) };
}

const txCodec: PosCodec = { len: POS_LEN, start: (h) => pos(h, 0), at: pos, height: (p) => readBe64(p) };

/**
 * What the engine and the RPC use of a tx index: the {@link TxIndexer} itself (its writes go into the block's own
 * batch) or an {@link IndexWorker} (its own database, written on a worker thread after each commit).
 */
export interface TxIndex {
  /** Batch operations to commit in the block's atomic batch (none for an index with its own database). */
  blockOps(height: number, txs: readonly IndexedTx[], finalizeBlockEvents: readonly Event[]): BatchOp[];
  /**
   * The block's batch is durable: an index with its own database indexes the block now. `eventLists`, when given,
   * is the same events in @chain/events' binary event lists (`writeEventLists`: list 0 `finalizeBlockEvents`, list
   * i + 1 the events of the tx at index i; the block store's results record has them), which the index may read
   * instead of the objects; the buffer under it may be taken (transferred to another thread) when the view is all
   * of it.
   */
  committed(height: number, txs: readonly IndexedTx[], finalizeBlockEvents: readonly Event[], eventLists?: Uint8Array): void;
  /** The committed tx with this hash. Every lookup and search sees the blocks `committed` before it was called. */
  byHash(hash: Uint8Array): Promise<TxRef | undefined>;
  search(query: Query, opts: TxSearchOptions): Promise<TxSearchResult>;
  searchBlocks(query: Query, opts: BlockSearchOptions): Promise<BlockSearchResult>;
  /**
   * The last height indexed, once every block `committed` so far is (undefined: the index commits with the
   * blocks, so it is never behind). At start the engine indexes the stored blocks above it again.
   */
  indexedHeight(): Promise<number | undefined>;
  /** Drops the whole index (it was ahead of the block store); the engine then indexes the stored blocks again. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Loads the events (ExecTxResult.events) of an indexed tx. */
export type EventsLoader = (height: number, index: number) => Promise<readonly Event[] | undefined>;

/** What a query asks of the index, once reserved tags are resolved. */
interface TxPlan {
  empty: boolean;
  lo: number;
  hi: number;
  hash?: Uint8Array;
  /** `attrPart(tag, value)` of each `tag = 'string'` condition, deduplicated */
  eqs: Uint8Array[];
  /** event tags of the other event conditions: a match needs an indexed value of each */
  tags: string[];
  /** every condition on an event attribute (the `eqs` ones included): all must hold in ONE event */
  events: Condition[];
  /** conditions on tx.height the height range does not express, checked per candidate */
  residual: Condition[];
  /** the event conditions' value matchers, made once per search (verify runs per candidate) */
  matchers?: { tag: string; match: (value: string) => boolean }[];
  residualQuery?: Query;
}

export class TxIndexer implements TxIndex {
  private readonly blocks: BlockIndexer;
  private readonly counterCache = new CounterCache();
  /** marker.first (latin1) once checked against the oldest indexed tx */
  private rankedSince: string | undefined;

  constructor(private readonly db: RawDB, private readonly loadEvents: EventsLoader) {
    this.blocks = new BlockIndexer(db);
  }

  /** `indexOps` and `blockIndexOps` of one block. */
  blockOps(height: number, txs: readonly IndexedTx[], finalizeBlockEvents: readonly Event[]): BatchOp[] {
    const ops = this.indexOps(txs);
    for (const op of this.blockIndexOps(height, finalizeBlockEvents)) ops.push(op);
    return ops;
  }

  /** Nothing to do: the block's ops were in its batch. */
  committed(): void {}

  async indexedHeight(): Promise<undefined> {
    return undefined;
  }

  /** An index in the node database is never ahead of its blocks. */
  async reset(): Promise<void> {
    throw new Error('an index committed with the blocks cannot be reset');
  }

  async close(): Promise<void> {}

  /**
   * Batch operations that index the txs of one block (any order; they are indexed by (height, index)).
   * Reads the per-value counters through `getRawSync`, so the ops must be committed before the next
   * call (the engine commits each block's ops before building the next block).
   */
  indexOps(txs: readonly IndexedTx[]): BatchOp[] {
    const ops: BatchOp[] = [];
    if (txs.length === 0) return ops;
    const db = this.db;
    const read = db.getRawSync ? (k: Bytes): Bytes | undefined => db.getRawSync!(k) : undefined;
    let marker: Marker | undefined;
    let counters: CounterBatch | undefined;
    if (read) {
      const m = read(MARKER_KEY);
      marker = decodeMarker(m);
      // the cache holds the counters as of the marker the previous batch wrote: is that batch committed?
      if (this.counterCache.at === undefined || this.counterCache.at !== (m ? latin1(m) : '')) this.counterCache.clear();
      counters = new CounterBatch(read, this.counterCache);
    }
    const sorted = [...txs].sort((a, b) => a.height - b.height || a.index - b.index);
    for (const t of sorted) {
      const p = pos(t.height, t.index);
      ops.push({ type: 'put', key: cat(HASH_NS, t.hash), value: p });
      ops.push({ type: 'put', key: cat(ORDER_NS, p), value: t.hash });
      // one entry per distinct (key, value) and a tag count per distinct key, however many events carry it
      const values = new Map<string, Set<string>>();
      for (const e of t.events) {
        if (!e.type) continue;
        for (const a of e.attributes) {
          if (!a.key || a.index === false) continue;
          const tag = `${e.type}.${a.key}`;
          const vs = values.get(tag);
          if (vs) vs.add(a.value); else values.set(tag, new Set([a.value]));
        }
      }
      if (!counters) {
        for (const [tag, vs] of values) for (const v of vs) ops.push({ type: 'put', key: attrKey(EVENT_NS, tag, v, p), value: EMPTY });
        continue;
      }
      if (!marker) marker = { valid: true, total: 0, first: p, last: undefined };
      else if (marker.last && compareBytes(p, marker.last) <= 0) marker.valid = false; // ranks need increasing positions
      marker.last = p;
      ops.push({ type: 'put', key: cat(RANKED_ORDER, p), value: be64(marker.total++) });
      for (const [tag, vs] of values) {
        counters.nextTag(tag, tagCounterKey);
        for (const v of vs) ops.push({ type: 'put', key: attrKey(EVENT_NS, tag, v, p), value: be64(counters.nextPair(tag, v, pairCounterKey)) });
      }
    }
    if (counters) {
      const m = encodeMarker(marker!, POS_LEN);
      ops.push(...counters.ops(latin1(m)));
      ops.push({ type: 'put', key: MARKER_KEY, value: m });
    } else {
      ops.push({ type: 'put', key: MARKER_KEY, value: invalidMarker(POS_LEN) });
    }
    return ops;
  }

  /**
   * Batch operations that index one block for `searchBlocks`: its height and every indexed attribute
   * of its FinalizeBlock events. Commit them in the block's batch, like `indexOps`.
   */
  blockIndexOps(height: number, finalizeBlockEvents: readonly Event[]): BatchOp[] {
    return this.blocks.indexOps(height, finalizeBlockEvents);
  }

  /** Heights of the indexed blocks matching `query` (block_search), newest first unless orderDesc: false. */
  searchBlocks(query: Query, opts: BlockSearchOptions): Promise<BlockSearchResult> {
    return this.blocks.search(query, opts);
  }

  async byHash(hash: Uint8Array): Promise<TxRef | undefined> {
    const v = await this.get(cat(HASH_NS, hash));
    if (!v) return undefined;
    return { ...readPos(v, 0), hash };
  }

  /** Txs matching `query`, ordered by (height, index), one page of them plus the total count. */
  async search(query: Query, opts: TxSearchOptions): Promise<TxSearchResult> {
    const offset = Math.max(0, (opts.page - 1) * opts.perPage);
    const limit = Math.max(0, opts.perPage);
    const plan = planTx(query);
    if (plan.empty) return { total: 0, txs: [] };
    if (plan.hash) return this.searchHash(plan, offset, limit);
    let res: { total: number; page: Uint8Array[] };
    try {
      res = await this.run(plan, await this.rankedMarker(), offset, limit, opts.orderDesc);
    } catch (e) {
      if (!(e instanceof RankError)) throw e;
      res = await this.run(plan, undefined, offset, limit, opts.orderDesc);
    }
    const txs = await Promise.all(res.page.map(async (p) => {
      const hash = await this.get(cat(ORDER_NS, p));
      return { ...readPos(p, 0), hash: hash ?? new Uint8Array() };
    }));
    return { total: res.total, txs };
  }

  /** The marker when ranks and counters cover the whole index (written from the first tx on, in order). */
  private async rankedMarker(): Promise<Marker | undefined> {
    const m = decodeMarker(await this.get(MARKER_KEY));
    if (!m || !m.valid) return undefined;
    const id = latin1(m.first);
    if (this.rankedSince === id) return m;
    const [oldest] = await this.db.iterateRaw(ORDER_NS, Uint8Array.of(TX_ORDER_PREFIX + 1), { limit: 1 });
    if (oldest && compareBytes(oldest[0].subarray(1), m.first) < 0) return undefined; // txs indexed before counters existed
    this.rankedSince = id;
    return m;
  }

  private async count(key: Uint8Array): Promise<number> {
    const v = await this.get(key);
    return v && v.length === 8 ? readBe64(v) : 0;
  }

  /** A point read: synchronous when the database can (a few µs instead of a thread-pool round trip). */
  private get(key: Uint8Array): Bytes | undefined | Promise<Bytes | undefined> {
    return this.db.getRawSync ? this.db.getRawSync(key) : this.db.getRaw(key);
  }

  /** Counts and one page of a query without tx.hash; `marker` is set when the index is ranked. */
  private async run(plan: TxPlan, marker: Marker | undefined, offset: number, limit: number, desc: boolean): Promise<{ total: number; page: Uint8Array[] }> {
    const { lo, hi } = plan;
    const ranked = marker !== undefined;
    // stream sizes, to drive by the smallest (only known in a ranked index)
    let eqs = await Promise.all(plan.eqs.map(async (ap) => ({ ap, size: ranked ? await this.count(cat(PAIR_COUNTER, ap)) : 0 })));
    if (ranked && eqs.some((e) => e.size === 0)) return { total: 0, page: [] };
    // a stream holding every indexed tx constrains nothing
    if (ranked) eqs = eqs.filter((e) => e.size < marker.total);
    eqs.sort((a, b) => a.size - b.size);
    const tags = await Promise.all(plan.tags.map(async (tag) => ({ tag, size: ranked ? await this.count(cat(TAG_COUNTER, attrPart(tag))) : 0 })));
    tags.sort((a, b) => a.size - b.size);
    const driverTag = tags.length > 0 && (eqs.length === 0 || (ranked && tags[0]!.size < eqs[0]!.size)) ? tags[0]!.tag : undefined;
    // `tag EXISTS` is decided by the driver's own keys
    // one `tag = 'value'` condition is decided by its stream; anything else by the tx's events
    const needsVerify = plan.residual.length > 0 || plan.events.length > 1 || (plan.events.length === 1 && plan.eqs.length === 0 && !(plan.events[0]!.op === 'EXISTS' && plan.events[0]!.tag === driverTag));

    if (!driverTag && !needsVerify && eqs.length <= 1 && ranked) {
      const prefix = eqs.length === 1 ? cat(EVENT_NS, eqs[0]!.ap) : RANKED_ORDER;
      return rankedPage(this.db, stream(prefix, txCodec, lo, hi), txCodec, offset, limit, desc);
    }

    let source: AsyncIterable<Uint8Array>;
    // streams whose membership is checked per candidate by a point read
    let memberOf: Uint8Array[] = [];
    if (driverTag) {
      const all = await this.tagPositions(driverTag, lo, hi);
      source = fromArray(desc ? all.reverse() : all);
      memberOf = eqs.map((e) => cat(EVENT_NS, e.ap));
    } else if (eqs.length > 0 && (eqs.length === 1 || (ranked && this.db.getRawSync))) {
      // walk the smallest stream, probe the others (a sync point read costs about one iterated key)
      source = scan(await new Cursor(this.db, stream(cat(EVENT_NS, eqs[0]!.ap), txCodec, lo, hi), POS_LEN, desc, 256).init());
      memberOf = eqs.slice(1).map((e) => cat(EVENT_NS, e.ap));
    } else if (eqs.length > 0) {
      const cursors = await Promise.all(eqs.map((e) => new Cursor(this.db, stream(cat(EVENT_NS, e.ap), txCodec, lo, hi), POS_LEN, desc).init()));
      source = intersect(cursors);
    } else {
      const prefix = ranked ? RANKED_ORDER : ORDER_NS;
      source = scan(await new Cursor(this.db, stream(prefix, txCodec, lo, hi), POS_LEN, desc, 256).init());
    }
    const filter = memberOf.length > 0 || needsVerify
      ? async (p: Uint8Array): Promise<boolean> => {
        for (const prefix of memberOf) if ((await this.get(cat(prefix, p))) === undefined) return false;
        return needsVerify ? this.verify(p, plan) : true;
      }
      : undefined;
    return collect(source, filter, offset, limit);
  }

  /**
   * A tx.hash query: CometBFT v0.38's kv indexer answers the hash's tx whatever the other conditions say (it
   * looks the hash up first and returns).
   */
  private async searchHash(plan: TxPlan, offset: number, limit: number): Promise<TxSearchResult> {
    const ref = await this.byHash(plan.hash!);
    if (!ref) return { total: 0, txs: [] };
    return { total: 1, txs: offset === 0 && limit > 0 ? [ref] : [] };
  }

  /**
   * Whether the tx at `p` matches the plan as CometBFT v0.38's kv indexer decides: its height passes the
   * residual height conditions, and ONE of its events (of a non-empty type) satisfies every event condition,
   * each by an indexed attribute (the index keys carry the event's sequence number and conditions intersect
   * on it, so conditions on attributes of different events never match together).
   */
  private async verify(p: Uint8Array, plan: TxPlan): Promise<boolean> {
    const { height, index } = readPos(p, 0);
    if (plan.residual.length > 0 && !(plan.residualQuery ??= Query.fromConditions(plan.residual)).matches({ 'tx.height': [String(height)] })) return false;
    if (plan.events.length === 0) return true;
    const events = await this.loadEvents(height, index);
    if (!events) return false;
    const matchers = (plan.matchers ??= plan.events.map((c) => ({ tag: c.tag, match: kvValueMatcher(c) })));
    for (const e of events) {
      if (!e.type) continue;
      const ok = matchers.every(({ tag, match }) => e.attributes.some((a) => !!a.key && a.index !== false && `${e.type}.${a.key}` === tag && match(a.value)));
      if (ok) return true;
    }
    return false;
  }

  /** Positions (ascending, distinct) of the txs with any indexed value of `tag` at heights [lo, hi]. */
  private async tagPositions(tag: string, lo: number, hi: number): Promise<Uint8Array[]> {
    const prefix = cat(EVENT_NS, attrPart(tag));
    const seen = new Set<string>();
    for (const [k] of await this.db.iterateRaw(prefix, upperBound(prefix))) {
      const p = k.subarray(k.length - POS_LEN);
      const h = readBe64(p);
      if (h >= lo && h <= hi) seen.add(latin1(p));
    }
    return [...seen].sort().map(fromLatin1);
  }
}

/** Resolves the reserved tags of a tx query (tm.event, tx.hash, tx.height) and sorts the rest. */
function planTx(query: Query): TxPlan {
  const plan: TxPlan = { empty: false, lo: 0, hi: MAX_HEIGHT, eqs: [], tags: [], events: [], residual: [] };
  const eqSeen = new Set<string>();
  for (const c of query.conditions) {
    if (c.tag === 'tm.event') {
      // CometBFT's kv indexer stores no tm.event key: a condition on it matches no tx
      plan.empty = true;
      continue;
    }
    if (c.tag === 'tx.hash') {
      // the first tx.hash condition is looked up whatever its operator (CometBFT `lookForHash`), hex-decoded
      if (plan.hash === undefined) plan.hash = decodeHashArg(c.arg?.text ?? '');
      continue;
    }
    if (c.tag === 'tx.height') {
      const r = heightRange(c);
      if (r) { plan.lo = Math.max(plan.lo, r.lo); plan.hi = Math.min(plan.hi, r.hi); } else plan.residual.push(c);
      continue;
    }
    plan.events.push(c);
    if (c.op === '=' && c.arg?.type === 'string') {
      const ap = attrPart(c.tag, c.arg.text);
      const id = latin1(ap);
      if (!eqSeen.has(id)) { eqSeen.add(id); plan.eqs.push(ap); }
      continue;
    }
    // any other condition on an event tag: only txs with an indexed value of the tag can match, and
    // the value is checked on the tx's events
    if (!plan.tags.includes(c.tag)) plan.tags.push(c.tag);
  }
  if (plan.lo > plan.hi) plan.empty = true;
  return plan;
}

/**
 * The hash of a `tx.hash` condition as CometBFT's `hex.DecodeString` reads it; an empty one (tx.hash EXISTS)
 * and bad hex fail the search with CometBFT's messages.
 */
function decodeHashArg(text: string): Uint8Array {
  for (let i = 0; i < text.length; i++) {
    if (!/[0-9a-fA-F]/.test(text[i]!)) {
      const cp = text.codePointAt(i)!;
      throw new TxSearchError(`error during searching for a hash in the query: encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(String.fromCodePoint(cp)).replace(/^"|"$/g, "'")}`);
    }
  }
  if (text.length % 2 === 1) throw new TxSearchError('error during searching for a hash in the query: encoding/hex: odd length hex string');
  if (text.length === 0) throw new TxSearchError('error while retrieving the result: transaction hash cannot be empty');
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** A tx search CometBFT refuses (its error text). */
export class TxSearchError extends Error {}

/** Flattened events of a tx with the reserved keys CometBFT adds. */
export function txEventMap(events: readonly Event[], hashHex: string, height: number): Record<string, string[]> {
  return flattenEvents(events, { 'tm.event': ['Tx'], 'tx.hash': [hashHex.toUpperCase()], 'tx.height': [String(height)] });
}
