/**
 * The data layer of the Ethereum JSON-RPC server: block tags → heights, CometBFT blocks and their
 * results → Ethereum blocks, txs, receipts and logs (the header the chain's EVM declared in the block's
 * `ethereum_block` event with `block_bloom`'s bloom; txs, receipts and logs rebuilt from the `ethereum_tx` /
 * `tx_log` events; cached per height since committed blocks never change), Ethereum block hash → height, the
 * eth-hash → tx lookup through the tx index, and state queries at a height.
 */
import type { ProtoObject } from '@chain/codec';
import type { StoredBlock, StoredResults } from '@chain/consensus';
import type { Event } from '@chain/events';
import { decodeTx } from '@chain/tx';
import type { App } from '@chain/app';
import type { ConsensusSource } from '../consensus-source.js';
import type { EthTxView as EthTx, EthereumExecution } from './adapter.js';
import { headerHash } from './header.js';
import type { EthHeaderFields } from './header.js';
import { InvalidParams, ServerError, hex, parseBlockParam, parseHash } from './util.js';
import type { BlockParam } from './util.js';

export interface LogJSON {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  transactionHash: string;
  transactionIndex: number;
  logIndex: number;
  removed: boolean;
}

export interface EthTxInfo {
  readonly tx: EthTx;
  readonly height: number;
  /** the Ethereum block hash (keccak256(RLP(header))) */
  readonly blockHash: string;
  readonly timestamp: number;
  /** index among the block's Ethereum txs */
  readonly index: number;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  /** vm error when the execution failed (status 0) */
  readonly failed: string | undefined;
  readonly logs: LogJSON[];
  readonly contractAddress: string | undefined;
}

export interface EthBlock {
  readonly height: number;
  /** keccak256(RLP(header)) of the header the JSON-RPC serves (header.ts) */
  readonly hash: string;
  /** the Ethereum hash of the previous block */
  readonly parentHash: string;
  /** the CometBFT block hash (also the header's extraData) */
  readonly cometHash: string;
  readonly timestamp: number;
  readonly miner: string;
  readonly stateRoot: string;
  readonly transactionsRoot: string;
  readonly receiptsRoot: string;
  readonly logsBloom: string;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly baseFee: bigint;
  readonly size: number;
  readonly txs: EthTxInfo[];
}

export interface BackendOptions {
  readonly source: ConsensusSource;
  readonly app: App;
  /** the chain's EVM (tx decoding, wrapping, tracing, its query service) */
  readonly execution: EthereumExecution;
  readonly minGasPrice: bigint;
  /**
   * A durable table of the Ethereum block hashes already read (node-local data, like a tx index): without one,
   * they are kept in memory and a restart reads the stored blocks' results again on the first lookup by hash.
   */
  readonly hashStore?: EthHashStore;
}

/**
 * Height ↔ Ethereum block hash pairs kept across restarts. Each hash is in its block's results (the
 * `ethereum_block` event), so the table is an index any node can rebuild; reads are synchronous.
 */
export interface EthHashStore {
  hashAt(height: number): string | undefined;
  heightOf(hash: string): number | undefined;
  /** records a pair (may be written in the background; a lost write is recomputed) */
  put(height: number, hash: string): void;
  /** the height up to which every stored block's hash has been recorded (0: none) */
  scannedTo(): number;
  setScannedTo(height: number): void;
}

/** In-memory pairs kept by a backend with no durable table, and a bounded cache in front of one. */
const MEMORY_PAIRS_WITH_STORE = 8192;

const EMPTY_BLOOM = '0x' + '00'.repeat(256);

function attr(e: Event, key: string): string | undefined {
  return e.attributes.find((a) => a.key === key)?.value;
}

export class Backend {
  readonly source: ConsensusSource;
  readonly app: App;
  readonly execution: EthereumExecution;
  readonly chainId: bigint;
  readonly minGasPrice: bigint;
  private readonly cache = new Map<number, EthBlock>();
  private readonly inflight = new Map<number, Promise<EthBlock | undefined>>();
  /** height → Ethereum hash and back: every block built since the start, or the recent ones in front of the store */
  private readonly ethHashes = new Map<number, string>();
  private readonly heights = new Map<string, number>();
  private readonly hashStore: EthHashStore | undefined;
  private scannedTo = 0;
  private offFollow: (() => void) | undefined;
  private scanning: Promise<void> | undefined;

