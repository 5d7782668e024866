/** The four invariants (keeper/invariants.go): they hold on a working chain and each one catches its breakage. */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import {
  DENOM, E18, createValidatorMsg, devKey, emptyGenesis, msgTx, openChain, sharedModuleAddress, valoper, writable,
} from './helpers.js';
import type { TestSetup } from './helpers.js';
import {
  BONDED_POOL_NAME, allStakingInvariants, delegatorSharesInvariant, moduleAccountsInvariant, nonNegativePowerInvariant, positiveDelegationInvariant,
} from '../src/index.js';

describe('staking: invariants', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain({ hooks: [] });
    await s.chain.init(emptyGenesis());
    await s.chain.deliver(msgTx(s, 0, [createValidatorMsg(s, 0, 100n * E18)]));
    await s.chain.deliver(msgTx(s, 1, [createValidatorMsg(s, 1, E18 / 2n)]));
    await s.chain.deliver(msgTx(s, 2, [['MsgUndelegate', { delegator_address: devKey(0).address, validator_address: valoper(0), amount: { denom: DENOM, amount: E18.toString() } }]]));
  });
  afterEach(async () => s.chain.close());
  const op = (i: number) => s.keeper.valCodec.decode(valoper(i));

  it('hold on a chain run by messages and blocks', () => {
    expect(allStakingInvariants(s.keeper, s.chain.ctx())).to.deep.equal({ broken: false, message: '' });
  });

  it('module-accounts: a pool balance off by one', () => {
    const { ctx } = writable(s, 9, new Date());
    s.bank.initBalance(ctx, sharedModuleAddress(BONDED_POOL_NAME), [{ denom: DENOM, amount: '1' }]);
    const r = moduleAccountsInvariant(s.keeper, ctx);
    expect(r.broken).to.equal(true);
    expect(r.message).to.match(/^staking: bonded and not bonded module account coins invariant\n\tPool's bonded tokens: 99000000000000000001\n\tsum of bonded tokens: 99000000000000000000\n/);
  });

  it('nonnegative-power: a power index entry that does not match its validator', () => {
    const { ctx } = writable(s, 9, new Date());
    s.keeper.state.ValidatorsByPower.set(ctx, [7n, op(0)], op(0));
    expect(nonNegativePowerInvariant(s.keeper, ctx).broken).to.equal(true);
    expect(nonNegativePowerInvariant(s.keeper, s.chain.ctx()).broken).to.equal(false);
  });

  it('positive-delegation: a zero-share delegation', () => {
    const { ctx } = writable(s, 9, new Date());
    s.keeper.setDelegation(ctx, { delegator_address: devKey(3).address, validator_address: valoper(0), shares: '0' });
    const r = positiveDelegationInvariant(s.keeper, ctx);
    expect(r).to.deep.equal({ broken: true, message: `staking: positive delegations invariant\n1 invalid delegations found\n\tdelegation with zero shares: ${devKey(3).address} ${valoper(0)}\n` });
  });

  it('delegator-shares: the sum of the delegations differs from the validator\'s shares', () => {
    const { ctx } = writable(s, 9, new Date());
    s.keeper.setDelegation(ctx, { delegator_address: devKey(0).address, validator_address: valoper(0), shares: Dec.fromInt(1).atomics() });
    expect(delegatorSharesInvariant(s.keeper, ctx).broken).to.equal(true);
    expect(delegatorSharesInvariant(s.keeper, s.chain.ctx()).broken).to.equal(false);
  });
});
