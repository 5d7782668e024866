/**
 * Account and validator keys. Verification of secp256k1 signatures (the hot path: every tx) uses the
 * native libsecp256k1 binding; signing (tools, tests, dev accounts) uses @noble/curves.
 */
import { createRequire } from 'node:module';
import { secp256k1 as nobleSecp } from '@noble/curves/secp256k1.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256, keccak256, ripemd160 } from './hash.js';

interface NativeSecp {
  ecdsaVerify(sig: Uint8Array, msg32: Uint8Array, pubkey: Uint8Array): boolean;
  publicKeyConvert(pubkey: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
}

const require = createRequire(import.meta.url);
let native: NativeSecp | undefined;
try {
  // The binding (not the package root) so a failed native load is visible instead of a silent JS fallback.
  require('secp256k1/bindings');
  native = require('secp256k1') as NativeSecp;
} catch {
  native = undefined;
}

/** True when the native libsecp256k1 binding loaded (the node warns at start when it did not). */
export const nativeSecp256k1 = native !== undefined;

/** Verifies a 64-byte r||s secp256k1 signature over a 32-byte digest; high-S signatures are rejected. */
export function verifySecp256k1Digest(pubkey: Uint8Array, digest: Uint8Array, sig: Uint8Array): boolean {
  if (sig.length !== 64 || digest.length !== 32) return false;
  if (pubkey.length !== 33 && pubkey.length !== 65) return false;
  try {
    if (native) return native.ecdsaVerify(sig, digest, pubkey);
    return nobleSecp.verify(sig, digest, pubkey, { prehash: false, lowS: true, format: 'compact' });
  } catch {
    return false;
  }
}

/** Cosmos secp256k1: signature over sha256(signBytes). */
export function verifySecp256k1(pubkey: Uint8Array, signBytes: Uint8Array, sig: Uint8Array): boolean {
  return verifySecp256k1Digest(pubkey, sha256(signBytes), sig);
}

/** Ethermint eth_secp256k1: signature over keccak256(signBytes); 64 bytes r||s or 65 bytes r||s||v. */
export function verifyEthSecp256k1(pubkey: Uint8Array, signBytes: Uint8Array, sig: Uint8Array): boolean {
  const rs = sig.length === 65 ? sig.subarray(0, 64) : sig;
  return verifySecp256k1Digest(pubkey, keccak256(signBytes), rs);
}

/**
 * Recovers the public key of a 64-byte r||s signature with recovery id 0/1 over a 32-byte digest
 * (Ethereum's ecrecover), native libsecp256k1 when loaded. Throws on an invalid signature.
 */
export function recoverSecp256k1(sig: Uint8Array, recid: number, digest: Uint8Array, compressed = false): Uint8Array {
  if (native) return native.ecdsaRecover(sig, recid, digest, compressed);
  return nobleSecp.Signature.fromBytes(sig, 'compact').addRecoveryBit(recid).recoverPublicKey(digest).toBytes(compressed);
}

export function signSecp256k1Digest(privkey: Uint8Array, digest: Uint8Array): Uint8Array {
  return nobleSecp.sign(digest, privkey, { prehash: false, lowS: true, format: 'compact' });
}

/** Cosmos address of a compressed secp256k1 key: ripemd160(sha256(pubkey)). */
export function secp256k1Address(pubkey: Uint8Array): Uint8Array {
  return ripemd160(sha256(pubkey));
}

export function uncompressSecp256k1(pubkey: Uint8Array): Uint8Array {
  if (pubkey.length === 65) return pubkey;
  if (native) return native.publicKeyConvert(pubkey, false);
  return nobleSecp.Point.fromBytes(pubkey).toBytes(false);
}

export function compressSecp256k1(pubkey: Uint8Array): Uint8Array {
  if (pubkey.length === 33) return pubkey;
  return nobleSecp.Point.fromBytes(pubkey).toBytes(true);
}

/** Ethereum address of a secp256k1 key: last 20 bytes of keccak256(uncompressed key without 0x04). */
export function ethAddress(pubkey: Uint8Array): Uint8Array {
  return keccak256(uncompressSecp256k1(pubkey).subarray(1)).subarray(12);
}

export function secp256k1PublicKey(privkey: Uint8Array, compressed = true): Uint8Array {
  return nobleSecp.getPublicKey(privkey, compressed);
}

/** EIP-55 mixed-case checksum form of a 20-byte address. */
export function toChecksumAddress(address: Uint8Array): string {
  const hex = Buffer.from(address).toString('hex');
  const hash = Buffer.from(keccak256(new TextEncoder().encode(hex))).toString('hex');
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}

export function ed25519PublicKey(privkey: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(privkey);
}

export function ed25519Sign(privkey: Uint8Array, msg: Uint8Array): Uint8Array {
  return ed25519.sign(msg, privkey);
}

export function ed25519Verify(pubkey: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean {
  try {
    return ed25519.verify(sig, msg, pubkey);
  } catch {
    return false;
  }
}

export function randomBytes(n: number): Uint8Array {
  return new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n)));
}
