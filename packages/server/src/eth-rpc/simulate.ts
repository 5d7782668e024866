/**
 * eth_simulateV1 (geth's `BlockChainAPI.SimulateV1`): the request is parsed here and run by the chain's EVM
 * (`EthereumExecution.simulateV1`, on the same budgeted lane as eth_call); the Ethereum view of each simulated
 * block is built here as geth's `simBlockResult` marshals it: a post-merge Prague header whose hash is
 * keccak256(RLP(header)) (header.ts) with the simulated number, time, gas limit, gas used, fee recipient,
 * base fee and prevRandao (mixHash), `extraData` empty, the roots of its unsigned txs and receipts (trie.ts),
 * and `calls` with each call's returnData, logs (with the block's hash), gasUsed, maxUsedGas, status and error.
 * The state root of a simulated block is the zero hash: no commitment of the simulated state is computed.
 */
import type { EthSimulateCall, EthSimulateRequest, EthSimulatedBlock } from './adapter.js';
import { unsignedTx, accessListParam, blobHashesParam } from './eth.js';
import { EMPTY_REQUESTS_HASH, ZERO_NONCE, encodeHeader } from './header.js';
import { keccak256 } from '@chain/crypto';
import { encodeReceipt, logsBloom, orderedTrieRoot } from './trie.js';
import type { Handler } from './types.js';
import {
  EMPTY_ROOT, EMPTY_UNCLES, InvalidParams, MethodNotFound, RpcError, ServerError, ZERO_HASH, hex, parseAddr, parseData, parseQty, qty,
} from './util.js';

/** geth's limits (checked before the state is looked up) */
const MAX_BLOCKS = 256;
const MAX_CALLS_PER_BLOCK = 5000;
const MAX_TOTAL_CALLS = 10000;
/** execution-apis: client limit exceeded */
const CLIENT_LIMIT_EXCEEDED = -38026;

const given = (v: unknown): boolean => v !== undefined && v !== null;

/** A JSON object's field by Go's case-insensitive matching. */
function field(o: Record<string, unknown>, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw InvalidParams(`invalid argument 0: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type ${what}`);
  return v as Record<string, unknown>;
}

/** One call object (geth's TransactionArgs). */
function parseCall(v: unknown): EthSimulateCall {
  const c = object(v, 'ethapi.TransactionArgs');
  const q = (k: string): bigint | undefined => (given(c[k]) ? parseQty(c[k], k) : undefined);
  const data = given(c.input) ? c.input : c.data;
  return {
    from: given(c.from) ? parseAddr(c.from, 'from') : undefined,
    to: given(c.to) ? parseAddr(c.to, 'to') : undefined,
    input: given(data) ? parseData(data, 'input') : undefined,
    value: q('value'),
    gas: q('gas'),
    gasPrice: q('gasPrice'),
    maxFeePerGas: q('maxFeePerGas'),
    maxPriorityFeePerGas: q('maxPriorityFeePerGas'),
    nonce: q('nonce'),
    chainId: q('chainId'),
    accessList: given(c.accessList) ? accessListParam(c.accessList) : undefined,
    blobVersionedHashes: given(c.blobVersionedHashes) ? blobHashesParam(c.blobVersionedHashes) : undefined,
    maxFeePerBlobGas: q('maxFeePerBlobGas'),
  };
}


/** Size of the RLP header of a list / string with a payload of `len` bytes. */
function rlpPrefix(len: number): number {
  if (len < 56) return 1;
  let n = 0;
  for (let x = len; x > 0; x = Math.floor(x / 256)) n++;
  return 1 + n;
}

const bytes = (h: string): Uint8Array => Buffer.from(h.slice(2), 'hex');

