/**
 * The Ethereum block encodings one definition serves everywhere: the evm module computes each block's Ethereum
 * header hash with them in consensus (it is what BLOCKHASH answers), and the Ethereum JSON-RPC serves the same
 * header, so keccak256(RLP(header)) of the fields it shows is the hash it serves and the one contracts read.
 *
 * - `rlp`, `uintBytes`, `rlpListHeader`: RLP of byte strings, lists and unsigned integers (the yellow paper's
 *   appendix B), and the header of a list whose items are encoded already.
 * - `orderedTrieRoot`: go-ethereum's `types.DeriveSha`, the root of a Merkle-Patricia trie keyed by rlp(index):
 *   `transactionsRoot` over the typed tx envelopes, `receiptsRoot` over `encodeReceipt`'s encodings.
 * - `logsBloom`, `encodeReceipt`: a receipt's 2048-bit bloom and its consensus encoding (EIP-2718).
 * - `encodeEthHeader`, `ethHeaderHash`: geth's `types.Header` with the Prague field set, in geth's order. The
 *   fields of a chain without proof of work, withdrawals, blobs, a beacon chain or EIP-7685 requests are the
 *   constants below.
 */
import { bytesToString } from './encoding.js';
import { addToBloom, keccak256 } from './hash.js';

type RlpItem = Uint8Array | RlpItem[];

function rlpLength(len: number, offset: number): Uint8Array {
  if (len < 56) return Uint8Array.of(offset + len);
  const bytes: number[] = [];
  for (let n = len; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(offset + 55 + bytes.length, ...bytes);
}

/** The RLP header of a list whose items' encodings take `len` bytes. */
export function rlpListHeader(len: number): Uint8Array {
  return rlpLength(len, 0xc0);
}

/** RLP encoding of a byte string or a (nested) list. */
export function rlp(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return Buffer.concat([rlpLength(item.length, 0x80), item]);
  }
  const body = Buffer.concat(item.map(rlp));
  return Buffer.concat([rlpLength(body.length, 0xc0), body]);
}

/** Big-endian bytes of a non-negative integer without leading zeros (0 → empty), as RLP encodes numbers. */
export function uintBytes(n: bigint | number): Uint8Array {
  let h = BigInt(n).toString(16);
  if (h === '0') return new Uint8Array();
  if (h.length % 2) h = '0' + h;
  return Buffer.from(h, 'hex');
}

