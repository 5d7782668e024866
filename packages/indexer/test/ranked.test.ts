/**
 * The ranked tx index: per-(key, value) counters and ranks written by indexOps, deep pages in both
 * orders checked against a brute-force reference, multi-condition totals, bounded work per page, and
 * the fallbacks (txs indexed without counters, out-of-order indexing).
 */
import { expect } from 'chai';
import { parseQuery } from '@chain/events';
import type { Event } from '@chain/events';
import type { BatchOp } from '@chain/store';
import { TxIndexer, TX_EVENT_PREFIX, TX_RANK_PREFIX } from '../src/index.js';
import type { TxSearchOptions } from '../src/index.js';
import { CountingDB, IndexFixture, MemRawDB, ev, hex, kvReferenceMatches, txHashAt, withoutSync } from './helpers.js';

type Ref = [number, number];

const be64 = (b: Uint8Array | undefined): number | undefined => (b ? Number(Buffer.from(b).readBigUInt64BE(0)) : undefined);
const key = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))));
const pairCounter = (tag: string, value: string): Uint8Array => key([TX_RANK_PREFIX, 0x02], `${tag}\0${value}\0`);
const tagCounter = (tag: string): Uint8Array => key([TX_RANK_PREFIX, 0x03], `${tag}\0`);

/** A bank-like tx: 11 senders, 17 recipients, every 5th tx a vote. */
function txAt(h: number, i: number): Event[] {
  const n = h * 131 + i;
  return [
    ev('message', ['action', i % 5 === 0 ? 'vote' : 'send'], ['sender', `s${n % 11}`], ['module', 'bank']),
    ev('transfer', ['recipient', `r${(h + i * 3) % 17}`], ['sender', `s${n % 11}`], ['amount', `${(h * 7 + i) % 50}`]),
  ];
}

/** Search results computed from all txs' events by brute force with CometBFT v0.38's kv-index rules. */
class Reference {
  readonly txs: { h: number; i: number; events: Event[] }[] = [];
  add(h: number, i: number, events: Event[]): void {
    this.txs.push({ h, i, events });
  }
  private readonly memo = new Map<string, Ref[]>();
  search(q: string, opts: TxSearchOptions): { total: number; refs: Ref[] } {
    let asc = this.memo.get(q);
    if (!asc) {
      const query = parseQuery(q);
      asc = this.txs.filter((t) => kvReferenceMatches(query, t.events, { 'tx.height': [String(t.h)], 'tx.hash': [hex(txHashAt(t.h, t.i)).toUpperCase()] }, true)).map((t): Ref => [t.h, t.i]);
      this.memo.set(q, asc);
    }
    const all = opts.orderDesc ? [...asc].reverse() : asc;
    const start = (opts.page - 1) * opts.perPage;
    return { total: all.length, refs: all.slice(start, start + opts.perPage) };
  }
}

async function expectSame(fx: IndexFixture, ref: Reference, q: string, opts: TxSearchOptions, indexer = fx.indexer): Promise<number> {
  const got = await indexer.search(parseQuery(q), opts);
  const want = ref.search(q, opts);
  const label = `${q} page ${opts.page} x ${opts.perPage}${opts.orderDesc ? ' desc' : ''}`;
  expect(got.total, label).to.equal(want.total);
  expect(got.txs.map((t) => [t.height, t.index]), label).to.deep.equal(want.refs);
  for (const t of got.txs) expect(hex(t.hash), label).to.equal(hex(txHashAt(t.height, t.index)));
  return want.total;
}

