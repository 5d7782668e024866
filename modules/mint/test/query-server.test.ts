/**
 * The three queries of x/mint v0.45 over ABCI, on the canonical and the Cosmos paths, their wire form (Dec
 * `bytes` = ASCII of the atomics, what cosmjs's `decodeCosmosSdkDecFromProto` reads) and their gateway JSON.
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { BONDED_POOL, USER, genesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('mint: queries over ABCI', () => {
  let s: TestSetup;
  before(async () => {
    s = await openChain();
    // block 1 runs BeginBlock once: inflation 0.130000005226169707, annual provisions 130000005226.169707
    await s.chain.init(genesis(s, { [USER.address]: 500_000_000_000n, [s.addr[BONDED_POOL]!]: 500_000_000_000n }));
  });
  after(async () => {
    await s.chain.close();
  });

  for (const pkg of ['chain', 'cosmos']) {
    it(`/${pkg}.mint.v1beta1.Query/Params`, async () => {
      const { res, value } = await s.chain.query(`/${pkg}.mint.v1beta1.Query/Params`, {});
      expect(res.code, res.log).to.equal(0);
      expect(res.height).to.equal(1);
      expect(s.registry.toJSON('chain.mint.v1beta1.QueryParamsResponse', value!)).to.deep.equal({
        params: {
          mint_denom: 'stake',
          inflation_rate_change: '0.130000000000000000',
          inflation_max: '0.200000000000000000',
          inflation_min: '0.070000000000000000',
          goal_bonded: '0.670000000000000000',
          blocks_per_year: '6311520',
        },
      });
    });

    it(`/${pkg}.mint.v1beta1.Query/Inflation: bytes of the atomics; JSON the 18-decimal text`, async () => {
      const { res, value } = await s.chain.query<{ inflation: Uint8Array }>(`/${pkg}.mint.v1beta1.Query/Inflation`, {});
      expect(res.code, res.log).to.equal(0);
      // wire: field 1 (bytes) = "130000005226169707"
      const ascii = '130000005226169707';
      expect(Buffer.from(res.value).toString('hex')).to.equal('0a' + ascii.length.toString(16).padStart(2, '0') + Buffer.from(ascii).toString('hex'));
      expect(Buffer.from(value!.inflation).toString()).to.equal(ascii);
      expect(Dec.fromAtomicsBytes(value!.inflation).toString()).to.equal('0.130000005226169707');
      expect(s.registry.toJSON('chain.mint.v1beta1.QueryInflationResponse', value!)).to.deep.equal({ inflation: '0.130000005226169707' });
    });

    it(`/${pkg}.mint.v1beta1.Query/AnnualProvisions`, async () => {
      const { res, value } = await s.chain.query<{ annual_provisions: Uint8Array }>(`/${pkg}.mint.v1beta1.Query/AnnualProvisions`, {});
      expect(res.code, res.log).to.equal(0);
      expect(Buffer.from(value!.annual_provisions).toString()).to.equal('130000005226169707000000000000');
      expect(s.registry.toJSON('chain.mint.v1beta1.QueryAnnualProvisionsResponse', value!)).to.deep.equal({
        annual_provisions: '130000005226.169707000000000000',
      });
    });
  }

  it('each rpc carries its google.api.http GET route (/chain/mint/v1beta1/...; the gateway derives /cosmos/...)', () => {
    const get = (m: string) => {
      const route = s.chain.app.router.queryRoute(`/chain.mint.v1beta1.Query/${m}`)!;
      const opts = (route.method.parsedOptions ?? []) as Record<string, { get?: string }>[];
      return opts.map((o) => o['(google.api.http)']?.get).find((x) => x !== undefined);
    };
    expect(get('Params')).to.equal('/chain/mint/v1beta1/params');
    expect(get('Inflation')).to.equal('/chain/mint/v1beta1/inflation');
    expect(get('AnnualProvisions')).to.equal('/chain/mint/v1beta1/annual_provisions');
  });
});
