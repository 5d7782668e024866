/**
 * distribution in a randomized simulation (x/distribution/simulation/operations.go of SDK v0.45): set
 * withdraw address, withdraw delegator reward, withdraw validator commission and fund community pool, with
 * inputs read from the keeper's state (and staking's, through the declared `DistributionStakingKeeper`) as
 * the block has it so far, and deliberately invalid ones with the SDK's errors (a blocked withdraw
 * address, withdrawing disabled, no delegation, an unknown validator, no commission, more than the
 * balance, a zero amount); and the four invariants of src/invariants.ts.
 */
import type { Coin } from '@chain/app';
import { Errors } from '@chain/errors';
import { amountOfDenom, fails, minCoins, noop, ok, positiveAmount, randomCoins, randomFees, subCoins } from '@chain/simulation';
import type { OperationInput, OperationResult, SimAccount, SimMsg, SimulationModule, WeightedOperation } from '@chain/simulation';
import { DistributionErrors } from './errors.js';
import { distributionInvariants } from './invariants.js';
import type { DistributionKeeper } from './keeper.js';

export interface DistributionSimulationOptions {
  /** module account names to try as withdraw addresses (those that are blocked addresses must be refused) */
  readonly moduleAccounts?: readonly string[];
  readonly weights?: {
    readonly setWithdrawAddress?: number;
    readonly withdrawDelegatorReward?: number;
    readonly withdrawValidatorCommission?: number;
    readonly fundCommunityPool?: number;
  };
}

const T = 'chain.distribution.v1beta1.';

