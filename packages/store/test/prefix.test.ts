import { expect } from 'chai';
import { MemKVStore, branch, prefixEnd, prefixStore } from '../src/index.js';
import { Model, cmp, hex, hexEntries, randBytes, rng, u } from './helpers.js';

describe('prefixEnd', () => {
  it('handles the edge cases', () => {
    expect(prefixEnd(u())).to.equal(undefined);
    expect(prefixEnd(u(0xff))).to.equal(undefined);
    expect(prefixEnd(u(0xff, 0xff, 0xff))).to.equal(undefined);
    expect(hex(prefixEnd(u(0))!)).to.equal('01');
    expect(hex(prefixEnd(u(1, 2))!)).to.equal('0103');
    expect(hex(prefixEnd(u(1, 0xfe))!)).to.equal('01ff');
    expect(hex(prefixEnd(u(1, 0xff))!)).to.equal('02');
    expect(hex(prefixEnd(u(1, 0xff, 0xff))!)).to.equal('02');
    expect(hex(prefixEnd(u(0xfe, 0xff))!)).to.equal('ff');
  });

  it('does not modify its input', () => {
    const p = u(1, 0xff);
    prefixEnd(p);
    expect(hex(p)).to.equal('01ff');
  });

  it('is the smallest key above every key with the prefix (random check)', () => {
    const r = rng(3);
    for (let i = 0; i < 2000; i++) {
      const p = randBytes(r, 3);
      const k = randBytes(r, 5);
      const end = prefixEnd(p);
      const hasPrefix = k.length >= p.length && cmp(k.subarray(0, p.length), p) === 0;
      const inRange = cmp(k, p) >= 0 && (end === undefined || cmp(k, end) < 0);
      expect(inRange, `prefix ${hex(p)} key ${hex(k)}`).to.equal(hasPrefix);
    }
  });
});

describe('prefixStore', () => {
  it('stores prefix||key in the parent and strips the prefix on the way out', () => {
    const parent = new MemKVStore();
    const ps = prefixStore(parent, u(7, 0xff));
    ps.set(u(1), u(1));
    ps.set(u(), u(0));
    expect(hexEntries(parent.iterator())).to.deep.equal([
      ['07ff', '00'],
      ['07ff01', '01'],
    ]);
    expect(ps.get(u(1))).to.deep.equal(u(1));
    expect(ps.has(u())).to.equal(true);
    ps.delete(u());
    expect(parent.has(u(7, 0xff))).to.equal(false);
  });

  it('iterates only its own keys, with relative bounds, in both directions', () => {
    const parent = new MemKVStore();
    for (const k of [u(7), u(7, 0xfe, 9), u(7, 0xff), u(7, 0xff, 0), u(7, 0xff, 5), u(7, 0xff, 0xff, 0xff), u(8), u(8, 0)]) {
      parent.set(k, u(k.length));
    }
    const ps = prefixStore(parent, u(7, 0xff));
    const keys = (s?: Uint8Array, e?: Uint8Array, r = false) => [...ps.iterator(s, e, r)].map(([k]) => hex(k));
    expect(keys()).to.deep.equal(['', '00', '05', 'ffff']);
    expect(keys(undefined, undefined, true)).to.deep.equal(['ffff', '05', '00', '']);
    expect(keys(u(0), u(0xff))).to.deep.equal(['00', '05']);
    expect(keys(u(1), undefined, true)).to.deep.equal(['ffff', '05']);
    expect(keys(undefined, u(5), true)).to.deep.equal(['00', '']);
    // A prefix without an end (all 0xFF) and the empty prefix.
    expect([...prefixStore(parent, u(0xff)).iterator()]).to.deep.equal([]);
    parent.set(u(0xff, 1), u(1));
    expect([...prefixStore(parent, u(0xff)).iterator()].map(([k]) => hex(k))).to.deep.equal(['01']);
    expect([...prefixStore(parent, u()).iterator()].length).to.equal(9);
  });

  it('works over a branch and matches a model of the prefixed keyspace', () => {
    const r = rng(11);
    const base = new MemKVStore();
    for (let i = 0; i < 200; i++) base.set(randBytes(r, 4), randBytes(r, 2));
    const b = branch(base);
    const p = u(0, 0xff);
    const ps = prefixStore(b, p);
    const model = new Model();
    for (const [k, v] of base.iterator(p, prefixEnd(p))) model.set(k.subarray(p.length), v);
    for (let i = 0; i < 300; i++) {
      const k = randBytes(r, 3);
      if (r() < 0.6) {
        const v = randBytes(r, 2);
        ps.set(k, v);
        model.set(k, v);
      } else {
        ps.delete(k);
        model.delete(k);
      }
      const a = r() < 0.3 ? undefined : randBytes(r, 2);
      const e = r() < 0.3 ? undefined : randBytes(r, 2);
      const rev = r() < 0.5;
      expect(hexEntries(ps.iterator(a, e, rev))).to.deep.equal(hexEntries(model.range(a, e, rev)));
    }
    // Keys outside the prefix are untouched.
    const outside = (st: MemKVStore | typeof b) =>
      hexEntries(st.iterator()).filter(([k]) => !k.startsWith('00ff'));
    expect(outside(b)).to.deep.equal(outside(base));
  });
});
