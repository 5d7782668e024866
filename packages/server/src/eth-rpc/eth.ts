/** The `eth` namespace: chain, state, call, fees, send, txs, receipts, blocks and logs. */
import type { ProtoObject } from '@chain/codec';
import { MempoolError } from '@chain/consensus';
import type { Backend, EthBlock } from './backend.js';
import { blockLogs, formatBlock, formatReceipt, formatTx, parseCriteria } from './format.js';
import type { Handler, RpcContext } from './types.js';
import {
  InvalidParams, Reverted, ServerError, hex, parseAddr, parseBool, parseData, parseQty, qty,
} from './util.js';

const obj = (v: unknown, name: string): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw InvalidParams(`invalid ${name}: expected an object`);
  return v as Record<string, unknown>;
};

/**
 * A call object (eth_call, eth_estimateGas, debug_traceCall) as an EthCallRequest; `overrides` is a geth
 * StateOverride, checked here (-32602 with the reason when malformed) and passed on as JSON text.
 */
export function callRequest(v: unknown, ctx: RpcContext, overrides?: unknown): ProtoObject {
  const c = obj(v, 'call object');
  const data = c.input ?? c.data;
  const cap = ctx.settings.gasCap;
  let gas = c.gas !== undefined && c.gas !== null ? parseQty(c.gas, 'gas') : cap;
  if (cap > 0n && gas > cap) gas = cap;
  const price = c.gasPrice ?? c.maxFeePerGas;
  return {
    from: c.from ? parseAddr(c.from, 'from') : '',
    to: c.to ? parseAddr(c.to, 'to') : '',
    data: parseData(data, 'input'),
    value: c.value !== undefined && c.value !== null ? parseQty(c.value, 'value').toString() : '',
    gas,
    gas_price: price !== undefined && price !== null ? parseQty(price, 'gasPrice').toString() : '',
    overrides: stateOverrideJson(ctx.backend, overrides),
  };
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

async function blockAt(b: Backend, tag: unknown): Promise<EthBlock | undefined> {
  const h = await b.resolveTag(tag);
  return h === undefined ? undefined : b.blockByHeight(h);
}

async function pendingNonce(b: Backend, address: string, latest: bigint): Promise<bigint> {
  let n = latest;
  for (const t of await b.pendingTxs()) if (hex(t.sender) === address && t.nonce >= n) n = t.nonce + 1n;
  return n;
}

/**
 * eth_getProof is deliberately absent: the state commitment (the app hash, packages/store) has no per-key
 * proofs, so a call answers -32601 `the method eth_getProof does not exist/is not available`.
 */
export const ethMethods: Record<string, Handler> = {
  eth_chainId: (_p, { backend }) => qty(backend.chainId),
  eth_blockNumber: async (_p, { backend }) => qty(await backend.latest()),
  eth_syncing: () => false,
  eth_accounts: () => [],
  eth_mining: () => false,
  eth_hashrate: () => '0x0',
  eth_getBalance: async ([addr, tag], { backend }) =>
    qty(BigInt(String((await backend.query('Balance', { address: parseAddr(addr) }, tag)).balance || '0'))),
  eth_getTransactionCount: async ([addr, tag], { backend }) => {
    const a = parseAddr(addr);
    const nonce = BigInt((await backend.query('Account', { address: a }, tag)).nonce as bigint | number | undefined ?? 0);
    return qty(tag === 'pending' ? await pendingNonce(backend, a, nonce) : nonce);
  },
  eth_getCode: async ([addr, tag], { backend }) =>
    hex(((await backend.query('Code', { address: parseAddr(addr) }, tag)).code as Uint8Array | undefined) ?? new Uint8Array()),
  eth_getStorageAt: async ([addr, slot, tag], { backend }) => {
    const key = '0x' + parseQty(slot, 'storage slot').toString(16);
    return String((await backend.query('Storage', { address: parseAddr(addr), key }, tag)).value);
  },
  eth_call: async ([call, tag, overrides], ctx) => {
    // the evm keeper enforces `evm-timeout` (the run yields while it executes and aborts at the deadline)
    const r = await ctx.backend.query('EthCall', callRequest(call, ctx, overrides), tag);
    if (r.vm_error) throw failure(ctx.backend, String(r.vm_error), r.ret as Uint8Array);
    return hex((r.ret as Uint8Array | undefined) ?? new Uint8Array());
  },
  eth_estimateGas: async ([call, tag, overrides], ctx) => {
    const r = await ctx.backend.query('EstimateGas', callRequest(call, ctx, overrides), tag ?? 'latest');
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
    const last = await backend.resolveTag(newest);
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
  eth_sendRawTransaction: async ([rawHex], { backend, settings }) => {
    const raw = parseData(rawHex, 'raw transaction');
    // as Ethermint: an unprotected tx passes the RPC when the node (allow-unprotected-txs) or the chain
    // (the evm param, which the ante handler then applies) allows it; the param is read only for such txs
    const { execution } = backend;
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
      res = await backend.source.broadcastSync(wrapped.tx);
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
    const b = await blockAt(backend, tag);
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
    const t = (await blockAt(backend, tag))?.txs[Number(parseQty(idx, 'index'))];
    return t ? formatTx(t.tx, t) : null;
  },
  eth_getTransactionByBlockHashAndIndex: async ([hash, idx], { backend }) => {
    const t = (await backend.blockByHash(hash))?.txs[Number(parseQty(idx, 'index'))];
    return t ? formatTx(t.tx, t) : null;
  },
  eth_getBlockReceipts: async ([tag], { backend }) => {
    const b = typeof tag === 'string' && /^0x[0-9a-fA-F]{64}$/.test(tag) ? await backend.blockByHash(tag) : await blockAt(backend, tag);
    return b ? b.txs.map(formatReceipt) : null;
  },
  eth_getUncleCountByBlockNumber: () => '0x0',
  eth_getUncleCountByBlockHash: () => '0x0',
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
    out.push(...blockLogs(block, criteria));
    if (out.length > logsCap) throw ServerError(`query returned more than ${logsCap} results`);
  }
  return out;
}
