/**
 * bank store layout (module store key `bank`):
 *   0x00 | denom                        → total supply (decimal text)
 *   0x01 | denom                        → Metadata
 *   0x02 | len(addr) | addr | denom     → balance (decimal text)
 *   0x03 | denom | 0x00 | len(addr) | addr → empty (denom → owners index)
 *   0x04 | denom                        → send enabled (0x01 / 0x00)
 *   0x05                                → Params
 */
export const MODULE_NAME = 'bank';
export const STORE_KEY = 'bank';

export const SUPPLY_PREFIX = Uint8Array.of(0x00);
export const METADATA_PREFIX = Uint8Array.of(0x01);
export const BALANCES_PREFIX = Uint8Array.of(0x02);
export const DENOM_OWNERS_PREFIX = Uint8Array.of(0x03);
export const SEND_ENABLED_PREFIX = Uint8Array.of(0x04);
export const PARAMS_KEY = Uint8Array.of(0x05);

const enc = new TextEncoder();

export function withPrefix(prefix: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  let n = prefix.length;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  out.set(prefix);
  let o = prefix.length;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

export function lenPrefixed(addr: Uint8Array): Uint8Array {
  const out = new Uint8Array(addr.length + 1);
  out[0] = addr.length;
  out.set(addr, 1);
  return out;
}

export function balanceKey(addr: Uint8Array, denom: string): Uint8Array {
  return withPrefix(BALANCES_PREFIX, lenPrefixed(addr), enc.encode(denom));
}

export function accountBalancesPrefix(addr: Uint8Array): Uint8Array {
  return withPrefix(BALANCES_PREFIX, lenPrefixed(addr));
}

export function denomOwnerKey(denom: string, addr: Uint8Array): Uint8Array {
  return withPrefix(DENOM_OWNERS_PREFIX, enc.encode(denom), Uint8Array.of(0x00), lenPrefixed(addr));
}

export function denomOwnersPrefix(denom: string): Uint8Array {
  return withPrefix(DENOM_OWNERS_PREFIX, enc.encode(denom), Uint8Array.of(0x00));
}

export function supplyKey(denom: string): Uint8Array {
  return withPrefix(SUPPLY_PREFIX, enc.encode(denom));
}

export function metadataKey(denom: string): Uint8Array {
  return withPrefix(METADATA_PREFIX, enc.encode(denom));
}

export function sendEnabledKey(denom: string): Uint8Array {
  return withPrefix(SEND_ENABLED_PREFIX, enc.encode(denom));
}
