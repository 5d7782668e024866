/**
 * The application state machine. It implements the ABCI application (`AbciApplication`, a mirror of
 * CometBFT v0.38's), so the embedded engine and CometBFT drive the very same object; the module manager
 * runs the modules' genesis and block hooks in the orders of the app config.
 */
import { branch, VersionNotFoundError } from '@chain/store';
import type { BatchOp, CacheKVStore, CommitStore, KVStore } from '@chain/store';
import { Errors, abciInfo, ChainError } from '@chain/errors';
import type { ProtoRegistry, ProtoObject } from '@chain/codec';
import { decodeTx, msgSigners, TX_PROTO_DIR } from '@chain/tx';
import type { DecodedTx } from '@chain/tx';
import type { Event } from '@chain/events';
import { fromBech32, toBech32 } from '@chain/crypto';
import { Context, EventManager } from './context.js';
import type { BlockInfo, ExecMode } from './context.js';
import { BasicGasMeter, InfiniteGasMeter, OutOfGasError, outOfGasError } from './gas.js';
import type { GasMeter } from './gas.js';
import type { DecCoin } from './coins.js';
import { createRouter } from './router.js';
import type { Router } from './router.js';
import type { AppModule, ValidatorUpdate } from './module.js';
import { ModuleManager } from './manager.js';
import { objectAppState } from './genesis-reader.js';
import type { AppConfig } from './app-config.js';
import { queryErrorToAbci } from './query-errors.js';
import { isStoreQuery, queryStore } from './store-query.js';
import type { BlockDryRun, BlockReplay, ReplayBlockRequest } from './replay.js';
import type {
  AbciApplication, CheckTxRequest, CommitListener, CommitResponse, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse,
  InfoRequest, InfoResponse, InitChainRequest, InitChainResponse, PrepareProposalRequest, PrepareProposalResponse,
  ProcessProposalRequest, ProcessProposalResponse, QueryRequest, QueryResponse,
} from './abci.js';

/**
 * The checks of a tx before its messages run. `precheck` (optional): work for CheckTx that can run ahead of it and
 * off the main thread (signature checks on worker threads), whose results the handler then reuses; it must not
 * write state, and may skip anything (the handler still checks everything).
 */
export type AnteHandler = ((ctx: Context, tx: DecodedTx, simulate: boolean) => void | Promise<void>) & {
  precheck?: (ctx: Context, tx: DecodedTx) => Promise<void>;
};

export interface AppOptions {
  readonly registry: ProtoRegistry;
  readonly store: CommitStore;
  /** the router, built first so keepers that dispatch messages could be handed it (default: a new one) */
  readonly router?: Router;
  /** the declared app: modules, module accounts, orders (checked by the module manager) */
  readonly config: AppConfig;
  readonly modules: readonly AppModule[];
  readonly chainId: string;
  readonly anteHandler?: AnteHandler;
  readonly minGasPrices?: readonly DecCoin[];
  readonly name?: string;
  readonly version?: string;
  /** upper bound on a tx's encoded size in CheckTx */
  readonly maxTxBytes?: number;
  /**
   * InitChain (the async one) moves its writes to disk once this many are held in memory (a large genesis; see
   * `CommitStore.spillGenesis`), between two chunks of a streamed genesis section. Default 50,000 (a smaller branch
   * is faster to fill; more runs take longer to merge in the first block: 1M accounts, 5 alternating pairs against
   * 100,000: import 0.6-1.5 s shorter, first block 0.1 s shorter to 1.7 s longer, start to first block 0.6 s shorter
   * on average).
   */
  readonly genesisSpillEntries?: number;
  /**
   * The account address prefix: the `sender` of each message's `message` event is the first signer as an account
   * address (SDK v0.50 `createEvents`: the address codec's string of the signer bytes, also when the signer
   * field holds a validator operator address). Unset: the signer field's text as is.
   */
  readonly bech32AccountPrefix?: string;
}

