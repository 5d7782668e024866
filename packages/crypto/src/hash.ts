/**
 * Hash functions used by the chain. sha256 uses node:crypto (SHA-NI); keccak256 the native `keccak`
 * addon (@noble/hashes when it does not load); ripemd160 @noble/hashes.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';
import { bytesToString } from './encoding.js';

/** node:crypto's one-shot `hash` (Node >= 20.12): ~0.35 µs less per small input than a `createHash` object */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(oneShot !== undefined ? oneShot('sha256', data, 'buffer') : createHash('sha256').update(data).digest());
}

/** The Keccak sponge of the `keccak` package's native addon (we call it directly: its hash API is a stream). */
interface KeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}
let state: KeccakState | undefined;
try {
  // Loaded through the package's own node-gyp-build; when the addon does not load we use noble (not the
  // package's slower JS fallback), and nativeKeccak says so.
  const require = createRequire(import.meta.url);
  const bindings = require.resolve('keccak/bindings');
  const KeccakStateCtor = createRequire(bindings)('node-gyp-build')(dirname(bindings)) as new () => KeccakState;
  if (typeof KeccakStateCtor !== 'function') throw new Error('keccak addon did not load');
  state = new KeccakStateCtor();
} catch {
  state = undefined;
}

/** True when keccak256 runs on the native addon (about 6x @noble/hashes on 200-byte inputs). */
export const nativeKeccak = state !== undefined;

export function keccak256(data: Uint8Array): Uint8Array {
  if (state) {
    // one sponge, reset per call: hashing is synchronous, and each worker thread loads its own module
    state.initialize(1088, 512);
    state.absorb(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    const d = state.squeeze(32);
    return new Uint8Array(d.buffer, d.byteOffset, 32);
  }
  return keccak_256(data);
}

export function ripemd160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(data);
}

/**
 * The bloom bits of recent short inputs (addresses and topics recur: the same contracts, events and accounts in
 * block after block), each packed as three 11-bit positions: a keccak256 per log entry was ~1% of a node's main thread
 * under ERC-20 load. Cleared when full.
 */
const bloomBits = new Map<string, number>();
const BLOOM_CACHE_ENTRIES = 8192;

/** Adds `data` to a 2048-bit Ethereum logs bloom (3 bits chosen by keccak256(data); the yellow paper's M3:2048). */
export function addToBloom(bloom: Uint8Array, data: Uint8Array): void {
  const key = data.length <= 64 ? bytesToString(data, 'latin1') : undefined;
  let bits = key === undefined ? undefined : bloomBits.get(key);
  if (bits === undefined) {
    const h = keccak256(data);
    bits = (((h[0]! << 8) | h[1]!) & 2047) + (((h[2]! << 8) | h[3]!) & 2047) * 2048 + (((h[4]! << 8) | h[5]!) & 2047) * 4194304;
    if (key !== undefined) {
      if (bloomBits.size >= BLOOM_CACHE_ENTRIES) bloomBits.clear();
      bloomBits.set(key, bits);
    }
  }
  let rest: number = bits;
  for (let i = 0; i < 3; i++) {
    const bit = rest % 2048;
    rest = (rest - bit) / 2048;
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
  }
}
