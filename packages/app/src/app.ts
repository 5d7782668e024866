/**
 * The application state machine with an ABCI-shaped surface (Info, InitChain, CheckTx, FinalizeBlock,
 * Commit, Query), so the embedded engine and CometBFT drive the very same object.
 */
import { branch, nextAppHash } from '@chain/store';
import type { BatchOp, CacheKVStore, CommitStore, KVStore } from '@chain/store';
import { Errors, abciInfo, ChainError } from '@chain/errors';
import type { ProtoRegistry, ProtoObject } from '@chain/codec';
import { decodeTx, msgSigners, TX_PROTO_DIR } from '@chain/tx';
import type { DecodedTx } from '@chain/tx';
import type { Event } from '@chain/events';
import { Context, EventManager } from './context.js';
import type { BlockInfo, ExecMode } from './context.js';
import { BasicGasMeter, InfiniteGasMeter, OutOfGasError, outOfGasError } from './gas.js';
import type { GasMeter } from './gas.js';
import type { DecCoin } from './coins.js';
import { Router } from './router.js';
import type { AppModule, ValidatorUpdate } from './module.js';
import { queryErrorToAbci } from './query-errors.js';
import type { BlockReplay, ReplayBlockRequest } from './replay.js';

export type AnteHandler = (ctx: Context, tx: DecodedTx, simulate: boolean) => void | Promise<void>;

export interface ExecTxResult {
  code: number;
  codespace: string;
  log: string;
  info: string;
  data: Uint8Array;
  gasWanted: number;
  gasUsed: number;
  events: Event[];
  /** msg responses (for simulate) */
  msgResponses?: { type_url: string; value: Uint8Array }[];
}

export interface FinalizeBlockRequest {
  height: number;
  time: Date;
  txs: Uint8Array[];
  proposer: Uint8Array;
  hash?: Uint8Array;
}

export interface FinalizeBlockResponse {
  events: Event[];
  txResults: ExecTxResult[];
  validatorUpdates: ValidatorUpdate[];
  appHash: Uint8Array;
}

export interface QueryRequest {
  path: string;
  data: Uint8Array;
  height?: number;
  prove?: boolean;
}

export interface QueryResponse {
  code: number;
  codespace: string;
  log: string;
  value: Uint8Array;
  height: number;
}

export interface AppOptions {
  readonly registry: ProtoRegistry;
  readonly store: CommitStore;
  readonly modules: readonly AppModule[];
  readonly chainId: string;
  readonly anteHandler?: AnteHandler;
  readonly minGasPrices?: readonly DecCoin[];
  /** module order for BeginBlock / EndBlock / InitGenesis (names); defaults to module order */
  readonly order?: { beginBlock?: string[]; endBlock?: string[]; initGenesis?: string[] };
  readonly name?: string;
  readonly version?: string;
  /** upper bound on a tx's encoded size in CheckTx */
  readonly maxTxBytes?: number;
}

/** Computes the app hash a changeset would produce (same function the store commits with). */
export type AppHashFn = (prev: Uint8Array, changes: ReturnType<CacheKVStore['changes']>) => Uint8Array;

export class App {
  readonly registry: ProtoRegistry;
  readonly router: Router;
  readonly chainId: string;
  readonly name: string;
  readonly version: string;
  private readonly store: CommitStore;
  private readonly modules: readonly AppModule[];
  private readonly byName = new Map<string, AppModule>();
  private readonly ante?: AnteHandler;
  minGasPrices: readonly DecCoin[];
  private readonly order: { beginBlock: AppModule[]; endBlock: AppModule[]; initGenesis: AppModule[] };
  private readonly maxTxBytes: number;

  private checkState: CacheKVStore;
  private deliverState: CacheKVStore | undefined;
  private pendingHeight = 0;
  private lastBlock: BlockInfo;

