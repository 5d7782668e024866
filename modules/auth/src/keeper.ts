/** AccountKeeper: accounts (numbers, sequences, public keys), module accounts and auth params. */
import type { Context } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { equalBytes } from '@chain/crypto';
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

  /** Stores the account and its account-number index entry. */
  setAccount(ctx: Context, acc: Account): void {
    this.state.Accounts.set(ctx, acc.address, this.packAccount(acc));
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
    return this.state.Params.get(ctx) ?? { ...DEFAULT_AUTH_PARAMS };
  }

  setParams(ctx: Context, p: AuthParams): void {
    this.state.Params.set(ctx, { ...p });
  }
}