  constructor(opts: BackendOptions) {
    this.source = opts.source;
    this.app = opts.app;
    this.execution = opts.execution;
    this.chainId = opts.execution.chainId(opts.source.chainId);
    this.minGasPrice = opts.minGasPrice;
    this.hashStore = opts.hashStore;
    this.scannedTo = this.hashStore?.scannedTo() ?? 0;
  }

  /**
   * Computes the Ethereum hash of each new block as it is committed (so the table stays current and a lookup
   * never has to walk the chain); returns the stop function. Started by the JSON-RPC server.
   */
  follow(): () => void {
    if (!this.offFollow) {
      let chain = Promise.resolve();
      const off = this.source.onNewBlock(() => {
        chain = chain.then(() => this.scanToHead()).catch(() => undefined);
      });
      this.offFollow = () => { off(); this.offFollow = undefined; };
    }
    return this.offFollow;
  }

  private hashAt(height: number): string | undefined {
    return this.ethHashes.get(height) ?? this.hashStore?.hashAt(height);
  }

  private heightOf(hash: string): number | undefined {
    return this.heights.get(hash) ?? this.hashStore?.heightOf(hash);
  }

  /** the latest committed height (asks the consensus source) */
  latest(): Promise<number> {
    return this.source.latestHeight();
  }

  /**
   * A block parameter → height (geth's semantics). `state`: the state of that block is wanted, so a height
   * beyond the head is geth's `header not found` and an unknown hash `header for hash not found` (-32000);
   * otherwise both are `undefined` (the caller answers null). `hashes`: a plain 32-byte hash is a block hash
   * (BlockNumberOrHash); else it is read as a number (BlockNumber: `hex number > 64 bits`). `arg`: the param's
   * index, for geth's `invalid argument <arg>: …` messages. Tags: latest, pending, safe and finalized are the
   * latest committed block (instant finality; the pending state is the latest state), earliest the first
   * stored block.
   */
  async resolveBlock(v: unknown, o: { state?: boolean; hashes?: boolean; arg?: number } = {}): Promise<number | undefined> {
    return this.resolveParam(parseBlockParam(v, o.arg ?? 0, o.hashes ?? true), o.state ?? false);
  }

  async resolveParam(p: BlockParam, state: boolean): Promise<number | undefined> {
    if (p.kind === 'tag') return p.tag === 'earliest' ? this.source.earliestHeight() : this.latest();
    if (p.kind === 'hash') {
      const h = await this.heightByEthHash(p.hash);
      if (h === undefined && state) throw ServerError('header for hash not found');
      return h;
    }
    const latest = await this.latest();
    if (p.number > BigInt(latest)) {
      if (state) throw ServerError('header not found');
      return undefined;
    }
    return Number(p.number);
  }

  /** resolveBlock for the callers that predate it: hashes allowed. */
  resolveTag(tag: unknown, forState = false): Promise<number | undefined> {
    return this.resolveBlock(tag, { state: forState, hashes: true, arg: 1 });
  }

  /** A query of the EVM's query service (`/chain.evm.v1.Query/<method>`) at the height of a block tag. */
  async query(method: string, req: ProtoObject, tag: unknown, arg = 1): Promise<ProtoObject> {
    const h = await this.resolveBlock(tag, { state: true, hashes: true, arg });
    return this.queryAt(method, req, h);
  }

  /** A query of the EVM's query service at a height (latest when undefined). */
  async queryAt(method: string, req: ProtoObject, h: number | undefined): Promise<ProtoObject> {
    try {
      return await this.app.runQuery(`${this.execution.queryService}/${method}`, req, h);
    } catch (e) {
      throw ServerError((e as Error).message);
    }
  }

  /** The evm param allow_unprotected_txs at the latest height. */
  async unprotectedAllowed(): Promise<boolean> {
    const p = (await this.app.runQuery(`${this.execution.queryService}/Params`, {})).params as { allow_unprotected_txs?: boolean };
    return p.allow_unprotected_txs === true;
  }

  async blockByHeight(height: number): Promise<EthBlock | undefined> {
    const c = this.cache.get(height);
    if (c) return c;
    let p = this.inflight.get(height);
    if (!p) {
      p = this.load(height).finally(() => this.inflight.delete(height));
      this.inflight.set(height, p);
    }
    return p;
  }

  private async load(height: number): Promise<EthBlock | undefined> {
    const [b, r] = await Promise.all([this.source.block(height), this.source.results(height)]);
    if (!b || !r) return undefined;
    const eb = this.build(b, r);
    this.remember(eb.height, eb.hash);
    this.cache.set(height, eb);
    if (this.cache.size > 256) this.cache.delete(this.cache.keys().next().value!);
    return eb;
  }

