/** AccountKeeper: accounts (numbers, sequences, public keys), module accounts and auth params. */
import type { Context } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { utf8, fromUtf8, equalBytes } from '@chain/crypto';
import { Errors } from '@chain/errors';
import type { AddressCodec } from './address.js';
import { moduleAddress } from './address.js';
import type { BaseAccount, ModuleAccount } from './gen/chain/auth/v1beta1.js';
import { DEFAULT_AUTH_PARAMS } from './params.js';
import type { AuthParams } from './params.js';
import {
  STORE_KEY, ACCOUNT_PREFIX, NEXT_ACCOUNT_NUMBER_KEY, PARAMS_KEY, accountKey, accountNumberKey, BASE_ACCOUNT, MODULE_ACCOUNT,
} from './keys.js';

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
  private readonly perms: Map<string, readonly string[]>;
  private readonly moduleAddrs = new Map<string, Uint8Array>();

  constructor(opts: AccountKeeperOptions) {
    this.registry = opts.registry;
    this.addressCodec = opts.addressCodec;
    this.perms = new Map(Object.entries(opts.moduleAccounts));
    for (const name of this.perms.keys()) this.moduleAddrs.set(name, moduleAddress(name));
  }

  getAccount(ctx: Context, address: Uint8Array): Account | undefined {
    const bz = ctx.kv(STORE_KEY).get(accountKey(address));
    return bz ? this.decodeAccount(address, bz) : undefined;
  }

  hasAccount(ctx: Context, address: Uint8Array): boolean {
    return ctx.kv(STORE_KEY).has(accountKey(address));
  }

  setAccount(ctx: Context, acc: Account): void {
    const any: google_protobuf.Any = this.packAccount(acc);
    const store = ctx.kv(STORE_KEY);
    store.set(accountKey(acc.address), this.registry.encode('google.protobuf.Any', any));
    store.set(accountNumberKey(acc.base.account_number), acc.address);
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

  nextAccountNumber(ctx: Context): bigint {
    const store = ctx.kv(STORE_KEY);
    const bz = store.get(NEXT_ACCOUNT_NUMBER_KEY);
    const n = bz ? BigInt(fromUtf8(bz)) : 0n;
    store.set(NEXT_ACCOUNT_NUMBER_KEY, utf8((n + 1n).toString()));
    return n;
  }

  addressByAccountNumber(ctx: Context, n: bigint): Uint8Array | undefined {
    return ctx.kv(STORE_KEY).get(accountNumberKey(n));
  }

  *iterateAccounts(ctx: Context): IterableIterator<Account> {
    const end = Uint8Array.of(ACCOUNT_PREFIX[0]! + 1);
    for (const [k, v] of ctx.kv(STORE_KEY).iterator(ACCOUNT_PREFIX, end)) yield this.decodeAccount(k.subarray(1), v);
  }

  decodeAccount(address: Uint8Array, bz: Uint8Array): Account {
    const any = this.registry.decode<google_protobuf.Any>('google.protobuf.Any', bz);
    const { name, message } = this.registry.unpackAny<BaseAccount | ModuleAccount>(any);
    if (name === MODULE_ACCOUNT) {
      const m = message as ModuleAccount;
      // a stored module account always has its base account
      return { address, base: m.base_account!, module: { name: m.name, permissions: m.permissions } };
    }
    return { address, base: message as BaseAccount };
  }

  /** The account as an Any of `BaseAccount` or `ModuleAccount` (how it is stored, queried and exported). */
  packAccount(acc: Account): google_protobuf.Any {
    return acc.module
      ? this.registry.packAny(MODULE_ACCOUNT, { base_account: acc.base, name: acc.module.name, permissions: [...acc.module.permissions] })
      : this.registry.packAny(BASE_ACCOUNT, { ...acc.base });
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
    const bz = ctx.kv(STORE_KEY).get(PARAMS_KEY);
    return bz ? this.registry.decode<AuthParams>('chain.auth.v1beta1.Params', bz) : { ...DEFAULT_AUTH_PARAMS };
  }

  setParams(ctx: Context, p: AuthParams): void {
    ctx.kv(STORE_KEY).set(PARAMS_KEY, this.registry.encode('chain.auth.v1beta1.Params', { ...p }));
  }
}
