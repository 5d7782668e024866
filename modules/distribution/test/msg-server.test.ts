/** The Msg service (x/distribution/keeper/msg_server.go of SDK v0.45): checks, errors, events, effects. */
import { expect } from 'chai';
import type { ExecTxResult } from '@chain/app';
import { DENOM, FEE_COLLECTOR, KEYS, decStr, flatEvents, msg, rewardedChain, signedTx, valAddr, valoper } from './helpers.js';
import type { TestSetup } from './helpers.js';
import { Dec } from '@chain/math';

describe('distribution Msg service', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await rewardedChain();
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const send = (type: string, value: Record<string, unknown>, key = KEYS[0]!): Promise<ExecTxResult> =>
    s.chain.deliver(signedTx(s.registry, key, [msg(s.registry, type, value)]));
  const events = (res: ExecTxResult) => flatEvents(res.events).filter(([t]) => t !== 'tx');
  const bal = (i: number) => s.bk.getBalance(s.chain.ctx(), KEYS[i]!.addr, DENOM);

  describe('SetWithdrawAddress', () => {
    it('stores it, set_withdraw_address + the message event (action, module, sender); rewards then go there', async () => {
      const res = await send('MsgSetWithdrawAddress', { delegator_address: KEYS[0]!.address, withdraw_address: KEYS[3]!.address });
      expect(res.code, res.log).to.equal(0);
      const ev = events(res);
      expect(ev).to.deep.include(['set_withdraw_address', { withdraw_address: KEYS[3]!.address }]);
      expect(ev).to.deep.include(['message', { action: '/chain.distribution.v1beta1.MsgSetWithdrawAddress', module: 'distribution', sender: KEYS[0]!.address }]);
      const w = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[0]!.address, validator_address: valoper(0) });
      expect(w.code, w.log).to.equal(0);
      expect(s.bk.getBalance(s.chain.ctx(), KEYS[3]!.addr, DENOM)).to.equal(23n);
    });

    it('errors: empty delegator (distribution 2), empty withdraw (3), blocked address (sdk 4), disabled (8)', async () => {
      const e2 = await send('MsgSetWithdrawAddress', { delegator_address: '', withdraw_address: KEYS[3]!.address });
      expect([e2.codespace, e2.code]).to.deep.equal(['distribution', 2]);
      const e3 = await send('MsgSetWithdrawAddress', { delegator_address: KEYS[0]!.address, withdraw_address: '' });
      expect([e3.codespace, e3.code]).to.deep.equal(['distribution', 3]);
      const e4 = await send('MsgSetWithdrawAddress', { delegator_address: KEYS[0]!.address, withdraw_address: s.addr[FEE_COLLECTOR] });
      expect([e4.codespace, e4.code]).to.deep.equal(['sdk', 4]);
      expect(e4.log).to.contain(`${s.addr[FEE_COLLECTOR]} is not allowed to receive external funds`);
      await s.chain.close();
      s = await rewardedChain({
        params: { community_tax: '0.020000000000000000', base_proposer_reward: '0.010000000000000000', bonus_proposer_reward: '0.040000000000000000', withdraw_addr_enabled: false },
      });
      const e8 = await send('MsgSetWithdrawAddress', { delegator_address: KEYS[0]!.address, withdraw_address: KEYS[3]!.address });
      expect([e8.codespace, e8.code]).to.deep.equal(['distribution', 8]);
      expect(e8.log).to.contain('set withdraw address disabled');
    });
  });

  describe('WithdrawDelegatorReward', () => {
    it('pays the integer part, dust to the community pool, withdraw_rewards + message; re-initializes the delegation', async () => {
      const before = bal(0);
      const res = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[0]!.address, validator_address: valoper(0) });
      expect(res.code, res.log).to.equal(0);
      expect(bal(0)).to.equal(before + 23n);
      const ev = events(res);
      expect(ev).to.deep.include(['withdraw_rewards', { amount: '23stake', validator: valoper(0) }]);
      expect(ev).to.deep.include(['message', { action: '/chain.distribution.v1beta1.MsgWithdrawDelegatorReward', module: 'distribution', sender: KEYS[0]!.address }]);
      const ctx = s.chain.ctx();
      // 2 + 0.25 dust
      expect(s.keeper.getFeePoolCommunityCoins(ctx).toString()).to.equal(decStr(Dec.fromString('2.25')));
      expect(s.keeper.getOutstandingRewards(ctx, valAddr(0)).toString()).to.equal(decStr(Dec.fromString('23.25')));
      const info = s.keeper.getStartingInfo(ctx, valAddr(0), KEYS[0]!.addr)!;
      expect(info.height).to.equal(BigInt(s.chain.app.lastHeight));
      // nothing more to withdraw: amount ""
      const again = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[0]!.address, validator_address: valoper(0) });
      expect(again.code, again.log).to.equal(0);
      expect(events(again)).to.deep.include(['withdraw_rewards', { amount: '', validator: valoper(0) }]);
    });

    it('errors: empty delegator (2), empty validator (4), unknown validator (6), no delegation (5)', async () => {
      const e2 = await send('MsgWithdrawDelegatorReward', { delegator_address: '', validator_address: valoper(0) });
      expect([e2.codespace, e2.code]).to.deep.equal(['distribution', 2]);
      const e4 = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[0]!.address, validator_address: '' });
      expect([e4.codespace, e4.code]).to.deep.equal(['distribution', 4]);
      const e6 = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[0]!.address, validator_address: valoper(3) });
      expect([e6.codespace, e6.code, e6.log]).to.deep.equal(['distribution', 6, 'failed to execute message; message index: 0: no validator distribution info']);
      const e5 = await send('MsgWithdrawDelegatorReward', { delegator_address: KEYS[2]!.address, validator_address: valoper(0) });
      expect([e5.codespace, e5.code, e5.log]).to.deep.equal(['distribution', 5, 'failed to execute message; message index: 0: no delegation distribution info']);
    });
  });

  describe('WithdrawValidatorCommission', () => {
    it('pays the integer part to the operator account, keeps the dust, withdraw_commission + message{sender=valoper}', async () => {
      const before = bal(0);
      const res = await send('MsgWithdrawValidatorCommission', { validator_address: valoper(0) });
      expect(res.code, res.log).to.equal(0);
      expect(bal(0)).to.equal(before + 23n);
      const ev = events(res);
      expect(ev).to.deep.include(['withdraw_commission', { amount: '23stake' }]);
      expect(ev).to.deep.include(['message', { action: '/chain.distribution.v1beta1.MsgWithdrawValidatorCommission', module: 'distribution', sender: valoper(0) }]);
      const ctx = s.chain.ctx();
      expect(s.keeper.getAccumulatedCommission(ctx, valAddr(0)).toString()).to.equal(decStr(Dec.fromString('0.25')));
      expect(s.keeper.getOutstandingRewards(ctx, valAddr(0)).toString()).to.equal(decStr(Dec.fromString('23.5')));
    });

    it('errors: empty validator (4), no commission (7)', async () => {
      const e4 = await send('MsgWithdrawValidatorCommission', { validator_address: '' });
      expect([e4.codespace, e4.code]).to.deep.equal(['distribution', 4]);
      const e7 = await send('MsgWithdrawValidatorCommission', { validator_address: valoper(1) });
      expect([e7.codespace, e7.code, e7.log]).to.deep.equal(['distribution', 7, 'failed to execute message; message index: 0: no validator commission to withdraw']);
    });
  });

  describe('FundCommunityPool', () => {
    it('moves the coins to the module account and adds them to the pool', async () => {
      const res = await send('MsgFundCommunityPool', { amount: [{ denom: DENOM, amount: '10' }], depositor: KEYS[2]!.address }, KEYS[2]!);
      expect(res.code, res.log).to.equal(0);
      expect(events(res)).to.deep.include(['message', { action: '/chain.distribution.v1beta1.MsgFundCommunityPool', module: 'distribution', sender: KEYS[2]!.address }]);
      const ctx = s.chain.ctx();
      expect(s.keeper.getFeePoolCommunityCoins(ctx).toString()).to.equal(decStr(12));
      expect(s.bk.getBalance(ctx, s.keeper.moduleAddress(), DENOM)).to.equal(110n);
    });

    it('accepts an empty amount, as v0.45 (an empty Coins is valid): nothing moves', async () => {
      const ctx0 = s.chain.ctx();
      const pool0 = s.keeper.getFeePoolCommunityCoins(ctx0).toString();
      const bal0 = s.bk.getBalance(ctx0, s.keeper.moduleAddress(), DENOM);
      const res = await send('MsgFundCommunityPool', { amount: [], depositor: KEYS[2]!.address }, KEYS[2]!);
      expect(res.code, res.log).to.equal(0);
      const ctx = s.chain.ctx();
      expect(s.keeper.getFeePoolCommunityCoins(ctx).toString()).to.equal(pool0);
      expect(s.bk.getBalance(ctx, s.keeper.moduleAddress(), DENOM)).to.equal(bal0);
    });

    it('errors: invalid coins (sdk 10), empty depositor (sdk 7), insufficient funds (sdk 5)', async () => {
      const e10 = await send('MsgFundCommunityPool', { amount: [{ denom: DENOM, amount: '0' }], depositor: KEYS[2]!.address }, KEYS[2]!);
      expect([e10.codespace, e10.code]).to.deep.equal(['sdk', 10]);
      expect(e10.log).to.contain('0stake: invalid coins');
      const e7 = await send('MsgFundCommunityPool', { amount: [{ denom: DENOM, amount: '1' }], depositor: '' }, KEYS[2]!);
      expect([e7.codespace, e7.code]).to.deep.equal(['sdk', 7]);
      const e5 = await send('MsgFundCommunityPool', { amount: [{ denom: DENOM, amount: '5000' }], depositor: KEYS[2]!.address }, KEYS[2]!);
      expect([e5.codespace, e5.code]).to.deep.equal(['sdk', 5]);
      expect(s.keeper.getFeePoolCommunityCoins(s.chain.ctx()).toString()).to.equal(decStr(2));
    });
  });
});
