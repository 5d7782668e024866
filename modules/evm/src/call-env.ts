/**
 * What a call request (eth_call, eth_estimateGas, eth_simulateV1) says beyond from/to/data/value/gas, as geth
 * reads it: the EIP-2930 access list (warm addresses and slots, 2400 gas per address and 1900 per storage key
 * of intrinsic cost), the fee fields of a type-1/2 tx (`TransactionArgs.ToMessage`: with maxFeePerGas /
 * maxPriorityFeePerGas the gas price is min(tip + base fee, max fee)) with the state transition's fee checks,
 * and geth's BlockOverrides (`override.BlockOverrides.Apply`): the block the call runs in.
 */
import { fromHex } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { toChecksumAddress } from '@ethereumjs/util';
import type { BlockEnv } from './executor.js';

const invalid = (msg: string): Error => statusError(GrpcCode.INVALID_ARGUMENT, msg);

/** EIP-2930 intrinsic costs */
export const ACCESS_LIST_ADDRESS_COST = 2400n;
export const ACCESS_LIST_SLOT_COST = 1900n;

/** An access list: [address (20 bytes), storage keys (32 bytes each)] pairs, as a tx carries it. */
export type AccessList = [Uint8Array, Uint8Array[]][];

/** An EIP-2930 access list from JSON (text, or the value), `[{address, storageKeys}]`; empty for none. */
export function parseAccessList(v: unknown): AccessList {
  if (v === undefined || v === null || v === '') return [];
  let list: unknown = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v) as unknown;
    } catch (e) {
      throw invalid(`invalid access list: ${(e as Error).message}`);
    }
  }
  if (list === null) return [];
  if (!Array.isArray(list)) throw invalid('invalid access list: expected an array');
  return list.map((e: unknown) => {
    const o = e as { address?: unknown; storageKeys?: unknown } | null;
    if (typeof o?.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(o.address)) throw invalid('invalid access list address');
    const keys = o.storageKeys ?? [];
    if (!Array.isArray(keys)) throw invalid('invalid access list storage keys: expected an array');
    return [fromHex(o.address.slice(2).toLowerCase()), keys.map((k: unknown) => {
      if (typeof k !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(k)) throw invalid('invalid access list storage key');
      return fromHex(k.slice(2).toLowerCase());
    })];
  });
}

/** The intrinsic gas of an access list (EIP-2930): duplicates count as often as they appear, as geth counts them. */
export function accessListGas(list: AccessList): bigint {
  let gas = 0n;
  for (const [, keys] of list) gas += ACCESS_LIST_ADDRESS_COST + ACCESS_LIST_SLOT_COST * BigInt(keys.length);
  return gas;
}

/** The prices of a call (geth's core.Message fields). */
export interface CallFees {
  /** the price GASPRICE shows and the sender pays per gas */
  readonly gasPrice: bigint;
  readonly feeCap: bigint;
  readonly tipCap: bigint;
}

function amount(field: string, text: unknown): bigint | undefined {
  const s = String(text ?? '').trim();
  if (s === '') return undefined;
  if (!/^[0-9]+$/.test(s)) throw invalid(`invalid ${field} '${s}': expected a decimal integer`);
  return BigInt(s);
}

/**
 * The fees of a call request (`gas_price`, `max_fee_per_gas`, `max_priority_fee_per_gas`, decimal) at a base
 * fee, as geth's `CallDefaults` + `ToMessage`: gasPrice with the 1559 fields is refused; a legacy price is
 * also both caps; with 1559 fields (missing ones 0) the price is min(tip + base fee, max fee), 0 when both are 0.
 */
