/** Hash functions used by the chain. sha256 uses node:crypto (SHA-NI); keccak and ripemd160 come from @noble/hashes. */
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

export function ripemd160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(data);
}
