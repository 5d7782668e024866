/** AccountKeeper: accounts (numbers, sequences, public keys), module accounts and auth params. */
import type { Context } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { equalBytes } from '@chain/crypto';
import { IdentityMemo, clonePlain } from '@chain/collections';
import type { CompactStringSet } from '@chain/collections';
import { Errors } from '@chain/errors';
import type { AddressCodec } from './address.js';
import { moduleAddress } from './address.js';
import type { BaseAccount, ModuleAccount } from './gen/chain/auth/v1beta1.js';
import { DEFAULT_AUTH_PARAMS } from './params.js';
import type { AuthParams } from './params.js';
import { authSchema, BASE_ACCOUNT, MODULE_ACCOUNT } from './keys.js';
import type { AuthState } from './keys.js';

export type { BaseAccount };

/** An account as the keeper hands it out: the base fields plus, for module accounts, name and permissions. */
export interface Account {
  readonly address: Uint8Array;
  base: BaseAccount;
  readonly module?: { readonly name: string; readonly permissions: readonly string[] };
}

export const Permission = { Minter: 'minter', Burner: 'burner', Staking: 'staking' } as const;

export interface AccountKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly addressCodec: AddressCodec;
  /** module account name → permissions */
  readonly moduleAccounts: Readonly<Record<string, readonly string[]>>;
}

export class AccountKeeper {
  readonly registry: ProtoRegistry;
  readonly addressCodec: AddressCodec;
  /** The module's state: the collections of `authSchema` (src/keys.ts). */
  readonly state: AuthState;
  private readonly perms: Map<string, readonly string[]>;
  private readonly moduleAddrs = new Map<string, Uint8Array>();
  /** per InitChain context, the bech32 addresses auth's genesis stored accounts for (dropped with the context) */
  private readonly genesisListed = new WeakMap<Context, CompactStringSet>();
  /** decoded accounts by the identity of their Any's value bytes (`accountFromAny`) */
  private readonly unpacked = new IdentityMemo<Uint8Array, { typeUrl: string; name: string; message: BaseAccount | ModuleAccount }>();

  constructor(opts: AccountKeeperOptions) {
    this.registry = opts.registry;
    this.addressCodec = opts.addressCodec;
    this.perms = new Map(Object.entries(opts.moduleAccounts));
    for (const name of this.perms.keys()) this.moduleAddrs.set(name, moduleAddress(name));
    this.state = authSchema(opts.registry);
  }

  getAccount(ctx: Context, address: Uint8Array): Account | undefined {
    const any = this.state.Accounts.get(ctx, address);
    return any ? this.accountFromAny(address, any) : undefined;
  }

  hasAccount(ctx: Context, address: Uint8Array): boolean {
    return this.state.Accounts.has(ctx, address);
  }

  /** @internal Auth's genesis stream records the bech32 addresses whose accounts it stored, for `listedInGenesis`. */
  recordGenesisAccounts(ctx: Context, addresses: CompactStringSet): void {
    this.genesisListed.set(ctx, addresses);
  }

  /**
   * Whether auth's genesis of this InitChain (its context `ctx`) stored an account for the bech32 `address` as written
   * there: that account exists (nothing removes accounts), answered without reading the store (another module's
   * genesis asks this once per entry of a large genesis). False says nothing: ask `hasAccount`.
   */
  listedInGenesis(ctx: Context, address: string): boolean {
    return this.genesisListed.get(ctx)?.has(address) ?? false;
  }

  /** Stores the account and its account-number index entry. */
  /** Stores `acc`; `packed` is its Any as `packAccount` gives it, when the caller has it already (genesis). */
  setAccount(ctx: Context, acc: Account, packed?: google_protobuf.Any): void {
    this.state.Accounts.set(ctx, acc.address, packed ?? this.packAccount(acc));
    this.state.AccountsByNumber.set(ctx, acc.base.account_number, acc.address);
  }

  /** A fresh account with the next account number (not yet stored). */
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account {
    return { address, base: { address: this.addressCodec.encode(address), pub_key: null, account_number: this.nextAccountNumber(ctx), sequence: 0n } };
  }

  /** Creates and stores a base account (the bank keeper calls this for new recipients). */
  createAccount(ctx: Context, address: Uint8Array): void {
    this.setAccount(ctx, this.newAccountWithAddress(ctx, address));
  }

  /** Address of the module account, creating the account on first use. */
  ensureModuleAccount(ctx: Context, name: string): Uint8Array {
    return this.getModuleAccount(ctx, name).address;
  }

  /** Returns the next account number and stores it + 1 (a collections Sequence's `next`). */
  nextAccountNumber(ctx: Context): bigint {
    const n = this.state.AccountNumber.get(ctx) ?? 0n;
    this.state.AccountNumber.set(ctx, n + 1n);
    return n;
  }

  addressByAccountNumber(ctx: Context, n: bigint): Uint8Array | undefined {
    return this.state.AccountsByNumber.get(ctx, n);
  }

  /** Every account, in address order. */
  *iterateAccounts(ctx: Context): IterableIterator<Account> {
    for (const { key, value } of this.state.Accounts.iterate(ctx)) yield this.accountFromAny(key, value);
  }

  /** An account from its stored bytes (an `Any`) and its address. */
  decodeAccount(address: Uint8Array, bz: Uint8Array): Account {
    return this.accountFromAny(address, this.state.Accounts.valueCodec.decode(bz));
  }

