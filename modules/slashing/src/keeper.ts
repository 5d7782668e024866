/**
 * SlashingKeeper (x/slashing/keeper of SDK v0.45: keeper.go, signing_info.go, infractions.go, unjail.go,
 * params.go, hooks.go): signing infos, the missed-block bit arrays, the consensus-key relation, liveness
 * (`handleValidatorSignature`), unjail, and the functions x/evidence calls. State only through the schema of
 * src/keys.ts; staking only through `SlashingStakingKeeper` (src/expected-keepers.ts).
 */
import { BlockIdFlags } from '@chain/app';
import type { Context } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { Bech32Codec } from '@chain/crypto';
import { Dec } from '@chain/math';
import type { StakingHooks } from '@chain/staking';
import { SlashingErrors } from './errors.js';
import { AttributeKey, AttributeValue, EventType, emit } from './events.js';
import type { SlashingStakingKeeper, StakingValidator } from './expected-keepers.js';
import type { MissedBlock, ValidatorSigningInfo } from './gen/chain/slashing/v1beta1.js';
import { slashingSchema } from './keys.js';
import type { SlashingState } from './keys.js';
import { defaultParams, paramsFromProto, validateParams } from './params.js';
import type { SlashingParams, SlashingParamsValues } from './params.js';

/** `sdk.ValidatorUpdateDelay` */
export const VALIDATOR_UPDATE_DELAY = 1n;
/** `types.DoubleSignJailEndTime`: 9999-12-31T23:59:59Z */
export const DOUBLE_SIGN_JAIL_END_TIME: google_protobuf.Timestamp = { seconds: 253402300799n, nanos: 0 };
/** `time.Unix(0, 0)`: the jailed_until of a fresh signing info */
export const UNIX_EPOCH: google_protobuf.Timestamp = { seconds: 0n, nanos: 0 };

export interface SlashingKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly stakingKeeper: SlashingStakingKeeper;
  /** bech32 prefix of account addresses: consensus addresses get `<prefix>valcons`, operators `<prefix>valoper` */
  readonly bech32Prefix?: string;
  readonly consensusAddressPrefix?: string;
  readonly validatorAddressPrefix?: string;
}

/** A bech32 codec of one prefix (infrastructure's `Bech32Codec`, under slashing's name). */
export { Bech32Codec as AddressCodec };

export function timestampOfDate(d: Date): google_protobuf.Timestamp {
  const ms = BigInt(d.getTime());
  let seconds = ms / 1000n;
  let rem = ms % 1000n;
  if (rem < 0n) { rem += 1000n; seconds -= 1n; }
  return { seconds, nanos: Number(rem) * 1_000_000 };
}

export function timestampNanos(t: google_protobuf.Timestamp | null): bigint {
  // an unset non-nullable timestamp is Go's zero time
  if (t === null) return -62135596800n * 1_000_000_000n;
  return t.seconds * 1_000_000_000n + BigInt(t.nanos);
}

function timestampOfNanos(ns: bigint): google_protobuf.Timestamp {
  let seconds = ns / 1_000_000_000n;
  let nanos = ns % 1_000_000_000n;
  if (nanos < 0n) { nanos += 1_000_000_000n; seconds -= 1n; }
  return { seconds, nanos: Number(nanos) };
}

/** `validator.TokensFromShares(shares)`: `shares.MulInt(tokens).Quo(delegatorShares)` (SDK Dec rounding). */
export function tokensFromShares(v: StakingValidator, sharesAtomics: string): Dec {
  const shares = Dec.fromAtomics(sharesAtomics || '0');
  const delShares = Dec.fromAtomics(v.delegator_shares || '0');
  return shares.mulInt(BigInt(v.tokens || '0')).quo(delShares);
}

export class SlashingKeeper {
  readonly registry: ProtoRegistry;
  readonly sk: SlashingStakingKeeper;
  readonly consCodec: Bech32Codec;
  readonly valCodec: Bech32Codec;
  /** The module's state: the collections of `slashingSchema` (src/keys.ts). */
  readonly state: SlashingState;
  /** The staking hooks slashing implements (v0.45 x/slashing/keeper/hooks.go); wire into staking's slot. */
  readonly stakingHooks: Partial<StakingHooks>;

