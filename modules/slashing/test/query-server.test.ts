/** The slashing queries over ABCI (x/slashing/keeper/grpc_query.go v0.45), with their gateway JSON. */
import { expect } from 'chai';
import type { ProtoObject } from '@chain/codec';
import { toBech32 } from '@chain/crypto';
import { genesis, openChain, paramsJson, signingInfoJson } from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

describe('slashing: queries', () => {
  let s: TestSetup;
  let vals: FakeValidator[];
  before(async () => {
    s = await openChain();
    vals = [s.staking.addValidator(0, 10n), s.staking.addValidator(1, 10n), s.staking.addValidator(2, 10n)];
    await s.chain.init(genesis(s, 0n, { params: paramsJson(), signing_infos: vals.map((v, i) => signingInfoJson(v.consAddress, BigInt(i))), missed_blocks: [] }));
  });
  after(async () => {
    await s.chain.close();
  });

  const json = async (path: string, method: string, req: ProtoObject): Promise<Record<string, unknown>> => {
    const { res, value } = await s.chain.query(`/${path}.slashing.v1beta1.Query/${method}`, req);
    expect(res.code, res.log).to.equal(0);
    return s.registry.toJSON(`chain.slashing.v1beta1.Query${method}Response`, value!, path === 'cosmos' ? 'cosmos' : 'chain') as Record<string, unknown>;
  };
  const fails = async (method: string, req: ProtoObject) => {
    const { res } = await s.chain.query(`/chain.slashing.v1beta1.Query/${method}`, req);
    expect(res.code).to.not.equal(0);
    return { code: res.code, codespace: res.codespace, log: res.log };
  };

  it('Params: the v0.45 JSON (also on the /cosmos path)', async () => {
    const want = {
      params: {
        signed_blocks_window: '100', min_signed_per_window: '0.500000000000000000', downtime_jail_duration: '600s',
        slash_fraction_double_sign: '0.050000000000000000', slash_fraction_downtime: '0.010000000000000000',
      },
    };
    expect(await json('chain', 'Params', {})).to.deep.equal(want);
    expect(await json('cosmos', 'Params', {})).to.deep.equal(want);
  });

  it('SigningInfo: {"val_signing_info": {...}}', async () => {
    expect(await json('chain', 'SigningInfo', { cons_address: vals[1]!.consAddress })).to.deep.equal({
      val_signing_info: {
        address: vals[1]!.consAddress, start_height: '1', index_offset: '0', jailed_until: '1970-01-01T00:00:00Z',
        tombstoned: false, missed_blocks_counter: '0',
      },
    });
  });

  it('SigningInfo errors: empty → InvalidArgument "invalid request"; missing → NotFound', async () => {
    const empty = await fails('SigningInfo', { cons_address: '' });
    expect(empty.log).to.equal('rpc error: code = InvalidArgument desc = invalid request: invalid request');
    const missing = toBech32('chainvalcons', new Uint8Array(20).fill(1));
    const nf = await fails('SigningInfo', { cons_address: missing });
    expect(nf.log).to.equal(`rpc error: code = NotFound desc = SigningInfo not found for validator ${missing}: key not found`);
    const bad = await fails('SigningInfo', { cons_address: vals[0]!.operator });
    expect(bad.log).to.match(/InvalidArgument desc = invalid consensus address: invalid Bech32 prefix; expected chainvalcons, got chainvaloper/);
  });

  it('SigningInfos: all, in consensus-address key order, paginated', async () => {
    const all = await json('chain', 'SigningInfos', {});
    const sorted = [...vals].sort((a, b) => Buffer.compare(Buffer.from(a.consAddr), Buffer.from(b.consAddr)));
    expect((all['info'] as { address: string }[]).map((i) => i.address)).to.deep.equal(sorted.map((v) => v.consAddress));
    expect(all['pagination']).to.deep.equal({ next_key: null, total: '3' });
    const page = await json('chain', 'SigningInfos', { pagination: { limit: 2n } });
    expect((page['info'] as unknown[]).length).to.equal(2);
    expect(page['pagination']).to.have.property('next_key').that.is.a('string');
  });
});
