/**
 * Pool naming of the original (x/liquidity/types/utils.go, liquidity_pool.go): the pool name
 * `denomA/denomB/typeId` (denoms sorted), the reserve account sha256(name)[:20] and the pool coin denom
 * `pool` + UPPERHEX(sha256(name)).
 */
import { isValidDenom } from '@chain/app';
import { sha256 } from '@chain/crypto';
import { Errors } from '@chain/errors';
import { LiquidityErrors } from './errors.js';
import type { Pool } from './gen/chain/liquidity/v1beta1.js';
import { MAX_RESERVE_COIN_NUM, MIN_RESERVE_COIN_NUM, POOL_COIN_DENOM_PREFIX } from './params.js';
import { MODULE_NAME } from './keys.js';

const utf8 = (t: string): Uint8Array => new TextEncoder().encode(t);

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** `AlphabeticalDenomPair`. */
export function alphabeticalDenomPair(a: string, b: string): [string, string] {
  return a > b ? [b, a] : [a, b];
}

/** `PoolName`: the sorted denoms and the type id joined by `/`. */
export function poolName(denoms: readonly string[], typeId: number): string {
  return [...[...denoms].sort(), String(typeId)].join('/');
}

/** `SortDenoms`: the denoms sorted (a sorted copy; the original sorts in place and returns the slice). */
export function sortDenoms(denoms: readonly string[]): string[] {
  return [...denoms].sort();
}

/**
 * ADR-28 `address.Module(ModuleName, key)` of SDK v0.45: sha256(sha256("module") || "liquidity" || 0 || key), the
 * original's `len32` reserve account ("temporarily added for testing"; the module itself always uses 20 bytes).
 */
function moduleAddress32(key: string): Uint8Array {
  const typ = sha256(utf8('module'));
  const k = utf8(key);
  const m = utf8(MODULE_NAME);
  const buf = new Uint8Array(typ.length + m.length + 1 + k.length);
  buf.set(typ, 0);
  buf.set(m, typ.length);
  buf.set(k, typ.length + m.length + 1);
  return sha256(buf);
}

/** `GetPoolReserveAcc(name, len32)`: the first 20 bytes of sha256(name); with `len32`, ADR-28 of the denom's hex. */
export function poolReserveAcc(name: string, len32 = false): Uint8Array {
  if (len32) return moduleAddress32(poolCoinDenom(name).slice(POOL_COIN_DENOM_PREFIX.length));
  return sha256(utf8(name)).slice(0, 20);
}

/** `GetPoolCoinDenom`: `pool` + the upper-case hex of sha256(name). */
export function poolCoinDenom(name: string): string {
  return POOL_COIN_DENOM_PREFIX + hex(sha256(utf8(name))).toUpperCase();
}

/**
 * `GetReserveAcc(poolCoinDenom, len32)`: the reserve account a pool coin denom names. A bad denom → sdk 10
 * (`invalid denom: …`), no `pool` prefix or not 64 characters after it → liquidity 4 (`ErrInvalidDenom`), no hex →
 * sdk 10 as well (the original: the hex decoder's plain error).
 */
export function getReserveAcc(denom: string, len32 = false): Uint8Array {
  if (!isValidDenom(denom)) throw Errors.InvalidCoins.wrap(`invalid denom: ${denom}`);
  if (!denom.startsWith(POOL_COIN_DENOM_PREFIX)) throw LiquidityErrors.InvalidDenom.error();
  const h = denom.slice(POOL_COIN_DENOM_PREFIX.length);
  if (h.length !== 64) throw LiquidityErrors.InvalidDenom.error();
  if (len32) return moduleAddress32(h);
  if (!/^[0-9a-fA-F]{40}$/.test(h.slice(0, 40))) throw Errors.InvalidCoins.wrap(`encoding/hex: invalid byte in ${h.slice(0, 40)}`);
  return Uint8Array.from(h.slice(0, 40).match(/../g)!.map((x) => parseInt(x, 16)));
}

/** `GetReserveAcc(poolCoinDenom, false)`: the reserve account a pool coin denom names, or undefined. */
export function reserveAccFromPoolCoinDenom(denom: string): Uint8Array | undefined {
  try {
    return getReserveAcc(denom);
  } catch {
    return undefined;
  }
}

/**
 * `Pool.Validate` of types/liquidity_pool.go (used by no keeper path of the original, kept for its test): id,
 * type, denoms (count, order), reserve account (`encode`: the chain's bech32 of GetPoolReserveAcc), pool coin
 * denom. As the original, the pool coin denom must equal the pool's *name* (not `GetPoolCoinDenom`).
 */
export function validatePool(pool: Pool, encode: (address: Uint8Array) => string): void {
  if (pool.id === 0n) throw LiquidityErrors.PoolNotExists.error();
  if (pool.type_id === 0) throw LiquidityErrors.PoolTypeNotExists.error();
  const denoms = pool.reserve_coin_denoms;
  if (denoms.length === 0) throw LiquidityErrors.NumOfReserveCoinDenoms.error();
  if (denoms.length > MAX_RESERVE_COIN_NUM || denoms.length < MIN_RESERVE_COIN_NUM) throw LiquidityErrors.NumOfReserveCoinDenoms.error();
  const [a, b] = alphabeticalDenomPair(denoms[0]!, denoms[1]!);
  if (a !== denoms[0] || b !== denoms[1]) throw LiquidityErrors.BadOrderingReserveCoinDenoms.error();
  if (pool.reserve_account_address === '') throw LiquidityErrors.EmptyReserveAccountAddress.error();
  const name = poolName(denoms, pool.type_id);
  if (pool.reserve_account_address !== encode(poolReserveAcc(name))) throw LiquidityErrors.BadReserveAccountAddress.error();
  if (pool.pool_coin_denom === '') throw LiquidityErrors.EmptyPoolCoinDenom.error();
  if (pool.pool_coin_denom !== name) throw LiquidityErrors.BadPoolCoinDenom.error();
}
