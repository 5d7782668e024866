/**
 * The keeper on a real auth + bank + liquidity chain: pool creation, deposit and withdraw math with their
 * truncations (ported from tendermint/liquidity v1.4.5 x/liquidity/keeper/liquidity_pool_test.go with their
 * expected numbers), the batch lifecycle and the events.
 */
import { expect } from 'chai';
import { poolCoinDenom, poolReserveAcc } from '../src/index.js';
import { balance, c, codec, deliver, devKey, escrow, eventsOf, msg, reserves, startChain, supply } from './helpers.js';
import type { TestSetup } from './helpers.js';

const FEE = 40_000_000n;
const A = devKey(0);
const B = devKey(1);

describe('liquidity: keeper', () => {
  const open: TestSetup[] = [];
  const start = async (...args: Parameters<typeof startChain>): Promise<TestSetup> => {
    const s = await startChain(...args);
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });

  it('the pool name, reserve account and pool coin denom of the reference vector (kitty/uplugcn/1)', () => {
    expect(poolCoinDenom('kitty/uplugcn/1')).to.equal('pool747FF80A34B22F1A5AEF8C2255023938B55781B627A4E14CB3F497A51AA415B7');
    expect(new AddressCodecGx().encode(poolReserveAcc('kitty/uplugcn/1'))).to.equal('gx1w3llsz35kgh35kh03s392q3e8z640qdknaczc7');
  });

  it('CreatePool: reserve, pool coins, fee to the community pool, batch 1, success record 0, events', async () => {
    const s = await start({ 0: [c(10n ** 12n, 'achain'), c(10n ** 12n, 'bstake')] });
    const res = await deliver(s, A, msg.create(s, A.address, [c(2_000_000, 'achain'), c(1_000_000, 'bstake')]));
    expect(res.code, res.log).to.equal(0);
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    expect(pool.reserve_coin_denoms).to.deep.equal(['achain', 'bstake']);
    expect(pool.pool_coin_denom).to.equal(poolCoinDenom('achain/bstake/1'));
    expect(reserves(s, pool)).to.deep.equal([2_000_000n, 1_000_000n]);
    expect(balance(s, A.address, pool.pool_coin_denom)).to.equal(1_000_000n);
    expect(balance(s, A.address, 'achain')).to.equal(10n ** 12n - 2_000_000n - FEE);
    expect(balance(s, s.ak.getModuleAddress('distribution'), 'achain')).to.equal(FEE);
    const batch = s.keeper.getBatch(s.chain.ctx(), 1n)!;
    expect(batch).to.deep.include({ index: 1n, deposit_msg_index: 1n, swap_msg_index: 1n, withdraw_msg_index: 1n });
    const rec = s.keeper.getDepositSuccess(s.chain.ctx(), 1n, 0n)!;
    expect(rec.deposit_coins).to.deep.equal([c(2_000_000, 'achain'), c(1_000_000, 'bstake')]);
    expect(eventsOf(res.events, 'message').some((e) => e.module === 'liquidity')).to.equal(true);
    expect(eventsOf(res.events, 'create_pool')).to.deep.equal([{
      pool_id: '1', pool_type_id: '1', pool_name: 'achain/bstake/1', reserve_account: pool.reserve_account_address,
      deposit_coins: '2000000achain,1000000bstake', pool_coin_denom: pool.pool_coin_denom,
    }]);
  });

  it('CreatePool bad input: each the original code, no state change', async () => {
    const s = await start({ 0: [c(10n ** 12n, 'achain'), c(10n ** 12n, 'bstake'), c(10n ** 12n, 'cstake')], 1: [c(100, 'achain')] });
    const cases: [unknown, number, string][] = [
      [[c(2_000_000, 'achain')], 5, 'one coin'],
      [[c(2_000_000, 'achain'), c(2_000_000, 'bstake'), c(2_000_000, 'cstake')], 5, 'three coins'],
      [[c(999_999, 'achain'), c(2_000_000, 'bstake')], 9, 'below min init deposit'],
    ];
    for (const [coins, code, what] of cases) {
      const r = await deliver(s, A, msg.create(s, A.address, coins as never));
      expect([r.codespace, r.code], what).to.deep.equal(['liquidity', code]);
    }
    const poor = await deliver(s, B, msg.create(s, B.address, [c(2_000_000, 'achain'), c(2_000_000, 'bstake')]));
    expect([poor.codespace, poor.code]).to.deep.equal(['liquidity', 8]);
    expect((await deliver(s, A, msg.create(s, A.address, [c(2_000_000, 'achain'), c(2_000_000, 'bstake')]))).code).to.equal(0);
    const again = await deliver(s, A, msg.create(s, A.address, [c(2_000_000, 'achain'), c(2_000_000, 'bstake')]));
    expect([again.codespace, again.code]).to.deep.equal(['liquidity', 11]);
  });

  it('TestExecuteDepositTruncation: 19/400 on a 10000000/200000000 (×10^6) pool accepts 10/200 for 1 pool coin', async () => {
    const init = [c(10_000_000n * 1_000_000n, 'uETH'), c(200_000_000n * 1_000_000n, 'uUSD')];
    const s = await start({ 0: [...init, c(FEE, 'achain')], 1: init });
    expect((await deliver(s, A, msg.create(s, A.address, init))).code).to.equal(0);
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    const before = supply(s, pool.pool_coin_denom);
    const r = await deliver(s, B, msg.deposit(s, B.address, 1n, [c(19_000_000, 'uETH'), c(400_000_000, 'uUSD')]));
    expect(r.code, r.log).to.equal(0);
    expect(balance(s, B.address, 'uETH')).to.equal(10_000_000n * 1_000_000n - 10_000_000n);
    expect(balance(s, B.address, 'uUSD')).to.equal(200_000_000n * 1_000_000n - 200_000_000n);
    expect(balance(s, B.address, pool.pool_coin_denom)).to.equal(1n);
    expect(supply(s, pool.pool_coin_denom) - before).to.equal(1n);
    expect(eventsOf(r.blockEvents, 'deposit_to_pool')).to.deep.equal([{
      pool_id: '1', batch_index: '1', msg_index: '1', depositor: B.address, accepted_coins: '10000000uETH,200000000uUSD',
      refunded_coins: '9000000uETH,200000000uUSD', pool_coin_denom: pool.pool_coin_denom, pool_coin_amount: '1', success: 'success',
    }]);
  });

  it('TestDepositDecimalTruncation: a $19 deposit mints 1 pool coin; withdrawing it gives the deposit back exactly', async () => {
    const init = [c(125_000n * 1_000_000n, 'uatom'), c(5_000_000n * 1_000_000n, 'uusd')];
    const dep = [c(237_500, 'uatom'), c(9_500_000, 'uusd')];
    const s = await start({ 0: [...init, c(FEE, 'achain')], 1: dep }, { withdraw_fee_rate: '0' });
    expect((await deliver(s, A, msg.create(s, A.address, init))).code).to.equal(0);
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    expect((await deliver(s, B, msg.deposit(s, B.address, 1n, dep))).code).to.equal(0);
    expect(balance(s, B.address, pool.pool_coin_denom)).to.equal(1n);
    expect(balance(s, B.address, 'uatom') > 0n && balance(s, B.address, 'uusd') > 0n).to.equal(true);
    expect((await deliver(s, B, msg.withdraw(s, B.address, 1n, c(1, pool.pool_coin_denom)))).code).to.equal(0);
    expect([balance(s, B.address, 'uatom'), balance(s, B.address, 'uusd'), balance(s, B.address, pool.pool_coin_denom)]).to.deep.equal([237_500n, 9_500_000n, 0n]);
    await s.chain.block([]);
    expect(s.keeper.depositMsgStates(s.chain.ctx(), 1n)).to.have.length(0);
    expect(s.keeper.withdrawMsgStates(s.chain.ctx(), 1n)).to.have.length(0);
  });

  it('TestDepositDecimalTruncation2: a $9 deposit mints 0 pool coins: refunded, success=failure, deleted next block', async () => {
    const init = [c(125_000n * 1_000_000n, 'uatom'), c(5_000_000n * 1_000_000n, 'uusd')];
    const dep = [c(112_500, 'uatom'), c(4_500_000, 'uusd')];
    const s = await start({ 0: [...init, c(FEE, 'achain')], 1: dep });
    expect((await deliver(s, A, msg.create(s, A.address, init))).code).to.equal(0);
    const r = await deliver(s, B, msg.deposit(s, B.address, 1n, dep));
    expect(r.code).to.equal(0);
    expect([balance(s, B.address, 'uatom'), balance(s, B.address, 'uusd')]).to.deep.equal([112_500n, 4_500_000n]);
    const states = s.keeper.depositMsgStates(s.chain.ctx(), 1n);
    expect(states.map((x) => [x.executed, x.succeeded, x.to_be_deleted])).to.deep.equal([[true, false, true]]);
    expect(eventsOf(r.blockEvents, 'deposit_to_pool')[0]).to.deep.include({ accepted_coins: '', refunded_coins: '112500uatom,4500000uusd', success: 'failure' });
    await s.chain.block([]);
    expect(s.keeper.depositMsgStates(s.chain.ctx(), 1n)).to.have.length(0);
  });

  it('withdraw with the default fee rate 0 and with 0.003: out = trunc(trunc(R×P)×(1−f))/S, the fee stays in the pool', async () => {
    const init = [c(1_000_000_000, 'aaa'), c(3_000_000_000, 'bbb')];
    const s = await start({ 0: [...init, c(FEE, 'achain')] }, { withdraw_fee_rate: dec3('0.003') });
    expect((await deliver(s, A, msg.create(s, A.address, init))).code).to.equal(0);
    const pool = s.keeper.getPool(s.chain.ctx(), 1n)!;
    const r = await deliver(s, A, msg.withdraw(s, A.address, 1n, c(333_333, pool.pool_coin_denom)));
    expect(r.code, r.log).to.equal(0);
    // R×P: 1e9×333333 = 333333000000000; ×0.997 truncated = 332333001000000; /1e6 = 332333001; with fee /1e6 = 333333000
    const ev = eventsOf(r.blockEvents, 'withdraw_from_pool')[0]!;
    expect(ev).to.deep.include({ withdraw_coins: '332333001aaa,996999003bbb', withdraw_fee_coins: '999999aaa,2999997bbb', success: 'success' });
    expect(reserves(s, pool)).to.deep.equal([1_000_000_000n - 332_333_001n, 3_000_000_000n - 996_999_003n]);
    expect(supply(s, pool.pool_coin_denom)).to.equal(1_000_000n - 333_333n);
    const rec = s.keeper.getWithdrawSuccess(s.chain.ctx(), 1n, 1n)!;
    expect(rec.withdraw_coins).to.deep.equal([c(332_333_001, 'aaa'), c(996_999_003, 'bbb')]);
    // all the rest: the whole reserves, no fee
    const all = await deliver(s, A, msg.withdraw(s, A.address, 1n, c(1_000_000n - 333_333n, pool.pool_coin_denom)));
    expect(eventsOf(all.blockEvents, 'withdraw_from_pool')[0]).to.deep.include({ withdraw_coins: '667666999aaa,2003000997bbb', withdraw_fee_coins: '' });
    expect(reserves(s, pool)).to.deep.equal([0n, 0n]);
    // a depleted pool: withdraw and swap refused (39)
    const dep = await deliver(s, A, msg.swap(s, A.address, 1n, c(1000, 'aaa'), 'bbb', '1', c(2, 'aaa')));
    expect([dep.codespace, dep.code]).to.deep.equal(['liquidity', 39]);
  });

  it('swap bad input: order above max_order_amount_ratio (31), offer below 100 (34), wrong fee (35), wrong pool coin denom (29), circuit breaker (40)', async () => {
    const init = [c(1_000_000_000, 'aaa'), c(1_000_000_000, 'bbb')];
    const s = await start({ 0: [...init, c(FEE, 'achain')], 1: [c(10n ** 12n, 'aaa')] });
    expect((await deliver(s, A, msg.create(s, A.address, init))).code).to.equal(0);
    const code = async (m: ReturnType<typeof msg.swap>) => {
      const r = await deliver(s, B, m);
      return [r.codespace, r.code];
    };
    expect(await code(msg.swap(s, B.address, 1n, c(100_000_001, 'aaa'), 'bbb', '1', c(150_001, 'aaa')))).to.deep.equal(['liquidity', 31]);
    expect(await code(msg.swap(s, B.address, 1n, c(99, 'aaa'), 'bbb', '1', c(1, 'aaa')))).to.deep.equal(['liquidity', 34]);
    expect(await code(msg.swap(s, B.address, 1n, c(1_000_000, 'aaa'), 'bbb', '1', c(1_499, 'aaa')))).to.deep.equal(['liquidity', 35]);
    expect(await code(msg.swap(s, B.address, 1n, c(1_000_000, 'aaa'), 'ccc', '1', c(1_500, 'aaa')))).to.deep.equal(['liquidity', 36]);
    const w = await deliver(s, B, msg.withdraw(s, B.address, 1n, c(1, 'aaa')));
    expect([w.codespace, w.code]).to.deep.equal(['liquidity', 29]);
    expect(balance(s, B.address, 'aaa')).to.equal(10n ** 12n);
    expect(balance(s, escrow(s), 'aaa')).to.equal(0n);
  });
});

/** The original chain's `gx` prefix, for the reference's address vector. */
class AddressCodecGx {
  encode(b: Uint8Array): string {
    return new (codec.constructor as new (p: string) => { encode(b: Uint8Array): string })('gx').encode(b);
  }
}

function dec3(t: string): string {
  return (BigInt(Math.round(Number(t) * 1000)) * 10n ** 15n).toString();
}