  constructor(opts: SlashingKeeperOptions) {
    this.registry = opts.registry;
    this.sk = opts.stakingKeeper;
    const cons = opts.consensusAddressPrefix ?? (opts.bech32Prefix ? opts.bech32Prefix + 'valcons' : undefined);
    const val = opts.validatorAddressPrefix ?? (opts.bech32Prefix ? opts.bech32Prefix + 'valoper' : undefined);
    if (!cons || !val) throw new Error('slashing keeper: bech32Prefix (or consensusAddressPrefix and validatorAddressPrefix) is required');
    this.consCodec = new Bech32Codec(cons);
    this.valCodec = new Bech32Codec(val);
    this.state = slashingSchema(opts.registry);
    this.stakingHooks = {
      afterValidatorBonded: (ctx, consAddr) => this.afterValidatorBonded(ctx, consAddr),
      afterValidatorRemoved: (ctx, consAddr) => this.deleteAddrPubkeyRelation(ctx, consAddr),
      afterValidatorCreated: (ctx, valAddr) => this.afterValidatorCreated(ctx, valAddr),
    };
  }

  // ---- params ----

  /** The stored params (proto shape), or the defaults before genesis. */
  getParamsProto(ctx: Context): SlashingParams {
    return this.state.Params.getOr(ctx, defaultParams());
  }

  getParams(ctx: Context): SlashingParamsValues {
    return paramsFromProto(this.getParamsProto(ctx));
  }

  /** Validates (the subspace validators' plain errors) and stores the params. */
  setParams(ctx: Context, p: SlashingParams): void {
    validateParams(p);
    this.state.Params.set(ctx, p);
  }

  signedBlocksWindow(ctx: Context): bigint {
    return this.getParams(ctx).signedBlocksWindow;
  }

  /** `MinSignedPerWindow`: `min_signed_per_window × window`, `RoundInt64` (banker's rounding). */
  minSignedPerWindow(ctx: Context): bigint {
    const p = this.getParams(ctx);
    return p.minSignedPerWindow.mulInt(p.signedBlocksWindow).roundInt();
  }

  /** nanoseconds */
  downtimeJailDuration(ctx: Context): bigint {
    return this.getParams(ctx).downtimeJailDuration;
  }

  slashFractionDoubleSign(ctx: Context): Dec {
    return this.getParams(ctx).slashFractionDoubleSign;
  }

  slashFractionDowntime(ctx: Context): Dec {
    return this.getParams(ctx).slashFractionDowntime;
  }

  // ---- pubkey relation ----

  /** `AddPubkey`: consensus address → the key (as a protobuf Any). */
  addPubkey(ctx: Context, pubkey: google_protobuf.Any, consAddr: Uint8Array): void {
    this.state.Pubkeys.set(ctx, consAddr, pubkey);
  }

  /** `GetPubkey`: the consensus key of a consensus address, or undefined (the SDK's `address not found`). */
  getPubkey(ctx: Context, consAddr: Uint8Array): google_protobuf.Any | undefined {
    return this.state.Pubkeys.get(ctx, consAddr);
  }

  deleteAddrPubkeyRelation(ctx: Context, consAddr: Uint8Array): void {
    this.state.Pubkeys.remove(ctx, consAddr);
  }

  /** The relation of one staking validator: its consensus key, under its consensus address. */
  addValidatorPubkey(ctx: Context, v: StakingValidator): void {
    const key = this.sk.consPubKey(v);
    const any = v.consensus_pubkey ?? this.registry.packAny('chain.crypto.ed25519.PubKey', { key });
    this.addPubkey(ctx, { type_url: any.type_url, value: any.value }, this.sk.consAddress(v));
  }

  // ---- signing info ----

  getValidatorSigningInfo(ctx: Context, consAddr: Uint8Array): ValidatorSigningInfo | undefined {
    return this.state.SigningInfos.get(ctx, consAddr);
  }

  hasValidatorSigningInfo(ctx: Context, consAddr: Uint8Array): boolean {
    return this.state.SigningInfos.has(ctx, consAddr);
  }

  setValidatorSigningInfo(ctx: Context, consAddr: Uint8Array, info: ValidatorSigningInfo): void {
    this.state.SigningInfos.set(ctx, consAddr, info);
  }

  /** Every signing info, in consensus-address key order. */
  *iterateValidatorSigningInfos(ctx: Context): Generator<[Uint8Array, ValidatorSigningInfo]> {
    for (const { key, value } of this.state.SigningInfos.iterate(ctx)) yield [key, value];
  }

  /** `JailUntil`: panics (throws) without signing info, as the SDK. */
  jailUntil(ctx: Context, consAddr: Uint8Array, jailTime: google_protobuf.Timestamp): void {
    const info = this.getValidatorSigningInfo(ctx, consAddr);
    if (!info) throw new Error('cannot jail validator that does not have any signing information');
    this.setValidatorSigningInfo(ctx, consAddr, { ...info, jailed_until: jailTime });
  }

