/**
 * The proposal lifecycle through txs and blocks (x/gov/abci_test.go, keeper/deposit_test.go,
 * keeper/vote_test.go of SDK v0.45): submission with an initial deposit, activation by a later deposit
 * (or at submission), votes, and EndBlock: passed (deposits refunded, the handler's writes and events
 * kept), rejected (refunded), vetoed and no quorum (burned), expired deposit period (dropped, burned), a
 * failing handler (FAILED, its writes and events discarded, deposits refunded). Validators 0 (60) and 1 (40)
 * are bonded; blocks are 5 s apart; deposit and voting periods 30 s; min deposit 10.
 */
import { expect } from 'chai';
import type { FinalizeBlockResponse } from '@chain/app';
import { ProposalStatus, VoteOption } from '../src/gen/chain/gov/v1beta1.js';
import { govInvariants } from '../src/index.js';
import {
  DENOM, E18, KEYS, appGenesis, coins, govGenesis, deliver, depositMsg, eventList, openChain, setValueContent, setValueRoute, storedValue, submitMsg,
  textContent, voteMsg, weightedMsg, w,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

const { VOTE_OPTION_YES: YES, VOTE_OPTION_NO: NO, VOTE_OPTION_NO_WITH_VETO: VETO, VOTE_OPTION_ABSTAIN: ABSTAIN } = VoteOption;

describe('gov: proposal lifecycle', () => {
  let s: TestSetup;
  let route: ReturnType<typeof setValueRoute>;
  beforeEach(async () => {
    route = setValueRoute();
    s = await openChain({ routes: [route], blockSeconds: 5 });
    await s.chain.init(appGenesis({ gov: govGenesis({ depositPeriod: 30, votingPeriod: 30 }) }));
  });
  afterEach(async () => {
    await s.chain.close();
  });

  const balance = (i: number): bigint => s.bank.getBalance(s.chain.ctx(), KEYS[i]!.addr, DENOM);
  const govBalance = (): bigint => s.bank.getBalance(s.chain.ctx(), s.keeper.moduleAddress(), DENOM);
  const supply = (): bigint => s.bank.getSupply(s.chain.ctx(), DENOM);
  const proposal = (id: bigint) => s.keeper.getProposal(s.chain.ctx(), id);
  const ok = async (signer: number, ...m: Parameters<typeof deliver>[2][]) => {
    const r = await deliver(s, signer, ...m);
    expect(r.code, r.log).to.equal(0);
    return r;
  };
  const invariantHolds = (): void => {
    const r = govInvariants(s.keeper)['module-account']!(s.chain.ctx());
    expect(r.broken, r.message).to.equal(false);
  };
  /** blocks until the proposal's voting (or deposit) period is over and EndBlock ran; returns the last block */
  const runUntilDone = async (id: bigint): Promise<FinalizeBlockResponse> => {
    for (let i = 0; i < 10; i++) {
      const r = await s.chain.block([]);
      const st = proposal(id)?.status;
      if (st === undefined || st >= ProposalStatus.PROPOSAL_STATUS_PASSED) return r;
    }
    throw new Error(`proposal ${id} did not end`);
  };
  const endEvents = (r: FinalizeBlockResponse) => eventList(r.events.filter((e) => e.attributes.some((a) => a.key === 'mode' && a.value === 'EndBlock')));

  it('submit with part of the min deposit (deposit period), a second deposit starts the voting; yes passes; deposits refunded', async () => {
    const b2 = balance(2);
    const b3 = balance(3);
    const total = supply();
    const sub = await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(4n * E18)));
    expect(s.registry.decode<{ proposal_id: bigint }>('chain.gov.v1beta1.MsgSubmitProposalResponse', s.registry.decode<{ msg_responses: { value: Uint8Array }[] }>('chain.base.abci.v1beta1.TxMsgData', sub.data).msg_responses[0]!.value).proposal_id).to.equal(1n);
    expect(eventList(sub.events)).to.deep.equal([
      ['message', { action: '/chain.gov.v1beta1.MsgSubmitProposal', sender: KEYS[2]!.address, module: 'governance' }],
      ['submit_proposal', { proposal_id: '1' }],
      ['coin_spent', { spender: KEYS[2]!.address, amount: `${4n * E18}${DENOM}` }],
      ['coin_received', { receiver: s.govAddress, amount: `${4n * E18}${DENOM}` }],
      ['transfer', { recipient: s.govAddress, sender: KEYS[2]!.address, amount: `${4n * E18}${DENOM}` }],
      ['message', { sender: KEYS[2]!.address }],
      ['proposal_deposit', { amount: `${4n * E18}${DENOM}`, proposal_id: '1' }],
      ['message', { module: 'governance', sender: KEYS[2]!.address }],
      ['submit_proposal', { proposal_type: 'Text' }],
    ]);
    let p = proposal(1n)!;
    expect(p.status).to.equal(ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD);
    expect(p.total_deposit).to.deep.equal(coins(4n * E18));
    expect(p.voting_start_time).to.deep.equal({ seconds: -62135596800n, nanos: 0 });
    // a vote in the deposit period: gov 3, nothing stored
    const early = await deliver(s, 0, voteMsg(s.registry, 0, 1n, YES));
    expect([early.codespace, early.code, early.log]).to.deep.equal(['gov', 3, 'failed to execute message; message index: 0: 1: inactive proposal']);

    const dep = await ok(3, depositMsg(s.registry, 3, 1n, coins(6n * E18)));
    const depEvents = eventList(dep.events);
    expect(depEvents.slice(-3)).to.deep.equal([
      ['proposal_deposit', { amount: `${6n * E18}${DENOM}`, proposal_id: '1' }],
      ['message', { module: 'governance', sender: KEYS[3]!.address }],
      ['proposal_deposit', { voting_period_start: '1' }],
    ]);
    p = proposal(1n)!;
    expect(p.status).to.equal(ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD);
    expect(p.total_deposit).to.deep.equal(coins(10n * E18));
    expect(govBalance()).to.equal(10n * E18);
    invariantHolds();

    const vote = await ok(0, voteMsg(s.registry, 0, 1n, YES));
    expect(eventList(vote.events).slice(1)).to.deep.equal([
      ['proposal_vote', { option: 'option:VOTE_OPTION_YES weight:"1.000000000000000000"', proposal_id: '1' }],
      ['message', { module: 'governance', sender: KEYS[0]!.address }],
    ]);
    const end = await runUntilDone(1n);
    expect(endEvents(end).filter(([t]) => t === 'active_proposal')).to.deep.equal([['active_proposal', { proposal_id: '1', proposal_result: 'proposal_passed' }]]);
    p = proposal(1n)!;
    expect(p.status).to.equal(ProposalStatus.PROPOSAL_STATUS_PASSED);
    expect(p.final_tally_result).to.deep.equal({ yes: (60n * E18).toString(), abstain: '0', no: '0', no_with_veto: '0' });
    expect([balance(2), balance(3), govBalance(), supply()]).to.deep.equal([b2, b3, 0n, total]);
    expect(s.keeper.getDeposits(s.chain.ctx(), 1n)).to.deep.equal([]);
    expect(s.keeper.getVotes(s.chain.ctx(), 1n)).to.deep.equal([]);
    invariantHolds();
    // a deposit after the end: gov 3
    const late = await deliver(s, 3, depositMsg(s.registry, 3, 1n, coins(1n)));
    expect([late.codespace, late.code]).to.deep.equal(['gov', 3]);
    expect(balance(3)).to.equal(b3);
  });

  it('the initial deposit reaching the min deposit starts the voting at submission (voting_period_start)', async () => {
    const sub = await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10n * E18)));
    expect(eventList(sub.events).at(-1)).to.deep.equal(['submit_proposal', { proposal_type: 'Text', voting_period_start: '1' }]);
    const p = proposal(1n)!;
    expect(p.status).to.equal(ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD);
    expect(p.voting_end_time!.seconds - p.voting_start_time!.seconds).to.equal(30n);
  });

  it('no votes against yes of 40: rejected (40 of 100 meets quorum, 40 of 100 non-abstaining no): deposits refunded', async () => {
    const b2 = balance(2);
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10n * E18)));
    await ok(0, voteMsg(s.registry, 0, 1n, NO));
    await ok(1, voteMsg(s.registry, 1, 1n, YES));
    const end = await runUntilDone(1n);
    expect(endEvents(end).filter(([t]) => t === 'active_proposal')[0]![1].proposal_result).to.equal('proposal_rejected');
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_REJECTED);
    expect(balance(2)).to.equal(b2);
  });

  it('a weighted vote: 0.7 yes / 0.3 no of validator 0 passes (42 of 60)', async () => {
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10n * E18)));
    const r = await ok(0, weightedMsg(s.registry, 0, 1n, [[YES, w('0.7')], [NO, w('0.3')]]));
    expect(eventList(r.events)[1]).to.deep.equal(['proposal_vote', {
      option: 'option:VOTE_OPTION_YES weight:"0.700000000000000000"\noption:VOTE_OPTION_NO weight:"0.300000000000000000"', proposal_id: '1',
    }]);
    const v = s.keeper.getVote(s.chain.ctx(), 1n, KEYS[0]!.addr)!;
    expect(v.option).to.equal(VoteOption.VOTE_OPTION_UNSPECIFIED);
    await runUntilDone(1n);
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_PASSED);
    expect(proposal(1n)!.final_tally_result).to.deep.equal({ yes: (42n * E18).toString(), abstain: '0', no: (18n * E18).toString(), no_with_veto: '0' });
  });

  it('no-with-veto over a third: rejected and the deposits burned (supply down)', async () => {
    const total = supply();
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(6n * E18)));
    await ok(4, depositMsg(s.registry, 4, 1n, coins(5n * E18)));
    await ok(0, voteMsg(s.registry, 0, 1n, YES));
    await ok(1, voteMsg(s.registry, 1, 1n, VETO));
    await runUntilDone(1n);
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_REJECTED);
    expect([govBalance(), supply()]).to.deep.equal([0n, total - 11n * E18]);
    invariantHolds();
  });

  it('no quorum: rejected, burned', async () => {
    const total = supply();
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10n * E18)));
    // account 5 has no stake: its vote counts nothing
    await ok(5, voteMsg(s.registry, 5, 1n, YES));
    await runUntilDone(1n);
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_REJECTED);
    expect(proposal(1n)!.final_tally_result!.yes).to.equal('0');
    expect(supply()).to.equal(total - 10n * E18);
  });

  it('the deposit period ends without the min deposit: the proposal is deleted and its deposits burned', async () => {
    const total = supply();
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(3n * E18)));
    await ok(3, depositMsg(s.registry, 3, 1n, coins(2n * E18)));
    const end = await runUntilDone(1n);
    expect(endEvents(end).filter(([t]) => t === 'inactive_proposal')).to.deep.equal([['inactive_proposal', { proposal_id: '1', proposal_result: 'proposal_dropped' }]]);
    expect(proposal(1n)).to.equal(undefined);
    expect(s.keeper.getDeposits(s.chain.ctx(), 1n)).to.deep.equal([]);
    expect([govBalance(), supply()]).to.deep.equal([0n, total - 5n * E18]);
    // a deposit after the deposit period: the proposal is gone (gov 2)
    const late = await deliver(s, 3, depositMsg(s.registry, 3, 1n, coins(1n)));
    expect([late.codespace, late.code, late.log]).to.deep.equal(['gov', 2, 'failed to execute message; message index: 0: 1: unknown proposal']);
    invariantHolds();
  });

  it('a passed proposal\'s handler: its writes and events kept, run exactly once', async () => {
    await ok(2, submitMsg(s.registry, 2, setValueContent(s.registry, { key: 'color', value: 'blue' }), coins(10n * E18)));
    // the submission ran the handler on a throwaway branch: nothing stored
    expect(route.executions).to.equal(1);
    expect(storedValue(s, 'color')).to.equal(undefined);
    await ok(0, voteMsg(s.registry, 0, 1n, YES));
    const end = await runUntilDone(1n);
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_PASSED);
    expect(route.executions).to.equal(2);
    expect(storedValue(s, 'color')).to.equal('blue');
    const ev = endEvents(end).map(([t]) => t);
    expect(ev.indexOf('govtest_executed')).to.be.lessThan(ev.indexOf('active_proposal'));
  });

  it('a passed proposal whose handler throws: FAILED, its writes and events discarded, deposits refunded', async () => {
    const b2 = balance(2);
    await ok(2, submitMsg(s.registry, 2, setValueContent(s.registry, { key: 'color', value: 'red' }), coins(10n * E18)));
    await ok(0, voteMsg(s.registry, 0, 1n, YES));
    route.failExecution = true;
    const end = await runUntilDone(1n);
    const p = proposal(1n)!;
    expect(p.status).to.equal(ProposalStatus.PROPOSAL_STATUS_FAILED);
    expect(p.final_tally_result!.yes).to.equal((60n * E18).toString());
    expect(storedValue(s, 'color')).to.equal(undefined);
    const events = endEvents(end);
    expect(events.some(([t]) => t === 'govtest_executed')).to.equal(false);
    expect(events.filter(([t]) => t === 'active_proposal')).to.deep.equal([['active_proposal', { proposal_id: '1', proposal_result: 'proposal_failed' }]]);
    expect(balance(2)).to.equal(b2);
    invariantHolds();
  });

  it('several proposals end in the same block, each on its own', async () => {
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry, 'a'), coins(10n * E18)), submitMsg(s.registry, 2, textContent(s.registry, 'b'), coins(10n * E18)));
    await ok(0, voteMsg(s.registry, 0, 1n, YES), voteMsg(s.registry, 0, 2n, ABSTAIN));
    await ok(1, voteMsg(s.registry, 1, 2n, ABSTAIN));
    await runUntilDone(1n);
    expect([proposal(1n)!.status, proposal(2n)!.status]).to.deep.equal([ProposalStatus.PROPOSAL_STATUS_PASSED, ProposalStatus.PROPOSAL_STATUS_REJECTED]);
  });

  it('a vote replaces the voter\'s previous one', async () => {
    await ok(2, submitMsg(s.registry, 2, textContent(s.registry), coins(10n * E18)));
    await ok(0, voteMsg(s.registry, 0, 1n, NO));
    await ok(0, voteMsg(s.registry, 0, 1n, YES));
    const votes = s.keeper.getVotes(s.chain.ctx(), 1n);
    expect(votes.map((v) => [v.voter, v.option])).to.deep.equal([[KEYS[0]!.address, YES]]);
    await runUntilDone(1n);
    expect(proposal(1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_PASSED);
  });
});
