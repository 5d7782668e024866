import { expect } from 'chai';
import { BinaryWriter, parseQuery, writeEventLists } from '@chain/events';
import type { Event } from '@chain/events';
import { IndexWorker, TxIndexer } from '../src/index.js';
import type { BlockSearchResult, IndexedTx, TxSearchResult } from '../src/index.js';
import { TxSearchError } from '../src/tx-indexer.js';
import { IndexFixture, ev, tempDir, txHashAt } from './helpers.js';

/** Blocks 1..5 (block 2 empty), each with FinalizeBlock events. */
const BLOCKS: { txs: Event[][]; events: Event[] }[] = [
  { txs: [[ev('message', ['action', 'send'], ['sender', 'alice']), ev('transfer', ['recipient', 'bob'], ['amount', '10achain'])]], events: [ev('mint', ['amount', '7'])] },
  { txs: [], events: [] },
  {
    txs: [
      [ev('message', ['action', 'send'], ['sender', 'bob']), ev('transfer', ['recipient', 'alice'], ['amount', '5achain']), ev('counter', ['value', '100', false])],
      [ev('message', ['action', 'x'], ['sender', 'alice']), ev('counter', ['value', '3'])],
    ],
    events: [ev('mint', ['amount', '9']), ev('reward', ['validator', 'v1'])],
  },
  {
    txs: [
      [ev('message', ['action', 'x'], ['sender', 'carol']), ev('counter', ['value', '7'])],
      [ev('message', ['action', 'send'], ['sender', 'alice']), ev('transfer', ['amount', '10achain'])],
      [ev('message', ['action', 'x'], ['sender', 'alice']), ev('counter', ['value', '2.5'])],
    ],
    events: [ev('mint', ['amount', '7'])],
  },
  { txs: [[ev('message', ['action', 'send'], ['sender', 'alice']), ev('transfer', ['amount', '10achain'])]], events: [] },
];

const TX_QUERIES = [
  "message.sender = 'alice'", "message.action = 'send' AND message.sender = 'alice'", 'counter.value > 4', 'counter.value EXISTS',
  "transfer.amount = '10achain' AND tx.height >= 4", "message.sender CONTAINS 'li'", 'tx.height = 3', "message.sender = 'nobody'",
  `tx.hash = '${Buffer.from(txHashAt(3, 1)).toString('hex')}'`,
];
const BLOCK_QUERIES = ["mint.amount = '7'", 'mint.amount > 8', 'block.height >= 2', "reward.validator = 'v1'"];

const txsOf = (height: number, b: { txs: Event[][] }): IndexedTx[] => b.txs.map((events, index) => ({ hash: txHashAt(height, index), height, index, events }));

