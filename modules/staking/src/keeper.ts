/**
 * StakingKeeper: the read/write primitives of x/staking's state (Cosmos SDK v0.45 x/staking/keeper:
 * validator.go, delegation.go, params.go, historical_info.go), through the schema of src/keys.ts. The
 * state transitions that use them (messages, EndBlock) come with the next slice.
 */
import type { Context, ValidatorUpdate } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { fromBech32, sha256, toBech32 } from '@chain/crypto';
import type { StakingAccountKeeper, StakingBankKeeper } from './expected-keepers.js';
import type {
  Delegation, DVPair, DVVTriplet, HistoricalInfo, Redelegation, UnbondingDelegation, Validator,
} from './gen/chain/staking/v1beta1.js';
import { BondStatus } from './gen/chain/staking/v1beta1.js';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, stakingSchema } from './keys.js';
import type { StakingState } from './keys.js';
import { tokensToConsensusPower } from './math.js';
import { defaultParams, validateParams } from './params.js';
import type { StakingParams } from './params.js';
import { formatTimeKey } from './time.js';
import type { google_protobuf } from '@chain/codec';

/** 10^18: one unit of consensus power per 10^18 base units (18-decimal bond denom, as Ethermint chains). */
export const DEFAULT_POWER_REDUCTION = 10n ** 18n;

export interface StakingKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: StakingAccountKeeper;
  readonly bankKeeper: StakingBankKeeper;
  /** bech32 prefix of validator operator addresses (default: the account prefix + `valoper`) */
  readonly validatorAddressPrefix?: string;
  /** bech32 prefix of consensus addresses (default: the account prefix + `valcons`) */
  readonly consensusAddressPrefix?: string;
  /** `sdk.DefaultPowerReduction`: tokens per unit of consensus power (default 10^18) */
  readonly powerReduction?: bigint;
}

/** A bech32 codec of one prefix. */
export class Bech32Codec {
  constructor(readonly prefix: string) {}
  encode(bytes: Uint8Array): string {
    return toBech32(this.prefix, bytes);
  }
  /** Throws `empty address string is not allowed`, `decoding bech32 failed: …` or a prefix error. */
  decode(text: string): Uint8Array {
    if (!text || !text.trim()) throw new Error('empty address string is not allowed');
    const { prefix, data } = fromBech32(text);
    if (prefix !== this.prefix) throw new Error(`invalid Bech32 prefix; expected ${this.prefix}, got ${prefix}`);
    if (data.length === 0 || data.length > 255) throw new Error(`address length must be 1-255 bytes, got ${data.length}`);
    return data;
  }
}

