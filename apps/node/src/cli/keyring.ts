/**
 * The keyring of `chaind keys` (the Cosmos SDK's keyring, two backends):
 *
 * - `test`: `HOME/keyring-test/<name>.info`, plain JSON with the private key in hex. For development only.
 * - `file`: `HOME/keyring-file/<name>.info`, the public part (name, algo, address, public key, HD path) in clear
 *   and the private key encrypted with the keyring passphrase: scrypt (N 2^15, r 8, p 1, a random 16-byte salt
 *   per key) derives a 256-bit key for AES-256-GCM (a random 12-byte IV, the public part as associated data), both
 *   from node:crypto. `HOME/keyring-file/keyhash` holds an scrypt verifier of the passphrase: every operation that
 *   decrypts or adds a key checks the passphrase against it first, so a wrong passphrase is refused before
 *   anything is written and all keys of a keyring share one passphrase. No private key is ever written in clear.
 *
 * Keys: `secp256k1` (Cosmos: address ripemd160(sha256(compressed key)), BIP-44 coin type 118) and `eth_secp256k1`
 * (Ethermint: the Ethereum address keccak256(key)[12:] in bech32, coin type 60). Nothing here depends on the node:
 * the bech32 prefix is a parameter.
 */
import { createCipheriv, createDecipheriv, randomBytes as nodeRandomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  derivePrivateKey, ethAddress, fromBech32, fromHex, secp256k1Address, secp256k1PublicKey, toBech32, toHex,
} from '@chain/crypto';

export type KeyAlgo = 'secp256k1' | 'eth_secp256k1';
export type KeyringBackend = 'test' | 'file';
export const KEY_ALGOS: readonly KeyAlgo[] = ['secp256k1', 'eth_secp256k1'];

/** The public part of a key. */
export interface KeyInfo {
  readonly name: string;
  readonly algo: KeyAlgo;
  /** bech32 account address */
  readonly address: string;
  /** 20 address bytes */
  readonly addressBytes: Uint8Array;
  /** compressed secp256k1 public key (33 bytes) */
  readonly pubkey: Uint8Array;
  /** BIP-44 path it was derived at, if derived from a mnemonic */
  readonly path?: string;
}

/** Asks for the keyring (or export) passphrase; `create`: a new one (the caller may ask twice). */
export type PassphrasePrompt = (purpose: 'unlock' | 'create') => Promise<string>;

/** scrypt cost parameters (as go-ethereum's standard keystore: N 2^15... here r 8, p 1) */
const SCRYPT = { N: 1 << 15, r: 8, p: 1 } as const;
const SCRYPT_MAXMEM = 128 * SCRYPT.N * SCRYPT.r * 2;

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

export function defaultCoinType(algo: KeyAlgo): number {
  return algo === 'eth_secp256k1' ? 60 : 118;
}

/** `m/44'/<coin>'/<account>'/0/<index>` */
export function bip44Path(coinType: number, account = 0, index = 0): string {
  for (const [n, v] of [['coin type', coinType], ['account', account], ['index', index]] as const) {
    if (!Number.isInteger(v) || v < 0 || v >= 0x80000000) throw new Error(`invalid ${n} ${v}: expected an integer in [0, 2^31)`);
  }
  return `m/44'/${coinType}'/${account}'/0/${index}`;
}

export function parseAlgo(v: string | undefined): KeyAlgo {
  if (v === undefined) return 'secp256k1';
  if ((KEY_ALGOS as readonly string[]).includes(v)) return v as KeyAlgo;
  throw new Error(`unsupported key algorithm ${JSON.stringify(v)}: expected one of ${KEY_ALGOS.join(', ')}`);
}

/** The public part of a private key under an algo. */
export function keyInfoOf(name: string, algo: KeyAlgo, privkey: Uint8Array, prefix: string, path?: string): KeyInfo {
  const pubkey = secp256k1PublicKey(privkey, true);
  const addressBytes = algo === 'eth_secp256k1' ? ethAddress(pubkey) : secp256k1Address(pubkey);
  return { name, algo, address: toBech32(prefix, addressBytes), addressBytes, pubkey, path };
}

