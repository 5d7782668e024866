/**
 * StakingKeeper: x/staking's state (Cosmos SDK v0.45 x/staking/keeper: validator.go, delegation.go,
 * params.go, historical_info.go) through the schema of src/keys.ts, and its state transitions: delegation,
 * unbonding, redelegation, the validator set updates of EndBlock (val_state_change.go), slashing of stake
 * and jailing (slash.go), historical info; the API other modules call (see the README).
 */
import type { Coin, Context, ValidatorUpdate } from '@chain/app';
import type { HookSlot } from '@chain/app';
import { Errors } from '@chain/errors';
import { Dec } from '@chain/math';
import { StakingErrors } from './errors.js';
import { EventType, AttributeKey } from './events.js';
import { stakingHookSlot } from './hooks.js';
import type { StakingHooks } from './hooks.js';
import {
  addTokensFromDel, decOf, decText, invalidExRate, isBonded, isUnbonded, isUnbonding, removeDelShares, removeTokens,
  sharesFromTokens, sharesFromTokensTruncated, tokensFromShares, tokensOf,
} from './shares.js';
import type { ProtoRegistry } from '@chain/codec';
import { Bech32Codec, sha256 } from '@chain/crypto';
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
import { GO_ZERO_TIMESTAMP, dateTs, formatTimeKey, nanosTs, tsNanos } from './time.js';
import { durationNanos } from './params.js';
import type { google_protobuf } from '@chain/codec';

type Timestamp = google_protobuf.Timestamp;

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

