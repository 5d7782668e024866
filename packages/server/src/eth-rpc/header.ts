/**
 * The Ethereum header of a block, as geth encodes it (`types.Header`, the Prague field set): the hash the
 * JSON-RPC serves for a block is keccak256(RLP(header)) of exactly the fields it shows, so any client that
 * recomputes `header.Hash()` from `eth_getBlockByNumber` agrees. The fields of a chain without proof of work,
 * withdrawals, blobs or a beacon chain are the constants below; `extraData` is the CometBFT block hash
 * (32 bytes, geth's limit), so the Ethereum hash commits to the Cosmos block it stands for.
 */
import { keccak256 } from '@chain/crypto';
import { rlp, uintBytes } from './trie.js';
import { EMPTY_ROOT, EMPTY_UNCLES, ZERO_HASH } from './util.js';

/** EIP-7685 requests hash of a block without requests: sha256 of nothing */
export const EMPTY_REQUESTS_HASH = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
export const ZERO_NONCE = '0x0000000000000000';

/** The header fields that vary per block (hex strings for hashes/bytes, numbers for quantities). */
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
}

const b = (h: string): Uint8Array => Buffer.from(h.slice(2), 'hex');

/** RLP(header), the 21 fields of a Prague header in geth's order. */
export function encodeHeader(h: EthHeaderFields): Uint8Array {
  return rlp([
    b(h.parentHash), b(EMPTY_UNCLES), b(h.miner), b(h.stateRoot), b(h.transactionsRoot), b(h.receiptsRoot),
    b(h.logsBloom), uintBytes(0), uintBytes(h.number), uintBytes(h.gasLimit), uintBytes(h.gasUsed),
    uintBytes(h.timestamp), b(h.extraData), b(h.mixHash ?? ZERO_HASH), b(ZERO_NONCE), uintBytes(h.baseFee),
    b(EMPTY_ROOT), uintBytes(0), uintBytes(0), b(ZERO_HASH), b(EMPTY_REQUESTS_HASH),
  ]);
}

/** keccak256(RLP(header)), 0x-prefixed. */
export function headerHash(h: EthHeaderFields): string {
  return '0x' + Buffer.from(keccak256(encodeHeader(h))).toString('hex');
}
