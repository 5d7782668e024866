/** Vectors of SDK v0.45 types/dec_coin_test.go (the cases of the operations distribution needs). */
import { expect } from 'chai';
import { Dec, DecCoin, DecCoins, MathError } from '../src/index.js';

const testDenom1 = 'atom';
const testDenom2 = 'muon';
const dc = (denom: string, amount: Dec) => DecCoin.raw(denom, amount);
const P = (text: string) => DecCoins.parse(text);

describe('DecCoin / DecCoins (SDK v0.45 types/dec_coin.go)', () => {
  it('TestNewDecCoin / TestNewDecCoinFromDec / TestNewDecCoinFromCoin', () => {
    expect(() => DecCoin.fromInt(testDenom1, 5)).not.to.throw();
    expect(() => DecCoin.fromInt(testDenom1, 0)).not.to.throw();
    expect(() => DecCoin.fromInt(testDenom1.toUpperCase(), 5)).not.to.throw();
    expect(() => DecCoin.fromInt(testDenom1, -5)).to.throw(MathError);
    expect(() => DecCoin.fromDec(testDenom1, Dec.fromInt(5))).not.to.throw();
    expect(() => DecCoin.fromDec(testDenom1, Dec.zero())).not.to.throw();
    expect(() => DecCoin.fromDec(testDenom1, Dec.fromInt(-5))).to.throw(MathError, 'negative decimal coin amount: -5.000000000000000000');
    expect(() => DecCoin.fromCoin({ denom: testDenom1, amount: '5' })).not.to.throw();
    expect(() => DecCoin.fromCoin({ denom: testDenom1, amount: '-5' })).to.throw(MathError);
    expect(() => DecCoin.fromDec('0BTC', Dec.one())).to.throw(MathError, 'invalid denom: 0BTC');
  });

  it('TestDecCoinIsPositive / TestAddDecCoin', () => {
    expect(DecCoin.fromInt(testDenom1, 5).isPositive()).to.equal(true);
    expect(DecCoin.fromInt(testDenom1, 0).isPositive()).to.equal(false);
    const a1 = DecCoin.fromDec(testDenom1, Dec.withPrec(11, 1));
    const a2 = DecCoin.fromDec(testDenom1, Dec.withPrec(22, 1));
    const b1 = DecCoin.fromDec(testDenom2, Dec.withPrec(11, 1));
    expect(a1.add(a1).toString()).to.equal(a2.toString());
    expect(() => a1.add(b1)).to.throw(MathError, 'coin denom different: atom muon');
  });

  it('TestAddDecCoins', () => {
    const one = Dec.fromInt(1);
    const zero = Dec.zero();
    const two = Dec.fromInt(2);
    const cases: [DecCoins, DecCoins, string][] = [
      [DecCoins.raw([dc(testDenom1, one), dc(testDenom2, one)]), DecCoins.raw([dc(testDenom1, one), dc(testDenom2, one)]), `${two}${testDenom1},${two}${testDenom2}`],
      [DecCoins.raw([dc(testDenom1, zero), dc(testDenom2, one)]), DecCoins.raw([dc(testDenom1, zero), dc(testDenom2, zero)]), `${one}${testDenom2}`],
      [DecCoins.raw([dc(testDenom1, zero), dc(testDenom2, zero)]), DecCoins.raw([dc(testDenom1, zero), dc(testDenom2, zero)]), ''],
    ];
    for (const [a, b, exp] of cases) expect(a.add(...b.coins).toString()).to.equal(exp);
  });

  it('TestFilteredZeroDecCoins: DecCoins.of drops zeros and sorts; the input is unchanged', () => {
    const cases: [DecCoin[], string, string][] = [
      [
        [dc('testa', Dec.fromInt(1)), dc('testb', Dec.fromInt(2)), dc('testc', Dec.fromInt(3)), dc('testd', Dec.fromInt(4)), dc('teste', Dec.fromInt(5))],
        '1.000000000000000000testa,2.000000000000000000testb,3.000000000000000000testc,4.000000000000000000testd,5.000000000000000000teste',
        '1.000000000000000000testa,2.000000000000000000testb,3.000000000000000000testc,4.000000000000000000testd,5.000000000000000000teste',
      ],
      [
        [dc('testa', Dec.fromInt(1)), dc('testb', Dec.fromInt(2)), dc('testc', Dec.fromInt(0)), dc('testd', Dec.fromInt(4)), dc('teste', Dec.fromInt(5))],
        '1.000000000000000000testa,2.000000000000000000testb,0.000000000000000000testc,4.000000000000000000testd,5.000000000000000000teste',
        '1.000000000000000000testa,2.000000000000000000testb,4.000000000000000000testd,5.000000000000000000teste',
      ],
      [
        [dc('teste', Dec.fromInt(5)), dc('testc', Dec.fromInt(3)), dc('testa', Dec.fromInt(1)), dc('testd', Dec.fromInt(4)), dc('testb', Dec.fromInt(0))],
        '5.000000000000000000teste,3.000000000000000000testc,1.000000000000000000testa,4.000000000000000000testd,0.000000000000000000testb',
        '1.000000000000000000testa,3.000000000000000000testc,4.000000000000000000testd,5.000000000000000000teste',
      ],
    ];
    for (const [input, original, expected] of cases) {
      const raw = DecCoins.raw(input);
      expect(DecCoins.of(...input).toString()).to.equal(expected);
      expect(raw.toString()).to.equal(original);
    }
  });

  it('TestIsValid / TestSubDecCoin', () => {
    expect(DecCoin.fromInt('mytoken', 10).isValid()).to.equal(true);
    expect(dc('BTC', Dec.fromInt(10)).isValid()).to.equal(true);
    expect(dc('Bitcoin', Dec.fromInt(10)).isValid()).to.equal(true);
    expect(dc('btc', Dec.fromInt(-10)).isValid()).to.equal(false);
    expect(() => dc('btc', Dec.fromInt(-10)).validate()).to.throw(MathError, 'decimal coin -10.000000000000000000btc amount cannot be negative');

    const ten = DecCoin.fromInt('mytoken', 10);
    expect(DecCoin.fromInt('mytoken', 20).sub(ten).toString()).to.equal(ten.toString());
    expect(() => DecCoin.fromInt('othertoken', 20).sub(ten)).to.throw(MathError);
    expect(() => DecCoin.fromInt('mytoken', 9).sub(ten)).to.throw(MathError, 'negative decimal coin amount');
  });

  it('TestSubDecCoins', () => {
    const decCoins = DecCoins.fromCoins([
      { denom: 'btc', amount: '10' },
      { denom: 'eth', amount: '15' },
      { denom: 'mytoken', amount: '5' },
    ]);
    const sorted = DecCoins.fromCoins([
      { denom: 'mytoken', amount: '10' },
      { denom: 'btc', amount: '20' },
      { denom: 'eth', amount: '30' },
    ]);
    expect(sorted.sub(decCoins).toString()).to.equal(decCoins.toString());
    const unsorted = DecCoins.raw([DecCoin.fromInt('mytoken', 10), DecCoin.fromInt('btc', 20), DecCoin.fromInt('eth', 30)]);
    expect(() => unsorted.sub(decCoins)).to.throw(MathError, 'negative coin amount');
    const invalid = DecCoins.raw([dc('BTC', Dec.fromInt(10)), DecCoin.fromInt('eth', 15), DecCoin.fromInt('mytoken', 5)]);
    expect(() => invalid.sub(decCoins)).to.throw(MathError);
    // SafeSub reports the negative instead
    const [diff, neg] = DecCoins.of(DecCoin.fromInt('btc', 1)).safeSub(decCoins);
    expect(neg).to.equal(true);
    expect(diff.toString()).to.equal('-9.000000000000000000btc,-15.000000000000000000eth,-5.000000000000000000mytoken');
    expect(diff.isAnyNegative()).to.equal(true);
    expect(decCoins.isAnyNegative()).to.equal(false);
    expect(DecCoins.empty().isAnyNegative()).to.equal(false);
  });

  it('TestSortDecCoins: validity before and after sorting', () => {
    const c = (denom: string, n: number) => DecCoin.fromInt(denom, n);
    const cases: [string, DecCoin[], boolean, boolean][] = [
      ['valid coins', [c('gas', 1), c('mineral', 1), c('tree', 1)], true, true],
      ['empty coins', [c('gold', 0)], false, false],
      ['unsorted coins (1)', [c('tree', 1), c('gas', 1), c('mineral', 1)], false, true],
      ['unsorted coins (2)', [c('gas', 1), c('tree', 1), c('mineral', 1)], false, true],
      ['zero amount coins', [c('gas', 1), c('tree', 0), c('mineral', 1)], false, false],
      ['duplicate coins', [c('gas', 1), c('gas', 1), c('mineral', 1)], false, false],
    ];
    for (const [name, coins, before, after] of cases) {
      const set = DecCoins.raw(coins);
      expect(set.isValid(), `${name} before`).to.equal(before);
      expect(set.sort().isValid(), `${name} after`).to.equal(after);
    }
  });

  it('TestDecCoinsValidate (and its messages)', () => {
    const cases: [DecCoin[], boolean][] = [
      [[], true],
      [[dc(testDenom1, Dec.fromInt(5))], true],
      [[dc(testDenom1, Dec.fromInt(5)), dc(testDenom2, Dec.fromInt(100000))], true],
      [[dc(testDenom1, Dec.fromInt(-5))], false],
      [[dc('BTC', Dec.fromInt(5))], true],
      [[dc('0BTC', Dec.fromInt(5))], false],
      [[dc(testDenom1, Dec.fromInt(5)), dc('B', Dec.fromInt(100000))], false],
      [[dc(testDenom1, Dec.fromInt(5)), dc(testDenom2, Dec.fromInt(-100000))], false],
      [[dc(testDenom1, Dec.fromInt(-5)), dc(testDenom2, Dec.fromInt(100000))], false],
      [[dc('BTC', Dec.fromInt(5)), dc(testDenom2, Dec.fromInt(100000))], true],
      [[dc('0BTC', Dec.fromInt(5)), dc(testDenom2, Dec.fromInt(100000))], false],
    ];
    cases.forEach(([coins, pass], i) => expect(DecCoins.raw(coins).isValid(), `case ${i}`).to.equal(pass));
    const msg = (coins: DecCoin[]) => {
      try {
        DecCoins.raw(coins).validate();
        return 'ok';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(msg([dc(testDenom1, Dec.zero())])).to.equal('coin 0.000000000000000000atom amount is not positive');
    expect(msg([dc(testDenom1, Dec.one()), dc(testDenom1, Dec.one())])).to.equal('duplicate denomination atom');
    expect(msg([dc(testDenom2, Dec.one()), dc(testDenom1, Dec.one())])).to.equal('denomination atom is not sorted');
    expect(msg([dc(testDenom1, Dec.one()), dc(testDenom2, Dec.zero())])).to.equal('coin muon amount is not positive');
    expect(msg([dc('B', Dec.one())])).to.equal('invalid denom: B');
  });

  it('TestParseDecCoins', () => {
    const ok: [string, string][] = [
      ['', ''],
      ['0.0stake', ''],
      ['0.004STAKE', '0.004000000000000000STAKE'],
      ['0.004stake', '0.004000000000000000stake'],
      ['5.04atom,0.004stake', '5.040000000000000000atom,0.004000000000000000stake'],
      ['0.0stake,0.004stake,5.04atom', '5.040000000000000000atom,0.004000000000000000stake'],
    ];
    for (const [input, exp] of ok) expect(DecCoins.parse(input).toString(), input).to.equal(exp);
    expect(() => DecCoins.parse('5.5atom,4stake,1.0stake')).to.throw(MathError, 'parsed decimal coins are invalid');
    expect(() => DecCoins.parse('1.0 0BTC')).to.throw(MathError, 'invalid decimal coin expression: 1.0 0BTC');
  });

  it('TestDecCoinsString', () => {
    expect(DecCoins.empty().toString()).to.equal('');
    const coins = DecCoins.raw([DecCoin.fromDec('atom', Dec.withPrec(5040000000000000000n, 18)), DecCoin.fromDec('stake', Dec.withPrec(4000000000000000n, 18))]);
    expect(coins.toString()).to.equal('5.040000000000000000atom,0.004000000000000000stake');
    expect(DecCoin.fromDec('stake', Dec.fromString('1.5')).toString()).to.equal('1.500000000000000000stake');
  });

  it('TestDecCoinsIntersect', () => {
    const cases: [string, string, string][] = [
      ['', '', ''],
      ['1.0stake', '', ''],
      ['1.0stake', '1.0stake', '1.0stake'],
      ['', '1.0stake', ''],
      ['1.0stake', '', ''],
      ['2.0stake,1.0trope', '1.9stake', '1.9stake'],
      ['2.0stake,1.0trope', '2.1stake', '2.0stake'],
      ['2.0stake,1.0trope', '0.9trope', '0.9trope'],
      ['2.0stake,1.0trope', '1.9stake,0.9trope', '1.9stake,0.9trope'],
      ['2.0stake,1.0trope', '1.9stake,0.9trope,20.0other', '1.9stake,0.9trope'],
      ['2.0stake,1.0trope', '1.0other', ''],
    ];
    cases.forEach(([a, b, exp], i) => {
      const res = P(a).intersect(P(b));
      expect(res.isEqual(P(exp)), `case ${i}: ${res}`).to.equal(true);
      expect(res.toString()).to.equal(P(exp).toString());
    });
  });

  it('TestDecCoinsTruncateDecimal', () => {
    const a = DecCoin.fromDec('bar', Dec.fromString('5.41'));
    const b = DecCoin.fromDec('foo', Dec.fromString('6.00'));
    let [trunc, change] = DecCoins.empty().truncateDecimal();
    expect(trunc).to.deep.equal([]);
    expect(change.toString()).to.equal('');
    [trunc, change] = DecCoins.raw([a, b]).truncateDecimal();
    expect(trunc).to.deep.equal([
      { denom: 'bar', amount: '5' },
      { denom: 'foo', amount: '6' },
    ]);
    expect(change.toString()).to.equal('0.410000000000000000bar');
    [trunc, change] = DecCoins.raw([b]).truncateDecimal();
    expect(trunc).to.deep.equal([{ denom: 'foo', amount: '6' }]);
    expect(change.isEmpty()).to.equal(true);
    // a single coin
    const [coin, ch] = DecCoin.fromDec('stake', Dec.fromString('1.5')).truncateDecimal();
    expect(coin).to.deep.equal({ denom: 'stake', amount: '1' });
    expect(ch.toString()).to.equal('0.500000000000000000stake');
  });

  it('TestDecCoinsQuoDecTruncate (and quoDec, mulDec, mulDecTruncate)', () => {
    const x = Dec.fromString('1.00');
    const y = Dec.fromString('10000000000000000000.00');
    expect(() => DecCoins.empty().quoDecTruncate(Dec.zero())).to.throw(MathError, 'invalid zero decimal');
    expect(() => DecCoins.empty().quoDec(Dec.zero())).to.throw(MathError, 'invalid zero decimal');
    expect(DecCoins.raw([DecCoin.fromDec('foo', x)]).quoDecTruncate(y).isEmpty()).to.equal(true);
    expect(DecCoins.raw([DecCoin.fromInt('foo', 5)]).quoDecTruncate(Dec.fromInt(2)).toString()).to.equal('2.500000000000000000foo');

    const thirds = DecCoins.of(DecCoin.fromInt('aaa', 2), DecCoin.fromInt('bbb', 1));
    expect(thirds.quoDec(Dec.fromInt(3)).toString()).to.equal('0.666666666666666667aaa,0.333333333333333333bbb');
    expect(thirds.quoDecTruncate(Dec.fromInt(3)).toString()).to.equal('0.666666666666666666aaa,0.333333333333333333bbb');
    const tiny = DecCoins.of(DecCoin.fromDec('aaa', Dec.fromAtomics(3n)), DecCoin.fromDec('bbb', Dec.fromAtomics(1n)));
    // 3e-18 × 0.5 = 1.5e-18 → 2e-18 (banker's) / 1e-18 (truncate); 1e-18 × 0.5 → 0 (dropped)
    expect(tiny.mulDec(Dec.withPrec(5, 1)).toString()).to.equal('0.000000000000000002aaa');
    expect(tiny.mulDecTruncate(Dec.withPrec(5, 1)).toString()).to.equal('0.000000000000000001aaa');
    expect(tiny.mulDecTruncate(Dec.zero()).isEmpty()).to.equal(true);
  });

  it('TestNewDecCoinsWithIsValid / TestDecCoins_AddDecCoinWithIsValid', () => {
    const base = DecCoins.of(DecCoin.fromInt('mytoken', 10));
    expect(base.isValid()).to.equal(true);
    expect(DecCoins.raw([...base.coins, dc('10BTC', Dec.fromInt(10))]).isValid()).to.equal(false);
    expect(DecCoins.raw([...base.coins, dc('BTC', Dec.fromInt(-10))]).isValid()).to.equal(false);
    const two = DecCoins.of().add(DecCoin.fromInt('mytoken', 10)).add(dc('BTC', Dec.fromInt(10)));
    expect(two.length).to.equal(2);
    expect(DecCoins.of().add(DecCoin.fromInt('mytoken', 10)).add(dc('0BTC', Dec.fromInt(10))).isValid()).to.equal(false);
    expect(DecCoins.of().add(DecCoin.fromInt('mytoken', 10)).add(dc('BTC', Dec.fromInt(-10))).isValid()).to.equal(false);
    expect(() => DecCoins.of(dc('atom', Dec.fromInt(-1)))).to.throw(MathError, 'invalid coin set -1.000000000000000000atom: coin -1.000000000000000000atom amount is not positive');
  });

  it('amountOf, JSON and proto forms', () => {
    const coins = P('1.5stake,2uatom');
    expect(coins.amountOf('stake').toString()).to.equal('1.500000000000000000');
    expect(coins.amountOf('other').isZero()).to.equal(true);
    expect(() => coins.amountOf('0x')).to.throw(MathError, 'invalid denom: 0x');
    expect(coins.toJSON()).to.deep.equal([
      { denom: 'stake', amount: '1.500000000000000000' },
      { denom: 'uatom', amount: '2.000000000000000000' },
    ]);
    expect(coins.toProto()).to.deep.equal([
      { denom: 'stake', amount: '1500000000000000000' },
      { denom: 'uatom', amount: '2000000000000000000' },
    ]);
    expect(DecCoins.fromProto(coins.toProto()).isEqual(coins)).to.equal(true);
    expect(DecCoins.fromJSON(coins.toJSON()).isEqual(coins)).to.equal(true);
  });
});
