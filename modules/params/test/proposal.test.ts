import { expect } from 'chai';
import { ParamsErrors, createParamChangeProposalRoute } from '../src/index.js';
import type { ParamChange, ParameterChangeProposal } from '../src/index.js';
import { branchCtx, openChain, thrown } from './helpers.js';
import type { TestSetup } from './helpers.js';
import type { Context } from '@chain/app';
import { branch } from '@chain/store';

/** What gov does at submission: the content's ValidateBasic (`validate`), then its handler on a throwaway branch. */
function submit<C>(route: { validate(ctx: Context, c: C): void; execute(ctx: Context, c: C): void }, ctx: Context, content: C): void {
  route.validate(ctx, content);
  route.execute(ctx.withStore(branch(ctx.ms)), content);
}

const proposal = (...changes: ParamChange[]): ParameterChangeProposal => ({ title: 'title', description: 'description', changes });
const change = (subspace: string, key: string, value: string): ParamChange => ({ subspace, key, value });

describe('params: ParameterChangeProposal route', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain();
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('has the SDK route, type and type name', () => {
    const r = createParamChangeProposalRoute(s.keeper);
    expect([r.typeName, r.route, r.proposalType]).to.deep.equal(['chain.params.v1beta1.ParameterChangeProposal', 'params', 'ParameterChange']);
    // the Cosmos type URL resolves to the canonical type
    expect(s.registry.nameOfTypeUrl('/cosmos.params.v1beta1.ParameterChangeProposal')).to.equal(r.typeName);
  });

  // x/params proposal_handler_test.go TestProposalHandler (the gov "omit empty fields" case lives with gov's subspace)
  it('all fields: MaxValidators "1" sets staking max validators to 1', () => {
    const { ctx } = branchCtx(s);
    createParamChangeProposalRoute(s.keeper).execute(ctx, proposal(change('staking', 'MaxValidators', '1')));
    expect(s.sk.getParams(ctx).max_validators).to.equal(1);
    expect(s.logs).to.deep.equal(['attempt to set new parameter value; key: MaxValidators, value: 1']);
  });

  it('invalid type: MaxValidators "-" fails with params 3 and changes nothing', () => {
    const { ctx } = branchCtx(s);
    const err = thrown(() => createParamChangeProposalRoute(s.keeper).execute(ctx, proposal(change('staking', 'MaxValidators', '-'))));
    expect(ParamsErrors.SettingParameter.is(err), String(err)).to.equal(true);
    expect(err.message).to.match(/^key: MaxValidators, value: -, err: .+: failed to set parameter$/);
    expect(s.sk.getParams(ctx).max_validators).to.equal(100);
  });

  it('a value the key validator refuses: params 3 with the SDK text', () => {
    const { ctx } = branchCtx(s);
    const err = thrown(() => createParamChangeProposalRoute(s.keeper).execute(ctx, proposal(change('staking', 'MaxValidators', '0'))));
    expect(err.message).to.equal('key: MaxValidators, value: 0, err: invalid parameter value: max validators must be positive: 0: failed to set parameter');
  });

  it('applies several changes in order, across subspaces', () => {
    const { ctx } = branchCtx(s);
    createParamChangeProposalRoute(s.keeper).execute(ctx, proposal(
      change('staking', 'UnbondingTime', '"172800000000000"'),
      change('slashing', 'SlashFractionDowntime', '"0.0001"'),
      change('mint', 'InflationMax', '"0.3"'),
      change('mint', 'InflationMin', '"0.25"'),
    ));
    expect(s.sk.getParams(ctx).unbonding_time).to.deep.equal({ seconds: 172800n, nanos: 0 });
    expect(s.keeper.getParam(ctx, 'slashing', 'SlashFractionDowntime')).to.equal('"0.000100000000000000"');
    expect(s.keeper.getParam(ctx, 'mint', 'InflationMin')).to.equal('"0.250000000000000000"');
  });

  it('is all or nothing: a failing change leaves the earlier ones unapplied', () => {
    const { ctx } = branchCtx(s);
    const err = thrown(() => createParamChangeProposalRoute(s.keeper).execute(ctx, proposal(
      change('staking', 'MaxValidators', '5'),
      change('auth', 'TxSigLimit', '"0"'),
    )));
    expect(err.message).to.equal('key: TxSigLimit, value: "0", err: invalid parameter value: invalid tx signature limit: 0: failed to set parameter');
    expect(s.sk.getParams(ctx).max_validators).to.equal(100);
  });

  it('at submission (ValidateBasic, then the handler on a throwaway branch, as gov does): writes nothing', () => {
    const { ctx, state } = branchCtx(s);
    const route = createParamChangeProposalRoute(s.keeper);
    submit(route, ctx, proposal(change('staking', 'MaxValidators', '3'), change('distribution', 'communitytax', '"0.1"')));
    expect(state.changes()).to.deep.equal([]);
    expect(s.sk.getParams(ctx).max_validators).to.equal(100);
    // later changes see the earlier ones: 0.5 + 0.5 base and bonus is valid only with a zero community tax
    submit(route, ctx, proposal(
      change('distribution', 'communitytax', '"0"'),
      change('distribution', 'baseproposerreward', '"0.5"'),
      change('distribution', 'bonusproposerreward', '"0.5"'),
    ));
    const err = thrown(() => submit(route, ctx, proposal(
      change('distribution', 'baseproposerreward', '"0.5"'),
      change('distribution', 'bonusproposerreward', '"0.5"'),
    )));
    expect(err.message).to.equal(
      'key: bonusproposerreward, value: "0.5", err: sum of base, bonus proposer rewards, and community tax cannot be greater than one: 1.020000000000000000: failed to set parameter',
    );
  });

  it('at submission, the handler refuses an unknown subspace (params 2), an unregistered key and a bad value (params 3)', () => {
    const { ctx } = branchCtx(s);
    const route = createParamChangeProposalRoute(s.keeper);
    const unknown = thrown(() => submit(route, ctx, proposal(change('nosuch', 'X', '1'))));
    expect([ParamsErrors.UnknownSubspace.is(unknown), unknown.message]).to.deep.equal([true, 'nosuch: unknown subspace']);
    const key = thrown(() => submit(route, ctx, proposal(change('staking', 'MaxValidatorz', '1'))));
    expect(key.message).to.equal('key: MaxValidatorz, value: 1, err: parameter MaxValidatorz not registered: failed to set parameter');
    const value = thrown(() => submit(route, ctx, proposal(change('staking', 'UnbondingTime', '100'))));
    expect(value.message).to.equal(
      'key: UnbondingTime, value: 100, err: invalid character -- Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support: failed to set parameter',
    );
  });

  it('ValidateBasic: empty changes (4), subspace (5), key (6), value (7)', () => {
    const { ctx } = branchCtx(s);
    const route = createParamChangeProposalRoute(s.keeper);
    const cases: [ParamChange[], number, string][] = [
      [[], 4, 'submitted parameter changes are empty'],
      [[change('', 'MaxValidators', '1')], 5, 'parameter subspace is empty'],
      [[change('staking', '', '1')], 6, 'parameter key is empty'],
      [[change('staking', 'MaxValidators', '')], 7, 'parameter value is empty'],
    ];
    for (const [changes, code, msg] of cases) {
      for (const run of [route.validate, route.execute]) {
        const err = thrown(() => run(ctx, proposal(...changes))) as Error & { code: number; codespace: string };
        expect([err.codespace, err.code, err.message]).to.deep.equal(['params', code, msg]);
      }
    }
  });
});
