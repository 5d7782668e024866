import { expect } from 'chai';
import {
  fixedBytesKey,
  EncodingError,
  boolKey,
  bytesKey,
  int64Key,
  lengthPrefixedBytesKey,
  stringKey,
  uint32Key,
  uint64Key,
} from '../src/index.js';
import type { KeyCodec } from '../src/index.js';
import { SEED, cmpBytes, cmpCodePoints, fromHex, hex, randBytes, randInt, randString, randU64, rng, sign, u } from './helpers.js';

const MAX_U64 = (1n << 64n) - 1n;
const MIN_I64 = -(1n << 63n);
const MAX_I64 = (1n << 63n) - 1n;

/** Every sample round-trips through both encodings, and the non-terminal decode reports its length. */
function roundTrips<K>(kc: KeyCodec<K>, samples: K[]): void {
  for (const k of samples) {
    expect(kc.decode(kc.encode(k)), `terminal ${kc.stringify(k)}`).to.deep.equal(k);
    expect(kc.size(k)).to.equal(kc.encode(k).length);
    const nt = kc.encodeNonTerminal(k);
    expect(kc.sizeNonTerminal(k)).to.equal(nt.length);
    expect(kc.decodeNonTerminal(nt), `non-terminal ${kc.stringify(k)}`).to.deep.equal(k);
    // followed by other bytes, the non-terminal reader stops at its own end
    const buf = new Uint8Array(nt.length + 3).fill(0xab);
    buf.set(nt, 0);
    const cur = { pos: 0, end: buf.length };
    expect(kc.readNonTerminal(buf, cur)).to.deep.equal(k);
    expect(cur.pos).to.equal(nt.length);
  }
}

/** For random pairs, the byte order of the encoding equals `order` (seeded; the seed is in the title). */
function preservesOrder<K>(kc: KeyCodec<K>, gen: (r: () => number) => K, order: (a: K, b: K) => number, nonTerminal = false): void {
  const r = rng(SEED);
  const enc = (k: K) => (nonTerminal ? kc.encodeNonTerminal(k) : kc.encode(k));
  for (let i = 0; i < 3000; i++) {
    const a = gen(r);
    const b = i % 10 === 0 ? a : gen(r);
    expect(sign(cmpBytes(enc(a), enc(b))), `seed ${SEED} #${i}: ${kc.stringify(a)} vs ${kc.stringify(b)}`).to.equal(sign(order(a, b)));
  }
}

