/**
 * The hooks staking calls on other modules (the SDK v0.45 `StakingHooks`, x/staking/types/expected_keepers.go):
 * distribution keeps its F1 periods and slashing its signing info through them. A listener implements any
 * subset; the composition wires them in order (`stakingKeeper.hooks.set(distribution.stakingHooks,
 * slashing.stakingHooks)`), and the module manager refuses an app that forgot to. Addresses are raw bytes
 * (operator `valAddr`, consensus `consAddr`, delegator `delAddr`). A hook that fails throws, which fails the
 * message or block that triggered it.
 */
import type { Context } from '@chain/app';
import { HookSlot } from '@chain/app';
import type { Dec } from '@chain/math';

export interface StakingHooks {
  afterValidatorCreated(ctx: Context, valAddr: Uint8Array): void;
  beforeValidatorModified(ctx: Context, valAddr: Uint8Array): void;
  afterValidatorRemoved(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): void;
  afterValidatorBonded(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): void;
  afterValidatorBeginUnbonding(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): void;
  beforeDelegationCreated(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): void;
  beforeDelegationSharesModified(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): void;
  beforeDelegationRemoved(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): void;
  afterDelegationModified(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): void;
  beforeValidatorSlashed(ctx: Context, valAddr: Uint8Array, fraction: Dec): void;
}

export const STAKING_HOOK_NAMES = [
  'afterValidatorCreated', 'beforeValidatorModified', 'afterValidatorRemoved', 'afterValidatorBonded',
  'afterValidatorBeginUnbonding', 'beforeDelegationCreated', 'beforeDelegationSharesModified',
  'beforeDelegationRemoved', 'afterDelegationModified', 'beforeValidatorSlashed',
] as const satisfies readonly (keyof StakingHooks)[];

/** The slot staking calls its hooks through. */
export function stakingHookSlot(): HookSlot<StakingHooks> {
  return new HookSlot<StakingHooks>('staking', STAKING_HOOK_NAMES);
}