describe('ranked tx index: counters', () => {
  let fx: IndexFixture;
  before(async () => { fx = await IndexFixture.create(); });
  after(async () => { await fx.close(); });

  it('counts txs per (key, value) and per key across blocks, once per tx, and ranks every entry', async () => {
    const alice = (extra: Event[] = []): Event[] => [ev('message', ['sender', 'alice']), ev('transfer', ['sender', 'alice']), ...extra];
    // block 1: two alice txs (one naming her twice in the same event type), block 2: bob then alice,
    // block 3: empty, block 4: alice
    await fx.block([alice([ev('message', ['sender', 'alice'])]), alice()]);
    await fx.block([[ev('message', ['sender', 'bob'])], alice()]);
    await fx.block([]);
    const ops = await fx.block([alice()]);
    // one put per counter in a batch
    const counterPuts = ops.filter((o) => o.key[0] === TX_RANK_PREFIX && o.key[1] === 0x02);
    expect(counterPuts.length).to.equal(new Set(counterPuts.map((o) => hex(o.key))).size);

    expect(be64(await fx.store.getRaw(pairCounter('message.sender', 'alice')))).to.equal(4);
    expect(be64(await fx.store.getRaw(pairCounter('message.sender', 'bob')))).to.equal(1);
    expect(be64(await fx.store.getRaw(pairCounter('transfer.sender', 'alice')))).to.equal(4);
    expect(be64(await fx.store.getRaw(tagCounter('message.sender')))).to.equal(5);
    expect(be64(await fx.store.getRaw(tagCounter('transfer.sender')))).to.equal(4);
    const prefix = key([TX_EVENT_PREFIX], 'message.sender\0alice\0');
    const rows = await fx.store.iterateRaw(prefix, key([TX_EVENT_PREFIX], 'message.sender\0alice\x01'));
    expect(rows.map(([, v]) => be64(v))).to.deep.equal([0, 1, 2, 3]);

    await fx.reopen();
    await fx.block([alice(), alice()]);
    expect(be64(await fx.store.getRaw(pairCounter('message.sender', 'alice')))).to.equal(6);
    const r = await fx.search("message.sender='alice'", { orderDesc: true, perPage: 2, page: 2 });
    expect(r.total).to.equal(6);
    expect(r.txs.map((t) => [t.height, t.index])).to.deep.equal([[4, 0], [2, 1]]);
  });

  it('does not count a batch that was never committed (counters cached between batches)', async () => {
    const before = be64(await fx.store.getRaw(pairCounter('message.sender', 'alice')))!;
    const h = fx.store.lastHeight + 1;
    // a block whose batch is dropped (e.g. the commit failed), then another block at the same height
    fx.indexer.indexOps([0, 1, 2].map((i) => ({ hash: txHashAt(h, i), height: h, index: i, events: [ev('message', ['sender', 'alice'])] })));
    await fx.block([[ev('message', ['sender', 'alice'])], [ev('message', ['sender', 'carol'])]]);
    expect(be64(await fx.store.getRaw(pairCounter('message.sender', 'alice')))).to.equal(before + 1);
    await fx.block([[ev('message', ['sender', 'alice'])]]);
    expect(be64(await fx.store.getRaw(pairCounter('message.sender', 'alice')))).to.equal(before + 2);
    const r = await fx.search("message.sender='alice'", { page: 2, perPage: before, orderDesc: false });
    expect(r.total).to.equal(before + 2);
    expect(r.txs.map((t) => [t.height, t.index])).to.deep.equal([[h, 0], [h + 1, 0]]);
  });

  it('aggregates a value shared by several txs of one block into one counter put', () => {
    const db = new MemRawDB();
    const idx = new TxIndexer(db, async () => undefined);
    const ops: BatchOp[] = idx.indexOps([0, 1, 2].map((i) => ({ hash: txHashAt(1, i), height: 1, index: i, events: [ev('message', ['sender', 'alice'])] })));
    const puts = ops.filter((o) => hex(o.key) === hex(pairCounter('message.sender', 'alice')));
    expect(puts.length).to.equal(1);
    expect(puts[0]!.type === 'put' && be64(puts[0]!.value)).to.equal(3);
  });
});

