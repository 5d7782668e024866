/**
 * The block index (block_search): heights and FinalizeBlock event attributes, checked against a
 * brute-force reference over 1500 blocks, plus its life on a CommitStore next to the tx index.
 */
import { expect } from 'chai';
import { parseQuery } from '@chain/events';
import type { Event } from '@chain/events';
import { BLOCK_INDEX_PREFIX, BlockIndexer, TxIndexer } from '../src/index.js';
import type { BlockSearchOptions } from '../src/index.js';
import { CountingDB, IndexFixture, MemRawDB, ev, kvReferenceMatches, withoutSync } from './helpers.js';

/** FinalizeBlock events of block h: mint every block, fees every 3rd, commission every 5th. */
function blockEvents(h: number): Event[] {
  const out: Event[] = [
    ev('mint', ['amount', String(h * 10)], ['inflation', '0.13'], ['mode', 'BeginBlock']),
    ev('special', ['secret', `x${h}`, false]),
  ];
  if (h % 3 === 0) out.push(ev('coin_received', ['receiver', 'fee_collector'], ['amount', `${h % 100}achain`], ['mode', 'EndBlock']));
  if (h % 5 === 0) out.push(ev('commission', ['validator', h % 2 ? 'val1' : 'val2'], ['amount', `${h}achain`]));
  return out;
}

/**
 * What block_search should return, by brute force: CometBFT v0.38's kv-index rules on the indexed attributes
 * plus block.height (no tm.event key). Conditions may hold in different events (this index keeps no event sequence).
 */
class BlockReference {
  readonly blocks: { h: number; events: Event[] }[] = [];
  add(h: number, events: Event[]): void {
    this.blocks.push({ h, events });
  }
  search(q: string, opts: BlockSearchOptions): { total: number; heights: number[] } {
    const query = parseQuery(q);
    const all = this.blocks.filter((b) => kvReferenceMatches(query, b.events, { 'block.height': [String(b.h)] }, false)).map((b) => b.h);
    if (opts.orderDesc ?? true) all.reverse();
    const start = (opts.page - 1) * opts.perPage;
    return { total: all.length, heights: all.slice(start, start + opts.perPage) };
  }
}

describe('BlockIndexer against a reference', () => {
  const N = 1500;
  const db = new MemRawDB();
  const idx = new BlockIndexer(db);
  const ref = new BlockReference();

  before(() => {
    for (let h = 1; h <= N; h++) {
      db.apply(idx.indexOps(h, blockEvents(h)));
      ref.add(h, blockEvents(h));
    }
  });

  const QUERIES = [
    'block.height > 100 AND block.height <= 200',
    'block.height = 42',
    "block.height = '42'",
    'block.height = 4.5',
    'block.height > 1400.5',
    'block.height >= 0',
    "mint.inflation='0.13'",
    "mint.mode='BeginBlock'",
    "coin_received.receiver='fee_collector'",
    "coin_received.receiver='fee_collector' AND commission.validator='val1'",
    "coin_received.receiver='fee_collector' AND commission.validator='val1' AND block.height < 700",
    "coin_received.receiver='fee_collector' AND block.height > 1000",
    'commission.amount > 1000',
    'mint.amount >= 5000 AND mint.amount < 6000',
    "commission.validator EXISTS AND coin_received.amount < 10",
    "commission.amount > 1400 AND coin_received.receiver='fee_collector'",
    "commission.amount > 1400 AND coin_received.receiver='fee_collector' AND commission.validator='val2'",
    "commission.validator CONTAINS 'al2'",
    'mint.amount = 420',
    "mint.amount = '420'",
    'special.secret EXISTS',
    "special.secret = 'x5'",
    "tm.event = 'NewBlock'",
    "tm.event = 'NewBlock' AND commission.validator='val2'",
    "tm.event = 'Tx'",
    "block.height CONTAINS '77'",
    "block.height CONTAINS '7' AND commission.validator='val1'",
    "commission.validator='nobody'",
  ];
  const PAGES: [number, number][] = [[1, 1], [1, 100], [2, 7], [5, 100], [11, 100], [15, 100], [16, 100], [1001, 1], [1499, 1], [1500, 1]];

  for (const q of QUERIES) {
    it(q, async () => {
      for (const orderDesc of [undefined, false, true]) {
        for (const [page, perPage] of PAGES) {
          const got = await idx.search(parseQuery(q), { page, perPage, orderDesc });
          const want = ref.search(q, { page, perPage, orderDesc });
          expect(got, `${q} page ${page} x ${perPage} ${String(orderDesc)}`).to.deep.equal(want);
        }
      }
    });
  }

  it('orders newest first by default (CometBFT block_search)', async () => {
    const r = await idx.search(parseQuery("coin_received.receiver='fee_collector'"), { page: 1, perPage: 3 });
    expect(r).to.deep.equal({ total: 500, heights: [1500, 1497, 1494] });
  });

  it('reads a bounded number of keys for a deep page', async () => {
    const counting = new CountingDB(db);
    const ci = new BlockIndexer(counting);
    for (const orderDesc of [false, true]) {
      counting.reset();
      const r = await ci.search(parseQuery('block.height > 10'), { page: 12, perPage: 100, orderDesc });
      expect(r.heights.length).to.equal(100);
      expect(r.total).to.equal(N - 10);
      expect(counting.rows).to.be.below(130);
      expect(counting.iterations).to.be.below(25);
    }
  });

  it('writes only 0x24 keys, one entry per distinct indexed attribute, none for non-indexed ones', () => {
    const ops = new BlockIndexer(new MemRawDB()).indexOps(7, [ev('a', ['k', 'v'], ['k', 'v'], ['n', 'x', false]), ev('', ['k', 'v']), ev('b', ['', 'v'])]);
    expect(ops.every((o) => o.type === 'put' && o.key[0] === BLOCK_INDEX_PREFIX)).to.equal(true);
    const text = ops.map((o) => Buffer.from(o.key.subarray(2)).toString('latin1'));
    const entries = ops.filter((o) => o.key[1] === 0x03).map((o) => Buffer.from(o.key.subarray(2)).toString('latin1'));
    expect(entries.filter((k) => k.startsWith('a.k\0v\0')).length).to.equal(1);
    expect(entries.length).to.equal(1);
    expect(text.some((k) => k.includes('a.n'))).to.equal(false);
  });

  it('stays correct without counters, and when blocks are indexed out of order', async () => {
    const plain = new MemRawDB();
    const legacy = new BlockIndexer(withoutSync(plain));
    const later = new BlockIndexer(plain);
    const r2 = new BlockReference();
    for (let h = 1; h <= 40; h++) { plain.apply((h <= 20 ? legacy : later).indexOps(h, blockEvents(h))); r2.add(h, blockEvents(h)); }
    for (const q of ["coin_received.receiver='fee_collector'", 'block.height > 5', "mint.inflation='0.13' AND commission.validator='val1'"]) {
      expect(await later.search(parseQuery(q), { page: 2, perPage: 4 }), q).to.deep.equal(r2.search(q, { page: 2, perPage: 4 }));
    }
    const shuffled = new MemRawDB();
    const s = new BlockIndexer(shuffled);
    const r3 = new BlockReference();
    for (const h of [3, 1, 2, 6, 5, 4]) shuffled.apply(s.indexOps(h, blockEvents(h)));
    for (let h = 1; h <= 6; h++) r3.add(h, blockEvents(h));
    for (const q of ['block.height >= 1', "mint.inflation='0.13'"]) {
      expect(await s.search(parseQuery(q), { page: 1, perPage: 4, orderDesc: false }), q).to.deep.equal(r3.search(q, { page: 1, perPage: 4, orderDesc: false }));
    }
  });
});

