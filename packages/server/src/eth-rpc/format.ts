/** Ethereum JSON shapes of blocks, headers, txs, receipts and logs, and log filter matching. */
import type { EthTxView as EthTx } from './adapter.js';
import type { EthBlock, EthTxInfo, LogJSON } from './backend.js';
import { EMPTY_REQUESTS_HASH, ZERO_NONCE } from './header.js';
import { logsBloom } from './trie.js';
import { EMPTY_ROOT, EMPTY_UNCLES, InvalidParams, ZERO_HASH, hex, parseAddr, qty } from './util.js';

export function formatLog(l: LogJSON, blockHash: string, timestamp: number): Record<string, unknown> {
  return {
    address: l.address.toLowerCase(),
    topics: l.topics,
    data: l.data,
    blockNumber: qty(l.blockNumber),
    blockHash,
    blockTimestamp: qty(timestamp),
    transactionHash: l.transactionHash,
    transactionIndex: qty(l.transactionIndex),
    logIndex: qty(l.logIndex),
    removed: false,
  };
}

/** A tx object; `at` is undefined for a pending tx. */
export function formatTx(tx: EthTx, at: EthTxInfo | undefined, baseFee?: bigint): Record<string, unknown> {
  const sig = signatureOf(tx);
  const out: Record<string, unknown> = {
    blockHash: at ? at.blockHash : null,
    blockNumber: at ? qty(at.height) : null,
    blockTimestamp: at ? qty(at.timestamp) : null,
    transactionIndex: at ? qty(at.index) : null,
    hash: tx.hashHex,
    type: qty(tx.type),
    chainId: qty(tx.chainId),
    nonce: qty(tx.nonce),
    from: hex(tx.sender),
    to: tx.to ? hex(tx.to) : null,
    value: qty(tx.value),
    gas: qty(tx.gasLimit),
    input: hex(tx.data),
    gasPrice: qty(at ? at.effectiveGasPrice : baseFee !== undefined && tx.type === 2 ? minBig(tx.gasFeeCap, baseFee + tx.gasTipCap) : tx.gasFeeCap),
    v: sig.v,
    r: sig.r,
    s: sig.s,
  };
  if (!tx.protected) delete out.chainId; // as geth: a pre-EIP-155 legacy tx has no chain id
  if (tx.type === 2) {
    out.maxFeePerGas = qty(tx.gasFeeCap);
    out.maxPriorityFeePerGas = qty(tx.gasTipCap);
  }
  if (tx.type !== 0) {
    out.accessList = tx.accessList.map(([a, slots]) => ({ address: hex(a), storageKeys: slots.map(hex) }));
    out.yParity = sig.v;
  }
  return out;
}

function minBig(a: bigint, b: bigint): bigint { return a < b ? a : b; }

/** v, r, s of the signed tx, read back from its RLP (cached per tx object). */
const sigCache = new WeakMap<EthTx, { v: string; r: string; s: string }>();
function signatureOf(tx: EthTx): { v: string; r: string; s: string } {
  let s = sigCache.get(tx);
  if (!s) {
    const fields = rlpList(tx.type === 0 ? tx.raw : tx.raw.subarray(1));
    const n = fields.length;
    const num = (b: Uint8Array | undefined): string => qty(b && b.length ? BigInt(hex(b)) : 0n);
    s = { v: num(fields[n - 3]), r: num(fields[n - 2]), s: num(fields[n - 1]) };
    sigCache.set(tx, s);
  }
  return s;
}

/** Decodes the items of a top-level RLP list (items may be lists; they are returned raw). */
function rlpList(b: Uint8Array): Uint8Array[] {
  const head = (p: number): [number, number] => { // [payload offset, payload length]
    const x = b[p]!;
    if (x < 0x80) return [p, 1];
    if (x < 0xb8) return [p + 1, x - 0x80];
    if (x < 0xc0) { const l = x - 0xb7; return [p + 1 + l, readLen(p + 1, l)]; }
    if (x < 0xf8) return [p + 1, x - 0xc0];
    const l = x - 0xf7; return [p + 1 + l, readLen(p + 1, l)];
  };
  const readLen = (p: number, l: number): number => { let n = 0; for (let i = 0; i < l; i++) n = n * 256 + b[p + i]!; return n; };
  const [start, len] = head(0);
  const out: Uint8Array[] = [];
  for (let p = start; p < start + len;) {
    const [o, l] = head(p);
    out.push(b.subarray(o, o + l));
    p = o + l;
  }
  return out;
}

