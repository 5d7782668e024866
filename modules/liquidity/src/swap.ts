/**
 * The batch swap algorithm of tendermint/liquidity v1.4.5 (x/liquidity/types/swap.go), step by step and in
 * `sdk.Dec` arithmetic (@chain/math's Dec: 18 decimals, Mul/Quo half-even, *Truncate truncating, Ceil):
 * the order book by price, the price direction, the match scenarios and the single clearing price, the fill
 * allocation (FindOrderMatch) and the msg state update (UpdateSwapMsgStates). Pure: no store, no bank.
 */
import { Dec, maxDec, minDec } from '@chain/math';
import type { SwapMsgState } from './gen/chain/liquidity/v1beta1.js';
import { LiquidityErrors } from './errors.js';

export enum MatchType { Exact = 1, No = 2, Fractional = 3 }
export enum PriceDirection { Increasing = 1, Decreasing = 2, Staying = 3 }
export enum OrderDirection { XtoY = 1, YtoX = 2 }

/** One price level of the order book: X offered at that price (buy) and Y offered at it (sell). */
export interface Order {
  price: Dec;
  buyOfferAmt: bigint;
  sellOfferAmt: bigint;
  swapMsgStates: SwapMsgState[];
}

export type OrderBook = Order[];

export interface BatchResult {
  matchType: MatchType | 0;
  priceDirection: PriceDirection | 0;
  swapPrice: Dec;
  ex: Dec;
  ey: Dec;
  originalEX: bigint;
  originalEY: bigint;
  poolX: Dec;
  poolY: Dec;
  transactAmt: Dec;
}

export interface MatchResult {
  orderDirection: OrderDirection;
  offerCoinAmt: Dec;
  transactedCoinAmt: Dec;
  exchangedDemandCoinAmt: Dec;
  offerCoinFeeAmt: Dec;
  exchangedCoinFeeAmt: Dec;
  swapMsgState: SwapMsgState;
}

const TWO = Dec.fromInt(2);

export function newBatchResult(): BatchResult {
  return {
    matchType: 0, priceDirection: 0, swapPrice: Dec.zero(), ex: Dec.zero(), ey: Dec.zero(), originalEX: 0n, originalEY: 0n,
    poolX: Dec.zero(), poolY: Dec.zero(), transactAmt: Dec.zero(),
  };
}

/** The amount of a (non-null) coin. */
export const amt = (c: { amount: string } | null | undefined): bigint => (c ? BigInt(c.amount === '' ? '0' : c.amount) : 0n);
/** A msg's order price (atomics) as a Dec. */
export const orderPrice = (s: SwapMsgState): Dec => Dec.fromAtomics(s.msg!.order_price || '0');

/** `MakeOrderMap`: groups the orders by exact price; also splits them by direction (offer X / offer Y). */
export function makeOrderMap(states: SwapMsgState[], denomX: string, denomY: string, onlyNotMatched: boolean): {
  orderMap: Map<string, Order>; xToY: SwapMsgState[]; yToX: SwapMsgState[];
} {
  const orderMap = new Map<string, Order>();
  const xToY: SwapMsgState[] = [];
  const yToX: SwapMsgState[] = [];
  for (const m of states) {
    if (onlyNotMatched && (m.to_be_deleted || amt(m.remaining_offer_coin) === 0n)) continue;
    const price = orderPrice(m);
    const key = price.atomics();
    let order = orderMap.get(key) ?? { price, buyOfferAmt: 0n, sellOfferAmt: 0n, swapMsgStates: [] };
    if (m.msg!.offer_coin!.denom === denomX) {
      xToY.push(m);
      order = { ...order, buyOfferAmt: order.buyOfferAmt + amt(m.remaining_offer_coin) };
    } else if (m.msg!.offer_coin!.denom === denomY) {
      yToX.push(m);
      order = { ...order, sellOfferAmt: order.sellOfferAmt + amt(m.remaining_offer_coin) };
    } else {
      throw LiquidityErrors.InvalidDenom.error();
    }
    order.swapMsgStates = [...order.swapMsgStates, m];
    orderMap.set(key, order);
  }
  return { orderMap, xToY, yToX };
}