describe('ranked tx index: pages against a reference', () => {
  let fx: IndexFixture;
  const ref = new Reference();
  const BLOCKS = 32;
  const PER_BLOCK = 100;

  before(async () => {
    fx = await IndexFixture.create();
    for (let h = 1; h <= BLOCKS; h++) {
      // heights 9 and 17 are empty blocks
      const n = h === 9 || h === 17 ? 0 : PER_BLOCK;
      const txs = Array.from({ length: n }, (_, i) => txAt(h, i));
      await fx.block(txs);
      txs.forEach((e, i) => ref.add(h, i, e));
    }
  });
  after(async () => { await fx.close(); });

  const QUERIES = [
    "tm.event='Tx'",
    "message.action='send'",
    "message.sender='s3'",
    "message.sender='s3' AND transfer.recipient='r5'",
    "message.action='send' AND message.sender='s3'",
    "message.action='vote' AND message.module='bank' AND transfer.sender='s7'",
    "message.action='send' AND tx.height>=10 AND tx.height<=20",
    "tm.event='Tx' AND message.sender='s1' AND tx.height>3",
    'tx.height=7',
    'tx.height=9',
    'tx.height>25',
    'tx.height>=2 AND tx.height<30.5',
    "message.sender='s3' AND transfer.amount > 20",
    'transfer.amount > 45',
    "message.action='vote' AND transfer.recipient EXISTS",
    'transfer.recipient EXISTS AND tx.height<5',
    "message.sender='nobody'",
    "message.sender='s3' AND message.sender='s4'",
  ];
  const PAGES: [number, number][] = [[1, 1], [2, 7], [1, 100], [2, 100], [11, 100], [16, 100], [30, 100], [200, 7], [1001, 1], [3000, 1], [31, 100], [1000, 100]];

  for (const q of QUERIES) {
    it(q, async () => {
      let total = 0;
      for (const orderDesc of [false, true]) {
        for (const [page, perPage] of PAGES) total = await expectSame(fx, ref, q, { page, perPage, orderDesc });
        // the last page and the first page beyond the end
        const last = Math.max(1, Math.ceil(total / 30));
        await expectSame(fx, ref, q, { page: last, perPage: 30, orderDesc });
        await expectSame(fx, ref, q, { page: last + 1, perPage: 30, orderDesc });
      }
    });
  }

  it('reports the total of multi-condition queries (intersection walk)', async () => {
    for (const q of QUERIES.filter((x) => x.includes(' AND '))) {
      const got = await fx.search(q, { perPage: 1 });
      expect(got.total, q).to.equal(ref.search(q, { page: 1, perPage: 1, orderDesc: false }).total);
    }
    expect((await fx.search("message.action='send' AND message.sender='s3'", { perPage: 1 })).total).to.be.greaterThan(100);
  });

  it('returns no txs beyond the last page, with the right total', async () => {
    const all = ref.search("message.action='send'", { page: 1, perPage: 1, orderDesc: false }).total;
    for (const orderDesc of [false, true]) {
      const r = await fx.search("message.action='send'", { page: Math.ceil(all / 100) + 1, perPage: 100, orderDesc });
      expect(r.total).to.equal(all);
      expect(r.txs).to.deep.equal([]);
      const far = await fx.search('tx.height>0', { page: 1_000_000, perPage: 100, orderDesc });
      expect([far.total, far.txs.length]).to.deep.equal([3000, 0]);
    }
  });

  it('reads a bounded number of keys for a deep page of one stream, either order', async () => {
    const db = new CountingDB(fx.store);
    const idx = fx.makeIndexer(db);
    for (const [q, page] of [["message.action='send'", 20], ['tx.height>0', 28], ["message.sender='s3' AND tx.height>2", 2]] as const) {
      for (const orderDesc of [false, true]) {
        db.reset();
        const r = await idx.search(parseQuery(q), { page, perPage: 100, orderDesc });
        expect(r.txs.length, q).to.equal(100);
        // rows: 2 bounds + <= 1 per binary-search step + one block's entries + the page; plus 100 hash reads
        expect(db.rows, `${q} rows`).to.be.below(100 + PER_BLOCK + 40);
        expect(db.iterations, `${q} iterations`).to.be.below(20);
        expect(db.gets, `${q} gets`).to.be.at.most(102);
      }
    }
  });

  it('answers a single-stream query with no event loads and no scan of the stream', async () => {
    const db = new CountingDB(fx.store);
    const idx = fx.makeIndexer(db);
    fx.loads.length = 0;
    const r = await idx.search(parseQuery("message.action='send'"), { page: 1, perPage: 10, orderDesc: true });
    expect(r.total).to.equal(2400);
    expect(db.rows).to.be.below(15);
    expect(fx.loads).to.deep.equal([]);
  });
});

describe('tx index without counters (older data, or a RawDB without getRawSync)', () => {
  let fx: IndexFixture;
  const ref = new Reference();

  before(async () => {
    fx = await IndexFixture.create();
    const legacy = fx.makeIndexer(withoutSync(fx.store));
    for (let h = 1; h <= 12; h++) {
      const txs = Array.from({ length: 30 }, (_, i) => txAt(h, i));
      // the first 6 blocks were indexed by an indexer that kept no counters
      await fx.block(txs, h <= 6 ? legacy : fx.indexer);
      txs.forEach((e, i) => ref.add(h, i, e));
    }
  });
  after(async () => { await fx.close(); });

  it('falls back to walking the streams and stays correct', async () => {
    for (const q of ["message.action='send'", "tm.event='Tx'", "message.sender='s3' AND transfer.recipient='r5'", 'tx.height>=5 AND tx.height<=8', 'transfer.amount > 40', "message.sender='s2' AND transfer.amount < 10"]) {
      for (const orderDesc of [false, true]) {
        for (const [page, perPage] of [[1, 10], [3, 25], [20, 10], [100, 10]] as const) await expectSame(fx, ref, q, { page, perPage, orderDesc });
      }
    }
  });

  it('survives a restart', async () => {
    await fx.reopen();
    await expectSame(fx, ref, "message.action='send'", { page: 7, perPage: 40, orderDesc: true });
  });
});

describe('tx index written out of (height, index) order', () => {
  it('gives up ranks and still answers correctly', async () => {
    const db = new MemRawDB();
    const idx = new TxIndexer(db, async () => undefined);
    const ref = new Reference();
    for (const h of [5, 3, 8]) {
      const txs = Array.from({ length: 4 }, (_, i) => ({ hash: txHashAt(h, i), height: h, index: i, events: txAt(h, i) }));
      db.apply(idx.indexOps(txs));
      for (const t of txs) ref.add(t.height, t.index, t.events);
    }
    ref.txs.sort((a, b) => a.h - b.h || a.i - b.i); // (nothing memoized yet)
    for (const q of ["message.module='bank'", "tm.event='Tx'", 'tx.height>3']) {
      for (const orderDesc of [false, true]) {
        const got = await idx.search(parseQuery(q), { page: 2, perPage: 5, orderDesc });
        const want = ref.search(q, { page: 2, perPage: 5, orderDesc });
        expect(got.total, q).to.equal(want.total);
        expect(got.txs.map((t) => [t.height, t.index]), q).to.deep.equal(want.refs);
      }
    }
  });
});
