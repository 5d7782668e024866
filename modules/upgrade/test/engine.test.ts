/**
 * The halt with the embedded consensus engine on a real store on disk, wired as apps/node wires the node:
 * at the plan's height the engine stops producing blocks (once, no retry loop) with nothing of that height
 * committed, still answering queries; a restart of the same binary halts again at the same height; a binary
 * with the handler goes on; a node started with the height as a skip height passes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { App } from '@chain/app';
import type { VersionMap } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import { Engine, Mempool, defaultConsensusParamsJSON, privValidatorKeyJSON, seedOfPrivValidatorKey } from '@chain/consensus';
import type { EngineHalt, GenesisDoc } from '@chain/consensus';
import { sha256, utf8 } from '@chain/crypto';
import { EventBus } from '@chain/events';
import { TxIndexer } from '@chain/indexer';
import { CommitStore } from '@chain/store';
import { tempDir, testAppConfig } from '@chain/testing';
import { UpgradeKeeper, UpgradeModule, createSoftwareUpgradeProposalRoute } from '../src/index.js';
import { CounterModule, ScriptModule, captureLogger } from './helpers.js';
import type { LogLine } from './helpers.js';

const CHAIN_ID = 'upgrade-engine-1';
const KEY = privValidatorKeyJSON(sha256(utf8('upgrade-engine-validator')));
const PLAN_HEIGHT = 6;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function genesis(): GenesisDoc {
  return {
    genesis_time: new Date(Date.now() - 60_000).toISOString(),
    chain_id: CHAIN_ID,
    initial_height: '1',
    consensus_params: defaultConsensusParamsJSON(),
    validators: [{ address: KEY.address, pub_key: KEY.pub_key, power: '10', name: 'val0' }],
    app_hash: '',
    app_state: {},
  };
}

/** One process of the node: store, app (upgrade, script, counter), bus, indexer, engine. */
class Node {
  readonly halts: EngineHalt[] = [];
  readonly engineErrors: string[] = [];
  readonly calls: number[] = [];
  private constructor(
    readonly store: CommitStore,
    readonly app: App,
    readonly engine: Engine,
    readonly keeper: UpgradeKeeper,
    readonly script: ScriptModule,
    readonly lines: LogLine[],
    private readonly bus: EventBus,
  ) {}

  static async start(home: string, gen: GenesisDoc, o: { handler?: boolean; skip?: number[] } = {}): Promise<Node> {
    const store = await CommitStore.open(join(home, 'data', 'chain.db'));
    const registry = new ProtoRegistry();
    const { logger, lines } = captureLogger();
    let app: App | undefined;
    const keeper = new UpgradeKeeper({ registry, homeDir: home, skipUpgradeHeights: o.skip, logger, moduleVersions: () => app!.manager.versionMap() });
    const script = new ScriptModule();
    const modules = [new UpgradeModule(keeper), script, new CounterModule(o.handler ? 2 : 1)];
    app = new App({ registry, store, config: testAppConfig(modules), modules, chainId: CHAIN_ID });
    const bus = new EventBus({ bufferSize: 1000 });
    const indexer = new TxIndexer(store, async () => undefined);
    let node: Node | undefined;
    const engine = new Engine({
      app, store, bus, indexer, genesis: gen, validatorKey: seedOfPrivValidatorKey(KEY), timeoutCommitMs: 10, mempool: new Mempool(),
      logger: { info: () => undefined, error: (msg) => node!.engineErrors.push(msg) },
      onHalt: (h) => node!.halts.push(h),
    });
    node = new Node(store, app, engine, keeper, script, lines, bus);
    const a = app;
    if (o.handler) {
      keeper.setUpgradeHandler('v2', (ctx, _plan, vm: VersionMap) => {
        node!.calls.push(ctx.block.height);
        return a.manager.runMigrations(ctx, vm);
      });
    }
    await engine.start();
    return node;
  }