describe('TxIndexer.blockIndexOps / searchBlocks on a CommitStore', () => {
  let fx: IndexFixture;
  before(async () => { fx = await IndexFixture.create(); });
  after(async () => { await fx.close(); });

  it('indexes blocks in the block batch next to their txs, and survives a restart', async () => {
    for (let h = 1; h <= 12; h++) {
      await fx.block(h % 4 === 0 ? [] : [[ev('message', ['sender', `s${h}`])]], fx.indexer, blockEvents(h));
    }
    const q = (s: string, opts: Partial<BlockSearchOptions> = {}) => fx.indexer.searchBlocks(parseQuery(s), { page: 1, perPage: 100, ...opts });
    expect(await q('block.height >= 1')).to.deep.equal({ total: 12, heights: [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1] });
    expect(await q("coin_received.receiver='fee_collector'", { orderDesc: false })).to.deep.equal({ total: 4, heights: [3, 6, 9, 12] });
    expect(await q("coin_received.receiver='fee_collector' AND commission.validator='val1'")).to.deep.equal({ total: 0, heights: [] });
    expect(await q('mint.amount >= 110')).to.deep.equal({ total: 2, heights: [12, 11] });
    expect(await q('commission.amount >= 10')).to.deep.equal({ total: 0, heights: [] }); // "10achain" is not a number
    // block and tx indexes do not see each other's keys
    expect((await fx.search("mint.inflation='0.13'")).total).to.equal(0);
    expect((await q("message.sender='s1'")).total).to.equal(0);
    expect((await fx.search('tx.height>0')).total).to.equal(9);
    await fx.reopen();
    await fx.block([], fx.indexer, blockEvents(13));
    expect(await q('block.height > 10', { perPage: 2 })).to.deep.equal({ total: 3, heights: [13, 12] });
    expect(await q("mint.inflation='0.13'", { page: 7, perPage: 2 })).to.deep.equal({ total: 13, heights: [1] });
  });

  it('is reachable through the TxIndexer the engine holds', () => {
    const idx = new TxIndexer(new MemRawDB(), async () => undefined);
    const ops = idx.blockIndexOps(1, blockEvents(1));
    expect(ops.length).to.be.greaterThan(0);
    expect(ops.every((o) => o.key[0] === BLOCK_INDEX_PREFIX)).to.equal(true);
  });
});