/** `SortOrderBook`: the levels by price ascending. */
export function sortOrderBook(orderMap: Map<string, Order>): OrderBook {
  return [...orderMap.values()].sort((a, b) => a.price.cmp(b.price));
}

/** `ExecutableAmt`: Σbuy with price ≥ p, Σsell with price ≤ p. */
export function executableAmt(book: OrderBook, p: Dec): [bigint, bigint] {
  let x = 0n;
  let y = 0n;
  for (const o of book) {
    if (o.price.gte(p)) x += o.buyOfferAmt;
    if (o.price.lte(p)) y += o.sellOfferAmt;
  }
  return [x, y];
}

/** `MustExecutableAmt`: Σbuy with price > p, Σsell with price < p. */
export function mustExecutableAmt(book: OrderBook, p: Dec): [bigint, bigint] {
  let x = 0n;
  let y = 0n;
  for (const o of book) {
    if (o.price.gt(p)) x += o.buyOfferAmt;
    if (o.price.lt(p)) y += o.sellOfferAmt;
  }
  return [x, y];
}

/** `PriceDirection` at the pool price. */
export function priceDirection(book: OrderBook, current: Dec): PriceDirection {
  let buyOver = Dec.zero();
  let buyAt = Dec.zero();
  let sellUnder = Dec.zero();
  let sellAt = Dec.zero();
  for (const o of book) {
    if (o.price.gt(current)) buyOver = buyOver.add(Dec.fromInt(o.buyOfferAmt));
    else if (o.price.equal(current)) {
      buyAt = buyAt.add(Dec.fromInt(o.buyOfferAmt));
      sellAt = sellAt.add(Dec.fromInt(o.sellOfferAmt));
    } else sellUnder = sellUnder.add(Dec.fromInt(o.sellOfferAmt));
  }
  if (buyOver.gt(current.mul(sellUnder.add(sellAt)))) return PriceDirection.Increasing;
  if (current.mul(sellUnder).gt(buyOver.add(buyAt))) return PriceDirection.Decreasing;
  return PriceDirection.Staying;
}

/** `CalculateMatchStay`: the pool price stays; the pool does not trade. */
export function calculateMatchStay(book: OrderBook, current: Dec): BatchResult {
  const r = newBatchResult();
  r.swapPrice = current;
  [r.originalEX, r.originalEY] = executableAmt(book, r.swapPrice);
  r.ex = Dec.fromInt(r.originalEX);
  r.ey = Dec.fromInt(r.originalEY);
  r.priceDirection = PriceDirection.Staying;
  const s = r.swapPrice.mul(r.ey);
  if (r.ex.isZero() || r.ey.isZero()) r.matchType = MatchType.No;
  else if (r.ex.equal(s)) r.matchType = MatchType.Exact;
  else {
    r.matchType = MatchType.Fractional;
    if (r.ex.gt(s)) r.ex = s;
    else if (r.ex.lt(s)) r.ey = r.ex.quo(r.swapPrice);
  }
  return r;
}

