/**
 * tendermint/liquidity v1.4.5 `x/liquidity/keeper/msg_server_test.go`, `x/liquidity/handler_test.go`,
 * `x/liquidity/keeper/genesis_test.go`, `x/liquidity/genesis_test.go`, `keeper/keeper_test.go` `TestCircuitBreakerEnabled`
 * and `keeper/invariants_test.go` `TestLiquidityPoolsEscrowAmountInvariant`,
 * ported with their expected values in the Go tests' style (test/helpers.ts `GoCtx`). Where the Go test calls the
 * keeper (msg_server_test.go: "approached at the keeper level") we call the keeper; where it calls the handler
 * (handler_test.go) we call our msg server (`createLiquidityMsgServer`, which runs ValidateBasic first).
 * `app.SaveAccount` is a send from a funded genesis account (`FAUCET`); the pool creation fee is `achain`.
 */
import { expect } from 'chai';
import { Context } from '@chain/app';
import { branch } from '@chain/store';
import {
  LiquidityErrors, createLiquidityMsgServer, defaultLiquidityGenesis, escrowAmountInvariant, exportLiquidityGenesis, initLiquidityGenesis,
  validateLiquidityGenesis,
  validatePoolRecordState, LIQUIDITY_MODULE_NAME,
} from '../src/index.js';
import type { MsgSwapWithinBatch, Pool } from '../src/index.js';
import { GoCtx, MODULE_ACCOUNTS, c, codec, codeOf, dec, devKey, genesis, kmsg, offerFee, openChain, startChain } from './helpers.js';
import { BankModule } from '@chain/bank';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const E6 = 1_000_000n;
const FAUCET = devKey(9);
const BIG = 10n ** 30n;
const code = (e: { error(): { codespace: string; code: number } }) => `${e.error().codespace}:${e.error().code}`;
const denoms = ['achain', 'denomX', 'denomY', 'uETH', 'uUSD'];
const addr = (i: number) => devKey(i).address;

