/** gov's params as the x/params subspace `gov` sees them: amino JSON of v0.45, partial updates, validation. */
import { expect } from 'chai';
import { GOV_PARAM_KEYS, govParamSubspace } from '../src/index.js';
import { BlockCtx, E18, appGenesis, govGenesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('gov: params subspace (amino JSON)', () => {
  let s: TestSetup;
  let b: BlockCtx;
  beforeEach(async () => {
    s = await openChain();
    await s.chain.init(appGenesis({ gov: govGenesis({ depositPeriod: 20, votingPeriod: 20 }) }));
    b = new BlockCtx(s.chain);
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('the subspace `gov` with the three keys, read as v0.45 stores them', () => {
    const sub = govParamSubspace(s.keeper);
    expect(sub.name).to.equal('gov');
    expect(sub.keys()).to.deep.equal([...GOV_PARAM_KEYS]).and.deep.equal(['depositparams', 'votingparams', 'tallyparams']);
    const ctx = b.ctx();
    expect(sub.getAmino(ctx, 'depositparams')).to.equal(`{"min_deposit":[{"denom":"stake","amount":"${10n * E18}"}],"max_deposit_period":"20000000000"}`);
    expect(sub.getAmino(ctx, 'votingparams')).to.equal('{"voting_period":"20000000000"}');
    expect(sub.getAmino(ctx, 'tallyparams')).to.equal('{"quorum":"0.334000000000000000","threshold":"0.500000000000000000","veto_threshold":"0.334000000000000000"}');
    expect(() => sub.getAmino(ctx, 'nope')).to.throw('parameter nope not registered');
  });

  it('a partial object changes only its fields (decoded on top of the current value)', () => {
    const sub = govParamSubspace(s.keeper);
    const ctx = b.ctx();
    sub.setAmino(ctx, 'votingparams', '{"voting_period":"432000000000000"}');
    expect(s.keeper.getVotingParams(ctx).voting_period).to.deep.equal({ seconds: 432000n, nanos: 0 });
    sub.setAmino(ctx, 'tallyparams', '{"quorum":"0.4"}');
    expect(sub.getAmino(ctx, 'tallyparams')).to.equal('{"quorum":"0.400000000000000000","threshold":"0.500000000000000000","veto_threshold":"0.334000000000000000"}');
    sub.setAmino(ctx, 'depositparams', '{"min_deposit":[{"denom":"stake","amount":"5"}]}');
    expect(s.keeper.getDepositParams(ctx)).to.deep.equal({ min_deposit: [{ denom: 'stake', amount: '5' }], max_deposit_period: { seconds: 20n, nanos: 0 } });
  });

  it('invalid values are refused with the SDK validators\' messages and change nothing', () => {
    const sub = govParamSubspace(s.keeper);
    const ctx = b.ctx();
    const before = s.keeper.getParams(ctx);
    expect(() => sub.setAmino(ctx, 'votingparams', '{"voting_period":"0"}')).to.throw('invalid parameter value: voting period must be positive: 0s');
    expect(() => sub.setAmino(ctx, 'depositparams', '{"max_deposit_period":"-1"}')).to.throw('invalid parameter value: maximum deposit period must be positive: -1');
    expect(() => sub.setAmino(ctx, 'depositparams', '{"min_deposit":[{"denom":"stake","amount":"0"}]}')).to.throw('invalid parameter value: invalid minimum deposit: 0stake');
    expect(() => sub.setAmino(ctx, 'tallyparams', '{"threshold":"0"}')).to.throw('invalid parameter value: vote threshold must be positive: 0.000000000000000000');
    expect(() => sub.setAmino(ctx, 'tallyparams', '{"veto_threshold":"1.5"}')).to.throw(/^invalid parameter value: veto threshold too large/);
    expect(() => sub.setAmino(ctx, 'tallyparams', '{"quorum":"-0.1"}')).to.throw('invalid parameter value: quorom cannot be negative: -0.100000000000000000');
    expect(() => sub.setAmino(ctx, 'tallyparams', '{"quorum":"abc"}')).to.throw('failed to set decimal string: abc000000000000000000');
    expect(() => sub.setAmino(ctx, 'votingparams', '{"voting_period":100}')).to.throw('invalid character -- Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support');
    expect(() => sub.setAmino(ctx, 'votingparams', '{"votingperiod":"1"}')).to.throw('unknown field "votingperiod"');
    expect(() => sub.setAmino(ctx, 'votingparams', 'nope')).to.throw('invalid JSON: nope');
    expect(() => sub.setAmino(ctx, 'other', '{}')).to.throw('parameter other not registered');
    expect(s.keeper.getParams(ctx)).to.deep.equal(before);
  });
});
