/** JSON-RPC errors (Ethereum codes) and the hex / parameter helpers shared by the namespaces. */
import { bytesToString, fromHex } from '@chain/crypto';

export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export const ParseError = (m = 'parse error'): RpcError => new RpcError(-32700, m);
export const InvalidRequest = (m = 'invalid request'): RpcError => new RpcError(-32600, m);
export const MethodNotFound = (method: string): RpcError => new RpcError(-32601, `the method ${method} does not exist/is not available`);
export const InvalidParams = (m: string): RpcError => new RpcError(-32602, m);
export const ServerError = (m: string, data?: unknown): RpcError => new RpcError(-32000, m, data);
export const InternalError = (m: string): RpcError => new RpcError(-32603, m);
/** `execution reverted` (code 3) with the revert data as `data` */
export const Reverted = (reason: string | undefined, data: string): RpcError =>
  new RpcError(3, reason ? `execution reverted: ${reason}` : 'execution reverted', data);

export const ZERO_HASH = '0x' + '00'.repeat(32);
export const ZERO_ADDRESS = '0x' + '00'.repeat(20);
/** keccak256(rlp([])): the root of an empty trie */
export const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** keccak256(rlp([])) of an empty uncle list */
export const EMPTY_UNCLES = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

export function qty(n: bigint | number): string {
  return '0x' + BigInt(n).toString(16);
}

export function hex(b: Uint8Array): string {
  return '0x' + bytesToString(b, 'hex');
}

export function parseQty(v: unknown, name = 'quantity'): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw InvalidParams(`invalid ${name}: expected a 0x-prefixed hex quantity, got ${JSON.stringify(v)}`);
  return BigInt(v);
}

export function parseData(v: unknown, name = 'data'): Uint8Array {
  if (v === undefined || v === null) return new Uint8Array();
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw InvalidParams(`invalid ${name}: expected 0x-prefixed hex bytes`);
  return fromHex(v.slice(2).toLowerCase());
}

export function parseAddr(v: unknown, name = 'address'): string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw InvalidParams(`invalid ${name}: expected a 20-byte 0x address, got ${JSON.stringify(v)}`);
  return v.toLowerCase();
}

export function parseHash(v: unknown, name = 'hash'): string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(v)) throw InvalidParams(`invalid ${name}: expected a 32-byte 0x hash`);
  return v.toLowerCase();
}

export function parseBool(v: unknown, name = 'flag'): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw InvalidParams(`invalid ${name}: expected a boolean`);
  return v;
}

/** The params array of a call (a missing one is []). */
export function paramList(p: unknown): unknown[] {
  if (p === undefined || p === null) return [];
  if (!Array.isArray(p)) throw InvalidParams('params must be an array');
  return p;
}

/** Random 16-byte hex id without leading zeros (geth's rpc.NewID). */
export function newId(): string {
  const h = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^0+/, '');
  return '0x' + (h || '0');
}

const MAX_INT64 = (1n << 63n) - 1n;

/**
 * A block number as geth's `rpc.BlockNumber` reads it (hexutil.DecodeUint64, then at most int64), with geth's
 * messages (`invalid argument <arg>: …`, -32602). A JSON number that is a safe integer is accepted too.
 */
export function parseBlockNumber(v: unknown, arg: number): bigint {
  const bad = (m: string): RpcError => InvalidParams(`invalid argument ${arg}: ${m}`);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v !== 'string') throw bad(`json: cannot unmarshal ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v} into Go value of type string`);
  if (v === '') throw bad('empty hex string');
  if (!/^0x/i.test(v)) throw bad('hex string without 0x prefix');
  const digits = v.slice(2);
  if (digits === '') throw bad('hex string "0x"');
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw bad('invalid hex string');
  if (digits.length > 1 && digits[0] === '0') throw bad('hex number with leading zero digits');
  if (digits.length > 16) throw bad('hex number > 64 bits');
  const n = BigInt(v);
  if (n > MAX_INT64) throw bad('block number larger than int64');
  return n;
}

export const BLOCK_TAGS = ['latest', 'pending', 'safe', 'finalized', 'earliest'] as const;
export type BlockTag = (typeof BLOCK_TAGS)[number];

/** A parsed block parameter: a tag, a number, or a hash (geth's BlockNumberOrHash). */
export type BlockParam =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: bigint }
  | { readonly kind: 'hash'; readonly hash: string; readonly requireCanonical: boolean };

/**
 * geth's block parameter: a tag, a hex number, an EIP-1898 object `{blockNumber}` / `{blockHash,
 * requireCanonical}`, and (when `hashes`, i.e. BlockNumberOrHash) a plain 32-byte hash. Absent → latest.
 */
export function parseBlockParam(v: unknown, arg: number, hashes: boolean): BlockParam {
  if (v === undefined || v === null) return { kind: 'tag', tag: 'latest' };
  if (typeof v === 'string' && (BLOCK_TAGS as readonly string[]).includes(v)) return { kind: 'tag', tag: v as BlockTag };
  if (typeof v === 'string' && hashes && v.length === 66 && /^0x/i.test(v)) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(v)) throw InvalidParams(`invalid argument ${arg}: invalid hex string`);
    return { kind: 'hash', hash: v.toLowerCase(), requireCanonical: false };
  }
  if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as { blockNumber?: unknown; blockHash?: unknown; requireCanonical?: unknown };
    if (o.blockHash !== undefined && o.blockNumber !== undefined) throw InvalidParams(`invalid argument ${arg}: cannot specify both BlockHash and BlockNumber, choose one or the other`);
    if (o.blockHash !== undefined && o.blockHash !== null) {
      if (typeof o.blockHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(o.blockHash)) throw InvalidParams(`invalid argument ${arg}: invalid block hash`);
      const rc = o.requireCanonical;
      if (rc !== undefined && rc !== null && typeof rc !== 'boolean') throw InvalidParams(`invalid argument ${arg}: json: cannot unmarshal ${typeof rc} into Go struct field .requireCanonical of type bool`);
      return { kind: 'hash', hash: o.blockHash.toLowerCase(), requireCanonical: rc === true };
    }
    if (o.blockNumber === undefined || o.blockNumber === null) throw InvalidParams(`invalid argument ${arg}: invalid arguments; neither block nor hash specified`);
    if (typeof o.blockNumber === 'string' && (BLOCK_TAGS as readonly string[]).includes(o.blockNumber)) return { kind: 'tag', tag: o.blockNumber as BlockTag };
    return { kind: 'number', number: parseBlockNumber(o.blockNumber, arg) };
  }
  if (Array.isArray(v)) throw InvalidParams(`invalid argument ${arg}: json: cannot unmarshal array into Go value of type string`);
  return { kind: 'number', number: parseBlockNumber(v, arg) };
}
