import { expect } from 'chai';
import { Errors } from '@chain/errors';
import { FEE_COLLECTOR } from '@chain/auth';
import { BankErrors } from '../src/index.js';
import { TestChain, devKey, genesisState, coins, flatEvents, DENOM } from './helpers.js';

describe('bank: keeper (mint, burn, module transfers)', () => {
  const A = devKey(0);
  const B = devKey(1);
  let chain: TestChain;

  beforeEach(async () => {
    chain = await TestChain.create();
    await chain.init(genesisState([{ address: A.address, coins: coins(1000) }]));
  });
  afterEach(async () => {
    await chain.close();
  });

  const moduleAddr = (name: string): string => chain.codec.encode(chain.ak.getModuleAddress(name));

  it('mints to a module with the minter permission: balance, supply and events', () => {
    const { ctx, events } = chain.branchCtx();
    chain.bk.mintCoins(ctx, 'faucet', coins(250));
    expect(chain.bk.getBalance(ctx, chain.ak.getModuleAddress('faucet'), DENOM)).to.equal(250n);
    expect(chain.bk.getSupply(ctx, DENOM)).to.equal(1250n);
    expect(flatEvents(events.events)).to.deep.equal([
      ['coin_received', [['receiver', moduleAddr('faucet')], ['amount', '250achain']]],
      ['coinbase', [['minter', moduleAddr('faucet')], ['amount', '250achain']]],
    ]);
    // the committed state did not move: the context writes to a branch
    expect(chain.supply()).to.equal(1000n);
  });

  it('refuses to mint or burn without the permission (sdk code 4)', () => {
    const { ctx } = chain.branchCtx();
    const expectUnauthorized = (f: () => void, log: string): void => {
      try {
        f();
        expect.fail('should have thrown');
      } catch (e) {
        expect(Errors.Unauthorized.is(e), String(e)).to.equal(true);
        expect((e as Error).message).to.equal(log);
      }
    };
    expectUnauthorized(() => chain.bk.mintCoins(ctx, FEE_COLLECTOR, coins(1)), 'module account fee_collector does not have permissions to mint tokens: unauthorized');
    expectUnauthorized(() => chain.bk.burnCoins(ctx, 'mintonly', coins(1)), 'module account mintonly does not have permissions to burn tokens: unauthorized');
    expectUnauthorized(() => chain.bk.burnCoins(ctx, FEE_COLLECTOR, coins(1)), 'module account fee_collector does not have permissions to burn tokens: unauthorized');
    expect(chain.bk.getSupply(ctx, DENOM)).to.equal(1000n);
  });

  it('a minter-only module can mint; burning needs the burner permission and enough balance', () => {
    const { ctx, events } = chain.branchCtx();
    chain.bk.mintCoins(ctx, 'mintonly', coins(5, 'newcoin'));
    expect(chain.bk.getSupply(ctx, 'newcoin')).to.equal(5n);
    chain.bk.mintCoins(ctx, 'faucet', coins(10, 'newcoin'));
    expect(() => chain.bk.burnCoins(ctx, 'faucet', coins(11, 'newcoin'))).to.throw('spendable balance 10newcoin is smaller than 11newcoin: insufficient funds');
    events.events.length = 0;
    chain.bk.burnCoins(ctx, 'faucet', coins(10, 'newcoin'));
    expect(chain.bk.getSupply(ctx, 'newcoin')).to.equal(5n);
    expect(chain.bk.getBalance(ctx, chain.ak.getModuleAddress('faucet'), 'newcoin')).to.equal(0n);
    expect(flatEvents(events.events)).to.deep.equal([
      ['coin_spent', [['spender', moduleAddr('faucet')], ['amount', '10newcoin']]],
      ['burn', [['burner', moduleAddr('faucet')], ['amount', '10newcoin']]],
    ]);
  });

  it('burning the whole supply of a denom removes it from the supply store', () => {
    const { ctx } = chain.branchCtx();
    chain.bk.mintCoins(ctx, 'faucet', coins(3, 'gone'));
    chain.bk.burnCoins(ctx, 'faucet', coins(3, 'gone'));
    expect(chain.bk.getSupply(ctx, 'gone')).to.equal(0n);
    const denoms = chain.bk.state.Supply.keys(ctx).toArray();
    expect(denoms).to.deep.equal([DENOM]);
    expect(chain.bk.getAllBalances(ctx, chain.ak.getModuleAddress('faucet'))).to.deep.equal([]);
  });

  it('module → account transfers refuse blocked addresses; account → module transfers are allowed', () => {
    const { ctx } = chain.branchCtx();
    chain.bk.mintCoins(ctx, 'faucet', coins(100));
    expect(() => chain.bk.sendCoinsFromModuleToAccount(ctx, 'faucet', chain.ak.getModuleAddress(FEE_COLLECTOR), coins(1)))
      .to.throw(`${moduleAddr(FEE_COLLECTOR)} is not allowed to receive funds: unauthorized`);
    chain.bk.sendCoinsFromModuleToAccount(ctx, 'faucet', B.addr, coins(40));
    expect(chain.bk.getBalance(ctx, B.addr, DENOM)).to.equal(40n);
    expect(chain.ak.hasAccount(ctx, B.addr)).to.equal(true);
    chain.bk.sendCoinsFromAccountToModule(ctx, A.addr, FEE_COLLECTOR, coins(7));
    chain.bk.sendCoinsFromModuleToModule(ctx, 'faucet', FEE_COLLECTOR, coins(60));
    expect(chain.bk.getBalance(ctx, chain.ak.getModuleAddress(FEE_COLLECTOR), DENOM)).to.equal(67n);
    expect(chain.bk.getBalance(ctx, A.addr, DENOM)).to.equal(993n);
    expect(chain.bk.getSupply(ctx, DENOM)).to.equal(1100n);
  });

  it('getAllBalances lists denoms in sorted order without zero entries', () => {
    const { ctx } = chain.branchCtx();
    chain.bk.addCoins(ctx, B.addr, [{ denom: 'zeta', amount: '1' }]);
    chain.bk.addCoins(ctx, B.addr, [{ denom: 'alpha', amount: '2' }, { denom: 'mid', amount: '3' }]);
    chain.bk.subCoins(ctx, B.addr, [{ denom: 'mid', amount: '3' }]);
    expect(chain.bk.getAllBalances(ctx, B.addr)).to.deep.equal([{ denom: 'alpha', amount: '2' }, { denom: 'zeta', amount: '1' }]);
    expect(() => chain.bk.addCoins(ctx, B.addr, [{ denom: 'b', amount: '1' }])).to.throw('invalid denom: b: invalid coins');
    expect(() => chain.bk.subCoins(ctx, B.addr, [{ denom: 'alpha', amount: '-1' }])).to.throw('invalid amount: -1: invalid coins');
  });

  it('isSendEnabledCoins: explicit entries override the default', () => {
    const { ctx } = chain.branchCtx();
    chain.bk.setParams(ctx, { send_enabled: [{ denom: 'foo', enabled: false }], default_send_enabled: true });
    expect(chain.bk.getSendEnabled(ctx, 'foo')).to.equal(false);
    expect(chain.bk.getSendEnabled(ctx, 'bar')).to.equal(undefined);
    expect(() => chain.bk.isSendEnabledCoins(ctx, coins(1, 'bar'))).to.not.throw();
    try {
      chain.bk.isSendEnabledCoins(ctx, [{ denom: 'bar', amount: '1' }, { denom: 'foo', amount: '1' }]);
      expect.fail('should have thrown');
    } catch (e) {
      expect(BankErrors.SendDisabled.is(e)).to.equal(true);
      expect((e as Error).message).to.equal('foo transfers are currently disabled: send transactions are disabled');
    }
    chain.bk.setParams(ctx, { send_enabled: [], default_send_enabled: false });
    expect(() => chain.bk.isSendEnabledCoins(ctx, coins(1, 'bar'))).to.throw('bar transfers are currently disabled');
    expect(() => chain.bk.isSendEnabledCoins(ctx, [])).to.not.throw();
  });
});