  constructor(opts: AppOptions) {
    this.registry = opts.registry;
    this.store = opts.store;
    this.modules = opts.modules;
    this.chainId = opts.chainId;
    this.ante = opts.anteHandler;
    this.minGasPrices = opts.minGasPrices ?? [];
    this.name = opts.name ?? 'chain';
    this.version = opts.version ?? '0.1.0';
    this.maxTxBytes = opts.maxTxBytes ?? 1024 * 1024;
    this.registry.addProtoDir(TX_PROTO_DIR);
    for (const m of this.modules) {
      if (this.byName.has(m.name)) throw new Error(`duplicate module ${m.name}`);
      this.byName.set(m.name, m);
      for (const d of m.protoDirs ?? []) this.registry.addProtoDir(d);
    }
    for (const m of this.modules) m.registerTypes?.(this.registry);
    this.router = new Router(this.registry);
    for (const m of this.modules) m.registerServices?.(this.router.forModule(m.name, m.eventModuleName ?? m.name));
    const pick = (names: string[] | undefined): AppModule[] =>
      names ? names.map((n) => { const m = this.byName.get(n); if (!m) throw new Error(`unknown module ${n} in order`); return m; }) : [...this.modules];
    this.order = { beginBlock: pick(opts.order?.beginBlock), endBlock: pick(opts.order?.endBlock), initGenesis: pick(opts.order?.initGenesis) };
    this.checkState = branch(this.store.state);
    this.lastBlock = { height: this.store.lastHeight, time: new Date(0), chainId: this.chainId, proposer: new Uint8Array() };
  }

  module<T extends AppModule>(name: string): T | undefined {
    return this.byName.get(name) as T | undefined;
  }

  allModules(): readonly AppModule[] {
    return this.modules;
  }

  // ---- Info / InitChain ---------------------------------------------------------------------------------

  info(): { data: string; version: string; appVersion: number; lastBlockHeight: number; lastBlockAppHash: Uint8Array } {
    return { data: this.name, version: this.version, appVersion: 1, lastBlockHeight: this.store.lastHeight, lastBlockAppHash: this.store.lastAppHash };
  }