describe('key codecs', () => {
  describe('uint64Key', () => {
    it('encodes 8 bytes big-endian in both positions (SDK Uint64Key)', () => {
      expect(hex(uint64Key.encode(0n))).to.equal('0000000000000000');
      expect(hex(uint64Key.encode(1n))).to.equal('0000000000000001');
      expect(hex(uint64Key.encode(0x0102030405060708n))).to.equal('0102030405060708');
      expect(hex(uint64Key.encode(MAX_U64))).to.equal('ffffffffffffffff');
      expect(hex(uint64Key.encodeNonTerminal(258n))).to.equal('0000000000000102');
    });

    it('round-trips edge values', () => {
      roundTrips(uint64Key, [0n, 1n, 255n, 256n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, MAX_U64 - 1n, MAX_U64]);
    });

    it(`preserves numeric order (random, seed ${SEED})`, () => {
      preservesOrder(uint64Key, randU64, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
    });

    it('refuses out-of-range and non-bigint keys, and wrong lengths', () => {
      expect(() => uint64Key.encode(-1n)).to.throw(EncodingError, /uint64 key/);
      expect(() => uint64Key.encode(MAX_U64 + 1n)).to.throw(EncodingError);
      expect(() => uint64Key.encode(5 as unknown as bigint)).to.throw(EncodingError, /number/);
      expect(() => uint64Key.decode(u(1, 2, 3))).to.throw(EncodingError, /want 8 bytes, got 3/);
      expect(() => uint64Key.decode(new Uint8Array(9))).to.throw(EncodingError);
      expect(() => uint64Key.decodeNonTerminal(new Uint8Array(7))).to.throw(EncodingError);
    });
  });

  describe('int64Key', () => {
    it('encodes big-endian two\'s complement with the sign bit flipped (SDK Int64Key)', () => {
      expect(hex(int64Key.encode(0n))).to.equal('8000000000000000');
      expect(hex(int64Key.encode(-1n))).to.equal('7fffffffffffffff');
      expect(hex(int64Key.encode(1n))).to.equal('8000000000000001');
      expect(hex(int64Key.encode(MIN_I64))).to.equal('0000000000000000');
      expect(hex(int64Key.encode(MAX_I64))).to.equal('ffffffffffffffff');
    });

    it('round-trips edge values', () => {
      roundTrips(int64Key, [MIN_I64, MIN_I64 + 1n, -(2n ** 53n), -256n, -1n, 0n, 1n, 2n ** 53n, MAX_I64 - 1n, MAX_I64]);
    });

    it(`preserves numeric order across the sign (random, seed ${SEED})`, () => {
      preservesOrder(int64Key, (r) => randU64(r) - (1n << 63n), (a, b) => (a < b ? -1 : a > b ? 1 : 0));
    });

    it('refuses out-of-range keys', () => {
      expect(() => int64Key.encode(MAX_I64 + 1n)).to.throw(EncodingError, /int64 key/);
      expect(() => int64Key.encode(MIN_I64 - 1n)).to.throw(EncodingError);
    });
  });

  describe('uint32Key', () => {
    it('encodes 4 bytes big-endian', () => {
      expect(hex(uint32Key.encode(0))).to.equal('00000000');
      expect(hex(uint32Key.encode(0x01020304))).to.equal('01020304');
      expect(hex(uint32Key.encode(0xffffffff))).to.equal('ffffffff');
    });

    it(`round-trips and preserves order (random, seed ${SEED})`, () => {
      roundTrips(uint32Key, [0, 1, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff]);
      preservesOrder(uint32Key, (r) => randInt(r, 2 ** 32), (a, b) => a - b);
    });

    it('refuses non-integers, negatives and values >= 2^32', () => {
      for (const bad of [-1, 1.5, 2 ** 32, NaN, 1n as unknown as number]) {
        expect(() => uint32Key.encode(bad), String(bad)).to.throw(EncodingError, /uint32 key/);
      }
    });
  });

  describe('boolKey', () => {
    it('encodes false as 0x00 and true as 0x01, false first', () => {
      expect(hex(boolKey.encode(false))).to.equal('00');
      expect(hex(boolKey.encode(true))).to.equal('01');
      roundTrips(boolKey, [false, true]);
    });

    it('refuses other bytes and non-booleans', () => {
      expect(() => boolKey.decode(u(2))).to.throw(EncodingError, /invalid byte 2/);
      expect(() => boolKey.decode(u())).to.throw(EncodingError);
      expect(() => boolKey.encode(1 as unknown as boolean)).to.throw(EncodingError);
    });
  });

  describe('bytesKey', () => {
    it('is the raw bytes when terminal and one length byte + bytes when non-terminal (SDK BytesKey)', () => {
      expect(hex(bytesKey.encode(u(1, 2, 3)))).to.equal('010203');
      expect(hex(bytesKey.encodeNonTerminal(u(1, 2, 3)))).to.equal('03010203');
      expect(hex(bytesKey.encodeNonTerminal(u()))).to.equal('00');
      expect(hex(bytesKey.encode(u()))).to.equal('');
    });

    it('round-trips, including empty and 255-byte keys', () => {
      roundTrips(bytesKey, [u(), u(0), u(0xff), u(1, 2, 3), new Uint8Array(255).fill(7)]);
    });

    it('decodes into a standalone copy', () => {
      const buf = u(9, 1, 2, 9);
      const k = bytesKey.read(buf, 1, 3);
      buf[1] = 7;
      expect(hex(k)).to.equal('0102');
      expect(k.byteOffset).to.equal(0);
      expect(k.buffer.byteLength).to.equal(2);
    });

    it(`terminal order is bytewise; non-terminal order is by length, then bytewise (random, seed ${SEED})`, () => {
      preservesOrder(bytesKey, (r) => randBytes(r, 6, 4), cmpBytes);
      preservesOrder(bytesKey, (r) => randBytes(r, 6, 4), (a, b) => a.length - b.length || cmpBytes(a, b), true);
    });

    it('refuses a non-terminal key over 255 bytes and truncated non-terminal encodings', () => {
      expect(() => bytesKey.encodeNonTerminal(new Uint8Array(256))).to.throw(EncodingError, /at most 255 bytes, got 256/);
      expect(() => bytesKey.decodeNonTerminal(u(3, 1, 2))).to.throw(EncodingError, /says 3 bytes, only 2 left/);
      expect(() => bytesKey.decodeNonTerminal(u())).to.throw(EncodingError);
      expect(() => bytesKey.decodeNonTerminal(u(1, 1, 2))).to.throw(EncodingError, /trailing/);
      expect(() => bytesKey.encode('ab' as unknown as Uint8Array)).to.throw(EncodingError, /not a Uint8Array/);
    });
  });

  describe('lengthPrefixedBytesKey', () => {
    it('length-prefixes in both positions (SDK LengthPrefixedBytesKey)', () => {
      expect(hex(lengthPrefixedBytesKey.encode(u(0xaa, 0xbb)))).to.equal('02aabb');
      expect(hex(lengthPrefixedBytesKey.encodeNonTerminal(u(0xaa, 0xbb)))).to.equal('02aabb');
      roundTrips(lengthPrefixedBytesKey, [u(), u(1), new Uint8Array(255).fill(1)]);
      expect(() => lengthPrefixedBytesKey.decode(u(1, 5, 6))).to.throw(EncodingError, /trailing/);
    });
  });

  describe('stringKey', () => {
    it('is UTF-8 when terminal and UTF-8 + 0x00 when non-terminal (SDK StringKey)', () => {
      expect(hex(stringKey.encode('ab'))).to.equal('6162');
      expect(hex(stringKey.encodeNonTerminal('ab'))).to.equal('616200');
      expect(hex(stringKey.encode('é😀'))).to.equal('c3a9f09f9880');
      expect(hex(stringKey.encodeNonTerminal(''))).to.equal('00');
    });

    it('round-trips ASCII, multi-byte, astral, BOM-led and long strings', () => {
      roundTrips(stringKey, ['', 'a', 'uatom', 'é', '日本語', '😀x', '\ufeffbom', 'x'.repeat(100), 'é'.repeat(40) + '😀']);
      expect(stringKey.decode(stringKey.encode('a\u0000b'))).to.equal('a\u0000b'); // NUL is fine when terminal
    });

    it(`preserves code point order in both positions (random, seed ${SEED})`, () => {
      preservesOrder(stringKey, (r) => randString(r, 4, true), cmpCodePoints);
      preservesOrder(stringKey, (r) => randString(r, 4), cmpCodePoints, true);
    });

    it('refuses NUL in a non-terminal key, lone surrogates, invalid UTF-8 and a missing terminator', () => {
      expect(() => stringKey.encodeNonTerminal('a\u0000b')).to.throw(EncodingError, /may not contain NUL/);
      expect(() => stringKey.encode('a\ud800')).to.throw(EncodingError, /lone surrogate/);
      expect(() => stringKey.decode(u(0xc3))).to.throw(EncodingError, /invalid UTF-8/);
      expect(() => stringKey.decode(fromHex('ff'))).to.throw(EncodingError, /invalid UTF-8/);
      expect(() => stringKey.decodeNonTerminal(u(0x61, 0x62))).to.throw(EncodingError, /no NUL terminator/);
      expect(() => stringKey.encode(5 as unknown as string)).to.throw(EncodingError, /not a string/);
    });
  });
});

describe('fixedBytesKey', () => {
  const k = fixedBytesKey(20);
  const a = Uint8Array.from({ length: 20 }, (_, i) => i + 1);

  it('writes the bytes as they are, terminal and non-terminal (no length prefix), and reads them back', () => {
    expect(hex(k.encode(a))).to.equal(hex(a));
    expect(hex(k.encodeNonTerminal(a))).to.equal(hex(a));
    expect(hex(k.decode(k.encode(a)))).to.equal(hex(a));
    // as the first part of a pair, the next part starts right after the 20 bytes
    const buf = new Uint8Array(25);
    k.writeNonTerminal(buf, 0, a);
    const cur = { pos: 0, end: 25 };
    expect(hex(k.readNonTerminal(buf, cur))).to.equal(hex(a));
    expect(cur.pos).to.equal(20);
    expect(k.keyType).to.equal('bytes20');
  });

  it('refuses another length (writing and reading) and a non-bytes key', () => {
    expect(() => k.encode(new Uint8Array(19))).to.throw(EncodingError, 'bytes20 key: want 20 bytes, got 19');
    expect(() => k.decode(new Uint8Array(21))).to.throw(EncodingError, 'bytes20 key: want 20 bytes, got 21');
    expect(() => k.readNonTerminal(new Uint8Array(10), { pos: 0, end: 10 })).to.throw(EncodingError, '10 left');
    expect(() => k.encode('x' as unknown as Uint8Array)).to.throw(EncodingError, 'got string');
    expect(() => fixedBytesKey(0)).to.throw('bad length 0');
  });
});
