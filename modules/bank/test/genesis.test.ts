import { expect } from 'chai';
import { FEE_COLLECTOR } from '@chain/auth';
import { balanceFromJSON, initGenesisStream } from '../src/genesis.js';
import { BankModule } from '../src/index.js';
import { TestChain, devKey, genesisState, coins, DENOM } from './helpers.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Every key/value of the committed state, hex encoded. */
const stateDump = (c: TestChain): [string, string][] => [...c.store.state.iterator()].map(([k, v]) => [hex(k), hex(v)]);

const META = {
  description: 'd', denom_units: [{ denom: 'ufoo', exponent: 0, aliases: [] }, { denom: 'foo', exponent: 6, aliases: ['FOO'] }],
  base: 'ufoo', display: 'foo', name: 'Foo', symbol: 'FOO', uri: 'https://example.org/foo', uri_hash: '',
};

describe('bank: genesis', () => {
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

  it('initChain credits balances and supply, creates accounts and writes metadata', async () => {
    const c = await make();
    await c.init(genesisState(
      [{ address: A.address, coins: [...coins(300), { denom: 'ufoo', amount: '7' }] }, { address: B.address, coins: coins(200) }],
      { supply: [...coins(500), { denom: 'ufoo', amount: '7' }], denom_metadata: [META] },
    ));
    expect(c.balance(A.address)).to.equal(300n);
    expect(c.balance(A.address, 'ufoo')).to.equal(7n);
    expect(c.supply()).to.equal(500n);
    expect(c.supply('ufoo')).to.equal(7n);
    expect(c.account(A.addr)?.base.address).to.equal(A.address);
    expect(c.account(B.addr)?.base.sequence).to.equal(0n);
    expect(c.bk.getDenomMetadata(c.ctx(), 'ufoo')).to.deep.equal(META);
  });

  it('a streamed genesis credits balances stored before it (read first); with none stored it reads none, same state', async () => {
    const c = await make();
    await c.init(genesisState([{ address: A.address, coins: coins(300) }], { supply: coins(300) }));
    // balances exist: A's genesis entry is credited on top (300 + 5)
    const pre = c.base.branchCtx();
    expect(c.bk.hasNoBalances(pre.ctx)).to.equal(false);
    const s = initGenesisStream(pre.ctx, c.bk, { params: undefined, balances: [], supply: [], denom_metadata: [], send_enabled: [] } as never);
    s.add('balances', [{ address: A.address, coins: coins(5) }, { address: C.address, coins: coins(9) }]);
    s.end();
    expect(c.bk.getBalance(pre.ctx, A.addr, DENOM)).to.equal(305n);
    expect(c.bk.getBalance(pre.ctx, C.addr, DENOM)).to.equal(9n);
    // none stored: the same entries give the same balances, denom owners and supply as the reading path
    const dump = async (fresh: boolean): Promise<[string, string][]> => {
      const d = await make();
      const b = d.base.branchCtx();
      expect(d.bk.hasNoBalances(b.ctx)).to.equal(true);
      const w = d.bk.balanceWriter(b.ctx);
      w.add(A.addr, [...coins(40), { denom: 'ufoo', amount: '0' }], fresh);
      w.add(B.addr, [{ denom: 'ufoo', amount: '3' }], fresh);
      w.flush();
      return [...b.state.changes()].map((ch) => [hex(ch.key), ch.value === undefined ? '-' : hex(ch.value)]);
    };
    expect(await dump(true)).to.deep.equal(await dump(false));
  });

  it('balanceFromJSON reads the common balance; the stream stores it as it stores the registry\'s decoding', async () => {
    const c = await make();
    const big = '9'.repeat(76);
    const accepted: Record<string, unknown>[] = [
      { address: A.address, coins: [{ denom: DENOM, amount: '300' }, { denom: 'ufoo', amount: '0' }] },
      { address: B.address, coins: [] },
      { address: C.address, coins: [{ denom: 'ufoo', amount: big }] },
    ];
    const refused: unknown[] = [
      { address: A.address, coins: [{ denom: DENOM, amount: '0300' }] },
      { address: A.address, coins: [{ denom: DENOM, amount: '+3' }] },
      { address: A.address, coins: [{ denom: DENOM, amount: '9'.repeat(77) }] },
      { address: A.address, coins: [{ denom: DENOM, amount: 3 }] },
      { address: A.address, coins: [{ denom: DENOM, amount: '3', extra: 1 }] },
      { address: A.address, coins: [null] },
      { address: A.address, coins: null },
      { address: A.address },
      { address: A.address, coins: [], extra: 1 },
      { address: 7, coins: [] },
      null,
      [],
    ];
    for (const x of accepted) expect(balanceFromJSON(x), JSON.stringify(x)).to.deep.equal(c.registry.fromJSON('chain.bank.v1beta1.Balance', x));
    for (const x of refused) expect(balanceFromJSON(x), JSON.stringify(x)).to.equal(undefined);
    expect(new BankModule(c.bk).genesisEntryFromJSON('balances', accepted[0])).to.deep.equal(accepted[0]);
    // the same writes as the registry's Balances (the accepted ones and some it decodes, side by side)
    const D = devKey(3);
    const jsons = [{ address: A.address, coins: [{ denom: DENOM, amount: '300' }, { denom: 'ufoo', amount: '5' }] }, ...accepted.slice(1), { address: D.address, coins: [{ denom: DENOM, amount: '0007' }] }];
    expect(balanceFromJSON(jsons[0])).to.not.equal(undefined);
    const writes = (entries: unknown[]): string[] => {
      const b = c.base.branchCtx();
      const s = initGenesisStream(b.ctx, c.bk, { params: undefined, balances: [], supply: [], denom_metadata: [], send_enabled: [] } as never);
      s.add('balances', entries as never);
      s.end();
      return b.state.changes().map((ch) => `${hex(ch.key)}=${ch.value === undefined ? '-' : hex(ch.value)}`);
    };
    const generic = writes(jsons.map((x) => c.registry.fromJSON('chain.bank.v1beta1.Balance', x)));
    expect(writes(jsons.map((x) => balanceFromJSON(x) ?? c.registry.fromJSON('chain.bank.v1beta1.Balance', x)))).to.deep.equal(generic);
    expect(generic.length).to.be.greaterThan(jsons.length);
  });

  it('exportGenesis → initChain on a fresh store reproduces the exported JSON and the whole state', async () => {
    const c1 = await make();
    await c1.init(genesisState(
      [{ address: A.address, coins: [...coins(100000), { denom: 'ufoo', amount: '50' }] }, { address: B.address, coins: coins(1000) }],
      { denom_metadata: [META], send_enabled: [{ denom: 'ufoo', enabled: false }] },
    ));
    // some history: a new account, sequences, pubkeys, fees
    expect((await c1.deliver(c1.sign(A, [c1.msgSend(A.address, C.address, coins(777))]))).code).to.equal(0);
    expect((await c1.deliver(c1.sign(B, [c1.msgSend(B.address, A.address, coins(5))]))).code).to.equal(0);
    const exported = c1.app.exportGenesis();
    const bank = exported.bank as { balances: { address: string; coins: unknown[] }[]; supply: unknown[]; send_enabled: unknown[]; denom_metadata: unknown[] };
    const feeCollector = c1.codec.encode(c1.ak.getModuleAddress(FEE_COLLECTOR));
    expect(bank.balances).to.deep.equal([
      { address: A.address, coins: [{ denom: DENOM, amount: String(100000 - 777 - 100 + 5) }, { denom: 'ufoo', amount: '50' }] },
      { address: B.address, coins: [{ denom: DENOM, amount: String(1000 - 5 - 100) }] },
      { address: C.address, coins: [{ denom: DENOM, amount: '777' }] },
      { address: feeCollector, coins: [{ denom: DENOM, amount: '200' }] },
    ].sort((x, y) => (x.address < y.address ? -1 : 1)));
    expect(bank.supply).to.deep.equal([{ denom: DENOM, amount: '101000' }, { denom: 'ufoo', amount: '50' }]);
    expect(bank.send_enabled).to.deep.equal([{ denom: 'ufoo', enabled: false }]);
    expect(bank.denom_metadata).to.have.length(1);
    const auth = exported.auth as { accounts: { '@type': string }[] };
    expect(auth.accounts).to.have.length(3 + 3); // A, B, C + fee_collector, faucet, mintonly

    const json = JSON.parse(JSON.stringify(exported)) as Record<string, unknown>;
    const c2 = await make();
    await c2.init(json);
    expect(JSON.stringify(c2.app.exportGenesis())).to.equal(JSON.stringify(exported));
    expect(stateDump(c2)).to.deep.equal(stateDump(c1));
    // the imported chain keeps working: A's sequence and account number carried over
    expect(c2.account(A.addr)?.base.sequence).to.equal(1n);
    const r = await c2.deliver(c2.sign(A, [c2.msgSend(A.address, C.address, coins(1))]));
    expect(r.code, r.log).to.equal(0);
    // a brand-new account continues the account numbers after the imported ones
    const D = devKey(3);
    const maxImported = [...c2.ak.iterateAccounts(c2.ctx())].reduce((m, a) => (a.base.account_number > m ? a.base.account_number : m), -1n);
    expect((await c2.deliver(c2.sign(A, [c2.msgSend(A.address, D.address, coins(1))]))).code).to.equal(0);
    const numbers = [...c2.ak.iterateAccounts(c2.ctx())].map((a) => a.base.account_number);
    expect(c2.account(D.addr)?.base.account_number).to.equal(maxImported + 1n);
    expect(new Set(numbers).size).to.equal(numbers.length);

    // importing the same genesis twice is deterministic
    const c3 = await make();
    const h3 = await c3.init(json);
    const c4 = await make();
    const h4 = await c4.init(json);
    expect(hex(h3)).to.equal(hex(h4));
    expect(hex(h3)).to.have.length(64);
  });

  const bad: [string, () => Record<string, unknown>, string][] = [
    ['a duplicate balance entry', () => genesisState([{ address: A.address, coins: coins(1) }, { address: A.address, coins: coins(2) }]), `duplicate balance for address ${A.address}`],
    ['unsorted balance coins', () => genesisState([{ address: A.address, coins: [{ denom: 'zzz', amount: '1' }, { denom: 'aaa', amount: '1' }] }]), 'denomination aaa is not sorted or is duplicated: invalid coins'],
    ['a bad balance address', () => genesisState([{ address: 'chain1nope', coins: coins(1) }]), 'decoding bech32 failed'],
    ['a wrong supply', () => genesisState([{ address: A.address, coins: coins(10) }], { supply: coins(11) }), 'genesis supply is incorrect, expected 11achain, got 10achain'],
    ['an invalid metadata base denom', () => genesisState([], { denom_metadata: [{ ...META, base: '9x' }] }), 'invalid metadata base denom 9x'],
  ];
  for (const [what, gen, message] of bad) {
    it(`initChain rejects ${what}`, async () => {
      const c = await make();
      expect(() => c.base.initChain(gen())).to.throw(message);
    });
  }

  it('defaultGenesis of the app is the empty bank genesis with sends enabled', async () => {
    const c = await make();
    expect(c.app.defaultGenesis().bank).to.deep.equal({
      params: { send_enabled: [], default_send_enabled: true }, balances: [], supply: [], denom_metadata: [], send_enabled: [],
    });
  });
});
