/** BankKeeper: balances, supply, transfers, mint/burn through module accounts, metadata, params. */
import type { Context, Coin } from '@chain/app';
import { coinsToString, validateCoins } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Errors } from '@chain/errors';
import { BankErrors } from './errors.js';
import { burnEvent, coinbaseEvent, coinReceivedEvent, coinSpentEvent, emit, messageSenderEvent, transferEvent } from './events.js';
import type { BankAccountKeeper } from './expected-keepers.js';
import type { Metadata } from './gen/chain/bank/v1beta1.js';
import { DEFAULT_BANK_PARAMS, storedParams } from './params.js';
import type { BankParams } from './params.js';
import { bankSchema, STORE_KEY } from './keys.js';
import type { BankState } from './keys.js';

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
  /** The module's state: the collections of `bankSchema` (src/keys.ts). */
  readonly state: BankState;
  private readonly blocked: ReadonlySet<string>;

  constructor(opts: BankKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.blocked = opts.blockedAddresses ?? new Set();
    this.state = bankSchema(opts.registry);
  }

  isBlockedAddress(address: string): boolean {
    return this.blocked.has(address);
  }

  // ---- views ----

  getBalance(ctx: Context, addr: Uint8Array, denom: string): bigint {
    return this.state.Balances.get(ctx, [addr, denom]) ?? 0n;
  }

  /** The balances of one account, sorted by denom (no zero entries). */
  getAllBalances(ctx: Context, addr: Uint8Array): Coin[] {
    const out: Coin[] = [];
    for (const { key, value } of this.state.Balances.iterate(ctx, { prefix: [addr] })) out.push({ denom: key[1], amount: value.toString() });
    return out;
  }

  getSupply(ctx: Context, denom: string): bigint {
    return this.state.Supply.get(ctx, denom) ?? 0n;
  }

  getDenomMetadata(ctx: Context, denom: string): Metadata | undefined {
    return this.state.DenomMetadata.get(ctx, denom);
  }

  setDenomMetadata(ctx: Context, m: Metadata): void {
    this.state.DenomMetadata.set(ctx, m.base, m);
  }

  getParams(ctx: Context): BankParams {
    return this.state.Params.get(ctx) ?? { ...DEFAULT_BANK_PARAMS };
  }

  setParams(ctx: Context, p: BankParams): void {
    this.state.Params.set(ctx, storedParams(p));
    for (const se of p.send_enabled) this.setSendEnabled(ctx, se.denom, se.enabled);
  }

  getSendEnabled(ctx: Context, denom: string): boolean | undefined {
    return this.state.SendEnabled.get(ctx, denom);
  }

  setSendEnabled(ctx: Context, denom: string, enabled: boolean): void {
    this.state.SendEnabled.set(ctx, denom, enabled);
  }

  isSendEnabledCoins(ctx: Context, coins: readonly Coin[]): void {
    if (coins.length === 0) return;
    const def = this.getParams(ctx).default_send_enabled;
    for (const c of coins) {
      if (!(this.getSendEnabled(ctx, c.denom) ?? def)) throw BankErrors.SendDisabled.wrap(`${c.denom} transfers are currently disabled`);
    }
  }

  // ---- writes ----

  /** Writes a balance and its `DenomOwners` entry; 0 removes both. */
  private setBalance(ctx: Context, addr: Uint8Array, denom: string, amount: bigint): void {
    const { Balances, DenomOwners } = this.state;
    if (amount === 0n) {
      Balances.remove(ctx, [addr, denom]);
      DenomOwners.remove(ctx, [denom, addr]);
    } else {
      Balances.set(ctx, [addr, denom], amount);
      DenomOwners.set(ctx, [denom, addr]);
    }
  }

  private setSupply(ctx: Context, denom: string, amount: bigint): void {
    if (amount === 0n) this.state.Supply.remove(ctx, denom);
    else this.state.Supply.set(ctx, denom, amount);
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

  /** Whether no balance at all is stored (one step of an iterator). */
  hasNoBalances(ctx: Context): boolean {
    for (const _ of this.state.Balances.iterate(ctx)) return false;
    return true;
  }

  /**
   * Genesis helper for many balances (InitGenesis of a large genesis file): `add` credits a balance as
   * `initBalance` does, but the supply of each denom is read once and written by `flush()` (call it after each
   * chunk of entries, and before anything reads the supply). The state after `flush()` is the state the same
   * `initBalance` calls leave, byte for byte; the store is taken once (`ctx.kv`), not once per read and write.
   */
  balanceWriter(ctx: Context): GenesisBalanceWriter {
    const { Balances, DenomOwners } = this.state;
    const kv = ctx.kv(STORE_KEY);
    /** denom → supply, read on first use and kept up to date by `add`; written (and forgotten) by `flush` */
    const supply = new Map<string, bigint>();
    return {
      add: (addr, coins, fresh = false) => {
        for (const c of coins) {
          const amount = BigInt(c.amount);
          const bk = Balances.encodeKey([addr, c.denom]);
          const raw = fresh ? undefined : kv.get(bk);
          const balance = (raw === undefined ? 0n : Balances.decodeValue(raw, bk)) + amount;
          if (balance === 0n) {
            kv.delete(bk);
            kv.delete(DenomOwners.encodeKey([c.denom, addr]));
          } else {
            kv.set(bk, Balances.encodeValue(balance, bk));
            kv.set(DenomOwners.encodeKey([c.denom, addr]), DenomOwners.encodeValue());
          }
          let s = supply.get(c.denom);
          if (s === undefined) s = this.getSupply(ctx, c.denom);
          supply.set(c.denom, s + amount);
        }
      },
      flush: () => {
        for (const [denom, amount] of supply) this.setSupply(ctx, denom, amount);
        supply.clear();
      },
    };
  }
}

/** Credits genesis balances with the supply written once per denom and chunk (`BankKeeper.balanceWriter`). */
export interface GenesisBalanceWriter {
  /**
   * `initBalance(ctx, addr, coins)`, but the supply changes are kept until `flush()`. `fresh`: the caller knows the
   * address has no balance stored (its first credit into a balance store that had none), so none is read.
   */
  add(addr: Uint8Array, coins: readonly Coin[], fresh?: boolean): void;
  /** writes the supply of every denom credited since the last flush */
  flush(): void;
}
