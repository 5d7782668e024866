import { expect } from 'chai';
import type { AnyMsg } from '@chain/codec';
import { FEE_COLLECTOR } from '../src/index.js';
import { TestChain, devKey, devEthKey, coins, PREFIX } from './helpers.js';

interface Page { next_key: Uint8Array; total: bigint }

describe('auth: queries through app.query', () => {
  const A = devKey(0);
  const B = devKey(1);
  const E = devEthKey(0);
  let chain: TestChain;

  before(async () => {
    chain = await TestChain.create();
    await chain.init([{ address: A.address, coins: coins(1000000) }, { address: B.address, coins: coins(1000) }, { address: E.address, coins: coins(1000000) }]
      .sort((x, y) => (x.address < y.address ? -1 : 1)));
    expect((await chain.deliver(chain.send(A, B.address))).code).to.equal(0);
    expect((await chain.deliver(chain.send(E, B.address))).code).to.equal(0);
  });
  after(async () => {
    await chain.close();
  });

  const account = (address: string, path = '/chain.auth.v1beta1.Query/Account') =>
    chain.query<{ account: AnyMsg }>(path, 'chain.auth.v1beta1.QueryAccountRequest', { address }, 'chain.auth.v1beta1.QueryAccountResponse');

  it('Account: a BaseAccount with pubkey, number and sequence; Cosmos spellings on the /cosmos. path', async () => {
    const { res, value } = await account(A.address);
    expect(res.code, res.log).to.equal(0);
    expect(value!.account.type_url).to.equal('/chain.auth.v1beta1.BaseAccount');
    const acc = chain.registry.decode<{ address: string; pub_key: AnyMsg; account_number: bigint; sequence: bigint }>('chain.auth.v1beta1.BaseAccount', value!.account.value);
    expect(acc.address).to.equal(A.address);
    expect(acc.sequence).to.equal(1n);
    expect(acc.account_number).to.equal(chain.account(A.addr)!.base.account_number);
    expect(acc.pub_key.type_url).to.equal('/chain.crypto.secp256k1.PubKey');

    const cosmos = await account(A.address, '/cosmos.auth.v1beta1.Query/Account');
    expect(cosmos.value!.account.type_url).to.equal('/cosmos.auth.v1beta1.BaseAccount');
    const inner = chain.registry.decode<{ pub_key: AnyMsg }>('chain.auth.v1beta1.BaseAccount', cosmos.value!.account.value);
    expect(inner.pub_key.type_url).to.equal('/cosmos.crypto.secp256k1.PubKey');

    const eth = await account(E.address, '/cosmos.auth.v1beta1.Query/Account');
    const ethInner = chain.registry.decode<{ pub_key: AnyMsg }>('chain.auth.v1beta1.BaseAccount', eth.value!.account.value);
    expect(ethInner.pub_key.type_url).to.equal('/ethermint.crypto.v1.ethsecp256k1.PubKey');
  });

  it('Account: unknown account is NotFound (code 22), bad and empty addresses are InvalidArgument (code 18)', async () => {
    const nobody = devKey(7).address;
    const missing = await account(nobody);
    expect([missing.res.code, missing.res.codespace]).to.deep.equal([22, 'sdk']);
    expect(missing.res.log).to.equal(`rpc error: code = NotFound desc = account ${nobody} not found: key not found`);
    const bad = await account('cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du');
    expect([bad.res.code, bad.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = invalid address: invalid Bech32 prefix; expected chain, got cosmos: invalid request']);
    const empty = await account('');
    expect([empty.res.code, empty.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = Address cannot be empty: invalid request']);
  });

  it('Accounts pages through every account (base and module) with count_total and next_key', async () => {
    const all: AnyMsg[] = [];
    let key: Uint8Array | undefined;
    let total = -1n;
    for (let i = 0; i < 10; i++) {
      const { res, value } = await chain.query<{ accounts: AnyMsg[]; pagination: Page }>('/chain.auth.v1beta1.Query/Accounts', 'chain.auth.v1beta1.QueryAccountsRequest',
        { pagination: { key, limit: 2n, count_total: key === undefined } }, 'chain.auth.v1beta1.QueryAccountsResponse');
      expect(res.code, res.log).to.equal(0);
      expect(value!.accounts.length).to.be.at.most(2);
      if (key === undefined) total = value!.pagination.total;
      all.push(...value!.accounts);
      if (value!.pagination.next_key.length === 0) break;
      key = value!.pagination.next_key;
    }
    // A, B, E + fee_collector, minter
    expect(total).to.equal(5n);
    expect(all).to.have.length(5);
    expect(all.filter((a) => a.type_url === '/chain.auth.v1beta1.ModuleAccount')).to.have.length(2);
    const addrs = all.map((a) => {
      const m = chain.registry.decode<{ address?: string; base_account?: { address: string } }>(a.type_url.slice(1), a.value);
      return m.base_account?.address ?? m.address!;
    });
    // ordered by address bytes
    const bytes = addrs.map((s) => Buffer.from(chain.ak.addressCodec.decode(s)).toString('hex'));
    expect(bytes).to.deep.equal([...bytes].sort());
    expect(new Set(addrs).size).to.equal(5);
  });

  it('ModuleAccountByName and ModuleAccounts', async () => {
    const q = (name: string, path = '/chain.auth.v1beta1.Query/ModuleAccountByName') => chain.query<{ account: AnyMsg }>(path,
      'chain.auth.v1beta1.QueryModuleAccountByNameRequest', { name }, 'chain.auth.v1beta1.QueryModuleAccountByNameResponse');
    const fc = await q(FEE_COLLECTOR, '/cosmos.auth.v1beta1.Query/ModuleAccountByName');
    expect(fc.res.code, fc.res.log).to.equal(0);
    expect(fc.value!.account.type_url).to.equal('/cosmos.auth.v1beta1.ModuleAccount');
    const m = chain.registry.decode<{ base_account: { address: string }; name: string; permissions: string[] }>('chain.auth.v1beta1.ModuleAccount', fc.value!.account.value);
    expect(m.name).to.equal(FEE_COLLECTOR);
    expect(m.permissions).to.deep.equal([]);
    expect(m.base_account.address).to.equal(chain.ak.addressCodec.encode(chain.ak.getModuleAddress(FEE_COLLECTOR)));
    const minter = await q('minter');
    expect(chain.registry.decode<{ permissions: string[] }>('chain.auth.v1beta1.ModuleAccount', minter.value!.account.value).permissions).to.deep.equal(['minter', 'burner']);
    const none = await q('nosuch');
    expect([none.res.code, none.res.log]).to.deep.equal([22, 'rpc error: code = NotFound desc = account nosuch not found: key not found']);
    const empty = await q('');
    expect([empty.res.code, empty.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = module name is empty: invalid request']);
    const list = await chain.query<{ accounts: AnyMsg[] }>('/chain.auth.v1beta1.Query/ModuleAccounts', 'chain.auth.v1beta1.QueryModuleAccountsRequest', {}, 'chain.auth.v1beta1.QueryModuleAccountsResponse');
    expect(list.value!.accounts.map((a) => chain.registry.decode<{ name: string }>('chain.auth.v1beta1.ModuleAccount', a.value).name)).to.deep.equal([FEE_COLLECTOR, 'minter']);
  });

  it('AddressBytesToString, AddressStringToBytes and Bech32Prefix', async () => {
    const toStr = await chain.query<{ address_string: string }>('/cosmos.auth.v1beta1.Query/AddressBytesToString', 'chain.auth.v1beta1.AddressBytesToStringRequest',
      { address_bytes: A.addr }, 'chain.auth.v1beta1.AddressBytesToStringResponse');
    expect(toStr.value!.address_string).to.equal(A.address);
    const emptyBytes = await chain.query('/chain.auth.v1beta1.Query/AddressBytesToString', 'chain.auth.v1beta1.AddressBytesToStringRequest', { address_bytes: new Uint8Array() }, 'chain.auth.v1beta1.AddressBytesToStringResponse');
    expect([emptyBytes.res.code, emptyBytes.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = empty address bytes is not allowed: invalid request']);
    // any length is encoded, as the SDK's bech32 codec does (found by e2e/test/abuse.test.ts: was an internal error)
    const long = await chain.query<{ address_string: string }>('/chain.auth.v1beta1.Query/AddressBytesToString', 'chain.auth.v1beta1.AddressBytesToStringRequest',
      { address_bytes: new Uint8Array(4500).fill(0xab) }, 'chain.auth.v1beta1.AddressBytesToStringResponse');
    expect(long.res.code, long.res.log).to.equal(0);
    expect(long.value!.address_string).to.match(/^chain1[02-9ac-hj-np-z]{7206}$/);
    const toBytes = await chain.query<{ address_bytes: Uint8Array }>('/chain.auth.v1beta1.Query/AddressStringToBytes', 'chain.auth.v1beta1.AddressStringToBytesRequest',
      { address_string: E.address }, 'chain.auth.v1beta1.AddressStringToBytesResponse');
    expect(Buffer.from(toBytes.value!.address_bytes).toString('hex')).to.equal(Buffer.from(E.addr).toString('hex'));
    const badStr = await chain.query('/chain.auth.v1beta1.Query/AddressStringToBytes', 'chain.auth.v1beta1.AddressStringToBytesRequest', { address_string: 'chain1bad' }, 'chain.auth.v1beta1.AddressStringToBytesResponse');
    expect(badStr.res.code).to.equal(18);
    expect(badStr.res.log).to.match(/^rpc error: code = InvalidArgument desc = invalid address: decoding bech32 failed: .+: invalid request$/);
    const prefix = await chain.query<{ bech32_prefix: string }>('/chain.auth.v1beta1.Query/Bech32Prefix', 'chain.auth.v1beta1.Bech32PrefixRequest', {}, 'chain.auth.v1beta1.Bech32PrefixResponse');
    expect(prefix.value!.bech32_prefix).to.equal(PREFIX);
  });

  it('AccountAddressByID, AccountInfo and Params', async () => {
    const n = chain.account(B.addr)!.base.account_number;
    const byId = await chain.query<{ account_address: string }>('/chain.auth.v1beta1.Query/AccountAddressByID', 'chain.auth.v1beta1.QueryAccountAddressByIDRequest', { account_id: n }, 'chain.auth.v1beta1.QueryAccountAddressByIDResponse');
    expect(byId.value!.account_address).to.equal(B.address);
    const missing = await chain.query('/chain.auth.v1beta1.Query/AccountAddressByID', 'chain.auth.v1beta1.QueryAccountAddressByIDRequest', { account_id: 999n }, 'chain.auth.v1beta1.QueryAccountAddressByIDResponse');
    expect([missing.res.code, missing.res.log]).to.deep.equal([22, 'rpc error: code = NotFound desc = account address not found with account number 999: key not found']);
    const info = await chain.query<{ info: { address: string; sequence: bigint; account_number: bigint } }>('/chain.auth.v1beta1.Query/AccountInfo', 'chain.auth.v1beta1.QueryAccountInfoRequest', { address: E.address }, 'chain.auth.v1beta1.QueryAccountInfoResponse');
    expect([info.value!.info.address, info.value!.info.sequence]).to.deep.equal([E.address, 1n]);
    const params = await chain.query<{ params: Record<string, bigint> }>('/cosmos.auth.v1beta1.Query/Params', 'chain.auth.v1beta1.QueryParamsRequest', {}, 'chain.auth.v1beta1.QueryParamsResponse');
    expect(params.value!.params).to.deep.equal({ max_memo_characters: 256n, tx_sig_limit: 7n, tx_size_cost_per_byte: 10n, sig_verify_cost_ed25519: 590n, sig_verify_cost_secp256k1: 1000n });
  });
});
