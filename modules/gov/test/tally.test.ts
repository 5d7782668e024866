/**
 * The 15 tally scenarios of Cosmos SDK v0.45 x/gov/keeper/tally_test.go, with their expected outcomes
 * (passes, burn the deposits, the tally), on the real staking keeper: validators created as the SDK's
 * `createValidators` does (accounts 0..2 self-delegating `powers` units of 10^18), a TextProposal put in
 * its voting period, the votes added, then `Tally`. Power units are whole tokens (10^18 base units).
 */
import { expect } from 'chai';
import type { Context } from '@chain/app';
import { ProposalStatus, VoteOption } from '../src/gen/chain/gov/v1beta1.js';
import { emptyTallyResult } from '../src/index.js';
import type { TallyOutcome } from '../src/index.js';
import { BlockCtx, E18, KEYS, consAddr, createValidators, delegate, govGenesis, openChain, textContent } from './helpers.js';
import type { TestSetup } from './helpers.js';

const { VOTE_OPTION_YES: YES, VOTE_OPTION_NO: NO, VOTE_OPTION_ABSTAIN: ABSTAIN, VOTE_OPTION_NO_WITH_VETO: VETO } = VoteOption;

describe('gov: tally (the SDK v0.45 tally_test.go scenarios)', () => {
  let s: TestSetup;
  let b: BlockCtx;
  let ctx: Context;
  beforeEach(async () => {
    s = await openChain();
    await s.chain.init({ gov: govGenesis() });
    b = new BlockCtx(s.chain);
    ctx = b.ctx();
  });
  afterEach(async () => {
    await s.chain.close();
  });

  /** `SubmitProposal(TestProposal)`, then the status set to the voting period (as the SDK tests do). */
  const votingProposal = (): bigint => {
    const p = s.keeper.submitProposal(ctx, s.keeper.decodeContent(ctx, textContent(s.registry)));
    s.keeper.setProposal(ctx, { ...p, status: ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD });
    return p.proposal_id;
  };
  const vote = (id: bigint, voter: Uint8Array, option: number): void => {
    s.keeper.addVote(ctx, id, voter, [{ option, weight: E18.toString() }]);
  };
  const tally = (id: bigint): TallyOutcome => s.keeper.tally(ctx, s.keeper.getProposal(ctx, id)!);
  const isEmpty = (o: TallyOutcome): boolean => JSON.stringify(o.tally) === JSON.stringify(emptyTallyResult());
  const units = (n: bigint): string => (n * E18).toString();

  it('TestTallyNoOneVotes: no votes, no quorum: rejected, deposits burned, empty tally', () => {
    createValidators(s, ctx, [5n, 5n, 5n]);
    const id = votingProposal();
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, true, true]);
  });

  it('TestTallyNoQuorum: 2 of 7 voting is under the 0.334 quorum: rejected, burned', () => {
    const addrs = createValidators(s, ctx, [2n, 5n, 0n]);
    const id = votingProposal();
    // the SDK test's extra account is AddTestAddrsIncremental's first address: validator 0's account
    vote(id, addrs[0]!, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits]).to.deep.equal([false, true]);
    expect(o.tally.yes).to.equal(units(2n));
  });

  it('TestTallyOnlyValidatorsAllYes: passes', () => {
    const addrs = createValidators(s, ctx, [5n, 5n, 5n]);
    const id = votingProposal();
    for (const a of addrs.slice(0, 3)) vote(id, a, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([true, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(15n), abstain: '0', no: '0', no_with_veto: '0' });
  });

  it('TestTallyOnlyValidators51No: 5 yes against 6 no: rejected, refunded', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 0n]);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits]).to.deep.equal([false, false]);
  });

  it('TestTallyOnlyValidators51Yes: 6 yes against 5 no: passes', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 0n]);
    const id = votingProposal();
    vote(id, addrs[0]!, NO);
    vote(id, addrs[1]!, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([true, false, false]);
  });

  it('TestTallyOnlyValidatorsVetoed: 7 of 19 no-with-veto is over 0.334: rejected, burned', () => {
    const addrs = createValidators(s, ctx, [6n, 6n, 7n]);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, YES);
    vote(id, addrs[2]!, VETO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, true, false]);
    expect(o.tally).to.deep.equal({ yes: units(12n), abstain: '0', no: '0', no_with_veto: units(7n) });
  });

  it('TestTallyOnlyValidatorsAbstainPasses: abstain 6, no 6, yes 7: 7 of 13 non-abstaining: passes', () => {
    const addrs = createValidators(s, ctx, [6n, 6n, 7n]);
    const id = votingProposal();
    vote(id, addrs[0]!, ABSTAIN);
    vote(id, addrs[1]!, NO);
    vote(id, addrs[2]!, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([true, false, false]);
  });

  it('TestTallyOnlyValidatorsAbstainFails: abstain 6, yes 6, no 7: rejected, refunded', () => {
    const addrs = createValidators(s, ctx, [6n, 6n, 7n]);
    const id = votingProposal();
    vote(id, addrs[0]!, ABSTAIN);
    vote(id, addrs[1]!, YES);
    vote(id, addrs[2]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, false]);
  });

  it('TestTallyOnlyValidatorsNonVoter: yes 5, no 6, a non-voter 7: rejected, refunded', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 7n]);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, false]);
  });

  it('TestTallyDelgatorOverride: a delegator of 30 to validator 0 votes no against the validators\' yes: rejected', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 7n]);
    delegate(s, ctx, addrs[4]!, 0, 30n);
    s.staking.applyAndReturnValidatorSetUpdates(ctx);
    const id = votingProposal();
    vote(id, addrs[1]!, YES);
    vote(id, addrs[2]!, YES);
    vote(id, addrs[3]!, YES);
    vote(id, addrs[4]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(13n), abstain: '0', no: units(30n), no_with_veto: '0' });
  });

  it('TestTallyDelgatorInherit: a delegator of 30 to validator 2 inherits its yes: passes', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 7n]);
    delegate(s, ctx, addrs[3]!, 2, 30n);
    s.staking.applyAndReturnValidatorSetUpdates(ctx);
    const id = votingProposal();
    vote(id, addrs[0]!, NO);
    vote(id, addrs[1]!, NO);
    vote(id, addrs[2]!, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([true, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(37n), abstain: '0', no: units(11n), no_with_veto: '0' });
  });

  it('TestTallyDelgatorMultipleOverride: a delegator of 10 to validators 0 and 1 votes no: rejected', () => {
    const addrs = createValidators(s, ctx, [5n, 6n, 7n]);
    delegate(s, ctx, addrs[3]!, 0, 10n);
    delegate(s, ctx, addrs[3]!, 1, 10n);
    s.staking.applyAndReturnValidatorSetUpdates(ctx);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, YES);
    vote(id, addrs[2]!, YES);
    vote(id, addrs[3]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(18n), abstain: '0', no: units(20n), no_with_veto: '0' });
  });

  it('TestTallyDelgatorMultipleInherit: a delegator of 10 to validators 1 and 2 inherits their no: rejected', () => {
    const addrs = createValidators(s, ctx, [25n, 6n, 7n]);
    delegate(s, ctx, addrs[3]!, 1, 10n);
    delegate(s, ctx, addrs[3]!, 2, 10n);
    s.staking.applyAndReturnValidatorSetUpdates(ctx);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, NO);
    vote(id, addrs[2]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(25n), abstain: '0', no: units(33n), no_with_veto: '0' });
  });

  it('TestTallyJailedValidator: a jailed validator (and its delegators) do not count: passes', () => {
    const addrs = createValidators(s, ctx, [25n, 6n, 7n]);
    delegate(s, ctx, addrs[3]!, 1, 10n);
    delegate(s, ctx, addrs[3]!, 2, 10n);
    s.staking.applyAndReturnValidatorSetUpdates(ctx);
    s.staking.jail(ctx, consAddr(1));
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, NO);
    vote(id, addrs[2]!, NO);
    const o = tally(id);
    expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([true, false, false]);
    expect(o.tally).to.deep.equal({ yes: units(25n), abstain: '0', no: units(17n), no_with_veto: '0' });
  });

  it('TestTallyValidatorMultipleDelegations: a validator also delegating elsewhere votes both: yes 30, no 10', () => {
    const addrs = createValidators(s, ctx, [10n, 10n, 10n]);
    delegate(s, ctx, addrs[0]!, 1, 10n);
    const id = votingProposal();
    vote(id, addrs[0]!, YES);
    vote(id, addrs[1]!, NO);
    vote(id, addrs[2]!, YES);
    const o = tally(id);
    expect([o.passes, o.burnDeposits]).to.deep.equal([true, false]);
    expect(o.tally).to.deep.equal({ yes: units(30n), abstain: '0', no: units(10n), no_with_veto: '0' });
  });

  describe('beyond the 15', () => {
    it('weighted votes split each voter\'s power; the tally deletes the votes it counts', () => {
      const addrs = createValidators(s, ctx, [10n, 10n, 0n]);
      delegate(s, ctx, addrs[3]!, 0, 4n);
      s.staking.applyAndReturnValidatorSetUpdates(ctx);
      const id = votingProposal();
      s.keeper.addVote(ctx, id, addrs[0]!, [{ option: YES, weight: (E18 / 2n).toString() }, { option: NO, weight: (E18 / 2n).toString() }]);
      s.keeper.addVote(ctx, id, addrs[3]!, [{ option: VETO, weight: (E18 / 4n).toString() }, { option: ABSTAIN, weight: (3n * E18 / 4n).toString() }]);
      vote(id, addrs[1]!, YES);
      expect(s.keeper.getVotes(ctx, id)).to.have.length(3);
      const o = tally(id);
      // validator 0: 14 tokens, 4 of them voted by account 3 -> 10 split 5/5; account 3: 1 veto, 3 abstain
      expect(o.tally).to.deep.equal({ yes: units(15n), abstain: units(3n), no: units(5n), no_with_veto: units(1n) });
      expect(o.passes).to.equal(true);
      expect(s.keeper.getVotes(ctx, id)).to.deep.equal([]);
    });

    it('exactly half yes does not pass (strictly greater than the threshold)', () => {
      const addrs = createValidators(s, ctx, [5n, 5n, 0n]);
      const id = votingProposal();
      vote(id, addrs[0]!, YES);
      vote(id, addrs[1]!, NO);
      const o = tally(id);
      expect([o.passes, o.burnDeposits]).to.deep.equal([false, false]);
    });

    it('everyone abstaining: rejected, refunded', () => {
      const addrs = createValidators(s, ctx, [5n, 5n, 0n]);
      const id = votingProposal();
      vote(id, addrs[0]!, ABSTAIN);
      vote(id, addrs[1]!, ABSTAIN);
      const o = tally(id);
      expect([o.passes, o.burnDeposits]).to.deep.equal([false, false]);
      expect(o.tally.abstain).to.equal(units(10n));
    });

    it('no bonded tokens: rejected, refunded', () => {
      const id = votingProposal();
      vote(id, KEYS[0]!.addr, YES);
      const o = tally(id);
      expect([o.passes, o.burnDeposits, isEmpty(o)]).to.deep.equal([false, false, true]);
    });
  });
});
