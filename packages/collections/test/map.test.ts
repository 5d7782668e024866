import { expect } from 'chai';
import {
  CollectionError,
  Schema,
  bytesKey,
  pairKey,
  stringKey,
  stringValue,
  tripleKey,
  uint64Key,
  uint64Value,
} from '../src/index.js';
import { SEED, cmpCodePoints, dump, hex, memCtx, randInt, randString, rng, u, utf8 } from './helpers.js';

describe('Map', () => {
  function balancesSchema() {
    const { mem, ctx } = memCtx();
    const schema = new Schema('bank');
    const balances = schema.map(0x02, 'balances', pairKey(bytesKey, stringKey), uint64Value);
    const names = schema.map('n', 'names', stringKey, stringValue);
    return { mem, ctx, schema, balances, names };
  }

  it('get / has / set / remove, under <storeKey>/ || prefix || key', () => {
    const { mem, ctx, balances } = balancesSchema();
    expect(balances.get(ctx, [u(1), 'uatom'])).to.equal(undefined);
    expect(balances.has(ctx, [u(1), 'uatom'])).to.equal(false);
    balances.set(ctx, [u(1), 'uatom'], 10n);
    expect(balances.get(ctx, [u(1), 'uatom'])).to.equal(10n);
    expect(balances.has(ctx, [u(1), 'uatom'])).to.equal(true);
    expect(dump(mem)).to.deep.equal([[hex(utf8('bank/')) + '02' + '0101' + hex(utf8('uatom')), '000000000000000a']]);
    balances.set(ctx, [u(1), 'uatom'], 11n);
    expect(balances.get(ctx, [u(1), 'uatom'])).to.equal(11n);
    balances.remove(ctx, [u(1), 'uatom']);
    balances.remove(ctx, [u(1), 'uatom']); // absent: no-op
    expect(balances.has(ctx, [u(1), 'uatom'])).to.equal(false);
    expect(dump(mem)).to.deep.equal([]);
  });

  it('iterates in key order, forward and reverse, decoding keys and values', () => {
    const { ctx, names } = balancesSchema();
    for (const k of ['b', 'a', 'c', 'ab']) names.set(ctx, k, k.toUpperCase());
    expect(names.iterate(ctx).toArray()).to.deep.equal([
      { key: 'a', value: 'A' },
      { key: 'ab', value: 'AB' },
      { key: 'b', value: 'B' },
      { key: 'c', value: 'C' },
    ]);
    expect([...names.keys(ctx, { reverse: true })]).to.deep.equal(['c', 'b', 'ab', 'a']);
    expect([...names.values(ctx)]).to.deep.equal(['A', 'AB', 'B', 'C']);
  });

  it('start is inclusive and end exclusive unless told otherwise', () => {
    const { ctx, names } = balancesSchema();
    for (const k of ['a', 'b', 'c', 'd']) names.set(ctx, k, k);
    const keys = (r: object) => [...names.keys(ctx, r)];
    expect(keys({ start: 'b', end: 'd' })).to.deep.equal(['b', 'c']);
    expect(keys({ start: 'b', end: 'd', startExclusive: true })).to.deep.equal(['c']);
    expect(keys({ start: 'b', end: 'd', endInclusive: true })).to.deep.equal(['b', 'c', 'd']);
    expect(keys({ start: 'b', end: 'd', endInclusive: true, reverse: true })).to.deep.equal(['d', 'c', 'b']);
    expect(keys({ start: 'bb' })).to.deep.equal(['c', 'd']);
    expect(keys({ end: 'b', endInclusive: true })).to.deep.equal(['a', 'b']);
    expect(keys({ start: 'c', end: 'b' })).to.deep.equal([]);
    expect(keys({ start: 'b', end: 'b' })).to.deep.equal([]);
  });

  it('does not see other collections of the same store, nor other stores', () => {
    const { ctx, balances, names } = balancesSchema();
    balances.set(ctx, [u(1), 'x'], 1n);
    names.set(ctx, 'k', 'v');
    ctx.kv('other').set(u(0x02, 1, 1, 0x79), u(9));
    ctx.kv('bank').set(u(0x03), u(9));
    ctx.kv('bank').set(u(0x01, 0xff), u(9));
    expect(balances.iterate(ctx).toArray()).to.deep.equal([{ key: [u(1), 'x'], value: 1n }]);
    expect([...names.keys(ctx)]).to.deep.equal(['k']);
  });

  describe('pair keys', () => {
    function filled() {
      const s = balancesSchema();
      const { ctx, balances } = s;
      for (const [a, d, n] of [
        [u(1), 'uatom', 1n],
        [u(1), 'ueth', 2n],
        [u(1, 0), 'uatom', 3n],
        [u(2), 'aaa', 4n],
        [u(2), 'uatom', 5n],
        [u(), 'z', 6n],
      ] as [Uint8Array, string, bigint][]) {
        balances.set(ctx, [a, d], n);
      }
      return s;
    }

    it('iterates every entry whose first part equals X with a prefix range', () => {
      const { ctx, balances } = filled();
      expect([...balances.values(ctx, { prefix: [u(1)] })]).to.deep.equal([1n, 2n]);
      expect([...balances.keys(ctx, { prefix: [u(2)], reverse: true })]).to.deep.equal([
        [u(2), 'uatom'],
        [u(2), 'aaa'],
      ]);
      expect([...balances.values(ctx, { prefix: [u(1, 0)] })]).to.deep.equal([3n]);
      expect([...balances.values(ctx, { prefix: [u()] })]).to.deep.equal([6n]);
      expect([...balances.values(ctx, { prefix: [u(3)] })]).to.deep.equal([]);
    });

    it('combines a prefix with bounds on the full key', () => {
      const { ctx, balances } = filled();
      expect([...balances.values(ctx, { prefix: [u(1)], start: [u(1), 'ub'] })]).to.deep.equal([2n]);
      expect([...balances.values(ctx, { prefix: [u(2)], end: [u(2), 'uatom'] })]).to.deep.equal([4n]);
      // bounds outside the prefix are clipped to it
      expect([...balances.values(ctx, { prefix: [u(1)], start: [u(0), ''], end: [u(9), ''] })]).to.deep.equal([1n, 2n]);
    });

    it('takes partial keys as bounds: everything from / up to / after a first part', () => {
      const { ctx, balances } = filled();
      // non-terminal bytes order is (length, bytes): [] < [1] < [2] < [1,0]
      expect([...balances.values(ctx)]).to.deep.equal([6n, 1n, 2n, 4n, 5n, 3n]);
      expect([...balances.values(ctx, { start: [u(2)] })]).to.deep.equal([4n, 5n, 3n]);
      expect([...balances.values(ctx, { start: [u(1)], startExclusive: true })]).to.deep.equal([4n, 5n, 3n]);
      expect([...balances.values(ctx, { end: [u(2)] })]).to.deep.equal([6n, 1n, 2n]);
      expect([...balances.values(ctx, { end: [u(2)], endInclusive: true, reverse: true })]).to.deep.equal([5n, 4n, 2n, 1n, 6n]);
    });

    it('clears one prefix only', () => {
      const { ctx, balances } = filled();
      balances.clear(ctx, { prefix: [u(1)] });
      expect([...balances.values(ctx)]).to.deep.equal([6n, 4n, 5n, 3n]);
      balances.clear(ctx);
      expect(balances.iterate(ctx).toArray()).to.deep.equal([]);
    });
  });

  it('triple keys: prefix ranges over the first one or two parts', () => {
    const { ctx } = memCtx();
    const schema = new Schema('staking');
    const redelegations = schema.map(0x34, 'redelegations', tripleKey(bytesKey, bytesKey, bytesKey), uint64Value);
    const d = u(0xd), v1 = u(0x1), v2 = u(0x2);
    redelegations.set(ctx, [d, v1, v2], 1n);
    redelegations.set(ctx, [d, v2, v1], 2n);
    redelegations.set(ctx, [d, v2, v2], 3n);
    redelegations.set(ctx, [v1, v1, v1], 4n);
    expect([...redelegations.values(ctx, { prefix: [d] })]).to.deep.equal([1n, 2n, 3n]);
    expect([...redelegations.values(ctx, { prefix: [d, v2] })]).to.deep.equal([2n, 3n]);
    expect([...redelegations.values(ctx, { prefix: [d, v2], reverse: true })]).to.deep.equal([3n, 2n]);
  });

  it(`iterates in the same order as a sorted model, any range (random, seed ${SEED})`, () => {
    const r = rng(SEED);
    const { ctx } = memCtx();
    const schema = new Schema('m');
    const m = schema.map(1, 'm', pairKey(stringKey, uint64Key), uint64Value);
    const model = new Map<string, [string, bigint]>();
    for (let i = 0; i < 300; i++) {
      const k: [string, bigint] = [randString(r, 2), BigInt(randInt(r, 50))];
      model.set(JSON.stringify([k[0], String(k[1])]), k);
      m.set(ctx, k, k[1]);
      if (i % 7 === 0) {
        const del = [...model.values()][randInt(r, model.size)]!;
        model.delete(JSON.stringify([del[0], String(del[1])]));
        m.remove(ctx, del);
      }
    }
    const cmp = (a: [string, bigint], b: [string, bigint]) => cmpCodePoints(a[0], b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
    const sorted = [...model.values()].sort(cmp);
    expect([...m.keys(ctx)], `seed ${SEED}`).to.deep.equal(sorted);
    for (let q = 0; q < 100; q++) {
      const first = randString(r, 2);
      const start: [string, bigint] = [randString(r, 2), BigInt(randInt(r, 50))];
      const end: [string, bigint] = [randString(r, 2), BigInt(randInt(r, 50))];
      const reverse = r() < 0.5;
      const want = sorted.filter((k) => k[0] === first && cmp(k, start) >= 0 && cmp(k, end) < 0);
      if (reverse) want.reverse();
      expect([...m.keys(ctx, { prefix: [first], start, end, reverse })], `seed ${SEED} query ${q}`).to.deep.equal(want);
    }
  });

  it('stops reading when the caller breaks out of the loop', () => {
    const { ctx, names } = balancesSchema();
    for (const k of ['a', 'b', 'c']) names.set(ctx, k, k);
    const seen: string[] = [];
    for (const e of names.iterate(ctx)) {
      seen.push(e.key);
      if (e.key === 'b') break;
    }
    expect(seen).to.deep.equal(['a', 'b']);
  });

  it('errors name the collection: bad keys, bad values, corrupted values, prefix ranges on simple keys', () => {
    const { ctx, balances, names } = balancesSchema();
    expect(() => balances.set(ctx, [new Uint8Array(256), 'a'], 1n)).to.throw(CollectionError, /^collection "balances": encoding a key: .*at most 255 bytes/);
    expect(() => balances.set(ctx, [u(1), 'a'], -1n)).to.throw(CollectionError, /^collection "balances": encoding the value for key \(0x01, "a"\): uint64 value/);
    ctx.kv('bank').set(u(0x02, 1, 1, 0x61), u(1, 2, 3));
    expect(() => balances.get(ctx, [u(1), 'a'])).to.throw(CollectionError, /^collection "balances": decoding the value at key \(0x01, "a"\): uint64 value: want 8 bytes, got 3/);
    expect(() => balances.iterate(ctx).toArray()).to.throw(CollectionError, /collection "balances": decoding the value/);
    ctx.kv('bank').set(u(0x02, 5, 1), u(0, 0, 0, 0, 0, 0, 0, 1));
    expect(() => [...balances.keys(ctx, { prefix: [u(5, 1)] })]).to.not.throw();
    expect(() => [...balances.keys(ctx)]).to.throw(CollectionError, /collection "balances": decoding the key 0x020501: bytes key: length prefix says 5 bytes, only 1 left/);
    expect(() => names.iterate(ctx, { prefix: ['x'] as never })).to.throw(CollectionError, /collection "names": encoding the range: string keys have no partial keys/);
    try {
      balances.get(ctx, [u(1), 'a']);
    } catch (e) {
      expect((e as CollectionError).collection).to.equal('balances');
      expect((e as CollectionError).reason).to.equal('encoding');
      expect((e as CollectionError).cause).to.be.instanceOf(Error);
    }
  });
});
