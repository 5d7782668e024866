import { expect } from 'chai';
import {
  NS_VERSIONS,
  decodeMeta,
  decodeVersionKey,
  decodeVersionValue,
  encodeMeta,
  encodeVersionValue,
  versionKey,
  versionPrefix,
} from '../src/index.js';
import { cmp, hex, randBytes, rng, u } from './helpers.js';

describe('key layout', () => {
  it('version keys: escape 0x00 as 0x00 0xFF, terminate with 0x00 0x00, BE64 height', () => {
    expect(hex(versionKey(u(0x61, 0, 0x62), 258))).to.equal('02' + '6100ff62' + '0000' + '0000000000000102');
    expect(hex(versionKey(u(), 0))).to.equal('02' + '0000' + '0000000000000000');
    expect(hex(versionKey(u(0xff), 2 ** 53 - 1))).to.equal('02ff0000001fffffffffffff');
    expect(versionPrefix(u(1))[0]).to.equal(NS_VERSIONS);
  });

  it('version keys sort like (key bytewise, height) and decode back', () => {
    const r = rng(21);
    const items: { key: Uint8Array; height: number; enc: Uint8Array }[] = [];
    for (let i = 0; i < 3000; i++) {
      const key = randBytes(r, 4);
      const height = r() < 0.1 ? Math.floor(r() * 2 ** 53) : Math.floor(r() * 300);
      items.push({ key, height, enc: versionKey(key, height) });
    }
    const byEnc = items.slice().sort((a, b) => cmp(a.enc, b.enc));
    const byPair = items.slice().sort((a, b) => cmp(a.key, b.key) || a.height - b.height);
    expect(byEnc.map((x) => `${hex(x.key)}@${x.height}`)).to.deep.equal(byPair.map((x) => `${hex(x.key)}@${x.height}`));
    for (const it of items) {
      const d = decodeVersionKey(it.enc);
      expect(hex(d.key)).to.equal(hex(it.key));
      expect(d.height).to.equal(it.height);
      // Prefix-free: the version prefix of a key only prefixes that key's entries.
      const p = versionPrefix(it.key);
      expect(hex(it.enc).startsWith(hex(p))).to.equal(true);
    }
    for (let i = 0; i < 2000; i++) {
      const a = randBytes(r, 3);
      const b = randBytes(r, 3);
      if (cmp(a, b) === 0) continue;
      expect(hex(versionKey(b, 7)).startsWith(hex(versionPrefix(a)))).to.equal(false);
    }
  });

  it('rejects malformed version keys and values', () => {
    expect(() => decodeVersionKey(u(2, 0, 0, 0, 0, 0, 0, 0, 0, 0))).to.throw();
    expect(() => decodeVersionKey(u(3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))).to.throw();
    expect(() => decodeVersionKey(u(2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))).to.throw(); // bad escape
    expect(() => decodeVersionValue(u())).to.throw();
    expect(() => decodeVersionValue(u(2))).to.throw();
    expect(() => decodeVersionValue(u(0, 0))).to.throw();
  });

  it('version values and metadata round-trip', () => {
    expect(hex(encodeVersionValue(undefined))).to.equal('00');
    expect(hex(encodeVersionValue(u()))).to.equal('01');
    expect(hex(encodeVersionValue(u(5, 6)))).to.equal('010506');
    expect(decodeVersionValue(u(0))).to.equal(undefined);
    expect(hex(decodeVersionValue(u(1))!)).to.equal('');
    expect(hex(decodeVersionValue(u(1, 5))!)).to.equal('05');
    const m = decodeMeta(encodeMeta(12345678901, u(1, 2)));
    expect(m.height).to.equal(12345678901);
    expect(hex(m.appHash)).to.equal('0102');
    expect(decodeMeta(encodeMeta(0, u())).appHash.length).to.equal(0);
  });
});
