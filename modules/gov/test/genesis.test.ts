/** Genesis: the default, validation (the SDK's messages), InitGenesis checks, and the export/import round trip. */
import { expect } from 'chai';
import { ProposalStatus, VoteOption } from '../src/gen/chain/gov/v1beta1.js';
import { defaultGovGenesis, validateGovGenesis } from '../src/index.js';
import type { GovGenesisState } from '../src/index.js';
import { E18, KEYS, appGenesis, coins, deliver, depositMsg, govGenesis, openChain, submitMsg, textContent, voteMsg } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('gov: genesis', () => {
  const open: TestSetup[] = [];
  const chain = async (): Promise<TestSetup> => {
    const s = await openChain({ blockSeconds: 5 });
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });

  it('the default genesis: id 1, no proposals, the SDK default params', async () => {
    const s = await chain();
    expect(s.chain.app.defaultGenesis()['gov']).to.deep.equal({
      starting_proposal_id: '1',
      deposits: [],
      votes: [],
      proposals: [],
      deposit_params: { min_deposit: [{ denom: 'stake', amount: '10000000' }], max_deposit_period: '172800s' },
      voting_params: { voting_period: '172800s' },
      tally_params: { quorum: '0.334000000000000000', threshold: '0.500000000000000000', veto_threshold: '0.334000000000000000' },
    });
  });

  it('validation: the SDK\'s messages', () => {
    const g = (f: (x: GovGenesisState) => void): GovGenesisState => {
      const x = defaultGovGenesis();
      f(x);
      return x;
    };
    const dec = (t: string) => new TextEncoder().encode(t);
    expect(() => validateGovGenesis(g((x) => { x.tally_params!.threshold = dec('1100000000000000000'); })))
      .to.throw('governance vote threshold should be positive and less or equal to one, is 1.100000000000000000');
    expect(() => validateGovGenesis(g((x) => { x.tally_params!.veto_threshold = dec('-1'); })))
      .to.throw('governance vote veto threshold should be positive and less or equal to one, is -0.000000000000000001');
    expect(() => validateGovGenesis(g((x) => { x.deposit_params!.min_deposit = [{ denom: 'stake', amount: '0' }]; })))
      .to.throw('governance deposit amount must be a valid sdk.Coins amount, is 0stake');
    expect(() => validateGovGenesis(g((x) => { x.voting_params!.voting_period = { seconds: 0n, nanos: 0 }; }))).to.throw('voting period must be positive: 0s');
    expect(() => validateGovGenesis(g((x) => { x.tally_params!.quorum = dec('2000000000000000000'); }))).to.throw(/^quorom too large/);
    expect(() => validateGovGenesis(defaultGovGenesis())).to.not.throw();
  });

  it('InitGenesis refuses deposits the gov module account does not hold', async () => {
    const s = await chain();
    const gov = { ...govGenesis(), deposits: [{ proposal_id: '1', depositor: KEYS[2]!.address, amount: [{ denom: 'stake', amount: '5' }] }] };
    expect(() => s.chain.initChain(appGenesis({ gov }))).to.throw('expected module account was  but we got 5stake');
  });

  it('round trip: proposals in both periods, deposits and votes export; another chain imports them, rebuilds the queues and ends them', async () => {
    const a = await chain();
    await a.chain.init(appGenesis({ gov: govGenesis({ depositPeriod: 60, votingPeriod: 60 }) }));
    for (const [signer, m] of [
      [2, submitMsg(a.registry, 2, textContent(a.registry, 'voting'), coins(10n * E18))],
      [3, depositMsg(a.registry, 3, 1n, coins(E18))],
      [4, submitMsg(a.registry, 4, textContent(a.registry, 'deposit'), coins(2n * E18))],
      [0, voteMsg(a.registry, 0, 1n, VoteOption.VOTE_OPTION_YES)],
    ] as const) {
      const r = await deliver(a, signer, m);
      expect(r.code, r.log).to.equal(0);
    }
    const exported = a.chain.app.exportGenesis();
    const gov = exported['gov'] as Record<string, any>;
    expect(gov.starting_proposal_id).to.equal('3');
    expect(gov.proposals.map((p: any) => [p.proposal_id, p.status])).to.deep.equal([['1', 'PROPOSAL_STATUS_VOTING_PERIOD'], ['2', 'PROPOSAL_STATUS_DEPOSIT_PERIOD']]);
    expect(gov.deposits).to.have.length(3);
    expect(gov.votes).to.deep.equal([{ proposal_id: '1', voter: KEYS[0]!.address, option: 'VOTE_OPTION_YES', options: [{ option: 'VOTE_OPTION_YES', weight: '1.000000000000000000' }] }]);

    const b = await chain();
    await b.chain.init(exported);
    expect(b.chain.app.exportGenesis()['gov']).to.deep.equal(gov);
    // the queues were rebuilt: both proposals end on schedule on the importing chain
    const open = (): boolean => b.keeper.getProposals(b.chain.ctx()).some((p) => p.status === ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD || p.status === ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD);
    for (let i = 0; i < 30 && open(); i++) await b.chain.block([]);
    const ctx = b.chain.ctx();
    expect(b.keeper.getProposal(ctx, 1n)!.status).to.equal(ProposalStatus.PROPOSAL_STATUS_PASSED);
    expect(b.keeper.getProposal(ctx, 2n)).to.equal(undefined);
    expect(b.bank.getBalance(ctx, b.keeper.moduleAddress(), 'stake')).to.equal(0n);
  });
});
