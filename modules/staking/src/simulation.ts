/**
 * staking in a randomized simulation (x/staking/simulation/operations.go of SDK v0.45): create validator,
 * edit validator, delegate, undelegate and redelegate, with random valid inputs read from the keeper's state
 * as the block has it so far, and deliberately invalid ones, each with the exact error the SDK gives it
 * (validator already exists, consensus key in use, self-delegation below the minimum, commission above the
 * max rate, changed twice within 24h or by more than the max change rate, minimum self-delegation
 * decreased, unknown validator, no delegation, more than the delegation, redelegation to the same
 * validator, transitive redelegation, too many entries, wrong denom, insufficient funds); and the four
 * invariants of src/invariants.ts.
 *
 * The expected outcomes are this file's reading of the SDK's rules (msg_server.go, keeper/delegation.go),
 * written apart from the message server: where they disagree, the simulation fails.
 */
import type { Coin, Context } from '@chain/app';
import { Errors } from '@chain/errors';
import { Dec } from '@chain/math';
import { fails, minCoins, noop, ok, positiveAmount, randomFees, subCoins, amountOfDenom } from '@chain/simulation';
import type { Expectation, OperationInput, OperationResult, Rand, SimAccount, SimMsg, SimulationModule, WeightedOperation } from '@chain/simulation';
import { StakingErrors } from './errors.js';
import type { Delegation, Description, Validator } from './gen/chain/staking/v1beta1.js';
import { STAKING_INVARIANTS } from './invariants.js';
import type { StakingKeeper } from './keeper.js';
import { DO_NOT_MODIFY_DESC } from './msg-server.js';
import { decOf, invalidExRate, ratesOf, removeDelShares, sharesFromTokens, sharesFromTokensTruncated, tokensFromSharesTruncated, tokensOf } from './shares.js';
import { dateTs, tsNanos } from './time.js';

export interface StakingSimulationOptions {
  readonly weights?: {
    readonly createValidator?: number;
    readonly editValidator?: number;
    readonly delegate?: number;
    readonly undelegate?: number;
    readonly redelegate?: number;
  };
}

const T = 'chain.staking.v1beta1.';
const DAY_NS = 24n * 3600n * 1_000_000_000n;

/** A random Dec in [min, max]: mostly on a 0.01 grid, sometimes with all 18 decimals. */
function randomDec(rand: Rand, min: Dec, max: Dec): Dec {
  if (max.lt(min)) throw new Error('randomDec: empty range');
  const lo = BigInt(min.atomics());
  const hi = BigInt(max.atomics());
  if (rand.bool(0.8)) {
    const step = 10n ** 16n;
    const a = (lo + step - 1n) / step;
    const b = hi / step;
    if (a <= b) return Dec.fromAtomics(rand.bigint(a, b) * step);
  }
  return Dec.fromAtomics(rand.bigint(lo, hi));
}

function randomDescription(rand: Rand): Description {
  return {
    moniker: rand.string(1, 16),
    identity: rand.bool(0.3) ? rand.string(0, 16) : '',
    website: rand.bool(0.3) ? `https://${rand.string(3, 10)}.example` : '',
    security_contact: rand.bool(0.2) ? `${rand.string(3, 8)}@example.com` : '',
    details: rand.bool(0.3) ? rand.string(0, 40) : '',
  };
}

const KEEP_DESCRIPTION: Description = {
  moniker: DO_NOT_MODIFY_DESC, identity: DO_NOT_MODIFY_DESC, website: DO_NOT_MODIFY_DESC, security_contact: DO_NOT_MODIFY_DESC, details: DO_NOT_MODIFY_DESC,
};