describe('IndexWorker: the tx index on a worker thread, in its own database', function () {
  this.timeout(30_000);
  let fx: IndexFixture;
  const tmp = tempDir('index-worker');
  let worker: IndexWorker;
  const loads: [number, number][] = [];
  const open = (): Promise<IndexWorker> => IndexWorker.open(tmp.dir, async (height, index) => {
    loads.push([height, index]);
    return BLOCKS[height - 1]?.txs[index];
  });

  before(async () => {
    // the reference: the same blocks indexed in the node database, in each block's batch
    fx = await IndexFixture.create();
    for (const b of BLOCKS) await fx.block(b.txs, fx.indexer, b.events);
    worker = await open();
  });
  after(async () => {
    await worker.close();
    await fx.close();
    tmp.remove();
  });

  it('a new index is at height 0; blocks handed over are seen by the next query, which answers as the in-database index', async () => {
    expect(await worker.indexedHeight()).to.equal(0);
    BLOCKS.forEach((b, i) => worker.committed(i + 1, txsOf(i + 1, b), b.events));
    // no wait: the query is answered after the blocks before it
    const ref = await worker.byHash(txHashAt(4, 2));
    expect(ref).to.deep.include({ height: 4, index: 2 });
    expect(await worker.indexedHeight()).to.equal(5);
    for (const q of TX_QUERIES) {
      for (const opts of [{ page: 1, perPage: 100, orderDesc: false }, { page: 2, perPage: 2, orderDesc: true }]) {
        const a: TxSearchResult = await worker.search(parseQuery(q), opts);
        const b: TxSearchResult = await fx.indexer.search(parseQuery(q), opts);
        expect(a, `${q} ${JSON.stringify(opts)}`).to.deep.equal(b);
      }
    }
    for (const q of BLOCK_QUERIES) {
      const a: BlockSearchResult = await worker.searchBlocks(parseQuery(q), { page: 1, perPage: 10, orderDesc: true });
      expect(a, q).to.deep.equal(await fx.indexer.searchBlocks(parseQuery(q), { page: 1, perPage: 10, orderDesc: true }));
    }
    expect(await worker.byHash(new Uint8Array(32))).to.equal(undefined);
  });

  it('asks the host for the events of the txs a search must check', async () => {
    loads.length = 0;
    const r = await worker.search(parseQuery('counter.value > 4'), { page: 1, perPage: 10, orderDesc: false });
    expect(r.txs.map((t) => [t.height, t.index])).to.deep.equal([[4, 0]]);
    expect(loads).to.deep.include([4, 0]);
  });

  it("passes CometBFT's search errors on as TxSearchError", async () => {
    const e = await worker.search(parseQuery("tx.hash = 'zz'"), { page: 1, perPage: 10, orderDesc: false }).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(TxSearchError);
    expect((e as Error).message).to.match(/encoding\/hex: invalid byte/);
  });

  it('keeps its height across a restart and ignores blocks it has indexed', async () => {
    await worker.close();
    expect(await worker.indexedHeight().then(() => 'answered', (e: Error) => e.message)).to.equal('tx index: closed');
    worker = await open();
    expect(await worker.indexedHeight()).to.equal(5);
    // handed over again (the engine re-hands blocks above the stored height only; a repeat must not count twice)
    worker.committed(5, txsOf(5, BLOCKS[4]!), BLOCKS[4]!.events);
    const q = parseQuery("message.sender = 'alice'");
    expect(await worker.search(q, { page: 1, perPage: 100, orderDesc: false })).to.deep.equal(await fx.indexer.search(q, { page: 1, perPage: 100, orderDesc: false }));
  });

  it('refuses a second opening of the same database with a clear error', async () => {
    const e = await open().catch((x: unknown) => x);
    expect(e).to.be.instanceOf(Error);
    expect((e as Error).message).to.contain(tmp.dir).and.match(/lock/i);
  });

  it('reset drops the whole index', async () => {
    await worker.reset();
    expect(await worker.indexedHeight()).to.equal(0);
    expect(await worker.byHash(txHashAt(1, 0))).to.equal(undefined);
    worker.committed(1, txsOf(1, BLOCKS[0]!), BLOCKS[0]!.events);
    expect(await worker.byHash(txHashAt(1, 0))).to.deep.include({ height: 1, index: 0 });
  });

  it('reads the events from the event lists of a results record when they are handed over, with the same index', async () => {
    await worker.reset();
    BLOCKS.forEach((b, i) => {
      // as the block store hands them over: a view inside the record (other fields before it), copied to the worker
      const w = new BinaryWriter();
      w.uint(i + 1);
      w.string('other fields');
      const start = w.pos;
      writeEventLists(w, [b.events, ...b.txs]);
      const end = w.pos;
      w.uint(7);
      worker.committed(i + 1, txsOf(i + 1, b), [], w.buf.subarray(start, end));
    });
    for (const q of TX_QUERIES) {
      expect(await worker.search(parseQuery(q), { page: 1, perPage: 100, orderDesc: false }), q).to.deep.equal(await fx.indexer.search(parseQuery(q), { page: 1, perPage: 100, orderDesc: false }));
    }
    for (const q of BLOCK_QUERIES) {
      expect(await worker.searchBlocks(parseQuery(q), { page: 1, perPage: 10, orderDesc: true }), q).to.deep.equal(await fx.indexer.searchBlocks(parseQuery(q), { page: 1, perPage: 10, orderDesc: true }));
    }
  });

  it('fails with a readable error on an event that is not all strings (the index stores strings only)', async () => {
    const own = tempDir('index-worker-odd');
    const errors: Error[] = [];
    const w = await IndexWorker.open(own.dir, async () => undefined, { onError: (e) => errors.push(e) });
    try {
      w.committed(1, [{ hash: txHashAt(1, 0), height: 1, index: 0, events: [{ type: 'odd', attributes: [{ key: 'n', value: 5 as unknown as string }] }] }], []);
      expect(errors.map((e) => e.message)).to.deep.equal(['tx index: block 1 has an event whose type, key or value is not a string']);
      await w.byHash(txHashAt(1, 0)).then(() => expect.fail('answered'), (e: Error) => expect(e.message).to.match(/not a string/));
    } finally {
      await w.close();
      own.remove();
    }
  });

  it('an in-database TxIndexer is never behind its blocks and cannot be reset', async () => {
    const idx: TxIndexer = fx.indexer;
    expect(await idx.indexedHeight()).to.equal(undefined);
    expect(idx.blockOps(9, txsOf(9, BLOCKS[0]!), []).length).to.be.greaterThan(0);
    await idx.reset().then(() => expect.fail('reset'), (e: Error) => expect(e.message).to.match(/cannot be reset/));
  });

  it('collects its heap at once after a block without txs that follows a load, not only after a second of no blocks', async () => {
    await worker.reset();
    const before = await worker.memory();
    // a load's block: 4,000 txs with ~2 KB of events each, whose parsed records grow the worker's heap by far more than 16 MB
    const big: IndexedTx[] = Array.from({ length: 4000 }, (_, i) => ({
      hash: txHashAt(1, i), height: 1, index: i,
      events: [ev('message', ['action', 'send'], ['sender', `sender-${i}-${'s'.repeat(400)}`]), ev('transfer', ['recipient', `r${i}${'r'.repeat(800)}`], ['amount', `${i}${'0'.repeat(600)}achain`])],
    }));
    worker.committed(1, big, []);
    const loaded = await worker.memory();
    expect(loaded.heldBytes - before.heldBytes, 'heap grown by the block').to.be.greaterThan(16 * 1024 * 1024);
    expect(loaded.collections, 'none while blocks with txs come').to.equal(before.collections);
    const t = Date.now();
    worker.committed(2, [], []);
    let m = await worker.memory();
    while (m.collections === before.collections && Date.now() - t < 5000) {
      await new Promise((r) => setTimeout(r, 20));
      m = await worker.memory();
    }
    expect(m.collections, 'one idle collection').to.equal(before.collections + 1);
    expect(Date.now() - t, 'right after the empty block (the timer waits 1 s)').to.be.lessThan(800);
    expect(m.heldBytes, 'the block\'s objects freed').to.be.lessThan(loaded.heldBytes - 8 * 1024 * 1024);
  });
});
