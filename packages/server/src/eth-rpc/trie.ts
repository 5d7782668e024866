/**
 * Ethereum block roots of the Ethereum txs of a block, as go-ethereum derives them (`types.DeriveSha`): the
 * root of a Merkle-Patricia trie keyed by rlp(index) whose values are the typed tx envelopes
 * (`transactionsRoot`) or the typed receipt encodings (`receiptsRoot`), and the receipt's logs bloom. A block
 * with the same Ethereum txs and results as an Ethereum block has the same two roots.
 */
import { addToBloom, keccak256 } from '@chain/crypto';

type RlpItem = Uint8Array | RlpItem[];

function rlpLength(len: number, offset: number): Uint8Array {
  if (len < 56) return Uint8Array.of(offset + len);
  const bytes: number[] = [];
  for (let n = len; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(offset + 55 + bytes.length, ...bytes);
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

export interface ReceiptLog { readonly address: string; readonly topics: readonly string[]; readonly data: string }

const bytes = (h: string): Uint8Array => Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex');

export { addToBloom };

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
  const body = rlp([
    success ? Uint8Array.of(1) : new Uint8Array(),
    uintBytes(cumulativeGasUsed),
    logsBloom(logs),
    logs.map((l) => [bytes(l.address), l.topics.map(bytes), bytes(l.data)]),
  ]);
  return type === 0 ? body : Buffer.concat([Uint8Array.of(type), body]);
}
