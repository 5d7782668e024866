/**
 * x/upgrade/abci_test.go of SDK v0.45, ported: the proposal handler and the (pre-)block hook on one state at
 * any height (the SDK tests' `ctx.WithBlockHeight`), with the SDK's panics as `ChainHaltError`s and their texts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { expect } from 'chai';
import { isChainHalt } from '@chain/app';
import type { Context } from '@chain/app';
import { Errors } from '@chain/errors';
import type { CacheKVStore } from '@chain/store';
import {
  UpgradeKeeper, createCancelSoftwareUpgradeProposalRoute, createSoftwareUpgradeProposalRoute, planString, upgradePreBlocker,
} from '../src/index.js';
import type { Plan, SoftwareUpgradeProposal } from '../src/index.js';
import { ctxAt, openChain, rejection, stateOf } from './helpers.js';
import type { TestSetup } from './helpers.js';

const plan = (name: string, height: number, info = ''): Plan => ({ name, time: null, height: BigInt(height), info, upgraded_client_state: null });
const proposal = (p: Plan, title = 'prop'): SoftwareUpgradeProposal => ({ title, description: '', plan: p });
const identity = (_ctx: Context, _plan: Plan, vm: Record<string, number>) => vm;

describe('upgrade: BeginBlock and proposal handler (SDK abci_test.go)', () => {
  let s: TestSetup;
  let state: CacheKVStore;
  /** the SDK tests' s.ctx: height 10 */
  let ctx: Context;
  /** the SDK's `s.handler`: the proposal routes' execute */
  let handle: (p: SoftwareUpgradeProposal) => void;
  let cancel: () => void;
  const beginBlock = (height: number) => upgradePreBlocker(s.keeper, ctxAt(state, height));

  const setup = async (skip: number[] = []): Promise<void> => {
    s = await openChain({ skip });
    state = stateOf(s);
    ctx = ctxAt(state, 10);
    const route = createSoftwareUpgradeProposalRoute(s.keeper);
    handle = (p) => route.execute(ctx, p);
    cancel = () => createCancelSoftwareUpgradeProposalRoute(s.keeper).execute(ctx, { title: 'cancel', description: '' });
  };
  afterEach(async () => {
    await s.close();
  });

  /** VerifyDoUpgrade: halts at the height without a handler, applies with one, then the plan is cleared. */
  const verifyDoUpgrade = async (height: number, name = 'test'): Promise<void> => {
    const halt = await rejection(() => beginBlock(height));
    expect(isChainHalt(halt), String(halt)).to.equal(true);
    s.keeper.setUpgradeHandler(name, identity);
    await beginBlock(height);
    verifyCleared();
  };
  const verifyCleared = (): void => {
    expect(s.keeper.getUpgradePlan(ctx)).to.equal(undefined);
  };

  it('TestRequireName: a plan without a name is sdk 18', async () => {
    await setup();
    let err: unknown;
    try {
      handle(proposal(plan('', 0)));
    } catch (e) {
      err = e;
    }
    expect(Errors.InvalidRequest.is(err), String(err)).to.equal(true);
    expect((err as Error).message).to.equal('name cannot be empty: invalid request');
  });

  it('TestRequireFutureBlock: a plan below the current height is sdk 18', async () => {
    await setup();
    expect(() => handle(proposal(plan('test', 9)))).to.throw('upgrade cannot be scheduled in the past: invalid request');
    // the current height itself is allowed (emergency upgrades in the same block)
    handle(proposal(plan('test', 10)));
  });

  it('TestDoHeightUpgrade: halts at the height without a handler, applies with one', async () => {
    await setup();
    handle(proposal(plan('test', 11)));
    await verifyDoUpgrade(11);
    expect(s.keeper.getDoneHeight(ctx, 'test')).to.equal(11n);
  });

  it('TestCanOverwriteScheduleUpgrade: a second plan replaces the first', async () => {
    await setup();
    handle(proposal(plan('bad_test', 20)));
    handle(proposal(plan('test', 11)));
    await verifyDoUpgrade(11);
  });

  it('TestHaltIfTooNew: a handler registered before its plan is due halts with BINARY UPDATED BEFORE TRIGGER', async () => {
    await setup();
    let called = 0;
    s.keeper.setUpgradeHandler('future', (_c, _p, vm) => {
      called++;
      return vm;
    });
    // no plan at all: nothing happens
    await beginBlock(11);
    expect(called).to.equal(0);
    handle(proposal(plan('future', 13)));
    const halt = await rejection(() => beginBlock(11));
    expect(isChainHalt(halt)).to.equal(true);
    expect(halt.message).to.equal('BINARY UPDATED BEFORE TRIGGER! UPGRADE "future" - in binary but not executed on chain');
    expect(s.lines.at(-1)).to.deep.equal({ level: 'error', msg: halt.message });
    expect(called).to.equal(0);
    // on time: applied
    await beginBlock(13);
    expect(called).to.equal(1);
    verifyCleared();
  });

  it('TestCanClear: a cancel proposal clears the plan', async () => {
    await setup();
    handle(proposal(plan('test', 110)));
    cancel();
    verifyCleared();
    // clearing without a plan succeeds too
    cancel();
  });

  it('TestCantApplySameUpgradeTwice: a name already applied cannot be scheduled again', async () => {
    await setup();
    handle(proposal(plan('test', 11)));
    await verifyDoUpgrade(11);
    expect(() => handle(proposal(plan('test', 11)))).to.throw('upgrade with name test has already been completed: invalid request');
  });

  it('TestNoSpuriousUpgrades: no plan, no halt', async () => {
    await setup();
    await beginBlock(10);
  });

  it('TestPlanStringer', async () => {
    await setup();
    expect(planString(plan('test', 100))).to.equal('Upgrade Plan\n  Name: test\n  height: 100\n  Info: .');
  });

  it('TestContains: skip heights', async () => {
    await setup([11]);
    expect(s.keeper.isSkipHeight(11)).to.equal(true);
    expect(s.keeper.isSkipHeight(4)).to.equal(false);
  });

  it('TestSkipUpgradeSkippingAll: both plans at skip heights are cleared, neither is done', async () => {
    await setup([11, 20]);
    handle(proposal(plan('test', 11)));
    await beginBlock(11);
    expect(s.lines.at(-1)).to.deep.equal({ level: 'info', msg: 'UPGRADE "test" SKIPPED at 11: ' });
    handle(proposal(plan('test2', 20), 'prop2'));
    await beginBlock(20);
    verifyCleared();
    expect(s.keeper.getDoneHeight(ctx, 'test')).to.equal(0n);
    expect(s.keeper.getDoneHeight(ctx, 'test2')).to.equal(0n);
  });

  it('TestUpgradeSkippingOne: the plan at the skip height is skipped, the other applies', async () => {
    await setup([11]);
    handle(proposal(plan('test', 11)));
    await beginBlock(11);
    handle(proposal(plan('test2', 20), 'prop2'));
    await verifyDoUpgrade(20, 'test2');
    expect(s.keeper.getDoneHeight(ctx, 'test')).to.equal(0n);
    expect(s.keeper.getDoneHeight(ctx, 'test2')).to.equal(20n);
  });

  it('TestUpgradeSkippingOnlyTwo: two skipped, the third applies', async () => {
    await setup([11, 20]);
    handle(proposal(plan('test', 11)));
    await beginBlock(11);
    handle(proposal(plan('test2', 20), 'prop2'));
    await beginBlock(20);
    handle(proposal(plan('test3', 25), 'prop3'));
    await verifyDoUpgrade(25, 'test3');
    expect(s.keeper.getDoneHeight(ctx, 'test')).to.equal(0n);
    expect(s.keeper.getDoneHeight(ctx, 'test2')).to.equal(0n);
    expect(s.keeper.getDoneHeight(ctx, 'test3')).to.equal(25n);
  });

  it('TestUpgradeWithoutSkip: halts with UPGRADE NEEDED, logs it and writes upgrade-info.json', async () => {
    await setup();
    handle(proposal(plan('test', 11, 'https://example.com/v2.json')));
    const halt = await rejection(() => beginBlock(11));
    expect(isChainHalt(halt)).to.equal(true);
    expect(halt.message).to.equal('UPGRADE "test" NEEDED at height: 11: https://example.com/v2.json');
    expect((halt as Error & { height: number }).height).to.equal(11);
    expect(s.lines.at(-1)).to.deep.equal({ level: 'error', msg: 'UPGRADE "test" NEEDED at height: 11: https://example.com/v2.json' });
    const file = `${s.home}/data/upgrade-info.json`;
    expect(readFileSync(file, 'utf8')).to.equal('{"name":"test","height":11,"info":"https://example.com/v2.json"}');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    await verifyDoUpgrade(11);
    expect(s.keeper.getDoneHeight(ctx, 'test')).to.equal(11n);
  });

  it('TestDumpUpgradeInfoToFile: the file holds the name and height (info omitted when empty)', async () => {
    await setup();
    s.keeper.dumpUpgradeInfoToDisk(11, 'test');
    const path = s.keeper.upgradeInfoPath();
    expect(path).to.equal(`${s.home}/data/upgrade-info.json`);
    expect(readFileSync(path, 'utf8')).to.equal('{"name":"test","height":11}');
    expect(s.keeper.readUpgradeInfoFromDisk()).to.deep.equal({ name: 'test', height: 11 });
  });

  it('TestBinaryVersion: a binary without the handler of the last applied upgrade halts once per process', async () => {
    await setup([15]);
    // no scheduled or applied upgrade: fine
    await beginBlock(10);
    s.keeper.setUpgradeHandler('test0', identity);
    handle(proposal(plan('test0', 12)));
    await s.keeper.applyUpgrade(ctxAt(state, 12), plan('test0', 12));
    await beginBlock(12);
    // the upgrade needed: halts
    handle(proposal(plan('test2', 13)));
    const halt = await rejection(() => beginBlock(13));
    expect(halt.message).to.equal('UPGRADE "test2" NEEDED at height: 13: ');
  });

  it('a binary without the handler of the last applied upgrade: Wrong app version', async () => {
    await setup();
    s.keeper.setUpgradeHandler('v2', identity);
    handle(proposal(plan('v2', 11)));
    await beginBlock(11);
    expect(s.keeper.getDoneHeight(ctx, 'v2')).to.equal(11n);
    // a new process of an older binary (no handler v2) on this state
    const older = new UpgradeKeeper({ registry: s.registry, moduleVersions: () => ({}), logger: { info: () => undefined, error: () => undefined } });
    const halt = await rejection(() => upgradePreBlocker(older, ctxAt(state, 12)));
    expect(isChainHalt(halt)).to.equal(true);
    expect(halt.message).to.equal('Wrong app version 1, upgrade handler is missing for v2 upgrade plan');
    // checked once per process only
    await upgradePreBlocker(older, ctxAt(state, 13));
  });

  it('a handler that fails halts the chain at the height (the SDK panics)', async () => {
    await setup();
    handle(proposal(plan('bad', 11)));
    s.keeper.setUpgradeHandler('bad', () => {
      throw new Error('migration exploded');
    });
    const halt = await rejection(() => beginBlock(11));
    expect(isChainHalt(halt)).to.equal(true);
    expect(halt.message).to.equal('upgrade "bad" failed at height 11: migration exploded');
    expect(s.keeper.getDoneHeight(ctx, 'bad')).to.equal(0n);
  });

  it('no home directory: the halt writes no file', async () => {
    await setup();
    handle(proposal(plan('test', 11)));
    const k = new UpgradeKeeper({ registry: s.registry, moduleVersions: () => ({}), logger: { info: () => undefined, error: () => undefined } });
    const halt = await rejection(() => upgradePreBlocker(k, ctxAt(state, 11)));
    expect(halt.message).to.equal('UPGRADE "test" NEEDED at height: 11: ');
    expect(existsSync(`${s.home}/data/upgrade-info.json`)).to.equal(false);
  });
});
