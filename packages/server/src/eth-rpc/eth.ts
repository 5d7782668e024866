/** The `eth` namespace: chain, state, call, fees, send, txs, receipts, blocks and logs. */
import type { ProtoObject } from '@chain/codec';
import { MempoolError } from '@chain/consensus';
import { MethodNotFound as MethodNotFoundError } from './util.js';
import type { Backend, EthBlock } from './backend.js';
import { blockLogs, formatBlock, formatReceipt, formatTx, parseCriteria } from './format.js';
import type { Handler, RpcContext } from './types.js';
import { rlp, uintBytes } from './trie.js';
import {
  InvalidParams, Reverted, ServerError, hex, parseAddr, parseBlockParam, parseBool, parseData, parseHash, parseQty, qty,
} from './util.js';
import { fromHex, keccak256, toChecksumAddress } from '@chain/crypto';
import type { StateKeyRef } from './adapter.js';

const obj = (v: unknown, name: string): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw InvalidParams(`invalid ${name}: expected an object`);
  return v as Record<string, unknown>;
};

const given = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * A call object (eth_call, eth_estimateGas, debug_traceCall, eth_createAccessList) as an EthCallRequest, with
 * geth's CallDefaults checks (gasPrice with the 1559 fields, a foreign chainId: -32000; input before data): the fee
 * fields and the EIP-2930 access list are passed on (the evm module prices the call as geth's ToMessage and
 * charges the list's intrinsic gas); `overrides` is a geth StateOverride, checked here (-32602 with the reason
 * when malformed) and passed on as JSON text; `blockOverrides` a geth BlockOverrides, passed on as JSON text.
 */