/** `CalculateSwap`: the scenario of one price level. */
export function calculateSwap(book: OrderBook, direction: PriceDirection, x: Dec, y: Dec, price: Dec, lastPrice: Dec): BatchResult {
  const r = newBatchResult();
  [r.originalEX, r.originalEY] = executableAmt(book, lastPrice.add(price).quo(TWO));
  r.ex = Dec.fromInt(r.originalEX);
  r.ey = Dec.fromInt(r.originalEY);
  r.swapPrice = x.add(r.ex.mulInt64(2)).quo(y.add(r.ey.mulInt64(2)));
  if (direction === PriceDirection.Increasing) {
    r.poolY = r.swapPrice.mul(y).sub(x).quo(r.swapPrice.mulInt64(2));
    if (lastPrice.lt(r.swapPrice) && r.swapPrice.lt(price) && !r.poolY.isNegative()) {
      r.matchType = r.ex.isZero() && r.ey.isZero() ? MatchType.No : MatchType.Exact;
    }
  } else if (direction === PriceDirection.Decreasing) {
    r.poolX = x.sub(r.swapPrice.mul(y)).quoInt64(2);
    if (price.lt(r.swapPrice) && r.swapPrice.lt(lastPrice) && !r.poolX.isNegative()) {
      r.matchType = r.ex.isZero() && r.ey.isZero() ? MatchType.No : MatchType.Exact;
    }
  }
  if (r.matchType === 0) {
    [r.originalEX, r.originalEY] = executableAmt(book, price);
    r.ex = Dec.fromInt(r.originalEX);
    r.ey = Dec.fromInt(r.originalEY);
    r.swapPrice = price;
    if (direction === PriceDirection.Increasing) {
      r.poolY = r.swapPrice.mul(y).sub(x).quo(r.swapPrice.mulInt64(2));
      r.ex = minDec(r.ex, r.ey.add(r.poolY).mul(r.swapPrice)).ceil();
      r.ey = maxDec(minDec(r.ey, r.ex.quo(r.swapPrice).sub(r.poolY)), Dec.zero()).ceil();
    } else if (direction === PriceDirection.Decreasing) {
      r.poolX = x.sub(r.swapPrice.mul(y)).quoInt64(2);
      r.ey = minDec(r.ey, r.ex.add(r.poolX).quo(r.swapPrice)).ceil();
      r.ex = maxDec(minDec(r.ex, r.ey.mul(r.swapPrice).sub(r.poolX)), Dec.zero()).ceil();
    }
    r.matchType = MatchType.Fractional;
  }
  if (direction === PriceDirection.Increasing) {
    r.transactAmt = r.swapPrice.lt(x.quo(y)) || r.poolY.isNegative() ? Dec.zero() : minDec(r.ex, r.ey.add(r.poolY).mul(r.swapPrice));
  } else if (direction === PriceDirection.Decreasing) {
    r.transactAmt = r.swapPrice.gt(x.quo(y)) || r.poolX.isNegative() ? Dec.zero() : minDec(r.ey, r.ex.add(r.poolX).quo(r.swapPrice));
  }
  return r;
}

/** `CalculateMatch`: walks the levels in the direction, keeps the scenarios, picks one. */
export function calculateMatch(book: OrderBook, direction: PriceDirection, x: Dec, y: Dec): { result: BatchResult; found: boolean } {
  const current = x.quo(y);
  let lastPrice = current;
  const scenarios: BatchResult[] = [];
  const n = book.length;
  const indexes = direction === PriceDirection.Decreasing ? [...Array(n).keys()].reverse() : [...Array(n).keys()];
  for (const i of indexes) {
    const order = book[i]!;
    if ((direction === PriceDirection.Increasing && order.price.lt(current)) || (direction === PriceDirection.Decreasing && order.price.gt(current))) continue;
    const r = calculateSwap(book, direction, x, y, order.price, lastPrice);
    if ((direction === PriceDirection.Increasing && r.poolY.sub(r.ex.quo(r.swapPrice)).gte(Dec.one()))
      || (direction === PriceDirection.Decreasing && r.poolX.sub(r.ey.mul(r.swapPrice)).gte(Dec.one()))) continue;
    scenarios.push(r);
    lastPrice = order.price;
  }
  let max = newBatchResult();
  let found = false;
  for (const s of scenarios) {
    const [mex, mey] = mustExecutableAmt(book, s.swapPrice);
    if (s.ex.gte(Dec.fromInt(mex)) && s.ey.gte(Dec.fromInt(mey))) {
      if (s.matchType === MatchType.Exact && s.transactAmt.isPositive()) {
        max = s;
        found = true;
        break;
      } else if (s.transactAmt.gt(max.transactAmt)) {
        max = s;
        found = true;
      }
    }
  }
  max.priceDirection = direction;
  return { result: max, found };
}

/** `OrderBook.Match`: the batch result at the pool's reserves X, Y. */
export function match(book: OrderBook, x: Dec, y: Dec): { result: BatchResult; found: boolean } {
  const current = x.quo(y);
  const direction = priceDirection(book, current);
  if (direction === PriceDirection.Staying) return { result: calculateMatchStay(book, current), found: true };
  return calculateMatch(book, direction, x, y);
}

/** `OrderBook.Validate`: the leftover book must not cross and stay within 10% of the new price. */
export function validateOrderBook(book: OrderBook, current: Dec): boolean {
  if (!current.isPositive()) return false;
  let maxBuy = Dec.zero();
  let minSell = Dec.fromInt(1_000_000_000_000n);
  for (const o of book) {
    if (o.buyOfferAmt > 0n && o.price.gt(maxBuy)) maxBuy = o.price;
    if (o.sellOfferAmt > 0n && o.price.lt(minSell)) minSell = o.price;
  }
  return !(maxBuy.gt(minSell) || maxBuy.quo(current).gt(Dec.fromString('1.10')) || minSell.quo(current).lt(Dec.fromString('0.90')));
}

