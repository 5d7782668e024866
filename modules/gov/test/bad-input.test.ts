/**
 * Bad input to the four messages: each fails with the SDK v0.45 codespace, code and log, and the gov and
 * bank state stay exactly as they were (the failed message's branch is dropped).
 */
import { expect } from 'chai';
import type { AnyMsg } from '@chain/codec';
import { VoteOption } from '../src/gen/chain/gov/v1beta1.js';
import {
  E18, KEYS, appGenesis, coins, deliver, depositMsg, govGenesis, msg, openChain, setValueContent, setValueRoute, stateDigest, submitMsg, textContent,
  voteMsg, weightedMsg, w,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

const { VOTE_OPTION_YES: YES, VOTE_OPTION_NO: NO } = VoteOption;
const PREFIX = 'failed to execute message; message index: 0: ';

describe('gov: bad input (SDK codespace, code and log; no state change)', () => {
  let s: TestSetup;
  before(async () => {
    s = await openChain({ routes: [setValueRoute()], blockSeconds: 5 });
    await s.chain.init(appGenesis({ gov: govGenesis({ depositPeriod: 3600, votingPeriod: 3600 }) }));
    // proposal 1 in its voting period, proposal 2 in its deposit period
    for (const [dep, text] of [[10n, 'voting'], [1n, 'deposit']] as const) {
      const r = await deliver(s, 2, submitMsg(s.registry, 2, textContent(s.registry, text), coins(dep * E18)));
      expect(r.code, r.log).to.equal(0);
    }
  });
  after(async () => {
    await s.chain.close();
  });

  const fails = async (signer: number, m: AnyMsg, codespace: string, code: number, log: string, prefix = PREFIX): Promise<void> => {
    const before = stateDigest(s);
    const r = await deliver(s, signer, m);
    expect([r.codespace, r.code], r.log).to.deep.equal([codespace, code]);
    expect(r.log).to.equal(prefix + log);
    expect(stateDigest(s), 'gov and bank state unchanged').to.equal(before);
  };

  describe('MsgVote', () => {
    it('on a proposal in its deposit period: gov 3', () => fails(0, voteMsg(s.registry, 0, 2n, YES), 'gov', 3, '2: inactive proposal'));
    it('on an unknown proposal: gov 2', () => fails(0, voteMsg(s.registry, 0, 99n, YES), 'gov', 2, '99: unknown proposal'));
    it('on proposal id 0: gov 2', () => fails(0, voteMsg(s.registry, 0, 0n, YES), 'gov', 2, '0: unknown proposal'));
    it('an option out of range: gov 7 with the number', () => fails(0, voteMsg(s.registry, 0, 1n, 5), 'gov', 7, '5: invalid vote option'));
    it('the unspecified option: gov 7', () => fails(0, voteMsg(s.registry, 0, 1n, 0), 'gov', 7, 'VOTE_OPTION_UNSPECIFIED: invalid vote option'));
    it('an empty voter: sdk 7', () => fails(0, msg(s.registry, 'MsgVote', { proposal_id: 1n, voter: '', option: YES }), 'sdk', 7, 'invalid address'));
  });

  describe('MsgVoteWeighted', () => {
    it('weights summing to less than 1: gov 7', () => fails(0, weightedMsg(s.registry, 0, 1n, [[YES, w('0.5')], [NO, w('0.4')]]), 'gov', 7, 'Total weight lower than 1.00: invalid vote option'));
    it('weights summing to more than 1: gov 7', () => fails(0, weightedMsg(s.registry, 0, 1n, [[YES, w('0.6')], [NO, w('0.5')]]), 'gov', 7, 'Total weight overflow 1.00: invalid vote option'));
    it('an option twice: gov 7', () => fails(0, weightedMsg(s.registry, 0, 1n, [[YES, w('0.5')], [YES, w('0.5')]]), 'gov', 7, 'Duplicated vote option: invalid vote option'));
    it('a zero weight: gov 7 with the option', () => fails(0, weightedMsg(s.registry, 0, 1n, [[YES, w('1')], [NO, '0']]), 'gov', 7, 'option:VOTE_OPTION_NO weight:"0.000000000000000000": invalid vote option'));
    it('a weight over 1: gov 7', () => fails(0, weightedMsg(s.registry, 0, 1n, [[YES, w('1.5')]]), 'gov', 7, 'option:VOTE_OPTION_YES weight:"1.500000000000000000": invalid vote option'));
    it('no options: sdk 18', () => fails(0, weightedMsg(s.registry, 0, 1n, []), 'sdk', 18, 'invalid request'));
    it('valid weights on a proposal in its deposit period: gov 3', () => fails(0, weightedMsg(s.registry, 0, 2n, [[YES, w('1')]]), 'gov', 3, '2: inactive proposal'));
  });

  describe('MsgDeposit', () => {
    it('on an unknown proposal: gov 2', () => fails(3, depositMsg(s.registry, 3, 7n, coins(E18)), 'gov', 2, '7: unknown proposal'));
    it('a zero amount: sdk 10', () => fails(3, depositMsg(s.registry, 3, 2n, coins(0n)), 'sdk', 10, '0stake: invalid coins'));
    it('more than the balance: sdk 5', () => fails(3, depositMsg(s.registry, 3, 2n, coins(10_000n * E18)), 'sdk', 5, `spendable balance ${1000n * E18}stake is smaller than ${10_000n * E18}stake: insufficient funds`));
    it('an empty depositor: sdk 7', () => fails(3, msg(s.registry, 'MsgDeposit', { proposal_id: 2n, depositor: '', amount: coins(1n) }), 'sdk', 7, 'invalid address'));
  });

  describe('MsgSubmitProposal', () => {
    it('a content of an unknown type: gov 6', () => fails(2, submitMsg(s.registry, 2, { type_url: '/chain.bank.v1beta1.MsgSend', value: new Uint8Array() }, []), 'gov', 6, '/chain.bank.v1beta1.MsgSend: invalid proposal type'));
    // as the SDK, whose interface registry cannot unpack it: the tx does not decode
    it('a content type nobody knows: the tx does not decode (sdk 2)', () => fails(2, submitMsg(s.registry, 2, { type_url: '/foo.v1.Bar', value: new Uint8Array() }, []), 'sdk', 2, 'unable to resolve type URL /foo.v1.Bar: tx parse error', ''));
    it('no content: gov 5', () => fails(2, submitMsg(s.registry, 2, null, []), 'gov', 5, 'missing content: invalid proposal content'));
    it('a blank title: gov 5', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry, '  '), []), 'gov', 5, 'proposal title cannot be blank: invalid proposal content'));
    it('a title over 140 bytes: gov 5', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry, 'x'.repeat(141)), []), 'gov', 5, 'proposal title is longer than max length of 140: invalid proposal content'));
    it('an empty description: gov 5', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry, 't', ''), []), 'gov', 5, 'proposal description cannot be blank: invalid proposal content'));
    it('a description over 10000 bytes: gov 5', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry, 't', 'y'.repeat(10001)), []), 'gov', 5, 'proposal description is longer than max length of 10000: invalid proposal content'));
    it('the route\'s own validation (an empty key): its error as is', () => fails(2, submitMsg(s.registry, 2, setValueContent(s.registry, { key: '' }), []), 'sdk', 18, 'empty key: invalid request'));
    it('an initial deposit over the balance: sdk 5, no proposal', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10_000n * E18)), 'sdk', 5, `spendable balance ${989n * E18}stake is smaller than ${10_000n * E18}stake: insufficient funds`));
    it('unsorted initial deposit coins: sdk 10', () => fails(2, submitMsg(s.registry, 2, textContent(s.registry), [{ denom: 'zzz', amount: '1' }, { denom: 'aaa', amount: '1' }]), 'sdk', 10, '1zzz,1aaa: invalid coins'));
    it('an empty proposer: sdk 7', () => fails(2, msg(s.registry, 'MsgSubmitProposal', { content: textContent(s.registry), initial_deposit: [], proposer: '' }), 'sdk', 7, 'invalid address'));
  });

  it('after all of it, the proposals are as they were and the next id is 3', () => {
    const ctx = s.chain.ctx();
    expect(s.keeper.getProposals(ctx).map((p) => p.proposal_id)).to.deep.equal([1n, 2n]);
    expect(s.keeper.getProposalID(ctx)).to.equal(3n);
    expect(s.keeper.getVotes(ctx, 1n)).to.deep.equal([]);
    expect(s.keeper.getDeposits(ctx, 2n).map((d) => d.amount)).to.deep.equal([coins(E18)]);
    void KEYS;
  });
});
