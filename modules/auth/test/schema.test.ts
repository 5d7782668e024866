import { expect } from 'chai';
import { Context } from '@chain/app';
import { MemKVStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import { DEFAULT_AUTH_PARAMS, FEE_COLLECTOR } from '../src/index.js';
import { TestChain, devKey, coins } from './helpers.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): string => Buffer.from(s, 'utf8').toString('hex');
const be64 = (n: number): string => n.toString(16).padStart(16, '0');

/** Every entry under `acc/` of a store, keys without the `acc/` prefix, hex encoded. */
const accEntries = (store: KVStore): [string, string][] => {
  const p = new TextEncoder().encode('acc/');
  const end = Uint8Array.of(...p.subarray(0, -1), p.at(-1)! + 1);
  return [...store.iterator(p, end)].map(([k, v]) => [hex(k.subarray(p.length)), hex(v)]);
};

describe('auth: state schema (@chain/collections)', () => {
  const A = devKey(0);
  const B = devKey(1);
  let c: TestChain;
  beforeEach(async () => {
    c = await TestChain.create();
    await c.init([{ address: A.address, coins: coins(1000) }]);
  });
  afterEach(async () => {
    await c.close();
  });

  it('declares one collection per prefix, with the SDK names', () => {
    expect(c.ak.state.schema.collections().map((x) => [hex(x.prefix), x.name, x.kind])).to.deep.equal([
      ['01', 'accounts', 'map'],
      ['02', 'account_number', 'item'],
      ['03', 'params', 'item'],
      ['04', 'account_by_number', 'map'],
    ]);
  });

  it('keeps the byte layout of the README (State)', () => {
    const ctx = c.app.queryContext();
    const fee = c.ak.getModuleAddress(FEE_COLLECTOR);
    const minter = c.ak.getModuleAddress('minter');
    const any = (addr: Uint8Array): string => hex(c.registry.encode('google.protobuf.Any', c.ak.packAccount(c.ak.getAccount(ctx, addr)!)));
    const accounts = [fee, minter, A.addr].map((a) => ['01' + hex(a), any(a)] as [string, string]).sort(([x], [y]) => (x < y ? -1 : 1));
    expect(accEntries(c.store.state)).to.deep.equal([
      // 0x01 | address → Any, protobuf
      ...accounts,
      // 0x02 → next account number, decimal text
      ['02', ascii('3')],
      // 0x03 → Params, protobuf
      ['03', hex(c.registry.encode('chain.auth.v1beta1.Params', { ...DEFAULT_AUTH_PARAMS }))],
      // 0x04 | BE64(number) → address
      ['04' + be64(0), hex(fee)],
      ['04' + be64(1), hex(minter)],
      ['04' + be64(2), hex(A.addr)],
    ]);
  });

  it('exportAll → importAll round-trips the whole auth schema, byte for byte', async () => {
    expect((await c.deliver(c.send(A, B.address))).code).to.equal(0); // a sequence, a pubkey, a new account
    const ctx = c.app.queryContext();
    const exported = c.ak.state.schema.exportAll(ctx);
    expect(Object.keys(exported)).to.deep.equal(['accounts', 'account_number', 'params', 'account_by_number']);
    expect(exported.account_number).to.deep.equal([[null, 4n]]);
    const mem = new MemKVStore();
    const target = new Context(mem, { height: 1, time: new Date(0), chainId: 'x', proposer: new Uint8Array() }, 'genesis');
    c.ak.state.schema.importAll(target, exported);
    expect(accEntries(mem)).to.deep.equal(accEntries(c.store.state));
    expect(c.ak.state.schema.exportAll(target)).to.deep.equal(exported);
    expect(c.ak.getAccount(target, A.addr)).to.deep.equal(c.ak.getAccount(ctx, A.addr));
    expect(c.ak.nextAccountNumber(target)).to.equal(4n);
  });
});
