import { expect } from 'chai';
import type { Coin } from '@chain/app';
import { TestChain, devKey, genesisState, coins, DENOM } from './helpers.js';

interface Page { next_key: Uint8Array; total: bigint }
interface BalancesResp { balances: Coin[]; pagination: Page | null }

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined): string | null => (b && b.length > 0 ? Buffer.from(b).toString() : null);

const META = {
  description: 'the foo token', denom_units: [{ denom: 'ufoo', exponent: 0, aliases: ['microfoo'] }, { denom: 'foo', exponent: 6, aliases: [] }],
  base: 'ufoo', display: 'foo', name: 'Foo', symbol: 'FOO', uri: '', uri_hash: '',
};

describe('bank: queries through app.query', () => {
  const A = devKey(0);
  const B = devKey(1);
  const C = devKey(2);
  const DENOMS = ['aaa', 'bbb', 'ccc', 'ddd', 'eee'];
  let chain: TestChain;

  before(async () => {
    chain = await TestChain.create();
    await chain.init(genesisState(
      [
        { address: A.address, coins: [...DENOMS.map((d, i) => ({ denom: d, amount: String(i + 1) })), { denom: DENOM, amount: '100000' }].sort((x, y) => (x.denom < y.denom ? -1 : 1)) },
        { address: B.address, coins: [...coins(500), { denom: 'ccc', amount: '9' }] },
      ],
      { denom_metadata: [{ ...META, denom_units: META.denom_units.map((u) => ({ ...u })) }], send_enabled: [{ denom: 'ddd', enabled: false }] },
    ));
    // height 2: A sends 1000achain to C
    const r = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, C.address, coins(1000))]));
    expect(r.code, r.log).to.equal(0);
  });
  after(async () => {
    await chain.close();
  });

  const allBalances = (req: Record<string, unknown>, path = '/chain.bank.v1beta1.Query/AllBalances') =>
    chain.query<BalancesResp>(path, 'chain.bank.v1beta1.QueryAllBalancesRequest', req, 'chain.bank.v1beta1.QueryAllBalancesResponse');
  const page = async (pagination: Record<string, unknown>): Promise<{ denoms: string[]; next: string | null; total: bigint }> => {
    const { res, value } = await allBalances({ address: A.address, pagination });
    expect(res.code, res.log).to.equal(0);
    return { denoms: value!.balances.map((c) => c.denom), next: text(value!.pagination?.next_key), total: value!.pagination!.total };
  };

  it('AllBalances on the /chain. path and its /cosmos. alias give the same bytes', async () => {
    const a = await allBalances({ address: B.address });
    const b = await allBalances({ address: B.address }, '/cosmos.bank.v1beta1.Query/AllBalances');
    expect(a.res.code).to.equal(0);
    expect(a.res.height).to.equal(2);
    expect(a.value!.balances).to.deep.equal([{ denom: DENOM, amount: '500' }, { denom: 'ccc', amount: '9' }]);
    expect(Buffer.from(b.res.value).toString('hex')).to.equal(Buffer.from(a.res.value).toString('hex'));
    expect(a.value!.pagination!.total).to.equal(2n);
    expect(text(a.value!.pagination!.next_key)).to.equal(null);
  });

  it('an unknown address has no balances and no error', async () => {
    const { res, value } = await allBalances({ address: devKey(9).address });
    expect(res.code).to.equal(0);
    expect(value!.balances).to.deep.equal([]);
    expect(value!.pagination!.total).to.equal(0n);
  });

  it('queries at a past height see the state of that block', async () => {
    const data = chain.registry.encode('chain.bank.v1beta1.QueryBalanceRequest', { address: A.address, denom: DENOM });
    const now = await chain.app.query({ path: '/chain.bank.v1beta1.Query/Balance', data });
    const past = await chain.app.query({ path: '/chain.bank.v1beta1.Query/Balance', data, height: 1 });
    const dec = (v: Uint8Array) => chain.registry.decode<{ balance: Coin }>('chain.bank.v1beta1.QueryBalanceResponse', v).balance.amount;
    expect([now.height, dec(now.value)]).to.deep.equal([2, String(100000 - 1000 - 100)]);
    expect([past.height, dec(past.value)]).to.deep.equal([1, '100000']);
    const future = await chain.app.query({ path: '/chain.bank.v1beta1.Query/Balance', data, height: 3 });
    expect([future.code, future.codespace, future.log]).to.deep.equal([26, 'sdk', 'cannot query with height in the future; please provide a valid height: invalid height']);
  });

  it('paginates by offset with count_total and next_key', async () => {
    expect(await page({ limit: 2n, count_total: true })).to.deep.equal({ denoms: ['aaa', 'achain'], next: 'bbb', total: 6n });
    expect(await page({ offset: 1n, limit: 2n })).to.deep.equal({ denoms: ['achain', 'bbb'], next: 'ccc', total: 0n });
    expect(await page({ offset: 5n, limit: 2n, count_total: true })).to.deep.equal({ denoms: ['eee'], next: null, total: 6n });
    expect(await page({ offset: 9n, limit: 2n, count_total: true })).to.deep.equal({ denoms: [], next: null, total: 6n });
  });

  it('paginates by key (total not computed) and walks every item exactly once', async () => {
    const seen: string[] = [];
    let key: Uint8Array | undefined;
    for (let i = 0; i < 10; i++) {
      const { res, value } = await allBalances({ address: A.address, pagination: { key, limit: 4n, count_total: true } });
      expect(res.code, res.log).to.equal(0);
      seen.push(...value!.balances.map((c) => c.denom));
      if (key) expect(value!.pagination!.total).to.equal(0n);
      const next = value!.pagination!.next_key;
      if (!next || next.length === 0) break;
      key = next;
    }
    expect(seen).to.deep.equal(['aaa', 'achain', 'bbb', 'ccc', 'ddd', 'eee']);
    expect(await page({ key: utf8('ccc'), limit: 2n })).to.deep.equal({ denoms: ['ccc', 'ddd'], next: 'eee', total: 0n });
    // a key between entries starts at the next entry
    expect(await page({ key: utf8('bba'), limit: 1n })).to.deep.equal({ denoms: ['bbb'], next: 'ccc', total: 0n });
  });

  it('reverse pages descend, by offset and by key (the key itself included)', async () => {
    expect(await page({ limit: 2n, reverse: true, count_total: true })).to.deep.equal({ denoms: ['eee', 'ddd'], next: 'ccc', total: 6n });
    expect(await page({ key: utf8('ccc'), limit: 2n, reverse: true })).to.deep.equal({ denoms: ['ccc', 'bbb'], next: 'achain', total: 0n });
    expect(await page({ key: utf8('achain'), limit: 5n, reverse: true })).to.deep.equal({ denoms: ['achain', 'aaa'], next: null, total: 0n });
  });

  it('limit 0 means the default limit with count_total forced on', async () => {
    expect(await page({ limit: 0n, count_total: false })).to.deep.equal({ denoms: ['aaa', 'achain', 'bbb', 'ccc', 'ddd', 'eee'], next: null, total: 6n });
  });

  it('rejects limit > 100 and offset together with key (code 18, InvalidArgument)', async () => {
    const big = await allBalances({ address: A.address, pagination: { limit: 101n } });
    expect([big.res.code, big.res.codespace]).to.deep.equal([18, 'sdk']);
    expect(big.res.log).to.equal('rpc error: code = InvalidArgument desc = pagination.limit must be at most 100, got 101: invalid request');
    const both = await allBalances({ address: A.address, pagination: { key: utf8('bbb'), offset: 1n } });
    expect([both.res.code, both.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = paginate: invalid request, either offset or key is expected, got both: invalid request']);
    expect((await page({ limit: 100n })).denoms).to.have.length(6);
  });

  it('Balance: bad denom, bad address and empty address are InvalidArgument (code 18)', async () => {
    const q = (req: Record<string, unknown>) => chain.query<{ balance: Coin }>('/cosmos.bank.v1beta1.Query/Balance', 'chain.bank.v1beta1.QueryBalanceRequest', req, 'chain.bank.v1beta1.QueryBalanceResponse');
    const badDenom = await q({ address: A.address, denom: '1x' });
    expect([badDenom.res.code, badDenom.res.codespace, badDenom.res.log]).to.deep.equal([18, 'sdk', 'rpc error: code = InvalidArgument desc = invalid denom: 1x: invalid request']);
    expect(badDenom.res.value).to.have.length(0);
    const badAddr = await q({ address: 'chain1xyz', denom: DENOM });
    expect(badAddr.res.code).to.equal(18);
    expect(badAddr.res.log).to.match(/^rpc error: code = InvalidArgument desc = invalid address: decoding bech32 failed: .*: invalid request$/);
    const empty = await q({ address: '', denom: DENOM });
    expect([empty.res.code, empty.res.log]).to.deep.equal([18, 'rpc error: code = InvalidArgument desc = address cannot be empty: invalid request']);
    const ok = await q({ address: C.address, denom: DENOM });
    expect(ok.value!.balance).to.deep.equal({ denom: DENOM, amount: '1000' });
    const zero = await q({ address: C.address, denom: 'nothing' });
    expect(zero.value!.balance).to.deep.equal({ denom: 'nothing', amount: '0' });
  });

  it('DenomMetadata: found from genesis; unknown denom is NotFound (code 22)', async () => {
    const q = (denom: string) => chain.query<{ metadata: typeof META }>('/chain.bank.v1beta1.Query/DenomMetadata', 'chain.bank.v1beta1.QueryDenomMetadataRequest', { denom }, 'chain.bank.v1beta1.QueryDenomMetadataResponse');
    const found = await q('ufoo');
    expect(found.res.code, found.res.log).to.equal(0);
    expect(found.value!.metadata).to.deep.equal(META);
    const missing = await q('nothing');
    expect([missing.res.code, missing.res.codespace]).to.deep.equal([22, 'sdk']);
    expect(missing.res.log).to.equal('rpc error: code = NotFound desc = client metadata for denom nothing: key not found');
    const all = await chain.query<{ metadatas: unknown[] }>('/chain.bank.v1beta1.Query/DenomsMetadata', 'chain.bank.v1beta1.QueryDenomsMetadataRequest', {}, 'chain.bank.v1beta1.QueryDenomsMetadataResponse');
    expect(all.value!.metadatas).to.deep.equal([META]);
  });

  it('TotalSupply, SupplyOf, DenomOwners, SendEnabled and Params', async () => {
    const supply = await chain.query<{ supply: Coin[]; pagination: Page }>('/chain.bank.v1beta1.Query/TotalSupply', 'chain.bank.v1beta1.QueryTotalSupplyRequest', { pagination: { limit: 3n, count_total: true } }, 'chain.bank.v1beta1.QueryTotalSupplyResponse');
    expect(supply.value!.supply).to.deep.equal([{ denom: 'aaa', amount: '1' }, { denom: 'achain', amount: '100500' }, { denom: 'bbb', amount: '2' }]);
    expect([text(supply.value!.pagination.next_key), supply.value!.pagination.total]).to.deep.equal(['ccc', 6n]);
    const of = await chain.query<{ amount: Coin }>('/chain.bank.v1beta1.Query/SupplyOf', 'chain.bank.v1beta1.QuerySupplyOfRequest', { denom: 'ccc' }, 'chain.bank.v1beta1.QuerySupplyOfResponse');
    expect(of.value!.amount).to.deep.equal({ denom: 'ccc', amount: '12' });
    const owners = await chain.query<{ denom_owners: { address: string; balance: Coin }[] }>('/chain.bank.v1beta1.Query/DenomOwners', 'chain.bank.v1beta1.QueryDenomOwnersRequest', { denom: 'ccc' }, 'chain.bank.v1beta1.QueryDenomOwnersResponse');
    expect(owners.value!.denom_owners.map((o) => o.address).sort()).to.deep.equal([A.address, B.address].sort());
    expect(owners.value!.denom_owners.find((o) => o.address === B.address)!.balance).to.deep.equal({ denom: 'ccc', amount: '9' });
    const se = await chain.query<{ send_enabled: { denom: string; enabled: boolean }[] }>('/chain.bank.v1beta1.Query/SendEnabled', 'chain.bank.v1beta1.QuerySendEnabledRequest', {}, 'chain.bank.v1beta1.QuerySendEnabledResponse');
    expect(se.value!.send_enabled).to.deep.equal([{ denom: 'ddd', enabled: false }]);
    const se2 = await chain.query<{ send_enabled: unknown[] }>('/chain.bank.v1beta1.Query/SendEnabled', 'chain.bank.v1beta1.QuerySendEnabledRequest', { denoms: ['ddd', 'eee'] }, 'chain.bank.v1beta1.QuerySendEnabledResponse');
    expect(se2.value!.send_enabled).to.deep.equal([{ denom: 'ddd', enabled: false }]);
    const params = await chain.query<{ params: unknown }>('/cosmos.bank.v1beta1.Query/Params', 'chain.bank.v1beta1.QueryParamsRequest', {}, 'chain.bank.v1beta1.QueryParamsResponse');
    expect(params.value!.params).to.deep.equal({ send_enabled: [], default_send_enabled: true });
  });

  it('an unknown query path is code 6 (unknown request)', async () => {
    const r = await chain.app.query({ path: '/chain.bank.v1beta1.Query/Nope', data: new Uint8Array() });
    expect([r.code, r.codespace]).to.deep.equal([6, 'sdk']);
    expect(r.log).to.equal('unknown query path: /chain.bank.v1beta1.Query/Nope: unknown request');
  });
});
