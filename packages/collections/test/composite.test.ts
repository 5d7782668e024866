import { expect } from 'chai';
import { EncodingError, bytesKey, pairKey, stringKey, tripleKey, uint64Key, boolKey } from '../src/index.js';
import { SEED, cmpBytes, cmpCodePoints, hex, randBytes, randInt, randString, randU64, rng, sign, u } from './helpers.js';

const cmpBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
/** non-terminal bytes order: by length, then bytewise */
const cmpBytesNT = (a: Uint8Array, b: Uint8Array): number => a.length - b.length || cmpBytes(a, b);

describe('composite keys', () => {
  describe('pairKey', () => {
    it('lays out k1 non-terminal then k2 terminal (SDK PairKeyCodec)', () => {
      const p = pairKey(stringKey, uint64Key);
      expect(hex(p.encode(['ab', 5n]))).to.equal('616200' + '0000000000000005');
      const q = pairKey(bytesKey, bytesKey);
      expect(hex(q.encode([u(0xaa), u(0xbb, 0xcc)]))).to.equal('01aa' + 'bbcc');
      expect(hex(q.encodeNonTerminal([u(0xaa), u(0xbb, 0xcc)]))).to.equal('01aa' + '02bbcc');
      expect(p.keyType).to.equal('Pair[string, uint64]');
    });

    it('round-trips and decodes into a fresh tuple', () => {
      const p = pairKey(bytesKey, stringKey);
      for (const k of [[u(), ''], [u(1, 2), 'uatom'], [new Uint8Array(255), 'é😀']] as [Uint8Array, string][]) {
        expect(p.decode(p.encode(k))).to.deep.equal(k);
        expect(p.decodeNonTerminal(p.encodeNonTerminal(k))).to.deep.equal(k);
      }
    });

    it('encodes a partial key [k1] as the non-terminal k1, a byte prefix of every full key with that k1', () => {
      const p = pairKey(stringKey, uint64Key);
      const pre = p.prefix!;
      expect(pre.isPrefix(['ab'])).to.equal(true);
      expect(pre.isPrefix(['ab', 1n])).to.equal(false);
      const buf = new Uint8Array(pre.size(['ab']));
      pre.write(buf, 0, ['ab']);
      expect(hex(buf)).to.equal('616200');
      // 'ab' is not a prefix of 'abc' keys: the NUL separates them
      expect(hex(p.encode(['abc', 0n])).startsWith(hex(buf))).to.equal(false);
      expect(hex(p.encode(['ab', 7n])).startsWith(hex(buf))).to.equal(true);
    });

    it(`orders by k1 (its non-terminal order), then k2 (random, seed ${SEED})`, () => {
      const r = rng(SEED);
      const p = pairKey(stringKey, uint64Key);
      const q = pairKey(bytesKey, stringKey);
      for (let i = 0; i < 3000; i++) {
        const a: [string, bigint] = [randString(r, 3), randU64(r)];
        const b: [string, bigint] = i % 5 === 0 ? [a[0], randU64(r)] : [randString(r, 3), randU64(r)];
        const want = cmpCodePoints(a[0], b[0]) || cmpBig(a[1], b[1]);
        expect(sign(cmpBytes(p.encode(a), p.encode(b))), `seed ${SEED} #${i}`).to.equal(sign(want));

        const c: [Uint8Array, string] = [randBytes(r, 3, 3), randString(r, 3, true)];
        const d: [Uint8Array, string] = i % 5 === 0 ? [c[0], randString(r, 3, true)] : [randBytes(r, 3, 3), randString(r, 3, true)];
        const want2 = cmpBytesNT(c[0], d[0]) || cmpCodePoints(c[1], d[1]);
        expect(sign(cmpBytes(q.encode(c), q.encode(d))), `seed ${SEED} #${i} bytes`).to.equal(sign(want2));
      }
    });

    it('refuses wrong shapes and corrupted encodings', () => {
      const p = pairKey(stringKey, uint64Key);
      expect(() => p.encode(['a'] as unknown as [string, bigint])).to.throw(EncodingError, /want an array of 2 parts, got an array of 1/);
      expect(() => p.encode('a' as unknown as [string, bigint])).to.throw(EncodingError, /got string/);
      expect(() => p.encode(['a\u0000', 1n])).to.throw(EncodingError, /NUL/);
      expect(() => p.decode(u(0x61, 0, 1, 2))).to.throw(EncodingError, /want 8 bytes, got 2/);
      expect(() => p.decode(u(0x61, 0x62))).to.throw(EncodingError, /no NUL terminator/);
    });
  });

  describe('tripleKey', () => {
    it('lays out k1 and k2 non-terminal, k3 terminal (SDK TripleKeyCodec)', () => {
      const t = tripleKey(bytesKey, stringKey, bytesKey);
      expect(hex(t.encode([u(1), 'x', u(2, 3)]))).to.equal('0101' + '7800' + '0203');
      expect(t.keyType).to.equal('Triple[bytes, string, bytes]');
    });

    it('round-trips and supports partial keys of one and two parts', () => {
      const t = tripleKey(uint64Key, boolKey, stringKey);
      const k: [bigint, boolean, string] = [3n, true, 'z'];
      expect(t.decode(t.encode(k))).to.deep.equal(k);
      const pre = t.prefix!;
      expect(pre.isPrefix([3n])).to.equal(true);
      expect(pre.isPrefix([3n, true])).to.equal(true);
      expect(pre.isPrefix(k)).to.equal(false);
      const b = new Uint8Array(pre.size([3n, true]));
      pre.write(b, 0, [3n, true]);
      expect(hex(b)).to.equal('0000000000000003' + '01');
      expect(() => pre.size([] as unknown as [bigint])).to.throw(EncodingError, /1 to 2 parts/);
    });

    it(`orders part by part (random, seed ${SEED})`, () => {
      const r = rng(SEED + 1);
      const t = tripleKey(uint64Key, stringKey, uint64Key);
      const gen = (): [bigint, string, bigint] => [BigInt(randInt(r, 3)), randString(r, 2), randU64(r)];
      for (let i = 0; i < 3000; i++) {
        const a = gen();
        const b = gen();
        const want = cmpBig(a[0], b[0]) || cmpCodePoints(a[1], b[1]) || cmpBig(a[2], b[2]);
        expect(sign(cmpBytes(t.encode(a), t.encode(b))), `seed ${SEED + 1} #${i}`).to.equal(sign(want));
      }
    });
  });

  it('nests: a pair whose first part is a pair', () => {
    const inner = pairKey(stringKey, uint64Key);
    const outer = pairKey(inner, bytesKey);
    const k: [[string, bigint], Uint8Array] = [['a', 1n], u(9)];
    expect(hex(outer.encode(k))).to.equal('6100' + '0000000000000001' + '09');
    expect(outer.decode(outer.encode(k))).to.deep.equal(k);
  });
});
