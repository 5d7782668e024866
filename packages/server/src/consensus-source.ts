/**
 * The consensus source: what the transports (the tx service, the node-info/blocks service, the Ethereum
 * JSON-RPC) need from consensus, in the block store's data model (`StoredBlock`, `StoredResults`, ...).
 * Two implementations:
 *  - `EmbeddedSource`: the embedded single-validator engine, its block store, tx/block index, mempool and
 *    event bus (`chaind start`, the default mode);
 *  - `CometSource`: a CometBFT v0.38 node through its RPC (HTTP JSON-RPC for status, block, block_results,
 *    commit, validators, tx, tx_search, block_search, broadcast_tx_*, unconfirmed_txs; its `/websocket`
 *    subscription for NewBlock), decoding CometBFT's JSON shapes (the same shapes `rpc/format.ts` writes).
 */
import WebSocket from 'ws';
import type { Block, BlockID, CheckTxResult, Commit, Engine, StoredBlock, StoredResults, StoredTxResult, Timestamp, TxInclusion, Validator } from '@chain/consensus';
import { MempoolError, consensusParamsOf } from '@chain/consensus';
import type { Event, EventBus } from '@chain/events';
import { parseQuery } from '@chain/events';
import { fromHex, sha256, toHex } from '@chain/crypto';
import { checkTxAsync } from './services/broadcast.js';

export interface SourceNodeInfo {
  readonly nodeId: string;
  readonly moniker: string;
  readonly network: string;
  readonly listenAddress: string;
  readonly rpcAddress: string;
  /** CometBFT version the node reports (or emulates) */
  readonly version: string;
}

export interface SourceStatus {
  readonly latestHeight: number;
  readonly latestBlockHash: Uint8Array;
  readonly latestBlockTime: Date;
  readonly earliestHeight: number;
  readonly catchingUp: boolean;
  readonly nodeInfo: SourceNodeInfo;
}

/** A tx found in the index: its block height and position. */
export interface SourceTxRef { readonly height: number; readonly index: number; readonly hash: Uint8Array }

export interface SearchPage {
  /** 1-based page */
  readonly page: number;
  readonly perPage: number;
  readonly orderDesc: boolean;
}

export interface BroadcastCommitResult {
  /** the CheckTx outcome */
  readonly check: CheckTxResult;
  /** where the tx was committed (undefined: CheckTx failed, or the timeout passed first) */
  readonly included?: TxInclusion;
  readonly timedOut: boolean;
}

export interface ConsensusSource {
  /** `embedded` or `cometbft` */
  readonly kind: string;
  readonly chainId: string;
  status(): Promise<SourceStatus>;
  latestHeight(): Promise<number>;
  /** lowest height whose block is still stored */
  earliestHeight(): Promise<number>;
  block(height: number): Promise<StoredBlock | undefined>;
  heightByHash(hash: Uint8Array): Promise<number | undefined>;
  results(height: number): Promise<StoredResults | undefined>;
  commit(height: number): Promise<Commit | undefined>;
  /** the validator set that signs block `height` */
  validators(height: number): Promise<Validator[] | undefined>;
  /** `block.max_gas` of the consensus params (-1: no limit): the latest, or those in force at `height` */
  blockMaxGas(height?: number): Promise<number>;
  txByHash(hash: Uint8Array): Promise<SourceTxRef | undefined>;
  /** CometBFT's `tx_search`: a query in CometBFT's query language (already checked by `parseQuery`). */
  searchTxs(query: string, page: SearchPage): Promise<{ total: number; txs: SourceTxRef[] }>;
  /** CometBFT's `block_search`. */
  searchBlocks(query: string, page: SearchPage): Promise<{ total: number; heights: number[] }>;
  /** `broadcast_tx_sync`: CheckTx's outcome; a mempool rejection throws `MempoolError`. */
  broadcastSync(raw: Uint8Array): Promise<CheckTxResult>;
  /**
   * true when broadcasts reach CheckTx in the order `broadcastSync` was called, even while earlier ones are still
   * running (the embedded engine's admission queue); otherwise a caller that needs an order waits for each answer.
   */
  readonly admitsInCallOrder?: boolean;
  /** `broadcast_tx_async`: the mempool pre-check rejection, if any, without waiting for CheckTx. */
  broadcastAsync(raw: Uint8Array): Promise<MempoolError | undefined>;
  /** `broadcast_tx_commit`: CheckTx, then wait up to `timeoutMs` for the tx's block. */
  broadcastCommit(raw: Uint8Array, timeoutMs: number): Promise<BroadcastCommitResult>;
  /** Calls `fn` with the height of each new committed block; returns the unsubscribe function. */
  onNewBlock(fn: (height: number) => void): () => void;
  /** Calls `fn` with each tx committed (`tm.event='Tx'`); returns the unsubscribe function. */
  onTx(fn: (ref: SourceTxRef) => void): () => void;
  /** txs waiting in the mempool, in arrival order */
  pendingTxs(limit?: number): Promise<Uint8Array[]>;
  /** Calls `fn` with each tx admitted to the mempool; returns the unsubscribe function. */
  onPendingTx(fn: (raw: Uint8Array) => void): () => void;
  close(): void;
}

