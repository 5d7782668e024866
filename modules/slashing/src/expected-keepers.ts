/**
 * What the slashing module needs of staking (x/slashing/types/expected_keepers.go of SDK v0.45), declared
 * here as an interface: this module's src never imports another module's values (tools/check-boundaries.mjs
 * refuses it), only staking's types; createChainApp passes staking's keeper (or a helper over it) that
 * implements exactly these names. Addresses are raw bytes: `valAddr` operator, `consAddr` consensus
 * address (20 bytes), `delAddr` account.
 */
import type { Context } from '@chain/app';
import type { Dec } from '@chain/math';
import type { chain_staking_v1beta1 } from '@chain/staking';

export type StakingValidator = chain_staking_v1beta1.Validator;
export type StakingDelegation = chain_staking_v1beta1.Delegation;

export interface SlashingStakingKeeper {
  /** `sdk.DefaultPowerReduction` of the chain: tokens per unit of consensus power */
  readonly powerReduction: bigint;
  /** `Validator(ctx, valAddr)` */
  getValidator(ctx: Context, valAddr: Uint8Array): StakingValidator | undefined;
  /** `ValidatorByConsAddr(ctx, consAddr)` */
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): StakingValidator | undefined;
  /** `IterateValidators`: every validator, in the store's (operator address) order */
  iterateValidators(ctx: Context): Iterable<StakingValidator>;
  /** `Delegation(ctx, delAddr, valAddr)` */
  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): StakingDelegation | undefined;
  /**
   * `Slash(ctx, consAddr, infractionHeight, power, slashFactor)` (x/staking/keeper/slash.go): burns
   * `slashFactor × power × powerReduction` (truncated) from the validator and its unbonding/redelegation
   * entries started at or after `infractionHeight`; may be negative (before genesis).
   */
  slash(ctx: Context, consAddr: Uint8Array, infractionHeight: bigint, power: bigint, slashFactor: Dec): void;
  /** `Jail(ctx, consAddr)`: jails the validator (out of the power index; leaves the set at EndBlock) */
  jail(ctx: Context, consAddr: Uint8Array): void;
  /** `Unjail(ctx, consAddr)` */
  unjail(ctx: Context, consAddr: Uint8Array): void;
  /** `MaxValidators(ctx)` */
  maxValidators(ctx: Context): number;
  /** the validator's consensus address (`GetConsAddr`) */
  consAddress(v: StakingValidator): Uint8Array;
  /** the validator's ed25519 consensus public key bytes (`ConsPubKey`) */
  consPubKey(v: StakingValidator): Uint8Array;
  /** `GetConsensusPower(powerReduction)`: the power if bonded, else 0 */
  consensusPower(v: StakingValidator): bigint;
}
