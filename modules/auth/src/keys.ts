/**
 * auth store layout (module store key `acc`):
 *   0x01 | address(20)          → Any(BaseAccount | ModuleAccount)
 *   0x02                         → next account number (uint64 decimal text)
 *   0x03                         → Params
 *   0x04 | account number (BE64) → address (index for AccountAddressByID)
 */
export const MODULE_NAME = 'auth';
export const STORE_KEY = 'acc';
export const FEE_COLLECTOR = 'fee_collector';

export const ACCOUNT_PREFIX = Uint8Array.of(0x01);
export const NEXT_ACCOUNT_NUMBER_KEY = Uint8Array.of(0x02);
export const PARAMS_KEY = Uint8Array.of(0x03);
export const ACCOUNT_NUMBER_PREFIX = Uint8Array.of(0x04);

export function accountKey(address: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + address.length);
  k[0] = 0x01;
  k.set(address, 1);
  return k;
}

export function accountNumberKey(n: bigint): Uint8Array {
  const k = new Uint8Array(9);
  k[0] = 0x04;
  new DataView(k.buffer).setBigUint64(1, n);
  return k;
}

export const BASE_ACCOUNT = 'chain.auth.v1beta1.BaseAccount';
export const MODULE_ACCOUNT = 'chain.auth.v1beta1.ModuleAccount';
export const SECP256K1_PUBKEY = 'chain.crypto.secp256k1.PubKey';
export const ETH_SECP256K1_PUBKEY = 'chain.crypto.ethsecp256k1.PubKey';
export const ED25519_PUBKEY = 'chain.crypto.ed25519.PubKey';