/** distribution's operations and invariants for `runSimulation`. */
export function distributionSimulation(k: DistributionKeeper, o: DistributionSimulationOptions = {}): SimulationModule {
  const msg = (type: string, value: object): SimMsg[] => [{ type: T + type, value: value as SimMsg['value'] }];
  const blocked = (): string[] =>
    (o.moduleAccounts ?? []).map((n) => k.accCodec.encode(k.ak.getModuleAddress(n))).filter((a) => k.bk.isBlockedAddress(a));

  /** the signer's balances, the fee it pays (from what CheckTx also sees) and what is left to spend */
  const wallet = (input: OperationInput, signer: SimAccount): { balances: Coin[]; fee: Coin[]; spendable: Coin[] } => {
    const balances = k.bk.getAllBalances(input.ctx, signer.addr);
    const fee = randomFees(input.rand, minCoins(k.bk.getAllBalances(input.committed, signer.addr), balances));
    return { balances, fee, spendable: subCoins(balances, fee) };
  };

  const setWithdrawAddress = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const signer = rand.pick(input.available);
    const set = (withdraw: string) => msg('MsgSetWithdrawAddress', { delegator_address: signer.address, withdraw_address: withdraw });
    const to = blocked();
    if (rand.bool(0.15) && to.length > 0) return { msgs: set(rand.pick(to)), signer, expect: fails(Errors.Unauthorized), label: 'blocked address' };
    // mostly another account of the run, sometimes back to itself, sometimes a fresh address
    const r = rand.float();
    const withdraw = r < 0.2 ? signer.address : r < 0.3 ? k.accCodec.encode(rand.bytes(20)) : rand.pick(input.accounts).address;
    if (!k.getParams(ctx).withdrawAddrEnabled) return { msgs: set(withdraw), signer, expect: fails(DistributionErrors.SetWithdrawAddrDisabled), label: 'disabled' };
    return { msgs: set(withdraw), signer, fee: wallet(input, signer).fee, expect: ok(), label: withdraw === signer.address ? 'to itself' : 'ok' };
  };

  const withdrawDelegatorReward = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const withdraw = (signer: SimAccount, validator: string) => msg('MsgWithdrawDelegatorReward', { delegator_address: signer.address, validator_address: validator });
    const r = rand.float();
    if (r < 0.06) {
      const signer = rand.pick(input.available);
      return { msgs: withdraw(signer, k.valCodec.encode(rand.bytes(20))), signer, expect: fails(DistributionErrors.NoValidatorDistInfo), label: 'unknown validator' };
    }
    if (r < 0.12) {
      const signer = rand.pick(input.available);
      const none = [...k.sk.iterateValidators(ctx)].filter((v) => !k.sk.getDelegation(ctx, signer.addr, k.operatorOf(v)));
      if (none.length === 0) return noop('delegates to every validator');
      return { msgs: withdraw(signer, rand.pick(none).operator_address), signer, expect: fails(DistributionErrors.EmptyDelegationDistInfo), label: 'no delegation' };
    }
    const dels = [...k.sk.getAllDelegations(ctx)].filter((d) => input.availableByAddr(k.accCodec.decode(d.delegator_address)));
    if (dels.length === 0) return noop('no delegation of an available account');
    const d = rand.pick(dels);
    const signer = input.availableByAddr(k.accCodec.decode(d.delegator_address))!;
    return { msgs: withdraw(signer, d.validator_address), signer, fee: wallet(input, signer).fee, expect: ok() };
  };

  const withdrawValidatorCommission = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const withdraw = (_signer: SimAccount, validator: string) => msg('MsgWithdrawValidatorCommission', { validator_address: validator });
    if (rand.bool(0.08)) {
      const strangers = input.available.filter((a) => !k.sk.getValidator(ctx, a.addr));
      if (strangers.length === 0) return noop('every available account is a validator');
      const signer = rand.pick(strangers);
      return { msgs: withdraw(signer, k.valCodec.encode(signer.addr)), signer, expect: fails(DistributionErrors.NoValidatorCommission), label: 'not a validator' };
    }
    const own = [...k.sk.iterateValidators(ctx)].filter((v) => input.availableByAddr(k.operatorOf(v)));
    if (own.length === 0) return noop('no available operator');
    const v = rand.pick(own);
    const signer = input.availableByAddr(k.operatorOf(v))!;
    if (k.getAccumulatedCommission(ctx, k.operatorOf(v)).isZero()) {
      return { msgs: withdraw(signer, v.operator_address), signer, expect: fails(DistributionErrors.NoValidatorCommission), label: 'no commission' };
    }
    return { msgs: withdraw(signer, v.operator_address), signer, fee: wallet(input, signer).fee, expect: ok() };
  };

  const fundCommunityPool = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const signer = rand.pick(input.available);
    const { balances, fee, spendable } = wallet(input, signer);
    const fund = (amount: Coin[]) => msg('MsgFundCommunityPool', { amount, depositor: signer.address });
    const r = rand.float();
    if (r < 0.1 && balances.length > 0) {
      const c = rand.pick(balances);
      return { msgs: fund([{ denom: c.denom, amount: (amountOfDenom(balances, c.denom) + positiveAmount(rand, 10n ** 20n)).toString() }]), signer, expect: fails(Errors.InsufficientFunds), label: 'insufficient funds' };
    }
    if (r < 0.15) return { msgs: fund([{ denom: balances[0]?.denom ?? 'achain', amount: '0' }]), signer, expect: fails(Errors.InvalidCoins), label: 'zero amount' };
    // small amounts: the pool is not meant to drain the accounts
    const coins = randomCoins(rand, spendable.map((c) => ({ denom: c.denom, amount: (BigInt(c.amount) / 100n).toString() })));
    if (coins.length === 0) return noop('nothing to give');
    return { msgs: fund(coins), signer, fee, expect: ok() };
  };

  const w = o.weights ?? {};
  const operations: WeightedOperation[] = [
    { name: 'distribution/set-withdraw-address', weight: w.setWithdrawAddress ?? 10, op: setWithdrawAddress },
    { name: 'distribution/withdraw-delegator-reward', weight: w.withdrawDelegatorReward ?? 30, op: withdrawDelegatorReward },
    { name: 'distribution/withdraw-validator-commission', weight: w.withdrawValidatorCommission ?? 15, op: withdrawValidatorCommission },
    { name: 'distribution/fund-community-pool', weight: w.fundCommunityPool ?? 10, op: fundCommunityPool },
  ];
  return {
    name: 'distribution',
    operations,
    invariants: Object.entries(distributionInvariants(k)).map(([route, check]) => ({ name: `distribution/${route}`, check })),
  };
}
