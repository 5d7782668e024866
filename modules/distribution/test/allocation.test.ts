/**
 * Allocation: cosmos-sdk v0.45 x/distribution/keeper/allocation_test.go (TestAllocateTokensToValidatorWithCommission,
 * TestAllocateTokensToManyValidators, TestAllocateTokensTruncation) with their numbers, then BeginBlock through
 * real blocks (fee collector → distribution, last commit votes, the previous proposer).
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { moduleAccountInvariant } from '../src/index.js';
import {
  BlockCtx, DENOM, FEE_COLLECTOR, KEYS, consAddr, decStr, defaultGenesisJson, flatEvents, genesis, openChain, stakeDec, valAddr, validatorRecords,
  valoper, vote,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution allocation (SDK v0.45 allocation_test.go)', () => {
  let s: TestSetup;
  let b: BlockCtx;
  beforeEach(async () => {
    s = await openChain();
    await s.chain.init(genesis({ [KEYS[0]!.address]: 10n ** 12n, [KEYS[1]!.address]: 10n ** 12n, [KEYS[2]!.address]: 10n ** 12n, [KEYS[3]!.address]: 10n ** 12n }));
    b = new BlockCtx(s.chain);
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const fundFeeCollector = (amount: bigint) =>
    s.bk.sendCoinsFromAccountToModule(b.ctx(), KEYS[3]!.addr, FEE_COLLECTOR, [{ denom: DENOM, amount: amount.toString() }]);

  it('TestAllocateTokensToValidatorWithCommission', () => {
    s.staking.createValidator(b.ctx(), 0, 100n, Dec.withPrec(5, 1));
    const v = s.staking.getValidator(b.ctx(), valAddr(0))!;
    b.events.events.length = 0;
    s.keeper.allocateTokensToValidator(b.ctx(), v, stakeDec(10));
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(0)).toString()).to.equal(decStr(5));
    expect(s.keeper.getCurrentRewards(b.ctx(), valAddr(0)).rewards.toString()).to.equal(decStr(5));
    expect(flatEvents(b.events.events)).to.deep.equal([
      ['commission', { amount: '5.000000000000000000stake', validator: valoper(0) }],
      ['rewards', { amount: '10.000000000000000000stake', validator: valoper(0) }],
    ]);
  });

  it('TestAllocateTokensToManyValidators', () => {
    s.staking.createValidator(b.ctx(), 0, 100n, Dec.withPrec(5, 1));
    s.staking.createValidator(b.ctx(), 1, 100n, Dec.zero());
    expect(s.keeper.getOutstandingRewards(b.ctx(), valAddr(0)).isZero()).to.equal(true);
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).isZero()).to.equal(true);
    fundFeeCollector(100n);
    b.events.events.length = 0;
    s.keeper.allocateTokens(b.ctx(), 200n, 200n, consAddr(1), [vote(0, 100n), vote(1, 100n)]);
    expect(s.keeper.getOutstandingRewards(b.ctx(), valAddr(0)).toString()).to.equal(decStr(Dec.withPrec(465, 1)));
    expect(s.keeper.getOutstandingRewards(b.ctx(), valAddr(1)).toString()).to.equal(decStr(Dec.withPrec(515, 1)));
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(2));
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(0)).toString()).to.equal(decStr(Dec.withPrec(2325, 2)));
    expect(s.keeper.getAccumulatedCommission(b.ctx(), valAddr(1)).isZero()).to.equal(true);
    expect(s.keeper.getCurrentRewards(b.ctx(), valAddr(0)).rewards.toString()).to.equal(decStr(Dec.withPrec(2325, 2)));
    expect(s.keeper.getCurrentRewards(b.ctx(), valAddr(1)).rewards.toString()).to.equal(decStr(Dec.withPrec(515, 1)));
    const pr = flatEvents(b.events.events).find(([t]) => t === 'proposer_reward');
    expect(pr).to.deep.equal(['proposer_reward', { amount: '5.000000000000000000stake', validator: valoper(1) }]);
    expect(s.bk.getBalance(b.ctx(), s.ak.getModuleAddress(FEE_COLLECTOR), DENOM)).to.equal(0n);
    expect(s.bk.getBalance(b.ctx(), s.keeper.moduleAddress(), DENOM)).to.equal(100n);
    expect(moduleAccountInvariant(s.keeper)(b.ctx()).broken).to.equal(false);
  });

  it('TestAllocateTokensTruncation', () => {
    s.staking.createValidator(b.ctx(), 0, 110n, Dec.withPrec(1, 1));
    s.staking.createValidator(b.ctx(), 1, 100n, Dec.withPrec(1, 1));
    s.staking.createValidator(b.ctx(), 2, 100n, Dec.withPrec(1, 1));
    fundFeeCollector(634195840n);
    s.keeper.allocateTokens(b.ctx(), 31n, 31n, consAddr(1), [vote(0, 11n), vote(1, 10n), vote(2, 10n)]);
    for (const i of [0, 1, 2]) expect(s.keeper.getOutstandingRewards(b.ctx(), valAddr(i)).isValid()).to.equal(true);
    expect(moduleAccountInvariant(s.keeper)(b.ctx()).broken).to.equal(false);
  });

  it('no power in the last commit: all fees to the community pool', () => {
    fundFeeCollector(77n);
    s.keeper.allocateTokens(b.ctx(), 0n, 0n, new Uint8Array(), []);
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(77));
  });

  it('unknown previous proposer: its share stays in the community pool', () => {
    s.staking.createValidator(b.ctx(), 0, 100n, Dec.zero());
    fundFeeCollector(100n);
    b.events.events.length = 0;
    s.keeper.allocateTokens(b.ctx(), 100n, 100n, consAddr(3), [vote(0, 100n)]);
    expect(s.keeper.getOutstandingRewards(b.ctx(), valAddr(0)).toString()).to.equal(decStr(93));
    expect(s.keeper.getFeePoolCommunityCoins(b.ctx()).toString()).to.equal(decStr(7));
    expect(b.events.events.some((e) => e.type === 'proposer_reward')).to.equal(false);
  });
});

describe('distribution BeginBlock over blocks', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain({ proposer: consAddr(1) });
    s.staking.addRaw(0, 100n, Dec.withPrec(5, 1));
    s.staking.addRaw(1, 100n, Dec.zero());
    await s.chain.init(
      genesis({ [s.addr[FEE_COLLECTOR]!]: 100n, [KEYS[0]!.address]: 1000n }, { ...defaultGenesisJson(), ...validatorRecords([[0, 100n], [1, 100n]]) }),
    );
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('height 1 stores the proposer only; height 2 allocates the fee collector by the last commit (all signed)', async () => {
    const ctx1 = s.chain.ctx();
    expect(Buffer.from(s.keeper.getPreviousProposerConsAddr(ctx1))).to.deep.equal(Buffer.from(consAddr(1)));
    expect(s.bk.getBalance(ctx1, s.ak.getModuleAddress(FEE_COLLECTOR), DENOM)).to.equal(100n);
    const res = await s.chain.block([], { lastCommit: { round: 0, votes: [vote(0, 100n), vote(1, 100n)] }, proposer: consAddr(0) });
    const ctx = s.chain.ctx();
    expect(s.keeper.getOutstandingRewards(ctx, valAddr(0)).toString()).to.equal(decStr(Dec.withPrec(465, 1)));
    expect(s.keeper.getOutstandingRewards(ctx, valAddr(1)).toString()).to.equal(decStr(Dec.withPrec(515, 1)));
    expect(s.keeper.getFeePoolCommunityCoins(ctx).toString()).to.equal(decStr(2));
    expect(Buffer.from(s.keeper.getPreviousProposerConsAddr(ctx))).to.deep.equal(Buffer.from(consAddr(0)));
    const types = flatEvents(res.events).map(([t]) => t);
    expect(types).to.include.members(['proposer_reward', 'commission', 'rewards']);
    expect(s.bk.getBalance(ctx, s.keeper.moduleAddress(), DENOM)).to.equal(100n);
  });

  it('precommit fraction: an absent validator lowers the proposer bonus but still gets its power share', async () => {
    await s.chain.block([], { lastCommit: { round: 0, votes: [vote(0, 100n, 1), vote(1, 100n)] } });
    const ctx = s.chain.ctx();
    // proposer multiplier 0.01 + 0.04 × 0.5 = 0.03; vote multiplier 0.95
    expect(s.keeper.getOutstandingRewards(ctx, valAddr(0)).toString()).to.equal(decStr(Dec.withPrec(475, 1)));
    expect(s.keeper.getOutstandingRewards(ctx, valAddr(1)).toString()).to.equal(decStr(Dec.withPrec(505, 1)));
    expect(s.keeper.getFeePoolCommunityCoins(ctx).toString()).to.equal(decStr(2));
  });
});
