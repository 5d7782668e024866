/**
 * A test chain: an App over a CommitStore in a temp folder, driven through the ABCI interface as the
 * engine drives it (InitChain, FinalizeBlock with comet info, Commit), with helpers to deliver, check and
 * query. A module's tests compose it with only the modules they need.
 */
import { App, Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type {
  AnteHandler, AppConfig, AppModule, CommitInfo, DecCoin, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse, InitChainResponse,
  Misbehavior, QueryResponse, Router, ValidatorUpdate,
} from '@chain/app';
import type { ProtoObject, ProtoRegistry } from '@chain/codec';
import { CommitStore, branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { testAppConfig } from './config.js';
import { tempDir } from './tmp.js';

export const GENESIS_TIME = new Date('2024-01-01T00:00:00Z');

export interface TestChainOptions {
  readonly chainId: string;
  readonly registry: ProtoRegistry;
  readonly modules: readonly AppModule[];
  /** default: `testAppConfig(modules)` */
  readonly config?: AppConfig;
  readonly router?: Router;
  readonly anteHandler?: AnteHandler;
  readonly minGasPrices?: readonly DecCoin[];
  readonly genesisTime?: Date;
  /** seconds between blocks (block time = genesis time + height × this) */
  readonly blockSeconds?: number;
  /** proposer address of blocks (default 20 zero bytes) */
  readonly proposer?: Uint8Array;
}

/** Per-block overrides of the FinalizeBlock request. */
export interface BlockOptions {
  readonly time?: Date;
  readonly proposer?: Uint8Array;
  readonly hash?: Uint8Array;
  readonly lastCommit?: CommitInfo;
  readonly misbehavior?: readonly Misbehavior[];
  readonly nextValidatorsHash?: Uint8Array;
}

export class TestChain {
  readonly app: App;
  readonly registry: ProtoRegistry;
  readonly chainId: string;
  private readonly genesisTime: Date;
  private readonly blockMs: number;
  private readonly proposer: Uint8Array;

  private constructor(readonly store: CommitStore, private readonly tmp: { remove: () => void }, opts: TestChainOptions) {
    this.registry = opts.registry;
    this.chainId = opts.chainId;
    this.genesisTime = opts.genesisTime ?? GENESIS_TIME;
    this.blockMs = (opts.blockSeconds ?? 1) * 1000;
    this.proposer = opts.proposer ?? new Uint8Array(20);
    this.app = new App({
      registry: opts.registry,
      store,
      router: opts.router,
      config: opts.config ?? testAppConfig(opts.modules),
      modules: opts.modules,
      chainId: opts.chainId,
      anteHandler: opts.anteHandler,
      minGasPrices: opts.minGasPrices ?? [],
    });
  }

  /** A test chain on a fresh store in a temp folder (`close()` removes it). */
  static async open(opts: TestChainOptions): Promise<TestChain> {
    const tmp = tempDir('test');
    const store = await CommitStore.open(tmp.dir);
    try {
      return new TestChain(store, tmp, opts);
    } catch (e) {
      await store.close();
      tmp.remove();
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    this.tmp.remove();
  }

  /** InitChain with `appState` (genesis validation errors throw synchronously). */
  initChain(appState: Record<string, unknown>, validators: readonly ValidatorUpdate[] = []): InitChainResponse {
    return this.app.initChainSync({ time: this.genesisTime, chainId: this.chainId, validators, appState, initialHeight: 1 });
  }

  /** InitChain with `appState`, then the first block (height 1) finalized and committed. */
  async init(appState: Record<string, unknown>, validators: readonly ValidatorUpdate[] = []): Promise<InitChainResponse> {
    const res = this.initChain(appState, validators);
    await this.block([]);
    return res;
  }

  /** The FinalizeBlock request of the next block, as the engine would send it. */
  finalizeRequest(txs: readonly Uint8Array[], o: BlockOptions = {}): FinalizeBlockRequest {
    const height = this.app.lastHeight + 1;
    return {
      txs,
      decidedLastCommit: o.lastCommit ?? { round: 0, votes: [] },
      misbehavior: o.misbehavior ?? [],
      hash: o.hash ?? blockHashOf(height),
      height,
      time: o.time ?? (height === 1 ? this.genesisTime : new Date(this.genesisTime.getTime() + height * this.blockMs)),
      nextValidatorsHash: o.nextValidatorsHash ?? new Uint8Array(32),
      proposerAddress: o.proposer ?? this.proposer,
    };
  }

  /** Finalizes and commits the next block with `txs`. */
  async block(txs: readonly Uint8Array[], o: BlockOptions = {}): Promise<FinalizeBlockResponse> {
    const res = await this.app.finalizeBlock(this.finalizeRequest(txs, o));
    await this.app.commit();
    return res;
  }

  /** Delivers one tx in its own block. */
  async deliver(tx: Uint8Array, o: BlockOptions = {}): Promise<ExecTxResult> {
    return (await this.block([tx], o)).txResults[0]!;
  }

  /** CheckTx (mempool admission) against the check state. */
  check(tx: Uint8Array): Promise<ExecTxResult> {
    return this.app.checkTx({ tx, type: 'new' });
  }

  /** A context over the committed state (read only by convention). */
  ctx(): Context {
    return this.app.queryContext();
  }

  /** A writable block context over a branch of the committed state. */
  branchCtx(): { ctx: Context; state: CacheKVStore; events: EventManager } {
    const state = branch(this.store.state);
    const events = new EventManager();
    const block = { height: this.app.lastHeight + 1, time: this.genesisTime, chainId: this.chainId, proposer: new Uint8Array() };
    return { ctx: new Context(state, block, 'block', new InfiniteGasMeter(), events), state, events };
  }

  /** ABCI query by path with the route's request and response types. */
  async query<T = ProtoObject>(path: string, req: ProtoObject, height?: number): Promise<{ res: QueryResponse; value: T | undefined }> {
    const route = this.app.router.queryRoute(path);
    if (!route) throw new Error(`no query route ${path}`);
    const res = await this.app.query({ path, data: this.registry.encode(route.requestType, req), height });
    return { res, value: res.code === 0 ? this.registry.decode<T>(route.responseType, res.value) : undefined };
  }
}

/** A deterministic stand-in for the header hash of block `height` (the engine passes the real one). */
export function blockHashOf(height: number): Uint8Array {
  const h = new Uint8Array(32);
  new DataView(h.buffer).setUint32(28, height);
  h[0] = 0xb1;
  return h;
}
