/**
 * Account and validator keys. Verification of secp256k1 signatures (the hot path: every tx) uses the
 * native libsecp256k1 binding; signing (tools, tests, dev accounts) uses @noble/curves.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
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

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410) */
const ED25519_PKCS8_HEAD = Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20);

/**
 * The private key object of a 32-byte Ed25519 seed, for node:crypto (OpenSSL): its public key in ~0.1 ms and
 * signatures in ~0.05 ms where @noble/curves takes ~30 ms for its first key (its tables) and ~0.4 ms per signature.
 * Both follow RFC 8032: the same public key and the same (deterministic) signature.
 */
function ed25519Key(seed: Uint8Array): KeyObject {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new Error(`ed25519: a private key is a 32-byte seed, got ${seed instanceof Uint8Array ? `${seed.length} bytes` : typeof seed}`);
  const der = new Uint8Array(48);
  der.set(ED25519_PKCS8_HEAD);
  der.set(seed, 16);
  const key = createPrivateKey({ key: Buffer.from(der.buffer), format: 'der', type: 'pkcs8' });
  der.fill(0);
  return key;
}

export function ed25519PublicKey(privkey: Uint8Array): Uint8Array {
  // the SubjectPublicKeyInfo DER ends with the 32-byte key
  const spki = createPublicKey(ed25519Key(privkey)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

export function ed25519Sign(privkey: Uint8Array, msg: Uint8Array): Uint8Array {
  return new Uint8Array(nodeSign(null, msg, ed25519Key(privkey)));
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
