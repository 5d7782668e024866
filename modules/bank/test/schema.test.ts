import { expect } from 'chai';
import { Context } from '@chain/app';
import { MemKVStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import { TestChain, devKey, genesisState, coins, DENOM } from './helpers.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): string => Buffer.from(s, 'utf8').toString('hex');

/** Every entry under `bank/` of a store, keys without the `bank/` prefix, hex encoded. */
const bankEntries = (store: KVStore): [string, string][] => {
  const p = new TextEncoder().encode('bank/');
  const end = Uint8Array.of(...p.subarray(0, -1), p.at(-1)! + 1);
  return [...store.iterator(p, end)].map(([k, v]) => [hex(k.subarray(p.length)), hex(v)]);
};

const META = {
  description: 'd', denom_units: [{ denom: 'ufoo', exponent: 0, aliases: [] }, { denom: 'foo', exponent: 6, aliases: ['FOO'] }],
  base: 'ufoo', display: 'foo', name: 'Foo', symbol: 'FOO', uri: '', uri_hash: '',
};
const META2 = { ...META, base: 'ubar', display: 'bar', name: 'Bar', symbol: 'BAR', denom_units: [{ denom: 'ubar', exponent: 0, aliases: [] }] };

describe('bank: state schema (@chain/collections)', () => {
  const A = devKey(0);
  const B = devKey(1);
  const C = devKey(2);
  const chains: TestChain[] = [];
  const make = async (): Promise<TestChain> => {
    const c = await TestChain.create();
    chains.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of chains.splice(0)) await c.close();
  });

  it('declares one collection per prefix, with the SDK names', async () => {
    const c = await make();
    const list = c.bk.state.schema.collections().map((x) => [hex(x.prefix), x.name, x.kind]);
    expect(list).to.deep.equal([
      ['00', 'supply', 'map'],
      ['01', 'denom_metadata', 'map'],
      ['02', 'balances', 'map'],
      ['03', 'address_by_denom_index', 'keySet'],
      ['04', 'send_enabled', 'map'],
      ['05', 'params', 'item'],
    ]);
  });

  it('keeps the byte layout of the README (State) for every collection', async () => {
    const c = await make();
    await c.init(genesisState(
      [{ address: A.address, coins: coins(1000) }],
      { denom_metadata: [META], send_enabled: [{ denom: 'ufoo', enabled: false }, { denom: 'uon', enabled: true }] },
    ));
    const a = hex(A.addr);
    expect(A.addr).to.have.length(20);
    const metadata = hex(c.registry.encode('chain.bank.v1beta1.Metadata', META));
    expect(bankEntries(c.store.state)).to.deep.equal([
      // 0x00 | denom → supply, decimal text
      ['00' + ascii(DENOM), ascii('1000')],
      // 0x01 | base → Metadata, protobuf
      ['01' + ascii('ufoo'), metadata],
      // 0x02 | len(addr) | addr | denom → balance, decimal text
      ['02' + '14' + a + ascii(DENOM), ascii('1000')],
      // 0x03 | denom | 0x00 | len(addr) | addr → empty
      ['03' + ascii(DENOM) + '00' + '14' + a, ''],
      // 0x04 | denom → 0x00 / 0x01
      ['04' + ascii('ufoo'), '00'],
      ['04' + ascii('uon'), '01'],
      // 0x05 → Params {send_enabled: [], default_send_enabled: true}: field 2, varint 1
      ['05', '1001'],
    ]);
  });

  it('keeps the gas of a MsgSend (gas is per stored byte: a layout change would move it)', async () => {
    // the genesis and txs of the pre-collections measurement: 64327 and 65554 gas before the change
    const c = await make();
    const D = devKey(3);
    await c.init(genesisState(
      [
        { address: A.address, coins: [{ denom: 'aaa', amount: '5' }, { denom: DENOM, amount: '1000000' }, { denom: 'ufoo', amount: '77' }] },
        { address: B.address, coins: [...coins(5000), { denom: 'ufoo', amount: '3' }] },
      ],
      { denom_metadata: [META2, META], send_enabled: [{ denom: 'ufoo', enabled: true }, { denom: 'aaa', enabled: false }] },
    ));
    const existing = await c.deliver(c.sign(A, [c.msgSend(A.address, B.address, coins(1234))]));
    expect([existing.code, existing.gasUsed], existing.log).to.deep.equal([0, 64327]);
    const fresh = await c.deliver(c.sign(A, [c.msgSend(A.address, D.address, coins(10))]));
    expect([fresh.code, fresh.gasUsed], fresh.log).to.deep.equal([0, 65554]);
  });

  it('exportAll → importAll round-trips the whole bank schema, byte for byte', async () => {
    const c = await make();
    await c.init(genesisState(
      [
        { address: A.address, coins: [{ denom: 'aaa', amount: '5' }, { denom: DENOM, amount: '1000000' }, { denom: 'ufoo', amount: '77' }] },
        { address: B.address, coins: [...coins(5000), { denom: 'ufoo', amount: '3' }] },
      ],
      { denom_metadata: [META2, META], send_enabled: [{ denom: 'ufoo', enabled: true }, { denom: 'aaa', enabled: false }] },
    ));
    // history: a new account, a balance emptied (removed with its owner entry), fees, a mint beyond 2^64
    expect((await c.deliver(c.sign(A, [c.msgSend(A.address, C.address, [...coins(10), { denom: 'ufoo', amount: '7' }])]))).code).to.equal(0);
    expect((await c.deliver(c.sign(B, [c.msgSend(B.address, C.address, [...coins(7), { denom: 'ufoo', amount: '3' }])]))).code).to.equal(0);
    const { ctx } = c.branchCtx();
    c.bk.mintCoins(ctx, 'faucet', coins(123456789012345678901234567890n, 'ubig'));

    const exported = c.bk.state.schema.exportAll(ctx);
    expect(Object.keys(exported)).to.deep.equal(['supply', 'denom_metadata', 'balances', 'address_by_denom_index', 'send_enabled', 'params']);
    expect(exported.supply).to.deep.include(['ubig', 123456789012345678901234567890n]);
    expect(exported.balances).to.deep.include([[B.addr, DENOM], 5000n - 7n - 100n]);
    expect(exported.balances).to.deep.include([[C.addr, 'ufoo'], 10n]);
    expect(exported.balances!.filter(([key]) => hex((key as [Uint8Array, string])[0]) === hex(B.addr))).to.have.length(1); // B's ufoo is gone
    expect(exported.address_by_denom_index).to.have.length(exported.balances!.length);
    expect(exported.params).to.deep.equal([[null, { send_enabled: [], default_send_enabled: true }]]);

    const mem = new MemKVStore();
    const target = new Context(mem, { height: 1, time: new Date(0), chainId: 'x', proposer: new Uint8Array() }, 'genesis');
    c.bk.state.schema.importAll(target, exported);
    expect(bankEntries(mem)).to.deep.equal(bankEntries(ctx.ms));
    expect(c.bk.state.schema.exportAll(target)).to.deep.equal(exported);
    // and the keeper reads the imported state as the original
    expect(c.bk.getAllBalances(target, C.addr)).to.deep.equal(c.bk.getAllBalances(ctx, C.addr));
    expect(c.bk.getSupply(target, 'ubig')).to.equal(123456789012345678901234567890n);
  });

  it('a value that is not decimal text is an error naming the collection and the key', async () => {
    const c = await make();
    await c.init(genesisState([{ address: A.address, coins: coins(1) }]));
    const { ctx, state } = c.branchCtx();
    state.set(new Uint8Array([...new TextEncoder().encode('bank/'), 0x00, ...new TextEncoder().encode('bad')]), new TextEncoder().encode('12x'));
    expect(() => c.bk.getSupply(ctx, 'bad')).to.throw('collection "supply": decoding the value at key "bad": math.Int value: not decimal text: 0x313278');
  });
});