/** Computes the app hash a changeset would produce (same function the store commits with). */
export type AppHashFn = (prev: Uint8Array, changes: ReturnType<CacheKVStore['changes']>) => Uint8Array;

/** How long a block executes before it lets the event loop serve other work (queries, RPC, the mempool). */
const EXEC_SLICE_MS = 8;

export class App implements AbciApplication {
  private readonly accountPrefix: string | undefined;

  /** The message event's sender: the signer as an account address (see AppOptions.bech32AccountPrefix). */
  private eventSender(signer: string | undefined): string {
    if (!signer) return '';
    if (!this.accountPrefix) return signer;
    try {
      const { prefix, data } = fromBech32(signer);
      return prefix === this.accountPrefix ? signer : toBech32(this.accountPrefix, data);
    } catch {
      return signer;
    }
  }

  readonly registry: ProtoRegistry;
  readonly router: Router;
  readonly manager: ModuleManager;
  readonly chainId: string;
  readonly name: string;
  readonly version: string;
  private readonly store: CommitStore;
  private readonly ante?: AnteHandler;
  minGasPrices: readonly DecCoin[];
  private readonly maxTxBytes: number;
  private readonly genesisSpillEntries: number;
  private readonly commitListeners: CommitListener[] = [];
  private lastTxAt = 0;
  /** txs decoded by precheckTx, for the CheckTx of the same bytes (taken once; never used by a block) */
  private readonly decodedAhead = new WeakMap<Uint8Array, DecodedTx>();

  private checkState: CacheKVStore;
  /** InitChain's writes, committed with the first block */
  private genesisState: CacheKVStore | undefined;
  /** the genesis `initial_height`: the height of the first block (InitChain's request; 1 by default) */
  private initialHeight = 1;
  private deliverState: CacheKVStore | undefined;
  private pendingHeight = 0;
  private lastBlock: BlockInfo;

  constructor(opts: AppOptions) {
    this.registry = opts.registry;
    this.store = opts.store;
    this.chainId = opts.chainId;
    this.accountPrefix = opts.bech32AccountPrefix;
    this.ante = opts.anteHandler;
    this.minGasPrices = opts.minGasPrices ?? [];
    this.name = opts.name ?? 'chain';
    this.version = opts.version ?? '0.1.0';
    this.maxTxBytes = opts.maxTxBytes ?? 1024 * 1024;
    this.genesisSpillEntries = opts.genesisSpillEntries ?? 50_000;
    this.registry.addProtoDir(TX_PROTO_DIR);
    this.manager = new ModuleManager(opts.config, opts.modules);
    this.router = opts.router ?? createRouter(this.registry);
    if (this.router.registry !== this.registry) throw new Error('the router was built over another registry');
    this.manager.registerServices(this.registry, this.router);
    this.checkState = branch(this.store.state);
    this.lastBlock = { height: this.store.lastHeight, time: new Date(0), chainId: this.chainId, proposer: new Uint8Array() };
  }

  module<T extends AppModule>(name: string): T | undefined {
    return this.manager.module(name) as T | undefined;
  }

  allModules(): readonly AppModule[] {
    return this.manager.modules;
  }

  /**
   * Joins extra writes to the atomic batch of every block commit (the embedded engine's block store and
   * tx index): a crash leaves the whole block, or none of it.
   */
  addCommitListener(listener: CommitListener): () => void {
    this.commitListeners.push(listener);
    return () => {
      const i = this.commitListeners.indexOf(listener);
      if (i >= 0) this.commitListeners.splice(i, 1);
    };
  }

  // ---- Info / InitChain ---------------------------------------------------------------------------------

  async info(_req: InfoRequest = {}): Promise<InfoResponse> {
    return this.infoSync();
  }

