import { expect } from 'chai';
import { NATIVE_TOKEN_DESCRIPTION, DO_NOT_MODIFY } from '../src/index.js';
import type { Token } from '../src/index.js';
import {
  ALICE, BOB, CAROL, codec, deliver, genesis, moduleAddress, msg, openChain, snapshot, tokenGenesisJson,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('token: genesis', () => {
  const open: TestSetup[] = [];
  const chain = async (): Promise<TestSetup> => {
    const s = await openChain();
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const ok = (r: { code: number; log: string }): void => {
    expect(r.code, r.log).to.equal(0);
  };

  it('the default genesis: the default params and the native token (chain / achain, scale 18, owned by the token module account)', async () => {
    const s = await chain();
    expect((s.chain.app.defaultGenesis() as Record<string, unknown>).token).to.deep.equal({
      params: { issue_token_base_fee: { denom: 'achain', amount: '500000000000000000000' }, operate_token_fee_ratio: '0.100000000000000000' },
      tokens: [{
        symbol: 'chain', name: 'chain', scale: 18, min_unit: 'achain', initial_supply: '0', max_supply: '18446744073709551615', mintable: true,
        owner: moduleAddress(s),
      }],
    });
  });

  it('InitGenesis registers the tokens and their indexes and writes the native metadata when bank has none; mints nothing', async () => {
    const s = await chain();
    await s.chain.init(genesis());
    const ctx = s.chain.ctx();
    expect(s.keeper.getToken(ctx, 'achain')?.symbol).to.equal('chain');
    expect(s.keeper.getTokens(ctx, codec.decode(moduleAddress(s))).map((t) => t.symbol)).to.deep.equal(['chain']);
    expect(s.bank.getDenomMetadata(ctx, 'achain')).to.deep.equal({
      description: NATIVE_TOKEN_DESCRIPTION,
      denom_units: [{ denom: 'achain', exponent: 0, aliases: [] }, { denom: 'chain', exponent: 18, aliases: [] }],
      base: 'achain', display: 'chain', name: 'chain', symbol: 'CHAIN', uri: '', uri_hash: '',
    });
    // the bank genesis' balances only
    expect(s.bank.getSupply(ctx, 'achain')).to.equal(5n * 10n ** 24n);
  });

  it('InitGenesis keeps the metadata the bank genesis already holds for a token (the node\'s achain metadata)', async () => {
    const s = await chain();
    const meta = {
      description: 'The native staking and fee token of chain.', denom_units: [{ denom: 'achain', exponent: 0, aliases: ['attochain'] }, { denom: 'chain', exponent: 18, aliases: [] }],
      base: 'achain', display: 'chain', name: 'chain', symbol: 'CHAIN', uri: '', uri_hash: '',
    };
    const g = genesis();
    (g.bank as Record<string, unknown>).denom_metadata = [meta];
    await s.chain.init(g);
    expect(s.bank.getDenomMetadata(s.chain.ctx(), 'achain')).to.deep.equal(meta);
  });

  it('round trip: tokens issued, minted, edited and transferred export, init another chain to the same state, and export again the same', async () => {
    const a = await chain();
    await a.chain.init(genesis());
    ok(await deliver(a, ALICE, msg.issue(a.registry, { owner: ALICE.address })));
    ok(await deliver(a, BOB, msg.issue(a.registry, { owner: BOB.address, symbol: 'bee', min_unit: 'ubee', scale: 0, mintable: false, max_supply: 0n })));
    ok(await deliver(a, ALICE, msg.mint(a.registry, { symbol: 'kitty', to: CAROL.address, amount: 7n, owner: ALICE.address })));
    ok(await deliver(a, ALICE, msg.edit(a.registry, { symbol: 'kitty', name: 'Cat Coin', max_supply: 9000n, owner: ALICE.address })));
    ok(await deliver(a, ALICE, msg.transfer(a.registry, { symbol: 'kitty', owner: ALICE.address, to: CAROL.address })));
    ok(await deliver(a, BOB, msg.edit(a.registry, { symbol: 'bee', name: DO_NOT_MODIFY, max_supply: 2000n, owner: BOB.address })));
    const exported = a.chain.app.exportGenesis() as Record<string, { tokens: unknown[] }>;
    expect(exported.token!.tokens.map((t) => (t as Token).symbol)).to.deep.equal(['bee', 'chain', 'kitty']);
    expect(exported.token!.tokens[2]).to.deep.include({ name: 'Cat Coin', max_supply: '9000', owner: CAROL.address });

    const b = await chain();
    await b.chain.init(exported);
    expect(snapshot(b)).to.deep.equal(snapshot(a));
    const [ca, cb] = [a.chain.ctx(), b.chain.ctx()];
    for (const k of [a, b]) {
      const ctx = k === a ? ca : cb;
      expect(k.keeper.getTokenByMinUnit(ctx, 'ukitty')?.symbol).to.equal('kitty');
      expect(k.keeper.getTokens(ctx, codec.decode(CAROL.address)).map((t) => t.symbol)).to.deep.equal(['kitty']);
      expect(k.keeper.getTokens(ctx, codec.decode(ALICE.address))).to.deep.equal([]);
      expect(k.bank.getDenomMetadata(ctx, 'ukitty')?.name).to.equal('Cat Coin');
    }
    // the module stores hold the same bytes
    const dump = (k: TestSetup): string[] => [...k.chain.store.state.iterator(new TextEncoder().encode('token/'), new TextEncoder().encode('token0'))]
      .map(([key, v]) => `${Buffer.from(key).toString('hex')}=${Buffer.from(v).toString('hex')}`);
    expect(dump(a)).to.have.length(3 + 3 + 3 + 1);
    expect(dump(b)).to.deep.equal(dump(a));
    // and the new chain works on: the new owner mints
    ok(await deliver(b, CAROL, msg.mint(b.registry, { symbol: 'kitty', to: '', amount: 1n, owner: CAROL.address })));
  });

  it('refuses invalid genesis: a bad token, a denom used twice, bad params, a fee denom that is no token', async () => {
    const s = await chain();
    const base: Token = { symbol: 'kitty', name: 'Kitty', scale: 6, min_unit: 'ukitty', initial_supply: 1n, max_supply: 2n, mintable: true, owner: ALICE.address };
    const cases: [Parameters<typeof tokenGenesisJson>[1], RegExp][] = [
      [{ tokens: [{ ...base, symbol: 'Kitty' }] }, /invalid symbol: Kitty/],
      [{ tokens: [{ ...base, scale: 19 }] }, /invalid token scale 19, only accepts value \[0, 18\]/],
      [{ tokens: [{ ...base, owner: 'chain1bad' }] }, /^invalid owner address \(decoding bech32 failed: .+\): invalid address$/],
      [{ tokens: [{ ...base, max_supply: 0n }] }, /invalid token max supply 0/],
      [{ tokens: [base, { ...base, min_unit: 'ukit2' }] }, /duplicate token denom kitty in genesis/],
      [{ tokens: [base, { ...base, symbol: 'ukitty', min_unit: 'ukit2' }] }, /duplicate token denom ukitty in genesis/],
      [{ tokens: [{ ...base, min_unit: 'achain' }] }, /duplicate token denom achain in genesis/],
      [{ params: { operate_token_fee_ratio: (15n * 10n ** 17n).toString() } }, /fee ratio for minting tokens \[1.500000000000000000\] should be between \[0, 1\]/],
      [{ params: { issue_token_base_fee: { denom: 'achain', amount: '-1' } } }, /base fee for issuing token should not be negative/],
      [{ params: { issue_token_base_fee: { denom: 'nothing', amount: '1' } } }, /Token nothing does not exist/],
    ];
    for (const [o, err] of cases) {
      const t = await chain();
      expect(() => t.chain.initChain(genesis(tokenGenesisJson(t, o))), String(err)).to.throw(err);
    }
    // a scale of 18 is fine at genesis (the native token has it)
    await s.chain.init(genesis(tokenGenesisJson(s, { tokens: [{ ...base, scale: 18 }] })));
    expect(s.keeper.getTokenBySymbol(s.chain.ctx(), 'kitty')?.scale).to.equal(18);
  });
});
