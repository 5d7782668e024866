/**
 * What the token module needs of other modules, declared as interfaces (implemented by @chain/auth's
 * AccountKeeper and @chain/bank's BankKeeper; createChainApp passes them).
 */
import type { Coin, Context } from '@chain/app';

export interface Prc10AccountKeeper {
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  /** the address of a module account (`token` holds the fees and mints before they move on) */
  getModuleAddress(name: string): Uint8Array;
  /** the name of the module account at `address`, if it is one of the chain's module accounts */
  moduleNameOf(address: Uint8Array): string | undefined;
}

/** A denom unit of bank metadata. */
export interface DenomUnit {
  denom: string;
  exponent: number;
  aliases: string[];
}

/** Bank denom metadata (`chain.bank.v1beta1.Metadata`). */
export interface DenomMetadata {
  description: string;
  denom_units: DenomUnit[];
  base: string;
  display: string;
  name: string;
  symbol: string;
  uri: string;
  uri_hash: string;
}

export interface Prc10BankKeeper {
  getSupply(ctx: Context, denom: string): bigint;
  getDenomMetadata(ctx: Context, denom: string): DenomMetadata | undefined;
  setDenomMetadata(ctx: Context, m: DenomMetadata): void;
  /** moves coins to a module account (insufficient funds: sdk 5) */
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  /** moves coins from a module account (a blocked recipient: sdk 4) */
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
  /** needs the module's `minter` permission */
  mintCoins(ctx: Context, module: string, coins: Coin[]): void;
  /** needs the module's `burner` permission */
  burnCoins(ctx: Context, module: string, coins: Coin[]): void;
}
