/**
 * Pure order-book / price tests ported from tendermint/liquidity v1.4.5 `x/liquidity/types/swap_test.go` and
 * `types/utils_test.go` with their expected values (the ones not already in swap.test.ts).
 * `CountNotMatchedMsgs` / `CountFractionalMatchedMsgs` have no counterpart in src (they are test-side helpers
 * here, used by TestSwapScenario as the original uses them); their own Go tables check those helpers.
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { liquiditySwap as S } from '../src/index.js';
import type { SwapMsgState } from '../src/index.js';

const level = (price: string, buy: bigint, sell: bigint): S.Order => ({ price: Dec.fromString(price), buyOfferAmt: buy, sellOfferAmt: sell, swapMsgStates: [] });
const mapOf = (...levels: S.Order[]): Map<string, S.Order> => new Map(levels.map((l) => [l.price.atomics(), l]));
// the original's CountNotMatchedMsgs / CountFractionalMatchedMsgs (types/swap.go)
const countNotMatched = (ms: SwapMsgState[]) => ms.filter((m) => m.executed && !m.succeeded).length;
const countFractional = (ms: SwapMsgState[]) => ms.filter((m) => m.executed && m.succeeded && !m.to_be_deleted).length;

describe('liquidity: ported types tests (types/swap_test.go, types/utils_test.go)', () => {
  it('TestCalculateMatchStayEdgeCase: the original 18-level book (its JSON reduced to price, buy, sell per level) at 1.844380246375231658 is a fractional stay match', () => {
    // the Go test unmarshals a JSON order book; CalculateMatchStay reads only each level's Price, BuyOfferAmt, SellOfferAmt
    const rows: [string, bigint, bigint][] = [
      ['1.827780824157854573', 12587364000n, 6200948000n],
      ['1.829625204404229805', 9203664000n, 6971480000n],
      ['1.831469584650605036', 18001284000n, 2311596000n],
      ['1.833313964896980268', 12113646000n, 4806652000n],
      ['1.835158345143355500', 0n, 6421100000n],
      ['1.837002725389730731', 9135990000n, 3852660000n],
      ['1.838847105636105963', 6226008000n, 2715208000n],
      ['1.840691485882481195', 6496704000n, 3155512000n],
      ['1.842535866128856426', 0n, 1137452000n],
      ['1.844380246375231658', 15700368000n, 2274904000n],
      ['1.846224626621606890', 19963830000n, 3338972000n],
      ['1.848069006867982121', 0n, 3302280000n],
      ['1.849913387114357353', 2233242000n, 10420528000n],
      ['1.851757767360732585', 23550552000n, 1577756000n],
      ['1.853602147607107816', 3519048000n, 5577184000n],
      ['1.855446527853483048', 5752290000n, 1357604000n],
      ['1.857290908099858280', 2774634000n, 4256272000n],
      ['1.859135288346233511', 10760166000n, 5283648000n],
    ];
    const current = Dec.fromString('1.844380246375231658');
    const r = S.calculateMatchStay(rows.map(([p, b, s]) => level(p, b, s)), current);
    expect(r.matchType).to.equal(S.MatchType.Fractional);
    expect(r.swapPrice.toString()).to.equal(current.toString());
  });

  it('TestOrderBookSort: SortOrderBook ascending by price (0.1, 0.2, 0.3)', () => {
    const book = S.sortOrderBook(mapOf(level('0.3', 0n, 0n), level('0.1', 0n, 0n), level('0.2', 0n, 0n)));
    expect(book.map((o) => o.price.toString())).to.deep.equal(['0.1', '0.2', '0.3'].map((p) => Dec.fromString(p).toString()));
  });

  it('TestExecutableAmt: at 0.2, buy 90M + 50M = 140M, sell 30M', () => {
    const book = S.sortOrderBook(mapOf(level('0.1', 0n, 30000000n), level('0.2', 90000000n, 0n), level('0.3', 50000000n, 0n)));
    expect(S.executableAmt(book, Dec.fromString('0.2'))).to.deep.equal([140000000n, 30000000n]);
  });

  it('TestComputePriceDirection: Match(X, Y) equals CalculateMatch(direction) / CalculateMatchStay', () => {
    const cases: [S.Order[], (m: Map<string, S.Order>) => [bigint, bigint]][] = [
      [[level('1', 40000000n, 0n), level('1.1', 40000000n, 0n), level('1.2', 0n, 20000000n)], (m) => [m.get(Dec.fromString('1').atomics())!.buyOfferAmt + m.get(Dec.fromString('1.1').atomics())!.buyOfferAmt, m.get(Dec.fromString('1.2').atomics())!.sellOfferAmt]],
      [[level('0.7', 20000000n, 0n), level('0.9', 0n, 40000000n), level('0.8', 10000000n, 0n)], (m) => [m.get(Dec.fromString('0.7').atomics())!.buyOfferAmt + m.get(Dec.fromString('0.8').atomics())!.buyOfferAmt, m.get(Dec.fromString('0.9').atomics())!.sellOfferAmt]],
    ];
    const directions: S.PriceDirection[] = [];
    for (const [levels, xy] of cases) {
      const m = mapOf(...levels);
      const book = S.sortOrderBook(m);
      const [x, y] = xy(m).map((n) => Dec.fromInt(n)) as [Dec, Dec];
      const direction = S.priceDirection(book, x.quo(y));
      directions.push(direction);
      const a = S.match(book, x, y);
      const b = S.calculateMatch(book, direction, x, y);
      expect(a.found).to.equal(b.found);
      expect(JSON.stringify(a.result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Dec ? v.toString() : v))).to.equal(JSON.stringify(b.result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Dec ? v.toString() : v)));
    }
    // X/Y = 80M/20M = 4 (only the sell at 1.2 under it) and 30M/40M = 0.75 — the book's directions at those prices
    expect(directions).to.deep.equal([S.PriceDirection.Decreasing, S.PriceDirection.Increasing]);
    const stay = S.sortOrderBook(mapOf(level('1.0', 50000000n, 50000000n)));
    const [x, y] = [Dec.fromInt(50000000n), Dec.fromInt(50000000n)];
    const r = S.match(stay, x, y);
    const r2 = S.calculateMatchStay(stay, x.quo(y));
    expect([r.result.matchType, r.result.ex.toString(), r.result.ey.toString()]).to.deep.equal([r2.matchType, r2.ex.toString(), r2.ey.toString()]);
    expect(r.result.matchType).to.equal(S.MatchType.Exact);
  });

  it('TestOrderbookValidate: the original table (buy level, sell level, current price → valid)', () => {
    const table: [string, string, string, boolean][] = [
      ['1.0', '0.99', '1.01', true],
      ['1.0', '1.01', '0.99', false], // maxBuyOrderPrice > minSellOrderPrice
      ['1.0', '1.1', '1.2', true],
      ['1.0', '1.11', '1.2', false], // maxBuyOrderPrice/currentPrice > 1.10
      ['1.0', '0.8', '0.9', true],
      ['1.0', '0.8', '0.89', false], // minSellOrderPrice/currentPrice < 0.90
      ['0.0', '0.00000000001', '0.000000000011', false], // not positive price
    ];
    for (const [current, buy, sell, valid] of table) {
      const book = S.sortOrderBook(mapOf(level(buy, 1n, 0n), level(sell, 0n, 1n)));
      expect(S.validateOrderBook(book, Dec.fromString(current)), `${current} ${buy} ${sell}`).to.equal(valid);
    }
  });

  it('TestGetOfferCoinFee: the original table at the default rate 0.003 and at 0', () => {
    const rate = Dec.fromString('0.003');
    const table: [bigint, Dec, bigint][] = [
      [1n, rate, 1n], [10n, rate, 1n], [100n, rate, 1n], [1000n, rate, 2n], [10000n, rate, 15n], [10001n, rate, 16n], [10700n, rate, 17n], [10000n, Dec.zero(), 0n],
    ];
    for (const [offer, r, fee] of table) expect(S.offerCoinFee(offer, r), `${offer}`).to.equal(fee);
  });

  it('TestMakeOrderMapEdgeCase: an offer denom that is neither X nor Y panics (invalid denom)', () => {
    const st = state(1n, 'denomX', 'denomY', 19228500n, '0.027506527499265415', 10n);
    const { orderMap, xToY, yToX } = S.makeOrderMap([st, state(2n, 'denomY', 'denomX', 417269600n, '0.027506527499265415', 10n)], 'denomX', 'denomY', false);
    expect([orderMap.size, xToY.length, yToX.length]).to.deep.equal([1, 1, 1]);
    expect(() => S.makeOrderMap([st], '12421miklfdjnfiasdjfidosa8381813818---', 'denomY', false)).to.throw();
  });

  it('TestSwapScenario: 3 × 10000 X at 1.1 and 5000 Y at 1.2 at X = Y = 10^6: X→Y all matched, the Y→X order not; books valid; cleared book empty', () => {
    const height = 5n;
    const price = '1.1';
    const priceY = '1.2';
    const msgs = [
      state(1n, 'denomX', 'denomY', 10000n, price, height), state(2n, 'denomX', 'denomY', 10000n, price, height), state(3n, 'denomX', 'denomY', 10000n, price, height),
      state(4n, 'denomY', 'denomX', 5000n, priceY, height),
    ];
    const { orderMap, xToY, yToX } = S.makeOrderMap(msgs, 'denomX', 'denomY', false);
    const orderBook = S.sortOrderBook(orderMap);
    const kx = Dec.fromString(price).atomics();
    const ky = Dec.fromString(priceY).atomics();
    expect(orderMap.get(kx)!.buyOfferAmt).to.equal(30000n);
    expect(orderMap.get(kx)!.price.equal(Dec.fromString(price))).to.equal(true);
    expect([xToY.length, yToX.length, orderMap.get(kx)!.swapMsgStates.length, orderMap.get(ky)!.swapMsgStates.length]).to.deep.equal([3, 1, 3, 1]);
    expect([orderBook[0]!.swapMsgStates.length, orderBook[1]!.swapMsgStates.length]).to.deep.equal([3, 1]);
    S.validateStateAndExpireOrders(xToY, height, false);
    S.validateStateAndExpireOrders(yToX, height, false);
    const X = Dec.fromInt(1_000_000n);
    const Y = Dec.fromInt(1_000_000n);
    const { result, found } = S.match(orderBook, X, Y);
    expect(found).to.equal(true);
    expect(result.matchType).to.not.equal(S.MatchType.No);
    const mx = S.findOrderMatch(S.OrderDirection.XtoY, xToY, result.ex, result.swapPrice);
    const my = S.findOrderMatch(S.OrderDirection.YtoX, yToX, result.ey, result.swapPrice);
    const upd = S.updateSwapMsgStates(X, Y, xToY, yToX, mx.matchResults, my.matchResults);
    expect([countNotMatched(xToY), countFractional(xToY), countNotMatched(yToX), countFractional(yToX), xToY.length, yToX.length]).to.deep.equal([0, 0, 1, 0, 3, 1]);
    const executed = S.makeOrderMap([...xToY, ...yToX], 'denomX', 'denomY', true);
    const bookExecuted = S.sortOrderBook(executed.orderMap);
    const lastPrice = upd.x.quo(upd.y);
    expect(S.validateOrderBook(bookExecuted, lastPrice)).to.equal(true);
    expect(executed.orderMap.has(kx)).to.equal(false); // all X→Y matched: none left (0 not matched)
    expect(countNotMatched(executed.orderMap.get(ky)!.swapMsgStates)).to.equal(1);
    expect(countNotMatched(bookExecuted[0]!.swapMsgStates)).to.equal(1);
    S.validateStateAndExpireOrders(xToY, height, true);
    S.validateStateAndExpireOrders(yToX, height, true);
    const cleared = S.makeOrderMap([...xToY, ...yToX], 'denomX', 'denomY', true);
    expect(S.validateOrderBook(S.sortOrderBook(cleared.orderMap), lastPrice)).to.equal(true);
    expect(cleared.orderMap.size).to.equal(0);
  });

  it('TestCountNotMatchedMsgs / TestCountFractionalMatchedMsgs: the original tables for the counting helpers TestSwapScenario uses', () => {
    const st = (executed = false, succeeded = false, toBeDeleted = false) => ({ executed, succeeded, to_be_deleted: toBeDeleted }) as SwapMsgState;
    expect([[], [st(true, false), st(true, false)], [st(), st(true, true, false), st(true, true, true)]].map(countNotMatched)).to.deep.equal([0, 2, 0]);
    expect([[], [st(true, true, false), st(true, true, false)], [st(), st(true, false), st(true, true, true)]].map(countFractional)).to.deep.equal([0, 2, 0]);
  });
});

function state(index: bigint, offerDenom: string, demandDenom: string, amount: bigint, price: string, expiry: bigint): SwapMsgState {
  const fee = S.offerCoinFee(amount, Dec.fromString('0.003'));
  return {
    msg_index: index, executed: true, succeeded: false, to_be_deleted: false, order_expiry_height: expiry,
    exchanged_offer_coin: { denom: offerDenom, amount: '0' }, remaining_offer_coin: { denom: offerDenom, amount: amount.toString() },
    reserved_offer_coin_fee: { denom: offerDenom, amount: fee.toString() },
    msg: {
      swap_requester_address: 'chain1x', pool_id: 1n, swap_type_id: 1, offer_coin: { denom: offerDenom, amount: amount.toString() }, demand_coin_denom: demandDenom,
      offer_coin_fee: { denom: offerDenom, amount: fee.toString() }, order_price: Dec.fromString(price).atomics(),
    },
  } as SwapMsgState;
}