// ---------------------------------------------------------------------------------------------------------
// Embedded engine

export class EmbeddedSource implements ConsensusSource {
  readonly kind = 'embedded';
  /** Engine.checkTx takes its place in the admission queue before it first awaits */
  readonly admitsInCallOrder = true;
  readonly chainId: string;
  private readonly offs = new Set<() => void>();
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();

  constructor(readonly engine: Engine, private readonly bus: EventBus, private readonly info: Omit<SourceNodeInfo, 'network'>) {
    this.chainId = engine.chainId;
  }

  async status(): Promise<SourceStatus> {
    const b = this.engine.latestBlock;
    return {
      latestHeight: this.engine.latestHeight,
      latestBlockHash: b?.blockId.hash ?? new Uint8Array(),
      latestBlockTime: b ? new Date(b.block.header.time.seconds * 1000 + Math.floor(b.block.header.time.nanos / 1e6)) : new Date(0),
      earliestHeight: await this.earliestHeight(),
      catchingUp: false,
      nodeInfo: { ...this.info, network: this.chainId },
    };
  }

  async latestHeight(): Promise<number> { return this.engine.latestHeight; }
  async earliestHeight(): Promise<number> { return Math.max(1, await this.engine.blocks.baseHeight()); }
  block(height: number): Promise<StoredBlock | undefined> { return this.engine.blocks.block(height); }
  heightByHash(hash: Uint8Array): Promise<number | undefined> { return this.engine.blocks.heightByHash(hash); }
  results(height: number): Promise<StoredResults | undefined> { return this.engine.blocks.results(height); }
  commit(height: number): Promise<Commit | undefined> { return this.engine.blocks.seenCommit(height); }
  async validators(height: number): Promise<Validator[] | undefined> {
    return (await this.engine.validatorsAt(height)) ?? this.engine.validators;
  }
  async blockMaxGas(height?: number): Promise<number> {
    if (height === undefined) return this.engine.params.block.maxGas;
    // the block store keeps the params from each height they changed at; none stored: the genesis params
    return ((await this.engine.blocks.paramsAt(height)) ?? consensusParamsOf(this.engine.genesis)).block.maxGas;
  }
  async txByHash(hash: Uint8Array): Promise<SourceTxRef | undefined> {
    if (hash.length !== 32) return undefined;
    const ref = await this.engine.indexer.byHash(hash);
    return ref ? { height: ref.height, index: ref.index, hash } : undefined;
  }
  async searchTxs(query: string, page: SearchPage): Promise<{ total: number; txs: SourceTxRef[] }> {
    const r = await this.engine.indexer.search(parseQuery(query), page);
    return { total: r.total, txs: r.txs };
  }
  async searchBlocks(query: string, page: SearchPage): Promise<{ total: number; heights: number[] }> {
    return this.engine.indexer.searchBlocks(parseQuery(query), page);
  }
  broadcastSync(raw: Uint8Array): Promise<CheckTxResult> { return this.engine.checkTx(raw); }
  broadcastAsync(raw: Uint8Array): Promise<MempoolError | undefined> { return checkTxAsync(this.engine, raw); }
  async broadcastCommit(raw: Uint8Array, timeoutMs: number): Promise<BroadcastCommitResult> {
    const check = await this.engine.checkTx(raw);
    if (check.code !== 0) return { check, timedOut: false };
    const included = await this.engine.waitForTx(check.hash, timeoutMs);
    return { check, included, timedOut: !included };
  }

