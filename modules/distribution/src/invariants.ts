/**
 * The invariants of distribution (x/distribution/keeper/invariants.go of SDK v0.45), as functions a crisis
 * module can register under `distribution/<route>`. Each returns the SDK's `FormatInvariant` message and
 * whether it is broken; none writes state (can-withdraw works on a branch).
 */
import type { Context } from '@chain/app';
import { DecCoins } from '@chain/math';
import { branch } from '@chain/store';
import type { DistributionKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

export interface InvariantResult {
  readonly message: string;
  readonly broken: boolean;
}

export type Invariant = (ctx: Context) => InvariantResult;

const format = (name: string, msg: string): string => `${MODULE_NAME}: ${name} invariant\n${msg}\n`;

/** `nonnegative-outstanding`: no validator has a negative outstanding coin. */
export function nonNegativeOutstandingInvariant(k: DistributionKeeper): Invariant {
  return (ctx) => {
    let msg = '';
    let count = 0;
    for (const { key, value } of k.state.OutstandingRewards.iterate(ctx)) {
      const o = DecCoins.fromProto(value.rewards);
      if (o.isAnyNegative()) {
        count++;
        msg += `\t${k.valCodec.encode(key)} has negative outstanding coins: ${o.toString()}\n`;
      }
    }
    return { message: format('nonnegative outstanding', `found ${count} validators with negative outstanding rewards\n${msg}`), broken: count !== 0 };
  };
}

/** `can-withdraw`: on a branch, every commission and every delegation's rewards withdrawn leave no negative outstanding. */
export function canWithdrawInvariant(k: DistributionKeeper): Invariant {
  return (ctx0) => {
    const ctx = ctx0.withStore(branch(ctx0.ms));
    const validators = [...k.sk.iterateValidators(ctx)];
    for (const v of validators) {
      try {
        k.withdrawValidatorCommission(ctx, k.operatorOf(v));
      } catch {
        // no commission: skipped, as the SDK ignores the error
      }
    }
    let remaining = DecCoins.empty();
    for (const v of validators) {
      const op = k.operatorOf(v);
      for (const del of k.sk.getValidatorDelegations(ctx, op)) {
        k.withdrawDelegationRewardsInternal(ctx, v, del);
      }
      remaining = k.getOutstandingRewards(ctx, op);
      if (remaining.length > 0 && remaining.coins[0]!.amount.isNegative()) {
        return { message: format('can withdraw', `remaining coins: ${remaining.toString()}`), broken: true };
      }
    }
    return { message: format('can withdraw', `remaining coins: ${remaining.toString()}`), broken: false };
  };
}

/** `reference-count`: Σ historical reference counts == #validators + #delegations + #slash events. */
export function referenceCountInvariant(k: DistributionKeeper): Invariant {
  return (ctx) => {
    let valCount = 0;
    for (const _ of k.sk.iterateValidators(ctx)) valCount++;
    let delCount = 0;
    for (const _ of k.sk.getAllDelegations(ctx)) delCount++;
    let slashCount = 0;
    for (const _ of k.state.SlashEvents.keys(ctx)) slashCount++;
    const expected = valCount + delCount + slashCount;
    let count = 0;
    for (const h of k.state.HistoricalRewards.values(ctx)) count += h.reference_count;
    const broken = count !== expected;
    return {
      message: format('reference count', `expected historical reference count: ${valCount} + ${delCount} + ${slashCount} = ${expected}\ntotal validator historical reference count: ${count}\n`),
      broken,
    };
  };
}

/** `module-account`: the module balance == TruncateDecimal(Σ outstanding + community pool). */
export function moduleAccountInvariant(k: DistributionKeeper): Invariant {
  return (ctx) => {
    let expectedCoins = k.getFeePoolCommunityCoins(ctx);
    for (const o of k.state.OutstandingRewards.values(ctx)) expectedCoins = expectedCoins.add(DecCoins.fromProto(o.rewards));
    const [expectedInt] = expectedCoins.truncateDecimal();
    const balances = k.bk.getAllBalances(ctx, k.moduleAddress());
    const str = (cs: readonly { denom: string; amount: string }[]) => cs.map((c) => `${c.amount}${c.denom}`).join(',');
    const broken = str(expectedInt) !== str(balances);
    return {
      message: format('ModuleAccount coins', `\texpected ModuleAccount coins:     ${expectedCoins.toString()}\n\tdistribution ModuleAccount coins: ${str(balances)}\n`),
      broken,
    };
  };
}

/** The four routes, as `RegisterInvariants` registers them. */
export function distributionInvariants(k: DistributionKeeper): Record<string, Invariant> {
  return {
    'nonnegative-outstanding': nonNegativeOutstandingInvariant(k),
    'can-withdraw': canWithdrawInvariant(k),
    'reference-count': referenceCountInvariant(k),
    'module-account': moduleAccountInvariant(k),
  };
}

/** `AllInvariants`: the first broken one, else the reference-count result... as the SDK (in its order). */
export function allInvariants(k: DistributionKeeper): Invariant {
  return (ctx) => {
    const order = [nonNegativeOutstandingInvariant(k), canWithdrawInvariant(k), referenceCountInvariant(k), moduleAccountInvariant(k)];
    let last: InvariantResult = { message: '', broken: false };
    for (const inv of order) {
      last = inv(ctx);
      if (last.broken) return last;
    }
    return last;
  };
}
