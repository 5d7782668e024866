/** Dev keys of the dev mnemonic (`test test ... junk`), the accounts every test and `chaind dev` fund. */
import {
  DEV_MNEMONIC, derivePrivateKey, ethAddress, hdPath, secp256k1Address, secp256k1PublicKey, toBech32,
} from '@chain/crypto';

export interface DevKey {
  readonly priv: Uint8Array;
  /** compressed secp256k1 public key */
  readonly pub: Uint8Array;
  readonly addr: Uint8Array;
  /** bech32 account address */
  readonly address: string;
  /** eth_secp256k1 (coin type 60, Ethereum address, keccak256 signatures) rather than secp256k1 */
  readonly eth: boolean;
}

/** secp256k1 key `i` of the dev mnemonic (coin type 118, `m/44'/118'/0'/0/i`). */
export function devKey(i: number, prefix = 'chain'): DevKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(118, i));
  const pub = secp256k1PublicKey(priv);
  const addr = secp256k1Address(pub);
  return { priv, pub, addr, address: toBech32(prefix, addr), eth: false };
}

/** eth_secp256k1 key `i` of the dev mnemonic (coin type 60, the Hardhat accounts). */
export function devEthKey(i: number, prefix = 'chain'): DevKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(60, i));
  const pub = secp256k1PublicKey(priv);
  const addr = ethAddress(pub);
  return { priv, pub, addr, address: toBech32(prefix, addr), eth: true };
}
