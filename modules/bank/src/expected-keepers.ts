/** What bank needs of the account keeper (implemented by @chain/auth's AccountKeeper). */
import type { Context } from '@chain/app';

export interface BankAccountKeeper {
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  hasAccount(ctx: Context, address: Uint8Array): boolean;
  /**
   * Optional: whether the account keeper's genesis in this InitChain stored an account for the bech32 `address` as
   * written (true: it exists; false says nothing), answered without a store read.
   */
  listedInGenesis?(ctx: Context, address: string): boolean;
  /** creates and stores a new base account for `address` */
  createAccount(ctx: Context, address: Uint8Array): void;
  getModuleAddress(name: string): Uint8Array;
  /** ensures the module account exists; returns its address */
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
  hasPermission(moduleName: string, permission: string): boolean;
}