describe('liquidity: ported msg server, handler, genesis and escrow invariant tests (Go style)', function () {
  this.timeout(120_000);
  const open: TestSetup[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const start = async (params: Parameters<typeof startChain>[1] = {}) => {
    const s = await startChain({ 9: denoms.map((d) => c(BIG, d)) }, params);
    open.push(s);
    const g = new GoCtx(s);
    return { s, g, k: s.keeper, save: (to: string | Uint8Array, coins: ReturnType<typeof c>[]) => g.send(FAUCET.address, to, [...coins].sort((a, b) => (a.denom < b.denom ? -1 : 1))) };
  };
  const uDeposit = [c(100n * E6, 'uETH'), c(2000n * E6, 'uUSD')];

  // keeper/msg_server_test.go TestMsgCreatePool (keeper) and handler_test.go TestMsgServerCreatePool (handler)
  for (const via of ['keeper (msg_server_test.go TestMsgCreatePool)', 'msg server (handler_test.go TestMsgServerCreatePool)']) {
    it(`${via}: pool 1 of uETH/uUSD, the creator holds the supply; the same msg again → ErrPoolAlreadyExists (11)`, async () => {
      const { g, k, save } = await start();
      save(addr(0), [...uDeposit, c(FEE, 'achain')]);
      const m = kmsg.create(addr(0), uDeposit);
      if (via.startsWith('keeper')) k.createPool(g.ctx, m);
      else createLiquidityMsgServer(k).CreatePool(g.ctx, m);
      const pools = k.getAllPools(g.ctx);
      expect(pools.map((p) => [p.id, ...p.reserve_coin_denoms])).to.deep.equal([[1n, 'uETH', 'uUSD']]);
      expect(k.state.NextPoolId.get(g.ctx)!.value - 1n).to.equal(1n);
      expect(g.balance(addr(0), pools[0]!.pool_coin_denom)).to.equal(k.getPoolCoinTotalSupply(g.ctx, pools[0]!));
      expect(codeOf(() => k.createPool(g.ctx, m))).to.equal(code(LiquidityErrors.PoolAlreadyExists));
    });
  }

  for (const via of ['keeper (msg_server_test.go TestMsgDepositWithinBatch)', 'msg server (handler_test.go TestMsgServerExecuteDeposit)']) {
    it(`${via}: a deposit equal to the reserves, ExecuteDeposit: the depositor holds the new pool coins (10^6)`, async () => {
      const { g, k, save } = await start();
      save(addr(0), [...uDeposit, c(FEE, 'achain')]);
      save(addr(1), uDeposit);
      const pool = k.createPool(g.ctx, kmsg.create(addr(0), uDeposit));
      const before = k.getPoolCoinTotalSupply(g.ctx, pool);
      const m = kmsg.deposit(addr(1), pool.id, uDeposit);
      if (via.startsWith('keeper')) k.depositWithinBatch(g.ctx, m);
      else createLiquidityMsgServer(k).DepositWithinBatch(g.ctx, m);
      const batch = k.getBatch(g.ctx, pool.id)!;
      const msgs = k.depositMsgStates(g.ctx, pool.id);
      expect(msgs).to.have.length(1);
      k.executeDeposit(g.ctx, msgs[0]!, batch);
      expect(g.balance(addr(1), pool.pool_coin_denom)).to.equal(k.getPoolCoinTotalSupply(g.ctx, pool) - before);
      expect(g.balance(addr(1), pool.pool_coin_denom)).to.equal(E6);
    });
  }

  for (const via of ['keeper (msg_server_test.go TestMsgWithdrawWithinBatch)', 'msg server (handler_test.go TestMsgServerExecuteWithdrawal)']) {
    it(`${via}: withdrawing every pool coin, ExecuteWithdrawal: supply 0 and the creator has the whole deposit back`, async () => {
      const { g, k, save } = await start();
      save(addr(0), [...uDeposit, c(FEE, 'achain')]);
      const pool = k.createPool(g.ctx, kmsg.create(addr(0), uDeposit));
      const supply = k.getPoolCoinTotalSupply(g.ctx, pool);
      expect(g.balance(addr(0), pool.pool_coin_denom)).to.equal(supply);
      const m = kmsg.withdraw(addr(0), pool.id, c(supply, pool.pool_coin_denom));
      if (via.startsWith('keeper')) k.withdrawWithinBatch(g.ctx, m);
      else createLiquidityMsgServer(k).WithdrawWithinBatch(g.ctx, m);
      const msgs = k.withdrawMsgStates(g.ctx, pool.id);
      expect(msgs).to.have.length(1);
      k.executeWithdrawal(g.ctx, msgs[0]!, k.getBatch(g.ctx, pool.id)!);
      // the Go test's `require.True(t, true, x.IsZero())` asserts nothing; asserted here
      expect([k.getPoolCoinTotalSupply(g.ctx, pool), g.balance(addr(0), pool.pool_coin_denom)]).to.deep.equal([0n, 0n]);
      expect([g.balance(addr(0), 'uETH'), g.balance(addr(0), 'uUSD')]).to.deep.equal([100n * E6, 2000n * E6]);
    });
  }

  for (const via of ['keeper (msg_server_test.go TestMsgGetLiquidityPoolMetadata)', 'msg server (handler_test.go TestMsgServerGetLiquidityPoolMetadata)']) {
    it(`${via}: the pool's metadata (genesis export's pool_metadata): id 1, reserves = the deposit, supply = the creator's pool coins`, async () => {
      const { g, k, save } = await start();
      save(addr(0), [...uDeposit, c(FEE, 'achain')]);
      const m = kmsg.create(addr(0), uDeposit);
      if (via.startsWith('keeper')) k.createPool(g.ctx, m);
      else createLiquidityMsgServer(k).CreatePool(g.ctx, m);
      const pool = k.getAllPools(g.ctx)[0]!;
      expect(codeOf(() => k.createPool(g.ctx, m))).to.equal(code(LiquidityErrors.PoolAlreadyExists));
      const meta = exportLiquidityGenesis(g.ctx, k).pool_records[0]!.pool_metadata!;
      expect(meta.pool_id).to.equal(pool.id);
      expect(meta.reserve_coins).to.deep.equal(k.getReserveCoins(g.ctx, pool));
      expect(meta.reserve_coins).to.deep.equal(uDeposit);
      expect(meta.pool_coin_total_supply).to.deep.equal(c(k.getPoolCoinTotalSupply(g.ctx, pool), pool.pool_coin_denom));
      expect(meta.pool_coin_total_supply).to.deep.equal(c(g.balance(addr(0), pool.pool_coin_denom), pool.pool_coin_denom));
    });
  }

  it('msg_server_test.go TestMsgSwapWithinBatch: the 12 cases (each in its own cache context at height 1, EndBlock when accepted): the user\'s balances after, the escrow empty', async () => {
    const { s, g, k, save } = await start();
    const X = 'denomX';
    const Y = 'denomY';
    const depositCoins = [c(1_000_000_000n, X), c(1_000_000_000n, Y)];
    const depositor = addr(0);
    const user = addr(1);
    save(depositor, [...depositCoins, c(FEE, 'achain')]);
    save(user, [c(1_000_000_000n, X), c(1_000_000_000n, Y)]);
    const pool = k.createPool(g.ctx, kmsg.create(depositor, depositCoins));
    const m = (offer: bigint, fee: ReturnType<typeof c>, demand = Y): MsgSwapWithinBatch => ({
      swap_requester_address: user, pool_id: pool.id, swap_type_id: pool.type_id, offer_coin: c(offer, X), offer_coin_fee: fee,
      demand_coin_denom: demand, order_price: dec('1.00002'),
    });
    const bal = (x: bigint, y: bigint) => [c(x, X), c(y, Y)];
    const BAD_FEE = 'bad offer coin fee';
    const cases: [string, string, MsgSwapWithinBatch, ReturnType<typeof c>[]][] = [
      ['', '0.003', m(10000n, c(offerFee(10000n), X)), bal(999989985n, 1000009984n)],
      [BAD_FEE, '0.003', m(10000n, c(15, Y)), bal(1_000_000_000n, 1_000_000_000n)], // bad offer coin fee denom
      [BAD_FEE, '0.003', m(10000n, c(14, X)), bal(1_000_000_000n, 1_000_000_000n)],
      [BAD_FEE, '0.003', m(10000n, c(16, X)), bal(1_000_000_000n, 1_000_000_000n)],
      ['', '0.003', m(10001n, c(16, X)), bal(999989983n, 1000009984n)],
      ['', '0.003', m(100n, c(1, X)), bal(999999899n, 1000000098n)],
      [BAD_FEE, '0.003', m(100n, c(0, X)), bal(1_000_000_000n, 1_000_000_000n)],
      ['', '0.003', m(1000n, c(2, X)), bal(999998998n, 1000000997n)],
      [BAD_FEE, '0.003', m(1000n, c(1, X)), bal(1_000_000_000n, 1_000_000_000n)],
      ['', '0', m(1000n, c(0, X)), bal(999999000n, 1000000999n)],
      ['does not match the reserve coin of the pool', '0.003', m(10000n, c(offerFee(10000n), X), 'denomA'), bal(1_000_000_000n, 1_000_000_000n)],
      ['can not exceed max order ratio of reserve coins that can be ordered at a order', '0.003', m(100_000_001n, c(offerFee(100_000_001n), X)), bal(1_000_000_000n, 1_000_000_000n)],
    ];
    const escrowAddr = s.ak.getModuleAddress(LIQUIDITY_MODULE_NAME);
    const results = cases.map(([, rate, msg]) => {
      const ctx = new Context(branch(g.ctx.ms), { ...g.ctx.block, height: 1 }, 'block');
      k.setParams(ctx, { ...k.getParams(ctx), swap_fee_rate: dec(rate) });
      let err = '';
      try {
        k.swapWithinBatch(ctx, msg);
        k.executePoolBatches(ctx);
      } catch (e) {
        err = (e as { registered?: { description: string } }).registered?.description ?? String(e);
      }
      return [err, s.bank.getAllBalances(ctx, escrowAddr), s.bank.getAllBalances(ctx, codec.decode(user))];
    });
    expect(results).to.deep.equal(cases.map(([err, , , after]) => [err, [], after]));
  });

  it('handler_test.go TestMsgServerSwap: pool 10^6/10^6, a deposit executed, next block; 3 × 10000 X at 1.1 and 5000 Y at 1.2 through the msg server: 4 swap msgs in the batch, none processed', async () => {
    const { g, k, save } = await start();
    const params = k.getParams(g.ctx);
    const X = BigInt(params.min_init_deposit_amount);
    const Y = X;
    save(addr(0), [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')]);
    const pool = k.createPool(g.ctx, kmsg.create(addr(0), [c(X, 'denomX'), c(Y, 'denomY')]));
    // app.TestDepositPool(X, Y, addrs[1:2], withEndblock)
    save(addr(1), [c(X, 'denomX'), c(Y, 'denomY')]);
    k.depositWithinBatch(g.ctx, kmsg.deposit(addr(1), pool.id, [c(X, 'denomX'), c(Y, 'denomY')]));
    g.end();
    expect(g.balance(addr(1), pool.pool_coin_denom)).to.equal(E6);
    g.next();
    g.begin();
    const server = createLiquidityMsgServer(k);
    // app.GetSwapMsg: each address funded with offer + fee when short of the offer
    const orders: [string, bigint, string, string, string][] = [
      [addr(1), 10000n, 'denomX', 'denomY', '1.1'], [addr(2), 10000n, 'denomX', 'denomY', '1.1'], [addr(3), 10000n, 'denomX', 'denomY', '1.1'],
      [addr(5), 5000n, 'denomY', 'denomX', '1.2'],
    ];
    for (const [who, amount, offer, demand, price] of orders) {
      if (g.balance(who, offer) < amount) save(who, [c(amount + offerFee(amount), offer)]);
      server.Swap(g.ctx, kmsg.swap(who, pool.id, c(amount, offer), demand, price));
    }
    const msgs = k.swapMsgStates(g.ctx, pool.id);
    expect(msgs).to.have.length(4);
    expect(msgs.filter((m) => !m.executed && !m.succeeded && !m.to_be_deleted)).to.have.length(4); // GetAllNotProcessedPoolBatchSwapMsgStates
  });

  it('keeper/keeper_test.go TestCircuitBreakerEnabled: false by default; true once set in the params', async () => {
    const { g, k } = await start();
    expect(k.getParams(g.ctx).circuit_breaker_enabled).to.equal(false);
    k.setParams(g.ctx, { ...k.getParams(g.ctx), circuit_breaker_enabled: true });
    expect(k.getParams(g.ctx).circuit_breaker_enabled).to.equal(true);
  });

  it('keeper/genesis_test.go TestGenesis: the default swap fee rate 0.003; set to 0.005, the export has 0.005', async () => {
    const { g, k } = await start();
    expect(k.getParams(g.ctx).swap_fee_rate).to.equal(dec('0.003'));
    k.setParams(g.ctx, { ...k.getParams(g.ctx), swap_fee_rate: dec('0.005') });
    expect(exportLiquidityGenesis(g.ctx, k).params!.swap_fee_rate).to.equal(dec('0.005'));
  });

  it('keeper/genesis_test.go TestGenesisState: the params errors; pool 10^8/2·10^8, deposit 3·10^7/2·10^7 → 10^5 pool coins (supply / 10), 2·10^7 X refunded; the export validates; a pool of type 5 → ErrPoolTypeNotExists (2); InitGenesis without the bank state throws', async () => {
    const { g, k, save } = await start();
    const defaults = k.getParams(g.ctx);
    expect(errOf(() => validateLiquidityGenesis({ ...exportLiquidityGenesis(g.ctx, k), params: { ...defaults, pool_creation_fee: [{ denom: 'invalid denom---', amount: '0' }] } })))
      .to.equal('invalid denom: invalid denom---');
    expect(errOf(() => validateLiquidityGenesis({ ...exportLiquidityGenesis(g.ctx, k), params: { ...defaults, swap_fee_rate: dec('-1') } })))
      .to.equal('swap fee rate must not be negative: -1.000000000000000000');

    save(addr(0), [c(100_000_000n, 'denomX'), c(200_000_000n, 'denomY'), c(FEE, 'achain')]);
    const pool: Pool = k.createPool(g.ctx, kmsg.create(addr(0), [c(100_000_000n, 'denomX'), c(200_000_000n, 'denomY')]));
    const poolCoins = k.getPoolCoinTotalSupply(g.ctx, pool);
    save(addr(1), [c(30_000_000n, 'denomX'), c(20_000_000n, 'denomY')]);
    k.depositWithinBatch(g.ctx, kmsg.deposit(addr(1), pool.id, [c(30_000_000n, 'denomX'), c(20_000_000n, 'denomY')]));
    g.end();
    expect(g.balance(addr(1), pool.pool_coin_denom)).to.equal(100_000n);
    expect(g.balance(addr(1), pool.pool_coin_denom)).to.equal(poolCoins / 10n);
    expect([g.balance(addr(1), 'denomX'), g.balance(addr(1), 'denomY')]).to.deep.equal([20_000_000n, 0n]);

    g.next();
    g.begin();
    const exported = exportLiquidityGenesis(g.ctx, k);
    expect(errOf(() => validateLiquidityGenesis({ ...exported, params: defaults }))).to.equal('');

    k.setPool(g.ctx, { ...pool, type_id: 5 });
    const broken = exportLiquidityGenesis(g.ctx, k);
    expect(errOf(() => validateLiquidityGenesis(broken))).to.equal('');
    expect(broken.pool_records).to.have.length(1);
    expect(codeOf(() => validatePoolRecordState(g.ctx, k, broken.pool_records[0]!))).to.equal(code(LiquidityErrors.PoolTypeNotExists));
    expect(k.getReserveCoins(g.ctx, pool)).to.have.length(2);

    // simapp2 / simapp3: InitGenesis of the export on a chain without its bank state panics (here: throws)
    const s2 = await openChain();
    open.push(s2);
    await s2.chain.init(genesis(s2, {}));
    const g2 = new GoCtx(s2);
    expect(() => initLiquidityGenesis(g2.ctx, s2.keeper, exported)).to.throw();
    // the reserves present but no pool coins: still refused (the pool coin supply differs: 19)
    const s3 = await openChain();
    open.push(s3);
    const gen3 = genesis(s3, {}) as { bank: { balances: { address: string; coins: ReturnType<typeof c>[] }[] } };
    gen3.bank.balances.push({ address: pool.reserve_account_address, coins: k.getReserveCoins(g.ctx, pool) });
    await s3.chain.init(gen3);
    const g3 = new GoCtx(s3);
    g3.setHeight(g.height);
    expect(codeOf(() => initLiquidityGenesis(g3.ctx, s3.keeper, exported))).to.equal(code(LiquidityErrors.BadPoolCoinAmount));
  });

  it('x/liquidity/genesis_test.go TestGenesisState: default InitGenesis → ExportGenesis equal; after deposits and swaps the export, with the bank\'s, imported into a second chain at height 1 exports equal', async () => {
    const { s, g, k, save } = await start();
    g.setHeight(0); // the Go test's context: an empty header, then one BeginBlocker at height 1
    const def = defaultLiquidityGenesis();
    initLiquidityGenesis(g.ctx, k, def);
    expect(exportLiquidityGenesis(g.ctx, k)).to.deep.equal(def);
    const X = 1_000_000_000n;
    const Y = 1_000_000_000n;
    save(addr(0), [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')]);
    const pool = k.createPool(g.ctx, kmsg.create(addr(0), [c(X, 'denomX'), c(Y, 'denomY')]));
    for (const [who, x, y] of [[addr(1), X / 10n, Y], [addr(2), X, Y / 10n]] as const) {
      save(who, [c(x, 'denomX'), c(y, 'denomY')]);
      k.depositWithinBatch(g.ctx, kmsg.deposit(who, pool.id, [c(x, 'denomX'), c(y, 'denomY')]));
      g.end();
    }
    g.next();
    g.begin();
    // app.TestSwapPool(10000 X at 1.1 from addrs[1]) × 3, the last with EndBlock; BeginBlock; once more with EndBlock; BeginBlock; EndBlock
    const swap = (endBlock: boolean) => {
      if (g.balance(addr(1), 'denomX') < 10000n) save(addr(1), [c(10000n + offerFee(10000n), 'denomX')]);
      k.swapWithinBatch(g.ctx, kmsg.swap(addr(1), pool.id, c(10000, 'denomX'), 'denomY', '1.1'));
      if (endBlock) g.end();
    };
    swap(false);
    swap(false);
    swap(true);
    g.begin();
    swap(true);
    g.begin();
    g.end();
    const exported = exportLiquidityGenesis(g.ctx, k);
    expect(exported.pool_records).to.have.length(1);
    // the second app: the bank's export (user balances; module accounts are created by the app itself) and the liquidity export
    const moduleAddrs = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => codec.encode(s.ak.getModuleAddress(n))));
    const s2 = await openChain();
    open.push(s2);
    const gen2 = genesis(s2, {}) as { bank: { balances: unknown[] } };
    gen2.bank.balances = new BankModule(s.bank).exportGenesis(g.ctx).balances.filter((b) => !moduleAddrs.has(b.address));
    await s2.chain.init(gen2);
    const g2 = new GoCtx(s2);
    g2.setHeight(1);
    initLiquidityGenesis(g2.ctx, s2.keeper, exported);
    expect(exportLiquidityGenesis(g2.ctx, s2.keeper)).to.deep.equal(exported);
  });

  it('keeper/invariants_test.go TestLiquidityPoolsEscrowAmountInvariant: holds through deposits, blocks and swaps; broken (with the original\'s message) once 5000 X leave the escrow', async () => {
    const { s, g, k, save } = await start();
    const X = 1_000_000_000n;
    const Y = 1_000_000_000n;
    save(addr(0), [c(X, 'denomX'), c(Y, 'denomY'), c(FEE, 'achain')]);
    const pool = k.createPool(g.ctx, kmsg.create(addr(0), [c(X, 'denomX'), c(Y, 'denomY')]));
    // app.TestDepositPool(..., withEndblock = true) twice
    for (const [who, x, y] of [[addr(1), X / 10n, Y], [addr(2), X, Y / 10n]] as const) {
      save(who, [c(x, 'denomX'), c(y, 'denomY')]);
      k.depositWithinBatch(g.ctx, kmsg.deposit(who, pool.id, [c(x, 'denomX'), c(y, 'denomY')]));
      g.end();
    }
    const inv = () => escrowAmountInvariant(g.ctx, k);
    expect(inv()[1]).to.equal(false);
    g.next();
    expect(inv()[1]).to.equal(false);
    g.begin();
    expect(inv()[1]).to.equal(false);
    // app.TestSwapPool(..., withEndblock = false): 3 × 10000 X at 1.1 from addrs[1], 5000 Y at 1.2 from addrs[2]
    const swaps: [string, bigint, string, string, string][] = [
      [addr(1), 10000n, 'denomX', 'denomY', '1.1'], [addr(1), 10000n, 'denomX', 'denomY', '1.1'], [addr(1), 10000n, 'denomX', 'denomY', '1.1'],
      [addr(2), 5000n, 'denomY', 'denomX', '1.2'],
    ];
    for (const [who, amount, offer, demand, price] of swaps) {
      if (g.balance(who, offer) < amount) save(who, [c(amount + offerFee(amount), offer)]);
      k.swapWithinBatch(g.ctx, kmsg.swap(who, pool.id, c(amount, offer), demand, price));
    }
    expect(inv()[1]).to.equal(false);
    g.next();
    expect(inv()[1]).to.equal(false);
    g.begin();
    expect(inv()[1]).to.equal(false);
    expect(s.bank.getAllBalances(g.ctx, s.ak.getModuleAddress(LIQUIDITY_MODULE_NAME))).not.to.deep.equal([]);
    s.bank.sendCoinsFromModuleToAccount(g.ctx, LIQUIDITY_MODULE_NAME, codec.decode(addr(0)), [c(5000n, 'denomX')]);
    expect(inv()).to.deep.equal(['liquidity: batch escrow amount invariant broken invariant\nbatch escrow amount LT batch remaining amount\n', true]);
  });
});

/** The plain text of an error ('' when none). */
function errOf(f: () => unknown): string {
  try {
    f();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
