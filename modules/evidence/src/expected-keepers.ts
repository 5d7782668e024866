/**
 * What the evidence module needs of other modules (x/evidence/types/expected_keepers.go of SDK v0.45),
 * declared as interfaces: @chain/slashing's SlashingKeeper implements `EvidenceSlashingKeeper` as it is
 * (the same names and signatures), staking's keeper `EvidenceStakingKeeper`. Addresses are raw consensus
 * addresses (20 bytes).
 */
import type { Context } from '@chain/app';
import type { google_protobuf } from '@chain/codec';
import type { Dec } from '@chain/math';
import type { chain_staking_v1beta1 } from '@chain/staking';

export interface EvidenceStakingKeeper {
  /** `ValidatorByConsAddr` */
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): chain_staking_v1beta1.Validator | undefined;
}

export interface EvidenceSlashingKeeper {
  /** `GetPubkey`: undefined when the consensus address is unknown */
  getPubkey(ctx: Context, consAddr: Uint8Array): google_protobuf.Any | undefined;
  isTombstoned(ctx: Context, consAddr: Uint8Array): boolean;
  hasValidatorSigningInfo(ctx: Context, consAddr: Uint8Array): boolean;
  tombstone(ctx: Context, consAddr: Uint8Array): void;
  /** `Slash(ctx, consAddr, fraction, power, distributionHeight)`: emits slash{address, power, reason=double_sign} */
  slash(ctx: Context, consAddr: Uint8Array, fraction: Dec, power: bigint, distributionHeight: bigint): void;
  slashFractionDoubleSign(ctx: Context): Dec;
  /** `Jail`: emits slash{jailed} */
  jail(ctx: Context, consAddr: Uint8Array): void;
  jailUntil(ctx: Context, consAddr: Uint8Array, jailTime: google_protobuf.Timestamp): void;
}