  /**
   * One bus subscription per query (client `eth-jsonrpc`, the JSON-RPC's client id before this interface),
   * fanned out to the listeners; cancelled when the last listener leaves.
   */
  private listen(query: string, fn: (data: unknown) => void): () => void {
    let set = this.listeners.get(query);
    if (!set) {
      const q = parseQuery(query);
      const sub = this.bus.subscribe('eth-jsonrpc', q, { bufferSize: 10_000 });
      const listeners = new Set<(data: unknown) => void>();
      set = listeners;
      this.listeners.set(query, listeners);
      void (async () => {
        for await (const msg of sub) for (const l of [...listeners]) l(msg.data);
      })();
      this.offs.add(() => { try { this.bus.unsubscribe('eth-jsonrpc', q); } catch { /* bus closed */ } });
    }
    const s = set;
    s.add(fn);
    return () => {
      s.delete(fn);
      if (s.size === 0 && this.listeners.get(query) === s) {
        this.listeners.delete(query);
        try { this.bus.unsubscribe('eth-jsonrpc', parseQuery(query)); } catch { /* already gone */ }
      }
    };
  }

  onNewBlock(fn: (height: number) => void): () => void {
    return this.listen("tm.event='NewBlock'", (data) => fn((data as { block: { header: { height: number } } }).block.header.height));
  }
  onTx(fn: (ref: SourceTxRef) => void): () => void {
    return this.listen("tm.event='Tx'", (data) => {
      const r = data as { height: number; index: number; tx: Uint8Array };
      fn({ height: r.height, index: r.index, hash: sha256(r.tx) });
    });
  }
  async pendingTxs(limit?: number): Promise<Uint8Array[]> { return this.engine.mempool.list(limit).map((t) => t.raw); }
  onPendingTx(fn: (raw: Uint8Array) => void): () => void { return this.engine.mempool.onAdd((t) => fn(t.raw)); }
  close(): void {
    for (const off of [...this.offs]) off();
    this.offs.clear();
    this.listeners.clear();
  }
}

// ---------------------------------------------------------------------------------------------------------
// CometBFT through its RPC

/** An error answered by CometBFT's RPC (`{code, message, data}`). */
export class CometRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data: string) {
    super(data ? `${message}: ${data}` : message);
  }
}

/** CometBFT's JSON, decoded field by field below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

const b64 = (s: string | null | undefined): Uint8Array => (s ? new Uint8Array(Buffer.from(s, 'base64')) : new Uint8Array());
const hexb = (s: string | null | undefined): Uint8Array => (s ? fromHex(s) : new Uint8Array());
const num = (s: string | number | null | undefined): number => (s === undefined || s === null || s === '' ? 0 : Number(s));

/** RFC 3339 with up to nanosecond digits → Timestamp (Go's zero time too). */
export function parseCometTime(s: string): Timestamp {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(s);
  if (!m) throw new Error(`bad CometBFT time ${JSON.stringify(s)}`);
  const ms = Date.parse(`${m[1]}Z`);
  const seconds = Math.floor(ms / 1000);
  const frac = (m[2] ?? '').padEnd(9, '0').slice(0, 9);
  return { seconds, nanos: Number(frac) };
}

function decodeBlockId(j: J): BlockID {
  return { hash: hexb(j?.hash), partSetHeader: { total: num(j?.parts?.total), hash: hexb(j?.parts?.hash) } };
}

function decodeCommit(j: J): Commit {
  return {
    height: num(j.height),
    round: num(j.round),
    blockId: decodeBlockId(j.block_id),
    signatures: (j.signatures ?? []).map((s: J) => ({
      blockIdFlag: num(s.block_id_flag) as 1 | 2 | 3,
      validatorAddress: hexb(s.validator_address),
      timestamp: parseCometTime(s.timestamp),
      signature: b64(s.signature),
    })),
  };
}

