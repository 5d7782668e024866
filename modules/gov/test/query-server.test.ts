/** The Query service over ABCI (canonical and `/cosmos.` paths): shapes, filters, pagination, live tally, errors. */
import { expect } from 'chai';
import { ProposalStatus, VoteOption } from '../src/gen/chain/gov/v1beta1.js';
import type { Proposal, QueryParamsResponse, TallyResult, Vote, Deposit } from '../src/gen/chain/gov/v1beta1.js';
import { E18, KEYS, appGenesis, coins, deliver, depositMsg, govGenesis, openChain, submitMsg, textContent, voteMsg, weightedMsg, w } from './helpers.js';
import type { TestSetup } from './helpers.js';

const { VOTE_OPTION_YES: YES, VOTE_OPTION_NO: NO } = VoteOption;
const Q = '/chain.gov.v1beta1.Query/';

describe('gov: Query over ABCI', () => {
  let s: TestSetup;
  before(async () => {
    s = await openChain({ blockSeconds: 5 });
    await s.chain.init(appGenesis({ gov: govGenesis({ depositPeriod: 3600, votingPeriod: 3600 }) }));
    // 1: voting (deposits by 2 and 3, votes by 0 yes and 1 weighted); 2: deposit period (deposit by 4); 3: voting, no votes
    const run = async (signer: number, m: Parameters<typeof deliver>[2]) => {
      const r = await deliver(s, signer, m);
      expect(r.code, r.log).to.equal(0);
    };
    await run(2, submitMsg(s.registry, 2, textContent(s.registry, 'one'), coins(6n * E18)));
    await run(3, depositMsg(s.registry, 3, 1n, coins(4n * E18)));
    await run(4, submitMsg(s.registry, 4, textContent(s.registry, 'two'), coins(E18)));
    await run(5, submitMsg(s.registry, 5, textContent(s.registry, 'three'), coins(10n * E18)));
    await run(0, voteMsg(s.registry, 0, 1n, YES));
    await run(1, weightedMsg(s.registry, 1, 1n, [[YES, w('0.25')], [NO, w('0.75')]]));
  });
  after(async () => {
    await s.chain.close();
  });

  const query = async <T>(method: string, req: Record<string, unknown>, prefix = Q) => {
    const { res, value } = await s.chain.query<T>(prefix + method, req);
    return { res, value: value! };
  };
  const ids = (ps: Proposal[]): bigint[] => ps.map((p) => p.proposal_id);

  it('Proposal: by id; the /cosmos. path too; id 0 InvalidArgument; unknown NotFound', async () => {
    const { value } = await query<{ proposal: Proposal }>('Proposal', { proposal_id: 1n });
    expect(value.proposal.status).to.equal(ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD);
    expect(value.proposal.content!.type_url).to.equal('/chain.gov.v1beta1.TextProposal');
    expect(value.proposal.total_deposit).to.deep.equal(coins(10n * E18));
    const alias = await query<{ proposal: Proposal }>('Proposal', { proposal_id: 2n }, '/cosmos.gov.v1beta1.Query/');
    expect(alias.value.proposal.status).to.equal(ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD);
    const zero = await s.chain.query(Q + 'Proposal', { proposal_id: 0n });
    expect([zero.res.codespace, zero.res.code, zero.res.log]).to.deep.equal(['sdk', 18, 'rpc error: code = InvalidArgument desc = proposal id can not be 0: invalid request']);
    const missing = await s.chain.query(Q + 'Proposal', { proposal_id: 9n });
    expect([missing.res.code, missing.res.log]).to.deep.equal([22, "rpc error: code = NotFound desc = proposal 9 doesn't exist: key not found"]);
  });

  it('Proposals: all, by status, by voter, by depositor, paginated', async () => {
    expect(ids((await query<{ proposals: Proposal[] }>('Proposals', {})).value.proposals)).to.deep.equal([1n, 2n, 3n]);
    const voting = await query<{ proposals: Proposal[] }>('Proposals', { proposal_status: ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD });
    expect(ids(voting.value.proposals)).to.deep.equal([1n, 3n]);
    const byVoter = await query<{ proposals: Proposal[] }>('Proposals', { voter: KEYS[1]!.address });
    expect(ids(byVoter.value.proposals)).to.deep.equal([1n]);
    const byDepositor = await query<{ proposals: Proposal[] }>('Proposals', { depositor: KEYS[4]!.address });
    expect(ids(byDepositor.value.proposals)).to.deep.equal([2n]);
    const both = await query<{ proposals: Proposal[] }>('Proposals', { depositor: KEYS[3]!.address, voter: KEYS[0]!.address, proposal_status: ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD });
    expect(ids(both.value.proposals)).to.deep.equal([1n]);
    const page = await query<{ proposals: Proposal[]; pagination: { next_key: Uint8Array | null; total: bigint } }>('Proposals', { pagination: { limit: 2n, count_total: true } });
    expect(ids(page.value.proposals)).to.deep.equal([1n, 2n]);
    expect(page.value.pagination.total).to.equal(3n);
    const next = await query<{ proposals: Proposal[] }>('Proposals', { pagination: { key: page.value.pagination.next_key } });
    expect(ids(next.value.proposals)).to.deep.equal([3n]);
    const bad = await s.chain.query(Q + 'Proposals', { voter: 'nope' });
    expect(bad.res.log).to.match(/^rpc error: code = InvalidArgument desc = invalid voter address/);
  });

  it('Vote and Votes: the legacy option filled for a single weight-1 option only; a missing vote is InvalidArgument', async () => {
    const { value } = await query<{ vote: Vote }>('Vote', { proposal_id: 1n, voter: KEYS[0]!.address });
    expect(value.vote).to.deep.equal({ proposal_id: 1n, voter: KEYS[0]!.address, option: YES, options: [{ option: YES, weight: E18.toString() }] });
    const votes = await query<{ votes: Vote[] }>('Votes', { proposal_id: 1n });
    expect(votes.value.votes.map((v) => [v.voter, v.option])).to.deep.equal(
      [[KEYS[0]!.address, YES], [KEYS[1]!.address, 0]].sort((a, b) => Buffer.compare(Buffer.from(s.keeper.accCodec.decode(a[0] as string)), Buffer.from(s.keeper.accCodec.decode(b[0] as string)))),
    );
    const missing = await s.chain.query(Q + 'Vote', { proposal_id: 1n, voter: KEYS[6]!.address });
    expect(missing.res.log).to.equal(`rpc error: code = InvalidArgument desc = voter: ${KEYS[6]!.address} not found for proposal: 1: invalid request`);
    const empty = await s.chain.query(Q + 'Vote', { proposal_id: 1n, voter: '' });
    expect(empty.res.log).to.equal('rpc error: code = InvalidArgument desc = empty voter address: invalid request');
  });

  it('Deposit and Deposits', async () => {
    const { value } = await query<{ deposit: Deposit }>('Deposit', { proposal_id: 1n, depositor: KEYS[3]!.address });
    expect(value.deposit).to.deep.equal({ proposal_id: 1n, depositor: KEYS[3]!.address, amount: coins(4n * E18) });
    const all = await query<{ deposits: Deposit[] }>('Deposits', { proposal_id: 1n });
    expect(all.value.deposits.map((d) => d.depositor).sort()).to.deep.equal([KEYS[2]!.address, KEYS[3]!.address].sort());
    const missing = await s.chain.query(Q + 'Deposit', { proposal_id: 1n, depositor: KEYS[6]!.address });
    expect(missing.res.log).to.equal(`rpc error: code = InvalidArgument desc = depositer: ${KEYS[6]!.address} not found for proposal: 1: invalid request`);
  });

  it('TallyResult: live during voting (and it deletes nothing), zero in the deposit period', async () => {
    const { value } = await query<{ tally: TallyResult }>('TallyResult', { proposal_id: 1n });
    // validator 0: 60 yes; validator 1: 40 as 10 yes / 30 no
    expect(value.tally).to.deep.equal({ yes: (70n * E18).toString(), abstain: '0', no: (30n * E18).toString(), no_with_veto: '0' });
    expect(s.keeper.getVotes(s.chain.ctx(), 1n)).to.have.length(2);
    const deposit = await query<{ tally: TallyResult }>('TallyResult', { proposal_id: 2n });
    expect(deposit.value.tally).to.deep.equal({ yes: '0', abstain: '0', no: '0', no_with_veto: '0' });
    const missing = await s.chain.query(Q + 'TallyResult', { proposal_id: 8n });
    expect(missing.res.code).to.equal(22);
  });

  it('Params: one set filled per type, the others zero; an unknown type is InvalidArgument', async () => {
    const dep = (await query<QueryParamsResponse>('Params', { params_type: 'deposit' })).value;
    expect(dep.deposit_params).to.deep.equal({ min_deposit: coins(10n * E18), max_deposit_period: { seconds: 3600n, nanos: 0 } });
    expect(dep.voting_params!.voting_period).to.deep.equal({ seconds: 0n, nanos: 0 });
    const voting = (await query<QueryParamsResponse>('Params', { params_type: 'voting' })).value;
    expect(voting.voting_params!.voting_period).to.deep.equal({ seconds: 3600n, nanos: 0 });
    const tally = (await query<QueryParamsResponse>('Params', { params_type: 'tallying' })).value;
    expect(new TextDecoder().decode(tally.tally_params!.quorum)).to.equal('334000000000000000');
    const json = s.registry.toJSON('chain.gov.v1beta1.QueryParamsResponse', tally as unknown as Record<string, unknown>);
    expect(json).to.deep.equal({
      voting_params: { voting_period: '0s' },
      deposit_params: { min_deposit: [], max_deposit_period: '0s' },
      tally_params: { quorum: '0.334000000000000000', threshold: '0.500000000000000000', veto_threshold: '0.334000000000000000' },
    });
    const bad = await s.chain.query(Q + 'Params', { params_type: 'x' });
    expect(bad.res.log).to.equal('rpc error: code = InvalidArgument desc = x is not a valid parameter type: invalid request');
  });

  it('the proposal JSON: content inline with its @type in each dialect, Go zero times in the deposit period', () => {
    const p = s.keeper.getProposal(s.chain.ctx(), 2n)!;
    const chain = s.registry.toJSON('chain.gov.v1beta1.Proposal', p) as Record<string, any>;
    expect(chain.content).to.deep.equal({ '@type': '/chain.gov.v1beta1.TextProposal', title: 'two', description: 'description' });
    expect(chain.voting_start_time).to.equal('0001-01-01T00:00:00Z');
    expect(chain.final_tally_result).to.deep.equal({ yes: '0', abstain: '0', no: '0', no_with_veto: '0' });
    const cosmos = s.registry.toJSON('chain.gov.v1beta1.Proposal', p, 'cosmos') as Record<string, any>;
    expect(cosmos.content['@type']).to.equal('/cosmos.gov.v1beta1.TextProposal');
  });
});