  /** `Tombstone`: throws without signing info or when already tombstoned, as the SDK panics. */
  tombstone(ctx: Context, consAddr: Uint8Array): void {
    const info = this.getValidatorSigningInfo(ctx, consAddr);
    if (!info) throw new Error('cannot tombstone validator that does not have any signing information');
    if (info.tombstoned) throw new Error('cannot tombstone validator that is already tombstoned');
    this.setValidatorSigningInfo(ctx, consAddr, { ...info, tombstoned: true });
  }

  /** `IsTombstoned`: false without signing info. */
  isTombstoned(ctx: Context, consAddr: Uint8Array): boolean {
    return this.getValidatorSigningInfo(ctx, consAddr)?.tombstoned ?? false;
  }

  // ---- missed blocks ----

  getValidatorMissedBlockBitArray(ctx: Context, consAddr: Uint8Array, index: bigint): boolean {
    return this.state.MissedBlocks.get(ctx, [consAddr, index]) ?? false;
  }

  setValidatorMissedBlockBitArray(ctx: Context, consAddr: Uint8Array, index: bigint, missed: boolean): void {
    this.state.MissedBlocks.set(ctx, [consAddr, index], missed);
  }

  clearValidatorMissedBlockBitArray(ctx: Context, consAddr: Uint8Array): void {
    this.state.MissedBlocks.clear(ctx, { prefix: [consAddr] });
  }

  /** `GetValidatorMissedBlocks`: every stored entry of the bit array (missed or not), in index order. */
  getValidatorMissedBlocks(ctx: Context, consAddr: Uint8Array): MissedBlock[] {
    const out: MissedBlock[] = [];
    for (const { key, value } of this.state.MissedBlocks.iterate(ctx, { prefix: [consAddr] })) out.push({ index: key[1], missed: value });
    return out;
  }

  // ---- slash / jail (the wrappers evidence uses, keeper.go) ----

  /** `Slash` (double sign): event `slash{address, power, reason=double_sign}`, then staking's Slash. */
  slash(ctx: Context, consAddr: Uint8Array, fraction: Dec, power: bigint, distributionHeight: bigint): void {
    emit(ctx, EventType.Slash, [
      [AttributeKey.Address, this.consCodec.encode(consAddr)],
      [AttributeKey.Power, power.toString()],
      [AttributeKey.Reason, AttributeValue.DoubleSign],
    ]);
    this.sk.slash(ctx, consAddr, distributionHeight, power, fraction);
  }

  /** `Jail`: event `slash{jailed}`, then staking's Jail. */
  jail(ctx: Context, consAddr: Uint8Array): void {
    emit(ctx, EventType.Slash, [[AttributeKey.Jailed, this.consCodec.encode(consAddr)]]);
    this.sk.jail(ctx, consAddr);
  }

  // ---- liveness (infractions.go) ----

  /**
   * `HandleValidatorSignature`: once per validator per block, for each vote of the last commit. Throws
   * (the SDK panics) when the consensus address has no pubkey relation or no signing info.
   */
  handleValidatorSignature(ctx: Context, addr: Uint8Array, power: bigint, signed: boolean): void {
    const height = BigInt(ctx.block.height);
    const consAddrText = this.consCodec.encode(addr);
    if (!this.getPubkey(ctx, addr)) throw new Error(`Validator consensus-address ${consAddrText} not found`);
    const stored = this.getValidatorSigningInfo(ctx, addr);
    if (!stored) throw new Error(`Expected signing info for validator ${consAddrText} but not found`);
    const info: ValidatorSigningInfo = { ...stored };
    const params = this.getParams(ctx);
    const window = params.signedBlocksWindow;

    // a relative index: counts the blocks the validator should have signed
    const index = info.index_offset % window;
    info.index_offset += 1n;

    const previous = this.getValidatorMissedBlockBitArray(ctx, addr, index);
    const missed = !signed;
    if (!previous && missed) {
      this.setValidatorMissedBlockBitArray(ctx, addr, index, true);
      info.missed_blocks_counter += 1n;
    } else if (previous && !missed) {
      this.setValidatorMissedBlockBitArray(ctx, addr, index, false);
      info.missed_blocks_counter -= 1n;
    }

    const minSignedPerWindow = params.minSignedPerWindow.mulInt(window).roundInt();
    if (missed) {
      emit(ctx, EventType.Liveness, [
        [AttributeKey.Address, consAddrText],
        [AttributeKey.MissedBlocks, info.missed_blocks_counter.toString()],
        [AttributeKey.Height, height.toString()],
      ]);
    }

    const minHeight = info.start_height + window;
    const maxMissed = window - minSignedPerWindow;
    if (height > minHeight && info.missed_blocks_counter > maxMissed) {
      const validator = this.sk.getValidatorByConsAddr(ctx, addr);
      if (validator && !validator.jailed) {
        // the stake that signed the last commit: subtract ValidatorUpdateDelay, and 1 more for the LastCommit
        const distributionHeight = height - VALIDATOR_UPDATE_DELAY - 1n;
        emit(ctx, EventType.Slash, [
          [AttributeKey.Address, consAddrText],
          [AttributeKey.Power, power.toString()],
          [AttributeKey.Reason, AttributeValue.MissingSignature],
          [AttributeKey.Jailed, consAddrText],
        ]);
        this.sk.slash(ctx, addr, distributionHeight, power, params.slashFractionDowntime);
        this.sk.jail(ctx, addr);
        info.jailed_until = timestampOfNanos(timestampNanos(timestampOfDate(ctx.block.time)) + params.downtimeJailDuration);
        // reset the counter and the array so that the validator is not slashed again right after rebonding
        info.missed_blocks_counter = 0n;
        info.index_offset = 0n;
        this.clearValidatorMissedBlockBitArray(ctx, addr);
      }
      // else: not found or already jailed, nothing (the SDK logs)
    }
    this.setValidatorSigningInfo(ctx, addr, info);
  }

