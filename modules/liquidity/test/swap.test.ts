/** The pure swap algorithm, ported from tendermint/liquidity v1.4.5 x/liquidity/types/swap_test.go with its expected values. */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import { liquiditySwap as S } from '../src/index.js';

const level = (price: string, buy: bigint, sell: bigint): S.Order => ({ price: Dec.fromString(price), buyOfferAmt: buy, sellOfferAmt: sell, swapMsgStates: [] });
const book = (...levels: S.Order[]): S.OrderBook => [...levels].sort((a, b) => a.price.cmp(b.price));

describe('liquidity: swap algorithm (original swap_test.go)', () => {
  it('TestPriceDirection: increasing, decreasing, staying', () => {
    expect(S.priceDirection(book(level('1', 40000000n, 0n), level('1.1', 40000000n, 0n), level('1.2', 0n, 20000000n)), Dec.fromString('1.0'))).to.equal(S.PriceDirection.Increasing);
    expect(S.priceDirection(book(level('0.7', 20000000n, 0n), level('0.9', 0n, 40000000n), level('0.8', 10000000n, 0n)), Dec.fromString('1.0'))).to.equal(S.PriceDirection.Decreasing);
    expect(S.priceDirection(book(level('1.0', 50000000n, 50000000n)), Dec.fromString('1.0'))).to.equal(S.PriceDirection.Staying);
  });

  it('TestCalculateMatchStay: EX = EY = 5 at price 1 with 5 buy / 7 sell (fractional)', () => {
    const b = book(level('1.0', 5n, 7n));
    expect(S.priceDirection(b, Dec.fromString('1.0'))).to.equal(S.PriceDirection.Staying);
    const r = S.calculateMatchStay(b, Dec.fromString('1.0'));
    expect([r.ex.toString(), r.ey.toString(), r.matchType]).to.deep.equal([Dec.fromInt(5).toString(), Dec.fromInt(5).toString(), S.MatchType.Fractional]);
  });

  it('TestCalculateNoMatchEdgeCase: only sells at and above the price: no match', () => {
    const b = book(level('1.007768598527187219', 0n, 417269600n), level('1.011799672921295968', 0n, 2190665400n));
    expect(S.calculateMatchStay(b, Dec.fromString('1.007768598527187219')).matchType).to.equal(S.MatchType.No);
  });

  it('TestExecutableAmt: Σbuy at or above, Σsell at or below the price', () => {
    const b = book(level('0.8', 0n, 10n), level('1.0', 20n, 30n), level('1.2', 40n, 0n));
    expect(S.executableAmt(b, Dec.fromString('1.0'))).to.deep.equal([60n, 40n]);
    expect(S.mustExecutableAmt(b, Dec.fromString('1.0'))).to.deep.equal([40n, 10n]);
  });

  it('TestOrderbookValidate: a crossed book or one beyond ±10% of the price is invalid', () => {
    expect(S.validateOrderBook(book(level('1.1', 10n, 0n), level('1.2', 0n, 10n)), Dec.fromString('1.0'))).to.equal(true);
    expect(S.validateOrderBook(book(level('1.2', 10n, 0n), level('1.1', 0n, 10n)), Dec.fromString('1.0'))).to.equal(false);
    expect(S.validateOrderBook(book(level('1.11', 10n, 0n)), Dec.fromString('1.0'))).to.equal(false);
    expect(S.validateOrderBook(book(level('0.89', 0n, 10n)), Dec.fromString('1.0'))).to.equal(false);
    expect(S.validateOrderBook(book(level('1.0', 10n, 0n)), Dec.zero())).to.equal(false);
  });

  it('GetOfferCoinFee: ceil(offer × rate/2)', () => {
    expect(S.offerCoinFee(1_000_000n, Dec.withPrec(3, 3))).to.equal(1500n);
    expect(S.offerCoinFee(101n, Dec.withPrec(3, 3))).to.equal(1n);
    expect(S.offerCoinFee(101n, Dec.zero())).to.equal(0n);
  });
});
