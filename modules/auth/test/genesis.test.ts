import { expect } from 'chai';
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import { sha256, toHex } from '@chain/crypto';
import { Errors } from '@chain/errors';
import { branch } from '@chain/store';
import { AddressCodec, AuthModule, moduleAddress, FEE_COLLECTOR } from '../src/index.js';
import { DecodedBaseAccount, accountFromJSON, initGenesisStream } from '../src/genesis.js';
import { TestChain, devKey, coins, pubKeyAny, PREFIX } from './helpers.js';

const baseAccount = (address: string, n: number, seq = 0, pubKey: unknown = null) =>
  ({ '@type': '/chain.auth.v1beta1.BaseAccount', address, pub_key: pubKey, account_number: String(n), sequence: String(seq) });

describe('auth: genesis and account numbers', () => {
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

  it('without genesis accounts, account numbers start at 0 (module accounts first, then bank recipients)', async () => {
    const c = await make();
    await c.init([{ address: A.address, coins: coins(1000) }]);
    expect(c.account(c.ak.getModuleAddress(FEE_COLLECTOR))!.base.account_number).to.equal(0n);
    expect(c.account(c.ak.getModuleAddress('minter'))!.base.account_number).to.equal(1n);
    expect(c.account(A.addr)!.base.account_number).to.equal(2n);
    expect((await c.deliver(c.send(A, B.address))).code).to.equal(0);
    expect(c.account(B.addr)!.base.account_number).to.equal(3n);
  });

  it('keeps genesis account numbers, sequences and pubkeys; new accounts continue after the highest number', async () => {
    const c = await make();
    const pk = c.registry.toJSON('google.protobuf.Any', pubKeyAny(c.registry, A) as unknown as Record<string, unknown>);
    await c.init([{ address: A.address, coins: coins(1000) }], { accounts: [baseAccount(A.address, 4, 3, pk), baseAccount(C.address, 7)] });
    const a = c.account(A.addr)!;
    expect([a.base.account_number, a.base.sequence]).to.deep.equal([4n, 3n]);
    expect(a.base.pub_key?.type_url).to.equal('/cosmos.crypto.secp256k1.PubKey');
    expect(c.account(C.addr)!.base.account_number).to.equal(7n);
    // module accounts and the next new account come after 7
    const modules = [c.account(c.ak.getModuleAddress(FEE_COLLECTOR))!, c.account(c.ak.getModuleAddress('minter'))!].map((m) => m.base.account_number);
    expect(modules).to.deep.equal([8n, 9n]);
    const r = await c.deliver(c.send(A, B.address, { signer: { pubKey: null } }));
    expect(r.code, r.log).to.equal(0);
    expect(c.account(B.addr)!.base.account_number).to.equal(10n);
    expect(c.account(A.addr)!.base.sequence).to.equal(4n);
  });

  it('rejects duplicate genesis accounts', async () => {
    const c = await make();
    const appState = {
      auth: { ...(c.app.defaultGenesis().auth as Record<string, unknown>), accounts: [baseAccount(A.address, 0), baseAccount(A.address, 1)] },
    };
    expect(() => c.base.initChain(appState)).to.throw(`duplicate account found in genesis state; address: ${A.address}`);
  });

  it('exportGenesis lists params and every account in address order', async () => {
    const c = await make();
    await c.init([{ address: A.address, coins: coins(1000) }, { address: B.address, coins: coins(1000) }].sort((x, y) => (x.address < y.address ? -1 : 1)));
    const exported = c.app.exportGenesis().auth as { params: Record<string, string>; accounts: Record<string, unknown>[] };
    expect(exported.params).to.deep.equal({ max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' });
    expect(exported.accounts.map((a) => a['@type'])).to.have.members(['/chain.auth.v1beta1.BaseAccount', '/chain.auth.v1beta1.BaseAccount', '/chain.auth.v1beta1.ModuleAccount', '/chain.auth.v1beta1.ModuleAccount']);
    const addrs = exported.accounts.map((a) => String((a.base_account as { address?: string } | undefined)?.address ?? a.address));
    const hexes = addrs.map((s) => toHex(c.ak.addressCodec.decode(s)));
    expect(hexes).to.deep.equal([...hexes].sort());
  });
});

describe('auth: AccountKeeper and AddressCodec', () => {
  const A = devKey(0);
  let chain: TestChain;
  beforeEach(async () => {
    chain = await TestChain.create();
    await chain.init([]);
  });
  afterEach(async () => {
    await chain.close();
  });

  const writableCtx = (): Context => new Context(branch(chain.store.state), { height: 2, time: new Date(0), chainId: 'x', proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());

  it('listedInGenesis: the addresses whose accounts the genesis stream of this context stored, and no others', () => {
    const ctx = writableCtx();
    const other = writableCtx();
    const s = initGenesisStream(ctx, chain.ak, { params: undefined, accounts: [] } as never);
    s.add('accounts', [chain.ak.packAccount({ address: A.addr, base: { address: A.address, pub_key: null, account_number: 50n, sequence: 0n } })]);
    s.end();
    expect(chain.ak.listedInGenesis(ctx, A.address)).to.equal(true);
    expect(chain.ak.hasAccount(ctx, A.addr)).to.equal(true);
    // another address, the same one in another context (another InitChain), a module account created in end()
    expect(chain.ak.listedInGenesis(ctx, devKey(1).address)).to.equal(false);
    expect(chain.ak.listedInGenesis(other, A.address)).to.equal(false);
    expect(chain.ak.listedInGenesis(ctx, chain.ak.addressCodec.encode(chain.ak.getModuleAddress(FEE_COLLECTOR)))).to.equal(false);
  });

  it('accountFromJSON reads the common base account; the stream stores it as it stores the registry\'s decoding', () => {
    const reg = chain.registry;
    const B = devKey(1);
    const accepted: Record<string, unknown>[] = [
      baseAccount(A.address, 0),
      { ...baseAccount(B.address, 18, 7), '@type': '/cosmos.auth.v1beta1.BaseAccount' },
      { '@type': '/chain.auth.v1beta1.BaseAccount', address: devKey(2).address, account_number: '18446744073709551615', sequence: '1' },
      baseAccount(devKey(3).address, 1234567890123),
    ];
    const refused: unknown[] = [
      baseAccount(A.address, 1, 0, chain.registry.toJSON('google.protobuf.Any', pubKeyAny(reg, A) as unknown as Record<string, unknown>)),
      { '@type': '/chain.auth.v1beta1.BaseAccount', address: A.address, pubKey: null, account_number: '1', sequence: '0' },
      { ...baseAccount(A.address, 1), extra: 1 },
      { ...baseAccount(A.address, 1), account_number: 1 },
      { ...baseAccount(A.address, 1), account_number: '01' },
      { ...baseAccount(A.address, 1), sequence: '18446744073709551616' },
      { ...baseAccount(A.address, 1), address: null },
      { ...baseAccount(A.address, 1), address: 'chäin1x' },
      { '@type': '/chain.auth.v1beta1.BaseAccount', address: A.address, account_number: '1' },
      { '@type': '/chain.auth.v1beta1.ModuleAccount', base_account: baseAccount(A.address, 1), name: 'x', permissions: [] },
      { ...baseAccount(A.address, 1), '@type': '/no.such.Type' },
      null,
      [baseAccount(A.address, 1)],
    ];
    for (const x of accepted) expect(accountFromJSON(x, reg), JSON.stringify(x)).to.be.instanceOf(DecodedBaseAccount);
    for (const x of refused) expect(accountFromJSON(x, reg), JSON.stringify(x)).to.equal(undefined);
    // the AppModule hands the manager the same reading
    expect(new AuthModule(chain.ak).genesisEntryFromJSON('accounts', accepted[0])).to.be.instanceOf(DecodedBaseAccount);
    // the same writes as the registry's Anys (the accepted ones and a few the registry decodes, side by side)
    const jsons = [...accepted, baseAccount(devKey(4).address, 5, 0, chain.registry.toJSON('google.protobuf.Any', pubKeyAny(reg, devKey(4)) as unknown as Record<string, unknown>)), { ...baseAccount(devKey(5).address, 9), accountNumber: '3' }];
    const writes = (entries: unknown[]): string[] => {
      const b = branch(chain.store.state);
      const ctx = new Context(b, { height: 2, time: new Date(0), chainId: 'x', proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());
      const s = initGenesisStream(ctx, chain.ak, { params: undefined, accounts: [] } as never);
      s.add('accounts', entries as never);
      s.end();
      return b.changes().map((c) => `${toHex(c.key)}=${c.value ? toHex(c.value) : '-'}`);
    };
    const generic = writes(jsons.map((x) => reg.fromJSON('google.protobuf.Any', x)));
    const fast = writes(jsons.map((x) => accountFromJSON(x, reg) ?? reg.fromJSON('google.protobuf.Any', x)));
    expect(fast).to.deep.equal(generic);
    expect(generic.length).to.be.greaterThan(2 * jsons.length);
    // a duplicate is refused the same way
    expect(() => writes([accountFromJSON(baseAccount(A.address, 1), reg), accountFromJSON(baseAccount(A.address, 2), reg)])).to.throw(`duplicate account found in genesis state; address: ${A.address}`);
    expect(() => writes([accountFromJSON(baseAccount('chain1nope', 1), reg)])).to.throw(/^decoding bech32 failed/);
  });

  it('module addresses are the first 20 bytes of sha256(name)', () => {
    expect(toHex(moduleAddress(FEE_COLLECTOR))).to.equal(toHex(sha256(new TextEncoder().encode(FEE_COLLECTOR)).subarray(0, 20)));
    expect(toHex(chain.ak.getModuleAddress('minter'))).to.equal(toHex(moduleAddress('minter')));
    expect(chain.ak.moduleNameOf(moduleAddress('minter'))).to.equal('minter');
    expect(chain.ak.moduleNameOf(A.addr)).to.equal(undefined);
    expect(chain.ak.hasPermission('minter', 'burner')).to.equal(true);
    expect(chain.ak.hasPermission(FEE_COLLECTOR, 'minter')).to.equal(false);
  });

  it('createAccount assigns consecutive numbers and indexes them; getModuleAccount checks names and types', () => {
    const ctx = writableCtx();
    const next = chain.ak.nextAccountNumber(ctx);
    chain.ak.createAccount(ctx, A.addr);
    expect(chain.ak.getAccount(ctx, A.addr)!.base.account_number).to.equal(next + 1n);
    expect(toHex(chain.ak.addressByAccountNumber(ctx, next + 1n)!)).to.equal(toHex(A.addr));
    try {
      chain.ak.getModuleAccount(ctx, 'nosuch');
      expect.fail('should have thrown');
    } catch (e) {
      expect(Errors.UnknownAddress.is(e)).to.equal(true);
      expect((e as Error).message).to.equal('module account nosuch does not exist: unknown address');
    }
    // a base account squatting on a module address is not a module account
    chain.ak.setAccount(ctx, { address: moduleAddress('minter'), base: { address: chain.ak.addressCodec.encode(moduleAddress('minter')), pub_key: null, account_number: 99n, sequence: 0n } });
    expect(() => chain.ak.getModuleAccount(ctx, 'minter')).to.throw('is not a module account: invalid type');
  });

  it('AddressCodec decodes only its own prefix and valid bech32', () => {
    const codec = new AddressCodec(PREFIX);
    expect(toHex(codec.decode(A.address))).to.equal(toHex(A.addr));
    expect(codec.valoperPrefix).to.equal('chainvaloper');
    expect(codec.valconsPrefix).to.equal('chainvalcons');
    expect(() => codec.decode('')).to.throw('empty address string is not allowed');
    expect(() => codec.decode(new AddressCodec('other').encode(A.addr))).to.throw('invalid Bech32 prefix; expected chain, got other');
    expect(() => codec.decode(A.address.slice(0, -1) + (A.address.endsWith('a') ? 'c' : 'a'))).to.throw(/^decoding bech32 failed: /);
    const long = new AddressCodec(PREFIX).encode(new Uint8Array(32).fill(7));
    expect(codec.decode(long)).to.have.length(32);
  });
});
