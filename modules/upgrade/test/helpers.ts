/**
 * Test chains of the upgrade module (@chain/testing's TestChain, composed from the public API as createChainApp
 * composes the node's app) with a `script` module standing in for gov: its end-block hook runs the actions a
 * test queues (e.g. a proposal route's `execute`), so plans are scheduled inside real blocks.
 */
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { AppModule, MigrationRegistrar } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { TestChain, tempDir } from '@chain/testing';
import { UpgradeKeeper, UpgradeModule } from '../src/index.js';
import type { UpgradeLogger } from '../src/index.js';

export const CHAIN_ID = 'upgrade-test-1';

/** A module whose end-block hook runs queued actions (gov's EndBlock executing passed proposals, here). */
export class ScriptModule implements AppModule {
  readonly name = 'script';
  readonly consensusVersion = 1;
  readonly queue: ((ctx: Context) => void | Promise<void>)[] = [];
  async endBlock(ctx: Context): Promise<void> {
    const actions = this.queue.splice(0);
    for (const a of actions) await a(ctx);
  }
}

/**
 * A module with state under `counter/` at consensus version `version`; version 2 registers the migration
 * from 1 (it writes `counter/migrated` = the height and counts its runs in `runs`).
 */
export class CounterModule implements AppModule {
  readonly name = 'counter';
  readonly runs: number[] = [];
  constructor(readonly consensusVersion: 1 | 2) {}
  registerMigrations(m: MigrationRegistrar): void {
    if (this.consensusVersion < 2) return;
    m.register('counter', 1, (ctx) => {
      this.runs.push(ctx.block.height);
      ctx.kv('counter').set(Buffer.from('migrated'), Buffer.from(String(ctx.block.height)));
    });
  }
}

export interface LogLine { level: 'info' | 'error'; msg: string }

export function captureLogger(): { logger: UpgradeLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, logger: { info: (msg) => lines.push({ level: 'info', msg }), error: (msg) => lines.push({ level: 'error', msg }) } };
}

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly keeper: UpgradeKeeper;
  readonly module: UpgradeModule;
  readonly script: ScriptModule;
  readonly home: string;
  readonly lines: LogLine[];
  close(): Promise<void>;
}

/** A fresh chain of upgrade + script (+ `extra` modules), initialized (block 1 committed). */
export async function openChain(o: { skip?: number[]; extra?: AppModule[] } = {}): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const home = tempDir('upgrade-home');
  const { logger, lines } = captureLogger();
  let chain: TestChain | undefined;
  const keeper = new UpgradeKeeper({
    registry, homeDir: home.dir, skipUpgradeHeights: o.skip ?? [], logger, moduleVersions: () => chain!.app.manager.versionMap(),
  });
  const module = new UpgradeModule(keeper);
  const script = new ScriptModule();
  chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules: [module, script, ...(o.extra ?? [])] });
  await chain.init({});
  const c = chain;
  return { chain: c, registry, keeper, module, script, home: home.dir, lines, close: async () => { await c.close(); home.remove(); } };
}

/**
 * A block context at `height` over `state` (the SDK tests' `ctx.WithBlockHeight(h)`: one multistore, any
 * height), in block mode as the pre-block hook runs.
 */
export function ctxAt(state: CacheKVStore, height: number): Context {
  return new Context(state, { height, time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());
}

/** A writable branch of the committed state. */
export function stateOf(s: TestSetup): CacheKVStore {
  return branch(s.chain.store.state);
}

/** The error `fn` rejects with (fails the test when it resolves). */
export async function rejection(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection, it resolved');
}
