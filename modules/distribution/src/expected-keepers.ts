/**
 * What the distribution module needs of other modules (x/distribution/types/expected_keepers.go of SDK
 * v0.45), declared as interfaces: this module's src never imports another module's values, and
 * createChainApp passes the concrete keepers. Addresses are raw bytes.
 */
import type { Coin, Context } from '@chain/app';
import type { chain_staking_v1beta1 } from '@chain/staking';

export type Validator = chain_staking_v1beta1.Validator;
export type Delegation = chain_staking_v1beta1.Delegation;

/** Implemented by @chain/staking's StakingKeeper (these names exactly). */
export interface DistributionStakingKeeper {
  /** `sdk.DefaultPowerReduction` of the chain */
  readonly powerReduction: bigint;
  getValidator(ctx: Context, valAddr: Uint8Array): Validator | undefined;
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined;
  /** every validator, by operator address */
  iterateValidators(ctx: Context): Iterable<Validator>;
  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Delegation | undefined;
  /** the delegations of one delegator, by validator address */
  iterateDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Iterable<Delegation>;
  getAllDelegations(ctx: Context): Iterable<Delegation>;
  getValidatorDelegations(ctx: Context, valAddr: Uint8Array): Iterable<Delegation>;
  /** the consensus address of a validator (CometBFT's address of its consensus key) */
  consAddress(v: Validator): Uint8Array;
}

/** Implemented by @chain/bank's BankKeeper (the methods and signatures it has). */
export interface DistributionBankKeeper {
  getAllBalances(ctx: Context, addr: Uint8Array): Coin[];
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  sendCoinsFromModuleToModule(ctx: Context, from: string, to: string, coins: Coin[]): void;
  /** bech32 addresses that may not receive funds (the app's blocked module accounts) */
  isBlockedAddress(address: string): boolean;
}

/** Implemented by @chain/auth's AccountKeeper. */
export interface DistributionAccountKeeper {
  /** the account address codec (bech32 of the chain's account prefix) */
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  getModuleAddress(name: string): Uint8Array;
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
}
