/**
 * Pool naming of the original (x/liquidity/types/utils.go, liquidity_pool.go): the pool name
 * `denomA/denomB/typeId` (denoms sorted), the reserve account sha256(name)[:20] and the pool coin denom
 * `pool` + UPPERHEX(sha256(name)).
 */
import { sha256 } from '@chain/crypto';
import { POOL_COIN_DENOM_PREFIX } from './params.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** `AlphabeticalDenomPair`. */
export function alphabeticalDenomPair(a: string, b: string): [string, string] {
  return a > b ? [b, a] : [a, b];
}

/** `PoolName`: the sorted denoms and the type id joined by `/`. */
export function poolName(denoms: readonly string[], typeId: number): string {
  return [...[...denoms].sort(), String(typeId)].join('/');
}

/** `GetPoolReserveAcc(name, false)`: the first 20 bytes of sha256(name). */
export function poolReserveAcc(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).slice(0, 20);
}

/** `GetPoolCoinDenom`: `pool` + the upper-case hex of sha256(name). */
export function poolCoinDenom(name: string): string {
  return POOL_COIN_DENOM_PREFIX + hex(sha256(new TextEncoder().encode(name))).toUpperCase();
}

/** `GetReserveAcc(poolCoinDenom, false)`: the reserve account a pool coin denom names, or undefined. */
export function reserveAccFromPoolCoinDenom(denom: string): Uint8Array | undefined {
  if (!denom.startsWith(POOL_COIN_DENOM_PREFIX)) return undefined;
  const h = denom.slice(POOL_COIN_DENOM_PREFIX.length);
  if (h.length !== 64 || !/^[0-9a-fA-F]+$/.test(h)) return undefined;
  return Uint8Array.from(h.slice(0, 40).match(/../g)!.map((x) => parseInt(x, 16)));
}
