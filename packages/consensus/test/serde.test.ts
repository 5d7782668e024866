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
});