/** A key of a mnemonic at a BIP-32 path (BIP-39 seed without a passphrase, as `chaind dev`'s accounts). */
export function deriveKey(mnemonic: string, path: string): Uint8Array {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  try {
    return derivePrivateKey(words, path);
  } catch (e) {
    throw new Error(`invalid mnemonic: ${(e as Error).message}`);
  }
}


// ---- authenticated encryption of a secret under a passphrase ----

export interface SealedSecret {
  readonly kdf: 'scrypt';
  readonly kdfparams: { n: number; r: number; p: number; dklen: 32; salt: string };
  readonly cipher: 'aes-256-gcm';
  readonly iv: string;
  readonly ciphertext: string;
  readonly tag: string;
}

function kdf(passphrase: string, salt: Buffer, p: { n: number; r: number; p: number }): Buffer {
  return scryptSync(passphrase.normalize('NFKC'), salt, 32, { N: p.n, r: p.r, p: p.p, maxmem: Math.max(SCRYPT_MAXMEM, 128 * p.n * p.r * 2) });
}

export function seal(secret: Uint8Array, passphrase: string, aad: Uint8Array): SealedSecret {
  const salt = nodeRandomBytes(16);
  const key = kdf(passphrase, salt, { n: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  const iv = nodeRandomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad);
  const ciphertext = Buffer.concat([c.update(secret), c.final()]);
  return {
    kdf: 'scrypt', kdfparams: { n: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, dklen: 32, salt: salt.toString('hex') },
    cipher: 'aes-256-gcm', iv: iv.toString('hex'), ciphertext: ciphertext.toString('hex'), tag: c.getAuthTag().toString('hex'),
  };
}

export class WrongPassphraseError extends Error {}

export function unseal(s: SealedSecret, passphrase: string, aad: Uint8Array): Uint8Array {
  if (s.kdf !== 'scrypt' || s.cipher !== 'aes-256-gcm') throw new Error(`unsupported key encryption ${s.kdf}/${s.cipher}`);
  const key = kdf(passphrase, Buffer.from(s.kdfparams.salt, 'hex'), s.kdfparams);
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'hex'));
  d.setAAD(aad);
  d.setAuthTag(Buffer.from(s.tag, 'hex'));
  try {
    return new Uint8Array(Buffer.concat([d.update(Buffer.from(s.ciphertext, 'hex')), d.final()]));
  } catch {
    throw new WrongPassphraseError('invalid passphrase: decryption failed (wrong passphrase or a damaged key file)');
  }
}

// ---- armored export (`keys export` / `keys import`) ----

const ARMOR_BEGIN = '-----BEGIN CHAIN PRIVATE KEY-----';
const ARMOR_END = '-----END CHAIN PRIVATE KEY-----';

/** The private key encrypted under an export passphrase, as ASCII armor (the SDK's `keys export`; our own format). */
export function armorPrivateKey(privkey: Uint8Array, algo: KeyAlgo, passphrase: string): string {
  const body = Buffer.from(JSON.stringify({ algo, ...seal(privkey, passphrase, new TextEncoder().encode(algo)) })).toString('base64');
  const lines = body.match(/.{1,64}/g) ?? [];
  return [ARMOR_BEGIN, 'kdf: scrypt', `type: ${algo}`, '', ...lines, ARMOR_END].join('\n') + '\n';
}

export function unarmorPrivateKey(text: string, passphrase: string): { privkey: Uint8Array; algo: KeyAlgo } {
  const start = text.indexOf(ARMOR_BEGIN);
  const end = text.indexOf(ARMOR_END);
  if (start < 0 || end < start) throw new Error(`not an armored private key (expected ${ARMOR_BEGIN} ... ${ARMOR_END})`);
  const lines = text.slice(start + ARMOR_BEGIN.length, end).split('\n').map((l) => l.trim());
  const blank = lines.indexOf('', 1);
  const b64 = lines.slice(blank >= 0 ? blank : 0).filter((l) => l && !l.includes(':')).join('');
  let parsed: SealedSecret & { algo: string };
  try {
    parsed = JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as SealedSecret & { algo: string };
  } catch {
    throw new Error('damaged armored private key');
  }
  const algo = parseAlgo(parsed.algo);
  return { privkey: unseal(parsed, passphrase, new TextEncoder().encode(algo)), algo };
}

