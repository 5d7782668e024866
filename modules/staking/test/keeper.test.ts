/** The keeper API other modules call (distribution, slashing, evidence, mint), on the genesis of helpers.ts. */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { BONDED, E18, NOT_BONDED, appGenesis, devKey, openChain, valoper } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('staking: keeper API', () => {
  let s: TestSetup;
  before(async () => {
    s = await openChain();
    await s.chain.init(appGenesis());
  });
  after(async () => s.chain.close());
  const op = (i: number) => s.keeper.valCodec.decode(valoper(i));

  it('validators: all in operator order, the bonded ones by power within max_validators, by consensus address', () => {
    const ctx = s.chain.ctx();
    const all = [...s.keeper.iterateValidators(ctx)].map((v) => v.operator_address);
    expect([...all].sort()).to.deep.equal([valoper(0), valoper(1), valoper(2)].sort());
    expect([...s.keeper.iterateBondedValidatorsByPower(ctx)].map((v) => v.operator_address)).to.deep.equal([valoper(1), valoper(0)]);
    const v1 = s.keeper.getValidator(ctx, op(1))!;
    expect(s.keeper.getValidatorByConsAddr(ctx, s.keeper.consAddress(v1))?.operator_address).to.equal(valoper(1));
    expect(s.keeper.consensusPower(v1)).to.equal(900n);
    expect(s.keeper.maxValidators(ctx)).to.equal(2);
    expect(s.keeper.powerReduction).to.equal(E18);
  });

  it('delegations: of a delegator, of a validator, all', () => {
    const ctx = s.chain.ctx();
    expect([...s.keeper.iterateDelegatorDelegations(ctx, devKey(3).addr)].map((d) => d.validator_address).sort()).to.deep.equal([valoper(0), valoper(1)].sort());
    expect(s.keeper.getValidatorDelegations(ctx, op(0)).map((d) => d.delegator_address).sort()).to.deep.equal([devKey(0).address, devKey(3).address].sort());
    expect(s.keeper.getAllDelegations(ctx)).to.have.length(5);
    expect(s.keeper.getDelegation(ctx, devKey(1).addr, op(1))?.shares).to.equal((600n * E18).toString());
  });

  it('numbers for mint: total bonded tokens, staking token supply, bonded ratio (QuoInt)', () => {
    const ctx = s.chain.ctx();
    expect(s.keeper.totalBondedTokens(ctx)).to.equal(BONDED);
    const supply = s.keeper.stakingTokenSupply(ctx);
    expect(supply).to.equal(BONDED + NOT_BONDED + 1000n * E18);
    expect(s.keeper.bondedRatio(ctx).toString()).to.equal(Dec.fromInt(BONDED).quoInt(supply).toString());
    expect(s.keeper.bondedRatio(ctx).toString()).to.equal('0.508474576271186440'); // 1050 / 2065, truncated
  });
});
