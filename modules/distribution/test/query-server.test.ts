/** The Query service over ABCI (x/distribution/keeper/grpc_query.go of SDK v0.45), in gateway JSON. */
import { expect } from 'chai';
import { KEYS, msg, rewardedChain, signedTx, valoper } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution Query service over ABCI', () => {
  let s: TestSetup;
  before(async () => {
    s = await rewardedChain({
      validator_slash_events: [
        { validator_address: valoper(3), height: '3', period: '2', validator_slash_event: { validator_period: '2', fraction: '0.500000000000000000' } },
        { validator_address: valoper(3), height: '7', period: '5', validator_slash_event: { validator_period: '5', fraction: '0.010000000000000000' } },
      ],
    });
    const res = await s.chain.deliver(signedTx(s.registry, KEYS[0]!, [msg(s.registry, 'MsgSetWithdrawAddress', { delegator_address: KEYS[1]!.address, withdraw_address: KEYS[3]!.address })]));
    expect(res.code, res.log).to.equal(0);
  });
  after(async () => {
    await s.chain.close();
  });

  /** query by method; returns [code, gateway JSON or log] */
  async function q(method: string, req: Record<string, unknown>): Promise<[number, unknown]> {
    const path = `/chain.distribution.v1beta1.Query/${method}`;
    const { res, value } = await s.chain.query(path, req);
    if (res.code !== 0) return [res.code, res.log];
    const route = s.chain.app.router.queryRoute(path)!;
    return [0, s.registry.toJSON(route.responseType, value!)];
  }

  it('Params', async () => {
    expect(await q('Params', {})).to.deep.equal([0, {
      params: { community_tax: '0.020000000000000000', base_proposer_reward: '0.010000000000000000', bonus_proposer_reward: '0.040000000000000000', withdraw_addr_enabled: true },
    }]);
  });

  it('ValidatorOutstandingRewards / ValidatorCommission (unknown validator: empty)', async () => {
    expect(await q('ValidatorOutstandingRewards', { validator_address: valoper(0) })).to.deep.equal([0, { rewards: { rewards: [{ denom: 'stake', amount: '46.500000000000000000' }] } }]);
    expect(await q('ValidatorCommission', { validator_address: valoper(0) })).to.deep.equal([0, { commission: { commission: [{ denom: 'stake', amount: '23.250000000000000000' }] } }]);
    expect(await q('ValidatorOutstandingRewards', { validator_address: valoper(3) })).to.deep.equal([0, { rewards: { rewards: [] } }]);
    const [code, log] = await q('ValidatorCommission', { validator_address: '' });
    expect(code).to.not.equal(0);
    expect(log).to.contain('empty validator address');
  });

  it('DelegationRewards as if withdrawn now; errors 12 / 13', async () => {
    expect(await q('DelegationRewards', { delegator_address: KEYS[0]!.address, validator_address: valoper(0) })).to.deep.equal([0, { rewards: [{ denom: 'stake', amount: '23.250000000000000000' }] }]);
    expect(await q('DelegationRewards', { delegator_address: KEYS[1]!.address, validator_address: valoper(1) })).to.deep.equal([0, { rewards: [{ denom: 'stake', amount: '51.500000000000000000' }] }]);
    const [c12, l12] = await q('DelegationRewards', { delegator_address: KEYS[0]!.address, validator_address: valoper(3) });
    expect(c12).to.equal(12);
    expect(l12).to.contain(`${valoper(3)}: validator does not exist`);
    const [c13, l13] = await q('DelegationRewards', { delegator_address: KEYS[2]!.address, validator_address: valoper(0) });
    expect(c13).to.equal(13);
    expect(l13).to.contain('delegation does not exist');
    // the query wrote nothing: the current period is unchanged
    expect(s.keeper.getCurrentRewards(s.chain.ctx(), KEYS[0]!.addr).period).to.equal(1n);
  });

  it('DelegationTotalRewards, DelegatorValidators, DelegatorWithdrawAddress', async () => {
    expect(await q('DelegationTotalRewards', { delegator_address: KEYS[0]!.address })).to.deep.equal([0, {
      rewards: [{ validator_address: valoper(0), reward: [{ denom: 'stake', amount: '23.250000000000000000' }] }],
      total: [{ denom: 'stake', amount: '23.250000000000000000' }],
    }]);
    expect(await q('DelegatorValidators', { delegator_address: KEYS[1]!.address })).to.deep.equal([0, { validators: [valoper(1)] }]);
    expect(await q('DelegatorWithdrawAddress', { delegator_address: KEYS[0]!.address })).to.deep.equal([0, { withdraw_address: KEYS[0]!.address }]);
    expect(await q('DelegatorWithdrawAddress', { delegator_address: KEYS[1]!.address })).to.deep.equal([0, { withdraw_address: KEYS[3]!.address }]);
    const [code, log] = await q('DelegatorValidators', { delegator_address: '' });
    expect(code).to.not.equal(0);
    expect(log).to.contain('empty delegator address');
  });

  it('CommunityPool', async () => {
    expect(await q('CommunityPool', {})).to.deep.equal([0, { pool: [{ denom: 'stake', amount: '2.000000000000000000' }] }]);
  });

  it('ValidatorSlashes: filtered on validator_period against the height bounds (as v0.45); pagination; starting > ending is InvalidArgument', async () => {
    expect(await q('ValidatorSlashes', { validator_address: valoper(3), starting_height: 0n, ending_height: 100n })).to.deep.equal([0, {
      slashes: [{ validator_period: '2', fraction: '0.500000000000000000' }, { validator_period: '5', fraction: '0.010000000000000000' }],
      pagination: { next_key: null, total: '2' },
    }]);
    expect(await q('ValidatorSlashes', { validator_address: valoper(3), starting_height: 0n, ending_height: 3n })).to.deep.equal([0, {
      slashes: [{ validator_period: '2', fraction: '0.500000000000000000' }],
      pagination: { next_key: null, total: '1' },
    }]);
    const [, page] = await q('ValidatorSlashes', { validator_address: valoper(3), starting_height: 0n, ending_height: 100n, pagination: { offset: 1n, limit: 1n } });
    // (slash events of an operator address with no validator: the query does not look the validator up)
    expect((page as { slashes: unknown[] }).slashes).to.deep.equal([{ validator_period: '5', fraction: '0.010000000000000000' }]);
    expect(await q('ValidatorSlashes', { validator_address: valoper(2), starting_height: 0n, ending_height: 100n })).to.deep.equal([0, { slashes: [], pagination: { next_key: null, total: '0' } }]);
    const [code, log] = await q('ValidatorSlashes', { validator_address: valoper(3), starting_height: 5n, ending_height: 1n });
    expect(code).to.not.equal(0);
    expect(log).to.contain('starting height greater than ending height (5 > 1)');
  });
});