  /** Info without the ABCI promise (for the node's status endpoints). */
  infoSync(): InfoResponse {
    return { data: this.name, version: this.version, appVersion: 1, lastBlockHeight: this.store.lastHeight, lastBlockAppHash: this.store.lastAppHash };
  }

  /** Default genesis app_state: module name → genesis JSON (gateway JSON of its GenesisState). */
  defaultGenesis(): Record<string, unknown> {
    return this.manager.defaultGenesis(this.registry);
  }

  /**
   * Runs every module's InitGenesis (in the config's order) into the first block's state, which is
   * committed with block `initialHeight`. Returns the validators the modules' genesis decided (empty:
   * keep the genesis file's) and the app hash before the first block.
   */
  async initChain(req: InitChainRequest): Promise<InitChainResponse> {
    const { state, steps } = this.beginInitChain(req);
    let validators: ValidatorUpdate[];
    let spilled = false;
    for (;;) {
      const r = steps.next();
      if (r.done) {
        validators = r.value;
        break;
      }
      // between two chunks of a large genesis section: the writes so far go to disk once there are many
      if (state.size >= this.genesisSpillEntries) {
        await this.store.spillGenesis(state.packedChanges(), req.initialHeight);
        state.discard();
        spilled = true;
      }
    }
    if (spilled) {
      // the first block then builds the state trees from the state on disk
      await this.store.spillGenesis(state.packedChanges(), req.initialHeight);
      state.discard();
      return this.endInitChain(req, undefined, validators);
    }
    return this.endInitChain(req, state, validators);
  }

  /** InitChain without the ABCI promise (genesis validation errors throw synchronously; the state stays in memory). */
  initChainSync(req: InitChainRequest): InitChainResponse {
    const { state, steps } = this.beginInitChain(req);
    for (;;) {
      const r = steps.next();
      if (r.done) return this.endInitChain(req, state, r.value);
    }
  }

