/**
 * What the staking module needs of other modules, declared as interfaces (implemented by @chain/auth's
 * AccountKeeper and @chain/bank's BankKeeper; createChainApp passes them).
 */
import type { Coin, Context } from '@chain/app';

export interface StakingAccountKeeper {
  /** the account address codec (bech32 of the chain's account prefix) */
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  /** the address of a module account (no state access) */
  getModuleAddress(name: string): Uint8Array;
  /**
   * the module account, created when missing (the SDK's `GetModuleAccount`); throws when the app declares
   * no such module account
   */
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
}

/**
 * bank's keeper as staking uses it. Bank has no `DelegateCoinsFromAccountToModule` /
 * `UndelegateCoinsFromModuleToAccount` (no vesting accounts on this chain): delegations and completed
 * unbondings use the plain module sends, which also emit bank's `transfer` and `message{sender}` events
 * (the SDK's delegate/undelegate sends emit only `coin_spent` and `coin_received`).
 */
export interface StakingBankKeeper {
  getBalance(ctx: Context, addr: Uint8Array, denom: string): bigint;
  /** every non-zero balance of an account, sorted by denom */
  getAllBalances(ctx: Context, addr: Uint8Array): Coin[];
  /** total supply of a denom (`StakingTokenSupply`) */
  getSupply(ctx: Context, denom: string): bigint;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
  sendCoinsFromModuleToModule(ctx: Context, from: string, to: string, coins: Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: Coin[]): void;
}
