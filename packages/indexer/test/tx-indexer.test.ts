import { expect } from 'chai';
import { parseQuery } from '@chain/events';
import { TxIndexer, TX_EVENT_PREFIX, TX_HASH_PREFIX, TX_ORDER_PREFIX, txEventMap } from '../src/index.js';
import { IndexFixture, MemRawDB, ev, hex, txHashAt } from './helpers.js';

type Ref = [number, number];

/**
 * Blocks 1..6 (block 2 empty). `secret` attributes are not indexed; block 3 tx 0 carries a
 * non-indexed counter.value; block 6 has an event without type and an attribute without key.
 */
const BLOCKS = [
  [[ev('message', ['action', 'send'], ['sender', 'alice'], ['module', 'bank']), ev('transfer', ['recipient', 'bob'], ['amount', '10achain'], ['secret', 's1', false])]],
  [],
  [
    [ev('message', ['action', 'send'], ['sender', 'bob']), ev('transfer', ['recipient', 'alice'], ['amount', '5achain']), ev('counter', ['value', '100', false])],
    [ev('message', ['action', 'x'], ['sender', 'alice']), ev('counter', ['value', '3'])],
  ],
  [
    [ev('message', ['action', 'x'], ['sender', 'carol']), ev('counter', ['value', '7']), ev('transfer', ['secret', '42', false])],
    [ev('message', ['action', 'send'], ['sender', 'alice']), ev('transfer', ['amount', '10achain'])],
    [ev('message', ['action', 'x'], ['sender', 'alice']), ev('counter', ['value', '2.5'])],
  ],
  [
    [ev('message', ['action', 'send'], ['sender', 'alice']), ev('transfer', ['amount', '10achain'])],
    [ev('message', ['action', 'x'], ['sender', 'dave']), ev('counter', ['value', '5'])],
  ],
  [[ev('message', ['action', 'y'], ['sender', 'alicia']), ev('', ['orphan', 'v']), ev('weird', ['', 'nokey'], ['k', 'v'])]],
];

const ALL: Ref[] = [[1, 0], [3, 0], [3, 1], [4, 0], [4, 1], [4, 2], [5, 0], [5, 1], [6, 0]];

