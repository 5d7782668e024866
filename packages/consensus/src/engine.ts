/**
 * The embedded single-validator consensus engine. It drives the app only through the ABCI application
 * interface (`AbciApplication`, as CometBFT would): InitChain on a fresh chain, then every `timeoutCommit`
 * PrepareProposal from the mempool, ProcessProposal, FinalizeBlock with the decided last commit (the local
 * validator's vote, the other validators absent), Commit. It signs the precommit with the validator key,
 * applies validator updates with CometBFT's delay (updates returned at height H shape the set of H+2),
 * hashes the real validator sets into headers, and keeps its block store and tx index as a commit
 * listener whose writes join the block's atomic batch. Then it publishes the block's events.
 */
import type { AbciApplication, AppStateSource, CommitInfo, CommitListener, ExecTxResult, ProgressFactory, ValidatorUpdate, VoteInfo } from '@chain/app';
import { Slots, isChainHalt } from '@chain/app';
import type { BatchOp, CommitStore } from '@chain/store';
import type { EventBus, Event } from '@chain/events';
import { flattenEvents } from '@chain/events';
import type { TxIndex } from '@chain/indexer';
import { txEventMap } from '@chain/indexer';
import { ed25519PublicKey, ed25519Sign, sha256, toHex } from '@chain/crypto';
import { BlockStore } from './blockstore.js';
import type { StoredBlock, StoredResults, StoredTxResult } from './blockstore.js';
import { applyValidatorUpdates, sameValidatorSet } from './validator-set.js';
import { Mempool, MempoolError } from './mempool.js';
import type { MempoolTx } from './mempool.js';
import type { GenesisDoc } from './genesis.js';
import { consensusParamsOf, validatorsOf } from './genesis.js';
import type { Block, BlockID, Commit, ConsensusParams, Header, Timestamp, Validator, Vote } from './cmt-types.js';
import { BLOCK_PROTOCOL_VERSION } from './cmt-types.js';
import {
  blockId as computeBlockId, canonicalVoteSignBytes, commitHash, consensusParamsHash, dataHashOfTxHashes, emptyBlockId, evidenceHash,
  lastResultsHash, validatorAddress, validatorSetHash,
} from './hashing.js';

export interface EngineLogger {
  info(msg: string, ctx?: Record<string, unknown>): void;
  error(msg: string, ctx?: Record<string, unknown>): void;
}

/** What the embedded engine needs of the app: the ABCI application, plus a place in its commit batch. */
export interface EmbeddedApp extends AbciApplication {
  /** adds a listener; returns its remover */
  addCommitListener(listener: CommitListener): () => void;
}

export interface EngineOptions {
  readonly app: EmbeddedApp;
  readonly store: CommitStore;
  readonly bus: EventBus;
  readonly indexer: TxIndex;
  readonly genesis: GenesisDoc;
  /**
   * The genesis `app_state` read section by section (a genesis file opened with `openGenesisFile`), handed to
   * InitChain instead of `genesis.app_state`, which is then not read at all (default: `genesis.app_state`)
   */
  readonly appStateSource?: () => AppStateSource;
  /** progress displays of the genesis import and of indexing stored blocks at start (none by default) */
  readonly genesisProgress?: ProgressFactory;
  /** 32-byte ed25519 seed of the validator key */
  readonly validatorKey: Uint8Array;
  readonly timeoutCommitMs: number;
  readonly mempool?: Mempool;
  readonly logger?: EngineLogger;
  /**
   * Called once when the app halts the chain (a block hook threw a `ChainHaltError`, e.g. an upgrade
   * without its handler): the block of that height is not committed and the engine produces no more
   * blocks; queries, CheckTx and `stop()` keep working.
   */
  readonly onHalt?: (halt: EngineHalt) => void;
}

/** Why and where the engine stopped producing blocks. */
export interface EngineHalt {
  /** the height that was not committed */
  readonly height: number;
  readonly reason: string;
}

export interface CheckTxResult extends ExecTxResult { hash: Uint8Array }

export interface TxInclusion { height: number; index: number; result: StoredTxResult }

/** Serializes async sections (CheckTx against block production). */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.tail.then(fn, fn);
    this.tail = p.catch(() => undefined);
    return p;
  }
}

