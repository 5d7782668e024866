/**
 * Block index for `block_search`: every indexed block's height, and every indexed attribute of its
 * FinalizeBlock events (`<type>.<key>` = value), ranked like the tx index. Namespace 0x24 (README.md).
 */
import type { BatchOp, Bytes } from '@chain/store';
import type { Condition, Event, Query } from '@chain/events';
import {
  CounterBatch, EMPTY, attrKey, attrPart, be64, cat, compareBytes, decodeMarker, encodeMarker, fromLatin1, invalidMarker, latin1, readBe64,
  upperBound,
} from './keys.js';
import type { Marker } from './keys.js';
import { heightRange, kvValueMatcher, valueMatcher } from './conditions.js';
import { Cursor, MAX_HEIGHT, RankError, collect, fromArray, intersect, rankedPage, scan, stream } from './streams.js';
import type { PosCodec, RawDB } from './streams.js';

export const BLOCK_INDEX_PREFIX = 0x24;

const MARKER_KEY = Uint8Array.of(BLOCK_INDEX_PREFIX, 0x00);
const ORDER = Uint8Array.of(BLOCK_INDEX_PREFIX, 0x01);
const PAIR_COUNTER = Uint8Array.of(BLOCK_INDEX_PREFIX, 0x02);
const EVENT = Uint8Array.of(BLOCK_INDEX_PREFIX, 0x03);
const POS_LEN = 8;
const blockCodec: PosCodec = { len: POS_LEN, start: be64, height: (p) => readBe64(p) };

export interface BlockSearchOptions {
  /** 1-based page */
  readonly page: number;
  readonly perPage: number;
  /** Newest first (CometBFT's block_search default) unless false. */
  readonly orderDesc?: boolean;
}

export interface BlockSearchResult { readonly total: number; readonly heights: number[] }

/** The events a block's index entries stand for: `tm.event` conditions are checked against these. */

export class BlockIndexer {
  private rankedSince: string | undefined;

  constructor(private readonly db: RawDB) {}

  /** Batch operations indexing block `height` and the indexed attributes of its FinalizeBlock events. */
  indexOps(height: number, events: readonly Event[]): BatchOp[] {
    const ops: BatchOp[] = [];
    const p = be64(height);
    const pairs = new Map<string, [string, string]>();
    for (const e of events) {
      if (!e.type) continue;
      for (const a of e.attributes) {
        if (!a.key || a.index === false) continue;
        const tag = `${e.type}.${a.key}`;
        pairs.set(`${tag}\0${a.value}`, [tag, a.value]);
      }
    }
    const pairKey = (tag: string, value: string): Uint8Array => attrKey(PAIR_COUNTER, tag, value);
    const db = this.db;
    if (!db.getRawSync) {
      ops.push({ type: 'put', key: cat(ORDER, p), value: EMPTY });
      for (const [tag, value] of pairs.values()) ops.push({ type: 'put', key: attrKey(EVENT, tag, value, p), value: EMPTY });
      ops.push({ type: 'put', key: MARKER_KEY, value: invalidMarker(POS_LEN) });
      return ops;
    }
    const read = (k: Bytes): Bytes | undefined => db.getRawSync!(k);
    let marker: Marker | undefined = decodeMarker(read(MARKER_KEY));
    if (!marker) marker = { valid: true, total: 0, first: p, last: undefined };
    else if (marker.last && compareBytes(p, marker.last) <= 0) marker.valid = false;
    marker.last = p;
    ops.push({ type: 'put', key: cat(ORDER, p), value: be64(marker.total++) });
    const counters = new CounterBatch(read);
    for (const [tag, value] of pairs.values()) {
      const rank = counters.nextPair(tag, value, pairKey);
      ops.push({ type: 'put', key: attrKey(EVENT, tag, value, p), value: be64(rank) });
    }
    ops.push(...counters.ops());
    ops.push({ type: 'put', key: MARKER_KEY, value: encodeMarker(marker, POS_LEN) });
    return ops;
  }

  /** Heights of the indexed blocks matching `query`, one page of them plus the total count. */
  async search(query: Query, opts: BlockSearchOptions): Promise<BlockSearchResult> {
    const offset = Math.max(0, (opts.page - 1) * opts.perPage);
    const limit = Math.max(0, opts.perPage);
    const desc = opts.orderDesc ?? true;
    let lo = 0;
    let hi = MAX_HEIGHT;
    const eqs: Uint8Array[] = [];
    const byValue: Condition[] = [];
    const heightChecks: Condition[] = [];
    for (const c of query.conditions) {
      if (c.tag === 'tm.event') {
        // CometBFT v0.38's block indexer stores block.height and the FinalizeBlock event attributes only:
        // no block matches a tm.event condition
        return { total: 0, heights: [] };
      } else if (c.tag === 'block.height') {
        const r = heightRange(c);
        if (r) { lo = Math.max(lo, r.lo); hi = Math.min(hi, r.hi); } else heightChecks.push(c);
      } else if (c.op === '=' && c.arg?.type === 'string') {
        const ap = attrPart(c.tag, c.arg.text);
        if (!eqs.some((e) => compareBytes(e, ap) === 0)) eqs.push(ap);
      } else {
        byValue.push(c);
      }
    }
    if (lo > hi) return { total: 0, heights: [] };
    let res: { total: number; page: Uint8Array[] };
    try {
      res = await this.run(await this.rankedMarker(), { lo, hi, eqs, byValue, heightChecks }, offset, limit, desc);
    } catch (e) {
      if (!(e instanceof RankError)) throw e;
      res = await this.run(undefined, { lo, hi, eqs, byValue, heightChecks }, offset, limit, desc);
    }
    return { total: res.total, heights: res.page.map((p) => readBe64(p)) };
  }