export function callRequest(v: unknown, ctx: RpcContext, overrides?: unknown, blockOverrides?: unknown): ProtoObject {
  const c = obj(v, 'call object');
  const data = c.input ?? c.data;
  const cap = ctx.settings.gasCap;
  let gas = given(c.gas) ? parseQty(c.gas, 'gas') : cap;
  if (cap > 0n && gas > cap) gas = cap;
  if (given(c.gasPrice) && (given(c.maxFeePerGas) || given(c.maxPriorityFeePerGas))) {
    throw ServerError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (given(c.chainId)) {
    const have = parseQty(c.chainId, 'chainId');
    if (have !== ctx.backend.chainId) throw ServerError(`chainId does not match node's (have=${have}, want=${ctx.backend.chainId})`);
  }
  const amount = (x: unknown, name: string): string => (given(x) ? parseQty(x, name).toString() : '');
  return {
    from: c.from ? parseAddr(c.from, 'from') : '',
    to: c.to ? parseAddr(c.to, 'to') : '',
    data: parseData(data, 'input'),
    value: amount(c.value, 'value'),
    gas,
    gas_price: amount(c.gasPrice, 'gasPrice'),
    max_fee_per_gas: amount(c.maxFeePerGas, 'maxFeePerGas'),
    max_priority_fee_per_gas: amount(c.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
    access_list: given(c.accessList) ? JSON.stringify(accessListParam(c.accessList)) : '',
    overrides: stateOverrideJson(ctx.backend, overrides),
    block_overrides: blockOverridesJson(blockOverrides),
    blob_versioned_hashes: given(c.blobVersionedHashes) ? JSON.stringify(blobHashesParam(c.blobVersionedHashes)) : '',
    max_fee_per_blob_gas: amount(c.maxFeePerBlobGas, 'maxFeePerBlobGas'),
  };
}

/** geth's BlockOverrides param: an object (fields checked by the evm module), as JSON text ('' for none). */
function blockOverridesJson(o: unknown): string {
  if (o === undefined || o === null) return '';
  if (typeof o !== 'object' || Array.isArray(o)) throw InvalidParams('invalid argument 3: json: cannot unmarshal non-object into Go value of type override.BlockOverrides');
  return JSON.stringify(o);
}

/** A StateOverride param, validated, as the JSON text of the query request ('' for none). */
function stateOverrideJson(b: Backend, o: unknown): string {
  if (o === undefined || o === null) return '';
  try {
    b.execution.validateStateOverride(o);
  } catch (e) {
    throw InvalidParams((e as Error).message);
  }
  return JSON.stringify(o);
}

function failure(b: Backend, vmError: string, ret: Uint8Array | undefined): Error {
  const r = ret ?? new Uint8Array();
  if (vmError.startsWith('execution reverted')) return Reverted(b.execution.revertReason(r), hex(r));
  return ServerError(vmError);
}

/** Base fee of the next block and the suggested tip (at least the node's minimum gas price). */
async function fees(b: Backend): Promise<{ baseFee: bigint; tip: bigint }> {
  const baseFee = BigInt(String((await b.query('BaseFee', {}, 'latest')).base_fee || '0'));
  const delta = baseFee / 8n;
  return { baseFee, tip: delta > b.minGasPrice ? delta : b.minGasPrice };
}

/** The block of a BlockNumber param (`hashes`: BlockNumberOrHash, a plain hash allowed); undefined when not found. */
async function blockAt(b: Backend, tag: unknown, arg = 0, hashes = false): Promise<EthBlock | undefined> {
  const h = await b.resolveBlock(tag, { arg, hashes });
  return h === undefined ? undefined : b.blockByHeight(h);
}

/** A tx index (geth's hexutil.Uint): a hex quantity. */
function txIndex(v: unknown): number {
  const n = parseQty(v, 'index');
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

async function pendingNonce(b: Backend, address: string, latest: bigint): Promise<bigint> {
  let n = latest;
  for (const t of await b.pendingTxs()) if (hex(t.sender) === address && t.nonce >= n) n = t.nonce + 1n;
  return n;
}

export const ethMethods: Record<string, Handler> = {
  eth_chainId: (_p, { backend }) => qty(backend.chainId),
  eth_blockNumber: async (_p, { backend }) => qty(await backend.latest()),
  eth_syncing: () => false,
  eth_accounts: () => [],
  eth_mining: () => false,
  eth_hashrate: () => '0x0',
  eth_getBalance: async ([addr, tag], { backend }) =>
    qty(BigInt(String((await backend.query('Balance', { address: parseAddr(addr) }, tag, 1)).balance || '0'))),
  eth_getTransactionCount: async ([addr, tag], { backend }) => {
    const a = parseAddr(addr);
    const nonce = BigInt((await backend.query('Account', { address: a }, tag, 1)).nonce as bigint | number | undefined ?? 0);
    return qty(tag === 'pending' ? await pendingNonce(backend, a, nonce) : nonce);
  },
  eth_getCode: async ([addr, tag], { backend }) =>
    hex(((await backend.query('Code', { address: parseAddr(addr) }, tag, 1)).code as Uint8Array | undefined) ?? new Uint8Array()),
  eth_getStorageAt: async ([addr, slot, tag], { backend }) => {
    const key = storageKey(slot);
    return String((await backend.query('Storage', { address: parseAddr(addr), key }, tag, 2)).value);
  },
  eth_call: async ([call, tag, overrides, blockOverrides], ctx) => {
    // the evm keeper enforces `evm-timeout` (the run yields while it executes and aborts at the deadline)
    const r = await ctx.backend.query('EthCall', callRequest(call, ctx, overrides, blockOverrides), tag, 1);
    if (r.vm_error) throw failure(ctx.backend, String(r.vm_error), r.ret as Uint8Array);
    return hex((r.ret as Uint8Array | undefined) ?? new Uint8Array());
  },
  eth_estimateGas: async ([call, tag, overrides, blockOverrides], ctx) => {
    const r = await ctx.backend.query('EstimateGas', callRequest(call, ctx, overrides, blockOverrides), tag ?? 'latest', 1);
    if (r.vm_error) throw failure(ctx.backend, String(r.vm_error), r.ret as Uint8Array);
    return qty(BigInt(r.gas as bigint));
  },
  eth_gasPrice: async (_p, { backend }) => {
    const f = await fees(backend);
    return qty(f.baseFee + f.tip);
  },
  eth_maxPriorityFeePerGas: async (_p, { backend }) => qty((await fees(backend)).tip),
  eth_feeHistory: async ([count, newest, percentiles], { backend, settings }) => {
    let n = Number(parseQty(count, 'blockCount'));
    if (n > settings.feeHistoryCap) n = settings.feeHistoryCap;
    const last = await backend.resolveBlock(newest, { arg: 1, hashes: false });
    if (last === undefined) throw InvalidParams('newest block is beyond the current head');
    if (percentiles !== undefined && percentiles !== null && !Array.isArray(percentiles)) throw InvalidParams('invalid reward percentiles: expected an array of numbers');
    const pcts = percentiles === undefined || percentiles === null ? [] : (percentiles as unknown[]).map(Number);
    if (pcts.some((p, i) => !(p >= 0 && p <= 100) || (i > 0 && p < pcts[i - 1]!))) throw InvalidParams('invalid reward percentiles');
    const first = Math.max(1, last - n + 1);
    const baseFees: string[] = [];
    const ratios: number[] = [];
    const rewards: string[][] = [];
    for (let h = first; h <= last; h++) {
      const b = await backend.blockByHeight(h);
      if (!b) continue;
      baseFees.push(qty(b.baseFee));
      ratios.push(b.gasLimit > 0n ? Number(b.gasUsed) / Number(b.gasLimit) : 0);
      const tips = b.txs.map((t) => ({ tip: t.effectiveGasPrice - b.baseFee, gas: t.gasUsed })).sort((x, y) => (x.tip < y.tip ? -1 : x.tip > y.tip ? 1 : 0));
      const total = tips.reduce((s, t) => s + t.gas, 0n);
      rewards.push(pcts.map((p) => {
        if (tips.length === 0) return '0x0';
        const threshold = (Number(total) * p) / 100;
        let acc = 0;
        for (const t of tips) { acc += Number(t.gas); if (acc >= threshold) return qty(t.tip < 0n ? 0n : t.tip); }
        return qty(tips[tips.length - 1]!.tip);
      }));
    }
    const next = last === await backend.latest() ? (await fees(backend)).baseFee : (await backend.blockByHeight(last + 1))?.baseFee ?? 0n;
    baseFees.push(qty(next));
    const out: Record<string, unknown> = { oldestBlock: qty(first), baseFeePerGas: baseFees, gasUsedRatio: ratios };
    if (pcts.length > 0) out.reward = rewards;
    return out;
  },
  eth_sendRawTransaction: async ([rawHex], { backend, settings, admit }) => {
    const raw = parseData(rawHex, 'raw transaction');
    // as Ethermint: an unprotected tx passes the RPC when the node (allow-unprotected-txs) or the chain
    // (the evm param, which the ante handler then applies) allows it; the param is read only for such txs
    const { execution } = backend;
    // the sender's key is recovered on a worker thread meanwhile (the wrap, CheckTx and the block reuse it)
    if (execution.precheckTx !== undefined) await execution.precheckTx(raw, backend.chainId);
    const wrap = (allowUnprotected: boolean): ReturnType<typeof execution.wrapTx> =>
      execution.wrapTx(raw, { chainId: backend.chainId, allowUnprotected });
    let wrapped;
    try {
      try {
        wrapped = wrap(settings.allowUnprotectedTxs);
      } catch (e) {
        if (!execution.isUnprotectedTxError(e) || !(await backend.unprotectedAllowed())) throw e;
        wrapped = wrap(true);
      }
    } catch (e) {
      if (execution.isUnprotectedTxError(e)) throw ServerError('only replay-protected (EIP-155) transactions allowed over RPC');
      throw ServerError((e as Error).message);
    }
    const fee = wrapped.decoded.gasLimit * wrapped.decoded.gasFeeCap;
    if (settings.txFeeCapWei > 0n && fee > settings.txFeeCapWei) {
      const eth = (w: bigint): string => (Number(w) / 1e18).toFixed(2);
      throw ServerError(`tx fee (${eth(fee)} ether) exceeds the configured cap (${eth(settings.txFeeCapWei)} ether)`);
    }
    let res;
    try {
      const tx = wrapped.tx;
      res = await (admit ? admit(() => backend.source.broadcastSync(tx)) : backend.source.broadcastSync(tx));
    } catch (e) {
      if (e instanceof MempoolError && e.kind === 'in-cache') throw ServerError('already known');
      throw ServerError((e as Error).message);
    }
    if (res.code !== 0) throw ServerError(res.log || `transaction rejected (code ${res.code})`);
    return hex(wrapped.ethHash);
  },
  eth_getTransactionByHash: async ([hash], { backend }) => {
    const found = await backend.txByHash(hash);
    if (found) return formatTx(found.tx.tx, found.tx);
    const h = String(hash).toLowerCase();
    const pending = (await backend.pendingTxs()).find((t) => t.hashHex === h);
    return pending ? formatTx(pending, undefined) : null;
  },
  eth_getTransactionReceipt: async ([hash], { backend }) => {
    const found = await backend.txByHash(hash);
    return found ? formatReceipt(found.tx) : null;
  },
  eth_getBlockByNumber: async ([tag, full], { backend }) => {
    const b = await blockAt(backend, tag, 0);
    return b ? formatBlock(b, parseBool(full, 'full')) : null;
  },
  eth_getBlockByHash: async ([hash, full], { backend }) => {
    const b = await backend.blockByHash(hash);
    return b ? formatBlock(b, parseBool(full, 'full')) : null;
  },
  eth_getBlockTransactionCountByNumber: async ([tag], { backend }) => {
    const b = await blockAt(backend, tag);
    return b ? qty(b.txs.length) : null;
  },
  eth_getBlockTransactionCountByHash: async ([hash], { backend }) => {
    const b = await backend.blockByHash(hash);
    return b ? qty(b.txs.length) : null;
  },
  eth_getTransactionByBlockNumberAndIndex: async ([tag, idx], { backend }) => {
    const t = (await blockAt(backend, tag, 0))?.txs[txIndex(idx)];
    return t ? formatTx(t.tx, t) : null;
  },
  eth_getTransactionByBlockHashAndIndex: async ([hash, idx], { backend }) => {
    const t = (await backend.blockByHash(hash))?.txs[txIndex(idx)];
    return t ? formatTx(t.tx, t) : null;
  },
  eth_getBlockReceipts: async ([tag], { backend }) => {
    const b = await blockAt(backend, tag, 0, true);
    return b ? b.txs.map(formatReceipt) : null;
  },
  // no uncles: 0 for a known block, null (geth) for an unknown one
  eth_getUncleCountByBlockNumber: async ([tag], { backend }) => ((await blockAt(backend, tag, 0)) ? '0x0' : null),
  eth_getUncleCountByBlockHash: async ([hash], { backend }) => ((await backend.blockByHash(hash)) ? '0x0' : null),
  eth_getUncleByBlockNumberAndIndex: ([tag, idx]) => { parseBlockParam(tag, 0, false); txIndex(idx); return null; },
  eth_getUncleByBlockHashAndIndex: ([hash, idx]) => { parseHash(hash, 'block hash'); txIndex(idx); return null; },
  ...extraMethods(),
  eth_getLogs: async ([filter], { backend, settings }) => getLogs(backend, obj(filter, 'filter'), settings.blockRangeCap, settings.logsCap),
};

/** eth_getLogs and eth_getFilterLogs: matching logs of a block hash or a height range, within the caps. */
export async function getLogs(b: Backend, f: Record<string, unknown>, rangeCap: number, logsCap: number): Promise<Record<string, unknown>[]> {
  const criteria = parseCriteria(f);
  if (f.blockHash !== undefined && f.blockHash !== null) {
    if (f.fromBlock !== undefined || f.toBlock !== undefined) throw InvalidParams('cannot specify both blockHash and fromBlock/toBlock');
    const block = await b.blockByHash(f.blockHash);
    if (!block) throw ServerError('unknown block');
    return blockLogs(block, criteria);
  }
  const [lo, hi] = await b.logRange(f.fromBlock, f.toBlock, rangeCap);
  return logsInRange(b, lo, hi, criteria, logsCap);
}

export async function logsInRange(b: Backend, lo: number, hi: number, criteria: ReturnType<typeof parseCriteria>, logsCap: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let h = lo; h <= hi; h++) {
    const block = await b.blockByHeight(h);
    if (!block || block.txs.length === 0) continue;
    for (const log of blockLogs(block, criteria)) out.push(log); // (a spread of a big block's logs can overflow the stack)
    if (out.length > logsCap) throw ServerError(`query returned more than ${logsCap} results`);
  }
  return out;
}

/**
 * A storage key as geth's decodeHash reads it (0x optional, odd length padded, at most 32 bytes); geth
 * answers a bad key with a plain error (-32000) `unable to decode storage key: …`.
 */
/** The byte length of a storage key as given (geth's decodeHash): 32 answers it as a hash, less as a quantity. */
function storageKeyLength(v: unknown): number {
  const h = String(v).replace(/^0x/i, '');
  return Math.ceil(h.length / 2);
}

function storageKey(v: unknown): string {
  if (typeof v !== 'string') throw InvalidParams(`invalid argument 1: json: cannot unmarshal ${typeof v} into Go value of type string`);
  let h = /^0x/i.test(v) ? v.slice(2) : v;
  if (h.length % 2) h = '0' + h;
  if (!/^[0-9a-fA-F]*$/.test(h)) throw ServerError('unable to decode storage key: hex string invalid');
  if (h.length > 64) throw ServerError('unable to decode storage key: hex string too long, want at most 32 bytes');
  return '0x' + h.padStart(64, '0').toLowerCase();
}

/** geth's maxGetStorageSlots */
const MAX_STORAGE_SLOTS = 1024;
/** EIP-4844's minimum blob base fee: the blob base fee with no excess blob gas */
const MIN_BLOB_BASE_FEE = 1n;
/** geth's params for Prague's blob schedule (EIP-7691) */
const PRAGUE_BLOB_SCHEDULE = { baseFeeUpdateFraction: 5007716, max: 9, target: 6 };
/** The precompiles of Prague, by geth's names (EIP-7910) */
const PRAGUE_PRECOMPILES: Record<string, string> = Object.fromEntries(
  ['ECREC', 'SHA256', 'RIPEMD160', 'ID', 'MODEXP', 'BN254_ADD', 'BN254_MUL', 'BN254_PAIRING', 'BLAKE2F', 'KZG_POINT_EVALUATION',
    'BLS12_G1ADD', 'BLS12_G1MSM', 'BLS12_G2ADD', 'BLS12_G2MSM', 'BLS12_PAIRING_CHECK', 'BLS12_MAP_FP_TO_G1', 'BLS12_MAP_FP2_TO_G2']
    .map((name, i) => [name, '0x' + (i + 1).toString(16).padStart(40, '0')]),
);

/** CRC-32 (IEEE), for the EIP-2124 fork id */
function crc32(data: Uint8Array): number {
  let c = ~0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A transaction object (geth's TransactionArgs) → the fields eth_fillTransaction / eth_signTransaction read. */
function txArgs(v: unknown): Record<string, unknown> {
  return obj(v, 'transaction');
}

/** The unsigned EIP-2718 encoding geth's fillTransaction returns as `raw` (v = r = s = 0), and its JSON. */
export function unsignedTx(t: {
  type: number; chainId: bigint; nonce: bigint; gas: bigint; gasPrice?: bigint; maxFee?: bigint; tip?: bigint;
  to: string | undefined; value: bigint; input: Uint8Array; accessList: { address: string; storageKeys: string[] }[];
  /** type 3 (EIP-4844) */
  maxFeePerBlobGas?: bigint; blobVersionedHashes?: readonly string[];
}): { raw: string; tx: Record<string, unknown> } {
  const to = t.to ? Buffer.from(t.to.slice(2), 'hex') : new Uint8Array();
  const al = t.accessList.map((e) => [Buffer.from(e.address.slice(2), 'hex'), e.storageKeys.map((k) => Buffer.from(k.slice(2), 'hex'))]);
  const zero = uintBytes(0);
  let raw: Uint8Array;
  if (t.type === 0) raw = rlp([uintBytes(t.nonce), uintBytes(t.gasPrice!), uintBytes(t.gas), to, uintBytes(t.value), t.input, zero, zero, zero]);
  else if (t.type === 1) raw = Buffer.concat([Uint8Array.of(1), rlp([uintBytes(t.chainId), uintBytes(t.nonce), uintBytes(t.gasPrice!), uintBytes(t.gas), to, uintBytes(t.value), t.input, al, zero, zero, zero])]);
  else if (t.type === 3) {
    const hashes = (t.blobVersionedHashes ?? []).map((h) => Buffer.from(h.slice(2), 'hex'));
    raw = Buffer.concat([Uint8Array.of(3), rlp([
      uintBytes(t.chainId), uintBytes(t.nonce), uintBytes(t.tip!), uintBytes(t.maxFee!), uintBytes(t.gas), to, uintBytes(t.value), t.input, al,
      uintBytes(t.maxFeePerBlobGas ?? 0n), hashes, zero, zero, zero,
    ])]);
  } else raw = Buffer.concat([Uint8Array.of(2), rlp([uintBytes(t.chainId), uintBytes(t.nonce), uintBytes(t.tip!), uintBytes(t.maxFee!), uintBytes(t.gas), to, uintBytes(t.value), t.input, al, zero, zero, zero])]);
  const tx: Record<string, unknown> = { type: qty(t.type) };
  if (t.type !== 0) tx.chainId = qty(t.chainId);
  tx.nonce = qty(t.nonce);
  tx.to = t.to ?? null;
  tx.gas = qty(t.gas);
  // the specification's unsigned 1559 tx has a gasPrice: for a tx not in a block, the max fee per gas
  if (t.type === 2 || t.type === 3) { tx.maxPriorityFeePerGas = qty(t.tip!); tx.maxFeePerGas = qty(t.maxFee!); tx.gasPrice = qty(t.maxFee!); } else tx.gasPrice = qty(t.gasPrice!);
  if (t.type === 3) tx.maxFeePerBlobGas = qty(t.maxFeePerBlobGas ?? 0n);
  tx.value = qty(t.value);
  tx.input = hex(t.input);
  if (t.type !== 0) tx.accessList = t.accessList;
  if (t.type === 3) tx.blobVersionedHashes = [...(t.blobVersionedHashes ?? [])];
  tx.v = '0x0'; tx.r = '0x0'; tx.s = '0x0';
  if (t.type !== 0) tx.yParity = '0x0';
  tx.hash = hex(keccak256(raw));
  return { raw: hex(raw), tx };
}

/** EIP-4844 blobVersionedHashes (geth's `[]common.Hash`): an array of 0x 32-byte hashes, lowercased. */
export function blobHashesParam(v: unknown): string[] {
  const bad = (): never => { throw InvalidParams('invalid argument 0: invalid blobVersionedHashes: expected an array of 0x-prefixed 32-byte hashes'); };
  if (!Array.isArray(v)) bad();
  return (v as unknown[]).map((h) => (typeof h === 'string' && /^0x[0-9a-fA-F]{64}$/.test(h) ? h.toLowerCase() : bad()));
}

/** An EIP-2930 access list param, checked. */
export function accessListParam(v: unknown): { address: string; storageKeys: string[] }[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw InvalidParams('invalid accessList: expected an array');
  return v.map((e) => {
    const o = obj(e, 'access list entry');
    const keys = o.storageKeys ?? [];
    if (!Array.isArray(keys)) throw InvalidParams('invalid accessList storageKeys: expected an array');
    return { address: parseAddr(o.address, 'access list address'), storageKeys: keys.map((k) => parseHash(k, 'storage key')) };
  });
}

function extraMethods(): Record<string, Handler> {
  return {
    eth_getStorageValues: async ([requests, tag], { backend }) => {
      const reqs = obj(requests, 'storage requests');
      let total = 0;
      for (const keys of Object.values(reqs)) {
        if (!Array.isArray(keys)) throw InvalidParams('invalid argument 0: expected an array of storage keys per address');
        total += keys.length;
        if (total > MAX_STORAGE_SLOTS) throw InvalidParams(`too many slots (max ${MAX_STORAGE_SLOTS})`);
      }
      if (total === 0) throw InvalidParams('empty request');
      const h = await backend.resolveBlock(tag, { state: true, hashes: true, arg: 1 });
      const out: Record<string, string[]> = {};
      for (const [addr, keys] of Object.entries(reqs)) {
        const a = parseAddr(addr);
        const values: string[] = [];
        for (const k of keys as unknown[]) values.push(String((await backend.queryAt('Storage', { address: a, key: storageKey(k) }, h)).value));
        out[a] = values;
      }
      return out;
    },
    eth_getProof: async ([addr, keys, tag], { backend }) => {
      const exec = backend.execution;
      if (!exec.proofKeys) throw MethodNotFoundError('eth_getProof');
      const a = parseAddr(addr);
      if (!Array.isArray(keys)) throw InvalidParams('invalid argument 1: json: cannot unmarshal non-array into Go value of type []string');
      const slots = keys.map((k) => ({ key: storageKey(k), length: storageKeyLength(k) }));
      const h = (await backend.resolveBlock(tag, { state: true, hashes: true, arg: 2 }))!;
      const address = fromHex(a.slice(2));
      const refs = exec.proofKeys(address, slots.map((s) => fromHex(s.key.slice(2))));
      // the SDK's raw store query with prove (Ethermint's queryClient.GetProof): proof ops against the app hash
      const prove = async (ref: StateKeyRef): Promise<{ value: Uint8Array; proof: string[] }> => {
        const r = await backend.app.query({ path: `/store/${ref.store}/key`, data: ref.key, height: h, prove: true });
        if (r.code !== 0) throw ServerError(r.log);
        return { value: r.value, proof: (r.proofOps ?? []).map((o) => hex(o.data)) };
      };
      const account = await backend.queryAt('Account', { address: a }, h);
      const accountProof = await prove(refs.account);
      const storageProof = [];
      for (let i = 0; i < slots.length; i++) {
        const { value, proof } = await prove(refs.storage[i]!);
        // geth's output key: a 32-byte input as a hash, a shorter one as a quantity
        const key = slots[i]!.length === 32 ? slots[i]!.key : qty(BigInt(slots[i]!.key));
        storageProof.push({ key, value: qty(value.length === 0 ? 0n : BigInt(hex(value))), proof });
      }
      return {
        address: toChecksumAddress(address),
        accountProof: accountProof.proof,
        balance: qty(BigInt(String(account.balance || '0'))),
        codeHash: String(account.code_hash),
        nonce: qty(BigInt(account.nonce as bigint | number | undefined ?? 0)),
        // as Ethermint: the EVM's storage is not a per-account trie, so there is no storage root
        storageHash: '0x' + '00'.repeat(32),
        storageProof,
      };
    },
    eth_baseFee: async (_p, { backend }) => qty((await fees(backend)).baseFee),
    // no blobs: the excess blob gas is always 0, so the blob base fee is the minimum
    eth_blobBaseFee: () => qty(MIN_BLOB_BASE_FEE),
    eth_config: async (_p, { backend }) => {
      // every fork is active from the first block, so the fork id is the checksum of the genesis hash alone
      const first = await backend.blockByHeight(await backend.source.earliestHeight());
      const forkId = crc32(Buffer.from((first?.hash ?? '0x' + '00'.repeat(32)).slice(2), 'hex'));
      return {
        current: {
          activationTime: 0,
          blobSchedule: PRAGUE_BLOB_SCHEDULE,
          chainId: qty(backend.chainId),
          forkId: '0x' + forkId.toString(16).padStart(8, '0'),
          precompiles: PRAGUE_PRECOMPILES,
          // none of the Prague system contracts (beacon roots, history storage, deposits, withdrawal and
          // consolidation requests) exist on this chain
          systemContracts: {},
        },
        next: null,
        last: null,
      };
    },
    eth_capabilities: async (_p, { backend }) => {
      const [latest, earliest] = await Promise.all([backend.latest(), backend.source.earliestHeight()]);
      const head = await backend.blockByHeight(latest);
      const kept = { disabled: false, oldestBlock: qty(earliest) };
      return {
        head: { number: qty(latest), hash: head?.hash ?? '0x' + '00'.repeat(32) },
        state: kept, tx: kept, logs: kept, receipts: kept, blocks: kept,
        // eth_getProof: ICS-23 proofs against the app hash, for every kept height
        stateproofs: kept,
      };
    },
    eth_createAccessList: async ([call, tag, overrides], ctx) => {
      const { backend } = ctx;
      if (!backend.execution.createAccessList) throw MethodNotFoundError('eth_createAccessList');
      const req = callRequest(call, ctx, overrides);
      const h = await backend.resolveBlock(tag, { state: true, hashes: true, arg: 1 });
      let r;
      try {
        r = await backend.execution.createAccessList(h, req);
      } catch (e) {
        throw ServerError((e as Error).message);
      }
      const out: Record<string, unknown> = { accessList: r.accessList, gasUsed: qty(r.gasUsed) };
      if (r.vmError !== undefined) out.error = r.vmError;
      return out;
    },
    eth_fillTransaction: async ([args], ctx) => {
      const { backend } = ctx;
      const a = txArgs(args);
      const from = a.from !== undefined && a.from !== null ? parseAddr(a.from, 'from') : '0x' + '00'.repeat(20);
      if (a.chainId !== undefined && a.chainId !== null && parseQty(a.chainId, 'chainId') !== backend.chainId) {
        throw ServerError(`chainId does not match node's (have=${parseQty(a.chainId, 'chainId')}, want=${backend.chainId})`);
      }
      if (a.gasPrice !== undefined && a.gasPrice !== null && (a.maxFeePerGas !== undefined || a.maxPriorityFeePerGas !== undefined)) {
        throw ServerError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
      }
      if (a.data !== undefined && a.input !== undefined && a.data !== null && a.input !== null && a.data !== a.input) {
        throw ServerError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
      }
      const input = parseData(a.input ?? a.data, 'input');
      const to = a.to !== undefined && a.to !== null ? parseAddr(a.to, 'to') : undefined;
      if (!to && input.length === 0) throw ServerError('contract creation without any data provided');
      const value = a.value !== undefined && a.value !== null ? parseQty(a.value, 'value') : 0n;
      const accessList = accessListParam(a.accessList);
      const nonce = a.nonce !== undefined && a.nonce !== null ? parseQty(a.nonce, 'nonce')
        : await pendingNonce(backend, from, BigInt((await backend.query('Account', { address: from }, 'latest')).nonce as bigint | number | undefined ?? 0));
      const f = await fees(backend);
      let type: number;
      let gasPrice: bigint | undefined;
      let maxFee: bigint | undefined;
      let tip: bigint | undefined;
      if (a.gasPrice !== undefined && a.gasPrice !== null) {
        gasPrice = parseQty(a.gasPrice, 'gasPrice');
        type = accessList.length > 0 || (a.accessList !== undefined && a.accessList !== null) ? 1 : 0;
      } else {
        type = 2;
        tip = a.maxPriorityFeePerGas !== undefined && a.maxPriorityFeePerGas !== null ? parseQty(a.maxPriorityFeePerGas, 'maxPriorityFeePerGas') : f.tip;
        maxFee = a.maxFeePerGas !== undefined && a.maxFeePerGas !== null ? parseQty(a.maxFeePerGas, 'maxFeePerGas') : tip + f.baseFee * 2n;
        if (maxFee < tip) throw ServerError(`maxFeePerGas (${maxFee}) < maxPriorityFeePerGas (${tip})`);
      }
      let gas: bigint;
      if (a.gas !== undefined && a.gas !== null) gas = parseQty(a.gas, 'gas');
      else {
        const call = { from, to, input: hex(input), value: qty(value), ...(gasPrice !== undefined ? { gasPrice: qty(gasPrice) } : {}) };
        const r = await backend.query('EstimateGas', callRequest(call, ctx), 'pending');
        if (r.vm_error) throw failure(backend, String(r.vm_error), r.ret as Uint8Array);
        gas = BigInt(r.gas as bigint);
      }
      return unsignedTx({ type, chainId: backend.chainId, nonce, gas, gasPrice, maxFee, tip, to, value, input, accessList });
    },
    // the node holds no keys: geth's answer for an account its keystore does not have
    eth_sendTransaction: ([args]) => {
      const a = txArgs(args);
      if (a.from !== undefined && a.from !== null) parseAddr(a.from, 'from');
      throw ServerError('unknown account');
    },
    eth_sign: ([addr, data]) => {
      parseAddr(addr);
      parseData(data, 'data');
      throw ServerError('unknown account');
    },
    eth_signTransaction: ([args]) => {
      const a = txArgs(args);
      if (a.from !== undefined && a.from !== null) parseAddr(a.from, 'from');
      if (a.gas === undefined || a.gas === null) throw ServerError('gas not specified');
      if ((a.gasPrice === undefined || a.gasPrice === null) && (a.maxPriorityFeePerGas === undefined || a.maxPriorityFeePerGas === null || a.maxFeePerGas === undefined || a.maxFeePerGas === null)) {
        throw ServerError('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas');
      }
      if (a.nonce === undefined || a.nonce === null) throw ServerError('nonce not specified');
      throw ServerError('unknown account');
    },
  };
}