/** Go's sort.SliceStable on the price: descending for X→Y, ascending for Y→X. */
function sortByPrice(states: SwapMsgState[], direction: OrderDirection): void {
  const sorted = states
    .map((s, i) => ({ s, i, p: orderPrice(s) }))
    .sort((a, b) => (direction === OrderDirection.XtoY ? b.p.cmp(a.p) : a.p.cmp(b.p)) || a.i - b.i)
    .map((e) => e.s);
  states.splice(0, states.length, ...sorted);
}

/** `FindOrderMatch`: the fills of one side against its executable amount at the swap price. */
export function findOrderMatch(direction: OrderDirection, states: SwapMsgState[], executable: Dec, swapPrice: Dec): {
  matchResults: MatchResult[]; poolXDelta: Dec; poolYDelta: Dec;
} {
  let poolXDelta = Dec.zero();
  let poolYDelta = Dec.zero();
  const matchResults: MatchResult[] = [];
  if (executable.isZero()) return { matchResults, poolXDelta, poolYDelta };
  sortByPrice(states, direction);
  let matchAmt = 0n;
  let accum = 0n;
  let group: SwapMsgState[] = [];
  for (let i = 0; i < states.length; i++) {
    const order = states[i]!;
    const price = orderPrice(order);
    if ((direction === OrderDirection.XtoY && price.lt(swapPrice)) || (direction === OrderDirection.YtoX && price.gt(swapPrice))) break;
    matchAmt += amt(order.remaining_offer_coin);
    group.push(order);
    if (i === states.length - 1 || !orderPrice(states[i + 1]!).equal(price)) {
      if (matchAmt > 0n) {
        let ratio: Dec;
        if (Dec.fromInt(accum + matchAmt).gte(executable)) {
          ratio = executable.sub(Dec.fromInt(accum)).quo(Dec.fromInt(matchAmt));
          if (ratio.gt(Dec.one())) throw new Error('fractionalMatchRatio should be between 0 and 1');
        } else ratio = Dec.one();
        if (!ratio.isPositive()) ratio = Dec.one();
        for (const mo of group) {
          const offerAmt = Dec.fromInt(amt(mo.remaining_offer_coin));
          const transacted = offerAmt.mul(ratio).ceil();
          const reserved = Dec.fromInt(amt(mo.reserved_offer_coin_fee));
          const offerFee = offerAmt.sub(transacted).lte(Dec.one()) ? reserved : reserved.mul(ratio);
          const m: MatchResult = {
            orderDirection: direction, offerCoinAmt: offerAmt, transactedCoinAmt: transacted, offerCoinFeeAmt: offerFee,
            exchangedDemandCoinAmt: direction === OrderDirection.XtoY ? transacted.quo(swapPrice) : transacted.mul(swapPrice),
            exchangedCoinFeeAmt: direction === OrderDirection.XtoY ? offerFee.quo(swapPrice) : offerFee.mul(swapPrice),
            swapMsgState: mo,
          };
          if (m.transactedCoinAmt.gt(m.offerCoinAmt)) throw new Error('bad TransactedCoinAmt');
          if (m.offerCoinFeeAmt.gt(m.offerCoinAmt) && m.offerCoinFeeAmt.gt(Dec.one())) throw new Error('bad OfferCoinFeeAmt');
          matchResults.push(m);
          if (direction === OrderDirection.XtoY) {
            poolXDelta = poolXDelta.add(m.transactedCoinAmt);
            poolYDelta = poolYDelta.sub(m.exchangedDemandCoinAmt);
          } else {
            poolXDelta = poolXDelta.sub(m.exchangedDemandCoinAmt);
            poolYDelta = poolYDelta.add(m.transactedCoinAmt);
          }
        }
        accum += matchAmt;
      }
      matchAmt = 0n;
      group = [];
    }
  }
  return { matchResults, poolXDelta, poolYDelta };
}

const setAmt = (c: { amount: string } | null, v: bigint): void => {
  c!.amount = v.toString();
};

