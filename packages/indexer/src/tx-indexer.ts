/**
 * Transaction index over the node database: by hash, by height order, and by every indexed event
 * attribute (`<type>.<key>` = value), searched with the CometBFT query language. Index writes are
 * returned as batch operations so they commit atomically with the block that produced them.
 */
import type { BatchOp, Bytes } from '@chain/store';
import { flattenEvents } from '@chain/events';
import type { Event, Query } from '@chain/events';

/** Raw database reads the indexer needs (implemented by CommitStore). */
export interface RawDB {
  getRaw(key: Bytes): Promise<Bytes | undefined>;
  iterateRaw(gte: Bytes, lt: Bytes, opts?: { reverse?: boolean; limit?: number }): Promise<[Bytes, Bytes][]>;
}

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

const enc = new TextEncoder();

function pos(height: number, index: number): Uint8Array {
  const b = new Uint8Array(12);
  const dv = new DataView(b.buffer);
  dv.setBigUint64(0, BigInt(height));
  dv.setUint32(8, index);
  return b;
}

function readPos(b: Uint8Array, off: number): { height: number; index: number } {
  const dv = new DataView(b.buffer, b.byteOffset + off, 12);
  return { height: Number(dv.getBigUint64(0)), index: dv.getUint32(8) };
}

function cat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

const ZERO = Uint8Array.of(0);

function eventPrefix(compositeKey: string, value?: string): Uint8Array {
  return value === undefined
    ? cat(Uint8Array.of(TX_EVENT_PREFIX), enc.encode(compositeKey), ZERO)
    : cat(Uint8Array.of(TX_EVENT_PREFIX), enc.encode(compositeKey), ZERO, enc.encode(value), ZERO);
}

function upperBound(prefix: Uint8Array): Uint8Array {
  const out = prefix.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) { out[i]!++; return out.subarray(0, i + 1); }
  }
  return Uint8Array.of(0xff, 0xff, 0xff, 0xff);
}

function posKey(height: number, index: number): string {
  return height.toString(16).padStart(16, '0') + index.toString(16).padStart(8, '0');
}

/** Loads the flattened events (with tx.hash / tx.height / tm.event) of an indexed tx. */
export type EventsLoader = (height: number, index: number) => Promise<Record<string, string[]> | undefined>;

export class TxIndexer {
  constructor(private readonly db: RawDB, private readonly loadEvents: EventsLoader) {}

  /** Batch operations that index the txs of one block. */
  indexOps(txs: readonly IndexedTx[]): BatchOp[] {
    const ops: BatchOp[] = [];
    const empty = new Uint8Array();
    for (const t of txs) {
      const p = pos(t.height, t.index);
      ops.push({ type: 'put', key: cat(Uint8Array.of(TX_HASH_PREFIX), t.hash), value: p });
      ops.push({ type: 'put', key: cat(Uint8Array.of(TX_ORDER_PREFIX), p), value: t.hash });
      for (const e of t.events) {
        if (!e.type) continue;
        for (const a of e.attributes) {
          if (!a.key || a.index === false) continue;
          ops.push({ type: 'put', key: cat(eventPrefix(`${e.type}.${a.key}`, a.value), p), value: empty });
        }
      }
    }
    return ops;
  }

  async byHash(hash: Uint8Array): Promise<TxRef | undefined> {
    const v = await this.db.getRaw(cat(Uint8Array.of(TX_HASH_PREFIX), hash));
    if (!v) return undefined;
    return { ...readPos(v, 0), hash };
  }

