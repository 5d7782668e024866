/**
 * EvmKeeper: params, the fee market's base fee, contract code and storage, the EVM executor, and the
 * per-block counters of the block being finalized (eth tx index, log index, gas used, logs bloom).
 */
import { Context, InfiniteGasMeter } from '@chain/app';
import type { BlockInfo } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { addToBloom, encodeReceiptBytes, ethHeaderHash, ethStateRoot, fromUtf8, keccak256, orderedTrieRoot, toHex, utf8, ETH_ZERO_HASH } from '@chain/crypto';
import type { EthHeaderFields } from '@chain/crypto';
import { prefixEnd } from '@chain/store';
import type { EvmAccountKeeper, EvmBankKeeper } from './expected-keepers.js';
import { parseEip155ChainId } from './crypto.js';
import { Executor } from './executor.js';
import type { BlockEnv, ExecutionResult, Message, EvmLog, RunBudget } from './executor.js';
import type { EvmTracer } from './tracer.js';
import { DEFAULT_EVM_PARAMS, parseParams } from './params.js';
import type { EvmParams, ParsedParams } from './params.js';
import { CodeCache } from './statedb.js';
import {
  blockHashKey, readBlockHash,
  STORE_KEY, PARAMS_KEY, PARAMS_TYPE, BASE_FEE_KEY, CODE_HASH_PREFIX, CODE_HASH_END, codeHashKey, codeKey, storageKey, storagePrefix,
} from './keys.js';

export const FEE_COLLECTOR = 'fee_collector';
/** eth_call / eth_estimateGas gas cap (Ethermint's `gas-cap` default) */
export const DEFAULT_GAS_CAP = 25_000_000n;
/** eth_call / eth_estimateGas time limit (Ethermint's `evm-timeout` default) */
export const DEFAULT_QUERY_TIMEOUT_MS = 5000;

export interface EvmKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: EvmAccountKeeper;
  readonly bankKeeper: EvmBankKeeper;
  /** module account that collects fees (and pays refunds); default `fee_collector` */
  readonly feeCollector?: string;
  /** EIP-155 chain id; default: parsed from the Cosmos chain id `<name>_<id>-<version>` */
  readonly ethChainId?: bigint;
  /** gas cap of eth_call and eth_estimateGas */
  readonly gasCap?: bigint;
  /**
   * Time limit of one eth_call / eth_estimateGas query (default 5 s, Ethermint's `evm-timeout`); such
   * queries also yield to the event loop while they run, so they never stall block production.
   */
  readonly queryTimeoutMs?: number;
  /**
   * The app hash the block being finalized starts from: the app hash of the previous block, which its CometBFT
   * header carries as `app_hash` (the composition root hands `() => app.lastAppHash`). It is the `stateRoot` of
   * the block's Ethereum header; without it the stateRoot is the zero hash.
   */
  readonly lastAppHash?: () => Uint8Array;
}

/** Counters of the block being finalized (deliver mode only), and what its Ethereum header needs. */
export interface BlockTracker {
  height: number;
  txCount: number;
  logCount: number;
  gasUsed: bigint;
  readonly bloom: Uint8Array;
  /** the base fee and the gas limit (`block_gas_limit`) of the block, as they were at its begin */
  readonly baseFee: bigint;
  readonly gasLimit: bigint;
  /** the block's Ethereum txs (signed envelopes) and their receipts' consensus encodings, in order */
  readonly txRaws: Uint8Array[];
  readonly receipts: Uint8Array[];
}

/** The Ethereum header of a finalized block, as the evm module computed it (see {@link EvmKeeper.sealBlock}). */
export interface EthBlockHeader extends EthHeaderFields {
  readonly number: bigint;
  readonly timestamp: bigint;
  /** keccak256(RLP(header)), 0x hex: what BLOCKHASH answers and the JSON-RPC serves */
  readonly hash: string;
}

/**
 * The tracing of one Ethereum tx of a replayed block (see {@link EvmKeeper.traceTxs}): its tracer, the
 * budget of its run, and the error its run was aborted with (a timeout), if any.
 */
export interface TxTracing {
  readonly tracer: EvmTracer;
  readonly budget?: RunBudget;
  error?: unknown;
}

/** The account view of the EVM (nonce = sequence, balance = bank balance of the EVM denom). */
export interface EvmAccountInfo {
  readonly nonce: bigint;
  readonly balance: bigint;
  /** undefined for accounts without code */
  readonly codeHash: Uint8Array | undefined;
}

/** A context over the same state whose store accesses are not charged (EVM gas is accounted by the EVM). */
export function unmetered(ctx: Context): Context {
  return new Context(ctx.ms, ctx.block, ctx.mode === 'query' ? 'query' : 'block', new InfiniteGasMeter(), ctx.events, ctx.minGasPrices);
}