/** staking's operations and invariants for `runSimulation`. */
export function stakingSimulation(k: StakingKeeper, o: StakingSimulationOptions = {}): SimulationModule {
  const valAddrOf = (v: Validator): Uint8Array => k.valCodec.decode(v.operator_address);
  const validators = (ctx: Context): Validator[] => [...k.iterateValidators(ctx)];
  const coin = (ctx: Context, amount: bigint): Coin => ({ denom: k.bondDenom(ctx), amount: amount.toString() });
  const msg = (type: string, value: object): SimMsg[] => [{ type: T + type, value: value as SimMsg['value'] }];

  /** the fee the signer pays (from what CheckTx also sees) and the bond-denom tokens it can still spend */
  const wallet = (input: OperationInput, signer: SimAccount): { fee: Coin[]; bondable: bigint } => {
    const balances = k.bk.getAllBalances(input.ctx, signer.addr);
    const fee = randomFees(input.rand, minCoins(k.bk.getAllBalances(input.committed, signer.addr), balances));
    return { fee, bondable: amountOfDenom(subCoins(balances, fee), k.bondDenom(input.ctx)) };
  };

  /** `ValidateUnbondAmount` as the SDK words it: the shares `amount` tokens are, or undefined when more than the delegation */
  const unbondShares = (v: Validator, d: Delegation, amount: bigint): Dec | undefined => {
    if (tokensOf(v) === 0n) return undefined;
    const delShares = decOf(d.shares);
    if (sharesFromTokensTruncated(v, amount).gt(delShares)) return undefined;
    const shares = sharesFromTokens(v, amount);
    return shares.gt(delShares) ? delShares : shares;
  };

  /** the largest token amount a delegation can unbond */
  const maxUnbondable = (v: Validator, d: Delegation): bigint => (tokensOf(v) === 0n ? 0n : tokensFromSharesTruncated(v, decOf(d.shares)).truncateInt());

  /** the available signers' delegations */
  const delegationsOfAvailable = (input: OperationInput): { signer: SimAccount; d: Delegation; v: Validator }[] => {
    const out: { signer: SimAccount; d: Delegation; v: Validator }[] = [];
    for (const d of k.getAllDelegations(input.ctx)) {
      const signer = input.availableByAddr(k.accCodec.decode(d.delegator_address));
      if (!signer) continue;
      const v = k.getValidator(input.ctx, k.valCodec.decode(d.validator_address));
      if (v) out.push({ signer, d, v });
    }
    return out;
  };

  const unknownValidator = (input: OperationInput): string => k.valCodec.encode(input.rand.bytes(20));

  // ---- MsgCreateValidator ----

  const createValidator = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const operators = input.available.filter((a) => k.getValidator(ctx, a.addr));
    const fresh = input.available.filter((a) => !k.getValidator(ctx, a.addr));
    const r = rand.float();
    let signer: SimAccount;
    let consPub: Uint8Array;
    let expect: Expectation = ok();
    let label = 'ok';
    if (r < 0.08 && operators.length > 0) {
      signer = rand.pick(operators);
      consPub = signer.consPub;
      expect = fails(StakingErrors.ValidatorOwnerExists);
      label = 'validator already exists';
    } else if (r < 0.14 && fresh.length > 0 && validators(ctx).length > 0) {
      signer = rand.pick(fresh);
      consPub = k.consPubKey(rand.pick(validators(ctx)));
      expect = fails(StakingErrors.ValidatorPubKeyExists);
      label = 'consensus key in use';
    } else {
      if (fresh.length === 0) return noop('every available account is a validator');
      signer = rand.pick(fresh);
      consPub = signer.consPub;
      // the account's key may still belong to another validator (never here: one key per account)
      if (k.getValidatorByConsAddr(ctx, signer.consAddr)) return noop('consensus key in use');
    }
    const { fee, bondable } = wallet(input, signer);
    if (bondable < 1n) return noop('nothing to bond');
    // mostly enough for some consensus power, now and then less (a validator that never bonds)
    const unit = k.powerReduction;
    const value = rand.bool(0.9) && bondable >= unit ? rand.bigint(unit, bondable > 50n * unit ? bondable / BigInt(rand.int(1, 20)) : bondable) : positiveAmount(rand, bondable);
    let minSelf = rand.bool(0.5) ? 1n : rand.bigint(1n, value);
    const maxRate = randomDec(rand, Dec.zero(), Dec.one());
    let rate = randomDec(rand, Dec.zero(), maxRate);
    const maxChangeRate = randomDec(rand, Dec.zero(), maxRate);
    let amount = coin(ctx, value);
    if (expect.ok) {
      const c = rand.float();
      if (c < 0.06) {
        minSelf = value + rand.bigint(1n, 10n ** 18n);
        expect = fails(StakingErrors.SelfDelegationBelowMinimum);
        label = 'self-delegation below the minimum';
      } else if (c < 0.12 && maxRate.lt(Dec.one())) {
        rate = randomDec(rand, maxRate.add(Dec.smallest()), Dec.one());
        expect = fails(StakingErrors.CommissionGTMaxRate);
        label = 'rate above the max rate';
      } else if (c < 0.16) {
        amount = { denom: 'wrongdenom', amount: value.toString() };
        expect = fails(Errors.InvalidRequest, 'invalid coin denomination');
        label = 'wrong denom';
      } else if (c < 0.22) {
        const v = amountOfDenom(k.bk.getAllBalances(ctx, signer.addr), k.bondDenom(ctx)) + rand.bigint(1n, 10n ** 20n);
        amount = coin(ctx, v);
        minSelf = 1n;
        expect = fails(Errors.InsufficientFunds);
        label = 'insufficient funds';
      }
    }
    const pubkey = k.registry.packAny('chain.crypto.ed25519.PubKey', { key: consPub }, rand.bool(0.5) ? '/cosmos.crypto.ed25519.PubKey' : '/chain.crypto.ed25519.PubKey');
    return {
      msgs: msg('MsgCreateValidator', {
        description: randomDescription(rand),
        commission: { rate: rate.atomics(), max_rate: maxRate.atomics(), max_change_rate: maxChangeRate.atomics() },
        min_self_delegation: minSelf.toString(),
        delegator_address: signer.address,
        validator_address: k.valCodec.encode(signer.addr),
        pubkey,
        value: amount,
      }),
      signer,
      fee,
      expect,
      label,
    };
  };

  // ---- MsgEditValidator ----

  const editValidator = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const own = validators(ctx).filter((v) => input.availableByAddr(valAddrOf(v)));
    const r = rand.float();
    if (r < 0.08) {
      const stranger = input.available.filter((a) => !k.getValidator(ctx, a.addr));
      if (stranger.length === 0) return noop('no account without a validator');
      const signer = rand.pick(stranger);
      return {
        msgs: msg('MsgEditValidator', { description: randomDescription(rand), validator_address: k.valCodec.encode(signer.addr), commission_rate: '', min_self_delegation: '' }),
        signer, expect: fails(StakingErrors.NoValidatorFound), label: 'unknown validator',
      };
    }
    if (own.length === 0) return noop('no available operator');
    const v = rand.pick(own);
    const signer = input.availableByAddr(valAddrOf(v))!;
    const description = rand.bool(0.5) ? randomDescription(rand) : KEEP_DESCRIPTION;
    const edit = (commissionRate: string, minSelf: string) =>
      msg('MsgEditValidator', { description, validator_address: v.operator_address, commission_rate: commissionRate, min_self_delegation: minSelf });
    const rates = ratesOf(v.commission?.commission_rates ?? null);
    const elapsed = tsNanos(dateTs(ctx.block.time)) - tsNanos(v.commission?.update_time ?? null);
    const canChange = elapsed >= DAY_NS;
    const oldMin = BigInt(v.min_self_delegation || '0');
    const tokens = tokensOf(v);
    if (r < 0.45) {
      // a commission change: at most once per 24h, at most the max rate, up by at most the max change rate
      const newRate = randomDec(rand, Dec.zero(), Dec.one());
      let expect: Expectation;
      let label: string;
      if (!canChange) [expect, label] = [fails(StakingErrors.CommissionUpdateTime), 'commission changed within 24h'];
      else if (newRate.gt(rates.maxRate)) [expect, label] = [fails(StakingErrors.CommissionGTMaxRate), 'rate above the max rate'];
      else if (newRate.sub(rates.rate).gt(rates.maxChangeRate)) [expect, label] = [fails(StakingErrors.CommissionGTMaxChangeRate), 'rate change above the max change rate'];
      else [expect, label] = [ok(), 'commission changed'];
      // half the time, aim at the valid range
      if (canChange && !expect.ok && rand.bool(0.5)) {
        const hi = Dec.min(rates.maxRate, rates.rate.add(rates.maxChangeRate));
        return { msgs: edit(randomDec(rand, Dec.zero(), hi).atomics(), ''), signer, expect: ok(), label: 'commission changed' };
      }
      return { msgs: edit(newRate.atomics(), ''), signer, expect, label };
    }
    if (r < 0.7) {
      // a new minimum self-delegation: must increase, and not above the validator's tokens
      if (rand.bool(0.3) || tokens <= oldMin) {
        const lower = rand.bigint(1n, oldMin > 0n ? oldMin : 1n);
        return { msgs: edit('', lower.toString()), signer, expect: fails(StakingErrors.MinSelfDelegationDecreased), label: 'min self-delegation decreased' };
      }
      if (rand.bool(0.2)) {
        return { msgs: edit('', (tokens + rand.bigint(1n, 10n ** 18n)).toString()), signer, expect: fails(StakingErrors.SelfDelegationBelowMinimum), label: 'min self-delegation above the tokens' };
      }
      // mostly a small increase, so the operator can keep its self-delegation above it
      const cap = oldMin + (tokens - oldMin) / 10n > oldMin ? oldMin + (tokens - oldMin) / 10n : tokens;
      return { msgs: edit('', rand.bigint(oldMin + 1n, cap).toString()), signer, expect: ok(), label: 'min self-delegation raised' };
    }
    return { msgs: edit('', ''), signer, expect: ok(), label: description === KEEP_DESCRIPTION ? 'nothing changed' : 'description' };
  };

  // ---- MsgDelegate ----

  const delegate = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const signer = rand.pick(input.available);
    const { fee, bondable } = wallet(input, signer);
    const vals = validators(ctx);
    const del = (validator: string, amount: Coin) => msg('MsgDelegate', { delegator_address: signer.address, validator_address: validator, amount });
    const r = rand.float();
    if (r < 0.06 || vals.length === 0) {
      return { msgs: del(unknownValidator(input), coin(ctx, 1n)), signer, expect: fails(StakingErrors.NoValidatorFound), label: 'unknown validator' };
    }
    const v = rand.pick(vals);
    if (r < 0.1) {
      return { msgs: del(v.operator_address, { denom: 'wrongdenom', amount: '1' }), signer, expect: fails(Errors.InvalidRequest, 'invalid coin denomination'), label: 'wrong denom' };
    }
    if (r < 0.16) {
      // more than the whole supply: the balance grows by the delegation's rewards, withdrawn before the transfer
      const amount = k.stakingTokenSupply(ctx) + rand.bigint(1n, 10n ** 20n);
      const expect = invalidExRate(v) ? fails(StakingErrors.DelegatorShareExRateInvalid) : fails(Errors.InsufficientFunds);
      return { msgs: del(v.operator_address, coin(ctx, amount)), signer, expect, label: 'insufficient funds' };
    }
    if (bondable < 1n) return noop('nothing to delegate');
    const amount = positiveAmount(rand, bondable > 4n ? bondable / BigInt(rand.int(1, 4)) : bondable);
    if (invalidExRate(v)) return { msgs: del(v.operator_address, coin(ctx, amount)), signer, expect: fails(StakingErrors.DelegatorShareExRateInvalid), label: 'validator without tokens' };
    return { msgs: del(v.operator_address, coin(ctx, amount)), signer, fee, expect: ok(), label: v.jailed ? 'to a jailed validator' : 'ok' };
  };

  // ---- MsgUndelegate ----

  const undelegate = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const und = (signer: SimAccount, validator: string, amount: bigint) =>
      msg('MsgUndelegate', { delegator_address: signer.address, validator_address: validator, amount: coin(ctx, amount) });
    const r = rand.float();
    if (r < 0.05) {
      const signer = rand.pick(input.available);
      return { msgs: und(signer, unknownValidator(input), 1n), signer, expect: fails(StakingErrors.NoValidatorFound), label: 'unknown validator' };
    }
    if (r < 0.1) {
      const signer = rand.pick(input.available);
      const none = validators(ctx).filter((v) => !k.getDelegation(ctx, signer.addr, valAddrOf(v)));
      if (none.length === 0) return noop('delegates to every validator');
      return { msgs: und(signer, rand.pick(none).operator_address, 1n), signer, expect: fails(StakingErrors.NoDelegation), label: 'no delegation' };
    }
    const all = delegationsOfAvailable(input);
    // now and then a pair that is unbonding already (to reach the max entries), or the last delegation of
    // a validator (which is then removed once unbonded)
    const unbonding = all.filter(({ signer, v }) => k.getUnbondingDelegation(ctx, signer.addr, valAddrOf(v)));
    const last = all.filter(({ d }) => decOf(d.shares).equal(decOf(k.getValidator(ctx, k.valCodec.decode(d.validator_address))!.delegator_shares)));
    const pick = rand.float();
    const dels = unbonding.length > 0 && pick < 0.3 ? unbonding : last.length > 0 && pick < 0.5 ? last : all;
    if (dels.length === 0) return noop('no delegation of an available account');
    const { signer, d, v } = rand.pick(dels);
    const max = maxUnbondable(v, d);
    const { fee } = wallet(input, signer);
    if (r < 0.18) {
      const amount = max + rand.bigint(1n, max > 0n ? max : 10n ** 18n);
      if (tokensOf(v) > 0n && unbondShares(v, d, amount) === undefined) {
        return { msgs: und(signer, v.operator_address, amount), signer, expect: fails(Errors.InvalidRequest, 'invalid shares amount'), label: 'more than the delegation' };
      }
      return noop('could not exceed the delegation');
    }
    if (max < 1n) return noop('nothing to unbond');
    const amount = rand.bool(dels === last ? 0.7 : 0.1) ? max : positiveAmount(rand, max);
    const shares = unbondShares(v, d, amount);
    if (!shares) return noop('rounding: amount not unbondable');
    const ubd = k.getUnbondingDelegation(ctx, signer.addr, valAddrOf(v));
    if (ubd && ubd.entries.length >= k.maxEntries(ctx)) {
      return { msgs: und(signer, v.operator_address, amount), signer, expect: fails(StakingErrors.MaxUnbondingDelegationEntries), label: 'too many unbonding entries' };
    }
    return { msgs: und(signer, v.operator_address, amount), signer, fee, expect: ok(), label: amount === max ? 'all' : 'ok' };
  };

  // ---- MsgBeginRedelegate ----

  const redelegate = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const all = delegationsOfAvailable(input);
    // now and then a delegation already redelegating (to reach the max entries)
    const redelegating = all.filter(({ signer, v }) => k.getRedelegationsFromSrcValidator(ctx, valAddrOf(v)).some((r) => r.delegator_address === signer.address));
    const dels = redelegating.length > 0 && rand.bool(0.4) ? redelegating : all;
    if (dels.length === 0) return noop('no delegation of an available account');
    const { signer, d, v: src } = rand.pick(dels);
    const srcAddr = valAddrOf(src);
    const max = maxUnbondable(src, d);
    if (max < 1n) return noop('nothing to redelegate');
    // mostly a random amount, sometimes a few base units (which may truncate to zero tokens)
    const amount = rand.bool(0.05) ? rand.bigint(1n, max < 3n ? max : 3n) : positiveAmount(rand, max);
    const shares = unbondShares(src, d, amount);
    if (!shares) return noop('rounding: amount not unbondable');
    const others = validators(ctx).filter((v) => v.operator_address !== src.operator_address);
    const red = (dst: string) =>
      msg('MsgBeginRedelegate', { delegator_address: signer.address, validator_src_address: src.operator_address, validator_dst_address: dst, amount: coin(ctx, amount) });
    const r = rand.float();
    if (r < 0.07) return { msgs: red(src.operator_address), signer, expect: fails(StakingErrors.SelfRedelegation), label: 'to the same validator' };
    if (r < 0.12) return { msgs: red(unknownValidator(input)), signer, expect: fails(StakingErrors.BadRedelegationDst), label: 'unknown destination' };
    if (others.length === 0) return noop('no other validator');
    // now and then a destination already redelegated to (to reach the max entries)
    const again = others.filter((v) => k.getRedelegation(ctx, signer.addr, srcAddr, valAddrOf(v)));
    const dst = again.length > 0 && rand.bool(0.7) ? rand.pick(again) : rand.pick(others);
    const dstAddr = valAddrOf(dst);
    // the SDK's checks in order (keeper.BeginRedelegation)
    let expect: Expectation;
    let label: string;
    if (k.hasReceivingRedelegation(ctx, signer.addr, srcAddr)) [expect, label] = [fails(StakingErrors.TransitiveRedelegation), 'transitive redelegation'];
    else if ((k.getRedelegation(ctx, signer.addr, srcAddr, dstAddr)?.entries.length ?? 0) >= k.maxEntries(ctx)) [expect, label] = [fails(StakingErrors.MaxRedelegationEntries), 'too many redelegation entries'];
    else if (removeDelShares(src, shares)[1] === 0n) [expect, label] = [fails(StakingErrors.TinyRedelegationAmount), 'truncates to zero tokens'];
    else if (invalidExRate(dst)) [expect, label] = [fails(StakingErrors.DelegatorShareExRateInvalid), 'destination without tokens'];
    else [expect, label] = [ok(), decOf(d.shares).equal(shares) ? 'the whole delegation' : 'ok'];
    const { fee } = wallet(input, signer);
    return { msgs: red(dst.operator_address), signer, fee, expect, label };
  };

  const w = o.weights ?? {};
  const operations: WeightedOperation[] = [
    { name: 'staking/create-validator', weight: w.createValidator ?? 12, op: createValidator },
    { name: 'staking/edit-validator', weight: w.editValidator ?? 10, op: editValidator },
    { name: 'staking/delegate', weight: w.delegate ?? 40, op: delegate },
    { name: 'staking/undelegate', weight: w.undelegate ?? 30, op: undelegate },
    { name: 'staking/redelegate', weight: w.redelegate ?? 30, op: redelegate },
  ];
  return {
    name: 'staking',
    operations,
    invariants: Object.entries(STAKING_INVARIANTS).map(([route, f]) => ({ name: `staking/${route}`, check: (ctx: Context) => f(k, ctx) })),
  };
}
