/**
 * An upgrade through real blocks: a chain (upgrade, a gov stand-in, a `counter` module at consensus version 1)
 * schedules a plan through the proposal route; at its height the old binary halts without committing, and
 * again after a restart; the new binary (counter at version 2 with its migration, the plan's handler running
 * the app's migrations) applies it at that height exactly once, and the chain goes on. A node started with
 * the height as a skip height passes it instead.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { App, isChainHalt } from '@chain/app';
import type { VersionMap } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import type { ProtoObject } from '@chain/codec';
import { testAppConfig } from '@chain/testing';
import { UpgradeKeeper, UpgradeModule, createSoftwareUpgradeProposalRoute } from '../src/index.js';
import type { Plan } from '../src/index.js';
import { CHAIN_ID, CounterModule, ScriptModule, captureLogger, openChain, rejection } from './helpers.js';
import type { LogLine, TestSetup } from './helpers.js';

const PLAN_HEIGHT = 5;

interface Binary {
  readonly app: App;
  readonly keeper: UpgradeKeeper;
  readonly counter: CounterModule;
  readonly lines: LogLine[];
  /** runs of the v2 handler */
  readonly calls: number[];
}

/** A new process on the same store: upgrade + script + counter at `version`, the v2 handler only with `handler`. */
function startBinary(s: TestSetup, o: { version: 1 | 2; handler: boolean; skip?: number[] }): Binary {
  const registry = new ProtoRegistry();
  const { logger, lines } = captureLogger();
  const calls: number[] = [];
  let app: App | undefined;
  const keeper = new UpgradeKeeper({
    registry, homeDir: s.home, skipUpgradeHeights: o.skip, logger, moduleVersions: () => app!.manager.versionMap(),
  });
  const counter = new CounterModule(o.version);
  const modules = [new UpgradeModule(keeper), new ScriptModule(), counter];
  app = new App({ registry, store: s.chain.store, config: testAppConfig(modules), modules, chainId: CHAIN_ID });
  const a = app;
  if (o.handler) {
    // the public API of a chain that imports the package: name → migrations of the store
    keeper.setUpgradeHandler('v2', (ctx, _plan, fromVM: VersionMap) => {
      calls.push(ctx.block.height);
      return a.manager.runMigrations(ctx, fromVM);
    });
  }
  return { app: a, keeper, counter, lines, calls };
}

/** Finalizes and commits the next block on `b`'s app (the request as the engine would send it). */
async function block(s: TestSetup, b: Binary): Promise<void> {
  await b.app.finalizeBlock(s.chain.finalizeRequest([]));
  await b.app.commit();
}

async function query<T = ProtoObject>(b: Binary, method: string, req: ProtoObject): Promise<T> {
  const route = b.app.router.queryRoute(`/cosmos.upgrade.v1beta1.Query/${method}`)!;
  const res = await b.app.query({ path: route.path, data: b.app.registry.encode(route.requestType, req) });
  expect(res.code, res.log).to.equal(0);
  return b.app.registry.decode<T>(route.responseType, res.value);
}

