/** Random accounts of a run: a secp256k1 account key and an ed25519 consensus key each, from the run's `Rand`. */
import { ed25519PublicKey, secp256k1Address, secp256k1PublicKey, sha256, toBech32 } from '@chain/crypto';
import type { Rand } from './rand.js';
import type { SimAccount } from './types.js';

/** `n` accounts with bech32 addresses of `prefix`, deterministic in the state of `rand`. */
export function createAccounts(rand: Rand, n: number, prefix: string): SimAccount[] {
  const out: SimAccount[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const priv = rand.bytes(32);
    const consPriv = rand.bytes(32);
    let pub: Uint8Array;
    try {
      pub = secp256k1PublicKey(priv);
    } catch {
      continue; // zero or not below the curve order: draw again
    }
    const addr = secp256k1Address(pub);
    const hex = Buffer.from(addr).toString('hex');
    if (seen.has(hex)) continue;
    seen.add(hex);
    const consPub = ed25519PublicKey(consPriv);
    out.push({
      index: out.length, priv, pub, addr, address: toBech32(prefix, addr), consPriv, consPub, consAddr: sha256(consPub).subarray(0, 20),
    });
  }
  return out;
}
