/** The table-driven bech32 of encoding.ts against @scure/base: same strings, same bytes, same errors. */
import { expect } from 'chai';
import { bech32 } from '@scure/base';
import { Bech32Codec, fromBech32, toBech32 } from '../src/index.js';

/** What fromBech32 returned before the fast path: @scure/base directly. */
function reference(text: string): { prefix: string; data: Uint8Array } | string {
  try {
    const { prefix, words } = bech32.decode(text as `${string}1${string}`, 1023);
    return { prefix, data: bech32.fromWords(words) };
  } catch (e) {
    return `decoding bech32 failed: ${(e as Error).message}`;
  }
}

function ours(text: string): { prefix: string; data: Uint8Array } | string {
  try {
    const { prefix, data } = fromBech32(text);
    return { prefix, data };
  } catch (e) {
    return (e as Error).message;
  }
}

/** A small deterministic PRNG (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

const PREFIXES = ['chain', 'chainvaloper', 'cosmos', 'a', 'x1y', 'a!~', 'plug'];
const ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7Lbio1 -_\u00e9\u0130';

describe('bech32 (table-driven fast path)', () => {
  it('encodes exactly as @scure/base for every length 0-100 and several prefixes', () => {
    const r = rng(7);
    for (const prefix of PREFIXES) {
      for (let len = 0; len <= 100; len++) {
        const data = new Uint8Array(len).map(() => r() & 0xff);
        const want = bech32.encode(prefix, bech32.toWords(data), false);
        expect(toBech32(prefix, data), `${prefix} ${len}`).to.equal(want);
        // twice: the memo answers the second time
        expect(toBech32(prefix, data)).to.equal(want);
      }
    }
    // prefixes the fast path leaves to @scure/base (uppercase is lowered there)
    expect(toBech32('Chain', Uint8Array.of(1, 2, 3))).to.equal(bech32.encode('Chain', bech32.toWords(Uint8Array.of(1, 2, 3)), false));
    expect(() => toBech32('', Uint8Array.of(1))).to.throw();
    expect(() => toBech32('a b', Uint8Array.of(1))).to.throw();
  });

  it('decodes valid strings as @scure/base (fresh bytes each time)', () => {
    const r = rng(11);
    for (const prefix of PREFIXES) {
      for (let len = 0; len <= 80; len++) {
        const data = new Uint8Array(len).map(() => r() & 0xff);
        const text = bech32.encode(prefix, bech32.toWords(data), false);
        const want = reference(text);
        if (typeof want === 'string') {
          expect(ours(text)).to.equal(want);
          continue;
        }
        const a = fromBech32(text);
        expect(a.prefix).to.equal(want.prefix);
        expect(a.data).to.deep.equal(want.data);
        a.data.fill(0xee);
        expect(fromBech32(text).data).to.deep.equal(want.data);
        expect(ours(text.toUpperCase())).to.deep.equal(reference(text.toUpperCase()));
      }
    }
  });

  it('refuses every corruption of valid strings with the message of @scure/base', () => {
    const r = rng(23);
    let n = 0;
    for (let k = 0; k < 4000; k++) {
      const prefix = PREFIXES[r() % PREFIXES.length]!;
      const data = new Uint8Array(r() % 40).map(() => r() & 0xff);
      let text = bech32.encode(prefix, bech32.toWords(data), false);
      // 1-3 edits: replace, insert or delete a character, or change the case of one
      const edits = 1 + (r() % 3);
      for (let e = 0; e < edits; e++) {
        const at = r() % (text.length + 1);
        const c = ALPHABET[r() % ALPHABET.length]!;
        const op = r() % 4;
        if (op === 0) text = text.slice(0, at) + c + text.slice(at + 1);
        else if (op === 1) text = text.slice(0, at) + c + text.slice(at);
        else if (op === 2) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + text.slice(at, at + 1).toUpperCase() + text.slice(at + 1);
      }
      const want = reference(text);
      const got = ours(text);
      if (typeof want === 'string') {
        n++;
        expect(got, text).to.equal(want);
      } else {
        expect(got, text).to.deep.equal(want);
      }
    }
    expect(n).to.be.greaterThan(3000);
  });

  it('refuses bad padding, lengths and separators as before', () => {
    // a valid checksum over words that do not pack into bytes (excess or non-zero padding)
    for (const words of [[1], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 1], [31, 31, 31]]) {
      const text = bech32.encode('chain', words, false);
      expect(ours(text)).to.equal(reference(text));
      expect(ours(text)).to.match(/^decoding bech32 failed: (Excess padding|Non-zero padding)/);
    }
    for (const text of ['', 'a1qqqqq', '1qqqqqqqq', 'chainqqqqqqqqq', 'chain1' + 'q'.repeat(1020), 'a1' + 'q'.repeat(1021), 'chain1\u0000qqqqqq']) {
      expect(ours(text)).to.deep.equal(reference(text));
    }
    expect(() => fromBech32(42 as unknown as string)).to.throw(/^decoding bech32 failed/);
  });

  it('Bech32Codec.decode keeps the SDK messages', () => {
    const c = new Bech32Codec('chain');
    const addr = new Uint8Array(20).fill(7);
    expect(c.decode(c.encode(addr))).to.deep.equal(addr);
    expect(() => c.decode('')).to.throw('empty address string is not allowed');
    expect(() => c.decode(toBech32('cosmos', addr))).to.throw('invalid Bech32 prefix; expected chain, got cosmos');
    expect(() => c.decode(toBech32('chain', new Uint8Array(0)))).to.throw('address length must be 1-255 bytes, got 0');
  });
});

describe('bech32: inputs that are not strings', () => {
  it('null and undefined throw the TypeError they always did', () => {
    expect(() => fromBech32(undefined as unknown as string)).to.throw(TypeError, "Cannot read properties of undefined (reading 'length')");
    expect(() => fromBech32(null as unknown as string)).to.throw(TypeError, "Cannot read properties of null (reading 'length')");
  });
});
