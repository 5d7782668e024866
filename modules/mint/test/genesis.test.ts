/** mint genesis: the SDK v0.45 defaults as JSON, validation messages, InitGenesis / ExportGenesis round trip. */
import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { Dec } from '@chain/math';
import { MINT_PROTO_DIR, defaultMintGenesis, defaultMintParamsValues, mintParamsToProto, validateMintGenesis, validateMintParamsValues } from '../src/index.js';
import type { MintParamsValues } from '../src/index.js';
import { USER, genesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const DEFAULT_JSON = {
  minter: { inflation: '0.130000000000000000', annual_provisions: '0.000000000000000000' },
  params: {
    mint_denom: 'stake',
    inflation_rate_change: '0.130000000000000000',
    inflation_max: '0.200000000000000000',
    inflation_min: '0.070000000000000000',
    goal_bonded: '0.670000000000000000',
    blocks_per_year: '6311520',
  },
};

function errorOf(f: () => void): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('mint: genesis', () => {
  it('the default genesis is the SDK v0.45 one, byte for byte as JSON', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(MINT_PROTO_DIR);
    const json = registry.toJSON('chain.mint.v1beta1.GenesisState', defaultMintGenesis());
    expect(JSON.stringify(json)).to.equal(JSON.stringify(DEFAULT_JSON));
    expect(JSON.stringify(json)).to.equal(
      '{"minter":{"inflation":"0.130000000000000000","annual_provisions":"0.000000000000000000"},"params":{"mint_denom":"stake","inflation_rate_change":"0.130000000000000000","inflation_max":"0.200000000000000000","inflation_min":"0.070000000000000000","goal_bonded":"0.670000000000000000","blocks_per_year":"6311520"}}',
    );
    // and back
    expect(registry.fromJSON('chain.mint.v1beta1.GenesisState', json)).to.deep.equal(defaultMintGenesis());
  });

  it('params validation: the SDK messages, in its order', () => {
    const base = defaultMintParamsValues();
    const bad = (o: Partial<MintParamsValues>) => errorOf(() => validateMintParamsValues({ ...base, ...o }));
    expect(bad({})).to.equal('no error');
    expect(bad({ mintDenom: '  ' })).to.equal('mint denom cannot be blank');
    expect(bad({ mintDenom: '1bad' })).to.equal('invalid denom: 1bad');
    expect(bad({ inflationRateChange: Dec.withPrec(-1, 2) })).to.equal('inflation rate change cannot be negative: -0.010000000000000000');
    expect(bad({ inflationRateChange: Dec.withPrec(101, 2) })).to.equal('inflation rate change too large: 1.010000000000000000');
    expect(bad({ inflationMax: Dec.withPrec(-1, 2) })).to.equal('max inflation cannot be negative: -0.010000000000000000');
    expect(bad({ inflationMax: Dec.fromInt(2) })).to.equal('max inflation too large: 2.000000000000000000');
    expect(bad({ inflationMin: Dec.withPrec(-1, 18) })).to.equal('min inflation cannot be negative: -0.000000000000000001');
    expect(bad({ inflationMin: Dec.fromString('1.000000000000000001') })).to.equal('min inflation too large: 1.000000000000000001');
    expect(bad({ goalBonded: Dec.withPrec(-5, 1) })).to.equal('goal bonded cannot be negative: -0.500000000000000000');
    expect(bad({ goalBonded: Dec.withPrec(15, 1) })).to.equal('goal bonded too large: 1.500000000000000000');
    expect(bad({ blocksPerYear: 0n })).to.equal('blocks per year must be positive: 0');
    expect(bad({ inflationMax: Dec.withPrec(5, 2), inflationMin: Dec.withPrec(6, 2) })).to.equal(
      'max inflation (0.050000000000000000) must be greater than or equal to min inflation (0.060000000000000000)',
    );
    // the bounds are inclusive
    expect(bad({ inflationRateChange: Dec.one(), inflationMax: Dec.one(), inflationMin: Dec.zero(), goalBonded: Dec.zero() })).to.equal('no error');
    expect(bad({ inflationMax: Dec.withPrec(7, 2) })).to.equal('no error');
  });

  it('ValidateGenesis: params first, then the minter', () => {
    const gen = defaultMintGenesis();
    expect(errorOf(() => validateMintGenesis(gen))).to.equal('no error');
    expect(errorOf(() => validateMintGenesis({ ...gen, minter: { inflation: '-1', annual_provisions: '0' } }))).to.equal(
      'mint parameter Inflation should be positive, is -0.000000000000000001',
    );
    expect(errorOf(() => validateMintGenesis({ ...gen, params: mintParamsToProto({ ...defaultMintParamsValues(), blocksPerYear: 0n }) }))).to.equal(
      'blocks per year must be positive: 0',
    );
  });

  describe('on a chain', () => {
    let s: TestSetup;
    afterEach(async () => {
      await s.chain.close();
    });

    it('InitChain refuses invalid mint genesis with the SDK message', async () => {
      s = await openChain();
      const state = genesis(s, { [USER.address]: 1000n }, { ...DEFAULT_JSON, params: { ...DEFAULT_JSON.params, goal_bonded: '1.5' } });
      expect(() => s.chain.initChain(state)).to.throw('goal bonded too large: 1.500000000000000000');
    });

    it('a missing mint genesis is the default; InitGenesis creates the mint module account', async () => {
      s = await openChain();
      await s.chain.init(genesis(s, { [USER.address]: 1000n }));
      expect(s.ak.getAccount(s.chain.ctx(), s.ak.getModuleAddress('mint'))).to.not.equal(undefined);
      const exported = s.chain.app.exportGenesis()['mint'] as typeof DEFAULT_JSON;
      expect(exported.params).to.deep.equal(DEFAULT_JSON.params);
    });

    it('round trip: a custom genesis is exported as given, the minter as block 1 left it', async () => {
      s = await openChain();
      // inflation_rate_change 0 keeps the inflation; annual provisions = 0.1 × 1000 (the stake supply)
      const custom = {
        minter: { inflation: '0.100000000000000000', annual_provisions: '12.500000000000000000' },
        params: { ...DEFAULT_JSON.params, mint_denom: 'achain', inflation_rate_change: '0.000000000000000000', blocks_per_year: '100' },
      };
      await s.chain.init(genesis(s, { [USER.address]: 1000n }, custom));
      const exported = s.chain.app.exportGenesis()['mint'];
      expect(exported).to.deep.equal({ ...custom, minter: { inflation: '0.100000000000000000', annual_provisions: '100.000000000000000000' } });
      // 100 / 100 blocks per year: 1achain minted in block 1, at the fee collector
      expect(s.bk.getBalance(s.chain.ctx(), s.ak.getModuleAddress('fee_collector'), 'achain')).to.equal(1n);
    });
  });
});