/** The block time of `ctx` in seconds (the header's timestamp, TIMESTAMP). */
const blockSeconds = (ctx: Context): bigint => BigInt(Math.floor(ctx.block.time.getTime() / 1000));

/** Adds `data` to a 2048-bit logs bloom (the Ethereum bloom function; @chain/crypto's). */
export { addToBloom };

export class EvmKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: EvmAccountKeeper;
  readonly bank: EvmBankKeeper;
  readonly feeCollector: string;
  readonly gasCap: bigint;
  readonly queryTimeoutMs: number;
  private readonly executor: Executor;
  private readonly fixedChainId: bigint | undefined;
  private readonly lastAppHash: (() => Uint8Array) | undefined;
  private readonly chainIds = new Map<string, bigint>();
  /**
   * Counters per block execution, keyed by the BlockInfo all contexts of one FinalizeBlock (or replay)
   * share: a block replayed for tracing while another is being finalized never mixes their counters.
   */
  private readonly trackers = new WeakMap<BlockInfo, BlockTracker>();
  /** tracers of replayed blocks (same key): Ethereum tx hash → its tracing */
  private readonly tracing = new WeakMap<BlockInfo, (ethTxHash: string) => TxTracing | undefined>();
  private paramsCache: { bz: Uint8Array | undefined; params: EvmParams; parsed: ParsedParams } | undefined;

  constructor(opts: EvmKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bank = opts.bankKeeper;
    this.feeCollector = opts.feeCollector ?? FEE_COLLECTOR;
    this.gasCap = opts.gasCap ?? DEFAULT_GAS_CAP;
    this.queryTimeoutMs = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    this.fixedChainId = opts.ethChainId;
    this.lastAppHash = opts.lastAppHash;
    this.executor = new Executor({ ak: this.ak, bank: this.bank, feeCollector: this.feeCollector, codeCache: new CodeCache() });
  }

  // ---- params, chain id, base fee ----

  /** Decoded and parsed params, memoized by the stored bytes (the in-memory state hands out the same array). */
  private loadParams(ctx: Context): { params: EvmParams; parsed: ParsedParams } {
    const bz = ctx.kv(STORE_KEY).get(PARAMS_KEY);
    const c = this.paramsCache;
    if (c && c.bz === bz) return c;
    const params = bz ? this.registry.decode<EvmParams>(PARAMS_TYPE, bz) : { ...DEFAULT_EVM_PARAMS };
    const next = { bz, params, parsed: parseParams(params) };
    this.paramsCache = next;
    return next;
  }

  getParams(ctx: Context): EvmParams {
    return { ...this.loadParams(ctx).params };
  }

  setParams(ctx: Context, p: EvmParams): void {
    parseParams(p);
    ctx.kv(STORE_KEY).set(PARAMS_KEY, this.registry.encode(PARAMS_TYPE, { ...p }));
  }

  /** The params with amounts as bigints (validated). */
  params(ctx: Context): ParsedParams {
    return this.loadParams(ctx).parsed;
  }

  /** The EIP-155 chain id of the chain `ctx` runs on. */
  chainId(ctx: Context): bigint {
    if (this.fixedChainId !== undefined) return this.fixedChainId;
    let id = this.chainIds.get(ctx.block.chainId);
    if (id === undefined) {
      id = parseEip155ChainId(ctx.block.chainId);
      this.chainIds.set(ctx.block.chainId, id);
    }
    return id;
  }

  /** Base fee of the block being executed (in CheckTx and queries: of the next block). */
  getBaseFee(ctx: Context): bigint {
    const bz = ctx.kv(STORE_KEY).get(BASE_FEE_KEY);
    return bz ? BigInt(fromUtf8(bz)) : this.params(ctx).initialBaseFee;
  }

  setBaseFee(ctx: Context, fee: bigint): void {
    ctx.kv(STORE_KEY).set(BASE_FEE_KEY, utf8(fee.toString()));
  }

  // ---- accounts, code, storage ----

  getAccountInfo(ctx: Context, address: Uint8Array): EvmAccountInfo {
    return {
      nonce: this.ak.getAccount(ctx, address)?.base.sequence ?? 0n,
      balance: this.bank.getBalance(ctx, address, this.params(ctx).denom),
      codeHash: this.getCodeHash(ctx, address),
    };
  }

  getCodeHash(ctx: Context, address: Uint8Array): Uint8Array | undefined {
    return ctx.kv(STORE_KEY).get(codeHashKey(address));
  }

  getCode(ctx: Context, address: Uint8Array): Uint8Array {
    const hash = this.getCodeHash(ctx, address);
    return hash ? ctx.kv(STORE_KEY).get(codeKey(hash)) ?? new Uint8Array() : new Uint8Array();
  }

  setCode(ctx: Context, address: Uint8Array, code: Uint8Array): void {
    const store = ctx.kv(STORE_KEY);
    if (code.length === 0) { store.delete(codeHashKey(address)); return; }
    const hash = keccak256(code);
    store.set(codeKey(hash), code);
    store.set(codeHashKey(address), hash);
  }

  /** A storage slot as 32 bytes. */
  getState(ctx: Context, address: Uint8Array, slot: Uint8Array): Uint8Array {
    const out = new Uint8Array(32);
    const v = ctx.kv(STORE_KEY).get(storageKey(address, slot));
    if (v) out.set(v, 32 - v.length);
    return out;
  }

  setState(ctx: Context, address: Uint8Array, slot: Uint8Array, value: Uint8Array): void {
    let i = 0;
    while (i < value.length && value[i] === 0) i++;
    const k = storageKey(address, slot);
    if (i === value.length) ctx.kv(STORE_KEY).delete(k);
    else ctx.kv(STORE_KEY).set(k, value.slice(i));
  }

  /** Addresses with code, in address order. */
  *contracts(ctx: Context): IterableIterator<Uint8Array> {
    for (const [k] of ctx.kv(STORE_KEY).iterator(Uint8Array.of(CODE_HASH_PREFIX), CODE_HASH_END)) yield k.subarray(1);
  }

  /** Non-zero storage of an address as (slot, 32-byte value) pairs, in slot order. */
  *storage(ctx: Context, address: Uint8Array): IterableIterator<[Uint8Array, Uint8Array]> {
    const p = storagePrefix(address);
    for (const [k, v] of ctx.kv(STORE_KEY).iterator(p, prefixEnd(p))) {
      const out = new Uint8Array(32);
      out.set(v, 32 - v.length);
      yield [k.subarray(21), out];
    }
  }

  // ---- execution ----

  /**
   * The EVM's block header for `ctx`: number, time, coinbase (the proposer's 20 bytes), base fee, gas limit
   * (`block_gas_limit`; in a block being executed, the value at its begin: the gas limit of its Ethereum header).
   */
  blockEnv(ctx: Context, baseFee: bigint, params: ParsedParams): BlockEnv {
    const t = ctx.mode === 'deliver' ? this.trackers.get(ctx.block) : undefined;
    return {
      height: BigInt(ctx.block.height),
      timestamp: blockSeconds(ctx),
      coinbase: ctx.block.proposer,
      baseFee,
      gasLimit: t?.gasLimit ?? params.blockGasLimit,
    };
  }

  /**
   * Runs a message on the state of `ctx` (unmetered; writes land in ctx's store). A `budget` (queries
   * only) makes the run yield to the event loop and abort at its deadline (see Executor.run).
   */
  async execute(ctx: Context, m: Message, env?: BlockEnv, budget?: RunBudget, tracer?: EvmTracer): Promise<ExecutionResult> {
    const u = unmetered(ctx);
    const params = this.params(u);
    return this.executor.run(u, this.chainId(u), params.denom, env ?? this.blockEnv(u, this.getBaseFee(u), params), m, budget, tracer);
  }

  // ---- tracing of replayed blocks ----

  /**
   * Traces Ethereum txs of the block run whose contexts carry `block` (an App.replayBlock): each MsgEthereumTx
   * asks `select` for its tracing by tx hash. Blocks being finalized have no entry (one WeakMap lookup per tx).
   */
  traceTxs(block: BlockInfo, select: (ethTxHash: string) => TxTracing | undefined): void {
    this.tracing.set(block, select);
  }

  /** The tracing of the Ethereum tx `ethTxHash` running in `ctx`, if its block run is traced. */
  txTracing(ctx: Context, ethTxHash: string): TxTracing | undefined {
    return this.tracing.get(ctx.block)?.(ethTxHash);
  }

  /** The budget of one eth_call / eth_estimateGas query starting now. */
  queryBudget(): RunBudget {
    return { deadline: performance.now() + this.queryTimeoutMs, timeoutMs: this.queryTimeoutMs };
  }

  // ---- block counters ----

  /** Starts the counters of the block of `ctx` (BeginBlock; also when a height is finalized again). */
  startBlock(ctx: Context): BlockTracker {
    const t: BlockTracker = {
      height: ctx.block.height, txCount: 0, logCount: 0, gasUsed: 0n, bloom: new Uint8Array(256),
      baseFee: this.getBaseFee(ctx), gasLimit: this.params(ctx).blockGasLimit, txRaws: [], receipts: [],
    };
    this.trackers.set(ctx.block, t);
    return t;
  }

  /**
   * The Ethereum header of the block of `ctx` once its txs have run (EndBlock), from consensus data only, so
   * every node computes the same hash:
   *
   * | field | value |
   * | --- | --- |
   * | parentHash | the hash this keeper recorded for the previous height (zero for a chain's first block) |
   * | miner | the proposer's 20-byte consensus address |
   * | stateRoot | the app hash the block starts from (its CometBFT header's `app_hash`, `lastAppHash`) |
   * | transactionsRoot, receiptsRoot | tries of the block's Ethereum txs and receipts (`orderedTrieRoot`) |
   * | logsBloom, gasUsed | of the block's Ethereum txs |
   * | number, timestamp | height, block time in seconds |
   * | gasLimit, baseFee | `block_gas_limit` and the base fee at the block's begin (GASLIMIT and BASEFEE) |
   * | extraData | the CometBFT block hash (FinalizeBlock's `hash`) |
   */
  blockHeader(ctx: Context): EthBlockHeader {
    const t = this.blockTracker(ctx);
    const height = BigInt(ctx.block.height);
    const parent = this.blockHashAt(ctx, height - 1n);
    const fields = {
      parentHash: parent ? '0x' + toHex(parent) : ETH_ZERO_HASH,
      miner: '0x' + toHex(ctx.block.proposer.length === 20 ? ctx.block.proposer : new Uint8Array(20)),
      stateRoot: ethStateRoot(this.lastAppHash?.() ?? new Uint8Array()),
      transactionsRoot: '0x' + toHex(orderedTrieRoot(t.txRaws)),
      receiptsRoot: '0x' + toHex(orderedTrieRoot(t.receipts)),
      logsBloom: '0x' + toHex(t.bloom),
      number: height,
      gasLimit: t.gasLimit,
      gasUsed: t.gasUsed,
      timestamp: blockSeconds(ctx),
      extraData: '0x' + toHex(ctx.block.hash ?? new Uint8Array()),
      baseFee: t.baseFee,
    };
    return { ...fields, hash: ethHeaderHash(fields) };
  }

  /** Computes the block's Ethereum header (EndBlock) and keeps its hash for BLOCKHASH; returns the header. */
  sealBlock(ctx: Context): EthBlockHeader {
    const header = this.blockHeader(ctx);
    this.recordBlockHash(ctx, ctx.block.height, Buffer.from(header.hash.slice(2), 'hex'));
    return header;
  }

  /** Keeps the hash of block `height` in state for BLOCKHASH (see keys.ts: a ring of 8191 blocks). */
  recordBlockHash(ctx: Context, height: number, hash: Uint8Array): void {
    const v = new Uint8Array(40);
    new DataView(v.buffer).setBigUint64(0, BigInt(height));
    v.set(hash, 8);
    ctx.kv(STORE_KEY).set(blockHashKey(BigInt(height)), v);
  }

  /** The hash of block `height` kept in state, if it is within the kept window. */
  blockHashAt(ctx: Context, height: bigint): Uint8Array | undefined {
    return readBlockHash(ctx.kv(STORE_KEY), height);
  }

  /** The counters of the block run `ctx` belongs to. */
  blockTracker(ctx: Context): BlockTracker {
    return this.trackers.get(ctx.block) ?? this.startBlock(ctx);
  }

  /**
   * Records an executed eth tx of the block (its signed envelope, type, success, gas used and logs, for the
   * header's roots, bloom and gas used); returns its index and the index of its first log.
   */
  trackTx(ctx: Context, tx: { readonly raw: Uint8Array; readonly type: number }, success: boolean, gasUsed: bigint, logs: readonly EvmLog[]): { txIndex: number; firstLogIndex: number } {
    if (ctx.mode !== 'deliver') return { txIndex: 0, firstLogIndex: 0 };
    const t = this.blockTracker(ctx);
    const txIndex = t.txCount++;
    const firstLogIndex = t.logCount;
    t.logCount += logs.length;
    t.gasUsed += gasUsed;
    // the receipt's bloom, also OR-ed into the block's
    const bloom = new Uint8Array(256);
    for (const [address, topics] of logs) {
      addToBloom(bloom, address);
      for (const topic of topics) addToBloom(bloom, topic);
    }
    for (let i = 0; i < 256; i++) t.bloom[i]! |= bloom[i]!;
    t.txRaws.push(tx.raw);
    t.receipts.push(encodeReceiptBytes(tx.type, success, t.gasUsed, bloom, logs));
    return { txIndex, firstLogIndex };
  }
}
