/** BankKeeper: balances, supply, transfers, mint/burn through module accounts, metadata, params. */
import type { Context, Coin } from '@chain/app';
import { coinsToString, validateCoins } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { utf8, fromUtf8 } from '@chain/crypto';
import { Errors } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import { BankErrors } from './errors.js';
import { burnEvent, coinbaseEvent, coinReceivedEvent, coinSpentEvent, emit, messageSenderEvent, transferEvent } from './events.js';
import type { BankAccountKeeper } from './expected-keepers.js';
import type { Metadata } from './gen/chain/bank/v1beta1.js';
import { DEFAULT_BANK_PARAMS, storedParams } from './params.js';
import type { BankParams } from './params.js';
import {
  STORE_KEY, PARAMS_KEY, balanceKey, accountBalancesPrefix, supplyKey, metadataKey, sendEnabledKey, denomOwnerKey,
  SUPPLY_PREFIX, METADATA_PREFIX,
} from './keys.js';

export interface BankKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: BankAccountKeeper;
  /** addresses that may not receive funds (bech32), e.g. module accounts */
  readonly blockedAddresses?: ReadonlySet<string>;
}

const Minter = 'minter';
const Burner = 'burner';

export class BankKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: BankAccountKeeper;
  private readonly blocked: ReadonlySet<string>;

  constructor(opts: BankKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.blocked = opts.blockedAddresses ?? new Set();
  }

  private store(ctx: Context): KVStore {
    return ctx.kv(STORE_KEY);
  }

  isBlockedAddress(address: string): boolean {
    return this.blocked.has(address);
  }

  // ---- views ----

  getBalance(ctx: Context, addr: Uint8Array, denom: string): bigint {
    const bz = this.store(ctx).get(balanceKey(addr, denom));
    return bz ? BigInt(fromUtf8(bz)) : 0n;
  }

  /** Balances store of one account: key = denom. */
  accountBalances(ctx: Context, addr: Uint8Array): KVStore {
    return prefixStore(this.store(ctx), accountBalancesPrefix(addr));
  }

  getAllBalances(ctx: Context, addr: Uint8Array): Coin[] {
    const out: Coin[] = [];
    for (const [k, v] of this.accountBalances(ctx, addr).iterator()) out.push({ denom: fromUtf8(k), amount: fromUtf8(v) });
    return out;
  }

  getSupply(ctx: Context, denom: string): bigint {
    const bz = this.store(ctx).get(supplyKey(denom));
    return bz ? BigInt(fromUtf8(bz)) : 0n;
  }

  supplyStore(ctx: Context): KVStore {
    return prefixStore(this.store(ctx), SUPPLY_PREFIX);
  }

  metadataStore(ctx: Context): KVStore {
    return prefixStore(this.store(ctx), METADATA_PREFIX);
  }

  getDenomMetadata(ctx: Context, denom: string): Metadata | undefined {
    const bz = this.store(ctx).get(metadataKey(denom));
    return bz ? this.registry.decode<Metadata>('chain.bank.v1beta1.Metadata', bz) : undefined;
  }

  setDenomMetadata(ctx: Context, m: Metadata): void {
    this.store(ctx).set(metadataKey(m.base), this.registry.encode('chain.bank.v1beta1.Metadata', m));
  }

  getParams(ctx: Context): BankParams {
    const bz = this.store(ctx).get(PARAMS_KEY);
    return bz ? this.registry.decode<BankParams>('chain.bank.v1beta1.Params', bz) : { ...DEFAULT_BANK_PARAMS };
  }

  setParams(ctx: Context, p: BankParams): void {
    this.store(ctx).set(PARAMS_KEY, this.registry.encode('chain.bank.v1beta1.Params', storedParams(p)));
    for (const se of p.send_enabled) this.setSendEnabled(ctx, se.denom, se.enabled);
  }

  getSendEnabled(ctx: Context, denom: string): boolean | undefined {
    const bz = this.store(ctx).get(sendEnabledKey(denom));
    return bz ? bz[0] === 1 : undefined;
  }

  setSendEnabled(ctx: Context, denom: string, enabled: boolean): void {
    this.store(ctx).set(sendEnabledKey(denom), Uint8Array.of(enabled ? 1 : 0));
  }

  isSendEnabledCoins(ctx: Context, coins: readonly Coin[]): void {
    if (coins.length === 0) return;
    const def = this.getParams(ctx).default_send_enabled;
    for (const c of coins) {
      if (!(this.getSendEnabled(ctx, c.denom) ?? def)) throw BankErrors.SendDisabled.wrap(`${c.denom} transfers are currently disabled`);
    }
  }

  // ---- writes ----

  private setBalance(ctx: Context, addr: Uint8Array, denom: string, amount: bigint): void {
    const store = this.store(ctx);
    if (amount === 0n) {
      store.delete(balanceKey(addr, denom));
      store.delete(denomOwnerKey(denom, addr));
    } else {
      store.set(balanceKey(addr, denom), utf8(amount.toString()));
      store.set(denomOwnerKey(denom, addr), new Uint8Array());
    }
  }

  private setSupply(ctx: Context, denom: string, amount: bigint): void {
    if (amount === 0n) this.store(ctx).delete(supplyKey(denom));
    else this.store(ctx).set(supplyKey(denom), utf8(amount.toString()));
  }

  /** Removes coins from an account; insufficient funds is sdk code 5 (`X is smaller than Y`). */
  subCoins(ctx: Context, addr: Uint8Array, coins: readonly Coin[]): void {
    validateCoins(coins);
    for (const c of coins) {
      const bal = this.getBalance(ctx, addr, c.denom);
      const amt = BigInt(c.amount);
      if (bal < amt) throw Errors.InsufficientFunds.wrap(`spendable balance ${bal}${c.denom} is smaller than ${c.amount}${c.denom}`);
      this.setBalance(ctx, addr, c.denom, bal - amt);
    }
    emit(ctx, coinSpentEvent(this.ak.addressCodec.encode(addr), coinsToString(coins)));
  }

  addCoins(ctx: Context, addr: Uint8Array, coins: readonly Coin[]): void {
    validateCoins(coins);
    for (const c of coins) this.setBalance(ctx, addr, c.denom, this.getBalance(ctx, addr, c.denom) + BigInt(c.amount));
    emit(ctx, coinReceivedEvent(this.ak.addressCodec.encode(addr), coinsToString(coins)));
  }

  /** Moves coins between accounts, creating the recipient account if needed; emits transfer events. */
  sendCoins(ctx: Context, from: Uint8Array, to: Uint8Array, coins: readonly Coin[]): void {
    this.subCoins(ctx, from, coins);
    this.addCoins(ctx, to, coins);
    if (!this.ak.hasAccount(ctx, to)) this.ak.createAccount(ctx, to);
    const fromText = this.ak.addressCodec.encode(from);
    emit(ctx, transferEvent(this.ak.addressCodec.encode(to), fromText, coinsToString(coins)));
    emit(ctx, messageSenderEvent(fromText));
  }

  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void {
    const to = this.ak.ensureModuleAccount(ctx, module);
    this.sendCoins(ctx, from, to, coins);
  }

  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void {
    const toText = this.ak.addressCodec.encode(to);
    if (this.isBlockedAddress(toText)) throw Errors.Unauthorized.wrap(`${toText} is not allowed to receive funds`);
    this.sendCoins(ctx, this.ak.ensureModuleAccount(ctx, module), to, coins);
  }

  sendCoinsFromModuleToModule(ctx: Context, from: string, to: string, coins: Coin[]): void {
    this.sendCoins(ctx, this.ak.ensureModuleAccount(ctx, from), this.ak.ensureModuleAccount(ctx, to), coins);
  }

  mintCoins(ctx: Context, module: string, coins: Coin[]): void {
    if (!this.ak.hasPermission(module, Minter)) throw Errors.Unauthorized.wrap(`module account ${module} does not have permissions to mint tokens`);
    const addr = this.ak.ensureModuleAccount(ctx, module);
    this.addCoins(ctx, addr, coins);
    for (const c of coins) this.setSupply(ctx, c.denom, this.getSupply(ctx, c.denom) + BigInt(c.amount));
    emit(ctx, coinbaseEvent(this.ak.addressCodec.encode(addr), coinsToString(coins)));
  }

  burnCoins(ctx: Context, module: string, coins: Coin[]): void {
    if (!this.ak.hasPermission(module, Burner)) throw Errors.Unauthorized.wrap(`module account ${module} does not have permissions to burn tokens`);
    const addr = this.ak.ensureModuleAccount(ctx, module);
    this.subCoins(ctx, addr, coins);
    for (const c of coins) this.setSupply(ctx, c.denom, this.getSupply(ctx, c.denom) - BigInt(c.amount));
    emit(ctx, burnEvent(this.ak.addressCodec.encode(addr), coinsToString(coins)));
  }

  /** Genesis helper: credits a balance and the supply without events. */
  initBalance(ctx: Context, addr: Uint8Array, coins: readonly Coin[]): void {
    for (const c of coins) {
      this.setBalance(ctx, addr, c.denom, this.getBalance(ctx, addr, c.denom) + BigInt(c.amount));
      this.setSupply(ctx, c.denom, this.getSupply(ctx, c.denom) + BigInt(c.amount));
    }
  }
}
