import { expect } from 'chai';
import { deserialize, serialize } from '../src/serde.js';

describe('block-store serde', () => {
  it('round-trips Uint8Arrays, Buffers, bigints and Dates, nested and in arrays', () => {
    const v = {
      raw: Uint8Array.of(1, 2, 3),
      buf: Buffer.from([4, 5]),
      sub: Uint8Array.of(9, 8, 7, 6).subarray(2),
      txs: [Buffer.from('tx1'), Uint8Array.of(), Uint8Array.of(0xff)],
      n: 12345678901234567890n,
      when: new Date('2024-05-06T07:08:09.123Z'),
      nested: { deep: [{ data: Buffer.from([0]) }] },
      plain: { s: 'x', k: 1, nil: null, arr: [1, 'a'] },
    };
    const back = deserialize<typeof v>(serialize(v));
    for (const b of [back.raw, back.buf, back.sub, ...back.txs, back.nested.deep[0]!.data]) expect(b).to.be.instanceOf(Uint8Array);
    expect([...back.raw]).to.deep.equal([1, 2, 3]);
    expect([...back.buf]).to.deep.equal([4, 5]);
    expect([...back.sub]).to.deep.equal([7, 6]);
    expect(back.txs.map((t) => [...t])).to.deep.equal([[...Buffer.from('tx1')], [], [0xff]]);
    expect([...back.nested.deep[0]!.data]).to.deep.equal([0]);
    expect(back.n).to.equal(12345678901234567890n);
    expect(back.when).to.be.instanceOf(Date);
    expect(back.when.toISOString()).to.equal('2024-05-06T07:08:09.123Z');
    expect(back.plain).to.deep.equal(v.plain);
  });

  it('writes the same bytes as JSON.stringify with the replacer it had (records written before read the same)', () => {
    // the earlier serializer, as it was
    const before = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v, function (this: Record<string, unknown>, k: string, json: unknown) {
      const x = this[k];
      if (x instanceof Uint8Array) return { $b: Buffer.from(x).toString('base64') };
      if (typeof x === 'bigint') return { $n: x.toString() };
      if (x instanceof Date) return { $d: x.toISOString() };
      return json;
    }));
    class Long { constructor(readonly low: number, readonly high: number) {} toJSON(): string { return `${this.high}:${this.low}`; } }
    class Header { version = { block: 11n }; hash = Uint8Array.of(1); skipped = undefined; fn = (): number => 1; }
    const events = (i: number): unknown[] => [
      { type: 'coin_spent', attributes: [{ key: 'spender', value: `chain1${i}`, index: true }, { key: 'amount', value: `${i}achain`, index: true }] },
      { type: 'message', attributes: [{ key: 'action', value: '/cosmos.bank.v1beta1.MsgSend', index: true }, { key: 'unicode', value: 'é ✓ "quoted" \\ \n', index: false }] },
    ];
    const values: unknown[] = [
      null, 0, -0, 1.5, NaN, Infinity, 'text', true, 7n, -7n, new Date(0), Uint8Array.of(), Buffer.from('hi'),
      [], [1, undefined, () => 1, null, 2n, [Uint8Array.of(3)]], {}, { a: undefined, b: () => 1, c: null },
      { nested: { deep: [{ data: Buffer.from([0]), n: 5n, when: new Date('2024-05-06T07:08:09.123Z') }] }, after: 'x' },
      { '2': 'two', '1': 'one', b: Uint8Array.of(9), a: 1 },
      { long: new Long(5, 1), longs: [new Long(1, 2)], header: new Header() },
      // a results record of 50 txs, with nothing to replace in the events
      {
        height: 12, events: events(0), validatorUpdates: [], appHash: Uint8Array.of(0xaa, 0xbb),
        txResults: Array.from({ length: 50 }, (_, i) => ({ code: i % 3, codespace: '', log: '', info: '', data: Uint8Array.of(i), gasWanted: 200000n, gasUsed: BigInt(50000 + i), events: events(i) })),
      },
    ];
    for (const v of values) expect(Buffer.from(serialize(v)).toString(), JSON.stringify(String(v))).to.equal(Buffer.from(before(v)).toString());
    // the values given are not changed
    const v = { data: Uint8Array.of(1), list: [2n] };
    serialize(v);
    expect(v.data).to.be.instanceOf(Uint8Array);
    expect(v.list[0]).to.equal(2n);
  });
});