describe('TxIndexer on a CommitStore', () => {
  let fx: IndexFixture;

  before(async () => {
    fx = await IndexFixture.create();
    for (const b of BLOCKS) await fx.block(b);
  });
  after(async () => { await fx.close(); });

  describe('byHash', () => {
    it('finds every indexed tx by its hash with height and index', async () => {
      for (const [h, i] of ALL) {
        const ref = await fx.indexer.byHash(txHashAt(h, i));
        expect(ref, `${h}/${i}`).to.not.equal(undefined);
        expect([ref!.height, ref!.index]).to.deep.equal([h, i]);
        expect(hex(ref!.hash)).to.equal(hex(txHashAt(h, i)));
      }
    });
    it('returns undefined for unknown hashes', async () => {
      expect(await fx.indexer.byHash(txHashAt(2, 0))).to.equal(undefined);
      expect(await fx.indexer.byHash(new Uint8Array(32))).to.equal(undefined);
      expect(await fx.indexer.byHash(new Uint8Array())).to.equal(undefined);
    });
  });

  describe('tx.hash', () => {
    it('looks up upper- and lower-case hex', async () => {
      const h = hex(txHashAt(4, 1));
      expect(await fx.refs(`tx.hash='${h.toUpperCase()}'`)).to.deep.equal([[4, 1]]);
      expect(await fx.refs(`tx.hash='${h}'`)).to.deep.equal([[4, 1]]);
    });
    it('finds nothing for unknown hashes; bad hex and an empty hash fail as CometBFT fails them', async () => {
      expect((await fx.search(`tx.hash='${'AB'.repeat(32)}'`)).total).to.equal(0);
      expect((await fx.search(`tx.hash='${hex(txHashAt(4, 1)).slice(2)}'`)).total).to.equal(0);
      const fails = async (q: string): Promise<string> => fx.search(q).then(() => 'no error', (e: Error) => e.message);
      expect(await fails(`tx.hash='XYZ'`)).to.equal("error during searching for a hash in the query: encoding/hex: invalid byte: U+0058 'X'");
      expect(await fails(`tx.hash='ABC'`)).to.equal('error during searching for a hash in the query: encoding/hex: odd length hex string');
      expect(await fails('tx.hash EXISTS')).to.equal('error while retrieving the result: transaction hash cannot be empty');
    });
    it('answers the hash\'s tx whatever the other conditions say (CometBFT looks the hash up first)', async () => {
      const h = hex(txHashAt(4, 1)).toUpperCase();
      expect(await fx.refs(`tx.hash='${h}' AND message.action='send'`)).to.deep.equal([[4, 1]]);
      expect(await fx.refs(`tx.hash='${h}' AND message.action='x'`)).to.deep.equal([[4, 1]]);
      expect(await fx.refs(`tx.hash='${h}' AND tx.height=5`)).to.deep.equal([[4, 1]]);
    });
  });

  describe('tx.height', () => {
    const cases: [string, Ref[]][] = [
      ['tx.height=5', [[5, 0], [5, 1]]],
      ['tx.height=2', []],
      ['tx.height=99', []],
      ['tx.height>=3 AND tx.height<5', [[3, 0], [3, 1], [4, 0], [4, 1], [4, 2]]],
      ['tx.height>5', [[6, 0]]],
      ['tx.height<=1', [[1, 0]]],
      ['tx.height<1', []],
      ['tx.height>4 AND tx.height<4', []],
      ['tx.height>4.5', [[5, 0], [5, 1], [6, 0]]],
      ['tx.height=4 AND message.sender=\'alice\'', [[4, 1], [4, 2]]],
      ['tx.height EXISTS', ALL],
    ];
    for (const [q, want] of cases) {
      it(q, async () => { expect(await fx.refs(q)).to.deep.equal(want); });
    }
  });

  describe('event attributes', () => {
    const cases: [string, Ref[]][] = [
      ["message.action='x'", [[3, 1], [4, 0], [4, 2], [5, 1]]],
      ["message.action='nope'", []],
      ["message.module='bank'", [[1, 0]]],
      // conditions hold in ONE event (CometBFT v0.38 intersects on the event sequence): never across types
      ["message.sender='alice' AND transfer.amount='10achain'", []],
      ["message.action='x' AND message.sender='alice'", [[3, 1], [4, 2]]],
      ["message.action='send' AND message.sender='alice' AND message.module='bank'", [[1, 0]]],
      // no tm.event key in the tx index
      ["tm.event='Tx' AND message.sender='alice'", []],
      ["tm.event='Tx'", []],
      ["tm.event='NewBlock'", []],
      ["tm.event='NewBlock' AND message.sender='alice'", []],
      ["message.sender CONTAINS 'ali'", [[1, 0], [3, 1], [4, 1], [4, 2], [5, 0], [6, 0]]],
      ["message.sender CONTAINS 'zzz'", []],
      ["transfer.recipient CONTAINS 'o' AND message.sender='alice'", []],
      ["transfer.recipient CONTAINS 'o' AND transfer.amount='10achain'", [[1, 0]]],
      ['counter.value EXISTS', [[3, 1], [4, 0], [4, 2], [5, 1]]],
      ['transfer.recipient EXISTS', [[1, 0], [3, 0]]],
      ['counter.value > 4', [[4, 0], [5, 1]]],
      ['counter.value >= 3 AND counter.value < 6', [[3, 1], [5, 1]]],
      ['counter.value < 3', [[4, 2]]],
      ['counter.value > 2.4 AND counter.value < 2.6', [[4, 2]]],
      ['counter.value = 5', [[5, 1]]],
      ["counter.value = '5'", [[5, 1]]],
      // a range holds only for values that parse as numbers ("10achain" does not); = compares the text
      ['transfer.amount > 6', []],
      ['transfer.amount <= 5', []],
      ['transfer.amount = 10', []],
      ['message.sender > 1', []],
      ["weird.k='v'", [[6, 0]]],
      ["tx.height>=4 AND message.action='x' AND counter.value>=5", []],
      ['tx.height>=4 AND counter.value>=5', [[4, 0], [5, 1]]],
    ];
    for (const [q, want] of cases) {
      it(q, async () => { expect(await fx.refs(q)).to.deep.equal(want); });
    }
  });

  describe('non-indexed attributes (index: false) are not searchable', () => {
    const cases: string[] = [
      "transfer.secret='s1'",
      "transfer.secret='42'",
      'transfer.secret EXISTS',
      "transfer.secret CONTAINS 's'",
      'transfer.secret > 40',
      'transfer.secret = 42',
      "counter.value='100'",
      'counter.value > 50',
    ];
    for (const q of cases) {
      it(q, async () => { expect(await fx.refs(q)).to.deep.equal([]); });
    }
    it('writes no index keys for them, nor for empty types or keys', async () => {
      const rows = await fx.store.iterateRaw(Uint8Array.of(TX_EVENT_PREFIX), Uint8Array.of(TX_EVENT_PREFIX + 1));
      const keys = rows.map(([k]) => Buffer.from(k.subarray(1, k.length - 12)).toString('latin1'));
      expect(keys.some((k) => k.startsWith('transfer.secret\x00'))).to.equal(false);
      expect(keys.some((k) => k.startsWith('counter.value\x00100\x00'))).to.equal(false);
      expect(keys.some((k) => k.startsWith('.orphan') || k.startsWith('weird.\x00'))).to.equal(false);
      expect(keys).to.include('weird.k\x00v\x00');
    });
  });

  describe('ordering and pagination', () => {
    it('orders by (height, index) ascending by default and descending on request', async () => {
      expect(await fx.refs("message.action='x'")).to.deep.equal([[3, 1], [4, 0], [4, 2], [5, 1]]);
      expect(await fx.refs("message.action='x'", { orderDesc: true })).to.deep.equal([[5, 1], [4, 2], [4, 0], [3, 1]]);
      expect(await fx.refs('tx.height>=3 AND tx.height<5', { orderDesc: true })).to.deep.equal([[4, 2], [4, 1], [4, 0], [3, 1], [3, 0]]);
    });
    it('pages with page/perPage and reports the total of all pages', async () => {
      const pages: Ref[][] = [];
      for (let page = 1; page <= 4; page++) {
        const r = await fx.search('tx.height>0', { page, perPage: 4 });
        expect(r.total).to.equal(ALL.length);
        pages.push(r.txs.map((t) => [t.height, t.index]));
      }
      expect(pages.map((p) => p.length)).to.deep.equal([4, 4, 1, 0]);
      expect(pages.flat()).to.deep.equal(ALL);
      const desc = await fx.search('tx.height>0', { page: 1, perPage: 4, orderDesc: true });
      expect(desc.txs.map((t) => [t.height, t.index])).to.deep.equal([...ALL].reverse().slice(0, 4));
      const last = await fx.search("message.sender='alice'", { page: 3, perPage: 2, orderDesc: true });
      expect(last.total).to.equal(5);
      expect(last.txs.map((t) => [t.height, t.index])).to.deep.equal([[1, 0]]);
    });
    it('returns the tx hash in every result, whatever the query path', async () => {
      for (const q of ["message.sender='alice'", 'counter.value > 0', 'tx.height>0', `tx.hash='${hex(txHashAt(3, 1))}'`, "message.sender CONTAINS 'a'"]) {
        const r = await fx.search(q);
        expect(r.txs.length, q).to.be.greaterThan(0);
        for (const t of r.txs) expect(hex(t.hash), `${q} ${t.height}/${t.index}`).to.equal(hex(txHashAt(t.height, t.index)));
      }
    });
  });

  describe('query paths', () => {
    it('answers exact conditions from the index alone (no event loads)', async () => {
      fx.loads.length = 0;
      await fx.search("message.sender='alice' AND tx.height>=3");
      await fx.search(`tx.hash='${hex(txHashAt(1, 0))}'`);
      expect(fx.loads).to.deep.equal([]);
    });
    it('verifies non-exact conditions only on the candidates of the indexed keys', async () => {
      fx.loads.length = 0;
      expect((await fx.search("message.action='x' AND counter.value > 4")).total).to.equal(0); // two event types
      expect(fx.loads).to.deep.equal([[3, 1], [4, 0], [4, 2], [5, 1]]);
      fx.loads.length = 0;
      expect(await fx.refs("message.action='x' AND message.sender='alice'")).to.deep.equal([[3, 1], [4, 2]]);
      expect(fx.loads).to.deep.equal([[3, 1], [4, 2]]);
    });
  });

  describe('persistence', () => {
    it('indexes only what was committed, and survives reopening the store', async () => {
      const ops = fx.indexer.indexOps([{ hash: txHashAt(7, 0), height: 7, index: 0, events: [ev('message', ['sender', 'alice'])] }]);
      expect(ops.length).to.be.greaterThan(0);
      expect(await fx.indexer.byHash(txHashAt(7, 0))).to.equal(undefined);
      expect((await fx.search("message.sender='alice'")).total).to.equal(5);
      await fx.reopen();
      expect(await fx.refs("message.sender='alice' AND message.action='send'")).to.deep.equal([[1, 0], [4, 1], [5, 0]]);
      expect(await fx.refs('tx.height=3')).to.deep.equal([[3, 0], [3, 1]]);
      expect((await fx.indexer.byHash(txHashAt(5, 1)))?.index).to.equal(1);
    });
  });
});

