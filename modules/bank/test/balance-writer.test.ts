/** BankKeeper.balanceWriter leaves the state that the same initBalance calls leave, byte for byte. */
import { expect } from 'chai';
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { Coin } from '@chain/app';
import { AccountKeeper, AddressCodec, AUTH_PROTO_DIR } from '@chain/auth';
import { ProtoRegistry } from '@chain/codec';
import { MemKVStore, branch } from '@chain/store';
import { BankKeeper, BANK_PROTO_DIR } from '../src/index.js';

function setup(): { bk: BankKeeper; ctx: Context; mem: MemKVStore; commit: () => void } {
  const registry = new ProtoRegistry();
  registry.addProtoDir(AUTH_PROTO_DIR);
  registry.addProtoDir(BANK_PROTO_DIR);
  const ak = new AccountKeeper({ registry, addressCodec: new AddressCodec('chain'), moduleAccounts: {} });
  const bk = new BankKeeper({ registry, accountKeeper: ak });
  const mem = new MemKVStore();
  const state = branch(mem);
  const ctx = new Context(state, { height: 1, time: new Date(0), chainId: 't', proposer: new Uint8Array() }, 'genesis', new InfiniteGasMeter(), new EventManager());
  return { bk, ctx, mem, commit: () => state.write() };
}

function dump(mem: MemKVStore): string[] {
  const out: string[] = [];
  for (const [k, v] of mem.iterator()) out.push(`${Buffer.from(k).toString('hex')}=${Buffer.from(v).toString('hex')}`);
  return out;
}

const addr = (i: number): Uint8Array => new Uint8Array(20).fill(i % 251).map((b, j) => (j === 0 ? i >> 8 : b));

describe('bank: balanceWriter (genesis balances, supply once per flush)', () => {
  it('writes what initBalance writes: several denoms, repeated addresses, existing balances and supply, zero sums', () => {
    const entries: [Uint8Array, Coin[]][] = [];
    for (let i = 0; i < 300; i++) {
      const coins: Coin[] = [{ denom: 'achain', amount: String(1000 + i) }];
      if (i % 3 === 0) coins.push({ denom: 'bfoo', amount: String(7 * i + 1) });
      if (i % 7 === 0) coins.unshift({ denom: 'aaa', amount: '5' });
      entries.push([addr(i), coins]);
    }
    // an address twice, and credits that bring a balance and a supply back to zero
    entries.push([addr(5), [{ denom: 'achain', amount: '11' }]]);
    entries.push([addr(9), [{ denom: 'zzz', amount: '4' }]]);
    entries.push([addr(9), [{ denom: 'zzz', amount: '-4' }]]);
    entries.push([addr(10), [{ denom: 'achain', amount: '-1010' }]]);
    const run = (batched: boolean, every: number): string[] => {
      const { bk, ctx, mem, commit } = setup();
      // state before: a balance and some supply
      bk.initBalance(ctx, addr(3), [{ denom: 'achain', amount: '50' }]);
      bk.initBalance(ctx, addr(400), [{ denom: 'bfoo', amount: '9' }]);
      if (batched) {
        let w = bk.balanceWriter(ctx);
        entries.forEach(([a, c], i) => {
          w.add(a, c);
          if ((i + 1) % every === 0) {
            w.flush();
            if (i % 2 === 0) w = bk.balanceWriter(ctx);
          }
        });
        w.flush();
      } else {
        for (const [a, c] of entries) bk.initBalance(ctx, a, c);
      }
      expect(bk.getSupply(ctx, 'zzz')).to.equal(0n);
      commit();
      return dump(mem);
    };
    const want = run(false, 1);
    expect(want.length).to.be.greaterThan(600);
    for (const every of [1, 7, 100, 1000]) expect(run(true, every), `flush every ${every}`).to.deep.equal(want);
  });

  it('keeps supply changes until flush, and reads the balance written before', () => {
    const { bk, ctx } = setup();
    const w = bk.balanceWriter(ctx);
    w.add(addr(1), [{ denom: 'achain', amount: '10' }]);
    w.add(addr(1), [{ denom: 'achain', amount: '5' }]);
    expect(bk.getBalance(ctx, addr(1), 'achain')).to.equal(15n);
    expect(bk.getSupply(ctx, 'achain')).to.equal(0n);
    w.flush();
    expect(bk.getSupply(ctx, 'achain')).to.equal(15n);
    w.flush();
    expect(bk.getSupply(ctx, 'achain')).to.equal(15n);
    expect(bk.getAllBalances(ctx, addr(1))).to.deep.equal([{ denom: 'achain', amount: '15' }]);
  });
});
