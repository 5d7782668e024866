import { expect } from 'chai';
import { BinaryReader, readEventLists } from '@chain/events';
import type { Event } from '@chain/events';
import { decodeBlock, decodeResults, encodeBlock, encodeResults } from '../src/records.js';
import { deserialize, serialize } from '../src/serde.js';
import type { StoredBlock, StoredResults } from '../src/index.js';

const addr = (i: number): string => `chain1${String(i).padStart(38, 'q')}`;

function sendEvents(i: number): Event[] {
  const a = (key: string, value: string, index: boolean | undefined = true): { key: string; value: string; index?: boolean } => (index === undefined ? { key, value } : { key, value, index });
  return [
    { type: 'coin_spent', attributes: [a('spender', addr(i)), a('amount', '2000achain'), a('msg_index', '0', undefined)] },
    { type: 'tx', attributes: [a('fee', '2000achain'), a('fee_payer', addr(i))] },
    { type: 'tx', attributes: [a('acc_seq', `${addr(i)}/${i}`)] },
    { type: 'tx', attributes: [a('signature', Buffer.alloc(64, i).toString('base64'))] },
    { type: 'message', attributes: [a('action', '/cosmos.bank.v1beta1.MsgSend'), a('sender', addr(i)), a('module', 'bank', false)] },
    { type: 'transfer', attributes: [a('recipient', addr(i + 1)), a('sender', addr(i)), a('amount', `${i}achain`), a('memo', 'é ✓ "q"')] },
  ];
}

function results(n: number, over: Partial<StoredResults> = {}): StoredResults {
  return {
    height: 12,
    txResults: Array.from({ length: n }, (_, i) => ({
      code: i % 5 === 4 ? 11 : 0, codespace: i % 5 === 4 ? 'sdk' : '', log: i % 5 === 4 ? `out of gas in location: ${i}` : '', info: i === 1 ? 'ïnfo' : '',
      data: i % 2 ? Uint8Array.of(0x12, 0x26, i & 0xff) : new Uint8Array(0), gasWanted: 200_000 + i, gasUsed: 65_000 + i * 3, events: sendEvents(i),
    })),
    events: [{ type: 'mint', attributes: [{ key: 'amount', value: '12345achain', index: true }] }, { type: 'commission', attributes: [] }],
    validatorUpdates: [{ pubKey: new Uint8Array(32).fill(7), power: 10 }, { pubKey: new Uint8Array(32).fill(8), power: 0 }],
    appHash: new Uint8Array(32).fill(0xab),
    ...over,
  };
}

/** what a JSON record of `v` reads back as (the form every reader had) */
const viaJson = <T>(v: T): T => deserialize<T>(serialize(v));

describe('block store records', () => {
  it('a results record reads back as its JSON record did, in a fraction of the bytes', () => {
    for (const n of [0, 1, 7, 500]) {
      const r = results(n);
      const { record, eventLists } = encodeResults(r);
      expect(record[0], 'binary').to.equal(0x01);
      expect(decodeResults(record), `${n} txs`).to.deep.equal(viaJson(r));
      expect(eventLists).to.not.equal(undefined);
      if (n === 500) expect(record.length, 'bytes').to.be.lessThan(serialize(r).length / 5);
    }
    const none = results(3, { validatorUpdates: [], events: [] });
    expect(decodeResults(encodeResults(none).record)).to.deep.equal(viaJson(none));
  });

  it('hands over its event lists: the block\'s events, then each tx\'s', () => {
    const r = results(20);
    const { eventLists } = encodeResults(r);
    const lists = readEventLists(new BinaryReader(eventLists!));
    expect(lists).to.deep.equal(viaJson([r.events, ...r.txResults.map((t) => t.events)]));
  });

  it('is JSON when a field does not fit (gas that is no non-negative safe integer, an event value that is no string), and reads back the same', () => {
    const base = results(3);
    const odd: StoredResults[] = [
      { ...base, txResults: base.txResults.map((t, i) => (i === 1 ? { ...t, gasWanted: 200000n as unknown as number } : t)) },
      { ...base, txResults: base.txResults.map((t, i) => (i === 2 ? { ...t, gasUsed: -1 } : t)) },
      { ...base, txResults: base.txResults.map((t, i) => (i === 0 ? { ...t, gasUsed: 2 ** 60 } : t)) },
      { ...base, events: [{ type: 'x', attributes: [{ key: 'n', value: 5 as unknown as string }] }] },
      { ...base, validatorUpdates: [{ pubKey: new Uint8Array(32), power: 1.5 }] },
    ];
    for (const r of odd) {
      const { record, eventLists } = encodeResults(r);
      expect(record[0], 'JSON').to.equal(0x7b);
      expect(eventLists).to.equal(undefined);
      expect(decodeResults(record)).to.deep.equal(viaJson(r));
    }
  });

  it('reads the JSON records written before, and refuses a record of no known form', () => {
    const r = results(4);
    expect(decodeResults(serialize(r))).to.deep.equal(viaJson(r));
    const b = storedBlock(3);
    expect(decodeBlock(serialize(b))).to.deep.equal(viaJson(b));
    expect(() => decodeResults(Uint8Array.of(0x02, 0))).to.throw(/unknown results record form 2/);
    expect(() => decodeBlock(Uint8Array.of(0x05))).to.throw(/unknown block record form 5/);
    const { record } = encodeResults(r);
    expect(() => decodeResults(record.subarray(0, record.length - 3))).to.throw(/truncated/);
  });

  it('a block record keeps the txs as bytes and the rest as its JSON record', () => {
    for (const n of [0, 1, 300]) {
      const b = storedBlock(n);
      const record = encodeBlock(b);
      expect(record[0]).to.equal(0x01);
      const back = decodeBlock(record);
      expect(back).to.deep.equal(viaJson(b));
      for (const t of back.block.data.txs) expect(t).to.be.instanceOf(Uint8Array);
      if (n === 300) expect(record.length).to.be.lessThan(serialize(b).length * 0.8);
    }
    // the block given is not changed
    const b = storedBlock(2);
    encodeBlock(b);
    expect(b.block.data.txs.length).to.equal(2);
  });
});

function storedBlock(n: number): StoredBlock {
  return {
    block: {
      header: { version: { block: 11n, app: 0n }, chainId: 'test', height: 7, time: { seconds: 1700000000, nanos: 5 }, appHash: new Uint8Array(32).fill(1), proposerAddress: new Uint8Array(20).fill(2) },
      data: { txs: Array.from({ length: n }, (_, i) => new Uint8Array(200 + (i % 50)).fill(i & 0xff)) },
      evidence: [],
      lastCommit: { height: 6, round: 0, blockId: { hash: new Uint8Array(32).fill(3) }, signatures: [{ blockIdFlag: 2, signature: new Uint8Array(64).fill(4) }] },
    },
    blockId: { hash: new Uint8Array(32).fill(9), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(8) } },
    size: 1234,
  } as unknown as StoredBlock;
}