export function decodeCometBlock(j: J): Block {
  const h = j.header;
  return {
    header: {
      version: { block: num(h.version?.block), app: num(h.version?.app) },
      chainId: h.chain_id,
      height: num(h.height),
      time: parseCometTime(h.time),
      lastBlockId: decodeBlockId(h.last_block_id),
      lastCommitHash: hexb(h.last_commit_hash),
      dataHash: hexb(h.data_hash),
      validatorsHash: hexb(h.validators_hash),
      nextValidatorsHash: hexb(h.next_validators_hash),
      consensusHash: hexb(h.consensus_hash),
      appHash: hexb(h.app_hash),
      lastResultsHash: hexb(h.last_results_hash),
      evidenceHash: hexb(h.evidence_hash),
      proposerAddress: hexb(h.proposer_address),
    },
    data: { txs: (j.data?.txs ?? []).map((t: string) => b64(t)) },
    evidence: [],
    lastCommit: j.last_commit ? decodeCommit(j.last_commit) : null,
  };
}

function decodeEvents(j: J): Event[] {
  return (j ?? []).map((e: J) => ({
    type: e.type,
    attributes: (e.attributes ?? []).map((a: J) => ({ key: a.key ?? '', value: a.value ?? '', index: a.index === true })),
  }));
}

export function decodeTxResult(j: J): StoredTxResult {
  return {
    code: num(j?.code), codespace: j?.codespace ?? '', log: j?.log ?? '', info: j?.info ?? '', data: b64(j?.data),
    gasWanted: num(j?.gas_wanted), gasUsed: num(j?.gas_used), events: decodeEvents(j?.events),
  };
}

function decodeValidator(v: J): Validator {
  return { address: hexb(v.address), pubKey: b64(v.pub_key?.value), votingPower: num(v.voting_power), proposerPriority: num(v.proposer_priority) };
}

/** CometBFT's mempool rejections (errors of broadcast_tx_*) → MempoolError. */
function mempoolErrorOf(e: unknown): MempoolError | undefined {
  if (!(e instanceof CometRpcError)) return undefined;
  const d = e.data;
  if (/already exists in cache/.test(d)) return new MempoolError('in-cache', 'tx already exists in cache');
  if (/mempool is full/.test(d)) return new MempoolError('full', d);
  if (/tx too large/.test(d)) return new MempoolError('too-large', d);
  return undefined;
}

class Lru<V> {
  private readonly m = new Map<number, V>();
  constructor(private readonly max: number) {}
  get(k: number): V | undefined { return this.m.get(k); }
  set(k: number, v: V): void {
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value!);
  }
}

/** CometBFT's largest `per_page`. */
const COMET_MAX_PER_PAGE = 100;

export interface CometSourceOptions {
  /** CometBFT's RPC, e.g. `http://127.0.0.1:26657` */
  readonly rpcUrl: string;
  readonly chainId: string;
  /** how often the mempool is polled for `onPendingTx` listeners (CometBFT has no mempool event) */
  readonly mempoolPollMs?: number;
  readonly log?: (msg: string) => void;
  /**
   * The app's last committed height. CometBFT stores block H (and reports it in /status) before the app has
   * executed and committed it; `latestHeight` is the lower of the two, so a state query or a block's results
   * at the latest height are always there.
   */
  readonly appHeight?: () => number;
}

export class CometSource implements ConsensusSource {
  readonly kind = 'cometbft';
  readonly chainId: string;
  private readonly url: string;
  get rpcUrl(): string { return this.url; }
  private readonly blocks = new Lru<StoredBlock>(256);
  private readonly resultsCache = new Lru<StoredResults>(256);
  private ws: WebSocket | undefined;
  private wsId = 0;
  private closed = false;
  private readonly subs = new Map<string, Set<(data: J, events: Record<string, string[]>) => void>>();
  private readonly pendingListeners = new Set<(raw: Uint8Array) => void>();
  private pendingTimer: NodeJS.Timeout | undefined;
  /** pending txs already announced (hex hash → when), kept while in the mempool or for 10 s */
  private readonly emittedPending = new Map<string, number>();

  constructor(private readonly opts: CometSourceOptions) {
    this.url = opts.rpcUrl.replace(/\/$/, '');
    this.chainId = opts.chainId;
  }

  /** One JSON-RPC call over HTTP (URI form: `GET /method?arg=value`, values in CometBFT's URI encoding). */
  async call(method: string, params: Record<string, string | number | undefined> = {}): Promise<J> {
    const qs = Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    const res = await fetch(`${this.url}/${method}${qs ? `?${qs}` : ''}`);
    const body = await res.json() as { result?: J; error?: { code: number; message: string; data?: string } };
    if (body.error) throw new CometRpcError(body.error.code, body.error.message, body.error.data ?? '');
    return body.result;
  }

