import { expect } from 'chai';
import { bankInvariants } from '../src/index.js';
import { TestChain, devKey, genesisState, coins, DENOM } from './helpers.js';

describe('bank: invariants (total-supply, nonnegative-outstanding)', () => {
  const A = devKey(0);
  const B = devKey(1);
  let chain: TestChain;

  beforeEach(async () => {
    chain = await TestChain.create();
    await chain.init(genesisState([{ address: A.address, coins: [...coins(1000), { denom: 'afoo', amount: '7' }] }]));
  });
  afterEach(async () => {
    await chain.close();
  });

  it('hold after genesis, sends, mints and burns', () => {
    const inv = bankInvariants(chain.bk);
    const { ctx } = chain.branchCtx();
    expect(inv['total-supply']!(ctx)).to.deep.equal({ broken: false, message: 'bank: total supply invariant\n\tsum of accounts coins: 1000achain,7afoo\n\tsupply.Total:          1000achain,7afoo\n\n' });
    chain.bk.sendCoins(ctx, A.addr, B.addr, coins(400));
    chain.bk.mintCoins(ctx, 'faucet', coins(50));
    chain.bk.burnCoins(ctx, 'faucet', coins(20));
    expect(inv['total-supply']!(ctx).broken).to.equal(false);
    expect(inv['nonnegative-outstanding']!(ctx)).to.deep.equal({ broken: false, message: 'bank: nonnegative-outstanding invariant\namount of negative balances found 0\n\n' });
  });

  it('break when a balance and the supply disagree, or a balance is negative', () => {
    const inv = bankInvariants(chain.bk);
    const { ctx } = chain.branchCtx();
    // a balance written behind the supply's back
    chain.bk.state.Balances.set(ctx, [B.addr, DENOM], 5n);
    const r = inv['total-supply']!(ctx);
    expect(r.broken).to.equal(true);
    expect(r.message).to.equal('bank: total supply invariant\n\tsum of accounts coins: 1005achain,7afoo\n\tsupply.Total:          1000achain,7afoo\n\n');
    chain.bk.state.Balances.set(ctx, [B.addr, 'afoo'], -3n);
    const n = inv['nonnegative-outstanding']!(ctx);
    expect(n.broken).to.equal(true);
    expect(n.message).to.contain(`amount of negative balances found 1\n\t${B.address} has a negative balance of -3afoo\n`);
  });
});