export class StakingKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: StakingAccountKeeper;
  readonly bk: StakingBankKeeper;
  /** The module's state: the collections of `stakingSchema` (src/keys.ts). */
  readonly state: StakingState;
  readonly powerReduction: bigint;
  /** account addresses (delegators) */
  readonly accCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  /** validator operator addresses */
  readonly valCodec: Bech32Codec;
  /** consensus addresses */
  readonly consCodec: Bech32Codec;

  constructor(opts: StakingKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bk = opts.bankKeeper;
    this.powerReduction = opts.powerReduction ?? DEFAULT_POWER_REDUCTION;
    if (this.powerReduction <= 0n) throw new Error('staking keeper: the power reduction must be positive');
    this.state = stakingSchema(opts.registry);
    this.accCodec = opts.accountKeeper.addressCodec;
    const accPrefix = (opts.accountKeeper.addressCodec as { prefix?: string }).prefix;
    const valPrefix = opts.validatorAddressPrefix ?? (accPrefix ? accPrefix + 'valoper' : undefined);
    const consPrefix = opts.consensusAddressPrefix ?? (accPrefix ? accPrefix + 'valcons' : undefined);
    if (!valPrefix || !consPrefix) throw new Error('staking keeper: validatorAddressPrefix and consensusAddressPrefix are required');
    this.valCodec = new Bech32Codec(valPrefix);
    this.consCodec = new Bech32Codec(consPrefix);
  }

  // ---- params ----

  /** The stored params, or the defaults before genesis. */
  getParams(ctx: Context): StakingParams {
    return this.state.Params.get(ctx) ?? defaultParams();
  }

  /** Validates (the SDK's messages, plain errors) and stores the params. */
  setParams(ctx: Context, p: StakingParams): void {
    validateParams(p);
    this.state.Params.set(ctx, p);
  }

  bondDenom(ctx: Context): string {
    return this.getParams(ctx).bond_denom;
  }

  // ---- pools ----

  bondedPoolAddress(): Uint8Array {
    return this.ak.getModuleAddress(BONDED_POOL_NAME);
  }

  notBondedPoolAddress(): Uint8Array {
    return this.ak.getModuleAddress(NOT_BONDED_POOL_NAME);
  }

  // ---- validators ----

  getValidator(ctx: Context, operator: Uint8Array): Validator | undefined {
    return this.state.Validators.get(ctx, operator);
  }

  /** Stores the validator under its operator address (indexes are separate, as in the SDK). */
  setValidator(ctx: Context, v: Validator): void {
    this.state.Validators.set(ctx, this.valCodec.decode(v.operator_address), v);
  }

  /** The ed25519 consensus public key of a validator (`/chain.crypto.ed25519.PubKey` or its Cosmos alias). */
  consPubKey(v: Validator): Uint8Array {
    if (!v.consensus_pubkey) throw new Error(`validator ${v.operator_address} has no consensus public key`);
    const { name, message } = this.registry.unpackAny<{ key: Uint8Array }>(v.consensus_pubkey);
    if (name !== 'chain.crypto.ed25519.PubKey') throw new Error(`validator ${v.operator_address}: consensus key type ${v.consensus_pubkey.type_url} is not supported`);
    return message.key;
  }

  /** The consensus address: the first 20 bytes of sha256 of the ed25519 key (CometBFT's address). */
  consAddress(v: Validator): Uint8Array {
    return sha256(this.consPubKey(v)).subarray(0, 20);
  }

  /** SDK `SetValidatorByConsAddr`: consensus address → operator address. */
  setValidatorByConsAddr(ctx: Context, v: Validator): void {
    this.state.ValidatorsByConsAddr.set(ctx, this.consAddress(v), this.valCodec.decode(v.operator_address));
  }

  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined {
    const op = this.state.ValidatorsByConsAddr.get(ctx, consAddr);
    return op ? this.getValidator(ctx, op) : undefined;
  }

  /** `sdk.TokensToConsensusPower(tokens, powerReduction)`, whatever the status (`PotentialConsensusPower`). */
  potentialConsensusPower(v: Validator): bigint {
    return tokensToConsensusPower(BigInt(v.tokens || '0'), this.powerReduction);
  }

  /** `ConsensusPower`: the potential power if bonded, else 0. */
  consensusPower(v: Validator): bigint {
    return v.status === BondStatus.BOND_STATUS_BONDED ? this.potentialConsensusPower(v) : 0n;
  }

  /** SDK `SetValidatorByPowerIndex`: jailed validators are kept out of the power index. */
  setValidatorByPowerIndex(ctx: Context, v: Validator): void {
    if (v.jailed) return;
    const op = this.valCodec.decode(v.operator_address);
    this.state.ValidatorsByPower.set(ctx, [this.potentialConsensusPower(v), op], op);
  }

  /** SDK `DeleteValidatorByPowerIndex`. */
  deleteValidatorByPowerIndex(ctx: Context, v: Validator): void {
    this.state.ValidatorsByPower.remove(ctx, [this.potentialConsensusPower(v), this.valCodec.decode(v.operator_address)]);
  }

  /** Operator addresses in power order (highest first; on ties the smaller address first). */
  *validatorsByPower(ctx: Context): Generator<Uint8Array> {
    for (const { value } of this.state.ValidatorsByPower.iterate(ctx, { reverse: true })) yield value;
  }

  /** SDK `InsertUnbondingValidatorQueue`: appends the operator to the (unbonding time, height) entry. */
  insertUnbondingValidatorQueue(ctx: Context, v: Validator): void {
    const key: [string, bigint] = [formatTimeKey(v.unbonding_time), BigInt.asUintN(64, v.unbonding_height)];
    const entry = this.state.ValidatorQueue.get(ctx, key) ?? { addresses: [] };
    this.state.ValidatorQueue.set(ctx, key, { addresses: [...entry.addresses, v.operator_address] });
  }

  /** The ABCI validator update of a validator with `power`. */
  validatorUpdate(v: Validator, power: bigint): ValidatorUpdate {
    return { pubKey: { type: 'ed25519', key: this.consPubKey(v) }, power };
  }

  // ---- last validator set ----

  getLastValidatorPower(ctx: Context, operator: Uint8Array): bigint {
    return this.state.LastValidatorPower.get(ctx, operator) ?? 0n;
  }

  setLastValidatorPower(ctx: Context, operator: Uint8Array, power: bigint): void {
    this.state.LastValidatorPower.set(ctx, operator, power);
  }

  getLastTotalPower(ctx: Context): bigint {
    return this.state.LastTotalPower.get(ctx) ?? 0n;
  }

  setLastTotalPower(ctx: Context, power: bigint): void {
    this.state.LastTotalPower.set(ctx, power);
  }

  // ---- delegations ----

  getDelegation(ctx: Context, delegator: Uint8Array, validator: Uint8Array): Delegation | undefined {
    return this.state.Delegations.get(ctx, [delegator, validator]);
  }

  setDelegation(ctx: Context, d: Delegation): void {
    this.state.Delegations.set(ctx, [this.accCodec.decode(d.delegator_address), this.valCodec.decode(d.validator_address)], d);
  }

  getUnbondingDelegation(ctx: Context, delegator: Uint8Array, validator: Uint8Array): UnbondingDelegation | undefined {
    return this.state.UnbondingDelegations.get(ctx, [delegator, validator]);
  }

  /** SDK `SetUnbondingDelegation`: the record and its by-validator index entry. */
  setUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation): void {
    const del = this.accCodec.decode(ubd.delegator_address);
    const val = this.valCodec.decode(ubd.validator_address);
    this.state.UnbondingDelegations.set(ctx, [del, val], ubd);
    this.state.UnbondingDelegationsByValidator.set(ctx, [val, del]);
  }

  /** SDK `InsertUBDQueue`: appends the (delegator, validator) pair to the entry of `completionTime`. */
  insertUBDQueue(ctx: Context, ubd: UnbondingDelegation, completionTime: google_protobuf.Timestamp | null): void {
    const key = formatTimeKey(completionTime);
    const pair: DVPair = { delegator_address: ubd.delegator_address, validator_address: ubd.validator_address };
    const slice = this.state.UnbondingQueue.get(ctx, key)?.pairs ?? [];
    this.state.UnbondingQueue.set(ctx, key, { pairs: [...slice, pair] });
  }

  getRedelegation(ctx: Context, delegator: Uint8Array, src: Uint8Array, dst: Uint8Array): Redelegation | undefined {
    return this.state.Redelegations.get(ctx, [delegator, src, dst]);
  }

  /** SDK `SetRedelegation`: the record and its by-source and by-destination index entries. */
  setRedelegation(ctx: Context, red: Redelegation): void {
    const del = this.accCodec.decode(red.delegator_address);
    const src = this.valCodec.decode(red.validator_src_address);
    const dst = this.valCodec.decode(red.validator_dst_address);
    this.state.Redelegations.set(ctx, [del, src, dst], red);
    this.state.RedelegationsBySrc.set(ctx, [src, del, dst]);
    this.state.RedelegationsByDst.set(ctx, [dst, del, src]);
  }

  /** SDK `InsertRedelegationQueue`: appends the triplet to the entry of `completionTime`. */
  insertRedelegationQueue(ctx: Context, red: Redelegation, completionTime: google_protobuf.Timestamp | null): void {
    const key = formatTimeKey(completionTime);
    const t: DVVTriplet = {
      delegator_address: red.delegator_address, validator_src_address: red.validator_src_address, validator_dst_address: red.validator_dst_address,
    };
    const slice = this.state.RedelegationQueue.get(ctx, key)?.triplets ?? [];
    this.state.RedelegationQueue.set(ctx, key, { triplets: [...slice, t] });
  }

  // ---- historical info ----

  getHistoricalInfo(ctx: Context, height: bigint): HistoricalInfo | undefined {
    return this.state.HistoricalInfo.get(ctx, height);
  }

  setHistoricalInfo(ctx: Context, height: bigint, hi: HistoricalInfo): void {
    this.state.HistoricalInfo.set(ctx, height, hi);
  }

  deleteHistoricalInfo(ctx: Context, height: bigint): void {
    this.state.HistoricalInfo.remove(ctx, height);
  }
}