  /** An account from its `Any` (`BaseAccount` or `ModuleAccount`) and its address. */
  accountFromAny(address: Uint8Array, any: google_protobuf.Any): Account {
    // a stored account's Any comes with the stored value bytes (the store and its codec hand out the same instance
    // for the same stored value: @chain/collections' memo.ts), decoded once
    let hit = this.unpacked.get(any.value);
    if (hit === undefined || hit.typeUrl !== any.type_url) {
      hit = { typeUrl: any.type_url, ...this.registry.unpackAny<BaseAccount | ModuleAccount>(any) };
      this.unpacked.set(any.value, hit);
    }
    const name = hit.name;
    const message = clonePlain(hit.message);
    if (name === MODULE_ACCOUNT) {
      const m = message as ModuleAccount;
      // a stored module account always has its base account
      return { address, base: m.base_account!, module: { name: m.name, permissions: m.permissions } };
    }
    return { address, base: message as BaseAccount };
  }

  /** The account as an Any of `BaseAccount` or `ModuleAccount` (how it is stored, queried and exported). */
  packAccount(acc: Account): google_protobuf.Any {
    if (acc.module) {
      return this.registry.packAny(MODULE_ACCOUNT, { base_account: acc.base, name: acc.module.name, permissions: [...acc.module.permissions] });
    }
    const value = encodeBaseAccountFast(acc.base);
    return value !== undefined ? { type_url: BASE_ACCOUNT_URL, value } : this.registry.packAny(BASE_ACCOUNT, { ...acc.base });
  }

  // ---- module accounts ----

  moduleAccountNames(): string[] {
    return [...this.perms.keys()];
  }

  getModuleAddress(name: string): Uint8Array {
    return this.moduleAddrs.get(name) ?? moduleAddress(name);
  }

  /** The name of the module account at `address`, if it is one of this chain's module accounts. */
  moduleNameOf(address: Uint8Array): string | undefined {
    for (const [n, a] of this.moduleAddrs) if (equalBytes(a, address)) return n;
    return undefined;
  }

  hasPermission(name: string, perm: string): boolean {
    return this.perms.get(name)?.includes(perm) ?? false;
  }

  /** The module account, created on first use like the SDK's GetModuleAccount. */
  getModuleAccount(ctx: Context, name: string): Account {
    const perms = this.perms.get(name);
    if (!perms) throw Errors.UnknownAddress.wrap(`module account ${name} does not exist`);
    const address = this.getModuleAddress(name);
    const existing = this.getAccount(ctx, address);
    if (existing) {
      if (!existing.module) throw Errors.InvalidType.wrap(`account at ${this.addressCodec.encode(address)} is not a module account`);
      return existing;
    }
    const base = this.newAccountWithAddress(ctx, address).base;
    const acc: Account = { address, base, module: { name, permissions: perms } };
    this.setAccount(ctx, acc);
    return acc;
  }

  // ---- params ----

  getParams(ctx: Context): AuthParams {
    return this.state.Params.get(ctx) ?? { ...DEFAULT_AUTH_PARAMS };
  }

  setParams(ctx: Context, p: AuthParams): void {
    this.state.Params.set(ctx, { ...p });
  }
}

export const BASE_ACCOUNT_URL = '/' + BASE_ACCOUNT;
const MAX_U64 = (1n << 64n) - 1n;

function u64Size(v: bigint): number {
  if (v < 0x80000000n) {
    const n = Number(v);
    return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
  }
  let size = 1;
  while (v > 0x7fn) {
    v >>= 7n;
    size++;
  }
  return size;
}

function putU64(buf: Uint8Array, pos: number, v: bigint): number {
  if (v < 0x80000000n) {
    let n = Number(v);
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    return pos;
  }
  while (v > 0x7fn) {
    buf[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[pos++] = Number(v);
  return pos;
}

/**
 * A `BaseAccount` without a public key, encoded as `registry.encode(BASE_ACCOUNT, { ...base })` does (protobufjs:
 * fields in number order, an empty address and zero numbers left out; a Buffer, as its writer gives in Node)
 * without building a message and a writer; undefined for anything else (a public key, a non-ASCII address,
 * numbers that are not bigints in [0, 2^64)), which takes the registry.
 */
export function encodeBaseAccountFast(base: BaseAccount): Uint8Array | undefined {
  if (base === null || typeof base !== 'object') return undefined;
  const proto = Object.getPrototypeOf(base);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const { address, pub_key, account_number: num, sequence: seq } = base;
  if (pub_key !== null && pub_key !== undefined) return undefined;
  if (typeof address !== 'string' || typeof num !== 'bigint' || typeof seq !== 'bigint') return undefined;
  if (num < 0n || num > MAX_U64 || seq < 0n || seq > MAX_U64) return undefined;
  const al = address.length;
  for (let i = 0; i < al; i++) if (address.charCodeAt(i) > 0x7f) return undefined;
  const size = (al > 0 ? 1 + (al < 0x80 ? 1 : u64Size(BigInt(al))) + al : 0) + (num !== 0n ? 1 + u64Size(num) : 0) + (seq !== 0n ? 1 + u64Size(seq) : 0);
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  if (al > 0) {
    out[pos++] = 0x0a;
    pos = putU64(out, pos, BigInt(al));
    for (let i = 0; i < al; i++) out[pos++] = address.charCodeAt(i);
  }
  if (num !== 0n) {
    out[pos++] = 0x18;
    pos = putU64(out, pos, num);
  }
  if (seq !== 0n) {
    out[pos++] = 0x20;
    pos = putU64(out, pos, seq);
  }
  return out;
}