export function callFees(req: { gas_price?: unknown; max_fee_per_gas?: unknown; max_priority_fee_per_gas?: unknown }, baseFee: bigint): CallFees {
  const price = amount('gas_price', req.gas_price);
  const feeCap = amount('max_fee_per_gas', req.max_fee_per_gas);
  const tipCap = amount('max_priority_fee_per_gas', req.max_priority_fee_per_gas);
  if (price !== undefined && (feeCap !== undefined || tipCap !== undefined)) {
    throw invalid('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (price !== undefined) return { gasPrice: price, feeCap: price, tipCap: price };
  const cap = feeCap ?? 0n;
  const tip = tipCap ?? 0n;
  if (cap === 0n && tip === 0n) return { gasPrice: 0n, feeCap: 0n, tipCap: 0n };
  const p = tip + baseFee;
  return { gasPrice: p > cap ? cap : p, feeCap: cap, tipCap: tip };
}

/**
 * geth's preCheck of the fee caps (London): skipped for a call with no fees when the base fee is disabled
 * (eth_call, eth_simulateV1 without validation); else the tip may not exceed the cap, nor the cap fall below
 * the block's base fee. Returns the error text, or undefined.
 */
export function feeCheck(from: Uint8Array, f: CallFees, baseFee: bigint, noBaseFee: boolean): string | undefined {
  if (noBaseFee && f.feeCap === 0n && f.tipCap === 0n) return undefined;
  const addr = toChecksumAddress('0x' + Buffer.from(from).toString('hex'));
  if (f.feeCap < f.tipCap) return `max priority fee per gas higher than max fee per gas: address ${addr}, maxPriorityFeePerGas: ${f.tipCap}, maxFeePerGas: ${f.feeCap}`;
  if (f.feeCap < baseFee) return `max fee per gas less than block base fee: address ${addr}, maxFeePerGas: ${f.feeCap}, baseFee: ${baseFee}`;
  return undefined;
}

/** geth's BlockOverrides, parsed (absent fields: not overridden). */
export interface BlockOverrides {
  readonly number?: bigint;
  readonly difficulty?: bigint;
  readonly time?: bigint;
  readonly gasLimit?: bigint;
  readonly feeRecipient?: Uint8Array;
  readonly prevRandao?: Uint8Array;
  readonly baseFeePerGas?: bigint;
  readonly blobBaseFee?: bigint;
  readonly beaconRoot?: Uint8Array;
  readonly withdrawals?: readonly unknown[];
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

function quantity(v: unknown, what: string, max: bigint): bigint {
  if (typeof v !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(v)) throw invalid(`invalid block override ${what}: expected a 0x-prefixed hex quantity, got ${JSON.stringify(v)}`);
  const n = BigInt(v);
  if (n > max) throw invalid(`invalid block override ${what}: ${v} is too large`);
  return n;
}

function fixedBytes(v: unknown, what: string, len: number): Uint8Array {
  if (typeof v !== 'string' || !new RegExp(`^0x[0-9a-fA-F]{${2 * len}}$`).test(v)) throw invalid(`invalid block override ${what}: expected 0x-prefixed hex of ${len} bytes`);
  return fromHex(v.slice(2).toLowerCase());
}

/**
 * geth's BlockOverrides from JSON (text or value; Go's decoding: field names matched case-insensitively,
 * unknown fields ignored). Undefined / null / '' is none.
 */
export function parseBlockOverrides(v: unknown): BlockOverrides | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let json: unknown = v;
  if (typeof v === 'string') {
    try {
      json = JSON.parse(v) as unknown;
    } catch (e) {
      throw invalid(`invalid block overrides: ${(e as Error).message}`);
    }
  }
  if (json === null) return undefined;
  if (typeof json !== 'object' || Array.isArray(json)) throw invalid('invalid block overrides: expected an object');
  const get = (name: string): unknown => {
    for (const [k, val] of Object.entries(json as Record<string, unknown>)) if (k.toLowerCase() === name.toLowerCase() && val !== null) return val;
    return undefined;
  };
  const q = (name: string, max: bigint): bigint | undefined => { const x = get(name); return x === undefined ? undefined : quantity(x, name, max); };
  const b = (name: string, len: number): Uint8Array | undefined => { const x = get(name); return x === undefined ? undefined : fixedBytes(x, name, len); };
  const w = get('withdrawals');
  if (w !== undefined && !Array.isArray(w)) throw invalid('invalid block override withdrawals: expected an array');
  return {
    number: q('number', MAX_UINT256),
    difficulty: q('difficulty', MAX_UINT256),
    time: q('time', MAX_UINT64),
    gasLimit: q('gasLimit', MAX_UINT64),
    feeRecipient: b('feeRecipient', 20),
    prevRandao: b('prevRandao', 32),
    baseFeePerGas: q('baseFeePerGas', MAX_UINT256),
    blobBaseFee: q('blobBaseFee', MAX_UINT256),
    beaconRoot: b('beaconRoot', 32),
    withdrawals: w as unknown[] | undefined,
  };
}

/**
 * A call's block with geth's `BlockOverrides.Apply` (eth_call, eth_estimateGas): beaconRoot and withdrawals
 * are refused with geth's message; difficulty is a no-op after the merge (DIFFICULTY reads PREVRANDAO).
 */
export function applyBlockOverrides(env: BlockEnv, o: BlockOverrides | undefined): BlockEnv {
  if (!o) return env;
  if (o.beaconRoot !== undefined) throw invalid('block override "beaconRoot" is not supported for this RPC method');
  if (o.withdrawals !== undefined) throw invalid('block override "withdrawals" is not supported for this RPC method');
  return {
    height: o.number ?? env.height,
    timestamp: o.time ?? env.timestamp,
    gasLimit: o.gasLimit ?? env.gasLimit,
    coinbase: o.feeRecipient ?? env.coinbase,
    prevRandao: o.prevRandao ?? env.prevRandao,
    baseFee: o.baseFeePerGas ?? env.baseFee,
    blobBaseFee: o.blobBaseFee ?? env.blobBaseFee,
  };
}
