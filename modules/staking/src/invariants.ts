/**
 * The invariants of x/staking (Cosmos SDK v0.45 x/staking/keeper/invariants.go), as functions returning
 * `{ broken, message }` (the crisis module's shape; routes `staking/<name>`), for tests and simulations.
 */
import type { Context } from '@chain/app';
import { Dec } from '@chain/math';
import type { StakingKeeper } from './keeper.js';
import { decOf, isBonded, isUnbonded, isUnbonding, tokensOf } from './shares.js';

export interface InvariantResult {
  readonly broken: boolean;
  readonly message: string;
}

const fmt = (name: string, msg: string, broken: boolean): InvariantResult => ({
  broken,
  message: `staking: ${name} invariant\n${msg}`,
});

/** `module-accounts`: the pool balances equal the bonded tokens / the not-bonded tokens plus unbonding entries. */
export function moduleAccountsInvariant(k: StakingKeeper, ctx: Context): InvariantResult {
  let bonded = 0n;
  let notBonded = 0n;
  for (const v of k.iterateValidators(ctx)) {
    if (isBonded(v)) bonded += tokensOf(v);
    else if (isUnbonding(v) || isUnbonded(v)) notBonded += tokensOf(v);
    else throw new Error('invalid validator status');
  }
  for (const ubd of k.state.UnbondingDelegations.values(ctx).toArray()) {
    for (const e of ubd.entries) notBonded += BigInt(e.balance || '0');
  }
  const denom = k.bondDenom(ctx);
  const poolBonded = k.bk.getBalance(ctx, k.bondedPoolAddress(), denom);
  const poolNotBonded = k.bk.getBalance(ctx, k.notBondedPoolAddress(), denom);
  const broken = poolBonded !== bonded || poolNotBonded !== notBonded;
  return fmt('bonded and not bonded module account coins',
    `\tPool's bonded tokens: ${poolBonded}\n\tsum of bonded tokens: ${bonded}\n` +
    `not bonded token invariance:\n\tPool's not bonded tokens: ${poolNotBonded}\n\tsum of not bonded tokens: ${notBonded}\n` +
    `module accounts total (bonded + not bonded):\n\tModule Accounts' tokens: ${poolBonded + poolNotBonded}\n\tsum tokens:              ${bonded + notBonded}\n`, broken);
}

/** `nonnegative-power`: every power-index entry is the key recomputed from its validator; no negative tokens. */
export function nonNegativePowerInvariant(k: StakingKeeper, ctx: Context): InvariantResult {
  let msg = '';
  let broken = false;
  for (const { key: [power, op] } of k.state.ValidatorsByPower.iterate(ctx).toArray()) {
    const v = k.getValidator(ctx, op);
    if (!v) throw new Error(`validator record not found for address: ${k.valCodec.encode(op)}`);
    if (k.potentialConsensusPower(v) !== power) {
      broken = true;
      msg += `power store invariance:\n\tvalidator.Power: ${k.potentialConsensusPower(v)}\n\tkey should be: ${power}\n`;
    }
    if (tokensOf(v) < 0n) {
      broken = true;
      msg += `\tnegative tokens for validator: ${v.operator_address}\n`;
    }
  }
  return fmt('nonnegative power', `found invalid validator powers\n${msg}`, broken);
}

/** `positive-delegation`: every delegation has positive shares. */
export function positiveDelegationInvariant(k: StakingKeeper, ctx: Context): InvariantResult {
  let count = 0;
  let msg = '';
  for (const d of k.getAllDelegations(ctx)) {
    const s = decOf(d.shares);
    if (s.isNegative()) {
      count++;
      msg += `\tdelegation with negative shares: ${d.delegator_address} ${d.validator_address}\n`;
    }
    if (s.isZero()) {
      count++;
      msg += `\tdelegation with zero shares: ${d.delegator_address} ${d.validator_address}\n`;
    }
  }
  return fmt('positive delegations', `${count} invalid delegations found\n${msg}`, count !== 0);
}

/** `delegator-shares`: each validator's delegator shares equal the sum of its delegations' shares. */
export function delegatorSharesInvariant(k: StakingKeeper, ctx: Context): InvariantResult {
  const sums = new Map<string, Dec>();
  for (const d of k.getAllDelegations(ctx)) sums.set(d.validator_address, (sums.get(d.validator_address) ?? Dec.zero()).add(decOf(d.shares)));
  let broken = false;
  let msg = '';
  for (const v of k.iterateValidators(ctx)) {
    const total = sums.get(v.operator_address) ?? Dec.zero();
    if (!decOf(v.delegator_shares).equal(total)) {
      broken = true;
      msg += `broken delegator shares invariance:\n\tvalidator.DelegatorShares: ${decOf(v.delegator_shares).toString()}\n\tsum of Delegator.Shares: ${total.toString()}\n`;
    }
  }
  return fmt('delegator shares', msg, broken);
}

/** The four invariants by route name. */
export const STAKING_INVARIANTS = {
  'module-accounts': moduleAccountsInvariant,
  'nonnegative-power': nonNegativePowerInvariant,
  'positive-delegation': positiveDelegationInvariant,
  'delegator-shares': delegatorSharesInvariant,
} as const;

/** `AllInvariants`: the first broken one, else not broken. */
export function allInvariants(k: StakingKeeper, ctx: Context): InvariantResult {
  for (const f of Object.values(STAKING_INVARIANTS)) {
    const r = f(k, ctx);
    if (r.broken) return r;
  }
  return { broken: false, message: '' };
}