  /** BeginBlocker (abci.go): `handleValidatorSignature` for every vote of the block's last commit. */
  beginBlocker(ctx: Context): void {
    for (const vote of ctx.comet.lastCommit.votes) {
      // Tendermint's SignedLastBlock: any commit signature that is not absent (a nil vote counts as signed)
      this.handleValidatorSignature(ctx, vote.validator.address, vote.validator.power, vote.blockIdFlag !== BlockIdFlags.Absent);
    }
  }

  // ---- unjail (unjail.go) ----

  /** `Unjail`: the SDK's checks in order, then staking's Unjail. */
  unjail(ctx: Context, valAddr: Uint8Array): void {
    const validator = this.sk.getValidator(ctx, valAddr);
    if (!validator) throw SlashingErrors.NoValidatorForAddress.error();
    // cannot be unjailed if no self-delegation exists
    const selfDel = this.sk.getDelegation(ctx, valAddr, valAddr);
    if (!selfDel) throw SlashingErrors.MissingSelfDelegation.error();
    const tokens = tokensFromShares(validator, selfDel.shares).truncateInt();
    const minSelfBond = BigInt(validator.min_self_delegation || '0');
    if (tokens < minSelfBond) throw SlashingErrors.SelfDelegationTooLowToUnjail.wrap(`${tokens} less than ${minSelfBond}`);
    if (!validator.jailed) throw SlashingErrors.ValidatorNotJailed.error();
    const consAddr = this.sk.consAddress(validator);
    const info = this.getValidatorSigningInfo(ctx, consAddr);
    if (info) {
      // cannot be unjailed if tombstoned, nor before the end of the jail time
      if (info.tombstoned) throw SlashingErrors.ValidatorJailed.error();
      if (timestampNanos(timestampOfDate(ctx.block.time)) < timestampNanos(info.jailed_until)) throw SlashingErrors.ValidatorJailed.error();
    }
    this.sk.unjail(ctx, consAddr);
  }

  // ---- hooks (hooks.go) ----

  /** `AfterValidatorBonded`: creates the signing info (start height = this block) when there is none. */
  afterValidatorBonded(ctx: Context, consAddr: Uint8Array): void {
    if (this.hasValidatorSigningInfo(ctx, consAddr)) return;
    this.setValidatorSigningInfo(ctx, consAddr, newSigningInfo(this.consCodec.encode(consAddr), BigInt(ctx.block.height)));
  }

  /** `AfterValidatorCreated`: records the new validator's consensus key. */
  afterValidatorCreated(ctx: Context, valAddr: Uint8Array): void {
    const v = this.sk.getValidator(ctx, valAddr);
    if (!v) throw new Error(`slashing: AfterValidatorCreated: validator ${this.valCodec.encode(valAddr)} not found`);
    this.addValidatorPubkey(ctx, v);
  }
}

/** `NewValidatorSigningInfo(addr, startHeight, 0, time.Unix(0, 0), false, 0)` */
export function newSigningInfo(address: string, startHeight: bigint): ValidatorSigningInfo {
  return { address, start_height: startHeight, index_offset: 0n, jailed_until: { ...UNIX_EPOCH }, tombstoned: false, missed_blocks_counter: 0n };
}
