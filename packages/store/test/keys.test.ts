import { expect } from 'chai';
import { toKey, fromKey, compareKeys } from '../src/keys.js';

describe('internal keys (keys.ts)', () => {
  it('toKey/fromKey round-trip every length and byte, short keys and long, views included', () => {
    const all = Uint8Array.from({ length: 512 }, (_, i) => (i * 131 + 7) & 255);
    for (let n = 0; n <= 300; n++) {
      for (const b of [all.slice(0, n), all.subarray(100, 100 + n)]) {
        const k = toKey(b);
        expect(k.length).to.equal(n);
        expect(k).to.equal(Buffer.from(b).toString('latin1'));
        expect(Array.from(fromKey(k))).to.deep.equal(Array.from(b));
      }
    }
  });
  it('key order is byte order', () => {
    const a = toKey(Uint8Array.from([1, 2, 0xff, ...new Array(30).fill(0)]));
    const b = toKey(Uint8Array.from([1, 3, ...new Array(30).fill(0)]));
    expect(compareKeys(a, b)).to.equal(-1);
  });
});