/** The JSON of one simulated block (geth's RPCMarshalBlock + `calls`) and its hash. */
function sealBlock(b: EthSimulatedBlock, fullTx: boolean): { hash: string; json: Record<string, unknown> } {
  const txs = b.txs.map((t) => unsignedTx({
    type: t.type, chainId: t.chainId, nonce: t.nonce, gas: t.gas, gasPrice: t.gasPrice, maxFee: t.maxFeePerGas, tip: t.maxPriorityFeePerGas,
    to: t.to, value: t.value, input: t.input, accessList: t.accessList.map((e) => ({ address: e.address, storageKeys: [...e.storageKeys] })),
    maxFeePerBlobGas: t.maxFeePerBlobGas, blobVersionedHashes: t.blobVersionedHashes,
  }));
  const raws = txs.map((t) => bytes(t.raw));
  const receiptLogs = b.calls.map((c) => c.logs.filter((l) => !l.transfer));
  const receipts = b.calls.map((c, i) => encodeReceipt(b.txs[i]!.type, c.status === 1, c.cumulativeGasUsed, receiptLogs[i]!));
  const transactionsRoot = raws.length === 0 ? EMPTY_ROOT : hex(orderedTrieRoot(raws));
  const receiptsRoot = raws.length === 0 ? EMPTY_ROOT : hex(orderedTrieRoot(receipts));
  const bloom = hex(logsBloom(receiptLogs.flat()));
  const header = {
    parentHash: b.parentHash, miner: b.miner, stateRoot: ZERO_HASH, transactionsRoot, receiptsRoot, logsBloom: bloom,
    number: b.number, gasLimit: b.gasLimit, gasUsed: b.gasUsed, timestamp: b.timestamp, extraData: '0x', baseFee: b.baseFee, mixHash: b.prevRandao,
    blobGasUsed: b.blobGasUsed, excessBlobGas: b.excessBlobGas,
  };
  const encodedHeader = encodeHeader(header);
  const hash = hex(keccak256(encodedHeader));
  // the block's RLP size: [header, txs (typed envelopes as strings), uncles [], withdrawals []]
  const txsPayload = raws.reduce((s, r, i) => s + (b.txs[i]!.type === 0 ? r.length : rlpPrefix(r.length) + r.length), 0);
  const encodedHeaderLen = encodedHeader.length;
  const payload = encodedHeaderLen + rlpPrefix(txsPayload) + txsPayload + 1 + 1;
  const size = rlpPrefix(payload) + payload;
  const hashes = txs.map((t) => String(t.tx.hash));
  const transactions = fullTx
    ? b.txs.map((t, i) => {
      const j: Record<string, unknown> = {
        blockHash: hash, blockNumber: qty(b.number), blockTimestamp: qty(b.timestamp), transactionIndex: qty(i), from: t.from,
        ...txs[i]!.tx,
      };
      // a tx in a block shows the price it paid
      j.gasPrice = qty(t.gasPrice);
      return j;
    })
    : hashes;
  const calls = b.calls.map((c, i) => {
    const out: Record<string, unknown> = {
      returnData: hex(c.returnData),
      logs: c.logs.map((l) => ({
        address: l.address, topics: l.topics, data: l.data, blockNumber: qty(b.number), transactionHash: hashes[i],
        transactionIndex: qty(i), blockHash: hash, blockTimestamp: qty(b.timestamp), logIndex: qty(l.logIndex), removed: false,
      })),
      gasUsed: qty(c.gasUsed),
      maxUsedGas: qty(c.maxUsedGas),
      status: qty(c.status),
    };
    if (c.error) out.error = { message: c.error.message, code: c.error.code, ...(c.error.data !== undefined ? { data: c.error.data } : {}) };
    return out;
  });
  return {
    hash,
    json: {
      baseFeePerGas: qty(b.baseFee),
      blobGasUsed: qty(b.blobGasUsed),
      calls,
      difficulty: '0x0',
      excessBlobGas: qty(b.excessBlobGas),
      extraData: '0x',
      gasLimit: qty(b.gasLimit),
      gasUsed: qty(b.gasUsed),
      hash,
      logsBloom: bloom,
      miner: b.miner,
      mixHash: b.prevRandao,
      nonce: ZERO_NONCE,
      number: qty(b.number),
      parentBeaconBlockRoot: ZERO_HASH,
      parentHash: b.parentHash,
      receiptsRoot,
      requestsHash: EMPTY_REQUESTS_HASH,
      sha3Uncles: EMPTY_UNCLES,
      size: qty(size),
      stateRoot: ZERO_HASH,
      timestamp: qty(b.timestamp),
      transactions,
      transactionsRoot,
      uncles: [],
      withdrawals: [],
      withdrawalsRoot: EMPTY_ROOT,
    },
  };
}

