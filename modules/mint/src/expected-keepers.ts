/**
 * What the mint module needs of other modules (x/mint/types/expected_keepers.go of SDK v0.45), declared as
 * interfaces: this module's src never imports another module's values (tools/check-boundaries.mjs refuses
 * it), and createChainApp (apps/node/src/app.ts) passes the concrete keepers.
 */
import type { Coin, Context } from '@chain/app';
import type { Dec } from '@chain/math';

/**
 * Implemented by staking's keeper (`StakingKeeper` of the SDK's mint):
 * - `stakingTokenSupply`: the total supply of the bond denom (bank supply of staking's `bond_denom`);
 * - `bondedRatio`: bonded-pool tokens `QuoInt` that supply, zero when the supply is zero.
 */
export interface MintStakingKeeper {
  stakingTokenSupply(ctx: Context): bigint;
  bondedRatio(ctx: Context): Dec;
}

/** Implemented by @chain/bank's BankKeeper (the methods and signatures it has). */
export interface MintBankKeeper {
  mintCoins(ctx: Context, module: string, coins: Coin[]): void;
  sendCoinsFromModuleToModule(ctx: Context, from: string, to: string, coins: Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
}

/** Everything the mint keeper takes from other modules. */
export interface MintExpectedKeepers {
  readonly bankKeeper: MintBankKeeper;
  readonly stakingKeeper: MintStakingKeeper;
}

/** Implemented by @chain/auth's AccountKeeper: creates the module account if missing, returns its address. */
export interface MintAccountKeeper {
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
}
