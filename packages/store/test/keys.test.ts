import { expect } from 'chai';
import { toKey, fromKey, compareKeys, sortKeyStrings } from '../src/keys.js';
import { randBytes, rng } from './helpers.js';

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
  it('sortKeyStrings orders key strings as sort() does (byte order): shared prefixes, prefixes of each other, every byte', () => {
    const r = rng(77);
    for (const size of [0, 1, 2, 25, 300, 5000]) {
      const keys: string[] = [];
      for (let i = 0; i < size; i++) {
        // keys under a few long shared prefixes, some keys prefixes of others, tails of any bytes
        const prefix = ['', 's/k:acc/\x01', 's/k:bank/\x02\x14', 's/k:bank/\x02'][Math.floor(r() * 4)]!;
        const k = prefix + toKey(randBytes(r, r() < 0.5 ? 3 : 24));
        keys.push(k);
        if (r() < 0.1) keys.push(k); // equal keys too
      }
      const want = keys.slice().sort();
      sortKeyStrings(keys);
      expect(keys).to.deep.equal(want);
    }
    // a string with a character above 0xff (not a key string) is still sorted as sort() does
    const odd = Array.from({ length: 100 }, (_, i) => `k${String.fromCharCode((i * 7919) % 400)}${i}`);
    const want = odd.slice().sort();
    sortKeyStrings(odd);
    expect(odd).to.deep.equal(want);
  });
});
