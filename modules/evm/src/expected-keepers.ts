/**
 * What the evm module needs of auth and bank. @chain/auth's AccountKeeper and @chain/bank's BankKeeper
 * satisfy these structurally (checked by the type-level assertions in test/keepers.test.ts).
 */
import type { Context, Coin } from '@chain/app';

/** The account fields the EVM reads and writes: the sequence is the Ethereum nonce. */
export interface EvmAccount {
  readonly address: Uint8Array;
  base: { sequence: bigint; account_number: bigint };
}

export interface EvmAccountKeeper {
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  getAccount(ctx: Context, address: Uint8Array): EvmAccount | undefined;
  /** stores an account obtained from getAccount / newAccountWithAddress */
  setAccount(ctx: Context, account: EvmAccount): void;
  /** a fresh base account with the next account number (not stored) */
  newAccountWithAddress(ctx: Context, address: Uint8Array): EvmAccount;
  /** address of a module account (the fee collector) */
  getModuleAddress(name: string): Uint8Array;
}

export interface EvmBankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  /** raw balance credit / debit without supply changes (EVM value moves between accounts) */
  addCoins(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void;
  subCoins(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void;
  /** fee deduction (ante) */
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  /** unused-gas refund (after execution) */
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
}
