/** The CommunityPoolSpendProposal gov content route (types/proposal.go, proposal_handler.go of SDK v0.45). */
import { expect } from 'chai';
import { createCommunityPoolSpendProposalRoute, distributionInvariants } from '../src/index.js';
import { BlockCtx, DENOM, FEE_COLLECTOR, KEYS, decStr, rewardedChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution: CommunityPoolSpendProposal route', () => {
  let s: TestSetup;
  let b: BlockCtx;
  beforeEach(async () => {
    // the community pool holds 2stake
    s = await rewardedChain();
    b = new BlockCtx(s.chain);
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const thrown = (f: () => void): unknown => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };
  const p = (o: Record<string, unknown> = {}) => ({ title: 't', description: 'd', recipient: KEYS[3]!.address, amount: [{ denom: DENOM, amount: '2' }], ...o });

  it('is the content type, route and proposal type of the SDK', () => {
    const r = createCommunityPoolSpendProposalRoute(s.keeper);
    expect([r.typeName, r.route, r.proposalType]).to.deep.equal(['chain.distribution.v1beta1.CommunityPoolSpendProposal', 'distribution', 'CommunityPoolSpend']);
    expect(s.registry.hasType(r.typeName)).to.equal(true);
  });

  it('validate: invalid amount distribution 10, empty recipient distribution 11; an empty amount passes', () => {
    const r = createCommunityPoolSpendProposalRoute(s.keeper);
    expect(thrown(() => r.validate(b.ctx(), p({ amount: [{ denom: DENOM, amount: '0' }] })))).to.include({ codespace: 'distribution', code: 10 });
    expect(thrown(() => r.validate(b.ctx(), p({ recipient: '' })))).to.include({ codespace: 'distribution', code: 11 });
    expect(thrown(() => r.validate(b.ctx(), p({ amount: [] })))).to.equal(undefined);
    expect(thrown(() => r.validate(b.ctx(), p()))).to.equal(undefined);
  });

  it('execute: pays the recipient from the community pool; a short pool is distribution 9, a blocked recipient sdk 4', () => {
    const r = createCommunityPoolSpendProposalRoute(s.keeper);
    expect(thrown(() => r.execute(b.ctx(), p({ amount: [{ denom: DENOM, amount: '3' }] })))).to.include({ codespace: 'distribution', code: 9 });
    expect(thrown(() => r.execute(b.ctx(), p({ recipient: s.addr[FEE_COLLECTOR]! })))).to.include({ codespace: 'sdk', code: 4 });
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(2));
    r.execute(b.ctx(), p());
    expect(s.bk.getBalance(b.ctx(), KEYS[3]!.addr, DENOM)).to.equal(2n);
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).isZero()).to.equal(true);
    expect(distributionInvariants(s.keeper)['module-account']!(b.ctx()).broken).to.equal(false);
  });
});
