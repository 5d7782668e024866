import { expect } from 'chai';
import { MemKVStore } from '../src/index.js';
import { Model, hex, hexEntries, randBytes, randInt, rng, u } from './helpers.js';

describe('MemKVStore', () => {
  it('get/has/set/delete, with an empty value distinct from a missing key', () => {
    const st = new MemKVStore();
    expect(st.get(u(1))).to.equal(undefined);
    expect(st.has(u(1))).to.equal(false);
    st.set(u(1), u(9));
    st.set(u(2), u());
    expect(hex(st.get(u(1))!)).to.equal('09');
    expect(st.has(u(2))).to.equal(true);
    expect(st.get(u(2))).to.deep.equal(u());
    st.set(u(1), u(8));
    expect(hex(st.get(u(1))!)).to.equal('08');
    st.delete(u(1));
    st.delete(u(7)); // absent: no-op
    expect(st.has(u(1))).to.equal(false);
    expect(st.size).to.equal(1);
  });

  it('iterates in bytewise order, including empty, 0x00 and 0xFF keys and prefixes', () => {
    const keys = [u(0xff, 0xff), u(), u(0, 0), u(1), u(0), u(0xff), u(0, 0xff), u(0x80), u(0x7f, 0xff)];
    const st = new MemKVStore(keys.map((k) => [k, u(k.length)]));
    const got = [...st.iterator()].map(([k]) => hex(k));
    expect(got).to.deep.equal(['', '00', '0000', '00ff', '01', '7fff', '80', 'ff', 'ffff']);
    expect([...st.iterator(undefined, undefined, true)].map(([k]) => hex(k))).to.deep.equal(got.slice().reverse());
  });

  it('returns fresh plain Uint8Array keys and is immune to caller key mutation', () => {
    const st = new MemKVStore();
    const long = new Uint8Array(100).map((_, i) => 255 - i);
    const k = u(1, 2, 3);
    st.set(k, u(1));
    st.set(long, u(2));
    k[0] = 9;
    expect(st.get(u(1, 2, 3))).to.deep.equal(u(1));
    const [[k1], [k2]] = [...st.iterator()];
    expect(Object.getPrototypeOf(k1)).to.equal(Uint8Array.prototype);
    expect(hex(k1!)).to.equal('010203');
    expect(hex(k2!)).to.equal(hex(long));
    k1![0] = 7;
    expect(st.get(u(1, 2, 3))).to.deep.equal(u(1));
  });

  it('honours [start, end) bounds in both directions', () => {
    const st = new MemKVStore([1, 2, 3, 4, 5].map((x) => [u(x), u(x)]));
    const keys = (s?: Uint8Array, e?: Uint8Array, r = false) => [...st.iterator(s, e, r)].map(([k]) => k[0]);
    expect(keys(u(2), u(4))).to.deep.equal([2, 3]);
    expect(keys(u(2), u(4), true)).to.deep.equal([3, 2]);
    expect(keys(u(2, 0), u(4, 0))).to.deep.equal([3, 4]); // absent bounds
    expect(keys(u(2, 0), u(4, 0), true)).to.deep.equal([4, 3]);
    expect(keys(undefined, u(3), true)).to.deep.equal([2, 1]);
    expect(keys(u(4), undefined, true)).to.deep.equal([5, 4]);
    expect(keys(u(9), undefined, true)).to.deep.equal([]);
    expect(keys(undefined, u(9), true)).to.deep.equal([5, 4, 3, 2, 1]);
    expect(keys(undefined, u(0))).to.deep.equal([]);
    expect(keys(u(3), u(3))).to.deep.equal([]);
    expect(keys(u(4), u(2))).to.deep.equal([]);
    expect(keys(u(4), u(2), true)).to.deep.equal([]);
  });

  it('iterators see a snapshot: writes during iteration neither crash nor show up', () => {
    for (const reverse of [false, true]) {
      const st = new MemKVStore();
      for (let i = 0; i < 500; i++) st.set(u(1, i >> 8, i & 0xff), u(1));
      const expected = hexEntries(st.iterator(undefined, undefined, reverse));
      const seen: [string, string][] = [];
      let n = 0;
      for (const [k, v] of st.iterator(undefined, undefined, reverse)) {
        seen.push([hex(k), hex(v)]);
        n++;
        // Mutate the part still ahead of the iterator: delete, overwrite and insert there.
        const ahead = reverse ? 499 - n : n;
        if (ahead >= 0 && ahead < 500) {
          st.delete(u(1, ahead >> 8, ahead & 0xff));
          st.set(u(1, (ahead + (reverse ? -1 : 1)) >> 8, (ahead + (reverse ? -1 : 1)) & 0xff), u(2));
        }
        st.set(reverse ? u(0, n) : u(2, n), u(3)); // new keys in the unvisited region
      }
      expect(seen).to.deep.equal(expected);
      expect(new MemKVStore([...st.iterator()]).size).to.equal(st.size);
      expect(st.get(reverse ? u(0, 1) : u(2, 1))).to.deep.equal(u(3)); // the writes themselves did happen
    }
  });

  it('matches a reference model under random operations and ranges', () => {
    const r = rng(42);
    const st = new MemKVStore();
    const model = new Model();
    for (let step = 0; step < 3000; step++) {
      const k = randBytes(r, 4);
      if (r() < 0.65) {
        const v = randBytes(r, 3);
        st.set(k, v);
        model.set(k, v);
      } else {
        st.delete(k);
        model.delete(k);
      }
      if (step % 50 === 0) {
        const a = r() < 0.2 ? undefined : randBytes(r, 3);
        const b = r() < 0.2 ? undefined : randBytes(r, 3);
        const rev = r() < 0.5;
        expect(hexEntries(st.iterator(a, b, rev))).to.deep.equal(hexEntries(model.range(a, b, rev)));
        const probe = randBytes(r, 4);
        expect(st.get(probe)).to.deep.equal(model.get(probe));
        expect(st.has(probe)).to.equal(model.get(probe) !== undefined);
      }
    }
    expect(st.size).to.equal(model.m.size);
    expect(randInt(r, 1)).to.equal(0);
  });
});