describe('upgrade: a plan through real blocks, two binaries', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain({ extra: [new CounterModule(1)] });
    // block 2: the passed proposal schedules v2 at height 5 (gov's end block, here the script module)
    const route = createSoftwareUpgradeProposalRoute(s.keeper);
    const plan: Plan = { name: 'v2', time: null, height: BigInt(PLAN_HEIGHT), info: '{"binaries":{}}', upgraded_client_state: null };
    s.script.queue.push((ctx) => {
      route.validate(ctx, { title: 'v2', description: 'upgrade', plan });
      route.execute(ctx, { title: 'v2', description: 'upgrade', plan });
    });
    await s.chain.block([]);
    await s.chain.block([]);
    await s.chain.block([]);
    expect(s.chain.app.lastHeight).to.equal(PLAN_HEIGHT - 1);
  });
  afterEach(async () => {
    await s.close();
  });

  it('the old binary halts at the height without committing, a restart halts again, the new binary applies it once', async () => {
    const appHash = s.chain.app.lastAppHash;
    // old binary: halts at 5, nothing committed
    const halt = await rejection(() => s.chain.block([]));
    expect(isChainHalt(halt), String(halt)).to.equal(true);
    expect(halt.message).to.equal('UPGRADE "v2" NEEDED at height: 5: {"binaries":{}}');
    expect(s.lines).to.deep.include({ level: 'error', msg: 'UPGRADE "v2" NEEDED at height: 5: {"binaries":{}}' });
    expect(s.chain.app.lastHeight).to.equal(4);
    expect(s.chain.app.lastAppHash).to.deep.equal(appHash);
    expect(JSON.parse(readFileSync(`${s.home}/data/upgrade-info.json`, 'utf8'))).to.deep.equal({ name: 'v2', height: 5, info: '{"binaries":{}}' });
    // commit refuses: there is no finalized block
    expect((await rejection(() => s.chain.app.commit())).message).to.equal('commit without a finalized block');

    // a restart of the same binary: halts again at 5, still nothing committed
    const same = startBinary(s, { version: 1, handler: false });
    const again = await rejection(() => block(s, same));
    expect(again.message).to.equal('UPGRADE "v2" NEEDED at height: 5: {"binaries":{}}');
    expect(same.app.lastHeight).to.equal(4);
    expect(same.app.lastAppHash).to.deep.equal(appHash);

    // the new binary: applies v2 at 5 (the counter migration 1 → 2 runs once), then goes on
    const next = startBinary(s, { version: 2, handler: true });
    await block(s, next);
    expect(next.app.lastHeight).to.equal(5);
    expect(next.calls).to.deep.equal([5]);
    expect(next.counter.runs).to.deep.equal([5]);
    expect(next.lines).to.deep.equal([{ level: 'info', msg: 'applying upgrade "v2" at height: 5' }]);
    expect(Buffer.from(next.app.queryContext().kv('counter').get(Buffer.from('migrated'))!).toString()).to.equal('5');
    expect(await query(next, 'AppliedPlan', { name: 'v2' })).to.deep.equal({ height: 5n });
    expect(await query(next, 'CurrentPlan', {})).to.deep.equal({ plan: null });
    expect(await query(next, 'ModuleVersions', {})).to.deep.equal({
      module_versions: [{ name: 'counter', version: 2n }, { name: 'script', version: 1n }, { name: 'upgrade', version: 1n }],
    });
    expect(next.keeper.getProtocolVersion(next.app.queryContext())).to.equal(1n);
    for (let i = 0; i < 3; i++) await block(s, next);
    expect(next.app.lastHeight).to.equal(8);
    expect(next.calls).to.deep.equal([5]);
    expect(next.counter.runs).to.deep.equal([5]);
  });

  it('the new binary before the height halts with BINARY UPDATED BEFORE TRIGGER', async () => {
    // a fresh chain with v2 scheduled at 5, and the new binary already running at height 3
    const s2 = await openChain({ extra: [new CounterModule(1)] });
    try {
      const route = createSoftwareUpgradeProposalRoute(s2.keeper);
      s2.script.queue.push((ctx) => route.execute(ctx, { title: 'v2', description: '', plan: { name: 'v2', time: null, height: 5n, info: '', upgraded_client_state: null } }));
      await s2.chain.block([]);
      const early = startBinary(s2, { version: 2, handler: true });
      const halt = await rejection(() => block(s2, early));
      expect(halt.message).to.equal('BINARY UPDATED BEFORE TRIGGER! UPGRADE "v2" - in binary but not executed on chain');
      expect(early.app.lastHeight).to.equal(2);
      expect(early.calls).to.deep.equal([]);
    } finally {
      await s2.close();
    }
  });

  it('--unsafe-skip-upgrades 5: the old binary passes the height, the plan is cleared and not applied', async () => {
    const skipping = startBinary(s, { version: 1, handler: false, skip: [PLAN_HEIGHT] });
    await block(s, skipping);
    expect(skipping.app.lastHeight).to.equal(5);
    expect(skipping.lines).to.deep.equal([{ level: 'info', msg: 'UPGRADE "v2" SKIPPED at 5: {"binaries":{}}' }]);
    expect(await query(skipping, 'CurrentPlan', {})).to.deep.equal({ plan: null });
    expect(await query(skipping, 'AppliedPlan', { name: 'v2' })).to.deep.equal({ height: 0n });
    await block(s, skipping);
    expect(skipping.app.lastHeight).to.equal(6);
  });
});
