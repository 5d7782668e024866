import { expect } from 'chai';
import type { AnyMsg } from '@chain/codec';
import { DEFAULT_PRC10_PARAMS } from '../src/index.js';
import type { Token } from '../src/index.js';
import { ALICE, BOB, deliver, msg, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('token: queries over ABCI', () => {
  let s: TestSetup;
  let native: Token;
  const kitty = (): Token => ({ symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: 1000n, max_supply: 10000n, mintable: true, owner: ALICE.address });
  const unpack = (a: AnyMsg | null | undefined): { url: string; token: Token } => ({ url: a!.type_url, token: s.registry.decode<Token>('chain.prc10.Token', a!.value) });

  before(async () => {
    s = await startChain();
    native = s.keeper.nativeToken();
    // alice issues kitty and apple, bob issues bee (symbol order: apple, bee, chain, kitty)
    for (const [key, symbol] of [[ALICE, 'kitty'], [ALICE, 'apple'], [BOB, 'bee']] as const) {
      const r = await deliver(s, key, msg.issue(s.registry, { owner: key.address, symbol, min_unit: `u${symbol}` }));
      expect(r.code, r.log).to.equal(0);
    }
  });
  after(async () => {
    await s.chain.close();
  });

  it('Token: by symbol, then by min unit; as an Any of /chain.prc10.Token', async () => {
    for (const denom of ['kitty', 'ukitty']) {
      const { res, value } = await s.chain.query<{ Token: AnyMsg | null }>('/chain.prc10.Query/Token', { denom });
      expect(res.code, res.log).to.equal(0);
      expect(unpack(value!.Token)).to.deep.equal({ url: '/chain.prc10.Token', token: kitty() });
    }
    const { value } = await s.chain.query<{ Token: AnyMsg | null }>('/chain.prc10.Query/Token', { denom: 'achain' });
    expect(unpack(value!.Token).token).to.deep.equal(native);
  });

  it('Token: the original path /plugchain.prc10.Query/Token answers in the original spelling, /plugchain.prc10.Token', async () => {
    for (const path of ['/plugchain.prc10.Query/Token', '/cosmos.prc10.Query/Token']) {
      const { res, value } = await s.chain.query<{ Token: AnyMsg | null }>(path, { denom: 'kitty' });
      expect(res.code, `${path}: ${res.log}`).to.equal(0);
      expect(unpack(value!.Token)).to.deep.equal({ url: '/plugchain.prc10.Token', token: kitty() });
    }
  });

  it('Token: an unknown denom is InvalidArgument `token X not found`', async () => {
    const { res } = await s.chain.query('/chain.prc10.Query/Token', { denom: 'nope' });
    expect(res.code).to.not.equal(0);
    expect(res.log).to.equal('rpc error: code = InvalidArgument desc = token nope not found: invalid request');
  });

  it('Tokens: all in symbol order, paginated (offset, key, count_total)', async () => {
    const all = await s.chain.query<{ Tokens: AnyMsg[]; pagination: { next_key: Uint8Array | null; total: bigint } }>('/chain.prc10.Query/Tokens', { owner: '', pagination: null });
    expect(all.value!.Tokens.map((a) => unpack(a).token.symbol)).to.deep.equal(['apple', 'bee', 'chain', 'kitty']);
    expect(all.value!.Tokens.every((a) => a.type_url === '/chain.prc10.Token')).to.equal(true);
    const p1 = await s.chain.query<{ Tokens: AnyMsg[]; pagination: { next_key: Uint8Array | null; total: bigint } }>('/chain.prc10.Query/Tokens', {
      owner: '', pagination: { key: new Uint8Array(), offset: 0n, limit: 2n, count_total: true, reverse: false },
    });
    expect(p1.value!.Tokens.map((a) => unpack(a).token.symbol)).to.deep.equal(['apple', 'bee']);
    expect(p1.value!.pagination.total).to.equal(4n);
    // the page key is the symbol, relative to the token prefix (the original's prefix store)
    expect(new TextDecoder().decode(p1.value!.pagination.next_key!)).to.equal('chain');
    const p2 = await s.chain.query<{ Tokens: AnyMsg[]; pagination: { next_key: Uint8Array | null } }>('/chain.prc10.Query/Tokens', {
      owner: '', pagination: { key: p1.value!.pagination.next_key, offset: 0n, limit: 2n, count_total: false, reverse: false },
    });
    expect(p2.value!.Tokens.map((a) => unpack(a).token.symbol)).to.deep.equal(['chain', 'kitty']);
    expect(p2.value!.pagination.next_key).to.deep.equal(new Uint8Array());
  });

  it('Tokens: by owner (the owner index); a bad owner is InvalidArgument', async () => {
    const byOwner = async (owner: string): Promise<string[]> => {
      const { res, value } = await s.chain.query<{ Tokens: AnyMsg[] }>('/chain.prc10.Query/Tokens', { owner, pagination: null });
      expect(res.code, res.log).to.equal(0);
      return value!.Tokens.map((a) => unpack(a).token.symbol);
    };
    expect(await byOwner(ALICE.address)).to.deep.equal(['apple', 'kitty']);
    expect(await byOwner(BOB.address)).to.deep.equal(['bee']);
    expect(await byOwner(native.owner)).to.deep.equal(['chain']);
    const { res } = await s.chain.query('/chain.prc10.Query/Tokens', { owner: 'chain1bad', pagination: null });
    expect(res.log).to.match(/^rpc error: code = InvalidArgument desc = invalid owner address \(.+\): invalid request$/);
  });

  it('Params: the params and the original\'s empty `res`; gateway JSON as the original', async () => {
    const { res, value } = await s.chain.query<{ params: unknown; res: unknown }>('/chain.prc10.Query/Params', {});
    expect(res.code, res.log).to.equal(0);
    expect(value).to.deep.equal({ params: DEFAULT_PRC10_PARAMS, res: null });
    expect(s.registry.toJSON('chain.prc10.QueryParamsResponse', value!)).to.deep.equal({
      params: { issue_token_base_fee: { denom: 'achain', amount: '500000000000000000000' }, operate_token_fee_ratio: '0.100000000000000000' },
      res: null,
    });
  });

  it('gateway JSON of a token answer: the capitalized field, @type inline, uint64 as strings, uint32 as a number', async () => {
    const { value } = await s.chain.query<{ Token: AnyMsg | null }>('/chain.prc10.Query/Token', { denom: 'kitty' });
    const want = {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner: ALICE.address,
    };
    expect(s.registry.toJSON('chain.prc10.QueryTokenResponse', value!)).to.deep.equal({ Token: { '@type': '/chain.prc10.Token', ...want } });
    expect(s.registry.toJSON('chain.prc10.QueryTokenResponse', value!, 'cosmos')).to.deep.equal({ Token: { '@type': '/plugchain.prc10.Token', ...want } });
  });
});
