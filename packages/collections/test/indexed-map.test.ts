import { expect } from 'chai';
import {
  CollectionError,
  Schema,
  bytesKey,
  jsonValue,
  pairKey,
  stringKey,
  uint64Key,
} from '../src/index.js';
import type { StoreAccessor } from '../src/index.js';
import { SEED, dump, hex, memCtx, randInt, rng, u } from './helpers.js';

interface Delegation {
  delegator: string;
  validator: string;
  shares: number;
}
interface Validator {
  consAddr: string;
  power: number;
}

function stakingSchema() {
  const schema = new Schema('staking');
  const delegations = schema.indexedMap(0x31, 'delegations', pairKey(stringKey, stringKey), jsonValue<Delegation>());
  const byValidator = delegations.multiIndex(0x71, 'delegations_by_validator', stringKey, (d) => d.validator);
  const validators = schema.indexedMap(0x21, 'validators', stringKey, jsonValue<Validator>());
  const byConsAddr = validators.uniqueIndex(0x22, 'validators_by_cons_addr', stringKey, (v) => v.consAddr);
  const byPower = validators.multiIndex(0x23, 'validators_by_power', uint64Key, (v) => BigInt(v.power));
  return { schema, delegations, byValidator, validators, byConsAddr, byPower };
}

const del = (delegator: string, validator: string, shares = 1): [[string, string], Delegation] => [
  [delegator, validator],
  { delegator, validator, shares },
];