  private remember(height: number, hash: string): void {
    if (this.ethHashes.has(height)) return;
    this.ethHashes.set(height, hash);
    this.heights.set(hash, height);
    if (this.hashStore) {
      if (this.hashStore.hashAt(height) !== hash) this.hashStore.put(height, hash);
      // in front of a durable table the maps are a bounded cache (oldest entries out)
      if (this.ethHashes.size > MEMORY_PAIRS_WITH_STORE) {
        const [h, old] = this.ethHashes.entries().next().value!;
        this.ethHashes.delete(h);
        this.heights.delete(old);
      }
    }
  }

  /**
   * The height of an Ethereum block hash: from the map the backend fills with every block it builds, else
   * after building every stored block not recorded yet, up to the head (done once per height, so after a
   * restart without a durable table the first lookup of an unknown hash rebuilds the map from the results).
   */
  async heightByEthHash(hash: string): Promise<number | undefined> {
    const h = this.heightOf(hash);
    if (h !== undefined) return h;
    await this.scanToHead();
    return this.heightOf(hash);
  }

  /** Builds (reads the hash of) every stored block not recorded yet, up to the head; one scan at a time. */
  private scanToHead(): Promise<void> {
    return this.scanning ?? (this.scanning = this.scan().finally(() => { this.scanning = undefined; }));
  }

  private async scan(): Promise<void> {
    const latest = await this.latest();
    const earliest = await this.source.earliestHeight();
    for (let k = Math.max(earliest, this.scannedTo + 1); k <= latest; k++) {
      if (this.hashAt(k) === undefined) await this.recordHash(k);
      this.scannedTo = k;
      if (k % 1000 === 0 || k === latest) this.hashStore?.setScannedTo(k);
    }
  }

  async blockByHash(hash: unknown): Promise<EthBlock | undefined> {
    const h = await this.heightByEthHash(parseHash(hash, 'block hash'));
    return h === undefined ? undefined : this.blockByHeight(h);
  }

  /**
   * The Ethereum header of a stored block: the one the chain's EVM computed in consensus and declared in the block's
   * `ethereum_block` event (every varying field; the bloom is `block_bloom`'s), checked to hash to the declared hash.
   */
  private header(b: StoredBlock, r: StoredResults): { fields: EthHeaderFields; hash: string } {
    const height = b.block.header.height;
    const cometHash = hex(b.blockId.hash);
    let bloom = EMPTY_BLOOM;
    let head: Event | undefined;
    for (const e of r.events) {
      if (e.type === 'block_bloom') bloom = attr(e, 'bloom') ?? bloom;
      if (e.type === 'ethereum_block') head = e;
    }
    if (!head) throw ServerError(`block ${height} has no Ethereum header (no ethereum_block event)`);
    const field = (k: string): string => {
      const v = attr(head!, k);
      if (v === undefined) throw ServerError(`block ${height}: ethereum_block has no ${k}`);
      return v;
    };
    const fields = {
      parentHash: field('parent_hash'),
      miner: field('miner'),
      stateRoot: field('state_root'),
      transactionsRoot: field('transactions_root'),
      receiptsRoot: field('receipts_root'),
      logsBloom: bloom,
      number: BigInt(field('number')),
      gasLimit: BigInt(field('gas_limit')),
      gasUsed: BigInt(field('gas_used')),
      timestamp: BigInt(field('timestamp')),
      extraData: field('extra_data'),
      baseFee: BigInt(field('base_fee')),
    };
    const hash = headerHash(fields);
    if (hash !== field('hash') || fields.number !== BigInt(height) || fields.extraData !== cometHash) {
      throw ServerError(`block ${height}: the ethereum_block header does not hash to its hash ${field('hash')} (${hash})`);
    }
    return { fields, hash };
  }

  /**
   * Records the Ethereum hash of a stored block from its header alone (what following the chain needs: no tx of the
   * block decoded, no receipt rebuilt; `blockByHeight` builds the rest when asked).
   */
  private async recordHash(height: number): Promise<void> {
    const [b, r] = await Promise.all([this.source.block(height), this.source.results(height)]);
    if (!b || !r) return;
    this.remember(height, this.header(b, r).hash);
  }

