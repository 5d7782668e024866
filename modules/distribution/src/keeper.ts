/**
 * DistributionKeeper: x/distribution of SDK v0.45 (keeper/{keeper,store,params,validator,delegation,
 * allocation,hooks,fee_pool,proposal_handler}.go): F1 fee distribution over the schema of src/keys.ts.
 * Every amount is a @chain/math `DecCoins` / `Dec` with the SDK's roundings.
 */
import type { Coin, Context } from '@chain/app';
import { coinsToString } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Bech32Codec } from '@chain/crypto';
import { Errors } from '@chain/errors';
import { Dec, DecCoins } from '@chain/math';
import type { DecCoinJSON } from '@chain/math';
import type { StakingHooks } from '@chain/staking';
import { DistributionErrors } from './errors.js';
import {
  commissionEvent, emit, proposerRewardEvent, rewardsEvent, setWithdrawAddressEvent, withdrawCommissionEvent, withdrawRewardsEvent,
} from './events.js';
import type {
  Delegation, DistributionAccountKeeper, DistributionBankKeeper, DistributionStakingKeeper, Validator,
} from './expected-keepers.js';
import type { CommunityPoolSpendProposal, DelegatorStartingInfo, ValidatorHistoricalRewards } from './gen/chain/distribution/v1beta1.js';
import { FEE_COLLECTOR_NAME, MODULE_NAME, distributionSchema } from './keys.js';
import type { DistributionState } from './keys.js';
import { decOf, defaultParams, paramsFromProto, validateParams } from './params.js';
import type { DistributionParams, DistributionParamsValues } from './params.js';
import { validatorCommissionRate, validatorTokens, tokensFromShares, tokensFromSharesTruncated } from './validator-math.js';

export interface DistributionKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: DistributionAccountKeeper;
  readonly bankKeeper: DistributionBankKeeper;
  readonly stakingKeeper: DistributionStakingKeeper;
  /** bech32 prefix of validator operator addresses (default: the account prefix + `valoper`) */
  readonly validatorAddressPrefix?: string;
  /** bech32 prefix of consensus addresses (default: the account prefix + `valcons`) */
  readonly consensusAddressPrefix?: string;
  /** the module account fees are collected in (default `fee_collector`) */
  readonly feeCollectorName?: string;
}

/** A bech32 codec of one prefix (infrastructure's; re-exported under this name). */
export { Bech32Codec };

const dc = (coins: readonly DecCoinJSON[] | undefined): DecCoins => DecCoins.fromProto(coins ?? []);