// ---- the keyring ----

interface StoredKey {
  name: string;
  type: 'local';
  algo: KeyAlgo;
  address: string;
  pubkey: string;
  path?: string;
  /** test backend only */
  privkey?: string;
  /** file backend only */
  crypto?: SealedSecret;
}

interface KeyHash { kdf: 'scrypt'; n: number; r: number; p: number; salt: string; hash: string }

export interface KeyringOptions {
  readonly backend: KeyringBackend;
  /** the client home (`--home`): the keyring lives in `HOME/keyring-<backend>` */
  readonly home: string;
  readonly prefix: string;
  /** the passphrase of the file backend (asked at most once per command) */
  readonly passphrase?: PassphrasePrompt;
}

export function parseBackend(v: string | undefined): KeyringBackend {
  if (v === undefined) return 'test';
  if (v === 'test' || v === 'file') return v;
  throw new Error(`unsupported keyring backend ${JSON.stringify(v)}: expected test or file (os, kwallet, pass and memory are not supported)`);
}

export class Keyring {
  readonly dir: string;
  readonly backend: KeyringBackend;
  private readonly prefix: string;
  private readonly prompt?: PassphrasePrompt;
  private unlocked?: string;

  constructor(opts: KeyringOptions) {
    this.backend = opts.backend;
    this.dir = join(opts.home, `keyring-${opts.backend}`);
    this.prefix = opts.prefix;
    this.prompt = opts.passphrase;
  }

  private file(name: string): string {
    return join(this.dir, `${name}.info`);
  }

  private read(name: string): StoredKey | undefined {
    const f = this.file(name);
    if (!NAME_RE.test(name) || !existsSync(f)) return undefined;
    return JSON.parse(readFileSync(f, 'utf8')) as StoredKey;
  }

  private infoOf(s: StoredKey): KeyInfo {
    return { name: s.name, algo: s.algo, address: s.address, addressBytes: fromBech32(s.address).data, pubkey: Buffer.from(s.pubkey, 'base64'), path: s.path };
  }

