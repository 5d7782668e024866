/**
 * Hash functions used by the chain. sha256 uses node:crypto (SHA-NI); keccak256 the native `keccak`
 * addon (@noble/hashes when it does not load); ripemd160 @noble/hashes.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
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

/** Adds `data` to a 2048-bit Ethereum logs bloom (3 bits chosen by keccak256(data); the yellow paper's M3:2048). */
export function addToBloom(bloom: Uint8Array, data: Uint8Array): void {
  const h = keccak256(data);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
  }
}