/**
 * CheckTxs past their wait for a slot: decoded, prechecked, queued for the app. A client that pipelines hundreds
 * of txs had them all decoded at once (on arrival, or as a block ended), each decoding then living until its CheckTx
 * ran, long enough for V8 to copy it out of the young generation and into the old one; copying survivors was most
 * of a loaded node's collection time. A slot is cheap to wait for (the raw bytes only), and this many keep the
 * verification workers and the app busy.
 */
export const CHECK_TX_SLOTS = 64;

export function toTimestamp(d: Date): Timestamp {
  const ms = d.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

export function fromTimestamp(t: Timestamp): Date {
  return new Date(t.seconds * 1000 + Math.floor(t.nanos / 1_000_000));
}

function toExecForHash(r: StoredTxResult): { code: number; data: Uint8Array; gasWanted: number; gasUsed: number } {
  return { code: r.code, data: r.data, gasWanted: r.gasWanted, gasUsed: r.gasUsed };
}

export class Engine {
  private readonly app: EmbeddedApp;
  readonly bus: EventBus;
  readonly mempool: Mempool;
  readonly blocks: BlockStore;
  readonly indexer: TxIndex;
  readonly genesis: GenesisDoc;
  readonly chainId: string;
  params: ConsensusParams;
  readonly validatorPubKey: Uint8Array;
  readonly validatorAddr: Uint8Array;
  /** validator sets: of the last committed height, of the next height, and of the one after it */
  private lastVals: Validator[] = [];
  private vals: Validator[];
  private nextVals: Validator[];
  private height = 0;
  /** InitChain answered other consensus params than the genesis file's (stored with the first block) */
  private genesisParamsChanged = false;
  private appHash: Uint8Array = new Uint8Array();
  /** writes of the block being committed (the commit listener hands them to the app's batch) */
  private pendingOps: { height: number; ops: BatchOp[] } | undefined;
  private readonly key: Uint8Array;
  private readonly store: CommitStore;
  private readonly log: EngineLogger;
  private readonly lock = new Mutex();
  private timeoutCommitMs: number;
  /** resolves when the latest checkTx call has its place in the lock's queue (arrival order) */
  private admitted: Promise<void> = Promise.resolve();
  private readonly checkSlots = new Slots(CHECK_TX_SLOTS);
  /** when the block being produced was decided (timeout_commit runs from there) */
  private decidedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private producing: Promise<void> | undefined;
  private haltInfo: EngineHalt | undefined;
  private readonly onHalt: ((halt: EngineHalt) => void) | undefined;
  private last: { block: StoredBlock; results: StoredResults; commit: Commit } | undefined;
  private readonly waiters = new Map<string, ((t: TxInclusion) => void)[]>();
  private readonly initialHeight: number;
  private readonly appStateSource: (() => AppStateSource) | undefined;
  private readonly genesisProgress: ProgressFactory | undefined;

  constructor(opts: EngineOptions) {
    this.appStateSource = opts.appStateSource;
    this.genesisProgress = opts.genesisProgress;
    this.app = opts.app;
    this.bus = opts.bus;
    this.store = opts.store;
    this.indexer = opts.indexer;
    this.genesis = opts.genesis;
    this.chainId = opts.genesis.chain_id;
    this.params = consensusParamsOf(opts.genesis);
    this.vals = validatorsOf(opts.genesis);
    this.nextVals = this.vals;
    this.key = opts.validatorKey;
    this.validatorPubKey = ed25519PublicKey(this.key);
    this.validatorAddr = validatorAddress(this.validatorPubKey);
    this.timeoutCommitMs = opts.timeoutCommitMs;
    this.mempool = opts.mempool ?? new Mempool();
    this.blocks = new BlockStore(opts.store);
    this.log = opts.logger ?? { info: () => undefined, error: () => undefined };
    this.initialHeight = Number(opts.genesis.initial_height || '1');
    this.onHalt = opts.onHalt;
  }

  /** The block store and index writes of the block being committed, joined to the app's batch. */
  private readonly commitListener: CommitListener = (h) => {
    if (this.pendingOps?.height !== h) throw new Error(`the engine did not prepare the block store writes of height ${h}`);
    return this.pendingOps.ops;
  };

  private removeCommitListener: (() => void) | undefined;

  get latestHeight(): number {
    return this.height;
  }

  /** The wait after a commit before the next height's proposal (config `timeout_commit`), in ms. */
  get timeoutCommit(): number {
    return this.timeoutCommitMs;
  }

  /** Set when the app halted the chain: the height that was not committed and why (undefined while running). */
  get halted(): EngineHalt | undefined {
    return this.haltInfo;
  }

  /** The validator set of the next block (CometBFT's `state.Validators`). */
  get validators(): Validator[] {
    return this.vals;
  }

  /** The validator set that signed block `height` (any stored height, or the next two). */
  async validatorsAt(height: number): Promise<Validator[] | undefined> {
    if (height === this.height + 1) return this.vals;
    if (height === this.height + 2) return this.nextVals;
    if (height === this.height) return this.lastVals;
    if (height > this.height + 2 || height < this.initialHeight) return undefined;
    return (await this.blocks.validatorsAt(height)) ?? validatorsOf(this.genesis);
  }

  get latestBlock(): StoredBlock | undefined {
    return this.last?.block;
  }

  get latestResults(): StoredResults | undefined {
    return this.last?.results;
  }

  /** Loads the last committed block (or runs InitChain on a fresh chain) and starts producing blocks. */
  async start(): Promise<void> {
    const info = await this.app.info({});
    if (info.lastBlockHeight === 0) {
      const genesisVals = validatorsOf(this.genesis);
      const genesis = this.genesis;
      const res = await this.app.initChain({
        time: new Date(this.genesis.genesis_time),
        chainId: this.chainId,
        consensusParams: this.params,
        validators: genesisVals.map((v): ValidatorUpdate => ({ pubKey: { type: 'ed25519', key: v.pubKey }, power: BigInt(v.votingPower) })),
        // read only by an app that does not take the source
        get appState() { return genesis.app_state ?? {}; },
        appStateSource: this.appStateSource?.(),
        progress: this.genesisProgress,
        initialHeight: this.initialHeight,
      });
      if (res.consensusParams) {
        this.params = res.consensusParams;
        this.genesisParamsChanged = true;
      }
      // validators from the app's genesis (staking) replace the genesis file's
      this.vals = res.validators.length > 0 ? applyValidatorUpdates([], res.validators) : genesisVals;
      if (this.vals.length === 0) throw new Error('the genesis has no validators and the app returned none');
      this.nextVals = this.vals;
      this.height = this.initialHeight - 1;
      this.appHash = res.appHash;
    } else {
      const h = info.lastBlockHeight;
      const block = await this.blocks.block(h);
      const results = await this.blocks.results(h);
      const commit = await this.blocks.seenCommit(h);
      if (!block || !results || !commit) throw new Error(`block store has no block ${h} though the state is at height ${h}`);
      this.last = { block, results, commit };
      this.height = h;
      this.appHash = info.lastBlockAppHash;
      const genesisVals = validatorsOf(this.genesis);
      this.lastVals = (await this.blocks.validatorsAt(h)) ?? genesisVals;
      this.vals = (await this.blocks.validatorsAt(h + 1)) ?? genesisVals;
      this.params = (await this.blocks.paramsAt(h + 1)) ?? this.params;
      this.nextVals = (await this.blocks.validatorsAt(h + 2)) ?? genesisVals;
    }
    await this.catchUpIndex();
    if (this.validatorIndex() < 0) throw new Error('the validator key is not in the validator set');
    this.removeCommitListener = this.app.addCommitListener(this.commitListener);
    this.running = true;
    this.schedule(this.last ? this.timeoutCommitMs : 0);
  }

  /**
   * Indexes the stored blocks a tx index with its own database has not indexed yet (a crash before the worker wrote
   * them, an index made new); from scratch when the index is ahead of the block store.
   */
  private async catchUpIndex(): Promise<void> {
    let indexed = await this.indexer.indexedHeight();
    if (indexed === undefined || indexed === this.height) return;
    if (indexed > this.height) {
      this.log.info(`the tx index is at height ${indexed}, above the last block ${this.height}: indexing the stored blocks again`);
      await this.indexer.reset();
      indexed = 0;
    }
    // no block stored yet: a new chain (at initial_height - 1 when it starts above 1)
    const base = await this.blocks.baseHeight();
    if (base === 0) return;
    const from = Math.max(indexed + 1, base);
    if (from > this.height) return;
    const progress = this.height - from + 1 > 10 ? this.genesisProgress?.('indexing stored blocks', this.height - from + 1) : undefined;
    for (let h = from; h <= this.height; h++) {
      const block = await this.blocks.block(h);
      const results = await this.blocks.results(h);
      if (!block || !results) throw new Error(`block store has no block ${h} to index (its stored blocks end at ${this.height})`);
      const txs = block.block.data.txs.map((raw, index) => ({ hash: sha256(raw), height: h, index, events: results.txResults[index]?.events ?? [] }));
      this.indexer.committed(h, txs, results.events);
      progress?.tick();
      // a few blocks in flight at a time
      if (h % 64 === 0) await this.indexer.indexedHeight();
    }
    await this.indexer.indexedHeight();
    progress?.done();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.producing;
    this.removeCommitListener?.();
    this.removeCommitListener = undefined;
  }

  /**
   * The app stopped the chain at the next height (CometBFT's CONSENSUS FAILURE on a panic in the app): no
   * retry, no more blocks; the block was not committed (FinalizeBlock failed before Commit), so a restart
   * resumes from the same height.
   */
  private halt(e: Error): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.haltInfo = { height: this.height + 1, reason: e.message };
    this.log.error(`CONSENSUS HALTED at height ${this.height + 1}: ${e.message}`, { lastCommittedHeight: this.height });
    this.onHalt?.(this.haltInfo);
  }

  setTimeoutCommit(ms: number): void {
    this.timeoutCommitMs = ms;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.producing = this.lock.run(() => this.produceBlock()).catch((e: unknown) => {
        if (isChainHalt(e)) this.halt(e);
        else this.log.error('block production failed', { err: (e as Error).stack ?? String(e) });
      }).finally(() => {
        this.producing = undefined;
        // CometBFT counts timeout_commit from the moment a block is decided (its precommits), before it is
        // executed: the next height starts timeout_commit after that, or at once when execution took longer
        const decided = this.decidedAt;
        this.decidedAt = undefined;
        this.schedule(decided === undefined ? this.timeoutCommitMs : Math.max(0, decided + this.timeoutCommitMs - Date.now()));
      });
    }, ms);
  }

  // ---- transactions ----

  /** CheckTx and mempool admission; throws MempoolError for rejections CometBFT reports as RPC errors. */
  async checkTx(raw: Uint8Array): Promise<CheckTxResult> {
    const hash = sha256(raw);
    const hex = toHex(hash);
    this.mempool.precheck(raw, hex);
    const slot = this.checkSlots.acquire();
    if (slot !== undefined) await slot;
    // txs reach CheckTx in the order they arrived here, whichever precheck ends first (a client may pipeline an
    // account's sequence numbers): each takes its place in the lock's queue after the one before it did
    const before = this.admitted;
    let admit!: () => void;
    this.admitted = new Promise<void>((r) => { admit = r; });
    try {
      // signature checks on worker threads while earlier txs and blocks hold the lock
      try {
        if (this.app.precheckTx) await this.app.precheckTx(raw);
      } finally {
        await before;
      }
      const queued = this.lock.run(() => this.app.checkTx({ tx: raw, type: 'new' }));
      admit();
      const res = await queued;
      const maxGas = this.params.block.maxGas;
      if (res.code === 0 && maxGas >= 0 && res.gasWanted > maxGas) {
        // CometBFT's PostCheckMaxGas: a tx that can never fit in a block must not stall the mempool
        this.mempool.forget(hex);
        throw new MempoolError('too-large', `gas wanted ${res.gasWanted} is greater than max gas ${maxGas}`);
      }
      if (res.code === 0) this.mempool.add({ raw, hash, hashHex: hex, gasWanted: res.gasWanted });
      else this.mempool.forget(hex);
      return { ...res, hash };
    } catch (e) {
      admit();
      this.mempool.forget(hex);
      throw e;
    } finally {
      this.checkSlots.release();
    }
  }

  /** Resolves when the tx with this hash is committed (or undefined after `timeoutMs`). */
  waitForTx(hash: Uint8Array, timeoutMs: number): Promise<TxInclusion | undefined> {
    const hex = toHex(hash);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        const list = this.waiters.get(hex);
        if (list) {
          const i = list.indexOf(done);
          if (i >= 0) list.splice(i, 1);
          if (list.length === 0) this.waiters.delete(hex);
        }
        resolve(undefined);
      }, timeoutMs);
      const done = (x: TxInclusion): void => { clearTimeout(t); resolve(x); };
      const list = this.waiters.get(hex) ?? [];
      list.push(done);
      this.waiters.set(hex, list);
      // the tx may have been committed before this call: look it up in the index too
      void this.findCommitted(hash).then((x) => { if (x) done(x); }, () => undefined);
    });
  }

  private async findCommitted(hash: Uint8Array): Promise<TxInclusion | undefined> {
    const ref = await this.indexer.byHash(hash);
    if (!ref) return undefined;
    const result = (await this.blocks.results(ref.height))?.txResults[ref.index];
    return result ? { height: ref.height, index: ref.index, result } : undefined;
  }

  // ---- block production ----

  private validatorIndex(vals: readonly Validator[] = this.vals): number {
    const own = toHex(this.validatorAddr);
    return vals.findIndex((v) => toHex(v.address) === own);
  }

  /** A vote of this validator for `id`, signed over CometBFT's canonical vote sign bytes. */
  private signVote(type: 1 | 2, height: number, id: BlockID, time: Date): Vote {
    const timestamp = toTimestamp(time);
    const signature = ed25519Sign(this.key, canonicalVoteSignBytes(this.chainId, { type, height, round: 0, blockId: id, timestamp }));
    return { type, height, round: 0, blockId: id, timestamp, validatorAddress: this.validatorAddr, validatorIndex: this.validatorIndex(), signature };
  }

  /** The commit of a block signed by the local validator alone: every other validator of the set is absent. */
  private commitOf(precommit: Vote): Commit {
    const idx = this.validatorIndex();
    const signatures = this.vals.map((_, i) => i === idx
      ? { blockIdFlag: 2 as const, validatorAddress: this.validatorAddr, timestamp: precommit.timestamp, signature: precommit.signature }
      : { blockIdFlag: 1 as const, validatorAddress: new Uint8Array(), timestamp: { seconds: -62135596800, nanos: 0 }, signature: new Uint8Array() });
    return { height: precommit.height, round: 0, blockId: precommit.blockId, signatures };
  }

  /** Consensus events (NewRound, NewRoundStep, CompleteProposal, Vote, Polka, Lock, ValidBlock). */
  private publishRound(type: string, height: number, step: string, extra: Record<string, unknown> = {}): void {
    this.bus.publish({ type, data: { height, round: 0, step, ...extra }, events: { 'tm.event': [type] } });
  }

  /**
   * The steps a single validator really goes through for one height: new round, proposal, its own
   * prevote (+2/3 → polka, lock, valid block) and precommit (+2/3 → commit). Returns the precommit.
   */
  private runRound(height: number, id: BlockID, blockTime: Date): Vote {
    this.publishRound('NewRoundStep', height, 'RoundStepNewRound');
    this.publishRound('NewRound', height, 'RoundStepNewRound', { proposer: { address: this.validatorAddr, index: this.validatorIndex() } });
    this.publishRound('NewRoundStep', height, 'RoundStepPropose');
    this.publishRound('CompleteProposal', height, 'RoundStepPropose', { blockId: id });
    this.publishRound('NewRoundStep', height, 'RoundStepPrevote');
    const voteTime = new Date(Math.max(Date.now(), blockTime.getTime() + 1));
    const prevote = this.signVote(1, height, id, voteTime);
    this.bus.publish({ type: 'Vote', data: { vote: prevote }, events: { 'tm.event': ['Vote'] } });
    this.publishRound('Polka', height, 'RoundStepPrevote');
    this.publishRound('Lock', height, 'RoundStepPrevote');
    this.publishRound('ValidBlock', height, 'RoundStepPrevote');
    this.publishRound('NewRoundStep', height, 'RoundStepPrecommit');
    const precommit = this.signVote(2, height, id, voteTime);
    this.bus.publish({ type: 'Vote', data: { vote: precommit }, events: { 'tm.event': ['Vote'] } });
    this.publishRound('NewRoundStep', height, 'RoundStepCommit');
    return precommit;
  }

  /** The previous block's commit as the app sees it (`decided_last_commit`): every validator's vote. */
  private lastCommitInfo(): CommitInfo {
    const prev = this.last;
    if (!prev) return { round: 0, votes: [] };
    const votes: VoteInfo[] = this.lastVals.map((v, i) => ({
      validator: { address: v.address, power: BigInt(v.votingPower) },
      blockIdFlag: prev.commit.signatures[i]?.blockIdFlag ?? 1,
    }));
    return { round: prev.commit.round, votes };
  }

  private async produceBlock(): Promise<void> {
    const height = this.height + 1;
    if (this.validatorIndex() < 0) throw new Error(`the local validator is not in the validator set of height ${height}: the embedded engine cannot sign blocks`);
    const prev = this.last;
    const time = prev ? fromTimestamp(prev.commit.signatures.find((s) => s.blockIdFlag === 2)!.timestamp) : new Date(this.genesis.genesis_time);
    const maxTxBytes = this.params.block.maxBytes > 0 ? this.params.block.maxBytes - 100_000 : 21 * 1024 * 1024;
    const reaped = this.mempool.reap(maxTxBytes, this.params.block.maxGas);
    const lastCommitInfo = this.lastCommitInfo();
    const nextValidatorsHash = validatorSetHash(this.nextVals);
    const proposal = await this.app.prepareProposal({
      maxTxBytes, txs: reaped.map((t) => t.raw), localLastCommit: lastCommitInfo, misbehavior: [], height, time, nextValidatorsHash,
      proposerAddress: this.validatorAddr,
    });
    const byRaw = new Map(reaped.map((t) => [t.raw, t]));
    const included: MempoolTx[] = proposal.txs.map((raw) => byRaw.get(raw) ?? { raw, hash: sha256(raw), hashHex: toHex(sha256(raw)), gasWanted: 0 });
    const txs = included.map((t) => t.raw);
    const emptyCommit: Commit = { height: 0, round: 0, blockId: emptyBlockId(), signatures: [] };
    const lastCommit = prev?.commit ?? emptyCommit;
    const header: Header = {
      version: { block: BLOCK_PROTOCOL_VERSION, app: this.params.version.app },
      chainId: this.chainId,
      height,
      time: toTimestamp(time),
      lastBlockId: prev?.block.blockId ?? emptyBlockId(),
      lastCommitHash: commitHash(lastCommit),
      dataHash: dataHashOfTxHashes(included.map((t) => t.hash)),
      validatorsHash: validatorSetHash(this.vals),
      nextValidatorsHash,
      consensusHash: consensusParamsHash(this.params),
      appHash: this.appHash,
      lastResultsHash: lastResultsHash((prev?.results.txResults ?? []).map(toExecForHash)),
      evidenceHash: evidenceHash(),
      proposerAddress: this.validatorAddr,
    };
    const block: Block = { header, data: { txs }, evidence: [], lastCommit };
    const id = computeBlockId(block);
    const verdict = await this.app.processProposal({
      txs, proposedLastCommit: lastCommitInfo, misbehavior: [], hash: id.hash, height, time, nextValidatorsHash, proposerAddress: this.validatorAddr,
    });
    if (verdict.status !== 'ACCEPT') throw new Error(`the app rejected the proposal of height ${height}`);
    // decide the block (CometBFT order: the block is committed by votes, then executed)
    const commit = this.commitOf(this.runRound(height, id, time));
    this.decidedAt = Date.now();
    const resp = await this.app.finalizeBlock({
      txs, decidedLastCommit: lastCommitInfo, misbehavior: [], hash: id.hash, height, time, nextValidatorsHash, proposerAddress: this.validatorAddr,
    });
    // updates returned at H shape the set of H+2 (the set of H+1 is fixed by this header)
    const afterNext = applyValidatorUpdates(this.nextVals, resp.validatorUpdates);
    const txResults: StoredTxResult[] = resp.txResults.map((r) => ({
      code: r.code, codespace: r.codespace, log: r.log, info: r.info, data: r.data, gasWanted: r.gasWanted, gasUsed: r.gasUsed, events: r.events,
    }));
    const results: StoredResults = {
      height,
      txResults,
      events: resp.events,
      validatorUpdates: resp.validatorUpdates.map((u) => ({ pubKey: u.pubKey.key, power: Number(u.power) })),
      appHash: resp.appHash,
    };
    const size = txs.reduce((n, t) => n + t.length, 0) + 1024;
    const stored: StoredBlock = { block, blockId: id, size };
    const indexed = included.map((t, i) => ({ hash: t.hash, height, index: i, events: txResults[i]!.events }));
    const { ops, eventLists } = this.blocks.saveOps(stored, results, commit);
    for (const op of this.indexer.blockOps(height, indexed, resp.events)) ops.push(op);
    if (height === this.initialHeight) {
      ops.push(...this.blocks.validatorsOps(height, this.vals));
      if (this.genesisParamsChanged) ops.push(...this.blocks.paramsOps(height, this.params));
    }
    // consensus param updates of H take effect at H+1 (CometBFT)
    if (resp.consensusParamUpdates) ops.push(...this.blocks.paramsOps(height + 1, resp.consensusParamUpdates));
    if (!sameValidatorSet(this.nextVals, this.vals)) ops.push(...this.blocks.validatorsOps(height + 1, this.nextVals));
    if (!sameValidatorSet(afterNext, this.nextVals)) ops.push(...this.blocks.validatorsOps(height + 2, afterNext));
    this.pendingOps = { height, ops };
    try {
      await this.app.commit();
    } finally {
      this.pendingOps = undefined;
    }
    this.blocks.committed(stored, results);
    this.indexer.committed(height, indexed, resp.events, eventLists);
    this.last = { block: stored, results, commit };
    this.height = height;
    this.appHash = resp.appHash;
    if (resp.consensusParamUpdates) this.params = resp.consensusParamUpdates;
    this.lastVals = this.vals;
    this.vals = this.nextVals;
    this.nextVals = afterNext;

    this.publishBlockEvents(stored, results, included);
    for (let i = 0; i < included.length; i++) {
      const list = this.waiters.get(included[i]!.hashHex);
      if (list) {
        this.waiters.delete(included[i]!.hashHex);
        for (const w of list) w({ height, index: i, result: txResults[i]! });
      }
    }
    await this.recheck(included, txResults);
    if (txs.length > 0) this.log.info('committed block', { height, txs: txs.length, appHash: toHex(resp.appHash).toUpperCase() });
  }

  /**
   * CometBFT's mempool update (keep-invalid-txs-in-cache = false): committed txs leave the mempool,
   * failed ones also leave the cache so they may be resubmitted; txs that fail the re-check are
   * removed from both.
   */
  private async recheck(committed: MempoolTx[], results: readonly StoredTxResult[]): Promise<void> {
    const remaining = this.mempool.update(committed.map((t) => t.hash), results.map((r) => r.code));
    for (const tx of remaining) {
      const r = await this.app.checkTx({ tx: tx.raw, type: 'recheck' });
      if (r.code !== 0) {
        this.mempool.remove(tx.hashHex);
        this.mempool.forget(tx.hashHex);
      }
    }
  }

  private publishBlockEvents(stored: StoredBlock, results: StoredResults, txs: MempoolTx[]): void {
    // nobody listening (the bus would drop them): not even built (a 4,000-tx block's Tx event maps are ~30 MB)
    if (this.bus.numSubscriptions() === 0) return;
    const height = stored.block.header.height;
    const blockEvents = results.events;
    // as CometBFT v0.38's event bus: the FinalizeBlock events plus tm.event (no block.height key)
    const blockMap = (type: string): Record<string, string[]> => flattenEvents(blockEvents, { 'tm.event': [type] });
    this.bus.publish({ type: 'NewBlock', data: { block: stored.block, blockId: stored.blockId, results }, events: blockMap('NewBlock') });
    this.bus.publish({ type: 'NewBlockHeader', data: { header: stored.block.header }, events: { 'tm.event': ['NewBlockHeader'] } });
    this.bus.publish({ type: 'NewBlockEvents', data: { height, events: blockEvents, numTxs: txs.length }, events: blockMap('NewBlockEvents') });
    // (a 4,000-tx block's Tx event maps are built only when some query may take a Tx event: the Ethereum JSON-RPC's
    // own subscription is to NewBlock)
    const txEvents = this.bus.mayDeliver('Tx');
    for (let i = 0; txEvents && i < txs.length; i++) {
      const r = results.txResults[i]!;
      this.bus.publish({
        type: 'Tx',
        data: { height, index: i, tx: txs[i]!.raw, result: r },
        events: txEventMap(r.events as Event[], txs[i]!.hashHex, height),
      });
    }
    if (results.validatorUpdates.length > 0) {
      this.bus.publish({ type: 'ValidatorSetUpdates', data: { validatorUpdates: results.validatorUpdates }, events: { 'tm.event': ['ValidatorSetUpdates'] } });
    }
  }
}

export { MempoolError };