  /** Txs matching `query`, ordered by (height, index), one page of them plus the total count. */
  async search(query: Query, opts: TxSearchOptions): Promise<TxSearchResult> {
    let candidates: Map<string, TxRef> | undefined;
    let exact = true;
    const intersect = (next: Map<string, TxRef>): void => {
      if (!candidates) { candidates = next; return; }
      for (const k of candidates.keys()) if (!next.has(k)) candidates.delete(k);
    };
    for (const c of query.conditions) {
      if (c.tag === 'tm.event') {
        if (!(c.op === '=' && c.arg?.type === 'string' && c.arg.text === 'Tx')) exact = false;
        continue;
      }
      if (c.tag === 'tx.hash' && c.op === '=' && c.arg?.type === 'string') {
        const m = new Map<string, TxRef>();
        let hash: Uint8Array | undefined;
        hash = /^[0-9a-fA-F]{64}$/.test(c.arg.text) ? new Uint8Array(Buffer.from(c.arg.text, 'hex')) : undefined;
        const ref = hash && hash.length === 32 ? await this.byHash(hash) : undefined;
        if (ref) m.set(posKey(ref.height, ref.index), ref);
        intersect(m);
        continue;
      }
      if (c.tag === 'tx.height' && ['=', '<', '<=', '>', '>='].includes(c.op) && c.arg?.type === 'number') {
        const h = Number(c.arg.text);
        if (!Number.isInteger(h)) { exact = false; continue; }
        const lo = c.op === '=' ? h : c.op === '>' ? h + 1 : c.op === '>=' ? h : 0;
        const hi = c.op === '=' ? h : c.op === '<' ? h - 1 : c.op === '<=' ? h : Number.MAX_SAFE_INTEGER;
        intersect(await this.byHeightRange(Math.max(lo, 0), hi));
        continue;
      }
      if (c.op === '=' && c.arg?.type === 'string') {
        intersect(await this.scanEvent(eventPrefix(c.tag, c.arg.text)));
        continue;
      }
      exact = false;
      if (c.tag !== 'tx.height') {
        // only txs with an indexed value of this key can match (whatever the operator: attributes with
        // index: false are not searchable); the values are verified below against the full event set
        intersect(await this.scanEvent(eventPrefix(c.tag)));
      }
    }
    if (!candidates) candidates = await this.byHeightRange(0, Number.MAX_SAFE_INTEGER);
    let keys = [...candidates.keys()].sort();
    if (!exact) {
      const kept: string[] = [];
      for (const k of keys) {
        const ref = candidates.get(k)!;
        const ev = await this.loadEvents(ref.height, ref.index);
        if (ev && query.matches(ev)) kept.push(k);
      }
      keys = kept;
    }
    if (opts.orderDesc) keys.reverse();
    const start = (opts.page - 1) * opts.perPage;
    const page = keys.slice(start, start + opts.perPage).map((k) => candidates!.get(k)!);
    // refs found through event keys carry no hash: read it from the order index
    return { total: keys.length, txs: await Promise.all(page.map((r) => (r.hash.length > 0 ? r : this.withHash(r)))) };
  }

  private async withHash(r: TxRef): Promise<TxRef> {
    const hash = await this.db.getRaw(cat(Uint8Array.of(TX_ORDER_PREFIX), pos(r.height, r.index)));
    return { height: r.height, index: r.index, hash: hash ?? new Uint8Array() };
  }

  private async scanEvent(prefix: Uint8Array): Promise<Map<string, TxRef>> {
    const out = new Map<string, TxRef>();
    for (const [k] of await this.db.iterateRaw(prefix, upperBound(prefix))) {
      const p = readPos(k, k.length - 12);
      out.set(posKey(p.height, p.index), { ...p, hash: new Uint8Array() });
    }
    return out;
  }

  private async byHeightRange(lo: number, hi: number): Promise<Map<string, TxRef>> {
    const out = new Map<string, TxRef>();
    if (hi < lo) return out;
    const gte = cat(Uint8Array.of(TX_ORDER_PREFIX), pos(lo, 0));
    const lt = hi >= Number.MAX_SAFE_INTEGER ? Uint8Array.of(TX_ORDER_PREFIX + 1) : cat(Uint8Array.of(TX_ORDER_PREFIX), pos(hi + 1, 0));
    for (const [k, v] of await this.db.iterateRaw(gte, lt)) {
      const p = readPos(k, 1);
      out.set(posKey(p.height, p.index), { ...p, hash: v });
    }
    return out;
  }
}

/** Flattened events of a tx with the reserved keys CometBFT adds. */
export function txEventMap(events: readonly Event[], hashHex: string, height: number): Record<string, string[]> {
  return flattenEvents(events, { 'tm.event': ['Tx'], 'tx.hash': [hashHex.toUpperCase()], 'tx.height': [String(height)] });
}