/** Hex-prefix encoding of a nibble path (yellow paper, appendix C). */
function hexPrefix(nibbles: number[], leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2;
  const flag = (leaf ? 2 : 0) + odd;
  const all = odd ? [flag, ...nibbles] : [flag, 0, ...nibbles];
  const out = new Uint8Array(all.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = all[2 * i]! * 16 + all[2 * i + 1]!;
  return out;
}

interface Entry { readonly key: number[]; readonly value: Uint8Array }

/** A child reference: the node itself when its encoding is shorter than 32 bytes, else its hash. */
function ref(node: RlpItem): RlpItem {
  const enc = rlp(node);
  return enc.length < 32 ? node : keccak256(enc);
}

/** The trie node holding `entries` (all sharing their first `depth` nibbles; keys prefix-free). */
function build(entries: Entry[], depth: number): RlpItem {
  if (entries.length === 1) return [hexPrefix(entries[0]!.key.slice(depth), true), entries[0]!.value];
  let common = 0;
  const first = entries[0]!.key;
  while (entries.every((e) => e.key.length > depth + common && e.key[depth + common] === first[depth + common])) common++;
  if (common > 0) return [hexPrefix(first.slice(depth, depth + common), false), ref(build(entries, depth + common))];
  const branch: RlpItem[] = Array.from({ length: 17 }, () => new Uint8Array());
  for (let n = 0; n < 16; n++) {
    const sub = entries.filter((e) => e.key[depth] === n);
    if (sub.length > 0) branch[n] = ref(build(sub, depth + 1));
  }
  const here = entries.find((e) => e.key.length === depth);
  if (here) branch[16] = here.value;
  return branch;
}

/** Root of the trie mapping rlp(i) → values[i] (go-ethereum `DeriveSha`); the empty trie's root for none. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return keccak256(rlp(new Uint8Array()));
  const entries = values.map((value, i) => {
    const k = rlp(uintBytes(i));
    const key: number[] = [];
    for (const b of k) key.push(b >> 4, b & 15);
    return { key, value };
  });
  return keccak256(rlp(build(entries, 0)));
}

/** A log as a receipt holds it (0x hex). */
export interface ReceiptLog { readonly address: string; readonly topics: readonly string[]; readonly data: string }

const bytes = (h: string): Uint8Array => Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex');

/** The 2048-bit logs bloom of a receipt's logs. */
export function logsBloom(logs: readonly ReceiptLog[]): Uint8Array {
  const bloom = new Uint8Array(256);
  for (const l of logs) {
    addToBloom(bloom, bytes(l.address));
    for (const t of l.topics) addToBloom(bloom, bytes(t));
  }
  return bloom;
}

/** The consensus encoding of a receipt (EIP-2718: `type || rlp(...)` for typed txs, plain RLP for legacy). */
export function encodeReceipt(type: number, success: boolean, cumulativeGasUsed: bigint, logs: readonly ReceiptLog[]): Uint8Array {
  return encodeReceiptBytes(type, success, cumulativeGasUsed, logsBloom(logs), logs.map((l) => [bytes(l.address), l.topics.map(bytes), bytes(l.data)]));
}

/** A log as bytes: address, topics, data. */
export type LogBytes = readonly [Uint8Array, readonly Uint8Array[], Uint8Array];

/** `encodeReceipt` of logs as bytes, with their bloom (`logsBloom`) already computed. */
export function encodeReceiptBytes(type: number, success: boolean, cumulativeGasUsed: bigint, bloom: Uint8Array, logs: readonly LogBytes[]): Uint8Array {
  const body = rlp([success ? Uint8Array.of(1) : new Uint8Array(), uintBytes(cumulativeGasUsed), bloom, logs as unknown as RlpItem[]]);
  return type === 0 ? body : Buffer.concat([Uint8Array.of(type), body]);
}

// ---- the header ----

export const ETH_ZERO_HASH = '0x' + '00'.repeat(32);
/** keccak256(rlp("")): the root of the empty trie (no txs, no receipts, no withdrawals) */
export const ETH_EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** keccak256(rlp([])): the hash of an empty uncle list */
export const ETH_EMPTY_UNCLES = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
/** EIP-7685 requests hash of a block without requests: sha256 of nothing */
export const ETH_EMPTY_REQUESTS_HASH = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
export const ETH_ZERO_NONCE = '0x0000000000000000';

/** The header fields that vary per block (0x hex strings for hashes and bytes, integers for quantities). */
export interface EthHeaderFields {
  readonly parentHash: string;
  readonly miner: string;
  readonly stateRoot: string;
  readonly transactionsRoot: string;
  readonly receiptsRoot: string;
  readonly logsBloom: string;
  readonly number: bigint | number;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly timestamp: bigint | number;
  readonly extraData: string;
  readonly baseFee: bigint;
  /** the prevRandao of a simulated block (eth_simulateV1's block override); the zero hash otherwise */
  readonly mixHash?: string;
  /** EIP-4844 blob gas of a simulated block's blob calls (eth_simulateV1) and its excess; 0 otherwise (no blobs) */
  readonly blobGasUsed?: bigint;
  readonly excessBlobGas?: bigint;
}

/** RLP(header): the 21 fields of a Prague header in geth's order. */
export function encodeEthHeader(h: EthHeaderFields): Uint8Array {
  return rlp([
    bytes(h.parentHash), bytes(ETH_EMPTY_UNCLES), bytes(h.miner), bytes(h.stateRoot), bytes(h.transactionsRoot), bytes(h.receiptsRoot),
    bytes(h.logsBloom), uintBytes(0), uintBytes(h.number), uintBytes(h.gasLimit), uintBytes(h.gasUsed),
    uintBytes(h.timestamp), bytes(h.extraData), bytes(h.mixHash ?? ETH_ZERO_HASH), bytes(ETH_ZERO_NONCE), uintBytes(h.baseFee),
    bytes(ETH_EMPTY_ROOT), uintBytes(h.blobGasUsed ?? 0n), uintBytes(h.excessBlobGas ?? 0n), bytes(ETH_ZERO_HASH), bytes(ETH_EMPTY_REQUESTS_HASH),
  ]);
}

/** keccak256(RLP(header)), 0x-prefixed lowercase hex: geth's `header.Hash()`. */
export function ethHeaderHash(h: EthHeaderFields): string {
  return '0x' + Buffer.from(keccak256(encodeEthHeader(h))).toString('hex');
}

/**
 * The header's `stateRoot` for an app hash: the app hash itself when it has 32 bytes, the zero hash when it is
 * empty (a chain before its first commit), else its keccak256 (the field has 32 bytes).
 */
export function ethStateRoot(appHash: Uint8Array): string {
  const h = appHash.length === 32 ? appHash : appHash.length === 0 ? new Uint8Array(32) : keccak256(appHash);
  return '0x' + bytesToString(h, 'hex');
}
