import { expect } from 'chai';
import { BinaryReader, BinaryWriter, readEventLists, writeEventLists } from '../src/index.js';
import type { Event } from '../src/index.js';

const lists = (): Event[][] => [
  [{ type: 'mint', attributes: [{ key: 'amount', value: '100stake', index: true }] }],
  [],
  [
    { type: 'message', attributes: [{ key: 'action', value: '/cosmos.bank.v1beta1.MsgSend', index: true }, { key: 'sender', value: 'cosmos1abc', index: false }] },
    { type: 'coin_spent', attributes: [{ key: 'spender', value: 'cosmos1abc' }, { key: '', value: '' }] },
    { type: 'empty', attributes: [] },
    { type: 'unicode é ✓', attributes: [{ key: 'k "q" \\ \n', value: 'é ✓ 🙂 \u0000 \u00ff', index: true }] },
  ],
];

function roundTrip(l: readonly (readonly Event[])[]): Event[][] {
  const w = new BinaryWriter(1);
  expect(writeEventLists(w, l)).to.equal(true);
  const r = new BinaryReader(w.view());
  const back = readEventLists(r);
  expect(r.pos, 'all of it read').to.equal(w.pos);
  return back;
}

describe('binary event lists', () => {
  it('round-trip: types, keys and values (ASCII and not, empty), index absent, false or true, empty lists and events', () => {
    const back = roundTrip(lists());
    expect(back).to.deep.equal(lists());
    // absent stays absent (a JSON record dropped nothing either)
    expect(Object.keys(back[2]![1]!.attributes[0]!)).to.deep.equal(['key', 'value']);
    expect(Object.keys(back[2]![0]!.attributes[1]!)).to.deep.equal(['key', 'value', 'index']);
    expect(roundTrip([])).to.deep.equal([]);
  });

  it('writes each distinct string once, and numbers past one varint byte (many strings, long strings)', () => {
    const many: Event[] = Array.from({ length: 3000 }, (_, i) => ({
      type: `t${i % 7}`, attributes: [{ key: 'sender', value: `addr${i % 1000}`, index: true }, { key: 'memo', value: 'x'.repeat(i % 300) + (i % 2 ? 'é' : '') }],
    }));
    const long: Event[] = [{ type: 'big', attributes: [{ key: 'v', value: 'v'.repeat(70_000) }, { key: 'u', value: '✓'.repeat(40_000) }] }];
    const w = new BinaryWriter(16);
    expect(writeEventLists(w, [many, long])).to.equal(true);
    expect(readEventLists(new BinaryReader(w.view()))).to.deep.equal([many, long]);
    const same: Event[] = Array.from({ length: 100 }, () => ({ type: 'transfer', attributes: [{ key: 'sender', value: 'cosmos1' + 'q'.repeat(38) }] }));
    const w2 = new BinaryWriter();
    writeEventLists(w2, [same]);
    expect(w2.pos, '100 events of the same strings: 4 bytes each, the strings once').to.be.lessThan(4 * 100 + 80);
  });

  it('refuses events that are not all strings, leaving the writer as it was', () => {
    for (const bad of [
      [{ type: 1, attributes: [] }],
      [{ type: 't', attributes: [{ key: 'k', value: 5 }] }],
      [{ type: 't', attributes: [{ key: undefined, value: 'v' }] }],
      [{ type: 't', attributes: [{ key: 'k', value: 'v', index: 'yes' }] }],
      [{ type: 't' }],
    ] as unknown as Event[][]) {
      const w = new BinaryWriter();
      w.uint(300);
      const before = w.view().slice();
      expect(writeEventLists(w, [[{ type: 'ok', attributes: [] }], bad])).to.equal(false);
      expect(w.view()).to.deep.equal(before);
    }
  });

  it('varints, bytes and strings at their edges; a truncated or malformed input throws', () => {
    const w = new BinaryWriter(1);
    const nums = [0, 1, 127, 128, 16383, 16384, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER];
    for (const n of nums) w.uint(n);
    w.bytes(Uint8Array.of(1, 2, 3));
    w.bytes(new Uint8Array(0));
    w.string('');
    w.string('abc');
    w.string('é');
    const r = new BinaryReader(w.view());
    for (const n of nums) expect(r.uint()).to.equal(n);
    expect([...r.bytes()]).to.deep.equal([1, 2, 3]);
    expect(r.bytesView().length).to.equal(0);
    expect([r.string(), r.string(), r.string()]).to.deep.equal(['', 'abc', 'é']);
    expect(() => r.uint()).to.throw(/truncated/);

    const full = new BinaryWriter();
    writeEventLists(full, lists());
    const bytes = full.view();
    for (let cut = 0; cut < bytes.length; cut += 7) {
      expect(() => readEventLists(new BinaryReader(bytes, 0, cut)), `cut at ${cut}`).to.throw(/binary record/);
    }
    // a string number past the table
    const bad = new BinaryWriter();
    bad.uint(1); bad.string('a'); bad.uint(1); bad.uint(1); bad.uint(5); bad.uint(0);
    expect(() => readEventLists(new BinaryReader(bad.view()))).to.throw(/bad string number/);
    expect(() => new BinaryReader(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)).uint()).to.throw(/too long/);
  });

  it('strings of every length around the native path and the prefix sizes, ASCII or not, read back the same', () => {
    const samples: string[] = [];
    for (const n of [0, 1, 23, 24, 25, 26, 31, 32, 50, 63, 64, 65, 100, 8191, 8192, 8193]) {
      samples.push('a'.repeat(n));
      if (n > 0) {
        samples.push('a'.repeat(n - 1) + 'é'); // one 2-byte character at the end
        samples.push('é'.repeat(n)); // latin-1 characters: 2 bytes each, so a longer prefix than the ASCII guess
        samples.push('✓' + 'b'.repeat(n)); // a 3-byte character first
        samples.push('🙂'.repeat(Math.ceil(n / 2))); // surrogate pairs: 4 bytes for 2 code units
      }
    }
    const w = new BinaryWriter(1);
    for (const s of samples) w.string(s);
    const r = new BinaryReader(w.view());
    for (const s of samples) expect(r.string(), JSON.stringify(s.slice(0, 30))).to.equal(s);
    expect(r.pos).to.equal(w.pos);
  });

  it('reads a view inside a larger buffer, from an offset', () => {
    const w = new BinaryWriter();
    w.string('before');
    const start = w.pos;
    writeEventLists(w, lists());
    const padded = new Uint8Array(w.pos + 10);
    padded.set(w.view(), 5);
    const view = padded.subarray(5, 5 + w.pos);
    expect(readEventLists(new BinaryReader(view, start))).to.deep.equal(lists());
  });
});
