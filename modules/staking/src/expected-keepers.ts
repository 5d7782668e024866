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

export interface StakingBankKeeper {
  getBalance(ctx: Context, addr: Uint8Array, denom: string): bigint;
  /** every non-zero balance of an account, sorted by denom */
  getAllBalances(ctx: Context, addr: Uint8Array): Coin[];
}
