/**
 * F1 reward vectors ported from cosmos-sdk v0.45 x/distribution/keeper/delegation_test.go: the same
 * sequences of validator creation, delegation, allocation and slashing (driven through the fake staking
 * keeper, which calls the distribution hooks as x/staking does), with the SDK's exact expected numbers.
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { BlockCtx, DENOM, KEYS, consAddr, decStr, genesis, historicalReferenceCount, openChain, stakeDec, valAddr } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution F1 (SDK v0.45 delegation_test.go)', () => {
  let s: TestSetup;
  let b: BlockCtx;
  const BIG = 10n ** 9n;
  beforeEach(async () => {
    s = await openChain();
    await s.chain.init(genesis({ [KEYS[0]!.address]: BIG, [KEYS[1]!.address]: BIG, [KEYS[3]!.address]: BIG }));
    b = new BlockCtx(s.chain);
  });
  afterEach(async () => {
    await s.chain.close();
  });

  const val = (i = 0) => s.staking.getValidator(b.ctx(), valAddr(i))!;
  const del = (d: number, v = 0) => s.staking.getDelegation(b.ctx(), valAddr(d), valAddr(v))!;
  const commission = (i = 0) => s.keeper.getAccumulatedCommission(b.ctx(), valAddr(i)).toString();
  const balance = (i: number) => s.bk.getBalance(b.ctx(), KEYS[i]!.addr, DENOM);
  const fundDistribution = (amount: bigint) => s.bk.sendCoinsFromAccountToModule(b.ctx(), KEYS[3]!.addr, 'distribution', [{ denom: DENOM, amount: amount.toString() }]);

  it('TestCalculateRewardsBasic', () => {
    s.staking.createValidator(b.ctx(), 0, 100n);
    b.height++;
    const v = val();
    const d = del(0);
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
    let ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).isZero()).to.equal(true);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(10));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).toString()).to.equal(decStr(5));
    expect(commission()).to.equal(decStr(5));
  });

  it('TestCalculateRewardsAfterSlash', () => {
    const valPower = 100n;
    s.staking.createValidator(b.ctx(), 0, s.staking.tokensFromConsensusPower(valPower));
    b.height++;
    let v = val();
    const d = del(0);
    let ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).isZero()).to.equal(true);
    b.height += 3;
    s.staking.slash(b.ctx(), consAddr(0), valPower, Dec.withPrec(5, 1));
    v = val();
    b.height += 3;
    const initial = s.staking.tokensFromConsensusPower(10);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).toString()).to.equal(decStr(initial / 2n));
    expect(commission()).to.equal(decStr(initial / 2n));
  });

  it('TestCalculateRewardsAfterManySlashes', () => {
    const valPower = 100n;
    s.staking.createValidator(b.ctx(), 0, s.staking.tokensFromConsensusPower(valPower));
    b.height++;
    let v = val();
    const d = del(0);
    let ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).isZero()).to.equal(true);
    b.height += 3;
    s.staking.slash(b.ctx(), consAddr(0), valPower, Dec.withPrec(5, 1));
    v = val();
    b.height += 3;
    const initial = s.staking.tokensFromConsensusPower(10);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.staking.slash(b.ctx(), consAddr(0), valPower / 2n, Dec.withPrec(5, 1));
    v = val();
    b.height += 3;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).toString()).to.equal(decStr(initial));
    expect(commission()).to.equal(decStr(initial));
  });

  it('TestCalculateRewardsMultiDelegator', () => {
    s.staking.createValidator(b.ctx(), 0, 100n);
    b.height++;
    let v = val();
    const del1 = del(0);
    const initial = 20n;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.staking.delegate(b.ctx(), valAddr(1), valAddr(0), 100n);
    const del2 = del(1);
    v = val();
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    const ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del1, ending).toString()).to.equal(decStr((initial * 3n) / 4n));
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del2, ending).toString()).to.equal(decStr(initial / 4n));
    expect(commission()).to.equal(decStr(initial));
  });

  it('TestWithdrawDelegationRewardsBasic', () => {
    const balanceTokens = s.staking.tokensFromConsensusPower(1000);
    fundDistribution(balanceTokens);
    const valTokens = s.staking.tokensFromConsensusPower(100);
    s.staking.createValidator(b.ctx(), 0, valTokens);
    expect(balance(0)).to.equal(balanceTokens - valTokens);
    b.height++;
    const v = val();
    const initial = s.staking.tokensFromConsensusPower(10);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(0), valAddr(0));
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
    expect(balance(0)).to.equal(balanceTokens - valTokens + initial / 2n);
    s.keeper.withdrawValidatorCommission(b.ctx(), valAddr(0));
    expect(balance(0)).to.equal(balanceTokens - valTokens + initial);
  });

  it('TestCalculateRewardsAfterManySlashesInSameBlock', () => {
    const valPower = 100n;
    s.staking.createValidator(b.ctx(), 0, s.staking.tokensFromConsensusPower(valPower));
    b.height++;
    let v = val();
    const d = del(0);
    let ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).isZero()).to.equal(true);
    b.height += 3;
    const initial = s.staking.tokensFromConsensusPower(10);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.staking.slash(b.ctx(), consAddr(0), valPower, Dec.withPrec(5, 1));
    s.staking.slash(b.ctx(), consAddr(0), valPower / 2n, Dec.withPrec(5, 1));
    v = val();
    b.height += 3;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, d, ending).toString()).to.equal(decStr(initial));
    expect(commission()).to.equal(decStr(initial));
    // two slash events at the same height, different periods
    expect([...s.keeper.state.SlashEvents.keys(b.ctx())].map((k) => [k[1], k[2]])).to.deep.equal([[BigInt(b.height - 3), 3n], [BigInt(b.height - 3), 4n]]);
  });

  it('TestCalculateRewardsMultiDelegatorMultiSlash', () => {
    const valPower = 100n;
    s.staking.createValidator(b.ctx(), 0, s.staking.tokensFromConsensusPower(valPower));
    b.height++;
    let v = val();
    const del1 = del(0);
    const initial = Dec.fromInt(s.staking.tokensFromConsensusPower(30));
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    b.height += 3;
    s.staking.slash(b.ctx(), consAddr(0), valPower, Dec.withPrec(5, 1));
    b.height += 3;
    s.staking.delegate(b.ctx(), valAddr(1), valAddr(0), s.staking.tokensFromConsensusPower(100));
    const del2 = del(1);
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial)); // the stale `val`, as the SDK test
    b.height += 3;
    s.staking.slash(b.ctx(), consAddr(0), valPower, Dec.withPrec(5, 1));
    b.height += 3;
    v = val();
    const ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del1, ending).toString()).to.equal(stakeDec(initial.quoInt(2).add(initial.quoInt(6))).toString());
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del2, ending).toString()).to.equal(stakeDec(initial.quoInt(3)).toString());
    expect(commission()).to.equal(stakeDec(initial).toString());
  });

  it('TestCalculateRewardsMultiDelegatorMultWithdraw', () => {
    const initial = 20n;
    fundDistribution(1000n);
    s.staking.createValidator(b.ctx(), 0, 100n);
    b.height++;
    let v = val();
    const del1 = del(0);
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
    s.staking.delegate(b.ctx(), valAddr(1), valAddr(0), 100n);
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(3);
    v = val();
    const del2 = del(1);
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(0), valAddr(0));
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(1), valAddr(0));
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(3);
    s.keeper.withdrawValidatorCommission(b.ctx(), valAddr(0));
    let ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del1, ending).isZero()).to.equal(true);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del2, ending).isZero()).to.equal(true);
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(0)).isZero()).to.equal(true);
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(0), valAddr(0));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del1, ending).isZero()).to.equal(true);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del2, ending).toString()).to.equal(decStr(initial / 4n));
    expect(commission()).to.equal(decStr(initial / 2n));
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(initial));
    s.keeper.withdrawValidatorCommission(b.ctx(), valAddr(0));
    ending = s.keeper.incrementValidatorPeriod(b.ctx(), v);
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del1, ending).toString()).to.equal(decStr(initial / 4n));
    expect(s.keeper.calculateDelegationRewards(b.ctx(), v, del2, ending).toString()).to.equal(decStr(initial / 2n));
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(0)).isZero()).to.equal(true);
  });

  it('a delegation modified withdraws its rewards implicitly (BeforeDelegationSharesModified) without a withdraw_rewards event', () => {
    fundDistribution(1000n);
    s.staking.createValidator(b.ctx(), 0, 100n);
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), val(), stakeDec(10));
    const before = balance(0);
    b.events.events.length = 0;
    s.staking.delegate(b.ctx(), valAddr(0), valAddr(0), 50n);
    // 5 rewards paid, 50 delegated
    expect(balance(0)).to.equal(before + 5n - 50n);
    expect(b.events.events.some((e) => e.type === 'withdraw_rewards')).to.equal(false);
    expect(historicalReferenceCount(s.keeper, b.ctx())).to.equal(2);
  });

  it('slash fraction outside [0, 1] throws', () => {
    s.staking.createValidator(b.ctx(), 0, 100n);
    expect(() => s.keeper.stakingHooks.beforeValidatorSlashed!(b.ctx(), valAddr(0), Dec.withPrec(11, 1))).to.throw('fraction must be >=0 and <=1, current fraction: 1.100000000000000000');
  });

  it('AfterValidatorRemoved: commission paid out, outstanding rest to the community pool, all records deleted', () => {
    fundDistribution(1000n);
    s.staking.createValidator(b.ctx(), 0, 100n);
    b.height++;
    s.keeper.allocateTokensToValidator(b.ctx(), val(), stakeDec(Dec.fromString('10.5')));
    // the delegation is withdrawn first, as staking's unbond does
    s.keeper.withdrawDelegationRewards(b.ctx(), valAddr(0), valAddr(0));
    const before = balance(0);
    s.staking.delegations.clear();
    s.keeper.state.StartingInfos.clear(b.ctx());
    s.staking.removeValidator(b.ctx(), 0);
    // commission 5.25: 5 paid, 0.25 dust; delegator got 5, 0.25 dust earlier
    expect(balance(0)).to.equal(before + 5n);
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(Dec.fromString('0.5')));
    expect(s.keeper.state.OutstandingRewards.has(b.ctx(), valAddr(0))).to.equal(false);
    expect([...s.keeper.state.HistoricalRewards.keys(b.ctx())]).to.have.length(0);
    expect(s.keeper.state.CurrentRewards.has(b.ctx(), valAddr(0))).to.equal(false);
  });
});
