/**
 * The liquidity module against `chaind dev` through cosmjs (a custom registry of the original's message
 * definitions, e2e/src/liquidity.ts): a pool of `achain` and a token issued with the token module; a deposit; one
 * batch with a swap in each direction; a withdrawal. Every balance change is checked against the amounts the
 * reference's formulas give (computed here with an 18-decimal `sdk.Dec` of this file, half-even Mul/Quo, the
 * truncations and ceilings the original uses), the batch routes at the execution height, the success records, the
 * EndBlock events in the block results, the search by `message.action` (canonical and original type URLs) and
 * `message.module`, and bad inputs refused with the original's codes while nothing changes (the escrow empty).
 */
import { expect } from 'chai';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import type { DeliverTxResponse } from '@cosmjs/stargate';
import type { EncodeObject } from '@cosmjs/proto-signing';
import { sha256, toBech32, utf8 } from '@chain/crypto';
import { decAtomics, liquidityRegistry, liquidityTypeUrl } from '../src/liquidity.js';
import type { LiquidityMsgName } from '../src/liquidity.js';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { DENOM, devWallet, fee, getJson, rpcCall } from '../src/clients.js';

/** `sdk.Dec` of SDK v0.45: 18-decimal atomics; Mul/Quo round half to even, the *Truncate variants truncate. */
const PREC = 10n ** 18n;
class Dec {
  constructor(readonly atomics: bigint) {}
  static int(n: bigint): Dec { return new Dec(n * PREC); }
  static text(s: string): Dec { return new Dec(BigInt(decAtomics(s))); }
  /** `chopPrecisionAndRound` (non-negative values here) */
  private static round(x: bigint): bigint {
    const q = x / PREC;
    const r = x % PREC;
    return r < PREC / 2n ? q : r > PREC / 2n ? q + 1n : q % 2n === 0n ? q : q + 1n;
  }
  add(o: Dec): Dec { return new Dec(this.atomics + o.atomics); }
  sub(o: Dec): Dec { return new Dec(this.atomics - o.atomics); }
  mul(o: Dec): Dec { return new Dec(Dec.round(this.atomics * o.atomics)); }
  mulTruncate(o: Dec): Dec { return new Dec((this.atomics * o.atomics) / PREC); }
  quo(o: Dec): Dec { return new Dec(Dec.round((this.atomics * PREC * PREC) / o.atomics)); }
  quoTruncate(o: Dec): Dec { return new Dec((this.atomics * PREC) / o.atomics); }
  gt(o: Dec): boolean { return this.atomics > o.atomics; }
  lte(o: Dec): boolean { return this.atomics <= o.atomics; }
  truncate(): bigint { return this.atomics / PREC; }
  ceil(): bigint { return this.atomics % PREC === 0n ? this.atomics / PREC : this.atomics / PREC + 1n; }
  /** `Dec.String()`: 18 decimals */
  toString(): string { return `${this.atomics / PREC}.${(this.atomics % PREC).toString().padStart(18, '0')}`; }
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const TOKEN = 'ukitty';
const moduleAddress = (name: string): string => toBech32('chain', sha256(utf8(name)).subarray(0, 20));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

type Attrs = Record<string, string>;
interface AbciEvent { type: string; attributes: { key: string; value: string }[] }
/**
 * an event's own attributes: without the `mode` (BeginBlock / EndBlock) the block results add to block events, or
 * (`txEvent`) the `msg_index` the tx result appends to each message's events
 */
const attrs = (e: AbciEvent, txEvent = false): Attrs => Object.fromEntries(e.attributes.filter((a) => (txEvent ? a.key !== 'msg_index' : a.key !== 'mode')).map((a) => [a.key, a.value]));

describe('e2e: the liquidity module through cosmjs', function () {
  this.timeout(300_000);
  let node: NodeHandle;
  /** account 1: issues the token and creates the pool; 2: the liquidity provider; 3: the trader; 15: poor */
  let creator: string;
  let provider: string;
  let trader: string;
  let poor: string;
  const clients: Record<string, SigningStargateClient> = {};
  const escrow = moduleAddress('liquidity');
  // the pool of achain/ukitty (sorted: X = achain, Y = ukitty), as the original derives it
  const poolName = `${DENOM}/${TOKEN}/1`;
  const poolCoinDenom = `pool${hex(sha256(utf8(poolName)))}`;
  const reserveAcc = toBech32('chain', sha256(utf8(poolName)).subarray(0, 20));
  let poolId: string;
  let params: any;

  const rest = async (path: string, height?: number): Promise<any> => {
    const r = await getJson(`${node.restUrl}${path}`, height ? { 'x-cosmos-block-height': String(height) } : {});
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
    return r.body;
  };
  const balance = async (address: string, denom: string, height?: number): Promise<bigint> =>
    BigInt((await rest(`/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${denom}`, height)).balance.amount);
  const supply = async (denom: string, height?: number): Promise<bigint> =>
    BigInt((await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=${denom}`, height)).amount.amount);
  /** balances of (account, denom) pairs at a height */
  const snapshot = async (height: number, pairs: [string, string][]): Promise<bigint[]> => Promise.all(pairs.map(([a, d]) => balance(a, d, height)));
  const gasPaid = async (hash: string): Promise<bigint> => BigInt((await rest(`/cosmos/tx/v1beta1/txs/${hash}`)).tx.auth_info.fee.amount[0].amount);
  const send = async (from: string, msgs: [LiquidityMsgName, Record<string, unknown>, boolean?][], gas?: bigint): Promise<DeliverTxResponse> =>
    clients[from]!.signAndBroadcast(from, msgs.map(([name, value, original]) => ({ typeUrl: liquidityTypeUrl(name, original), value })) as EncodeObject[], gas ? fee(gas) : 2);
  const ok = (r: DeliverTxResponse): DeliverTxResponse => {
    expect(r.code, r.rawLog).to.equal(0);
    return r;
  };
  const blockEvents = async (height: number, type: string): Promise<Attrs[]> => {
    const res = (await rpcCall(node.rpcUrl, 'block_results', { height: String(height) })).result;
    return (res.finalize_block_events as AbciEvent[]).filter((e) => e.type === type).map((e) => attrs(e));
  };
  const count = async (query: string): Promise<number> =>
    Number((await rest(`/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}&pagination.count_total=true`)).pagination.total);
  const liq = (path: string, height?: number): Promise<any> => rest(`/chain/liquidity/v1beta1${path}`, height);

  before(async () => {
    node = await startNode();
    const registry = liquidityRegistry();
    for (const i of [1, 2, 3, 15]) {
      const wallet = await devWallet(i);
      const [acct] = await wallet.getAccounts();
      clients[acct!.address] = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, {
        registry, gasPrice: GasPrice.fromString(`1000000000${DENOM}`), broadcastPollIntervalMs: 200,
      });
      if (i === 1) creator = acct!.address;
      if (i === 2) provider = acct!.address;
      if (i === 3) trader = acct!.address;
      if (i === 15) poor = acct!.address;
    }
    params = (await liq('/params')).params;
    // the token: 1000 kitty = 10^9 ukitty to the creator, 3·10^8 on to the provider and the trader
    ok(await clients[creator]!.signAndBroadcast(creator, [{ typeUrl: '/chain.prc10.MsgIssueToken', value: {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: TOKEN, initial_supply: '1000', max_supply: '10000', mintable: true, owner: creator,
    } }], 2));
    ok(await clients[creator]!.sendTokens(creator, provider, [{ denom: TOKEN, amount: '300000000' }], 2));
    ok(await clients[creator]!.sendTokens(creator, trader, [{ denom: TOKEN, amount: '300000000' }], 2));
  });

  after(async () => {
    for (const c of Object.values(clients)) c.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  // the amounts: the pool, the deposit (with a refund of the excess achain), the orders, the withdrawal
  const X0 = 2n * 10n ** 15n;
  const Y0 = 2n * 10n ** 8n;
  const DEP_X = 10n ** 15n + 3n * 10n ** 9n;
  const DEP_Y = 10n ** 8n;
  const SELL_Y = 12_345_679n; // ukitty offered for achain
  const BUY_X = 2n * 10n ** 14n; // achain offered for ukitty: twice what the sell side can match
  const WITHDRAW = 250_000n;
  let poolCoins0: bigint;
  let X1: bigint;
  let Y1: bigint;
  let X2: bigint;
  let Y2: bigint;

  it('creates a pool of achain and the issued token: reserves, pool coins, the creation fee, the derived names', async () => {
    const fee0 = BigInt(params.pool_creation_fee[0].amount);
    expect(params.pool_creation_fee[0].denom).to.equal(DENOM);
    const r = ok(await send(creator, [['MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: [{ denom: DENOM, amount: X0.toString() }, { denom: TOKEN, amount: Y0.toString() }] }]]));
    const h = r.height;
    const created = attrs(r.events.find((e) => e.type === 'create_pool')! as AbciEvent, true);
    poolId = created.pool_id!;
    expect(created).to.deep.equal({
      pool_id: poolId, pool_type_id: '1', pool_name: poolName, reserve_account: reserveAcc,
      deposit_coins: `${X0}${DENOM},${Y0}${TOKEN}`, pool_coin_denom: poolCoinDenom,
    });
    expect((await liq(`/pools/${poolId}`)).pool).to.deep.equal({
      id: poolId, type_id: 1, reserve_coin_denoms: [DENOM, TOKEN], reserve_account_address: reserveAcc, pool_coin_denom: poolCoinDenom,
    });
    poolCoins0 = BigInt(params.init_pool_coin_mint_amount);
    expect(await balance(reserveAcc, DENOM, h)).to.equal(X0);
    expect(await balance(reserveAcc, TOKEN, h)).to.equal(Y0);
    expect(await balance(creator, poolCoinDenom, h)).to.equal(poolCoins0);
    expect(await supply(poolCoinDenom, h)).to.equal(poolCoins0);
    // the creator paid the deposit, the creation fee and the gas
    const gas = await gasPaid(r.transactionHash);
    expect((await balance(creator, DENOM, h - 1)) - (await balance(creator, DENOM, h))).to.equal(X0 + fee0 + gas);
    expect((await balance(creator, TOKEN, h - 1)) - (await balance(creator, TOKEN, h))).to.equal(Y0);
    // the creation is success record 0 of the pool; the batch starts at index 1
    expect((await liq(`/pools/${poolId}/finish/deposit/0`)).deposit).to.deep.include({ msg_index: '0', depositor_address: creator, msg_height: String(h) });
    expect((await liq(`/pools/${poolId}/batch`, h)).batch).to.deep.include({ pool_id: poolId, index: '1', begin_height: String(h), deposit_msg_index: '1', swap_msg_index: '1', withdraw_msg_index: '1' });
  });

  it('deposits within a batch (the original type URL): the truncated mint, the accepted coins, the excess refunded', async () => {
    const r = ok(await send(provider, [['MsgDepositWithinBatch', { depositor_address: provider, pool_id: poolId, deposit_coins: [{ denom: DENOM, amount: DEP_X.toString() }, { denom: TOKEN, amount: DEP_Y.toString() }] }, true]]));
    const h = r.height;
    // mint = min(trunc(S×a/A), trunc(S×b/B)); rate = trunc(mint)/S; accepted = trunc(A×rate), trunc(B×rate)
    const S = Dec.int(poolCoins0);
    const mint = [S.mulTruncate(Dec.int(DEP_X)).quoTruncate(Dec.int(X0)), S.mulTruncate(Dec.int(DEP_Y)).quoTruncate(Dec.int(Y0))].reduce((a, b) => (a.lte(b) ? a : b));
    const rate = Dec.int(mint.truncate()).quoTruncate(S);
    const [accX, accY] = [Dec.int(X0).mul(rate).truncate(), Dec.int(Y0).mul(rate).truncate()];
    const [refX, refY] = [DEP_X - accX, DEP_Y - accY];
    expect(refX > 0n, 'the deposit has excess achain').to.equal(true);
    const gas = await gasPaid(r.transactionHash);
    expect((await balance(provider, DENOM, h - 1)) - (await balance(provider, DENOM, h))).to.equal(accX + gas);
    expect((await balance(provider, TOKEN, h - 1)) - (await balance(provider, TOKEN, h))).to.equal(accY);
    expect(await balance(provider, poolCoinDenom, h)).to.equal(mint.truncate());
    [X1, Y1] = [X0 + accX, Y0 + accY];
    expect(await snapshot(h, [[reserveAcc, DENOM], [reserveAcc, TOKEN], [escrow, DENOM], [escrow, TOKEN]])).to.deep.equal([X1, Y1, 0n, 0n]);
    const refunded = [refX > 0n ? `${refX}${DENOM}` : '', refY > 0n ? `${refY}${TOKEN}` : ''].filter((x) => x).join(',');
    expect(await blockEvents(h, 'deposit_to_pool')).to.deep.equal([{
      pool_id: poolId, batch_index: '1', msg_index: '1', depositor: provider, accepted_coins: `${accX}${DENOM},${accY}${TOKEN}`,
      refunded_coins: refunded, pool_coin_denom: poolCoinDenom, pool_coin_amount: String(mint.truncate()), success: 'success',
    }]);
    // the msg state at the execution height, deleted at the next BeginBlock; the success record stays
    expect((await liq(`/pools/${poolId}/batch/deposits/1`, h)).deposit).to.deep.include({ msg_index: '1', executed: true, succeeded: true, to_be_deleted: true });
    await waitHeight(h + 1);
    expect((await getJson(`${node.restUrl}/chain/liquidity/v1beta1/pools/${poolId}/batch/deposits/1`, { 'x-cosmos-block-height': String(h + 1) })).status).to.equal(404);
    expect((await liq(`/pools/${poolId}/finish/deposit/1`)).deposit).to.deep.equal({
      msg_height: String(h), depositor_address: provider, pool_id: poolId, msg_index: '1',
      deposit_coins: [{ denom: DENOM, amount: String(accX) }, { denom: TOKEN, amount: String(accY) }],
      input_coins: [{ denom: DENOM, amount: String(DEP_X) }, { denom: TOKEN, amount: String(DEP_Y) }],
      output_coins: [{ denom: DENOM, amount: String(refX) }],
    });
    expect((await liq(`/pools/${poolId}/finish/deposits/${provider}`)).deposits.map((d: any) => d.msg_index)).to.deep.equal(['1']);
  });

  it('swaps in both directions in one batch: the clearing price, the fills, the fees, the refund, exactly', async () => {
    const rate = Dec.text('0.003');
    expect(params.swap_fee_rate).to.equal('0.003000000000000000');
    const p = Dec.int(X1).quo(Dec.int(Y1)); // the pool price X/Y
    const offerFee = (offer: bigint): bigint => Dec.int(offer).mul(rate.quo(Dec.int(2n))).ceil();
    const [feeBuy, feeSell] = [offerFee(BUY_X), offerFee(SELL_Y)];
    // both orders at the pool price: buyOver = 0, sellUnder = 0 → Staying at p; EX = Σbuy ≥ p, EY = Σsell ≤ p
    let EX = Dec.int(BUY_X);
    let EY = Dec.int(SELL_Y);
    if (EX.gt(p.mul(EY))) EX = p.mul(EY); else EY = EX.quo(p);
    expect(EX.gt(Dec.int(0n)) && Dec.int(BUY_X).gt(EX), 'a fractional fill of the buy side').to.equal(true);
    // FindOrderMatch per side: ratio = E/m, transacted = ceil(offer×ratio), fee = reserved×ratio (or all when ≤ 1 left)
    const fill = (offer: bigint, reserved: bigint, E: Dec, xToY: boolean) => {
      let ratio = E.quo(Dec.int(offer));
      if (Dec.int(1n).lte(ratio)) ratio = Dec.int(1n);
      const transacted = Dec.int(Dec.int(offer).mul(ratio).ceil());
      const feeAmt = Dec.int(offer).sub(transacted).lte(Dec.int(1n)) ? Dec.int(reserved) : Dec.int(reserved).mul(ratio);
      const demand = xToY ? transacted.quo(p) : transacted.mul(p);
      const exchFee = xToY ? feeAmt.quo(p) : feeAmt.mul(p);
      return { transacted: transacted.truncate(), feeAmt, offerFee: feeAmt.truncate(), receive: demand.sub(exchFee).truncate(), exchFee };
    };
    const buy = fill(BUY_X, feeBuy, EX, true);
    const sell = fill(SELL_Y, feeSell, EY, false);
    const buyLeft = BUY_X - buy.transacted;
    const buyRefund = buyLeft + feeBuy - buy.offerFee;
    expect(buyLeft > 1n, 'the buy is filled in part').to.equal(true);

    const r = ok(await send(trader, [
      ['MsgSwapWithinBatch', { swap_requester_address: trader, pool_id: poolId, swap_type_id: 1, offer_coin: { denom: DENOM, amount: String(BUY_X) }, demand_coin_denom: TOKEN, offer_coin_fee: { denom: DENOM, amount: String(feeBuy) }, order_price: p.atomics.toString() }],
      ['MsgSwapWithinBatch', { swap_requester_address: trader, pool_id: poolId, swap_type_id: 1, offer_coin: { denom: TOKEN, amount: String(SELL_Y) }, demand_coin_denom: DENOM, offer_coin_fee: { denom: TOKEN, amount: String(feeSell) }, order_price: p.atomics.toString() }, true],
    ]));
    const h = r.height;
    const gas = await gasPaid(r.transactionHash);
    // the trader: pays the transacted offers and their fees, receives the demand less the withheld fee, gets the rest back
    expect((await balance(trader, DENOM, h - 1)) - (await balance(trader, DENOM, h))).to.equal(gas + buy.transacted + buy.offerFee - sell.receive);
    expect((await balance(trader, TOKEN, h - 1)) - (await balance(trader, TOKEN, h))).to.equal(sell.transacted + sell.offerFee - buy.receive);
    [X2, Y2] = [X1 + buy.transacted + buy.offerFee - sell.receive, Y1 + sell.transacted + sell.offerFee - buy.receive];
    expect(await snapshot(h, [[reserveAcc, DENOM], [reserveAcc, TOKEN], [escrow, DENOM], [escrow, TOKEN]])).to.deep.equal([X2, Y2, 0n, 0n]);
    // the pool kept the fees: X×Y grew
    expect(X2 * Y2 > X1 * Y1, 'X×Y grew').to.equal(true);
    // swap_transacted in the block results, the original's attributes in its order
    const common = { pool_id: poolId, batch_index: '2', swap_requester: trader, swap_type_id: '1', order_price: p.toString(), swap_price: p.toString(), order_expiry_height: String(h), success: 'success' };
    expect(await blockEvents(h, 'swap_transacted')).to.deep.equal([
      { ...common, msg_index: '1', offer_coin_denom: DENOM, offer_coin_amount: String(BUY_X), demand_coin_denom: TOKEN, transacted_coin_amount: String(buy.transacted),
        remaining_offer_coin_amount: String(buyLeft), exchanged_offer_coin_amount: String(buy.transacted), exchanged_demand_coin_amount: String(buy.receive),
        offer_coin_fee_amount: String(buy.offerFee), exchanged_coin_fee_amount: buy.exchFee.toString(), reserved_offer_coin_fee_amount: String(feeBuy - buy.offerFee) },
      { ...common, msg_index: '2', offer_coin_denom: TOKEN, offer_coin_amount: String(SELL_Y), demand_coin_denom: DENOM, transacted_coin_amount: String(sell.transacted),
        remaining_offer_coin_amount: '0', exchanged_offer_coin_amount: String(sell.transacted), exchanged_demand_coin_amount: String(sell.receive),
        offer_coin_fee_amount: String(sell.offerFee), exchanged_coin_fee_amount: sell.exchFee.toString(), reserved_offer_coin_fee_amount: String(feeSell - sell.offerFee) },
    ]);
    // the refund of the unfilled part of the buy (expiring now) is a transfer from the escrow in the same block
    const transfers = (await blockEvents(h, 'transfer')).filter((t) => t.recipient === trader);
    expect(transfers.map((t) => t.amount)).to.include(`${buyRefund}${DENOM}`);
    // the batch at the execution height, then the success records
    const swaps = (await liq(`/pools/${poolId}/batch/swaps`, h)).swaps;
    expect(swaps.map((s: any) => [s.msg_index, s.executed, s.succeeded, s.to_be_deleted, s.remaining_offer_coin.amount, s.exchanged_offer_coin.amount, s.reserved_offer_coin_fee.amount]))
      .to.deep.equal([['1', true, true, true, String(buyLeft), String(buy.transacted), String(feeBuy - buy.offerFee)], ['2', true, true, true, '0', String(sell.transacted), String(feeSell - sell.offerFee)]]);
    expect((await liq(`/pools/${poolId}/batch/swaps/2`, h)).swap.msg.offer_coin).to.deep.equal({ denom: TOKEN, amount: String(SELL_Y) });
    const record = (await liq(`/pools/${poolId}/finish/swap/1`)).swap;
    expect(record).to.deep.include({ msg_height: String(h), msg_index: '1', swap_price: p.toString(), get_coin: { denom: TOKEN, amount: String(buy.receive) } });
    expect((await liq(`/pools/${poolId}/finish/swap/2`)).swap.get_coin).to.deep.equal({ denom: DENOM, amount: String(sell.receive) });
    expect((await liq(`/pools/${poolId}/finish/swaps/${trader}`)).swaps.map((s: any) => s.get_coin.amount)).to.deep.equal([String(buy.receive), String(sell.receive)]);
  });

  it('withdraws within a batch (the original type URL): out = trunc(R×P)/S per reserve, the pool coins burned', async () => {
    const S = await supply(poolCoinDenom);
    const r = ok(await send(provider, [['MsgWithdrawWithinBatch', { withdrawer_address: provider, pool_id: poolId, pool_coin: { denom: poolCoinDenom, amount: String(WITHDRAW) } }, true]]));
    const h = r.height;
    // withdraw_fee_rate 0: out = trunc(trunc(R×P)×(1−0))/S
    expect(params.withdraw_fee_rate).to.equal('0.000000000000000000');
    const out = (R: bigint): bigint => Dec.int(R * WITHDRAW).mulTruncate(Dec.int(1n).sub(Dec.text('0'))).truncate() / S;
    const [outX, outY] = [out(X2), out(Y2)];
    const gas = await gasPaid(r.transactionHash);
    expect((await balance(provider, DENOM, h)) - (await balance(provider, DENOM, h - 1))).to.equal(outX - gas);
    expect((await balance(provider, TOKEN, h)) - (await balance(provider, TOKEN, h - 1))).to.equal(outY);
    expect((await balance(provider, poolCoinDenom, h - 1)) - (await balance(provider, poolCoinDenom, h))).to.equal(WITHDRAW);
    expect(await supply(poolCoinDenom, h)).to.equal(S - WITHDRAW);
    expect(await snapshot(h, [[reserveAcc, DENOM], [reserveAcc, TOKEN], [escrow, poolCoinDenom]])).to.deep.equal([X2 - outX, Y2 - outY, 0n]);
    expect(await blockEvents(h, 'withdraw_from_pool')).to.deep.equal([{
      pool_id: poolId, batch_index: '3', msg_index: '1', withdrawer: provider, pool_coin_denom: poolCoinDenom, pool_coin_amount: String(WITHDRAW),
      withdraw_coins: `${outX}${DENOM},${outY}${TOKEN}`, withdraw_fee_coins: `0${DENOM},0${TOKEN}`, success: 'success',
    }]);
    expect((await liq(`/pools/${poolId}/batch/withdraws/1`, h)).withdraw).to.deep.include({ msg_index: '1', executed: true, succeeded: true });
    expect((await liq(`/pools/${poolId}/finish/withdraw/1`)).withdraw).to.deep.include({
      msg_height: String(h), msg_index: '1', withdraw_coins: [{ denom: DENOM, amount: String(outX) }, { denom: TOKEN, amount: String(outY) }],
    });
    expect((await liq(`/pools/${poolId}/finish/withdraws/${provider}`)).withdraws.map((w: any) => w.msg_index)).to.deep.equal(['1']);
  });

  it('finds each message by message.action, canonical and original spelling, and by message.module=\'liquidity\'', async () => {
    for (const [name, n] of [['MsgCreatePool', 1], ['MsgDepositWithinBatch', 1], ['MsgSwapWithinBatch', 1], ['MsgWithdrawWithinBatch', 1]] as const) {
      expect(await count(`message.action='${liquidityTypeUrl(name)}'`), name).to.equal(n);
      expect(await count(`message.action='${liquidityTypeUrl(name, true)}'`), `${name} (original spelling)`).to.equal(n);
    }
    // create, deposit, the swap tx (two messages), withdraw
    expect(await count(`message.module='liquidity'`)).to.equal(4);
    expect(await count(`message.module='liquidity' AND message.sender='${trader}'`)).to.equal(1);
    const search = (await rpcCall(node.rpcUrl, 'tx_search', { query: "message.action='/tendermint.liquidity.v1beta1.MsgCreatePool'" })).result;
    expect(search.total_count).to.equal('1');
  });

  it('refuses bad inputs with the original codes and changes nothing (only the gas is paid; the escrow stays empty)', async () => {
    // the poor account: gas, ukitty and pool coins for a pool of its own, not the creation fee
    ok(await clients[creator]!.sendTokens(creator, poor, [{ denom: DENOM, amount: (10n ** 16n).toString() }, { denom: poolCoinDenom, amount: '1000000' }, { denom: TOKEN, amount: '5000000' }].sort((a, b) => (a.denom < b.denom ? -1 : 1)), 2));
    const GAS = 400_000n;
    const reserve = await balance(reserveAcc, DENOM);
    const maxOrder = Dec.int(reserve).mulTruncate(Dec.text('0.1')).truncate();
    const swap = (o: Record<string, unknown>) => ({
      swap_requester_address: trader, pool_id: poolId, swap_type_id: 1, offer_coin: { denom: DENOM, amount: '1000000' }, demand_coin_denom: TOKEN,
      offer_coin_fee: { denom: DENOM, amount: '1500' }, order_price: decAtomics('1'), ...o,
    });
    const cases: [string, string, LiquidityMsgName, Record<string, unknown>, number, RegExp][] = [
      ['a pool of one coin', creator, 'MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: [{ denom: DENOM, amount: '10000000' }] }, 5, /invalid number of reserve coin/],
      ['a pool of three coins', creator, 'MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: [{ denom: DENOM, amount: '10000000' }, { denom: poolCoinDenom, amount: '10000000' }, { denom: TOKEN, amount: '10000000' }] }, 5, /invalid number of reserve coin/],
      ['pool type 2', creator, 'MsgCreatePool', { pool_creator_address: creator, pool_type_id: 2, deposit_coins: [{ denom: DENOM, amount: '10000000' }, { denom: TOKEN, amount: '10000000' }] }, 2, /pool type not exists/],
      ['below the minimum initial deposit', creator, 'MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: [{ denom: DENOM, amount: '10000000' }, { denom: poolCoinDenom, amount: '999999' }] }, 9, /smaller than 1000000/],
      ['an existing pool', creator, 'MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: [{ denom: DENOM, amount: '10000000' }, { denom: TOKEN, amount: '10000000' }] }, 11, /the pool already exists/],
      ['not enough for the creation fee', poor, 'MsgCreatePool', { pool_creator_address: poor, pool_type_id: 1, deposit_coins: [{ denom: poolCoinDenom, amount: '1000000' }, { denom: TOKEN, amount: '1000000' }] }, 30, /insufficient balances for pool creation fee/],
      ['a deposit to no pool', provider, 'MsgDepositWithinBatch', { depositor_address: provider, pool_id: '99', deposit_coins: [{ denom: DENOM, amount: '1000' }, { denom: TOKEN, amount: '1000' }] }, 12, /pool batch not exists/],
      ['a deposit of other coins', provider, 'MsgDepositWithinBatch', { depositor_address: provider, pool_id: poolId, deposit_coins: [{ denom: DENOM, amount: '1000' }, { denom: poolCoinDenom, amount: '1000' }] }, 36, /does not match the reserve coin of the pool/],
      ['a withdrawal of a wrong pool coin denom', provider, 'MsgWithdrawWithinBatch', { withdrawer_address: provider, pool_id: poolId, pool_coin: { denom: TOKEN, amount: '1000' } }, 29, /bad pool coin denom/],
      ['an order above max_order_amount_ratio', trader, 'MsgSwapWithinBatch', swap({ offer_coin: { denom: DENOM, amount: String(maxOrder + 1n) }, offer_coin_fee: { denom: DENOM, amount: String(Dec.int(maxOrder + 1n).mul(Dec.text('0.0015')).ceil()) } }), 31, /max order ratio/],
      ['an offer below 100', trader, 'MsgSwapWithinBatch', swap({ offer_coin: { denom: DENOM, amount: '99' }, offer_coin_fee: { denom: DENOM, amount: '1' } }), 34, /offer amount should be over 100 micro/],
      ['a wrong fee amount', trader, 'MsgSwapWithinBatch', swap({ offer_coin_fee: { denom: DENOM, amount: '1499' } }), 35, /bad offer coin fee/],
      ['a fee in the other denom', trader, 'MsgSwapWithinBatch', swap({ offer_coin_fee: { denom: TOKEN, amount: '1500' } }), 35, /bad offer coin fee/],
      ['a zero order price', trader, 'MsgSwapWithinBatch', swap({ order_price: '0' }), 23, /invalid order price/],
    ];
    const watched: [string, string][] = [[reserveAcc, DENOM], [reserveAcc, TOKEN], [escrow, DENOM], [escrow, TOKEN], [escrow, poolCoinDenom]];
    for (const [what, from, name, value, code, log] of cases) {
      const r = await send(from, [[name, value]], GAS);
      expect(r.code, `${what}: ${r.rawLog}`).to.equal(code);
      const tx = (await rest(`/cosmos/tx/v1beta1/txs/${r.transactionHash}`)).tx_response;
      expect(tx.codespace, what).to.equal('liquidity');
      expect(tx.raw_log, what).to.match(log);
      const h = r.height;
      const gas = BigInt(fee(GAS).amount[0]!.amount);
      expect((await balance(from, DENOM, h - 1)) - (await balance(from, DENOM, h)), `${what}: only the gas`).to.equal(gas);
      for (const d of [TOKEN, poolCoinDenom]) expect(await balance(from, d, h), `${what}: ${d}`).to.equal(await balance(from, d, h - 1));
      expect(await snapshot(h, watched), `${what}: reserves and escrow`).to.deep.equal(await snapshot(h - 1, watched));
      expect(await blockEvents(h, 'swap_transacted'), what).to.deep.equal([]);
    }
    expect((await snapshot(await latest(), watched)).slice(2), 'the escrow').to.deep.equal([0n, 0n, 0n]);
  });

  const latest = async (): Promise<number> => Number((await rpcCall(node.rpcUrl, 'status')).result.sync_info.latest_block_height);
  async function waitHeight(h: number): Promise<void> {
    for (let i = 0; i < 200 && (await latest()) < h; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await latest()).to.be.at.least(h);
  }
});