  async status(): Promise<SourceStatus> {
    const s = await this.call('status');
    const n = s.node_info;
    const ts = parseCometTime(s.sync_info.latest_block_time);
    return {
      latestHeight: num(s.sync_info.latest_block_height),
      latestBlockHash: hexb(s.sync_info.latest_block_hash),
      latestBlockTime: new Date(ts.seconds * 1000 + Math.floor(ts.nanos / 1e6)),
      earliestHeight: num(s.sync_info.earliest_block_height),
      catchingUp: s.sync_info.catching_up === true,
      nodeInfo: { nodeId: n.id, moniker: n.moniker, network: n.network, listenAddress: n.listen_addr, rpcAddress: n.other?.rpc_address ?? '', version: n.version },
    };
  }

  async latestHeight(): Promise<number> {
    const h = (await this.status()).latestHeight;
    const app = this.opts.appHeight?.();
    return app === undefined ? h : Math.min(h, app);
  }
  async earliestHeight(): Promise<number> { return Math.max(1, (await this.status()).earliestHeight); }

  /** A missing height (pruned, or not yet committed) → undefined; other errors are thrown. */
  private async maybe<T>(p: Promise<T>): Promise<T | undefined> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof CometRpcError && /height .* (must be less than or equal to|is not available|must be greater)|not found|could not find/i.test(e.data)) return undefined;
      throw e;
    }
  }

  async block(height: number): Promise<StoredBlock | undefined> {
    const c = this.blocks.get(height);
    if (c) return c;
    const r = await this.maybe(this.call('block', { height }));
    if (!r?.block) return undefined;
    // the block's size is in its meta (`blockchain`), not in `block`
    const meta = await this.call('blockchain', { minHeight: height, maxHeight: height });
    const stored: StoredBlock = { block: decodeCometBlock(r.block), blockId: decodeBlockId(r.block_id), size: num(meta?.block_metas?.[0]?.block_size) };
    this.blocks.set(height, stored);
    return stored;
  }

  async heightByHash(hash: Uint8Array): Promise<number | undefined> {
    const r = await this.maybe(this.call('block_by_hash', { hash: `0x${toHex(hash)}` }));
    return r?.block ? num(r.block.header.height) : undefined;
  }

  async results(height: number): Promise<StoredResults | undefined> {
    const c = this.resultsCache.get(height);
    if (c) return c;
    const r = await this.maybe(this.call('block_results', { height }));
    if (!r) return undefined;
    const out: StoredResults = {
      height: num(r.height),
      txResults: (r.txs_results ?? []).map(decodeTxResult),
      events: decodeEvents(r.finalize_block_events),
      validatorUpdates: (r.validator_updates ?? []).map((u: J) => ({
        pubKey: b64(u.pub_key?.Sum?.value?.ed25519 ?? u.pub_key?.ed25519 ?? u.pub_key?.value),
        power: num(u.power),
      })),
      appHash: b64(r.app_hash),
    };
    this.resultsCache.set(height, out);
    return out;
  }

  async commit(height: number): Promise<Commit | undefined> {
    const r = await this.maybe(this.call('commit', { height }));
    return r?.signed_header?.commit ? decodeCommit(r.signed_header.commit) : undefined;
  }

  async validators(height: number): Promise<Validator[] | undefined> {
    const out: Validator[] = [];
    for (let page = 1; ; page++) {
      const r = await this.maybe(this.call('validators', { height, page, per_page: COMET_MAX_PER_PAGE }));
      if (!r) return page === 1 ? undefined : out;
      out.push(...(r.validators ?? []).map(decodeValidator));
      if (out.length >= num(r.total) || (r.validators ?? []).length === 0) return out;
    }
  }

  async blockMaxGas(height?: number): Promise<number> {
    // right after a commit, CometBFT's block store may be a height ahead of its saved state, whose consensus
    // params it then cannot find ("could not find consensus params for height #H"): ask again shortly
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.call('consensus_params', height === undefined ? {} : { height });
        return num(r.consensus_params?.block?.max_gas);
      } catch (e) {
        if (attempt >= 20 || !(e instanceof CometRpcError) || !/could not find consensus params/.test(`${e.message} ${e.data}`)) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  async txByHash(hash: Uint8Array): Promise<SourceTxRef | undefined> {
    if (hash.length !== 32) return undefined;
    const r = await this.maybe(this.call('tx', { hash: `0x${toHex(hash)}` }));
    return r ? { height: num(r.height), index: num(r.index), hash } : undefined;
  }

  /**
   * Pages of any size: CometBFT caps `per_page` at 100, so a larger page is read as the 100-tx pages that
   * cover it.
   */
  private async paged<T>(method: string, query: string, page: SearchPage, key: string, map: (x: J) => T): Promise<{ total: number; items: T[] }> {
    const start = (page.page - 1) * page.perPage;
    const per = Math.min(page.perPage, COMET_MAX_PER_PAGE);
    const items: T[] = [];
    let total = 0;
    let p = Math.floor(start / per) + 1;
    let skip = start % per;
    for (;;) {
      let r: J;
      try {
        r = await this.call(method, { query: JSON.stringify(query), page: p, per_page: per, order_by: JSON.stringify(page.orderDesc ? 'desc' : 'asc') });
      } catch (e) {
        // a page past the end: CometBFT answers "page should be within [1, N] range"
        if (e instanceof CometRpcError && /page should be within/.test(e.data)) break;
        throw e;
      }
      total = num(r.total_count);
      const got: J[] = r[key] ?? [];
      items.push(...got.slice(skip).map(map));
      skip = 0;
      if (items.length >= page.perPage || got.length < per || p * per >= total) break;
      p++;
    }
    if (total === 0 && items.length === 0) {
      // the page was past the end: ask page 1 for the total
      const r = await this.call(method, { query: JSON.stringify(query), page: 1, per_page: 1, order_by: JSON.stringify('asc') });
      total = num(r.total_count);
    }
    return { total, items: items.slice(0, page.perPage) };
  }

  async searchTxs(query: string, page: SearchPage): Promise<{ total: number; txs: SourceTxRef[] }> {
    const r = await this.paged('tx_search', query, page, 'txs', (t: J) => ({ height: num(t.height), index: num(t.index), hash: hexb(t.hash) }));
    return { total: r.total, txs: r.items };
  }

  async searchBlocks(query: string, page: SearchPage): Promise<{ total: number; heights: number[] }> {
    const r = await this.paged('block_search', query, page, 'blocks', (b: J) => num(b.block.header.height));
    return { total: r.total, heights: r.items };
  }

  private checkResult(raw: Uint8Array, j: J): CheckTxResult {
    return { ...decodeTxResult(j), hash: sha256(raw) };
  }

  async broadcastSync(raw: Uint8Array): Promise<CheckTxResult> {
    try {
      const r = this.checkResult(raw, await this.call('broadcast_tx_sync', { tx: `0x${toHex(raw)}` }));
      if (r.code === 0) this.emitPending(raw, toHex(r.hash));
      return r;
    } catch (e) {
      throw mempoolErrorOf(e) ?? e;
    }
  }

  async broadcastAsync(raw: Uint8Array): Promise<MempoolError | undefined> {
    try {
      await this.call('broadcast_tx_async', { tx: `0x${toHex(raw)}` });
      return undefined;
    } catch (e) {
      const m = mempoolErrorOf(e);
      if (m) return m;
      throw e;
    }
  }

  async broadcastCommit(raw: Uint8Array, timeoutMs: number): Promise<BroadcastCommitResult> {
    // CheckTx first (as broadcast_tx_commit does), then wait for the tx through the NewBlock/Tx events
    // and the index, so the wait honours `timeoutMs` rather than CometBFT's own timeout
    const check = await this.broadcastSync(raw);
    if (check.code !== 0) return { check, timedOut: false };
    const hash = check.hash;
    const included = await new Promise<TxInclusion | undefined>((resolve) => {
      let done = false;
      const finish = (v: TxInclusion | undefined): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        off();
        resolve(v);
      };
      const look = async (): Promise<void> => {
        const ref = await this.txByHash(hash);
        if (!ref) return;
        const res = await this.results(ref.height);
        const r = res?.txResults[ref.index];
        if (r) finish({ height: ref.height, index: ref.index, result: r });
      };
      const off = this.onNewBlock(() => { void look().catch(() => undefined); });
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      void look().catch(() => undefined);
    });
    return { check, included, timedOut: !included };
  }

  // -- events over CometBFT's websocket --------------------------------------------------------------------

  private ensureWs(): void {
    if (this.ws || this.closed) return;
    const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/websocket`);
    this.ws = ws;
    ws.on('open', () => {
      for (const q of this.subs.keys()) this.sendSubscribe(q);
    });
    ws.on('message', (m) => {
      let msg: J;
      try { msg = JSON.parse(m.toString()); } catch { return; }
      const r = msg?.result;
      if (!r?.query || !r.data) return;
      for (const fn of this.subs.get(r.query) ?? []) {
        try { fn(r.data.value, r.events ?? {}); } catch (e) { this.opts.log?.(`consensus source listener: ${(e as Error).message}`); }
      }
    });
    const reconnect = (): void => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      if (this.closed || this.subs.size === 0) return;
      setTimeout(() => this.ensureWs(), 500).unref();
    };
    ws.on('close', reconnect);
    ws.on('error', (e) => { this.opts.log?.(`CometBFT websocket: ${e.message}`); });
  }

  private sendSubscribe(query: string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++this.wsId, method: 'subscribe', params: { query } }));
  }

  private listen(query: string, fn: (data: J, events: Record<string, string[]>) => void): () => void {
    let set = this.subs.get(query);
    if (!set) {
      set = new Set();
      this.subs.set(query, set);
      this.ensureWs();
      this.sendSubscribe(query);
    }
    set.add(fn);
    return () => {
      const s = this.subs.get(query);
      if (!s) return;
      s.delete(fn);
      if (s.size === 0) {
        this.subs.delete(query);
        if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++this.wsId, method: 'unsubscribe', params: { query } }));
      }
    };
  }

  onNewBlock(fn: (height: number) => void): () => void {
    return this.listen("tm.event='NewBlock'", (data) => {
      const b = data?.block;
      if (!b) return;
      fn(num(b.header.height));
    });
  }

  onTx(fn: (ref: SourceTxRef) => void): () => void {
    return this.listen("tm.event='Tx'", (data) => {
      const r = data?.TxResult;
      if (!r) return;
      fn({ height: num(r.height), index: num(r.index), hash: sha256(b64(r.tx)) });
    });
  }

  async pendingTxs(limit = COMET_MAX_PER_PAGE): Promise<Uint8Array[]> {
    const r = await this.call('unconfirmed_txs', { limit: Math.min(limit, COMET_MAX_PER_PAGE) });
    return (r.txs ?? []).map((t: string) => b64(t));
  }

  /** Tells the pending-tx listeners about `raw` once (a tx broadcast through this source, or seen by the poll). */
  private emitPending(raw: Uint8Array, hashHex = toHex(sha256(raw))): void {
    if (this.pendingListeners.size === 0 || this.emittedPending.has(hashHex)) return;
    this.emittedPending.set(hashHex, Date.now());
    for (const l of this.pendingListeners) l(raw);
  }

  onPendingTx(fn: (raw: Uint8Array) => void): () => void {
    this.pendingListeners.add(fn);
    if (!this.pendingTimer) {
      // CometBFT has no mempool event: txs broadcast through this source are announced when CheckTx admits them,
      // txs that reached the mempool another way (another node's gossip) when this poll sees them
      const poll = async (): Promise<void> => {
        const txs = await this.pendingTxs();
        const now = new Set<string>();
        for (const raw of txs) {
          const h = toHex(sha256(raw));
          now.add(h);
          this.emitPending(raw, h);
        }
        const old = Date.now() - 10_000;
        for (const [h, t] of this.emittedPending) if (!now.has(h) && t < old) this.emittedPending.delete(h);
      };
      this.pendingTimer = setInterval(() => { void poll().catch(() => undefined); }, this.opts.mempoolPollMs ?? 500);
      this.pendingTimer.unref();
    }
    return () => {
      this.pendingListeners.delete(fn);
      if (this.pendingListeners.size === 0 && this.pendingTimer) {
        clearInterval(this.pendingTimer);
        this.pendingTimer = undefined;
        this.emittedPending.clear();
      }
    };
  }

  close(): void {
    this.closed = true;
    this.subs.clear();
    if (this.pendingTimer) clearInterval(this.pendingTimer);
    this.pendingTimer = undefined;
    const ws = this.ws;
    this.ws = undefined;
    ws?.close();
  }
}
