import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import {
  CollectionError,
  Schema,
  boolValue,
  bytesKey,
  jsonValue,
  pairKey,
  protoValue,
  stringKey,
  uint64Key,
  uint64Value,
} from '../src/index.js';
import { dump, memCtx, u } from './helpers.js';

describe('Schema', () => {
  it('lists its collections, indexes included, in declaration order', () => {
    const schema = new Schema('staking');
    schema.item(0x01, 'params', jsonValue<object>());
    const vals = schema.indexedMap(0x21, 'validators', stringKey, jsonValue<{ c: string }>());
    vals.uniqueIndex(0x22, 'validators_by_cons', stringKey, (v) => v.c);
    schema.sequence(0x30, 'next_id');
    schema.keySet(0x40, 'jailed', bytesKey);
    expect(schema.collections().map((c) => [c.name, c.kind, c.isIndex])).to.deep.equal([
      ['params', 'item', false],
      ['validators', 'indexedMap', false],
      ['validators_by_cons', 'uniqueIndex', true],
      ['next_id', 'sequence', false],
      ['jailed', 'keySet', false],
    ]);
    expect(schema.collection('validators')).to.equal(vals);
    expect(vals.indexes.map((i) => i.name)).to.deep.equal(['validators_by_cons']);
  });

  it('refuses overlapping prefixes (equal, or one a prefix of the other), indexes included', () => {
    const schema = new Schema('bank');
    schema.map('ab', 'first', stringKey, uint64Value);
    expect(() => schema.map('ab', 'same', stringKey, uint64Value)).to.throw(
      CollectionError,
      'collection "same": prefix 0x6162 overlaps prefix 0x6162 of collection "first" in schema "bank"',
    );
    expect(() => schema.item('abc', 'longer', boolValue)).to.throw(CollectionError, /prefix 0x616263 overlaps prefix 0x6162 of collection "first"/);
    expect(() => schema.sequence('a', 'shorter')).to.throw(CollectionError, /prefix 0x61 overlaps prefix 0x6162/);
    const m = schema.indexedMap(0x10, 'm', stringKey, jsonValue<string>());
    expect(() => m.multiIndex(u(0x10, 0x01), 'm_by_x', stringKey, (v) => v)).to.throw(CollectionError, /collection "m_by_x": prefix 0x1001 overlaps prefix 0x10 of collection "m"/);
    schema.map('ac', 'sibling', stringKey, uint64Value); // shares a first byte only: fine
    expect(() => schema.map(u(0x61), 'bytes_a', stringKey, uint64Value)).to.throw(CollectionError, /overlaps prefix 0x6162/);
  });

  it('refuses duplicate and malformed names and bad prefixes', () => {
    const schema = new Schema('bank');
    schema.map(1, 'balances', stringKey, uint64Value);
    expect(() => schema.map(2, 'balances', stringKey, uint64Value)).to.throw(CollectionError, /collection "balances": the name is already used in schema "bank"/);
    expect(() => schema.map(3, '1abc', stringKey, uint64Value)).to.throw(/invalid collection name "1abc"/);
    expect(() => schema.map(3, 'a-b', stringKey, uint64Value)).to.throw(/invalid collection name/);
    expect(() => schema.map(256, 'big', stringKey, uint64Value)).to.throw(CollectionError, /one byte \(0-255\)/);
    expect(() => schema.map('', 'empty', stringKey, uint64Value)).to.throw(CollectionError, /empty/);
    expect(() => schema.map(u(), 'empty2', stringKey, uint64Value)).to.throw(CollectionError, /empty/);
    expect(() => new Schema('a/b')).to.throw(/without '\/'/);
  });

  it('copies a byte prefix (later changes to the caller\'s array do not move the collection)', () => {
    const { ctx } = memCtx();
    const p = u(7);
    const m = new Schema('s').map(p, 'm', stringKey, uint64Value);
    p[0] = 8;
    m.set(ctx, 'k', 1n);
    expect([...ctx.kv('s').iterator()].map(([k]) => k[0])).to.deep.equal([7]);
  });

  describe('exportAll / importAll', () => {
    const registry = new ProtoRegistry();
    type Coin = { denom: string; amount: string };

    function bankLike() {
      const schema = new Schema('bank');
      const params = schema.item(0x05, 'params', jsonValue<{ sendEnabled: boolean }>());
      const balances = schema.map(0x02, 'balances', pairKey(bytesKey, stringKey), protoValue<Coin>(registry, 'chain.base.v1beta1.Coin'));
      const supply = schema.map(0x00, 'supply', stringKey, uint64Value);
      const nextId = schema.sequence(0x06, 'next_id', 1n);
      const blocked = schema.keySet(0x07, 'blocked', bytesKey);
      const accounts = schema.indexedMap(0x08, 'accounts', uint64Key, jsonValue<{ addr: string; kind: string }>());
      const byAddr = accounts.uniqueIndex(0x09, 'accounts_by_addr', stringKey, (a) => a.addr);
      const byKind = accounts.multiIndex(0x0a, 'accounts_by_kind', stringKey, (a) => a.kind);
      const unused = schema.item(0x0b, 'unused', boolValue);
      return { schema, params, balances, supply, nextId, blocked, accounts, byAddr, byKind, unused };
    }

    it('walks every collection and round-trips into an empty store, rebuilding the indexes', () => {
      const a = memCtx();
      const s = bankLike();
      s.params.set(a.ctx, { sendEnabled: true });
      s.balances.set(a.ctx, [u(1), 'uatom'], { denom: 'uatom', amount: '5' });
      s.balances.set(a.ctx, [u(2), 'ueth'], { denom: 'ueth', amount: '7' });
      s.supply.set(a.ctx, 'uatom', 5n);
      s.nextId.next(a.ctx);
      s.blocked.set(a.ctx, u(0xde, 0xad));
      s.accounts.set(a.ctx, 1n, { addr: 'a1', kind: 'base' });
      s.accounts.set(a.ctx, 2n, { addr: 'a2', kind: 'module' });
      s.accounts.set(a.ctx, 3n, { addr: 'a3', kind: 'base' });

      const exported = s.schema.exportAll(a.ctx);
      expect(exported).to.deep.equal({
        params: [[null, { sendEnabled: true }]],
        balances: [
          [[u(1), 'uatom'], { denom: 'uatom', amount: '5' }],
          [[u(2), 'ueth'], { denom: 'ueth', amount: '7' }],
        ],
        supply: [['uatom', 5n]],
        next_id: [[null, 2n]],
        blocked: [[u(0xde, 0xad), null]],
        accounts: [
          [1n, { addr: 'a1', kind: 'base' }],
          [2n, { addr: 'a2', kind: 'module' }],
          [3n, { addr: 'a3', kind: 'base' }],
        ],
        unused: [],
      });

      const b = memCtx();
      const s2 = bankLike();
      s2.schema.importAll(b.ctx, exported);
      expect(dump(b.mem)).to.deep.equal(dump(a.mem)); // byte-identical state, indexes included
      expect(s2.byAddr.get(b.ctx, 'a2')).to.equal(2n);
      expect([...s2.byKind.match(b.ctx, 'base')]).to.deep.equal([1n, 3n]);
      expect(s2.nextId.peek(b.ctx)).to.equal(2n);
      expect(s2.schema.exportAll(b.ctx)).to.deep.equal(exported);
    });

    it('refuses unknown collections, index data and malformed entries', () => {
      const { ctx } = memCtx();
      const s = bankLike();
      expect(() => s.schema.importAll(ctx, { nope: [] })).to.throw(/schema "bank": unknown collection "nope"/);
      expect(() => s.schema.importAll(ctx, { accounts_by_addr: [] })).to.throw(CollectionError, /collection "accounts_by_addr": a secondary index is not imported/);
      expect(() => s.schema.importAll(ctx, { supply: [['uatom']] })).to.throw(CollectionError, /collection "supply": each entry must be a \[key, value\] pair/);
      expect(() => s.schema.importAll(ctx, { params: [[null, {}], [null, {}]] })).to.throw(CollectionError, /collection "params": a item has at most one entry/);
      expect(() => s.schema.importAll(ctx, { supply: [['uatom', 'five']] })).to.throw(CollectionError, /collection "supply": encoding the value/);
      expect(() =>
        s.schema.importAll(ctx, {
          accounts: [
            [1n, { addr: 'same', kind: 'x' }],
            [2n, { addr: 'same', kind: 'x' }],
          ],
        }),
      ).to.throw(CollectionError, /unique index "accounts_by_addr"/);
    });
  });
});

describe('KeySet', () => {
  it('stores keys with empty values and iterates them in order', () => {
    const { mem, ctx } = memCtx();
    const set = new Schema('s').keySet(0x01, 'members', pairKey(stringKey, uint64Key));
    set.set(ctx, ['b', 1n]);
    set.set(ctx, ['a', 2n]);
    set.set(ctx, ['a', 1n]);
    expect(set.has(ctx, ['a', 2n])).to.equal(true);
    expect([...set.iterate(ctx, { prefix: ['a'] })]).to.deep.equal([
      ['a', 1n],
      ['a', 2n],
    ]);
    set.remove(ctx, ['a', 2n]);
    expect([...set.iterate(ctx, { reverse: true })]).to.deep.equal([
      ['b', 1n],
      ['a', 1n],
    ]);
    expect(dump(mem).every(([, v]) => v === '')).to.equal(true);
    ctx.kv('s').set(new Uint8Array([0x01, 0x63, 0, 0, 0, 0, 0, 0, 0, 0, 1]), u(1));
    expect(() => [...set.exportEntries(ctx)]).to.throw(CollectionError, /collection "members": decoding the value at key \("c", 1\): no_value/);
    set.clear(ctx);
    expect(dump(mem)).to.deep.equal([]);
  });
});
