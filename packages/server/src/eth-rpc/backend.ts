/**
 * The data layer of the Ethereum JSON-RPC server: block tags → heights, CometBFT blocks and their
 * results → Ethereum blocks, txs, receipts and logs (rebuilt from the `ethereum_tx` / `tx_log` /
 * `fee_market` / `block_gas` / `block_bloom` events, cached per height since committed blocks never
 * change), the eth-hash → tx lookup through the tx index, and state queries at a height.
 */
import type { ProtoObject } from '@chain/codec';
import type { StoredBlock, StoredResults } from '@chain/consensus';
import type { Event } from '@chain/events';
import { keccak256 } from '@chain/crypto';
import { decodeTx } from '@chain/tx';
import type { App } from '@chain/app';
import type { ConsensusSource } from '../consensus-source.js';
import type { EthTxView as EthTx, EthereumExecution } from './adapter.js';
import { encodeReceipt, orderedTrieRoot } from './trie.js';
import { InvalidParams, ServerError, ZERO_HASH, hex, parseHash, parseQty } from './util.js';

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
  readonly hash: string;
  readonly parentHash: string;
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
}

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
  private blockGasLimit: bigint | undefined;

  constructor(opts: BackendOptions) {
    this.source = opts.source;
    this.app = opts.app;
    this.execution = opts.execution;
    this.chainId = opts.execution.chainId(opts.source.chainId);
    this.minGasPrice = opts.minGasPrice;
  }

  /** the latest committed height (asks the consensus source) */
  latest(): Promise<number> {
    return this.source.latestHeight();
  }

  /** A block tag or number (or an EIP-1898 object) → height; undefined for a future height. */
  async resolveTag(tag: unknown, forState = false): Promise<number | undefined> {
    if (tag === undefined || tag === null || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return this.latest();
    if (tag === 'earliest') return this.source.earliestHeight();
    if (typeof tag === 'object') {
      // geth's BlockNumberOrHash: exactly one of blockNumber and blockHash
      if (Array.isArray(tag)) throw InvalidParams('invalid block number or hash: expected a string or an object');
      const o = tag as { blockNumber?: unknown; blockHash?: unknown };
      if (o.blockHash !== undefined && o.blockNumber !== undefined) throw InvalidParams('cannot specify both BlockHash and BlockNumber, choose one or the other');
      if (o.blockHash === undefined && (o.blockNumber === undefined || o.blockNumber === null)) throw InvalidParams('invalid arguments; neither block nor hash specified');
      if (o.blockHash !== undefined) {
        const h = await this.source.heightByHash(Buffer.from(parseHash(o.blockHash, 'blockHash').slice(2), 'hex'));
        if (h === undefined) throw ServerError(`header for hash not found`);
        return h;
      }
      return this.resolveTag(o.blockNumber, forState);
    }
    const n = Number(parseQty(tag, 'block number'));
    const latest = await this.latest();
    if (n > latest) {
      if (forState) throw ServerError(`header not found: block ${n} is beyond the current head ${latest}`);
      return undefined;
    }
    return n;
  }

  /** A query of the EVM's query service (`/chain.evm.v1.Query/<method>`) at the height of a block tag. */
  async query(method: string, req: ProtoObject, tag: unknown): Promise<ProtoObject> {
    const h = await this.resolveTag(tag, true);
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

  async gasLimit(): Promise<bigint> {
    if (this.blockGasLimit === undefined) {
      const maxGas = await this.source.blockMaxGas();
      if (maxGas > 0) this.blockGasLimit = BigInt(maxGas);
      else {
        const p = (await this.app.runQuery(`${this.execution.queryService}/Params`, {})).params as { block_gas_limit?: bigint | number | string };
        this.blockGasLimit = BigInt(p.block_gas_limit ?? 30_000_000);
      }
    }
    return this.blockGasLimit;
  }

  async blockByHeight(height: number): Promise<EthBlock | undefined> {
    const c = this.cache.get(height);
    if (c) return c;
    const [b, r] = await Promise.all([this.source.block(height), this.source.results(height)]);
    if (!b || !r) return undefined;
    const eb = await this.build(b, r);
    this.cache.set(height, eb);
    if (this.cache.size > 256) this.cache.delete(this.cache.keys().next().value!);
    return eb;
  }

  async blockByHash(hash: unknown): Promise<EthBlock | undefined> {
    const h = await this.source.heightByHash(Buffer.from(parseHash(hash, 'block hash').slice(2), 'hex'));
    return h === undefined ? undefined : this.blockByHeight(h);
  }

  /** Builds the Ethereum view of a committed block from a stored block and results (also used for new blocks). */
  async build(b: StoredBlock, r: StoredResults): Promise<EthBlock> {
    const header = b.block.header;
    const height = header.height;
    const blockHash = hex(b.blockId.hash);
    const timestamp = header.time.seconds;
    let baseFee = 0n;
    let bloom = EMPTY_BLOOM;
    let blockGas: bigint | undefined;
    for (const e of r.events) {
      if (e.type === 'fee_market') baseFee = BigInt(attr(e, 'base_fee') ?? '0');
      if (e.type === 'block_bloom') bloom = attr(e, 'bloom') ?? bloom;
      if (e.type === 'block_gas') blockGas = BigInt(attr(e, 'amount') ?? '0');
    }
    const txs: EthTxInfo[] = [];
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
        txs.push({
          tx, height, blockHash, timestamp,
          index: txs.length,
          gasUsed,
          cumulativeGasUsed: cumulative,
          effectiveGasPrice: this.execution.effectiveGasPrice(tx, baseFee),
          failed: attr(ev, 'ethereumTxFailed'),
          logs: logs.filter((l) => l.transactionHash === tx.hashHex),
          contractAddress: contract ? contract.toLowerCase() : undefined,
        });
      }
    }
    // Ethereum's trie roots over the block's Ethereum txs and their receipts (Cosmos txs are not in them)
    const txRoot = hex(orderedTrieRoot(txs.map((t) => t.tx.raw)));
    const rcRoot = hex(orderedTrieRoot(txs.map((t) => encodeReceipt(t.tx.type, !t.failed, t.cumulativeGasUsed, t.logs))));
    return {
      height,
      hash: blockHash,
      parentHash: header.lastBlockId.hash.length === 32 ? hex(header.lastBlockId.hash) : ZERO_HASH,
      timestamp,
      miner: hex(header.proposerAddress),
      // the app hash in header H commits to the state after block H-1 (32 bytes: sha256)
      stateRoot: header.appHash.length === 32 ? hex(header.appHash) : header.appHash.length === 0 ? ZERO_HASH : hex(keccak256(header.appHash)),
      transactionsRoot: txRoot,
      receiptsRoot: rcRoot,
      logsBloom: bloom,
      gasLimit: await this.gasLimit(),
      gasUsed: blockGas ?? cumulative,
      baseFee,
      size: b.size,
      txs,
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
    const lo = (await this.resolveTag(from ?? 'latest')) ?? Infinity;
    const hi = (await this.resolveTag(to ?? 'latest')) ?? Infinity;
    if (hi === Infinity || lo === Infinity) throw InvalidParams('block range extends beyond current head block');
    if (lo > hi) throw InvalidParams('invalid block range params');
    if (hi - lo >= rangeCap) throw ServerError(`maximum [from, to] blocks distance: ${rangeCap}`);
    return [lo, hi];
  }
}
