import { expect } from 'chai';
import { Errors, httpStatusOfGrpc } from '@chain/errors';
import { createCancelSoftwareUpgradeProposalRoute, createSoftwareUpgradeProposalRoute, isZeroTime } from '../src/index.js';
import type { Plan } from '../src/index.js';
import { ctxAt, openChain, stateOf } from './helpers.js';
import type { TestSetup } from './helpers.js';
import type { Context } from '@chain/app';
import { branch } from '@chain/store';

/** What gov does at submission: the content's ValidateBasic (`validate`), then its handler on a throwaway branch. */
function submit<C>(route: { validate(ctx: Context, c: C): void; execute(ctx: Context, c: C): void }, ctx: Context, content: C): void {
  route.validate(ctx, content);
  route.execute(ctx.withStore(branch(ctx.ms)), content);
}

const Q = '/cosmos.upgrade.v1beta1.Query/';
const plan = (name: string, height: number, info = ''): Plan => ({ name, time: null, height: BigInt(height), info, upgraded_client_state: null });

describe('upgrade: queries, genesis and proposal validation', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain();
  });
  afterEach(async () => {
    await s.close();
  });

  const json = async (method: string, req: Record<string, unknown> = {}): Promise<unknown> => {
    const { res, value } = await s.chain.query(Q + method, req);
    expect(res.code, res.log).to.equal(0);
    return s.registry.toJSON(`chain.upgrade.v1beta1.Query${method}Response`, value!, 'cosmos');
  };

  it('InitGenesis records every module\'s consensus version: module_versions sorted by name', async () => {
    expect(await json('ModuleVersions')).to.deep.equal({ module_versions: [{ name: 'script', version: '1' }, { name: 'upgrade', version: '1' }] });
    expect(await json('ModuleVersions', { module_name: 'upgrade' })).to.deep.equal({ module_versions: [{ name: 'upgrade', version: '1' }] });
    const { res } = await s.chain.query(Q + 'ModuleVersions', { module_name: 'nosuch' });
    expect([res.codespace, res.code, res.log]).to.deep.equal(['sdk', 38, 'x/upgrade: QueryModuleVersions module nosuch not found: not found']);
    expect(httpStatusOfGrpc(Errors.NotFound.grpcCode)).to.equal(404);
  });

  it('genesis is {} both ways', () => {
    expect(s.chain.app.defaultGenesis().upgrade).to.deep.equal({});
    expect(s.chain.app.exportGenesis().upgrade).to.deep.equal({});
  });

  it('current_plan is null, then the plan scheduled in a block, in the SDK JSON (zero time)', async () => {
    expect(await json('CurrentPlan')).to.deep.equal({ plan: null });
    const route = createSoftwareUpgradeProposalRoute(s.keeper);
    s.script.queue.push((ctx) => route.execute(ctx, { title: 't', description: 'd', plan: plan('v1.7', 5633, 'binaries') }));
    await s.chain.block([]);
    expect(await json('CurrentPlan')).to.deep.equal({
      plan: { name: 'v1.7', time: '0001-01-01T00:00:00Z', height: '5633', info: 'binaries', upgraded_client_state: null },
    });
    // the canonical route answers the same
    const { value } = await s.chain.query('/chain.upgrade.v1beta1.Query/CurrentPlan', {});
    expect((value as { plan: Plan }).plan.name).to.equal('v1.7');
    // cancelled
    s.script.queue.push((ctx) => createCancelSoftwareUpgradeProposalRoute(s.keeper).execute(ctx, { title: 'c', description: '' }));
    await s.chain.block([]);
    expect(await json('CurrentPlan')).to.deep.equal({ plan: null });
  });

  it('applied_plan: the height, "0" for a name never applied', async () => {
    expect(await json('AppliedPlan', { name: 'v2' })).to.deep.equal({ height: '0' });
    s.keeper.setUpgradeHandler('v2', (_c, _p, vm) => vm);
    const route = createSoftwareUpgradeProposalRoute(s.keeper);
    s.script.queue.push((ctx) => route.execute(ctx, { title: 't', description: 'd', plan: plan('v2', 3) }));
    await s.chain.block([]); // 2: scheduled in end block (the handler exists, but the next begin block is 3 = due)
    await s.chain.block([]); // 3: applied
    expect(await json('AppliedPlan', { name: 'v2' })).to.deep.equal({ height: '3' });
  });

  it('upgraded_consensus_state: the bytes stored for the height, null when none', async () => {
    expect(await json('UpgradedConsensusState', { last_height: 7n })).to.deep.equal({ upgraded_consensus_state: null });
    s.script.queue.push((ctx) => s.keeper.setUpgradedConsensusState(ctx, 7n, Uint8Array.of(1, 2, 3)));
    await s.chain.block([]);
    expect(await json('UpgradedConsensusState', { last_height: 7n })).to.deep.equal({ upgraded_consensus_state: 'AQID' });
    // stored under the SDK's key
    expect(s.chain.ctx().kv('upgrade').get(Buffer.from('upgradedIBCState/7/upgradedConsState'))).to.deep.equal(Uint8Array.of(1, 2, 3));
  });

  it('the proposal routes have the SDK route, types and type names (the /cosmos. URL resolves)', () => {
    const up = createSoftwareUpgradeProposalRoute(s.keeper);
    const cancel = createCancelSoftwareUpgradeProposalRoute(s.keeper);
    expect([up.typeName, up.route, up.proposalType]).to.deep.equal(['chain.upgrade.v1beta1.SoftwareUpgradeProposal', 'upgrade', 'SoftwareUpgrade']);
    expect([cancel.typeName, cancel.route, cancel.proposalType]).to.deep.equal(['chain.upgrade.v1beta1.CancelSoftwareUpgradeProposal', 'upgrade', 'CancelSoftwareUpgrade']);
    expect(s.registry.nameOfTypeUrl('/cosmos.upgrade.v1beta1.SoftwareUpgradeProposal')).to.equal(up.typeName);
    expect(s.registry.nameOfTypeUrl('/cosmos.upgrade.v1beta1.CancelSoftwareUpgradeProposal')).to.equal(cancel.typeName);
  });

  it('at submission (ValidateBasic, then ScheduleUpgrade on a throwaway branch, as gov does): nothing written', () => {
    const state = stateOf(s);
    const ctx = ctxAt(state, 10);
    const route = createSoftwareUpgradeProposalRoute(s.keeper);
    const bad: [Plan | null, string][] = [
      [{ ...plan('x', 20), time: { seconds: 0n, nanos: 0 } }, 'time-based upgrades have been deprecated in the SDK: invalid request'],
      [{ ...plan('x', 20), upgraded_client_state: { type_url: '/x', value: new Uint8Array() } }, 'upgrade logic for IBC has been moved to the IBC module: invalid request'],
      [plan('', 20), 'name cannot be empty: invalid request'],
      [null, 'name cannot be empty: invalid request'],
      [plan('x', 0), 'height must be greater than 0: invalid request'],
      [plan('x', 9), 'upgrade cannot be scheduled in the past: invalid request'],
    ];
    for (const [p, msg] of bad) {
      let err: unknown;
      try {
        submit(route, ctx, { title: 't', description: 'd', plan: p });
      } catch (e) {
        err = e;
      }
      expect(Errors.InvalidRequest.is(err), `${msg}: ${String(err)}`).to.equal(true);
      expect((err as Error).message).to.equal(msg);
    }
    submit(route, ctx, { title: 't', description: 'd', plan: plan('x', 10) });
    expect(state.changes()).to.deep.equal([]);
  });

  it('a plan from JSON with the zero time (what clients send) is valid', () => {
    const p = s.registry.fromJSON('chain.upgrade.v1beta1.Plan', { name: 'v2', time: '0001-01-01T00:00:00Z', height: '20', info: '' }) as Plan;
    expect(isZeroTime(p.time)).to.equal(true);
    const q = s.registry.fromJSON('chain.upgrade.v1beta1.Plan', { name: 'v2', height: '20' }) as Plan;
    expect(isZeroTime(q.time)).to.equal(true);
    const r = s.registry.fromJSON('chain.upgrade.v1beta1.Plan', { name: 'v2', time: '2024-01-01T00:00:00Z', height: '20' }) as Plan;
    expect(isZeroTime(r.time)).to.equal(false);
  });
});