describe('IndexedMap', () => {
  describe('multi index', () => {
    it('lists the primary keys of one reference, in primary-key order or reversed', () => {
      const { ctx } = memCtx();
      const { delegations, byValidator } = stakingSchema();
      for (const [k, v] of [del('bob', 'val1'), del('alice', 'val1'), del('alice', 'val2'), del('carol', 'val1')]) {
        delegations.set(ctx, k, v);
      }
      expect([...byValidator.match(ctx, 'val1')]).to.deep.equal([
        ['alice', 'val1'],
        ['bob', 'val1'],
        ['carol', 'val1'],
      ]);
      expect([...byValidator.match(ctx, 'val1', true)].map((k) => k[0])).to.deep.equal(['carol', 'bob', 'alice']);
      expect([...byValidator.match(ctx, 'val2')]).to.deep.equal([['alice', 'val2']]);
      expect([...byValidator.match(ctx, 'val')]).to.deep.equal([]);
      expect(byValidator.matchEntries(ctx, 'val2').toArray()).to.deep.equal([
        { key: ['alice', 'val2'], value: { delegator: 'alice', validator: 'val2', shares: 1 } },
      ]);
      expect(byValidator.has(ctx, 'val1', ['bob', 'val1'])).to.equal(true);
      expect(byValidator.has(ctx, 'val2', ['bob', 'val1'])).to.equal(false);
    });

    it('stores prefix || ref (non-terminal) || primary key with an empty value (SDK indexes.Multi)', () => {
      const { mem, ctx } = memCtx();
      const { delegations } = stakingSchema();
      delegations.set(ctx, ...del('a', 'v'));
      const rows = dump(mem).map(([k, v]) => [k.slice(hex(new TextEncoder().encode('staking/')).length), v]);
      expect(rows).to.deep.equal([
        ['31' + '6100' + '76', hex(new TextEncoder().encode('{"delegator":"a","validator":"v","shares":1}'))],
        ['71' + '7600' + '6100' + '76', ''],
      ]);
    });

    it('moves the entry when a value\'s reference changes, and keeps it when it does not', () => {
      const { ctx } = memCtx();
      const { validators, byPower } = stakingSchema();
      validators.set(ctx, 'v1', { consAddr: 'c1', power: 10 });
      validators.set(ctx, 'v2', { consAddr: 'c2', power: 10 });
      validators.set(ctx, 'v1', { consAddr: 'c1', power: 30 });
      validators.set(ctx, 'v2', { consAddr: 'c2', power: 10 }); // same reference
      expect(byPower.iterate(ctx).toArray()).to.deep.equal([
        { ref: 10n, key: 'v2' },
        { ref: 30n, key: 'v1' },
      ]);
      expect([...byPower.match(ctx, 10n)]).to.deep.equal(['v2']);
    });

    it('iterates references in order with bounds on the reference (e.g. validators by power, descending)', () => {
      const { ctx } = memCtx();
      const { validators, byPower } = stakingSchema();
      for (const [name, power] of [['a', 5], ['b', 50], ['c', 20], ['d', 20], ['e', 1]] as [string, number][]) {
        validators.set(ctx, name, { consAddr: 'c' + name, power });
      }
      const keys = (r?: object) => byPower.iterate(ctx, r).toArray().map((e) => `${e.ref}:${e.key}`);
      expect(keys({ reverse: true })).to.deep.equal(['50:b', '20:d', '20:c', '5:a', '1:e']);
      expect(keys({ start: 5n, end: 20n })).to.deep.equal(['5:a']);
      expect(keys({ start: 5n, end: 20n, endInclusive: true })).to.deep.equal(['5:a', '20:c', '20:d']);
      expect(keys({ start: 5n, startExclusive: true })).to.deep.equal(['20:c', '20:d', '50:b']);
      expect(keys({ end: 20n, reverse: true })).to.deep.equal(['5:a', '1:e']);
    });
  });

  describe('unique index', () => {
    it('maps a reference to its one primary key (stored as ref -> primary key, SDK indexes.Unique)', () => {
      const { mem, ctx } = memCtx();
      const { validators, byConsAddr } = stakingSchema();
      validators.set(ctx, 'v1', { consAddr: 'c1', power: 1 });
      expect(byConsAddr.get(ctx, 'c1')).to.equal('v1');
      expect(byConsAddr.getValue(ctx, 'c1')).to.deep.equal({ consAddr: 'c1', power: 1 });
      expect(byConsAddr.has(ctx, 'c1')).to.equal(true);
      expect(byConsAddr.get(ctx, 'c2')).to.equal(undefined);
      expect(byConsAddr.getValue(ctx, 'c2')).to.equal(undefined);
      const prefix = hex(new TextEncoder().encode('staking/'));
      expect(dump(mem).find(([k]) => k.startsWith(prefix + '22'))).to.deep.equal([prefix + '22' + '6331', '7631']);
    });

    it('refuses a second primary key for the same reference, writing nothing', () => {
      const { mem, ctx } = memCtx();
      const { validators, byConsAddr, byPower } = stakingSchema();
      validators.set(ctx, 'v1', { consAddr: 'c1', power: 1 });
      validators.set(ctx, 'v2', { consAddr: 'c2', power: 2 });
      const before = dump(mem);
      expect(() => validators.set(ctx, 'v2', { consAddr: 'c1', power: 7 })).to.throw(
        CollectionError,
        'collection "validators": unique index "validators_by_cons_addr": reference "c1" already belongs to key "v1"; refusing it for key "v2"',
      );
      expect(() => validators.set(ctx, 'v3', { consAddr: 'c1', power: 7 })).to.throw(CollectionError, /already belongs/);
      expect(dump(mem)).to.deep.equal(before);
      expect(byConsAddr.get(ctx, 'c1')).to.equal('v1');
      expect([...byPower.match(ctx, 7n)]).to.deep.equal([]);
      try {
        validators.set(ctx, 'v3', { consAddr: 'c1', power: 7 });
      } catch (e) {
        expect((e as CollectionError).reason).to.equal('conflict');
      }
    });

    it('lets a primary key take a reference freed by an update or a remove', () => {
      const { ctx } = memCtx();
      const { validators, byConsAddr } = stakingSchema();
      validators.set(ctx, 'v1', { consAddr: 'c1', power: 1 });
      validators.set(ctx, 'v1', { consAddr: 'c1b', power: 1 }); // v1 rotates its key
      validators.set(ctx, 'v2', { consAddr: 'c1', power: 1 });
      expect(byConsAddr.get(ctx, 'c1')).to.equal('v2');
      expect(byConsAddr.get(ctx, 'c1b')).to.equal('v1');
      validators.remove(ctx, 'v2');
      expect(byConsAddr.has(ctx, 'c1')).to.equal(false);
      validators.set(ctx, 'v3', { consAddr: 'c1', power: 1 });
      expect(byConsAddr.iterate(ctx).toArray()).to.deep.equal([
        { ref: 'c1', key: 'v3' },
        { ref: 'c1b', key: 'v1' },
      ]);
    });
  });

  it('remove and clear delete the index entries with the values', () => {
    const { mem, ctx } = memCtx();
    const { delegations, byValidator, validators, byPower, byConsAddr } = stakingSchema();
    delegations.set(ctx, ...del('a', 'v1'));
    delegations.set(ctx, ...del('b', 'v1'));
    delegations.set(ctx, ...del('b', 'v2'));
    delegations.remove(ctx, ['a', 'v1']);
    delegations.remove(ctx, ['zz', 'v1']); // absent: no-op
    expect([...byValidator.match(ctx, 'v1')]).to.deep.equal([['b', 'v1']]);
    delegations.clear(ctx, { prefix: ['b'] });
    expect(byValidator.iterate(ctx).toArray()).to.deep.equal([]);
    validators.set(ctx, 'v1', { consAddr: 'c1', power: 1 });
    validators.clear(ctx);
    expect(byPower.iterate(ctx).toArray()).to.deep.equal([]);
    expect(byConsAddr.iterate(ctx).toArray()).to.deep.equal([]);
    expect(dump(mem)).to.deep.equal([]);
  });

  it(`indexes always equal the ones rebuilt from the values (random updates, seed ${SEED})`, () => {
    const r = rng(SEED);
    const { ctx } = memCtx();
    const { validators, byPower, byConsAddr, delegations, byValidator } = stakingSchema();
    const names = ['v0', 'v1', 'v2', 'v3', 'v4', 'v5'];
    const check = (c: StoreAccessor, step: number) => {
      const all = validators.iterate(c).toArray();
      const wantPower = all
        .map((e) => ({ ref: BigInt(e.value.power), key: e.key }))
        .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : a.key < b.key ? -1 : 1));
      expect(byPower.iterate(c).toArray(), `seed ${SEED} step ${step}`).to.deep.equal(wantPower);
      const wantCons = all.map((e) => ({ ref: e.value.consAddr, key: e.key })).sort((a, b) => (a.ref < b.ref ? -1 : 1));
      expect(byConsAddr.iterate(c).toArray(), `seed ${SEED} step ${step}`).to.deep.equal(wantCons);
      const dels = delegations.iterate(c).toArray();
      const wantDel = dels
        .map((e) => ({ ref: e.value.validator, key: e.key }))
        .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : a.key[0] < b.key[0] ? -1 : 1));
      expect(byValidator.iterate(c).toArray(), `seed ${SEED} step ${step}`).to.deep.equal(wantDel);
    };
    let conflicts = 0;
    for (let step = 0; step < 400; step++) {
      const name = names[randInt(r, names.length)]!;
      const op = randInt(r, 10);
      if (op < 6) {
        try {
          validators.set(ctx, name, { consAddr: 'c' + randInt(r, 8), power: randInt(r, 4) });
        } catch (e) {
          expect((e as CollectionError).reason).to.equal('conflict');
          conflicts++;
        }
      } else if (op < 7) {
        validators.remove(ctx, name);
      } else {
        const d = 'd' + randInt(r, 4);
        if (r() < 0.7) delegations.set(ctx, [d, name], { delegator: d, validator: names[randInt(r, names.length)]!, shares: 1 });
        else delegations.remove(ctx, [d, name]);
      }
      check(ctx, step);
    }
    expect(conflicts, 'the random walk exercised unique conflicts').to.be.greaterThan(0);
  });

  it('reports an index entry pointing to a missing primary entry', () => {
    const { ctx } = memCtx();
    const { validators, byConsAddr } = stakingSchema();
    validators.set(ctx, 'v1', { consAddr: 'c1', power: 1 });
    ctx.kv('staking').delete(validators.encodeKey('v1'));
    expect(() => byConsAddr.getValue(ctx, 'c1')).to.throw(CollectionError, /validators_by_cons_addr.*missing key "v1" of "validators"/);
  });

  it('a byte-keyed index with composite references supports prefix ranges on a unique index', () => {
    const { ctx } = memCtx();
    const schema = new Schema('x');
    const m = schema.indexedMap(1, 'things', bytesKey, jsonValue<{ a: string; b: string }>());
    const ab = m.uniqueIndex(2, 'things_by_ab', pairKey(stringKey, stringKey), (v) => [v.a, v.b]);
    m.set(ctx, u(1), { a: 'x', b: '1' });
    m.set(ctx, u(2), { a: 'x', b: '2' });
    m.set(ctx, u(3), { a: 'y', b: '1' });
    expect(ab.iterate(ctx, { prefix: ['x'] }).toArray().map((e) => e.key)).to.deep.equal([u(1), u(2)]);
    expect(ab.get(ctx, ['y', '1'])).to.deep.equal(u(3));
  });
});