/**
 * `UpdateSwapMsgStates`: applies the fills to the msg states (remaining, exchanged, reserved fee; a fill
 * leaving ≤ 1 is a full match, a leftover of exactly 1 is zeroed) and returns the new X, Y. Returns also the
 * total of the zeroed leftovers (`dust`, offer coin units left in the escrow by the original; see the keeper).
 */
export function updateSwapMsgStates(x: Dec, y: Dec, xToY: SwapMsgState[], yToX: SwapMsgState[], mXtoY: MatchResult[], mYtoX: MatchResult[]): {
  x: Dec; y: Dec; poolXDelta: Dec; poolYDelta: Dec;
} {
  sortByPrice(xToY, OrderDirection.XtoY);
  sortByPrice(yToX, OrderDirection.YtoX);
  let poolXDelta = Dec.zero();
  let poolYDelta = Dec.zero();
  let decimalErrorY = Dec.zero();
  for (const m of [...mXtoY, ...mYtoX]) {
    const sms = m.swapMsgState;
    if (m.orderDirection === OrderDirection.XtoY) {
      poolXDelta = poolXDelta.add(m.transactedCoinAmt);
      poolYDelta = poolYDelta.sub(m.exchangedDemandCoinAmt);
    } else {
      poolXDelta = poolXDelta.sub(m.exchangedDemandCoinAmt);
      poolYDelta = poolYDelta.add(m.transactedCoinAmt);
    }
    const t = m.transactedCoinAmt.truncateInt();
    const f = m.offerCoinFeeAmt.truncateInt();
    const full = Dec.fromInt(amt(sms.remaining_offer_coin)).sub(m.transactedCoinAmt).lte(Dec.one());
    setAmt(sms.exchanged_offer_coin, amt(sms.exchanged_offer_coin) + t);
    setAmt(sms.remaining_offer_coin, amt(sms.remaining_offer_coin) - t);
    setAmt(sms.reserved_offer_coin_fee, amt(sms.reserved_offer_coin_fee) - f);
    if (amt(sms.exchanged_offer_coin) < 0n || amt(sms.remaining_offer_coin) < 0n || amt(sms.reserved_offer_coin_fee) < 0n) {
      throw new Error('negative coin amount after update');
    }
    if (full) {
      if (amt(sms.remaining_offer_coin) === 1n) {
        decimalErrorY = decimalErrorY.add(Dec.one());
        setAmt(sms.remaining_offer_coin, 0n);
      }
      if (amt(sms.remaining_offer_coin) !== 0n || amt(sms.exchanged_offer_coin) > amt(sms.msg!.offer_coin) || amt(sms.reserved_offer_coin_fee) > 1n) {
        throw new Error('invalid state after update');
      }
      sms.succeeded = true;
      sms.to_be_deleted = true;
    } else {
      sms.succeeded = true;
      sms.to_be_deleted = false;
    }
  }
  poolYDelta = poolYDelta.add(decimalErrorY);
  return { x: x.add(poolXDelta), y: y.add(poolYDelta), poolXDelta, poolYDelta };
}

/** `ValidateStateAndExpireOrders`: consistency checks; with `expireThisHeight`, orders expiring now are to be deleted. */
export function validateStateAndExpireOrders(states: SwapMsgState[], height: bigint, expireThisHeight: boolean): void {
  for (const o of states) {
    if (!o.executed) throw new Error('not executed');
    if (amt(o.remaining_offer_coin) === 0n) {
      if (!o.succeeded || !o.to_be_deleted) throw new Error('broken state consistency for not matched order');
      continue;
    }
    if (height > o.order_expiry_height) {
      if (o.succeeded || !o.to_be_deleted) throw new Error('broken state consistency for fractional matched order');
      continue;
    }
    if (expireThisHeight && height === o.order_expiry_height) o.to_be_deleted = true;
  }
}

/** `GetOfferCoinFee`: ceil(offer × (swap_fee_rate / 2)) in the offer denom. */
export function offerCoinFee(offerAmount: bigint, swapFeeRate: Dec): bigint {
  if (swapFeeRate.isZero()) return 0n;
  return Dec.fromInt(offerAmount).mul(swapFeeRate.quoInt64(2)).ceil().truncateInt();
}