  /** A point read: synchronous when the database can. */
  private get(key: Uint8Array): Bytes | undefined | Promise<Bytes | undefined> {
    return this.db.getRawSync ? this.db.getRawSync(key) : this.db.getRaw(key);
  }

  /** The marker when ranks and counters cover the whole index. */
  private async rankedMarker(): Promise<Marker | undefined> {
    const m = decodeMarker(await this.get(MARKER_KEY));
    if (!m || !m.valid) return undefined;
    const id = latin1(m.first);
    if (this.rankedSince === id) return m;
    const [oldest] = await this.db.iterateRaw(ORDER, upperBound(ORDER), { limit: 1 });
    if (oldest && compareBytes(oldest[0].subarray(ORDER.length), m.first) < 0) return undefined;
    this.rankedSince = id;
    return m;
  }

  private async run(
    marker: Marker | undefined,
    plan: { lo: number; hi: number; eqs: Uint8Array[]; byValue: Condition[]; heightChecks: Condition[] },
    offset: number, limit: number, desc: boolean,
  ): Promise<{ total: number; page: Uint8Array[] }> {
    const { lo, hi } = plan;
    const ranked = marker !== undefined;
    let eqs = plan.eqs.map((ap) => ({ ap, size: 0 }));
    if (ranked) {
      for (const e of eqs) {
        const v = await this.get(cat(PAIR_COUNTER, e.ap));
        e.size = v && v.length === 8 ? readBe64(v) : 0;
      }
      if (eqs.some((e) => e.size === 0)) return { total: 0, page: [] };
      // a stream holding every indexed block constrains nothing
      eqs = eqs.filter((e) => e.size < marker.total).sort((a, b) => a.size - b.size);
    }
    if (plan.byValue.length === 0 && plan.heightChecks.length === 0 && eqs.length <= 1 && ranked) {
      const prefix = eqs.length === 1 ? cat(EVENT, eqs[0]!.ap) : ORDER;
      return rankedPage(this.db, stream(prefix, blockCodec, lo, hi), blockCodec, offset, limit, desc);
    }
    // other conditions on event tags: the heights with an indexed value satisfying them
    const sets = await Promise.all(plan.byValue.map((c) => this.heightsWhere(c, lo, hi)));
    sets.sort((a, b) => a.length - b.length);
    let source: AsyncIterable<Uint8Array>;
    let filterSets = sets;
    let probes: Uint8Array[] = [];
    const setFirst = sets.length > 0 && (eqs.length === 0 || (ranked && sets[0]!.length < eqs[0]!.size));
    if (setFirst) {
      // the smallest set of heights drives; streams are probed
      const first = sets[0]!.map(fromLatin1);
      source = fromArray(desc ? first.reverse() : first);
      filterSets = sets.slice(1);
      probes = eqs.map((e) => cat(EVENT, e.ap));
    } else if (eqs.length > 0 && (eqs.length === 1 || (ranked && this.db.getRawSync))) {
      // walk the smallest stream, probe the others with point reads
      source = scan(await new Cursor(this.db, stream(cat(EVENT, eqs[0]!.ap), blockCodec, lo, hi), POS_LEN, desc, 256).init());
      probes = eqs.slice(1).map((e) => cat(EVENT, e.ap));
    } else if (eqs.length > 0) {
      const cursors = await Promise.all(eqs.map((e) => new Cursor(this.db, stream(cat(EVENT, e.ap), blockCodec, lo, hi), POS_LEN, desc).init()));
      source = intersect(cursors);
    } else {
      source = scan(await new Cursor(this.db, stream(ORDER, blockCodec, lo, hi), POS_LEN, desc, 256).init());
    }
    const members = filterSets.map((s) => new Set(s));
    const checks = plan.heightChecks.map(valueMatcher);
    const filter = members.length > 0 || checks.length > 0 || probes.length > 0
      ? async (p: Uint8Array): Promise<boolean> => {
        for (const prefix of probes) {
          const k = cat(prefix, p);
          if ((await this.get(k)) === undefined) return false;
        }
        if (members.length > 0) {
          const id = latin1(p);
          for (const m of members) if (!m.has(id)) return false;
        }
        if (checks.length > 0) {
          const h = String(readBe64(p));
          for (const c of checks) if (!c(h)) return false;
        }
        return true;
      }
      : undefined;
    return collect(source, filter, offset, limit);
  }

  /** Sorted, distinct positions (latin1) of blocks in [lo, hi] with an indexed value of c.tag satisfying c. */
  private async heightsWhere(c: Condition, lo: number, hi: number): Promise<string[]> {
    const prefix = cat(EVENT, attrPart(c.tag));
    const match = kvValueMatcher(c);
    const dec = new TextDecoder();
    const seen = new Set<string>();
    for (const [k] of await this.db.iterateRaw(prefix, upperBound(prefix))) {
      const p = k.subarray(k.length - POS_LEN);
      const h = readBe64(p);
      if (h < lo || h > hi) continue;
      if (match(dec.decode(k.subarray(prefix.length, k.length - POS_LEN - 1)))) seen.add(latin1(p));
    }
    return [...seen].sort();
  }
}