  private beginInitChain(req: InitChainRequest): { state: CacheKVStore; steps: Generator<void, ValidatorUpdate[]> } {
    if (this.store.lastHeight !== 0) throw new Error('InitChain on a chain that has blocks');
    if (req.chainId !== this.chainId) throw new Error(`InitChain for chain ${req.chainId}, the app runs ${this.chainId}`);
    if (!Number.isSafeInteger(req.initialHeight) || req.initialHeight < 1) throw new Error(`InitChain with initial height ${req.initialHeight}`);
    const state = branch(this.store.state);
    const block: BlockInfo = { height: req.initialHeight, time: req.time, chainId: this.chainId, proposer: new Uint8Array() };
    const ctx = new Context(state, block, 'genesis', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
    const source = req.appStateSource ?? objectAppState(req.appState);
    return { state, steps: this.manager.initGenesisSteps(ctx, this.registry, source, req.progress) };
  }

  /** `state`: InitChain's writes, kept in memory until the first block (undefined: they went to disk). */
  private endInitChain(req: InitChainRequest, state: CacheKVStore | undefined, validators: ValidatorUpdate[]): InitChainResponse {
    this.genesisState = state;
    this.initialHeight = req.initialHeight;
    this.lastBlock = { height: req.initialHeight, time: req.time, chainId: this.chainId, proposer: new Uint8Array() };
    return { validators, appHash: this.store.lastAppHash, consensusParams: req.consensusParams };
  }

  /**
   * Every module's ExportGenesis (in the config's export order) over the latest committed state, or,
   * between InitChain and the first block, over the state InitChain wrote (what that block starts from).
   */
  exportGenesis(): Record<string, unknown> {
    const pending = this.pendingGenesisState();
    return this.manager.exportGenesis(pending ? this.queryContext(pending, this.initialHeight - 1) : this.queryContext(), this.registry);
  }

  /** ExportGenesis over the committed state at `height` (a pinned view of a past height when it is not the last). */
  async exportGenesisAt(height: number): Promise<Record<string, unknown>> {
    return this.atHeight(height, (ctx) => this.manager.exportGenesis(ctx, this.registry));
  }

  /**
   * The state InitChain wrote, read-only, until the first block commits it (undefined otherwise): the
   * state a chain starts from, e.g. to compare an imported genesis with the state it was exported from.
   */
  pendingGenesisState(): KVStore | undefined {
    const g = this.genesisState;
    if (!g) return undefined;
    return {
      get: (k) => g.get(k),
      has: (k) => g.has(k),
      set: () => { throw new Error('the genesis state is read-only'); },
      delete: () => { throw new Error('the genesis state is read-only'); },
      iterator: (start, end, reverse) => g.iterator(start, end, reverse),
    };
  }

  /** The height the next block must have: the genesis initial height before the first block, then last + 1. */
  private nextHeight(): number {
    return this.store.lastHeight === 0 ? this.initialHeight : this.store.lastHeight + 1;
  }

  // ---- CheckTx --------------------------------------------------------------------------------------------

  /** Mempool admission: decode, validate, ante (fees, signatures, sequence) against the check state. */
  async checkTx(req: CheckTxRequest): Promise<ExecTxResult> {
    const raw = req.tx;
    if (raw.length > this.maxTxBytes) return this.errorResult(Errors.TxTooLarge.wrap(`tx size ${raw.length} exceeds ${this.maxTxBytes}`), 0, 0);
    return this.runTx(req.type === 'recheck' ? 'recheck' : 'check', raw, this.checkState);
  }

  /** See AbciApplication.precheckTx: the ante handler's `precheck` over a read-only branch of the check state. */
  async precheckTx(raw: Uint8Array): Promise<void> {
    const pre = this.ante?.precheck;
    if (pre === undefined || raw.length > this.maxTxBytes) return;
    try {
      const tx = decodeTx(this.registry, raw);
      // the CheckTx that follows (same bytes object) takes this decoding instead of decoding again
      this.decodedAhead.set(raw, tx);
      const ctx = new Context(branch(this.checkState), this.lastBlock, 'check', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
      await pre(ctx, tx);
    } catch {
      // CheckTx reports whatever is wrong with the tx
    }
  }

  // ---- Proposals ------------------------------------------------------------------------------------------

  /** Pass-through: the proposer's mempool txs, as many as fit in `maxTxBytes` (the SDK's default handler). */
  async prepareProposal(req: PrepareProposalRequest): Promise<PrepareProposalResponse> {
    const txs: Uint8Array[] = [];
    let bytes = 0;
    for (const tx of req.txs) {
      if (req.maxTxBytes > 0 && bytes + tx.length > req.maxTxBytes) break;
      bytes += tx.length;
      txs.push(tx);
    }
    return { txs };
  }

  /** Pass-through: every proposal is accepted (txs are checked when the block executes). */
  async processProposal(_req: ProcessProposalRequest): Promise<ProcessProposalResponse> {
    return { status: 'ACCEPT' };
  }

  // ---- FinalizeBlock / Commit -----------------------------------------------------------------------------

  async finalizeBlock(req: FinalizeBlockRequest): Promise<FinalizeBlockResponse> {
    if (req.height !== this.nextHeight()) throw new Error(`finalizeBlock height ${req.height}, expected ${this.nextHeight()}`);
    // a fresh branch each time: a block finalized again (after a failed commit) starts from the same state
    const state = branch(this.store.state);
    if (this.genesisState) for (const c of this.genesisState.changes()) c.value === undefined ? state.delete(c.key) : state.set(c.key, c.value);
    this.deliverState = state;
    const block = this.blockInfoOf(req);
    const events: Event[] = [];
    const beginEvents = new EventManager();
    const bctx = new Context(state, block, 'block', new InfiniteGasMeter(), beginEvents, this.minGasPrices);
    await this.manager.preBlock(bctx);
    await this.manager.beginBlock(bctx);
    for (const e of beginEvents.events) events.push(withMode(e, 'BeginBlock'));
    const txResults: ExecTxResult[] = [];
    // a long block yields to the event loop every few milliseconds, so queries (which read committed state, never
    // this branch) and the transports keep answering while it executes; the results do not depend on it
    let slice = performance.now();
    for (const raw of req.txs) {
      txResults.push(await this.runTx('deliver', raw, state, block));
      if (performance.now() - slice > EXEC_SLICE_MS) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    }
    const endEvents = new EventManager();
    const ectx = new Context(state, block, 'block', new InfiniteGasMeter(), endEvents, this.minGasPrices);
    const validatorUpdates = await this.manager.endBlock(ectx);
    for (const e of endEvents.events) events.push(withMode(e, 'EndBlock'));
    this.pendingHeight = req.height;
    // checks and queries that ran while the block executed saw the last block's info; from now on, this one
    this.lastBlock = block;
    // the state trees take the block's changes now (the app hash is FinalizeBlock's answer); Commit writes them
    const appHash = await this.store.prepare(req.height, state.changes());
    return { events, txResults, validatorUpdates, appHash };
  }

  /** Persists the finalized block's state, with the commit listeners' writes, in one atomic batch. */
  async commit(): Promise<CommitResponse> {
    if (!this.deliverState || this.pendingHeight !== this.nextHeight()) throw new Error('commit without a finalized block');
    const height = this.pendingHeight;
    const extra: BatchOp[] = [];
    // (not push(...ops): a block of 20,000 txs gives the indexer more ops than a call's arguments may hold)
    for (const l of this.commitListeners) for (const op of l(height)) extra.push(op);
    await this.store.commit(height, this.deliverState.changes(), extra);
    this.deliverState = undefined;
    this.genesisState = undefined;
    this.checkState = branch(this.store.state);
    return { retainHeight: 0 };
  }

  /** When a tx last ran here (CheckTx, a block's tx, a simulation), in ms since the epoch; 0 before any. */
  get lastTxActivity(): number {
    return this.lastTxAt;
  }

  get lastHeight(): number {
    return this.store.lastHeight;
  }

  get lastAppHash(): Uint8Array {
    return this.store.lastAppHash;
  }

  private blockInfoOf(req: FinalizeBlockRequest): BlockInfo {
    return {
      height: req.height, time: req.time, chainId: this.chainId, proposer: req.proposerAddress, hash: req.hash,
      comet: { lastCommit: req.decidedLastCommit, misbehavior: req.misbehavior, nextValidatorsHash: req.nextValidatorsHash, proposerAddress: req.proposerAddress },
    };
  }

  // ---- Simulate -------------------------------------------------------------------------------------------

  /** Runs a tx (ante without signature checks, then messages) on a throwaway branch of the check state. */
  async simulate(raw: Uint8Array): Promise<ExecTxResult> {
    return this.runTx('simulate', raw, branch(this.checkState));
  }

  // ---- Query ----------------------------------------------------------------------------------------------

  /** A read-only context over the latest committed state (or `store`, the state at `height`). */
  queryContext(store: KVStore = this.store.state, height: number = this.store.lastHeight): Context {
    return new Context(store, { ...this.lastBlock, height }, 'query', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
  }

  /**
   * ABCI query by gRPC path (`/chain.bank.v1beta1.Query/Balance` or its `/cosmos.` alias). Errors come
   * back as ABCI codes with the SDK's `rpc error: code = X desc = ...` log.
   */
  async query(req: QueryRequest): Promise<QueryResponse> {
    const height = req.height && req.height > 0 ? req.height : this.store.lastHeight;
    if (isStoreQuery(req.path)) return queryStore(this.store, req, height);
    try {
      const route = this.router.queryRoute(req.path);
      if (!route) throw Errors.UnknownRequest.wrap(`unknown query path: ${req.path}`);
      const reqObj = this.registry.decode(route.requestType, req.data);
      const resp = await this.runQuery(route.path, reqObj, height);
      // an alias path (`/cosmos.`, a registry package alias such as `/plugchain.prc10.`) answers in the Cosmos dialect
      const dialect = req.path === route.path ? 'chain' : 'cosmos';
      const type = this.registry.type(route.responseType);
      const value = this.registry.encode(route.responseType, this.registry.toDialect(type, resp, dialect));
      return { code: 0, codespace: '', log: '', value, height };
    } catch (e) {
      return { ...queryErrorToAbci(e), value: new Uint8Array(), height };
    }
  }

  /** Runs a query handler at a height (latest by default); throws status errors. */
  async runQuery(path: string, req: ProtoObject, height?: number): Promise<ProtoObject> {
    const route = this.router.queryRoute(path);
    if (!route) throw Errors.UnknownRequest.wrap(`unknown query path ${path}`);
    return this.atHeight(height, (ctx) => route.handler(ctx, req));
  }

  /**
   * Runs `fn` on a read-only query context at `height` (latest by default): a pinned view, so work that
   * yields to the event loop (an EVM call) keeps seeing height h while blocks commit meanwhile.
   */
  async atHeight<T>(height: number | undefined, fn: (ctx: Context) => T | Promise<T>): Promise<T> {
    const h = height && height > 0 ? height : this.store.lastHeight;
    if (h > this.store.lastHeight) throw Errors.InvalidHeight.wrap(`cannot query with height in the future; please provide a valid height`);
    let view: Awaited<ReturnType<CommitStore['openView']>>;
    try {
      view = await this.store.openView(h);
    } catch (e) {
      // baseapp CreateQueryContext: a state no longer kept (pruned)
      if (e instanceof VersionNotFoundError) throw Errors.NotFound.wrap(e.message);
      throw e;
    }
    try {
      return await fn(this.queryContext(view.store, h));
    } finally {
      view.release();
    }
  }

  // ---- Replay (tracing) -------------------------------------------------------------------------------

  /**
   * Re-executes committed block `req.height` on a throwaway branch of the state after `height - 1`: the
   * begin-block hooks run now, and each `next()` runs the block's next tx exactly as FinalizeBlock did
   * (deliver mode, ante, messages), so what a tracer sees is what the original execution saw. All
   * contexts of the replay share `block` (a keeper can recognize them). Nothing reaches the committed
   * state; `close()` releases the pinned view. The first block (1, or the genesis initial height) carries
   * the genesis state and is not replayable.
   */
  async replayBlock(req: ReplayBlockRequest): Promise<BlockReplay> {
    const h = req.height;
    const first = this.store.firstHeight + 1;
    if (!Number.isSafeInteger(h) || h < Math.max(2, first) || h > this.store.lastHeight) {
      throw Errors.InvalidHeight.wrap(`block ${h} cannot be replayed (${Math.max(2, first)}..${this.store.lastHeight})`);
    }
    const view = await this.store.openView(h - 1);
    const state = branch(view.store);
    const block: BlockInfo = req.finalize ? this.blockInfoOf(req.finalize) : { height: h, time: req.time, chainId: this.chainId, proposer: req.proposer };
    let i = 0;
    try {
      const bctx = new Context(state, block, 'block', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
      await this.manager.preBlock(bctx);
      await this.manager.beginBlock(bctx);
    } catch (e) {
      view.release();
      throw e;
    }
    return {
      block,
      get executed() { return i; },
      next: async () => {
        if (i >= req.txs.length) throw new Error(`block ${h} has no tx ${i}`);
        return this.runTx('deliver', req.txs[i++]!, state, block);
      },
      close: () => view.release(),
    };
  }

  // ---- Dry run (simulation) ---------------------------------------------------------------------------

  /**
   * Executes the next block speculatively on a throwaway branch of the latest state (with InitChain's
   * writes before the first block), step by step: the pre- and begin-block hooks run now, each
   * `deliver(tx)` runs a tx exactly as FinalizeBlock does, `end()` runs the end-block hooks and returns the
   * app hash FinalizeBlock would return for the txs delivered. Between txs, `context()` reads the block's
   * state so far (what a randomized simulation chooses its next message from). Nothing reaches the
   * committed state; the dry run is meaningful until the next commit.
   */
  async dryRunBlock(req: Omit<FinalizeBlockRequest, 'txs'>): Promise<BlockDryRun> {
    if (this.store.lastHeight > 0 && req.height !== this.store.lastHeight + 1) {
      throw new Error(`dryRunBlock height ${req.height}, expected ${this.store.lastHeight + 1}`);
    }
    const state = branch(this.store.state);
    if (this.genesisState) for (const c of this.genesisState.changes()) c.value === undefined ? state.delete(c.key) : state.set(c.key, c.value);
    const block = this.blockInfoOf({ ...req, txs: [] });
    const bctx = new Context(state, block, 'block', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
    await this.manager.preBlock(bctx);
    await this.manager.beginBlock(bctx);
    let ended = false;
    return {
      block,
      context: () => new Context(branch(state), block, 'query', new InfiniteGasMeter(), new EventManager(), this.minGasPrices),
      changes: () => state.changes(),
      deliver: async (raw) => {
        if (ended) throw new Error('dry run: the block has ended');
        return this.runTx('deliver', raw, state, block);
      },
      end: async () => {
        if (ended) throw new Error('dry run: the block has ended');
        ended = true;
        const ectx = new Context(state, block, 'block', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
        const validatorUpdates = await this.manager.endBlock(ectx);
        return { validatorUpdates, appHash: await this.store.previewAppHash(block.height, state.changes()) };
      },
    };
  }

  // ---- tx execution ---------------------------------------------------------------------------------------

  private errorResult(err: unknown, gasWanted: number, gasUsed: number, events: Event[] = []): ExecTxResult {
    const info = abciInfo(err);
    return { code: info.code, codespace: info.codespace, log: info.log, info: '', data: new Uint8Array(), gasWanted, gasUsed, events };
  }

  /**
   * One tx in a mode. The result holds nothing of the decoded tx: a block keeps its txs' results until it ends, and
   * decoded txs kept with them were copied out of V8's young generation and collected with the old one.
   */
  private async runTx(mode: ExecMode, raw: Uint8Array, state: KVStore, block: BlockInfo = this.lastBlock): Promise<ExecTxResult> {
    this.lastTxAt = Date.now();
    let tx: DecodedTx;
    try {
      const ahead = mode === 'check' ? this.decodedAhead.get(raw) : undefined;
      if (ahead !== undefined) this.decodedAhead.delete(raw);
      tx = ahead ?? decodeTx(this.registry, raw);
      this.validateBasic(tx);
    } catch (e) {
      return this.errorResult(e, 0, 0);
    }
    const gasWanted = Number(tx.authInfo.fee?.gas_limit ?? 0n);
    const meter: GasMeter = mode === 'simulate' ? new InfiniteGasMeter() : new BasicGasMeter(gasWanted > 0 ? gasWanted : 0);
    const reportedWanted = mode === 'simulate' ? Number.MAX_SAFE_INTEGER : gasWanted;
    const txEvents = new EventManager();
    const anteBranch = branch(state);
    const ctx = new Context(anteBranch, block, mode, meter, txEvents, this.minGasPrices);
    try {
      if (this.ante) await this.ante(ctx, tx, mode === 'simulate');
      anteBranch.write();
    } catch (e) {
      const err = e instanceof OutOfGasError ? outOfGasError(e, gasWanted, meter.consumed()) : e;
      return this.errorResult(err, reportedWanted, meter.consumed());
    }
    if (mode === 'check' || mode === 'recheck') {
      return { code: 0, codespace: '', log: '', info: '', data: new Uint8Array(), gasWanted, gasUsed: meter.consumed(), events: txEvents.events };
    }
    const msgBranch = branch(state);
    const mctx = ctx.withStore(msgBranch);
    const responses: { type_url: string; value: Uint8Array }[] = [];
    const msgLogs: { msg_index: number; log: string; events: Event[] }[] = [];
    const allEvents: Event[] = [...txEvents.events];
    try {
      for (let i = 0; i < tx.msgs.length; i++) {
        const msg = tx.msgs[i]!;
        const route = this.router.msgRoute(msg.name);
        if (!route) throw Errors.UnknownRequest.wrap(`unrecognized message type: ${msg.typeUrl}`);
        const em = new EventManager();
        const signers = msgSigners(this.registry, msg);
        em.emit('message', [['action', msg.typeUrl], ['sender', this.eventSender(signers[0])], ['module', route.eventModule]]);
        const resp = await route.handler(mctx.withEvents(em), msg.message);
        responses.push(this.registry.packAny(route.responseType, resp));
        msgLogs.push({ msg_index: i, log: '', events: em.events });
        allEvents.push(...em.events);
      }
      msgBranch.write();
    } catch (e) {
      const err = e instanceof OutOfGasError ? outOfGasError(e, gasWanted, meter.consumed()) : e;
      const failedAt = msgLogs.length;
      const info = abciInfo(err);
      // out of gas aborts the whole tx (the SDK recovers the panic in runTx): no message prefix
      const log = e instanceof OutOfGasError || (info.code === 1 && !(err instanceof ChainError)) ? info.log : `failed to execute message; message index: ${failedAt}: ${info.log}`;
      return { code: info.code, codespace: info.codespace, log, info: '', data: new Uint8Array(), gasWanted: reportedWanted, gasUsed: meter.consumed(), events: txEvents.events };
    }
    const data = this.registry.encode('chain.base.abci.v1beta1.TxMsgData', { msg_responses: responses });
    return {
      code: 0, codespace: '', log: JSON.stringify(msgLogs.map(stringLog)), info: '', data,
      gasWanted: reportedWanted, gasUsed: meter.consumed(), events: allEvents, msgResponses: responses,
    };
  }

  /**
   * Stateless checks of the SDK's ValidateBasic for the tx wrapper. Signature presence is the ante
   * handler's business: txs authenticated otherwise (e.g. Ethereum txs) carry no Cosmos signatures.
   */
  private validateBasic(tx: DecodedTx): void {
    if (tx.msgs.length === 0) throw Errors.InvalidRequest.wrap('must contain at least one message');
    const fee = tx.authInfo.fee;
    if (!fee) throw Errors.InvalidRequest.wrap('missing fee');
    if (fee.gas_limit > BigInt(Number.MAX_SAFE_INTEGER)) throw Errors.InvalidGasLimit.wrap(`invalid gas supplied; ${fee.gas_limit} > ${Number.MAX_SAFE_INTEGER}`);
    for (const m of tx.msgs) if (!this.router.msgRoute(m.name)) throw Errors.UnknownRequest.wrap(`unrecognized message type: ${m.typeUrl}`);
  }
}

function withMode(e: Event, mode: string): Event {
  return { type: e.type, attributes: [...e.attributes, { key: 'mode', value: mode, index: true }] };
}

/** ABCIMessageLog JSON of one message (events grouped by type, as StringEvents). */
function stringLog(l: { msg_index: number; log: string; events: Event[] }): unknown {
  const byType = new Map<string, { key: string; value: string }[]>();
  for (const e of l.events) {
    const list = byType.get(e.type) ?? [];
    for (const a of e.attributes) list.push({ key: a.key, value: a.value });
    byType.set(e.type, list);
  }
  return { msg_index: l.msg_index, log: l.log, events: [...byType.entries()].map(([type, attributes]) => ({ type, attributes })) };
}