export const simulateMethods: Record<string, Handler> = {
  eth_simulateV1: async ([opts, tag], { backend }) => {
    const run = backend.execution.simulateV1?.bind(backend.execution);
    if (!run) throw MethodNotFound('eth_simulateV1');
    const o = object(opts, 'ethapi.simOpts');
    const rawBlocks = field(o, 'blockStateCalls');
    if (given(rawBlocks) && !Array.isArray(rawBlocks)) throw InvalidParams('invalid argument 0: json: cannot unmarshal non-array into Go struct field simOpts.blockStateCalls');
    const list = (rawBlocks ?? []) as unknown[];
    const flag = (name: string): boolean => {
      const v = field(o, name);
      if (!given(v)) return false;
      if (typeof v !== 'boolean') throw InvalidParams(`invalid argument 0: json: cannot unmarshal ${typeof v} into Go struct field simOpts.${name} of type bool`);
      return v;
    };
    const validation = flag('validation');
    const traceTransfers = flag('traceTransfers');
    const fullTx = flag('returnFullTransactions');
    // geth's checks of the request's size come first
    if (list.length === 0) throw InvalidParams('empty input');
    if (list.length > MAX_BLOCKS) throw new RpcError(CLIENT_LIMIT_EXCEEDED, 'too many blocks');
    let total = 0;
    const blocks = list.map((raw) => {
      const b = object(raw, 'ethapi.simBlock');
      const rawCalls = field(b, 'calls');
      if (given(rawCalls) && !Array.isArray(rawCalls)) throw InvalidParams('invalid argument 0: json: cannot unmarshal non-array into Go struct field simBlock.blockStateCalls.calls');
      const calls = (rawCalls ?? []) as unknown[];
      if (calls.length > MAX_CALLS_PER_BLOCK) throw new RpcError(CLIENT_LIMIT_EXCEEDED, `too many calls in block: ${calls.length} > ${MAX_CALLS_PER_BLOCK}`);
      total += calls.length;
      if (total > MAX_TOTAL_CALLS) throw new RpcError(CLIENT_LIMIT_EXCEEDED, `too many calls: ${total} > ${MAX_TOTAL_CALLS}`);
      const stateOverrides = field(b, 'stateOverrides');
      if (given(stateOverrides)) {
        try {
          backend.execution.validateStateOverride(stateOverrides);
        } catch (e) {
          throw InvalidParams((e as Error).message);
        }
      }
      const blockOverrides = field(b, 'blockOverrides');
      if (given(blockOverrides)) object(blockOverrides, 'override.BlockOverrides');
      return { blockOverrides, stateOverrides, calls: calls.map(parseCall) };
    });
    const h = await backend.resolveBlock(tag ?? 'latest', { state: true, hashes: true, arg: 1 });
    const baseBlock = await backend.blockByHeight(h ?? (await backend.latest()));
    if (!baseBlock) throw ServerError('header not found');
    const req: EthSimulateRequest = {
      blocks, validation, traceTransfers,
      base: { number: BigInt(baseBlock.height), hash: baseBlock.hash, timestamp: BigInt(baseBlock.timestamp), gasLimit: baseBlock.gasLimit, miner: baseBlock.miner },
    };
    const out: Record<string, unknown>[] = [];
    try {
      await run(baseBlock.height, req, (b) => {
        const { hash, json } = sealBlock(b, fullTx);
        out.push(json);
        return hash;
      });
    } catch (e) {
      if (e instanceof RpcError) throw e;
      const code = (e as { rpcCode?: unknown }).rpcCode;
      if (typeof code === 'number') throw new RpcError(code, (e as Error).message);
      throw ServerError((e as Error).message);
    }
    return out;
  },
};