  /**
   * Builds the Ethereum view of a committed block from a stored block and results: its header is the one the
   * chain's EVM computed in consensus and declared in the block's `ethereum_block` event (every varying field; the
   * bloom is `block_bloom`'s), checked to hash to the declared hash (keccak256(RLP(header))); the txs, receipts and
   * logs are rebuilt from the txs and their `ethereum_tx` / `tx_log` events.
   */
  build(b: StoredBlock, r: StoredResults): EthBlock {
    const height = b.block.header.height;
    const cometHash = hex(b.blockId.hash);
    const { fields, hash } = this.header(b, r);
    const timestamp = Number(fields.timestamp);
    const baseFee = fields.baseFee;
    let head: Event | undefined;
    type Partial = Omit<EthTxInfo, 'blockHash'>;
    const parts: Partial[] = [];
    let cumulative = 0n;
    for (let i = 0; i < b.block.data.txs.length; i++) {
      const res = r.txResults[i];
      if (!res || res.code !== 0) continue;
      const ethEvents = res.events.filter((e) => e.type === 'ethereum_tx');
      if (ethEvents.length === 0) continue;
      let raws: Uint8Array[];
      try {
        raws = this.execution.ethereumTxsOf(decodeTx(this.app.registry, b.block.data.txs[i]!).msgs);
      } catch {
        continue;
      }
      const logs: LogJSON[] = [];
      for (const e of res.events) {
        if (e.type !== 'tx_log') continue;
        for (const a of e.attributes) if (a.key === 'txLog') logs.push(JSON.parse(a.value) as LogJSON);
      }
      for (const raw of raws) {
        let tx: EthTx;
        // txs in blocks passed the ante: unprotected ones were allowed then
        try { tx = this.execution.decodeTx(raw, this.chainId, { allowUnprotected: true }); } catch { continue; }
        const ev = ethEvents.find((e) => attr(e, 'ethereumTxHash') === tx.hashHex);
        if (!ev) continue;
        const gasUsed = BigInt(attr(ev, 'txGasUsed') ?? '0');
        cumulative += gasUsed;
        const contract = attr(ev, 'contractAddress');
        parts.push({
          tx, height, timestamp,
          index: parts.length,
          gasUsed,
          cumulativeGasUsed: cumulative,
          effectiveGasPrice: this.execution.effectiveGasPrice(tx, baseFee),
          failed: attr(ev, 'ethereumTxFailed'),
          logs: logs.filter((l) => l.transactionHash === tx.hashHex),
          contractAddress: contract ? contract.toLowerCase() : undefined,
        });
      }
    }
    return {
      ...fields,
      height,
      hash,
      cometHash,
      timestamp,
      size: b.size,
      txs: parts.map((t) => ({ ...t, blockHash: hash })),
    };
  }

  /** A committed Ethereum tx by its hash, through the tx index event `ethereum_tx.ethereumTxHash`. */
  async txByHash(hash: unknown): Promise<{ block: EthBlock; tx: EthTxInfo } | undefined> {
    const h = parseHash(hash, 'transaction hash');
    const found = await this.source.searchTxs(`ethereum_tx.ethereumTxHash='${h}'`, { page: 1, perPage: 1, orderDesc: false });
    const ref = found.txs[0];
    if (!ref) return undefined;
    const block = await this.blockByHeight(ref.height);
    const tx = block?.txs.find((t) => t.tx.hashHex === h);
    return block && tx ? { block, tx } : undefined;
  }

  /** Ethereum txs waiting in the mempool, in arrival order. */
  async pendingTxs(): Promise<EthTx[]> {
    const out: EthTx[] = [];
    for (const raw of await this.source.pendingTxs()) {
      const t = this.ethTxsOf(raw);
      out.push(...t);
    }
    return out;
  }

  ethTxsOf(cosmosTx: Uint8Array): EthTx[] {
    try {
      return this.execution.ethereumTxsOf(decodeTx(this.app.registry, cosmosTx).msgs).map((raw) => this.execution.decodeTx(raw, this.chainId, { allowUnprotected: true }));
    } catch {
      return [];
    }
  }

  /** Height range of a log query, checked against the caps. */
  async logRange(from: unknown, to: unknown, rangeCap: number): Promise<[number, number]> {
    if (from === 'pending' || to === 'pending') throw InvalidParams('pending logs are not supported');
    const lo = (await this.resolveBlock(from ?? 'latest', { hashes: false })) ?? Infinity;
    const hi = (await this.resolveBlock(to ?? 'latest', { hashes: false })) ?? Infinity;
    if (hi === Infinity || lo === Infinity) throw InvalidParams('block range extends beyond current head block');
    if (lo > hi) throw InvalidParams('invalid block range params');
    if (hi - lo >= rangeCap) throw ServerError(`maximum [from, to] blocks distance: ${rangeCap}`);
    return [lo, hi];
  }
}