  async waitFor(cond: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what} (height ${this.engine.latestHeight}; errors: ${this.engineErrors.join('; ')})`);
      await sleep(5);
    }
  }

  async stop(): Promise<void> {
    await this.engine.stop();
    this.bus.close();
    await this.store.close();
  }
}

describe('upgrade: halt of the embedded engine on a real store', () => {
  let home: { dir: string; remove: () => void };
  let gen: GenesisDoc;
  beforeEach(() => {
    home = tempDir('upgrade-engine');
    gen = genesis();
  });
  afterEach(() => {
    home.remove();
  });

  /** Starts the first binary, schedules v2 at PLAN_HEIGHT in block 1's end block, and waits for the halt. */
  async function runToHalt(): Promise<Node> {
    const node = await Node.start(home.dir, gen);
    const route = createSoftwareUpgradeProposalRoute(node.keeper);
    node.script.queue.push((ctx) => route.execute(ctx, { title: 'v2', description: '', plan: { name: 'v2', time: null, height: BigInt(PLAN_HEIGHT), info: 'v2 info', upgraded_client_state: null } }));
    await node.waitFor(() => node.engine.halted !== undefined, 'the halt');
    return node;
  }

  it('stops producing blocks at the height, commits nothing of it, keeps answering queries; a restart halts again', async () => {
    const node = await runToHalt();
    try {
      expect(node.engine.halted).to.deep.equal({ height: PLAN_HEIGHT, reason: 'UPGRADE "v2" NEEDED at height: 6: v2 info' });
      expect(node.halts).to.deep.equal([node.engine.halted]);
      expect(node.engine.latestHeight).to.equal(PLAN_HEIGHT - 1);
      expect(node.store.lastHeight).to.equal(PLAN_HEIGHT - 1);
      expect(await node.engine.blocks.block(PLAN_HEIGHT)).to.equal(undefined);
      expect(node.lines.filter((l) => l.level === 'error').map((l) => l.msg)).to.deep.equal(['UPGRADE "v2" NEEDED at height: 6: v2 info']);
      expect(readFileSync(join(home.dir, 'data', 'upgrade-info.json'), 'utf8')).to.equal('{"name":"v2","height":6,"info":"v2 info"}');
      // no retry loop: still one halt, one engine error, no new height
      await sleep(150);
      expect(node.engineErrors).to.deep.equal(['CONSENSUS HALTED at height 6: UPGRADE "v2" NEEDED at height: 6: v2 info']);
      expect(node.store.lastHeight).to.equal(PLAN_HEIGHT - 1);
      // queries still answer, from the last committed state
      const plan = await node.app.atHeight(undefined, (ctx) => node.keeper.getUpgradePlan(ctx));
      expect(plan?.name).to.equal('v2');
    } finally {
      await node.stop();
    }

    // the same binary again: halts again at 6 without committing anything
    const again = await Node.start(home.dir, gen);
    try {
      await again.waitFor(() => again.engine.halted !== undefined, 'the second halt');
      expect(again.engine.halted?.height).to.equal(PLAN_HEIGHT);
      expect(again.store.lastHeight).to.equal(PLAN_HEIGHT - 1);
    } finally {
      await again.stop();
    }

    // the binary with the handler: applies v2 at 6 once and goes on
    const next = await Node.start(home.dir, gen, { handler: true });
    try {
      await next.waitFor(() => next.engine.latestHeight >= PLAN_HEIGHT + 2, 'blocks after the upgrade');
      expect(next.engine.halted).to.equal(undefined);
      expect(next.calls).to.deep.equal([PLAN_HEIGHT]);
      const ctx = next.app.queryContext();
      expect(next.keeper.getDoneHeight(ctx, 'v2')).to.equal(BigInt(PLAN_HEIGHT));
      expect(next.keeper.getModuleVersionMap(ctx).counter).to.equal(2);
    } finally {
      await next.stop();
    }
  });

  it('a node started with the height as a skip height passes it', async () => {
    const node = await runToHalt();
    await node.stop();
    const skipping = await Node.start(home.dir, gen, { skip: [PLAN_HEIGHT] });
    try {
      await skipping.waitFor(() => skipping.engine.latestHeight >= PLAN_HEIGHT + 1, 'blocks after the skipped height');
      expect(skipping.engine.halted).to.equal(undefined);
      expect(skipping.lines).to.deep.include({ level: 'info', msg: 'UPGRADE "v2" SKIPPED at 6: v2 info' });
      expect(skipping.keeper.getUpgradePlan(skipping.app.queryContext())).to.equal(undefined);
      // the file of the earlier halt is left for the operator (cosmovisor) to handle
      expect(existsSync(join(home.dir, 'data', 'upgrade-info.json'))).to.equal(true);
    } finally {
      await skipping.stop();
    }
  });
});
