/** BIP-39 mnemonics and BIP-32/44 derivation (for dev accounts and tests). */
import { pbkdf2Sync } from 'node:crypto';
import { generateMnemonic as bip39Generate, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { HDKey } from '@scure/bip32';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

const masters = new Map<string, HDKey>();

/** BIP-39 seed → BIP-32 master key, cached per mnemonic (the seed stretch is the slow part). */
function master(mnemonic: string): HDKey {
  let m = masters.get(mnemonic);
  if (!m) {
    if (!validateMnemonic(mnemonic, wordlist)) throw new Error('invalid mnemonic');
    // BIP-39 seed: PBKDF2-HMAC-SHA512(NFKD(mnemonic), "mnemonic" + passphrase, 2048) — node:crypto for speed.
    const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
    m = HDKey.fromMasterSeed(new Uint8Array(seed));
    masters.set(mnemonic, m);
  }
  return m;
}

/** Private key at a BIP-32 path, e.g. `m/44'/118'/0'/0/0`. */
export function derivePrivateKey(mnemonic: string, path: string): Uint8Array {
  const key = master(mnemonic).derive(path);
  if (!key.privateKey) throw new Error(`no private key at ${path}`);
  return key.privateKey;
}

/** A new BIP-39 mnemonic from the system's random generator: 24 words (256 bits) by default, as the SDK's `keys add`. */
export function generateMnemonic(bits: 128 | 160 | 192 | 224 | 256 = 256): string {
  return bip39Generate(wordlist, bits);
}

/** Whether `mnemonic` is a valid English BIP-39 mnemonic (words and checksum). */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic.trim().split(/\s+/).join(' '), wordlist);
}

export function hdPath(coinType: number, index: number): string {
  return `m/44'/${coinType}'/0'/0/${index}`;
}
