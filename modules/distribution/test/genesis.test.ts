/** Genesis (x/distribution/genesis.go of SDK v0.45): default, validation, the module balance check, export round trip. */
import { expect } from 'chai';
import { validateDistributionGenesis, defaultDistributionGenesis } from '../src/index.js';
import { KEYS, consCodec, consAddr, defaultGenesisJson, genesis, msg, openChain, rewardedChain, signedTx, valoper } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('distribution genesis', () => {
  let s: TestSetup | undefined;
  afterEach(async () => {
    await s?.chain.close();
    s = undefined;
  });

  it('default genesis: the SDK defaults, exported unchanged after init (previous proposer = the block-1 proposer)', async () => {
    s = await openChain({ proposer: consAddr(2) });
    await s.chain.init(genesis({}, defaultGenesisJson()));
    const g = (await import('../src/genesis.js')).exportGenesis(s.chain.ctx(), s.keeper);
    expect(g).to.deep.equal({ ...defaultDistributionGenesis(), previous_proposer: consCodec.encode(consAddr(2)) });
  });

  it('validateGenesis: params (the SDK messages) and a negative community pool', () => {
    const g = defaultDistributionGenesis();
    expect(() => validateDistributionGenesis({ ...g, params: { ...g.params!, community_tax: '1100000000000000000' } })).to.throw('community tax should be non-negative and less than one: 1.100000000000000000');
    expect(() => validateDistributionGenesis({ ...g, params: { ...g.params!, base_proposer_reward: '-1' } })).to.throw('base proposer reward should be positive');
    expect(() => validateDistributionGenesis({ ...g, params: { ...g.params!, bonus_proposer_reward: '990000000000000000' } })).to.throw(
      'sum of base, bonus proposer rewards, and community tax cannot be greater than one: 1.020000000000000000',
    );
    expect(() => validateDistributionGenesis({ ...g, fee_pool: { community_pool: [{ denom: 'stake', amount: '-5' }] } })).to.throw('negative CommunityPool in distribution fee pool');
    expect(() => validateDistributionGenesis(g)).to.not.throw();
  });

  it('InitGenesis refuses a module balance that does not match the holdings', async () => {
    s = await openChain();
    expect(() => s!.chain.initChain(genesis({}, { ...defaultGenesisJson(), fee_pool: { community_pool: [{ denom: 'stake', amount: '5.5' }] } }))).to.throw(
      'distribution module balance does not match the module holdings:  <-> 5stake',
    );
  });

  it('round trip: every F1 record exported, imported into a new chain and exported again identically', async () => {
    s = await rewardedChain({
      validator_slash_events: [{ validator_address: valoper(3), height: '3', period: '2', validator_slash_event: { validator_period: '2', fraction: '0.500000000000000000' } }],
    });
    const w = await s.chain.deliver(signedTx(s.registry, KEYS[0]!, [msg(s.registry, 'MsgSetWithdrawAddress', { delegator_address: KEYS[0]!.address, withdraw_address: KEYS[3]!.address })]));
    expect(w.code, w.log).to.equal(0);
    const { exportGenesis } = await import('../src/genesis.js');
    const g1 = exportGenesis(s.chain.ctx(), s.keeper);
    expect(g1.delegator_withdraw_infos).to.deep.equal([{ delegator_address: KEYS[0]!.address, withdraw_address: KEYS[3]!.address }]);
    expect(g1.outstanding_rewards.map((r) => r.validator_address)).to.have.members([valoper(0), valoper(1)]);
    expect(g1.validator_historical_rewards).to.have.length(2);
    expect(g1.delegator_starting_infos).to.have.length(2);
    expect(g1.validator_slash_events).to.have.length(1);
    const json = s.registry.toJSON('chain.distribution.v1beta1.GenesisState', g1) as Record<string, unknown>;
    const moduleBalance = s.bk.getBalance(s.chain.ctx(), s.keeper.moduleAddress(), 'stake');
    const s2 = await openChain({ proposer: consAddr(1) });
    try {
      s2.staking.addRaw(0, 100n);
      s2.staking.addRaw(1, 100n);
      await s2.chain.init(genesis({ [s2.addr['distribution']!]: moduleBalance }, json));
      const g2 = exportGenesis(s2.chain.ctx(), s2.keeper);
      expect(s2.registry.toJSON('chain.distribution.v1beta1.GenesisState', g2)).to.deep.equal(json);
    } finally {
      await s2.chain.close();
    }
  });
});