describe('TxIndexer.indexOps', () => {
  it('writes hash, order and one event key per indexed attribute, all with external prefixes', () => {
    const idx = new TxIndexer(new MemRawDB(), async () => undefined);
    const ops = idx.indexOps([
      { hash: txHashAt(9, 2), height: 9, index: 2, events: [ev('a', ['k', 'v'], ['n', 'x', false]), ev('b', ['k', 'v'])] },
    ]);
    expect(ops.every((o) => o.type === 'put' && o.key[0]! >= 0x10)).to.equal(true);
    const byPrefix = (p: number): number => ops.filter((o) => o.key[0] === p).length;
    expect([byPrefix(TX_HASH_PREFIX), byPrefix(TX_ORDER_PREFIX), byPrefix(TX_EVENT_PREFIX)]).to.deep.equal([1, 1, 2]);
    expect(idx.indexOps([])).to.deep.equal([]);
  });

  it('lists a tx once even when several events carry the same value', async () => {
    const db = new MemRawDB();
    const idx = new TxIndexer(db, async () => undefined);
    db.apply(idx.indexOps([{ hash: txHashAt(1, 0), height: 1, index: 0, events: [ev('message', ['sender', 'a']), ev('message', ['sender', 'a'])] }]));
    const r = await idx.search(parseQuery("message.sender='a'"), { page: 1, perPage: 10, orderDesc: false });
    expect(r.total).to.equal(1);
  });

  it('keeps (height, index) order beyond one byte and across large heights', async () => {
    const db = new MemRawDB();
    const idx = new TxIndexer(db, async () => undefined);
    const txs = [[1, 300], [1, 2], [256, 0], [70000, 1], [2, 0]].map(([h, i]) => ({ hash: txHashAt(h!, i!), height: h!, index: i!, events: [ev('m', ['s', 'a'])] }));
    db.apply(idx.indexOps(txs));
    const r = await idx.search(parseQuery("m.s='a'"), { page: 1, perPage: 10, orderDesc: false });
    expect(r.txs.map((t) => [t.height, t.index])).to.deep.equal([[1, 2], [1, 300], [2, 0], [256, 0], [70000, 1]]);
    const h = await idx.search(parseQuery('tx.height>=2 AND tx.height<=256'), { page: 1, perPage: 10, orderDesc: false });
    expect(h.txs.map((t) => [t.height, t.index])).to.deep.equal([[2, 0], [256, 0]]);
  });
});

describe('txEventMap', () => {
  it('flattens all attributes and appends tm.event, upper-hex tx.hash and tx.height', () => {
    const m = txEventMap([ev('message', ['sender', 'a'], ['sender', 'b']), ev('t', ['k', 'v', false])], 'abcdef', 12);
    expect(m).to.deep.equal({ 'message.sender': ['a', 'b'], 't.k': ['v'], 'tm.event': ['Tx'], 'tx.hash': ['ABCDEF'], 'tx.height': ['12'] });
  });
});