  /** Every key, by name. */
  list(): KeyInfo[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir).filter((f) => f.endsWith('.info')).sort()
      .map((f) => this.read(f.slice(0, -'.info'.length))).filter((s): s is StoredKey => s !== undefined).map((s) => this.infoOf(s));
  }

  has(name: string): boolean {
    return this.read(name) !== undefined;
  }

  /** A key by name or by its bech32 address (any prefix) or 0x address; throws a helpful error when unknown. */
  get(nameOrAddress: string): KeyInfo {
    const s = this.read(nameOrAddress);
    if (s) return this.infoOf(s);
    let bytes: Uint8Array | undefined;
    try {
      bytes = /^0x[0-9a-fA-F]{40}$/.test(nameOrAddress) ? fromHex(nameOrAddress.slice(2)) : fromBech32(nameOrAddress).data;
    } catch { /* not an address */ }
    if (bytes) {
      const hex = toHex(bytes);
      const hit = this.list().find((k) => toHex(k.addressBytes) === hex);
      if (hit) return hit;
    }
    const names = this.list().map((k) => k.name);
    throw new Error(`key ${JSON.stringify(nameOrAddress)} not found in the ${this.backend} keyring (${this.dir})` +
      (names.length ? `; known keys: ${names.join(', ')}` : '; it has no keys: create one with `chaind keys add NAME`') +
      (this.backend === 'test' ? '' : '; pass --keyring-backend to use another keyring'));
  }

  private keyhashFile(): string {
    return join(this.dir, 'keyhash');
  }

  /** The checked passphrase of the file backend (asks once; `create` when the keyring has none yet). */
  private async passphrase(): Promise<string> {
    if (this.unlocked !== undefined) return this.unlocked;
    if (!this.prompt) throw new Error('the file keyring needs a passphrase: give --keyring-passphrase-file FILE or type it on a terminal');
    const hf = this.keyhashFile();
    if (!existsSync(hf)) {
      const p = await this.prompt('create');
      if (p.length < 8) throw new Error('the keyring passphrase must be at least 8 characters long');
      const salt = nodeRandomBytes(16);
      const kh: KeyHash = { kdf: 'scrypt', ...{ n: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, salt: salt.toString('hex'), hash: kdf(p, salt, { n: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }).toString('hex') };
      this.ensureDir();
      writeFileSync(hf, JSON.stringify(kh) + '\n', { mode: 0o600 });
      this.unlocked = p;
      return p;
    }
    const kh = JSON.parse(readFileSync(hf, 'utf8')) as KeyHash;
    const p = await this.prompt('unlock');
    const got = kdf(p, Buffer.from(kh.salt, 'hex'), kh);
    const want = Buffer.from(kh.hash, 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new WrongPassphraseError(`invalid passphrase: it does not match the keyring's (${hf})`);
    this.unlocked = p;
    return p;
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private aad(s: { name: string; algo: string; address: string; pubkey: string }): Uint8Array {
    return new TextEncoder().encode(`${s.name}\n${s.algo}\n${s.address}\n${s.pubkey}`);
  }

  /** Stores a private key under `name`; refuses an existing name unless `overwrite`. */
  async add(name: string, privkey: Uint8Array, algo: KeyAlgo, opts: { path?: string; overwrite?: boolean } = {}): Promise<KeyInfo> {
    if (!NAME_RE.test(name)) throw new Error(`invalid key name ${JSON.stringify(name)}: use letters, digits, '_', '.', '-', '@' (at most 64)`);
    if (!opts.overwrite && this.has(name)) throw new Error(`key ${JSON.stringify(name)} already exists in the ${this.backend} keyring; delete it first or choose another name`);
    const info = keyInfoOf(name, algo, privkey, this.prefix, opts.path);
    const pub: StoredKey = { name, type: 'local', algo, address: info.address, pubkey: Buffer.from(info.pubkey).toString('base64'), ...(opts.path ? { path: opts.path } : {}) };
    const stored: StoredKey = this.backend === 'test'
      ? { ...pub, privkey: toHex(privkey) }
      : { ...pub, crypto: seal(privkey, await this.passphrase(), this.aad(pub)) };
    this.ensureDir();
    const tmp = this.file(name) + '.tmp';
    writeFileSync(tmp, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file(name));
    return info;
  }

  /** The private key of a key (the file backend asks for the passphrase). */
  async privateKey(nameOrAddress: string): Promise<Uint8Array> {
    const info = this.get(nameOrAddress);
    const s = this.read(info.name)!;
    if (s.privkey !== undefined) return fromHex(s.privkey);
    if (!s.crypto) throw new Error(`key ${info.name} has no private key`);
    return unseal(s.crypto, await this.passphrase(), this.aad(s));
  }

  /** Deletes a key (the file backend checks the passphrase first, as the SDK's). */
  async delete(name: string): Promise<void> {
    const info = this.get(name);
    if (this.backend === 'file') await this.privateKey(info.name);
    rmSync(this.file(info.name));
  }

  /** Renames a key. */
  rename(from: string, to: string): void {
    const s = this.read(from);
    if (!s) this.get(from);
    if (!NAME_RE.test(to)) throw new Error(`invalid key name ${JSON.stringify(to)}`);
    if (this.has(to)) throw new Error(`key ${JSON.stringify(to)} already exists`);
    if (s!.crypto) throw new Error('renaming a key of the file keyring is not supported: export it and import it under the new name');
    writeFileSync(this.file(to), JSON.stringify({ ...s!, name: to }, null, 2) + '\n', { mode: 0o600 });
    rmSync(this.file(from));
  }
}
