/** The invariants (x/distribution/keeper/invariants.go) and the CommunityPoolSpendProposal handler (proposal_handler.go). */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { allDistributionInvariants, distributionInvariants } from '../src/index.js';
import { BlockCtx, DENOM, FEE_COLLECTOR, KEYS, consAddr, decStr, rewardedChain, stakeDec, valAddr } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution invariants', () => {
  let s: TestSetup;
  let b: BlockCtx;
  beforeEach(async () => {
    s = await rewardedChain();
    b = new BlockCtx(s.chain);
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const broken = () => Object.fromEntries(Object.entries(distributionInvariants(s.keeper)).map(([r, inv]) => [r, inv(b.ctx()).broken]));

  it('hold after allocation, withdrawals, delegations and slashes', () => {
    expect(broken()).to.deep.equal({ 'nonnegative-outstanding': false, 'can-withdraw': false, 'reference-count': false, 'module-account': false });
    s.staking.delegate(b.ctx(), KEYS[2]!.addr, valAddr(0), 50n);
    b.height++;
    s.staking.slash(b.ctx(), consAddr(0), 0n, Dec.withPrec(5, 1)); // power 0: a zero-token slash event still references a period
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(0), valAddr(0));
    expect(broken()).to.deep.equal({ 'nonnegative-outstanding': false, 'can-withdraw': false, 'reference-count': false, 'module-account': false });
    expect(allDistributionInvariants(s.keeper)(b.ctx()).broken).to.equal(false);
    // can-withdraw works on a branch: nothing changed
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(0)).toString()).to.equal(decStr(Dec.fromString('23.25')));
  });

  it('detect a broken state with the SDK messages', () => {
    s.keeper.setOutstandingRewards(b.ctx(), valAddr(1), stakeDec(Dec.fromInt(-1)));
    s.keeper.incrementReferenceCount(b.ctx(), valAddr(0), 0n);
    const all = distributionInvariants(s.keeper);
    const nn = all['nonnegative-outstanding']!(b.ctx());
    expect(nn.broken).to.equal(true);
    expect(nn.message).to.match(/^distribution: nonnegative outstanding invariant\nfound 1 validators with negative outstanding rewards/);
    const rc = all['reference-count']!(b.ctx());
    expect(rc.broken).to.equal(true);
    expect(rc.message).to.contain('expected historical reference count: 2 + 2 + 0 = 4\ntotal validator historical reference count: 5');
    const ma = all['module-account']!(b.ctx());
    expect(ma.broken).to.equal(true);
    expect(ma.message).to.contain('distribution: ModuleAccount coins invariant');
    expect(allDistributionInvariants(s.keeper)(b.ctx()).message).to.equal(nn.message);
  });

  describe('CommunityPoolSpendProposal handler', () => {
    it('pays from the community pool', () => {
      s.keeper.handleCommunityPoolSpendProposal(b.ctx(), { title: 't', description: 'd', recipient: KEYS[3]!.address, amount: [{ denom: DENOM, amount: '2' }] });
      expect(s.bk.getBalance(b.ctx(), KEYS[3]!.addr, DENOM)).to.equal(2n);
      expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).isZero()).to.equal(true);
      expect(distributionInvariants(s.keeper)['module-account']!(b.ctx()).broken).to.equal(false);
    });

    it('errors: blocked recipient (sdk 4), bad address, pool too small (distribution 9)', () => {
      const p = { title: 't', description: 'd', recipient: KEYS[3]!.address, amount: [{ denom: DENOM, amount: '3' }] };
      expect(() => s.keeper.handleCommunityPoolSpendProposal(b.ctx(), { ...p, recipient: s.addr[FEE_COLLECTOR]! })).to.throw('is not allowed to receive external funds');
      expect(() => s.keeper.handleCommunityPoolSpendProposal(b.ctx(), { ...p, recipient: 'nope' })).to.throw();
      let err: unknown;
      try {
        s.keeper.handleCommunityPoolSpendProposal(b.ctx(), p);
      } catch (e) {
        err = e;
      }
      expect(err).to.include({ codespace: 'distribution', code: 9 });
      expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(2));
    });
  });
});