  /** Default genesis app_state: module name → genesis JSON (gateway JSON of its GenesisState). */
  defaultGenesis(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of this.modules) {
      if (m.genesisType && m.defaultGenesis) out[m.name] = this.registry.toJSON(m.genesisType, m.defaultGenesis());
    }
    return out;
  }

  /** Runs every module's InitGenesis into the first block's state (committed with block `initialHeight`). */
  initChain(req: { time: Date; appState: Record<string, unknown>; initialHeight?: number }): void {
    if (this.store.lastHeight !== 0) throw new Error('InitChain on a chain that has blocks');
    this.deliverState = branch(this.store.state);
    const block: BlockInfo = { height: req.initialHeight ?? 1, time: req.time, chainId: this.chainId, proposer: new Uint8Array() };
    const ctx = new Context(this.deliverState, block, 'genesis', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
    for (const m of this.order.initGenesis) {
      if (!m.genesisType || !m.initGenesis) continue;
      const json = req.appState[m.name];
      const gen = json === undefined ? (m.defaultGenesis?.() ?? {}) : this.registry.fromJSON(m.genesisType, json);
      m.validateGenesis?.(gen);
      m.initGenesis(ctx, gen);
    }
    this.lastBlock = block;
  }

  exportGenesis(): Record<string, unknown> {
    const ctx = this.queryContext();
    const out: Record<string, unknown> = {};
    for (const m of this.modules) {
      if (m.genesisType && m.exportGenesis) out[m.name] = this.registry.toJSON(m.genesisType, m.exportGenesis(ctx));
    }
    return out;
  }

  // ---- CheckTx --------------------------------------------------------------------------------------------

  /** Mempool admission: decode, validate, ante (fees, signatures, sequence) against the check state. */
  async checkTx(raw: Uint8Array, recheck = false): Promise<ExecTxResult & { tx?: DecodedTx }> {
    if (raw.length > this.maxTxBytes) return this.errorResult(Errors.TxTooLarge.wrap(`tx size ${raw.length} exceeds ${this.maxTxBytes}`), 0, 0);
    return this.runTx(recheck ? 'recheck' : 'check', raw, this.checkState);
  }

  // ---- FinalizeBlock / Commit -----------------------------------------------------------------------------

  async finalizeBlock(req: FinalizeBlockRequest): Promise<FinalizeBlockResponse> {
    if (req.height !== this.store.lastHeight + 1) throw new Error(`finalizeBlock height ${req.height}, expected ${this.store.lastHeight + 1}`);
    if (!this.deliverState) this.deliverState = branch(this.store.state);
    const state = this.deliverState;
    const block: BlockInfo = { height: req.height, time: req.time, chainId: this.chainId, proposer: req.proposer };
    this.lastBlock = block;
    const events: Event[] = [];
    const beginEvents = new EventManager();
    const bctx = new Context(state, block, 'block', new InfiniteGasMeter(), beginEvents, this.minGasPrices);
    for (const m of this.order.beginBlock) await m.beginBlock?.(bctx);
    for (const e of beginEvents.events) events.push(withMode(e, 'BeginBlock'));
    const txResults: ExecTxResult[] = [];
    for (const raw of req.txs) txResults.push(await this.runTx('deliver', raw, state, block));
    const endEvents = new EventManager();
    const ectx = new Context(state, block, 'block', new InfiniteGasMeter(), endEvents, this.minGasPrices);
    const validatorUpdates: ValidatorUpdate[] = [];
    for (const m of this.order.endBlock) {
      const u = await m.endBlock?.(ectx);
      if (u) validatorUpdates.push(...u);
    }
    for (const e of endEvents.events) events.push(withMode(e, 'EndBlock'));
    this.pendingHeight = req.height;
    const appHash = nextAppHash(this.store.lastAppHash, state.changes());
    return { events, txResults, validatorUpdates, appHash };
  }

  /** Persists the finalized block's state together with `extraOps` (block store, index) in one batch. */
  async commit(extraOps: BatchOp[] = []): Promise<Uint8Array> {
    if (!this.deliverState || this.pendingHeight !== this.store.lastHeight + 1) throw new Error('commit without a finalized block');
    const appHash = await this.store.commit(this.pendingHeight, this.deliverState.changes(), extraOps);
    this.deliverState = undefined;
    this.checkState = branch(this.store.state);
    return appHash;
  }

  get lastHeight(): number {
    return this.store.lastHeight;
  }

  get lastAppHash(): Uint8Array {
    return this.store.lastAppHash;
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
    try {
      const route = this.router.queryRoute(req.path);
      if (!route) throw Errors.UnknownRequest.wrap(`unknown query path: ${req.path}`);
      const reqObj = this.registry.decode(route.requestType, req.data);
      const resp = await this.runQuery(route.path, reqObj, height);
      const dialect = req.path.startsWith('/cosmos.') ? 'cosmos' : 'chain';
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
    const view = await this.store.openView(h);
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
   * state; `close()` releases the pinned view. Block 1 carries the genesis state and is not replayable.
   */
  async replayBlock(req: ReplayBlockRequest): Promise<BlockReplay> {
    const h = req.height;
    if (!Number.isSafeInteger(h) || h < 2 || h > this.store.lastHeight) throw Errors.InvalidHeight.wrap(`block ${h} cannot be replayed (2..${this.store.lastHeight})`);
    const view = await this.store.openView(h - 1);
    const state = branch(view.store);
    const block: BlockInfo = { height: h, time: req.time, chainId: this.chainId, proposer: req.proposer };
    let i = 0;
    try {
      const bctx = new Context(state, block, 'block', new InfiniteGasMeter(), new EventManager(), this.minGasPrices);
      for (const m of this.order.beginBlock) await m.beginBlock?.(bctx);
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

  // ---- tx execution ---------------------------------------------------------------------------------------

  private errorResult(err: unknown, gasWanted: number, gasUsed: number, events: Event[] = []): ExecTxResult {
    const info = abciInfo(err);
    return { code: info.code, codespace: info.codespace, log: info.log, info: '', data: new Uint8Array(), gasWanted, gasUsed, events };
  }

  private async runTx(mode: ExecMode, raw: Uint8Array, state: KVStore, block: BlockInfo = this.lastBlock): Promise<ExecTxResult & { tx?: DecodedTx }> {
    let tx: DecodedTx;
    try {
      tx = decodeTx(this.registry, raw);
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
      return { ...this.errorResult(err, reportedWanted, meter.consumed()), tx };
    }
    if (mode === 'check' || mode === 'recheck') {
      return { code: 0, codespace: '', log: '', info: '', data: new Uint8Array(), gasWanted, gasUsed: meter.consumed(), events: txEvents.events, tx };
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
        em.emit('message', [['action', msg.typeUrl], ['sender', signers[0] ?? ''], ['module', route.eventModule]]);
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
      return { code: info.code, codespace: info.codespace, log, info: '', data: new Uint8Array(), gasWanted: reportedWanted, gasUsed: meter.consumed(), events: txEvents.events, tx };
    }
    const data = this.registry.encode('chain.base.abci.v1beta1.TxMsgData', { msg_responses: responses });
    return {
      code: 0, codespace: '', log: JSON.stringify(msgLogs.map(stringLog)), info: '', data,
      gasWanted: reportedWanted, gasUsed: meter.consumed(), events: allEvents, msgResponses: responses, tx,
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