export function formatReceipt(t: EthTxInfo): Record<string, unknown> {
  const bloom = logsBloom(t.logs);
  return {
    transactionHash: t.tx.hashHex,
    transactionIndex: qty(t.index),
    blockHash: t.blockHash,
    blockNumber: qty(t.height),
    from: hex(t.tx.sender),
    to: t.tx.to ? hex(t.tx.to) : null,
    cumulativeGasUsed: qty(t.cumulativeGasUsed),
    gasUsed: qty(t.gasUsed),
    effectiveGasPrice: qty(t.effectiveGasPrice),
    contractAddress: t.contractAddress ?? null,
    logs: t.logs.map((l) => formatLog(l, t.blockHash, t.timestamp)),
    logsBloom: hex(bloom),
    type: qty(t.tx.type),
    status: t.failed ? '0x0' : '0x1',
  };
}

/** The header JSON: exactly the fields of the RLP whose keccak256 is `hash` (header.ts). */
export function formatHeader(b: EthBlock): Record<string, unknown> {
  return {
    number: qty(b.height),
    hash: b.hash,
    parentHash: b.parentHash,
    nonce: ZERO_NONCE,
    mixHash: ZERO_HASH,
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: b.logsBloom,
    stateRoot: b.stateRoot,
    miner: b.miner,
    difficulty: '0x0',
    // the CometBFT block hash
    extraData: b.cometHash,
    gasLimit: qty(b.gasLimit),
    gasUsed: qty(b.gasUsed),
    timestamp: qty(b.timestamp),
    transactionsRoot: b.transactionsRoot,
    receiptsRoot: b.receiptsRoot,
    baseFeePerGas: qty(b.baseFee),
    // the header fields of the forks up to Prague, as geth sends them: no withdrawals, no blobs, no beacon
    // chain (zero parent beacon root), no EIP-7685 requests
    withdrawalsRoot: EMPTY_ROOT,
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
    parentBeaconBlockRoot: ZERO_HASH,
    requestsHash: EMPTY_REQUESTS_HASH,
  };
}

export function formatBlock(b: EthBlock, full: boolean): Record<string, unknown> {
  return {
    ...formatHeader(b),
    totalDifficulty: '0x0',
    size: qty(b.size),
    uncles: [],
    transactions: b.txs.map((t) => (full ? formatTx(t.tx, t) : t.tx.hashHex)),
    withdrawals: [],
  };
}

// ---- log filters ----

export interface LogCriteria {
  /** lowercase addresses; empty = any */
  readonly addresses: string[];
  /** per position: undefined = any, else one of these (lowercase) */
  readonly topics: (string[] | undefined)[];
}

export function parseCriteria(f: Record<string, unknown>): LogCriteria {
  const a = f.address;
  const addresses = a === undefined || a === null ? [] : Array.isArray(a) ? a.map((x) => parseAddr(x)) : [parseAddr(a)];
  const t = f.topics ?? [];
  if (!Array.isArray(t)) throw InvalidParams('invalid topics: expected an array');
  if (t.length > 4) throw InvalidParams('invalid topics: at most 4 positions');
  const topic = (x: unknown): string => {
    if (typeof x !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(x)) throw InvalidParams('invalid topic: expected a 32-byte 0x hash');
    return x.toLowerCase();
  };
  const topics = t.map((p) => (p === null || p === undefined ? undefined : Array.isArray(p) ? (p.length === 0 ? undefined : p.map(topic)) : [topic(p)]));
  return { addresses, topics };
}

export function matchLog(l: LogJSON, c: LogCriteria): boolean {
  if (c.addresses.length > 0 && !c.addresses.includes(l.address.toLowerCase())) return false;
  for (let i = 0; i < c.topics.length; i++) {
    const want = c.topics[i];
    if (!want) continue;
    const got = l.topics[i];
    if (got === undefined || !want.includes(got.toLowerCase())) return false;
  }
  return true;
}

/** The logs of a block that match the criteria, in log order. */
export function blockLogs(b: EthBlock, c: LogCriteria): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of b.txs) for (const l of t.logs) if (matchLog(l, c)) out.push(formatLog(l, b.hash, b.timestamp));
  return out;
}
