/**
 * Signed Ethereum transactions: decoding with clear chain-id / type errors, sender recovery (decoded txs
 * are cached by their bytes, so wrapping, CheckTx, re-check and FinalizeBlock decode and recover each tx
 * once), fee arithmetic, and the Cosmos wrapper
 * (a TxRaw with the ExtensionOptionsEthereumTx option and no signatures) that carries them.
 */
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP } from '@ethereumjs/tx';
import type { AccessList2930Tx, FeeMarket1559Tx, LegacyTx } from '@ethereumjs/tx';
import { bigIntToBytes, bytesToBigInt, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { ProtoRegistry } from '@chain/codec';
import { bytesToString, concatBytes, keccak256, rlp, rlpListHeader, sharedVerifyPool, toBech32, toChecksumAddress, uintBytes } from '@chain/crypto';
import { EvmErrors } from './errors.js';
import { commonFor } from './crypto.js';
import { EVM_DENOM, EXTENSION_OPTION_ETH_TX, MSG_ETHEREUM_TX } from './keys.js';

export type SupportedTx = LegacyTx | AccessList2930Tx | FeeMarket1559Tx;

/** A decoded, signature-checked Ethereum tx with the numbers the ante handler and executor need. */
export interface EthTx {
  readonly raw: Uint8Array;
  /** keccak256(raw): the Ethereum tx hash */
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly type: 0 | 1 | 2;
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  /** gasPrice for legacy / 2930 txs, maxFeePerGas for 1559 */
  readonly gasFeeCap: bigint;
  /** gasPrice for legacy / 2930 txs, maxPriorityFeePerGas for 1559 */
  readonly gasTipCap: bigint;
  readonly to: Uint8Array | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  /** [address, slots] pairs of the EIP-2930 access list */
  readonly accessList: readonly [Uint8Array, Uint8Array[]][];
  readonly sender: Uint8Array;
  /** intrinsic gas (base + calldata + create + access list) */
  readonly intrinsicGas: bigint;
  /** EIP-7623 calldata floor (0 when it does not apply) */
  readonly floorGas: bigint;
  /** max(intrinsic, floor): the lowest acceptable gas limit */
  readonly minGasLimit: bigint;
  /** signed for a chain id (EIP-155 or typed); false for a legacy tx with v = 27/28 */
  readonly protected: boolean;
}

export interface DecodeOptions {
  /** accept a legacy tx signed without a chain id (v = 27/28); default false (evm/12) */
  readonly allowUnprotected?: boolean;
}

const UNPROTECTED = 'legacy transaction without EIP-155 chain id (v = 27/28)';

/**
 * Bounded FIFO cache: chain id + signed tx bytes → the decoded tx (successes only). Bounded by entries and
 * by bytes (a decoded tx costs about three times its size: key, copy, data), so that well-signed but
 * unfunded large txs cannot grow it; txs above `maxTxBytes` are not cached at all.
 */
class DecodedCache {
  private readonly map = new Map<string, EthTx>();
  private bytes = 0;
  constructor(private readonly maxEntries = 50_000, private readonly maxBytes = 32 * 1024 * 1024, readonly maxTxBytes = 16 * 1024) {}
  get(k: string): EthTx | undefined { return this.map.get(k); }
  set(k: string, v: EthTx): void {
    if (v.raw.length > this.maxTxBytes || this.map.has(k)) return;
    while (this.map.size > 0 && (this.map.size >= this.maxEntries || this.bytes + v.raw.length > this.maxBytes)) {
      const [first, old] = this.map.entries().next().value as [string, EthTx];
      this.map.delete(first);
      this.bytes -= old.raw.length;
    }
    this.map.set(k, v);
    this.bytes += v.raw.length;
  }
}
const decodedTxs = new DecodedCache();

function cacheKey(raw: Uint8Array, chainId: bigint): string {
  return `${chainId}:${bytesToString(raw, 'latin1')}`;
}

/** The chain id a raw tx claims (typed: its chainId field; legacy: from EIP-155 `v`), before full decoding. */
function claimedChainId(raw: Uint8Array): { type: number; chainId: bigint | undefined } {
  if (raw.length === 0) throw EvmErrors.InvalidTx.wrap('empty transaction');
  try {
    if (raw[0]! >= 0xc0) {
      const fields = RLP.decode(raw) as Uint8Array[];
      if (!Array.isArray(fields) || fields.length !== 9) throw new Error('legacy transaction must have 9 fields');
      const v = bytesToBigInt(fields[6] as Uint8Array);
      if (v === 27n || v === 28n) return { type: 0, chainId: undefined };
      if (v < 35n) throw new Error(`invalid v value ${v}`);
      return { type: 0, chainId: (v - 35n) / 2n };
    }
    const type = raw[0]!;
    if (type === 3 || type === 4) throw EvmErrors.TxTypeNotSupported.wrap(`transaction type ${type} (${type === 3 ? 'blob' : 'set code'}) is not supported; use legacy, EIP-2930 or EIP-1559`);
    if (type !== 1 && type !== 2) throw EvmErrors.TxTypeNotSupported.wrap(`unknown transaction type ${type}`);
    const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
    if (!Array.isArray(fields) || fields.length === 0) throw new Error('typed transaction payload must be an RLP list');
    return { type, chainId: bytesToBigInt(fields[0] as Uint8Array) };
  } catch (e) {
    if (EvmErrors.TxTypeNotSupported.is(e)) throw e;
    throw EvmErrors.InvalidTx.wrap(`rlp: ${(e as Error).message}`);
  }
}

/**
 * Decodes a signed tx for `chainId` and recovers its sender. Errors: evm/3 wrong chain id, evm/11 blob or
 * set-code tx, evm/12 unprotected legacy tx (unless `allowUnprotected`), evm/2 malformed, evm/4 bad signature.
 */
export function decodeEthTx(raw: Uint8Array, chainId: bigint, opts: DecodeOptions = {}): EthTx {
  const allow = opts.allowUnprotected === true;
  if (raw.length > decodedTxs.maxTxBytes) return decodeUncached(raw.slice(), chainId, allow);
  const key = cacheKey(raw, chainId);
  const cached = decodedTxs.get(key);
  if (cached) {
    if (!cached.protected && !allow) throw EvmErrors.UnprotectedTx.wrap(UNPROTECTED);
    return cached;
  }
  const decoded = decodeUncached(raw.slice(), chainId, allow);
  decodedTxs.set(key, decoded);
  return decoded;
}

function decodeUncached(raw: Uint8Array, chainId: bigint, allowUnprotected: boolean): EthTx {
  const parsed = parseEthTx(raw, chainId, allowUnprotected);
  let sender: Uint8Array;
  try {
    sender = keccak256(parsed.tx.getSenderPublicKey()).subarray(12);
  } catch (e) {
    throw EvmErrors.InvalidSignature.wrap((e as Error).message.replace(/ \(tx type=.*$/s, ''));
  }
  return withSender(parsed, sender);
}

interface ParsedEthTx {
  readonly raw: Uint8Array;
  readonly tx: SupportedTx;
  readonly chainId: bigint;
  /** the chain id the signature commits to (undefined: an unprotected legacy tx) */
  readonly claimed: bigint | undefined;
}

/** Everything of decodeUncached before the sender recovery: the same checks and errors. */
function parseEthTx(raw: Uint8Array, chainId: bigint, allowUnprotected: boolean): ParsedEthTx {
  const claimed = claimedChainId(raw);
  if (claimed.chainId === undefined && !allowUnprotected) throw EvmErrors.UnprotectedTx.wrap(UNPROTECTED);
  if (claimed.chainId !== undefined && claimed.chainId !== chainId) throw EvmErrors.InvalidChainId.wrap(`transaction chain id ${claimed.chainId} does not match the chain's ${chainId}`);
  let tx: SupportedTx;
  try {
    tx = createTxFromRLP(raw, { common: commonFor(chainId) }) as SupportedTx;
  } catch (e) {
    throw EvmErrors.InvalidTx.wrap((e as Error).message.replace(/ \(tx type=.*$/s, ''));
  }
  if (!tx.isSigned()) throw EvmErrors.InvalidSignature.wrap('transaction is not signed');
  return { raw, tx, chainId, claimed: claimed.chainId };
}

function withSender(p: ParsedEthTx, sender: Uint8Array): EthTx {
  const { raw, tx, chainId } = p;
  // The strict decoder (canonical RLP, no leading zeros, no trailing bytes) makes `raw` the tx's own
  // serialization, so its hash is keccak(raw) without re-encoding; the sender is keccak(pubkey)[12:].
  const hash = keccak256(raw);
  const hashHex = bytesToHex(hash);
  const intrinsicGas = tx.getIntrinsicGas();
  const minGasLimit = tx.getMinimumGasLimit();
  const is1559 = tx.type === 2;
  return {
    raw,
    hash,
    hashHex,
    type: tx.type as 0 | 1 | 2,
    chainId,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    gasFeeCap: is1559 ? (tx as FeeMarket1559Tx).maxFeePerGas : (tx as LegacyTx).gasPrice,
    gasTipCap: is1559 ? (tx as FeeMarket1559Tx).maxPriorityFeePerGas : (tx as LegacyTx).gasPrice,
    to: tx.to?.bytes,
    value: tx.value,
    data: tx.data,
    accessList: tx.type === 0 ? [] : (tx as AccessList2930Tx | FeeMarket1559Tx).accessList,
    sender,
    intrinsicGas,
    floorGas: minGasLimit > intrinsicGas ? minGasLimit : 0n,
    minGasLimit,
    protected: p.claimed !== undefined,
  };
}

/** The payload start and the end of the RLP item at `p` of a well-formed encoding (the strict decoder checked it). */
function rlpSpan(b: Uint8Array, p: number): { payload: number; end: number } {
  const x = b[p]!;
  if (x < 0x80) return { payload: p, end: p + 1 };
  if (x <= 0xb7) return { payload: p + 1, end: p + 1 + x - 0x80 };
  if (x < 0xc0 || x > 0xf7) {
    const ll = x < 0xc0 ? x - 0xb7 : x - 0xf7;
    let len = 0;
    for (let i = 1; i <= ll; i++) len = len * 256 + b[p + i]!;
    return { payload: p + 1 + ll, end: p + 1 + ll + len };
  }
  return { payload: p + 1, end: p + 1 + x - 0xc0 };
}

/**
 * What a tx's signature signs, hashed (ethereumjs's `getHashedMessageToSign`), from its encoding instead of encoding
 * the fields again: a typed tx's unsigned fields are the bytes of its list before `yParity`, under a new list header;
 * a legacy tx's are its first six fields, then (EIP-155) the chain id, 0 and 0. `raw` must be canonical (what
 * `createTxFromRLP` accepted); `chainId` is the legacy tx's EIP-155 id (undefined: unprotected).
 */
export function signingHash(raw: Uint8Array, type: number, chainId: bigint | undefined): Uint8Array {
  const typed = type !== 0;
  const list = rlpSpan(raw, typed ? 1 : 0);
  const fields = type === 2 ? 9 : type === 1 ? 8 : 6;
  let p = list.payload;
  for (let i = 0; i < fields; i++) p = rlpSpan(raw, p).end;
  const unsigned = raw.subarray(list.payload, p);
  const body = !typed && chainId !== undefined ? concatBytes(unsigned, rlp(uintBytes(chainId)), EIP155_ZEROS) : unsigned;
  return keccak256(concatBytes(typed ? Uint8Array.of(type) : EMPTY, rlpListHeader(body.length), body));
}

/** The two zero fields (r, s) that follow the chain id in what an EIP-155 legacy tx signs. */
const EIP155_ZEROS = Uint8Array.of(0x80, 0x80);
const EMPTY = new Uint8Array(0);

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The sender recovery of `decodeEthTx` on the verification pool's worker threads, ahead of the wrap and CheckTx
 * (eth_sendRawTransaction): when the tx decodes and its signature is in the form the decoder accepts (recovery id
 * 0/1 from `v` as the tx type and chain id give it, 0 < r < n, 0 < s <= n/2), the key recovered there gives the
 * sender and the decoded tx goes into the cache that `decodeEthTx` reads. Anything else (no pool, a bad or
 * malformed tx, no key) is left to `decodeEthTx`, which decodes on this thread and reports the error. Never throws.
 */
export async function precheckEthTx(raw: Uint8Array, chainId: bigint): Promise<void> {
  const pool = sharedVerifyPool();
  if (pool === undefined || raw.length > decodedTxs.maxTxBytes) return;
  const key = cacheKey(raw, chainId);
  if (decodedTxs.get(key) !== undefined) return;
  let parsed: ParsedEthTx;
  let digest: Uint8Array;
  let recovery: bigint;
  let r: bigint;
  let s: bigint;
  try {
    // unprotected txs decode here too: the cache keeps `protected`, which decodeEthTx checks on every read
    parsed = parseEthTx(raw.slice(), chainId, true);
    const tx = parsed.tx;
    if (tx.v === undefined || tx.r === undefined || tx.s === undefined) return;
    r = tx.r;
    s = tx.s;
    const v = tx.v;
    recovery = tx.type !== 0 ? v : parsed.claimed === undefined ? v - 27n : v - (chainId * 2n + 35n);
    if ((recovery !== 0n && recovery !== 1n) || r <= 0n || r >= SECP256K1_N || s <= 0n || s > SECP256K1_N / 2n) return;
    digest = signingHash(raw, tx.type, parsed.claimed);
  } catch {
    return;
  }
  const sig = new Uint8Array(64);
  sig.set(setLengthLeft(bigIntToBytes(r), 32), 0);
  sig.set(setLengthLeft(bigIntToBytes(s), 32), 32);
  const [pub] = await pool.recover([{ digest, sig, recovery: Number(recovery) }]);
  if (pub === undefined || decodedTxs.get(key) !== undefined) return;
  decodedTxs.set(key, withSender(parsed, keccak256(pub.subarray(1)).subarray(12)));
}

/** min(feeCap, baseFee + tipCap): what one unit of gas costs the sender in a block with `baseFee`. */
export function effectiveGasPrice(tx: Pick<EthTx, 'gasFeeCap' | 'gasTipCap'>, baseFee: bigint): bigint {
  const p = baseFee + tx.gasTipCap;
  return p < tx.gasFeeCap ? p : tx.gasFeeCap;
}

const checksummed = new Map<string, string>();

/** EIP-55 `0x` form of 20 address bytes (memoized: the same senders and contracts recur in every block). */
export function hexAddress(address: Uint8Array): string {
  const key = bytesToString(address, 'latin1');
  let hex = checksummed.get(key);
  if (hex === undefined) {
    if (checksummed.size >= 50_000) checksummed.clear();
    hex = toChecksumAddress(address);
    checksummed.set(key, hex);
  }
  return hex;
}

export interface WrapOptions {
  /** EIP-155 chain id the tx must be signed for */
  readonly chainId: bigint;
  /** bech32 account prefix of the chain (e.g. `chain`) */
  readonly prefix: string;
  /** EVM denom of the fee field (default `achain`) */
  readonly denom?: string;
  /** accept a tx signed without a chain id (see DecodeOptions) */
  readonly allowUnprotected?: boolean;
}

export interface WrappedEthTx {
  /** the Cosmos TxRaw bytes to broadcast (CheckTx / broadcast_tx_*) */
  readonly tx: Uint8Array;
  /** keccak256 of the signed Ethereum tx */
  readonly ethHash: Uint8Array;
  readonly sender: Uint8Array;
  readonly decoded: EthTx;
}

/**
 * Wraps a signed Ethereum tx (what `eth_sendRawTransaction` receives) into the Cosmos tx the chain
 * executes: one MsgEthereumTx {raw, from}, the ExtensionOptionsEthereumTx option, no signer infos or
 * signatures, fee = gasLimit × maxFeePerGas (gas price for legacy) in the EVM denom, gas = gasLimit.
 */
export function wrapEthereumTx(registry: ProtoRegistry, raw: Uint8Array, opts: WrapOptions): WrappedEthTx {
  const decoded = decodeEthTx(raw, opts.chainId, { allowUnprotected: opts.allowUnprotected });
  const msg = registry.packAny(MSG_ETHEREUM_TX, { raw, from: toBech32(opts.prefix, decoded.sender) });
  const ext = registry.packAny(EXTENSION_OPTION_ETH_TX, {});
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', { messages: [msg], memo: '', extension_options: [ext] });
  const feeAmount = decoded.gasLimit * decoded.gasFeeCap;
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: [],
    fee: { amount: feeAmount > 0n ? [{ denom: opts.denom ?? EVM_DENOM, amount: feeAmount.toString() }] : [], gas_limit: decoded.gasLimit, payer: '', granter: '' },
  });
  const tx = registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [] });
  return { tx, ethHash: decoded.hash, sender: decoded.sender, decoded };
}

const ERROR_SELECTOR = '08c379a0';
const PANIC_SELECTOR = '4e487b71';

/** The reason of `Error(string)` / `Panic(uint256)` revert data, if it decodes. */
export function revertReason(ret: Uint8Array): string | undefined {
  if (ret.length < 4) return undefined;
  const sel = Buffer.from(ret.subarray(0, 4)).toString('hex');
  try {
    if (sel === ERROR_SELECTOR && ret.length >= 68) {
      const len = Number(bytesToBigInt(ret.subarray(36, 68)));
      if (68 + len > ret.length) return undefined;
      return new TextDecoder('utf-8', { fatal: true }).decode(ret.subarray(68, 68 + len));
    }
    if (sel === PANIC_SELECTOR && ret.length >= 36) return `panic: 0x${bytesToBigInt(ret.subarray(4, 36)).toString(16)}`;
  } catch {
    return undefined;
  }
  return undefined;
}
