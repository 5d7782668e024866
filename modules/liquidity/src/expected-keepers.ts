/**
 * What the liquidity module needs of other modules, declared as interfaces (implemented by @chain/auth's
 * AccountKeeper, @chain/bank's BankKeeper and @chain/distribution's DistributionKeeper; createChainApp
 * passes them).
 */
import type { Coin, Context } from '@chain/app';

export interface LiquidityAccountKeeper {
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  /** the address of a module account (`liquidity` is the batch escrow and mints/burns pool coins) */
  getModuleAddress(name: string): Uint8Array;
  /** creates the module account on first use */
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
  hasAccount(ctx: Context, address: Uint8Array): boolean;
  createAccount(ctx: Context, address: Uint8Array): void;
}

export interface LiquidityBankKeeper {
  getBalance(ctx: Context, addr: Uint8Array, denom: string): bigint;
  getSupply(ctx: Context, denom: string): bigint;
  /** debits an account (insufficient funds: sdk 5), emits coin_spent */
  subCoins(ctx: Context, addr: Uint8Array, coins: readonly Coin[]): void;
  /** credits an account, emits coin_received */
  addCoins(ctx: Context, addr: Uint8Array, coins: readonly Coin[]): void;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
  /** needs the module's `minter` permission */
  mintCoins(ctx: Context, module: string, coins: Coin[]): void;
  /** needs the module's `burner` permission */
  burnCoins(ctx: Context, module: string, coins: Coin[]): void;
}

/** Where the pool creation fee goes: the community pool (the original's `FundCommunityPool`). */
export interface LiquidityDistributionKeeper {
  fundCommunityPool(ctx: Context, amount: Coin[], sender: Uint8Array): void;
}