export class DistributionKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: DistributionAccountKeeper;
  readonly bk: DistributionBankKeeper;
  readonly sk: DistributionStakingKeeper;
  readonly feeCollectorName: string;
  /** The module's state: the collections of `distributionSchema` (src/keys.ts). */
  readonly state: DistributionState;
  readonly accCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  readonly valCodec: Bech32Codec;
  readonly consCodec: Bech32Codec;
  /** The StakingHooks distribution implements (wire with `stakingKeeper.hooks.set(distribution.stakingHooks, ...)`). */
  readonly stakingHooks: Partial<StakingHooks>;

  constructor(opts: DistributionKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bk = opts.bankKeeper;
    this.sk = opts.stakingKeeper;
    this.feeCollectorName = opts.feeCollectorName ?? FEE_COLLECTOR_NAME;
    this.state = distributionSchema(opts.registry);
    this.accCodec = opts.accountKeeper.addressCodec;
    const accPrefix = (opts.accountKeeper.addressCodec as { prefix?: string }).prefix;
    const valPrefix = opts.validatorAddressPrefix ?? (accPrefix ? accPrefix + 'valoper' : undefined);
    const consPrefix = opts.consensusAddressPrefix ?? (accPrefix ? accPrefix + 'valcons' : undefined);
    if (!valPrefix || !consPrefix) throw new Error('distribution keeper: validatorAddressPrefix and consensusAddressPrefix are required');
    this.valCodec = new Bech32Codec(valPrefix);
    this.consCodec = new Bech32Codec(consPrefix);
    this.stakingHooks = {
      afterValidatorCreated: (ctx, valAddr) => this.initializeValidator(ctx, this.mustValidator(ctx, valAddr)),
      afterValidatorRemoved: (ctx, _consAddr, valAddr) => this.afterValidatorRemoved(ctx, valAddr),
      beforeDelegationCreated: (ctx, _delAddr, valAddr) => {
        this.incrementValidatorPeriod(ctx, this.mustValidator(ctx, valAddr));
      },
      beforeDelegationSharesModified: (ctx, delAddr, valAddr) => {
        const val = this.mustValidator(ctx, valAddr);
        const del = this.sk.getDelegation(ctx, delAddr, valAddr);
        if (!del) throw new Error(`distribution: no delegation of ${this.accCodec.encode(delAddr)} to ${this.valCodec.encode(valAddr)}`);
        this.withdrawDelegationRewardsInternal(ctx, val, del);
      },
      afterDelegationModified: (ctx, delAddr, valAddr) => this.initializeDelegation(ctx, valAddr, delAddr),
      beforeValidatorSlashed: (ctx, valAddr, fraction) => this.updateValidatorSlashFraction(ctx, valAddr, fraction),
    };
  }

  /** The distribution module account address. */
  moduleAddress(): Uint8Array {
    return this.ak.getModuleAddress(MODULE_NAME);
  }

  private mustValidator(ctx: Context, valAddr: Uint8Array): Validator {
    const v = this.sk.getValidator(ctx, valAddr);
    if (!v) throw new Error(`distribution: validator ${this.valCodec.encode(valAddr)} does not exist`);
    return v;
  }

  operatorOf(v: Validator): Uint8Array {
    return this.valCodec.decode(v.operator_address);
  }

  // ---- params ----

  getParamsProto(ctx: Context): DistributionParams {
    return this.state.Params.getOr(ctx, defaultParams());
  }

  getParams(ctx: Context): DistributionParamsValues {
    return paramsFromProto(this.getParamsProto(ctx));
  }

  /** Validates (`Params.ValidateBasic`'s messages) and stores the params. */
  setParams(ctx: Context, p: DistributionParams): void {
    validateParams(p);
    this.state.Params.set(ctx, p);
  }

  // ---- store accessors (keeper/store.go) ----

  getFeePoolCommunityCoins(ctx: Context): DecCoins {
    return dc(this.state.FeePool.get(ctx)?.community_pool);
  }

  setFeePoolCommunityCoins(ctx: Context, pool: DecCoins): void {
    this.state.FeePool.set(ctx, { community_pool: pool.toProto() });
  }

  /** `GetDelegatorWithdrawAddr`: the stored withdraw address or the delegator itself. */
  getDelegatorWithdrawAddr(ctx: Context, delAddr: Uint8Array): Uint8Array {
    return this.state.WithdrawAddrs.get(ctx, delAddr) ?? delAddr;
  }

  setDelegatorWithdrawAddr(ctx: Context, delAddr: Uint8Array, withdrawAddr: Uint8Array): void {
    this.state.WithdrawAddrs.set(ctx, delAddr, withdrawAddr);
  }

  getPreviousProposerConsAddr(ctx: Context): Uint8Array {
    return this.state.PreviousProposer.get(ctx) ?? new Uint8Array();
  }

  setPreviousProposerConsAddr(ctx: Context, consAddr: Uint8Array): void {
    this.state.PreviousProposer.set(ctx, consAddr);
  }

  getOutstandingRewards(ctx: Context, valAddr: Uint8Array): DecCoins {
    return dc(this.state.OutstandingRewards.get(ctx, valAddr)?.rewards);
  }

  setOutstandingRewards(ctx: Context, valAddr: Uint8Array, rewards: DecCoins): void {
    this.state.OutstandingRewards.set(ctx, valAddr, { rewards: rewards.toProto() });
  }

  getAccumulatedCommission(ctx: Context, valAddr: Uint8Array): DecCoins {
    return dc(this.state.AccumulatedCommission.get(ctx, valAddr)?.commission);
  }

  setAccumulatedCommission(ctx: Context, valAddr: Uint8Array, commission: DecCoins): void {
    this.state.AccumulatedCommission.set(ctx, valAddr, { commission: commission.toProto() });
  }

  /** `GetValidatorCurrentRewards` (zero value `{[], 0}` when absent, as the SDK). */
  getCurrentRewards(ctx: Context, valAddr: Uint8Array): { rewards: DecCoins; period: bigint } {
    const c = this.state.CurrentRewards.get(ctx, valAddr);
    return { rewards: dc(c?.rewards), period: c?.period ?? 0n };
  }

  setCurrentRewards(ctx: Context, valAddr: Uint8Array, rewards: DecCoins, period: bigint): void {
    this.state.CurrentRewards.set(ctx, valAddr, { rewards: rewards.toProto(), period });
  }

  getHistoricalRewards(ctx: Context, valAddr: Uint8Array, period: bigint): ValidatorHistoricalRewards {
    return this.state.HistoricalRewards.get(ctx, [valAddr, period]) ?? { cumulative_reward_ratio: [], reference_count: 0 };
  }

  setHistoricalRewards(ctx: Context, valAddr: Uint8Array, period: bigint, ratio: DecCoins, referenceCount: number): void {
    this.state.HistoricalRewards.set(ctx, [valAddr, period], { cumulative_reward_ratio: ratio.toProto(), reference_count: referenceCount });
  }

  getStartingInfo(ctx: Context, valAddr: Uint8Array, delAddr: Uint8Array): DelegatorStartingInfo | undefined {
    return this.state.StartingInfos.get(ctx, [valAddr, delAddr]);
  }

  // ---- validator.go ----

  /** `initializeValidator`: historical period 0 `{[], 1}`, current `{[], 1}`, zero commission and outstanding. */
  initializeValidator(ctx: Context, val: Validator): void {
    const op = this.operatorOf(val);
    this.setHistoricalRewards(ctx, op, 0n, DecCoins.empty(), 1);
    this.setCurrentRewards(ctx, op, DecCoins.empty(), 1n);
    this.setAccumulatedCommission(ctx, op, DecCoins.empty());
    this.setOutstandingRewards(ctx, op, DecCoins.empty());
  }

  /** `IncrementValidatorPeriod`: closes the current period, returns it. */
  incrementValidatorPeriod(ctx: Context, val: Validator): bigint {
    const op = this.operatorOf(val);
    const cur = this.getCurrentRewards(ctx, op);
    let current: DecCoins;
    const tokens = validatorTokens(val);
    if (tokens === 0n) {
      // can't calculate the ratio for zero-token validators: the rewards go to the community pool
      const outstanding = this.getOutstandingRewards(ctx, op);
      this.setFeePoolCommunityCoins(ctx, this.getFeePoolCommunityCoins(ctx).add(cur.rewards));
      this.setOutstandingRewards(ctx, op, outstanding.sub(cur.rewards));
      current = DecCoins.empty();
    } else {
      current = cur.rewards.quoDecTruncate(Dec.fromInt(tokens));
    }
    const historical = dc(this.getHistoricalRewards(ctx, op, cur.period - 1n).cumulative_reward_ratio);
    this.decrementReferenceCount(ctx, op, cur.period - 1n);
    this.setHistoricalRewards(ctx, op, cur.period, historical.add(current), 1);
    this.setCurrentRewards(ctx, op, DecCoins.empty(), cur.period + 1n);
    return cur.period;
  }

  incrementReferenceCount(ctx: Context, valAddr: Uint8Array, period: bigint): void {
    const h = this.getHistoricalRewards(ctx, valAddr, period);
    if (h.reference_count > 2) throw new Error('reference count should never exceed 2');
    this.state.HistoricalRewards.set(ctx, [valAddr, period], { ...h, reference_count: h.reference_count + 1 });
  }

  decrementReferenceCount(ctx: Context, valAddr: Uint8Array, period: bigint): void {
    const h = this.getHistoricalRewards(ctx, valAddr, period);
    if (h.reference_count === 0) throw new Error('cannot set negative reference count');
    const n = h.reference_count - 1;
    if (n === 0) this.state.HistoricalRewards.remove(ctx, [valAddr, period]);
    else this.state.HistoricalRewards.set(ctx, [valAddr, period], { ...h, reference_count: n });
  }

  /** `updateValidatorSlashFraction` (hook BeforeValidatorSlashed). */
  updateValidatorSlashFraction(ctx: Context, valAddr: Uint8Array, fraction: Dec): void {
    if (fraction.gt(Dec.one()) || fraction.isNegative()) throw new Error(`fraction must be >=0 and <=1, current fraction: ${fraction.toString()}`);
    const val = this.mustValidator(ctx, valAddr);
    const newPeriod = this.incrementValidatorPeriod(ctx, val);
    this.incrementReferenceCount(ctx, valAddr, newPeriod);
    this.state.SlashEvents.set(ctx, [valAddr, BigInt(ctx.block.height), newPeriod], { validator_period: newPeriod, fraction: fraction.atomics() });
  }

  /** `IterateValidatorSlashEventsBetween`: heights in [startingHeight, endingHeight], in key order. */
  slashEventsBetween(ctx: Context, valAddr: Uint8Array, startingHeight: bigint, endingHeight: bigint): { height: bigint; period: bigint; fraction: Dec }[] {
    const out: { height: bigint; period: bigint; fraction: Dec }[] = [];
    const it = this.state.SlashEvents.iterate(ctx, { start: [valAddr, startingHeight], end: [valAddr, endingHeight + 1n] });
    for (const { key, value } of it) out.push({ height: key[1], period: value.validator_period, fraction: decOf(value.fraction) });
    return out;
  }

  // ---- delegation.go ----

  /** `initializeDelegation`: +1 reference on the previous period, a new starting info at the current height. */
  initializeDelegation(ctx: Context, valAddr: Uint8Array, delAddr: Uint8Array): void {
    const previousPeriod = this.getCurrentRewards(ctx, valAddr).period - 1n;
    this.incrementReferenceCount(ctx, valAddr, previousPeriod);
    const val = this.mustValidator(ctx, valAddr);
    const del = this.sk.getDelegation(ctx, delAddr, valAddr);
    if (!del) throw new Error(`distribution: no delegation of ${this.accCodec.encode(delAddr)} to ${this.valCodec.encode(valAddr)}`);
    const stake = tokensFromSharesTruncated(val, decOf(del.shares));
    this.state.StartingInfos.set(ctx, [valAddr, delAddr], { previous_period: previousPeriod, stake: stake.atomics(), height: BigInt(ctx.block.height) });
  }

  /** `calculateDelegationRewardsBetween`. */
  calculateDelegationRewardsBetween(ctx: Context, valAddr: Uint8Array, startingPeriod: bigint, endingPeriod: bigint, stake: Dec): DecCoins {
    if (startingPeriod > endingPeriod) throw new Error('startingPeriod cannot be greater than endingPeriod');
    if (stake.isNegative()) throw new Error('stake should not be negative');
    const starting = dc(this.getHistoricalRewards(ctx, valAddr, startingPeriod).cumulative_reward_ratio);
    const ending = dc(this.getHistoricalRewards(ctx, valAddr, endingPeriod).cumulative_reward_ratio);
    const [difference, negative] = ending.safeSub(starting);
    if (negative) throw new Error('negative rewards should not be possible');
    return difference.mulDecTruncate(stake);
  }

  /** `CalculateDelegationRewards`: the rewards of a delegation up to `endingPeriod`, slash events applied. */
  calculateDelegationRewards(ctx: Context, val: Validator, del: Delegation, endingPeriod: bigint): DecCoins {
    const valAddr = this.operatorOf(val);
    const delAddr = this.accCodec.decode(del.delegator_address);
    const info = this.getStartingInfo(ctx, valAddr, delAddr) ?? { previous_period: 0n, stake: '', height: 0n };
    const height = BigInt(ctx.block.height);
    let rewards = DecCoins.empty();
    if (info.height === height) return rewards;
    let startingPeriod = info.previous_period;
    let stake = decOf(info.stake);
    if (height > info.height) {
      for (const ev of this.slashEventsBetween(ctx, valAddr, info.height, height)) {
        if (ev.period > startingPeriod) {
          rewards = rewards.add(this.calculateDelegationRewardsBetween(ctx, valAddr, startingPeriod, ev.period, stake));
          stake = stake.mulTruncate(Dec.one().sub(ev.fraction));
          startingPeriod = ev.period;
        }
      }
    }
    const currentStake = tokensFromShares(val, decOf(del.shares));
    if (stake.gt(currentStake)) {
      const marginOfErr = Dec.smallest().mulInt(3);
      if (stake.lte(currentStake.add(marginOfErr))) stake = currentStake;
      else {
        throw new Error(
          `calculated final stake for delegator ${del.delegator_address} greater than current stake\n\tfinal stake:\t${stake.toString()}\n\tcurrent stake:\t${currentStake.toString()}`,
        );
      }
    }
    return rewards.add(this.calculateDelegationRewardsBetween(ctx, valAddr, startingPeriod, endingPeriod, stake));
  }

  /**
   * `withdrawDelegationRewards`: closes the period, pays the integer part of min(rewards, outstanding) to the
   * withdraw address, the dust to the community pool, and drops the starting info (no event, no re-init).
   */
  withdrawDelegationRewardsInternal(ctx: Context, val: Validator, del: Delegation): Coin[] {
    const valAddr = this.operatorOf(val);
    const delAddr = this.accCodec.decode(del.delegator_address);
    if (!this.state.StartingInfos.has(ctx, [valAddr, delAddr])) throw DistributionErrors.EmptyDelegationDistInfo.error();
    const endingPeriod = this.incrementValidatorPeriod(ctx, val);
    const rewardsRaw = this.calculateDelegationRewards(ctx, val, del, endingPeriod);
    const outstanding = this.getOutstandingRewards(ctx, valAddr);
    // defensive: never pay more than the validator's outstanding rewards
    const rewards = rewardsRaw.intersect(outstanding);
    const [finalRewards, remainder] = rewards.truncateDecimal();
    if (finalRewards.length > 0) {
      this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.getDelegatorWithdrawAddr(ctx, delAddr), finalRewards);
    }
    this.setOutstandingRewards(ctx, valAddr, outstanding.sub(rewards));
    this.setFeePoolCommunityCoins(ctx, this.getFeePoolCommunityCoins(ctx).add(remainder));
    const startingPeriod = this.getStartingInfo(ctx, valAddr, delAddr)!.previous_period;
    this.decrementReferenceCount(ctx, valAddr, startingPeriod);
    this.state.StartingInfos.remove(ctx, [valAddr, delAddr]);
    return finalRewards;
  }

  // ---- keeper.go ----

  /** `SetWithdrawAddr`: blocked address `sdk` 4, disabled `distribution` 8; event `set_withdraw_address`. */
  setWithdrawAddr(ctx: Context, delAddr: Uint8Array, withdrawAddr: Uint8Array): void {
    const w = this.accCodec.encode(withdrawAddr);
    if (this.bk.isBlockedAddress(w)) throw Errors.Unauthorized.wrap(`${w} is not allowed to receive external funds`);
    if (!this.getParams(ctx).withdrawAddrEnabled) throw DistributionErrors.SetWithdrawAddrDisabled.error();
    emit(ctx, setWithdrawAddressEvent(w));
    this.setDelegatorWithdrawAddr(ctx, delAddr, withdrawAddr);
  }

  /** `WithdrawDelegationRewards`: `distribution` 6 / 5, then the withdrawal, `withdraw_rewards`, re-initialization. */
  withdrawDelegationRewards(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Coin[] {
    const val = this.sk.getValidator(ctx, valAddr);
    if (!val) throw DistributionErrors.NoValidatorDistInfo.error();
    const del = this.sk.getDelegation(ctx, delAddr, valAddr);
    if (!del) throw DistributionErrors.EmptyDelegationDistInfo.error();
    const rewards = this.withdrawDelegationRewardsInternal(ctx, val, del);
    emit(ctx, withdrawRewardsEvent(coinsToString(rewards), this.valCodec.encode(valAddr)));
    this.initializeDelegation(ctx, valAddr, delAddr);
    return rewards;
  }

  /** `WithdrawValidatorCommission`: `distribution` 7 when zero; the integer part to the operator's withdraw address. */
  withdrawValidatorCommission(ctx: Context, valAddr: Uint8Array): Coin[] {
    const accum = this.getAccumulatedCommission(ctx, valAddr);
    if (accum.isZero()) throw DistributionErrors.NoValidatorCommission.error();
    const [commission, remainder] = accum.truncateDecimal();
    this.setAccumulatedCommission(ctx, valAddr, remainder);
    const outstanding = this.getOutstandingRewards(ctx, valAddr);
    this.setOutstandingRewards(ctx, valAddr, outstanding.sub(DecCoins.fromCoins(commission)));
    if (commission.length > 0) {
      this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.getDelegatorWithdrawAddr(ctx, valAddr), commission);
    }
    emit(ctx, withdrawCommissionEvent(coinsToString(commission)));
    return commission;
  }

  /** `FundCommunityPool`: depositor → distribution module account, community pool += amount. */
  fundCommunityPool(ctx: Context, amount: Coin[], sender: Uint8Array): void {
    this.bk.sendCoinsFromAccountToModule(ctx, sender, MODULE_NAME, amount);
    this.setFeePoolCommunityCoins(ctx, this.getFeePoolCommunityCoins(ctx).add(DecCoins.fromCoins(amount)));
  }

  /** `DistributeFromFeePool`: `distribution` 9 when the pool is short; pool −= amount, coins to the recipient. */
  distributeFromFeePool(ctx: Context, amount: Coin[], recipient: Uint8Array): void {
    const [newPool, negative] = this.getFeePoolCommunityCoins(ctx).safeSub(DecCoins.fromCoins(amount));
    if (negative) throw DistributionErrors.BadDistribution.error();
    this.setFeePoolCommunityCoins(ctx, newPool);
    this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, recipient, amount);
  }

  // ---- hooks.go ----

  /** `AfterValidatorRemoved`: commission paid out, the rest of outstanding to the community pool, state deleted. */
  afterValidatorRemoved(ctx: Context, valAddr: Uint8Array): void {
    let outstanding = this.getOutstandingRewards(ctx, valAddr);
    const commission = this.getAccumulatedCommission(ctx, valAddr);
    if (!commission.isZero()) {
      outstanding = outstanding.sub(commission);
      const [coins, remainder] = commission.truncateDecimal();
      this.setFeePoolCommunityCoins(ctx, this.getFeePoolCommunityCoins(ctx).add(remainder));
      if (coins.length > 0) this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.getDelegatorWithdrawAddr(ctx, valAddr), coins);
    }
    this.setFeePoolCommunityCoins(ctx, this.getFeePoolCommunityCoins(ctx).add(outstanding));
    this.state.OutstandingRewards.remove(ctx, valAddr);
    this.state.AccumulatedCommission.remove(ctx, valAddr);
    this.state.SlashEvents.clear(ctx, { prefix: [valAddr] });
    this.state.HistoricalRewards.clear(ctx, { prefix: [valAddr] });
    this.state.CurrentRewards.remove(ctx, valAddr);
  }

  // ---- allocation.go ----

  /** `AllocateTokensToValidator`: commission (banker's rounding) and shared rewards; `commission`, `rewards` events. */
  allocateTokensToValidator(ctx: Context, val: Validator, tokens: DecCoins): void {
    const op = this.operatorOf(val);
    const commission = tokens.mulDec(validatorCommissionRate(val));
    const shared = tokens.sub(commission);
    emit(ctx, commissionEvent(commission.toString(), val.operator_address));
    this.setAccumulatedCommission(ctx, op, this.getAccumulatedCommission(ctx, op).add(commission));
    const cur = this.getCurrentRewards(ctx, op);
    this.setCurrentRewards(ctx, op, cur.rewards.add(shared), cur.period);
    emit(ctx, rewardsEvent(tokens.toString(), val.operator_address));
    this.setOutstandingRewards(ctx, op, this.getOutstandingRewards(ctx, op).add(tokens));
  }

  /** `AllocateTokens`: the fee collector's balance to the previous proposer, the voters by power, and the community pool. */
  allocateTokens(ctx: Context, sumPreviousPrecommitPower: bigint, totalPreviousPower: bigint, previousProposer: Uint8Array, votes: readonly { validator: { address: Uint8Array; power: bigint } }[]): void {
    const feeCollector = this.ak.ensureModuleAccount(ctx, this.feeCollectorName);
    const feesCollectedInt = this.bk.getAllBalances(ctx, feeCollector);
    const feesCollected = DecCoins.fromCoins(feesCollectedInt);
    // as the SDK, also when there is nothing to send
    this.bk.sendCoinsFromModuleToModule(ctx, this.feeCollectorName, MODULE_NAME, feesCollectedInt);
    let pool = this.getFeePoolCommunityCoins(ctx);
    if (totalPreviousPower === 0n) {
      this.setFeePoolCommunityCoins(ctx, pool.add(feesCollected));
      return;
    }
    const params = this.getParams(ctx);
    const previousFractionVotes = Dec.fromInt(sumPreviousPrecommitPower).quo(Dec.fromInt(totalPreviousPower));
    const proposerMultiplier = params.baseProposerReward.add(params.bonusProposerReward.mulTruncate(previousFractionVotes));
    const proposerReward = feesCollected.mulDecTruncate(proposerMultiplier);
    let remaining = feesCollected;
    const proposer = previousProposer.length > 0 ? this.sk.getValidatorByConsAddr(ctx, previousProposer) : undefined;
    if (proposer) {
      emit(ctx, proposerRewardEvent(proposerReward.toString(), proposer.operator_address));
      this.allocateTokensToValidator(ctx, proposer, proposerReward);
      remaining = remaining.sub(proposerReward);
    }
    // else: the SDK logs `WARNING: Attempt to allocate proposer rewards to unknown proposer`; the share stays in remaining
    const voteMultiplier = Dec.one().sub(proposerMultiplier).sub(params.communityTax);
    for (const vote of votes) {
      const validator = this.sk.getValidatorByConsAddr(ctx, vote.validator.address);
      if (!validator) throw new Error(`distribution: no validator with consensus address ${this.consCodec.encode(vote.validator.address)}`);
      const powerFraction = Dec.fromInt(vote.validator.power).quoTruncate(Dec.fromInt(totalPreviousPower));
      const reward = feesCollected.mulDecTruncate(voteMultiplier).mulDecTruncate(powerFraction);
      this.allocateTokensToValidator(ctx, validator, reward);
      remaining = remaining.sub(reward);
    }
    pool = this.getFeePoolCommunityCoins(ctx);
    this.setFeePoolCommunityCoins(ctx, pool.add(remaining));
  }

  // ---- proposal_handler.go ----

  /**
   * `HandleCommunityPoolSpendProposal` (gov calls it for `CommunityPoolSpendProposal` content): blocked
   * recipient `sdk` 4, bad bech32 the decode error, short pool `distribution` 9.
   */
  handleCommunityPoolSpendProposal(ctx: Context, p: CommunityPoolSpendProposal): void {
    if (this.bk.isBlockedAddress(p.recipient)) throw Errors.Unauthorized.wrap(`${p.recipient} is not allowed to receive external funds`);
    const recipient = this.accCodec.decode(p.recipient);
    this.distributeFromFeePool(ctx, p.amount, recipient);
  }
}