/** A bech32 codec of one prefix (infrastructure's; re-exported under this name). */
export { Bech32Codec };

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
  /** The staking hooks (distribution, slashing): wired once by the composition (`hooks.set(...)`). */
  readonly hooks: HookSlot<StakingHooks> = stakingHookSlot();

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

  // ==== the state transitions (SDK v0.45 x/staking/keeper: delegation.go, validator.go,
  // val_state_change.go, slash.go, historical_info.go) ====

  // ---- params and supply ----

  /** `UnbondingTime` in nanoseconds. */
  unbondingTimeNanos(ctx: Context): bigint {
    return durationNanos(this.getParams(ctx).unbonding_time);
  }

  /** `MaxValidators`. */
  maxValidators(ctx: Context): number {
    return this.getParams(ctx).max_validators;
  }

  maxEntries(ctx: Context): number {
    return this.getParams(ctx).max_entries;
  }

  /** `StakingTokenSupply`: the bank supply of the bond denom. */
  stakingTokenSupply(ctx: Context): bigint {
    return this.bk.getSupply(ctx, this.bondDenom(ctx));
  }

  /** `TotalBondedTokens`: the bond-denom balance of the bonded pool. */
  totalBondedTokens(ctx: Context): bigint {
    return this.bk.getBalance(ctx, this.bondedPoolAddress(), this.bondDenom(ctx));
  }

  /** `BondedRatio`: bonded tokens / staking token supply (`QuoInt`), zero without supply. */
  bondedRatio(ctx: Context): Dec {
    const supply = this.stakingTokenSupply(ctx);
    return supply > 0n ? Dec.fromInt(this.totalBondedTokens(ctx)).quoInt(supply) : Dec.zero();
  }

  // ---- pools ----

  private bondCoins(ctx: Context, amount: bigint): Coin[] {
    return [{ denom: this.bondDenom(ctx), amount: amount.toString() }];
  }

  /** `bondedTokensToNotBonded` (a zero amount moves nothing). */
  bondedTokensToNotBonded(ctx: Context, amount: bigint): void {
    if (amount > 0n) this.bk.sendCoinsFromModuleToModule(ctx, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, this.bondCoins(ctx, amount));
  }

  /** `notBondedTokensToBonded` (a zero amount moves nothing). */
  notBondedTokensToBonded(ctx: Context, amount: bigint): void {
    if (amount > 0n) this.bk.sendCoinsFromModuleToModule(ctx, NOT_BONDED_POOL_NAME, BONDED_POOL_NAME, this.bondCoins(ctx, amount));
  }

  /** `burnBondedTokens`: nothing for a non-positive amount. */
  burnBondedTokens(ctx: Context, amount: bigint): void {
    if (amount > 0n) this.bk.burnCoins(ctx, BONDED_POOL_NAME, this.bondCoins(ctx, amount));
  }

  burnNotBondedTokens(ctx: Context, amount: bigint): void {
    if (amount > 0n) this.bk.burnCoins(ctx, NOT_BONDED_POOL_NAME, this.bondCoins(ctx, amount));
  }

  // ---- validators ----

  private opOf(v: Validator): Uint8Array {
    return this.valCodec.decode(v.operator_address);
  }

  private mustGetValidator(ctx: Context, op: Uint8Array): Validator {
    const v = this.getValidator(ctx, op);
    if (!v) throw new Error(`validator record not found for address: ${this.valCodec.encode(op)}`);
    return v;
  }

  /** Every validator, in operator-address order. */
  *iterateValidators(ctx: Context): Generator<Validator> {
    for (const v of this.state.Validators.values(ctx).toArray()) yield v;
  }

  /** `IterateBondedValidatorsByPower`: the bonded validators of the power index, at most `max_validators`. */
  *iterateBondedValidatorsByPower(ctx: Context): Generator<Validator> {
    const max = this.maxValidators(ctx);
    let i = 0;
    for (const op of [...this.validatorsByPower(ctx)]) {
      if (i >= max) break;
      const v = this.mustGetValidator(ctx, op);
      if (isBonded(v)) {
        yield v;
        i++;
      }
    }
  }

  /** `GetLastValidators`: the validators of the last set, in operator-address order. */
  getLastValidators(ctx: Context): Validator[] {
    const max = this.maxValidators(ctx);
    const out: Validator[] = [];
    for (const op of this.state.LastValidatorPower.keys(ctx).toArray()) {
      if (out.length >= max) throw new Error('more validators than maxValidators found');
      out.push(this.mustGetValidator(ctx, op));
    }
    return out;
  }

  deleteLastValidatorPower(ctx: Context, op: Uint8Array): void {
    this.state.LastValidatorPower.remove(ctx, op);
  }

  /** `AddValidatorTokensAndShares`, with the power index moved. */
  addValidatorTokensAndShares(ctx: Context, v: Validator, amount: bigint): [Validator, Dec] {
    this.deleteValidatorByPowerIndex(ctx, v);
    const [nv, shares] = addTokensFromDel(v, amount);
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
    return [nv, shares];
  }

  /** `RemoveValidatorTokensAndShares`, with the power index moved. */
  removeValidatorTokensAndShares(ctx: Context, v: Validator, shares: Dec): [Validator, bigint] {
    this.deleteValidatorByPowerIndex(ctx, v);
    const [nv, tokens] = removeDelShares(v, shares);
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
    return [nv, tokens];
  }

  /** `RemoveValidatorTokens`, with the power index moved. */
  removeValidatorTokens(ctx: Context, v: Validator, tokens: bigint): Validator {
    this.deleteValidatorByPowerIndex(ctx, v);
    const nv = removeTokens(v, tokens);
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
    return nv;
  }

  /** `RemoveValidator`: only an unbonded validator without tokens; hook AfterValidatorRemoved. */
  removeValidator(ctx: Context, op: Uint8Array): void {
    const v = this.getValidator(ctx, op);
    if (!v) return;
    if (!isUnbonded(v)) throw new Error('cannot call RemoveValidator on bonded or unbonding validators');
    if (tokensOf(v) > 0n) throw new Error('attempting to remove a validator which still contains tokens');
    const consAddr = this.consAddress(v);
    this.state.Validators.remove(ctx, op);
    this.state.ValidatorsByConsAddr.remove(ctx, consAddr);
    this.deleteValidatorByPowerIndex(ctx, v);
    this.hooks.call.afterValidatorRemoved(ctx, consAddr, op);
  }

  /** `DeleteValidatorQueue`: takes the validator out of its (unbonding time, height) queue entry. */
  deleteValidatorQueue(ctx: Context, v: Validator): void {
    const key: [string, bigint] = [formatTimeKey(v.unbonding_time), BigInt.asUintN(64, v.unbonding_height)];
    const entry = this.state.ValidatorQueue.get(ctx, key);
    const rest = (entry?.addresses ?? []).filter((a) => a !== v.operator_address);
    if (rest.length === 0) this.state.ValidatorQueue.remove(ctx, key);
    else this.state.ValidatorQueue.set(ctx, key, { addresses: rest });
  }

  // ---- jail ----

  private jailValidator(ctx: Context, v: Validator): void {
    if (v.jailed) throw new Error(`cannot jail already jailed validator, validator: ${v.operator_address}`);
    const nv = { ...v, jailed: true };
    this.setValidator(ctx, nv);
    this.deleteValidatorByPowerIndex(ctx, nv);
  }

  private unjailValidator(ctx: Context, v: Validator): void {
    if (!v.jailed) throw new Error(`cannot unjail already unjailed validator, validator: ${v.operator_address}`);
    const nv = { ...v, jailed: false };
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
  }

  private mustGetValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator {
    const v = this.getValidatorByConsAddr(ctx, consAddr);
    if (!v) throw new Error(`validator with consensus-Address ${this.consCodec.encode(consAddr)} not found`);
    return v;
  }

  /** `Jail`: jailed, out of the power index (it leaves the set at the next EndBlock). */
  jail(ctx: Context, consAddr: Uint8Array): void {
    this.jailValidator(ctx, this.mustGetValidatorByConsAddr(ctx, consAddr));
  }

  /** `Unjail`: back into the power index. */
  unjail(ctx: Context, consAddr: Uint8Array): void {
    this.unjailValidator(ctx, this.mustGetValidatorByConsAddr(ctx, consAddr));
  }

  // ---- delegations ----

  /** The delegations of a delegator, in validator order. */
  *iterateDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Generator<Delegation> {
    for (const d of this.state.Delegations.values(ctx, { prefix: [delAddr] }).toArray()) yield d;
  }

  getAllDelegations(ctx: Context): Delegation[] {
    return this.state.Delegations.values(ctx).toArray();
  }

  /** `GetValidatorDelegations`: walks every delegation (as v0.45). */
  getValidatorDelegations(ctx: Context, valAddr: Uint8Array): Delegation[] {
    const text = this.valCodec.encode(valAddr);
    return this.getAllDelegations(ctx).filter((d) => d.validator_address === text);
  }

  /** `RemoveDelegation`: hook BeforeDelegationRemoved, then the record. */
  removeDelegation(ctx: Context, d: Delegation): void {
    const del = this.accCodec.decode(d.delegator_address);
    const val = this.valCodec.decode(d.validator_address);
    this.hooks.call.beforeDelegationRemoved(ctx, del, val);
    this.state.Delegations.remove(ctx, [del, val]);
  }

  /**
   * `Delegate`: `tokenSrc` is the bond status the tokens come from; `subtractAccount` takes them from the
   * delegator's account (into the validator's pool), otherwise they move between the pools when the
   * bonded-ness differs (redelegation). Returns the new shares.
   */
  delegate(ctx: Context, delAddr: Uint8Array, amount: bigint, tokenSrc: number, validator: Validator, subtractAccount: boolean): Dec {
    if (invalidExRate(validator)) throw StakingErrors.DelegatorShareExRateInvalid.error();
    const valAddr = this.opOf(validator);
    const found = this.getDelegation(ctx, delAddr, valAddr);
    const delegation: Delegation = found ?? { delegator_address: this.accCodec.encode(delAddr), validator_address: validator.operator_address, shares: '0' };
    if (found) this.hooks.call.beforeDelegationSharesModified(ctx, delAddr, valAddr);
    else this.hooks.call.beforeDelegationCreated(ctx, delAddr, valAddr);

    if (subtractAccount) {
      if (tokenSrc === BondStatus.BOND_STATUS_BONDED) throw new Error('delegation token source cannot be bonded');
      let pool: string;
      if (isBonded(validator)) pool = BONDED_POOL_NAME;
      else if (isUnbonding(validator) || isUnbonded(validator)) pool = NOT_BONDED_POOL_NAME;
      else throw new Error('invalid validator status');
      if (amount > 0n) this.bk.sendCoinsFromAccountToModule(ctx, delAddr, pool, this.bondCoins(ctx, amount));
    } else {
      const srcBonded = tokenSrc === BondStatus.BOND_STATUS_BONDED;
      const srcNotBonded = tokenSrc === BondStatus.BOND_STATUS_UNBONDED || tokenSrc === BondStatus.BOND_STATUS_UNBONDING;
      if (srcBonded && isBonded(validator)) { /* nothing moves */ } else if (srcNotBonded && !isBonded(validator)) { /* nothing moves */ } else if (srcNotBonded && isBonded(validator)) {
        this.notBondedTokensToBonded(ctx, amount);
      } else if (srcBonded && !isBonded(validator)) {
        this.bondedTokensToNotBonded(ctx, amount);
      } else throw new Error('unknown token source bond status');
    }

    const [, newShares] = this.addValidatorTokensAndShares(ctx, validator, amount);
    this.setDelegation(ctx, { ...delegation, shares: decText(decOf(delegation.shares).add(newShares)) });
    this.hooks.call.afterDelegationModified(ctx, delAddr, valAddr);
    return newShares;
  }

  /**
   * `Unbond`: removes `shares` from the delegation (jailing the validator when its operator's
   * self-delegation falls below the minimum), then from the validator; removes an unbonded validator left
   * without shares. Returns the tokens taken out of the validator.
   */
  unbond(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, shares: Dec): bigint {
    const delegation = this.getDelegation(ctx, delAddr, valAddr);
    if (!delegation) throw StakingErrors.NoDelegatorForAddress.error();
    this.hooks.call.beforeDelegationSharesModified(ctx, delAddr, valAddr);
    const delShares = decOf(delegation.shares);
    if (delShares.lt(shares)) throw StakingErrors.NotEnoughDelegationShares.wrap(delShares.toString());
    let validator = this.getValidator(ctx, valAddr);
    if (!validator) throw StakingErrors.NoValidatorFound.error();
    const remaining = delShares.sub(shares);
    const isOperator = Buffer.from(delAddr).equals(Buffer.from(valAddr));
    if (isOperator && !validator.jailed && tokensFromShares(validator, remaining).truncateInt() < BigInt(validator.min_self_delegation || '0')) {
      this.jailValidator(ctx, validator);
      validator = this.mustGetValidator(ctx, valAddr);
    }
    if (remaining.isZero()) this.removeDelegation(ctx, delegation);
    else {
      this.setDelegation(ctx, { ...delegation, shares: decText(remaining) });
      this.hooks.call.afterDelegationModified(ctx, delAddr, valAddr);
    }
    const [nv, amount] = this.removeValidatorTokensAndShares(ctx, validator, shares);
    if (decOf(nv.delegator_shares).isZero() && isUnbonded(nv)) this.removeValidator(ctx, valAddr);
    return amount;
  }

  /**
   * `ValidateUnbondAmount`: the shares worth `amount` tokens (`SharesFromTokens`), capped at the
   * delegation's shares; more than the delegation even truncated: sdk 18 `invalid shares amount`.
   */
  validateUnbondAmount(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, amount: bigint): Dec {
    const validator = this.getValidator(ctx, valAddr);
    if (!validator) throw StakingErrors.NoValidatorFound.error();
    const del = this.getDelegation(ctx, delAddr, valAddr);
    if (!del) throw StakingErrors.NoDelegation.error();
    let shares = sharesFromTokens(validator, amount);
    const truncated = sharesFromTokensTruncated(validator, amount);
    const delShares = decOf(del.shares);
    if (truncated.gt(delShares)) throw Errors.InvalidRequest.wrap('invalid shares amount');
    if (shares.gt(delShares)) shares = delShares;
    return shares;
  }

  hasMaxUnbondingDelegationEntries(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): boolean {
    const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr);
    return !!ubd && ubd.entries.length >= this.maxEntries(ctx);
  }

  /** `SetUnbondingDelegationEntry`: appends an entry (v0.45 never merges entries). */
  setUnbondingDelegationEntry(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, height: bigint, completion: Timestamp, balance: bigint): UnbondingDelegation {
    const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr)
      ?? { delegator_address: this.accCodec.encode(delAddr), validator_address: this.valCodec.encode(valAddr), entries: [] };
    const next = { ...ubd, entries: [...ubd.entries, { creation_height: height, completion_time: completion, initial_balance: balance.toString(), balance: balance.toString() }] };
    this.setUnbondingDelegation(ctx, next);
    return next;
  }

  removeUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation): void {
    const del = this.accCodec.decode(ubd.delegator_address);
    const val = this.valCodec.decode(ubd.validator_address);
    this.state.UnbondingDelegations.remove(ctx, [del, val]);
    this.state.UnbondingDelegationsByValidator.remove(ctx, [val, del]);
  }

  /** `GetUnbondingDelegationsFromValidator` (through the by-validator index). */
  getUnbondingDelegationsFromValidator(ctx: Context, valAddr: Uint8Array): UnbondingDelegation[] {
    return this.state.UnbondingDelegationsByValidator.iterate(ctx, { prefix: [valAddr] }).toArray()
      .map(([val, del]) => this.getUnbondingDelegation(ctx, del, val)!);
  }

  /** `Undelegate`: unbonds the shares, moves bonded tokens to the not-bonded pool, adds a queued entry. */
  undelegate(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, shares: Dec): Timestamp {
    const validator = this.getValidator(ctx, valAddr);
    if (!validator) throw StakingErrors.NoDelegatorForAddress.error();
    if (this.hasMaxUnbondingDelegationEntries(ctx, delAddr, valAddr)) throw StakingErrors.MaxUnbondingDelegationEntries.error();
    const amount = this.unbond(ctx, delAddr, valAddr, shares);
    if (isBonded(validator)) this.bondedTokensToNotBonded(ctx, amount);
    const completion = nanosTs(tsNanos(dateTs(ctx.block.time)) + this.unbondingTimeNanos(ctx));
    const ubd = this.setUnbondingDelegationEntry(ctx, delAddr, valAddr, BigInt(ctx.block.height), completion, amount);
    this.insertUBDQueue(ctx, ubd, completion);
    return completion;
  }

  /**
   * `CompleteUnbonding`: removes the mature entries, pays their (non-zero) balances from the not-bonded
   * pool; the record goes when empty. Returns the coins paid.
   */
  completeUnbonding(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): bigint {
    const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr);
    if (!ubd) throw StakingErrors.NoUnbondingDelegation.error();
    const now = tsNanos(dateTs(ctx.block.time));
    let paid = 0n;
    const keep = [];
    for (const e of ubd.entries) {
      if (tsNanos(e.completion_time) <= now) {
        const bal = BigInt(e.balance || '0');
        if (bal !== 0n) {
          this.bk.sendCoinsFromModuleToAccount(ctx, NOT_BONDED_POOL_NAME, delAddr, this.bondCoins(ctx, bal));
          paid += bal;
        }
      } else keep.push(e);
    }
    if (keep.length === 0) this.removeUnbondingDelegation(ctx, ubd);
    else this.setUnbondingDelegation(ctx, { ...ubd, entries: keep });
    return paid;
  }

  // ---- redelegations ----

  /** `HasReceivingRedelegation`: a redelegation of the delegator *to* `valDst` exists. */
  hasReceivingRedelegation(ctx: Context, delAddr: Uint8Array, valDst: Uint8Array): boolean {
    for (const _ of this.state.RedelegationsByDst.iterate(ctx, { prefix: [valDst, delAddr] })) return true;
    return false;
  }

  hasMaxRedelegationEntries(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array): boolean {
    const red = this.getRedelegation(ctx, delAddr, src, dst);
    return !!red && red.entries.length >= this.maxEntries(ctx);
  }

  setRedelegationEntry(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array, height: bigint, completion: Timestamp, balance: bigint, sharesDst: Dec): Redelegation {
    const red = this.getRedelegation(ctx, delAddr, src, dst) ?? {
      delegator_address: this.accCodec.encode(delAddr), validator_src_address: this.valCodec.encode(src), validator_dst_address: this.valCodec.encode(dst), entries: [],
    };
    const next = { ...red, entries: [...red.entries, { creation_height: height, completion_time: completion, initial_balance: balance.toString(), shares_dst: decText(sharesDst) }] };
    this.setRedelegation(ctx, next);
    return next;
  }

  removeRedelegation(ctx: Context, red: Redelegation): void {
    const del = this.accCodec.decode(red.delegator_address);
    const src = this.valCodec.decode(red.validator_src_address);
    const dst = this.valCodec.decode(red.validator_dst_address);
    this.state.Redelegations.remove(ctx, [del, src, dst]);
    this.state.RedelegationsBySrc.remove(ctx, [src, del, dst]);
    this.state.RedelegationsByDst.remove(ctx, [dst, del, src]);
  }

  /** `GetRedelegationsFromSrcValidator` (through the by-source index). */
  getRedelegationsFromSrcValidator(ctx: Context, src: Uint8Array): Redelegation[] {
    return this.state.RedelegationsBySrc.iterate(ctx, { prefix: [src] }).toArray()
      .map(([s, del, dst]) => this.getRedelegation(ctx, del, s, dst)!);
  }

  /**
   * `getBeginInfo`: a bonded (or missing) source completes after the unbonding time from now; an unbonding
   * one when it finishes unbonding; an unbonded one at once (`completeNow`, zero time).
   */
  private beginInfo(ctx: Context, src: Uint8Array): { completion: Timestamp; height: bigint; completeNow: boolean } {
    const v = this.getValidator(ctx, src);
    if (!v || isBonded(v)) {
      return { completion: nanosTs(tsNanos(dateTs(ctx.block.time)) + this.unbondingTimeNanos(ctx)), height: BigInt(ctx.block.height), completeNow: false };
    }
    if (isUnbonded(v)) return { completion: GO_ZERO_TIMESTAMP, height: 0n, completeNow: true };
    if (isUnbonding(v)) return { completion: v.unbonding_time ?? GO_ZERO_TIMESTAMP, height: v.unbonding_height, completeNow: false };
    throw new Error('unknown validator status');
  }

  /** `BeginRedelegation`: the SDK's checks in order, unbond from the source, delegate to the destination. */
  beginRedelegation(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array, shares: Dec): Timestamp {
    if (Buffer.from(src).equals(Buffer.from(dst))) throw StakingErrors.SelfRedelegation.error();
    const dstValidator = this.getValidator(ctx, dst);
    if (!dstValidator) throw StakingErrors.BadRedelegationDst.error();
    const srcValidator = this.getValidator(ctx, src);
    if (!srcValidator) throw StakingErrors.BadRedelegationDst.error();
    if (this.hasReceivingRedelegation(ctx, delAddr, src)) throw StakingErrors.TransitiveRedelegation.error();
    if (this.hasMaxRedelegationEntries(ctx, delAddr, src, dst)) throw StakingErrors.MaxRedelegationEntries.error();
    const amount = this.unbond(ctx, delAddr, src, shares);
    if (amount === 0n) throw StakingErrors.TinyRedelegationAmount.error();
    const sharesCreated = this.delegate(ctx, delAddr, amount, srcValidator.status, dstValidator, false);
    const { completion, height, completeNow } = this.beginInfo(ctx, src);
    if (completeNow) return completion;
    const red = this.setRedelegationEntry(ctx, delAddr, src, dst, height, completion, amount, sharesCreated);
    this.insertRedelegationQueue(ctx, red, completion);
    return completion;
  }

  /** `CompleteRedelegation`: removes the mature entries; returns the sum of their initial balances. */
  completeRedelegation(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array): bigint {
    const red = this.getRedelegation(ctx, delAddr, src, dst);
    if (!red) throw StakingErrors.NoRedelegation.error();
    const now = tsNanos(dateTs(ctx.block.time));
    let total = 0n;
    const keep = [];
    for (const e of red.entries) {
      if (tsNanos(e.completion_time) <= now) total += BigInt(e.initial_balance || '0');
      else keep.push(e);
    }
    if (keep.length === 0) this.removeRedelegation(ctx, red);
    else this.setRedelegation(ctx, { ...red, entries: keep });
    return total;
  }

  // ---- the validator set (val_state_change.go) ----

  private bondValidator(ctx: Context, v: Validator): Validator {
    this.deleteValidatorByPowerIndex(ctx, v);
    const nv = { ...v, status: BondStatus.BOND_STATUS_BONDED };
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
    this.deleteValidatorQueue(ctx, nv);
    this.hooks.call.afterValidatorBonded(ctx, this.consAddress(nv), this.opOf(nv));
    return nv;
  }

  /** `BeginUnbondingValidator`: unbonding until block time + unbonding time, in the validator queue. */
  private beginUnbondingValidator(ctx: Context, v: Validator): Validator {
    this.deleteValidatorByPowerIndex(ctx, v);
    if (!isBonded(v)) throw new Error(`should not already be unbonded or unbonding, validator: ${v.operator_address}`);
    const nv: Validator = {
      ...v,
      status: BondStatus.BOND_STATUS_UNBONDING,
      unbonding_time: nanosTs(tsNanos(dateTs(ctx.block.time)) + this.unbondingTimeNanos(ctx)),
      unbonding_height: BigInt(ctx.block.height),
    };
    this.setValidator(ctx, nv);
    this.setValidatorByPowerIndex(ctx, nv);
    this.insertUnbondingValidatorQueue(ctx, nv);
    this.hooks.call.afterValidatorBeginUnbonding(ctx, this.consAddress(nv), this.opOf(nv));
    return nv;
  }

  /**
   * `ApplyAndReturnValidatorSetUpdates`: the new set from the power index (at most `max_validators`, up to
   * the first without power), bonding the newcomers, unbonding the leavers (operator-address order), one
   * net pool transfer; the updates for changed powers, power 0 for the leavers.
   */
  applyAndReturnValidatorSetUpdates(ctx: Context): ValidatorUpdate[] {
    const max = this.maxValidators(ctx);
    const last = new Map<string, bigint>();
    for (const { key, value } of this.state.LastValidatorPower.iterate(ctx).toArray()) last.set(Buffer.from(key).toString('hex'), value);
    const updates: ValidatorUpdate[] = [];
    let totalPower = 0n;
    let toBonded = 0n;
    let toNotBonded = 0n;
    let count = 0;
    for (const op of [...this.validatorsByPower(ctx)]) {
      if (count >= max) break;
      let v = this.mustGetValidator(ctx, op);
      if (v.jailed) throw new Error('should never retrieve a jailed validator from the power store');
      if (this.potentialConsensusPower(v) === 0n) break;
      if (isUnbonded(v) || isUnbonding(v)) {
        v = this.bondValidator(ctx, v);
        toBonded += tokensOf(v);
      } else if (!isBonded(v)) throw new Error('unexpected validator status');
      const hex = Buffer.from(op).toString('hex');
      const power = this.consensusPower(v);
      if (last.get(hex) !== power) {
        updates.push(this.validatorUpdate(v, power));
        this.setLastValidatorPower(ctx, op, power);
      }
      last.delete(hex);
      count++;
      totalPower += power;
    }
    const leaving = [...last.keys()].sort();
    for (const hex of leaving) {
      const op = Uint8Array.from(Buffer.from(hex, 'hex'));
      const v = this.beginUnbondingValidator(ctx, this.mustGetValidator(ctx, op));
      toNotBonded += tokensOf(v);
      this.deleteLastValidatorPower(ctx, op);
      updates.push(this.validatorUpdate(v, 0n));
    }
    if (toBonded > toNotBonded) this.notBondedTokensToBonded(ctx, toBonded - toNotBonded);
    else if (toBonded < toNotBonded) this.bondedTokensToNotBonded(ctx, toNotBonded - toBonded);
    if (updates.length > 0) this.setLastTotalPower(ctx, totalPower);
    return updates;
  }

  /** `UnbondAllMatureValidators`: queue entries with height ≤ now and time ≤ now → unbonded (removed without shares). */
  unbondAllMatureValidators(ctx: Context): void {
    const now = formatTimeKey(dateTs(ctx.block.time));
    const height = BigInt(ctx.block.height);
    for (const { key, value } of this.state.ValidatorQueue.iterate(ctx).toArray()) {
      const [time, h] = key;
      if (!(h <= height && time <= now)) continue;
      for (const addr of value.addresses) {
        const op = this.valCodec.decode(addr);
        const v = this.getValidator(ctx, op);
        if (!v) throw new Error('validator in the unbonding queue was not found');
        if (!isUnbonding(v)) throw new Error('unexpected validator in unbonding queue; status was not unbonding');
        const nv = { ...v, status: BondStatus.BOND_STATUS_UNBONDED };
        this.setValidator(ctx, nv);
        if (decOf(nv.delegator_shares).isZero()) this.removeValidator(ctx, op);
      }
      this.state.ValidatorQueue.remove(ctx, key);
    }
  }

  /**
   * `BlockValidatorUpdates` (EndBlock): the validator set updates, the mature validators, then the mature
   * unbonding delegations (`complete_unbonding`) and redelegations (`complete_redelegation`).
   */
  blockValidatorUpdates(ctx: Context): ValidatorUpdate[] {
    const updates = this.applyAndReturnValidatorSetUpdates(ctx);
    this.unbondAllMatureValidators(ctx);
    const now = formatTimeKey(dateTs(ctx.block.time));
    const denom = this.bondDenom(ctx);
    const coinsText = (n: bigint) => (n === 0n ? '' : `${n}${denom}`);

    const pairs: DVPair[] = [];
    for (const { key, value } of this.state.UnbondingQueue.iterate(ctx, { end: now, endInclusive: true }).toArray()) {
      pairs.push(...value.pairs);
      this.state.UnbondingQueue.remove(ctx, key);
    }
    for (const p of pairs) {
      let paid: bigint;
      try {
        paid = this.completeUnbonding(ctx, this.accCodec.decode(p.delegator_address), this.valCodec.decode(p.validator_address));
      } catch {
        continue;
      }
      ctx.events.emit(EventType.CompleteUnbonding, [
        ['amount', coinsText(paid)], [AttributeKey.Validator, p.validator_address], [AttributeKey.Delegator, p.delegator_address],
      ]);
    }

    const triplets: DVVTriplet[] = [];
    for (const { key, value } of this.state.RedelegationQueue.iterate(ctx, { end: now, endInclusive: true }).toArray()) {
      triplets.push(...value.triplets);
      this.state.RedelegationQueue.remove(ctx, key);
    }
    for (const t of triplets) {
      let total: bigint;
      try {
        total = this.completeRedelegation(ctx, this.accCodec.decode(t.delegator_address), this.valCodec.decode(t.validator_src_address), this.valCodec.decode(t.validator_dst_address));
      } catch {
        continue;
      }
      ctx.events.emit(EventType.CompleteRedelegation, [
        ['amount', coinsText(total)], [AttributeKey.Delegator, t.delegator_address],
        [AttributeKey.SrcValidator, t.validator_src_address], [AttributeKey.DstValidator, t.validator_dst_address],
      ]);
    }
    return updates;
  }

  // ---- historical info ----

  /**
   * `TrackHistoricalInfo` (BeginBlock): prunes the entries older than `historical_entries`, then stores this
   * block's header with the last validator set sorted as CometBFT does (power descending, then consensus
   * address ascending).
   */
  trackHistoricalInfo(ctx: Context): void {
    const entries = BigInt(this.getParams(ctx).historical_entries);
    for (let h = BigInt(ctx.block.height) - entries; h >= 0n; h--) {
      if (this.getHistoricalInfo(ctx, h)) this.deleteHistoricalInfo(ctx, h);
      else break;
    }
    if (entries === 0n) return;
    const valset = this.getLastValidators(ctx)
      .map((v) => ({ v, p: this.consensusPower(v), a: Buffer.from(this.consAddress(v)) }))
      .sort((x, y) => (x.p === y.p ? Buffer.compare(x.a, y.a) : x.p > y.p ? -1 : 1))
      .map((x) => x.v);
    this.setHistoricalInfo(ctx, BigInt(ctx.block.height), {
      header: {
        chain_id: ctx.block.chainId,
        height: BigInt(ctx.block.height),
        time: dateTs(ctx.block.time),
        next_validators_hash: ctx.block.comet?.nextValidatorsHash ?? new Uint8Array(),
        proposer_address: ctx.block.proposer,
      },
      valset,
    } as HistoricalInfo);
  }

  // ---- slashing of stake (slash.go) ----

  /**
   * `Slash`: burns `slashFactor` of the stake the validator had at `infractionHeight` (`power` then):
   * first from the unbonding delegations and redelegations started at or after it (not mature), the rest
   * from the validator's tokens (at most all of them); hook BeforeValidatorSlashed with the effective
   * fraction. Unknown validator: ignored; unbonded validator, future infraction or negative factor: throws.
   */
  slash(ctx: Context, consAddr: Uint8Array, infractionHeight: bigint, power: bigint, slashFactor: Dec): void {
    if (slashFactor.isNegative()) throw new Error(`attempted to slash with a negative slash factor: ${slashFactor.toString()}`);
    const amount = power * this.powerReduction;
    const slashAmount = Dec.fromInt(amount).mul(slashFactor).truncateInt();
    const validator = this.getValidatorByConsAddr(ctx, consAddr);
    if (!validator) return; // the SDK logs "WARNING: ignored attempt to slash a nonexistent validator"
    if (isUnbonded(validator)) throw new Error(`should not be slashing unbonded validator: ${validator.operator_address}`);
    const op = this.opOf(validator);
    this.hooks.call.beforeValidatorModified(ctx, op);
    let remaining = slashAmount;
    const height = BigInt(ctx.block.height);
    if (infractionHeight > height) {
      throw new Error(`impossible attempt to slash future infraction at height ${infractionHeight} but we are at height ${height}`);
    }
    if (infractionHeight < height) {
      for (const ubd of this.getUnbondingDelegationsFromValidator(ctx, op)) {
        remaining -= this.slashUnbondingDelegation(ctx, ubd, infractionHeight, slashFactor);
      }
      for (const red of this.getRedelegationsFromSrcValidator(ctx, op)) {
        remaining -= this.slashRedelegation(ctx, validator, red, infractionHeight, slashFactor);
      }
    }
    const tokens = tokensOf(validator);
    let toBurn = remaining < tokens ? remaining : tokens;
    if (toBurn < 0n) toBurn = 0n;
    if (tokens > 0n) {
      let effective = Dec.fromInt(toBurn).quoRoundUp(Dec.fromInt(tokens));
      if (effective.gt(Dec.one())) effective = Dec.one();
      this.hooks.call.beforeValidatorSlashed(ctx, op, effective);
    }
    const nv = this.removeValidatorTokens(ctx, validator, toBurn);
    if (isBonded(nv)) this.burnBondedTokens(ctx, toBurn);
    else if (isUnbonding(nv) || isUnbonded(nv)) this.burnNotBondedTokens(ctx, toBurn);
    else throw new Error('invalid validator status');
  }

  /** `SlashUnbondingDelegation`: returns the total slash amount (burned: at most each entry's balance). */
  slashUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation, infractionHeight: bigint, slashFactor: Dec): bigint {
    const now = tsNanos(dateTs(ctx.block.time));
    let total = 0n;
    let burned = 0n;
    const entries = [...ubd.entries];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.creation_height < infractionHeight) continue;
      if (tsNanos(e.completion_time) <= now) continue;
      const slashAmount = slashFactor.mulInt(BigInt(e.initial_balance || '0')).truncateInt();
      total += slashAmount;
      const bal = BigInt(e.balance || '0');
      const cut = slashAmount < bal ? slashAmount : bal;
      if (cut === 0n) continue;
      burned += cut;
      entries[i] = { ...e, balance: (bal - cut).toString() };
      this.setUnbondingDelegation(ctx, { ...ubd, entries: [...entries] });
    }
    this.burnNotBondedTokens(ctx, burned);
    return total;
  }

  /**
   * `SlashRedelegation`: per eligible entry, the slash amount of its initial balance counts toward the
   * total; `slashFactor × shares_dst` (capped at the delegation) is unbonded from the destination and burned
   * from the destination's pool.
   */
  slashRedelegation(ctx: Context, _src: Validator, red: Redelegation, infractionHeight: bigint, slashFactor: Dec): bigint {
    const now = tsNanos(dateTs(ctx.block.time));
    let total = 0n;
    let bondedBurned = 0n;
    let notBondedBurned = 0n;
    for (const e of red.entries) {
      if (e.creation_height < infractionHeight) continue;
      if (tsNanos(e.completion_time) <= now) continue;
      total += slashFactor.mulInt(BigInt(e.initial_balance || '0')).truncateInt();
      let sharesToUnbond = slashFactor.mul(decOf(e.shares_dst));
      if (sharesToUnbond.isZero()) continue;
      const dst = this.valCodec.decode(red.validator_dst_address);
      const del = this.accCodec.decode(red.delegator_address);
      const delegation = this.getDelegation(ctx, del, dst);
      if (!delegation) continue;
      const delShares = decOf(delegation.shares);
      if (sharesToUnbond.gt(delShares)) sharesToUnbond = delShares;
      const tokensToBurn = this.unbond(ctx, del, dst, sharesToUnbond);
      const dstValidator = this.getValidator(ctx, dst);
      if (!dstValidator) throw new Error('destination validator not found');
      if (isBonded(dstValidator)) bondedBurned += tokensToBurn;
      else if (isUnbonded(dstValidator) || isUnbonding(dstValidator)) notBondedBurned += tokensToBurn;
      else throw new Error('unknown validator status');
    }
    this.burnBondedTokens(ctx, bondedBurned);
    this.burnNotBondedTokens(ctx, notBondedBurned);
    return total;
  }
}
