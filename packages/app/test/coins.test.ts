import { expect } from 'chai';
import { Errors } from '@chain/errors';
import {
  isValidDenom, validateDenom, parseAmount, coinsToString, validateCoins, parseCoins, parseDecCoins, decToString, addCoins, amountOf, DEC_SCALE,
} from '../src/index.js';
import type { Coin } from '../src/index.js';

const c = (amount: string | number, denom: string): Coin => ({ denom, amount: String(amount) });

/** The call must throw invalid coins (sdk code 10) with exactly this message. */
function expectInvalidCoins(f: () => unknown, message: string): void {
  try {
    f();
    expect.fail('should have thrown');
  } catch (e) {
    expect(Errors.InvalidCoins.is(e), String(e)).to.equal(true);
    expect((e as Error).message).to.equal(message);
  }
}

describe('app: coins', () => {
  it('denoms: a letter, then 2-127 of [a-zA-Z0-9/:._-]', () => {
    for (const d of ['abc', 'achain', 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2', 'a:b', 'x.y_z-w', 'A' + 'b'.repeat(127)]) {
      expect(isValidDenom(d), d).to.equal(true);
    }
    for (const d of ['', 'ab', '1abc', '-abc', 'ab c', 'abc!', 'a' + 'b'.repeat(128), 'é' + 'bc']) {
      expect(isValidDenom(d), d).to.equal(false);
    }
    expectInvalidCoins(() => validateDenom('ab'), 'invalid denom: ab: invalid coins');
  });

  it('amounts: non-negative decimal integers only', () => {
    expect(parseAmount('0')).to.equal(0n);
    expect(parseAmount('000123')).to.equal(123n);
    expect(parseAmount('1' + '0'.repeat(77))).to.equal(10n ** 77n);
    for (const a of ['', '-1', '1.5', '1e3', ' 1', '0x10', '1'.repeat(79)]) expectInvalidCoins(() => parseAmount(a), `invalid amount: ${a}: invalid coins`);
  });

  it('validateCoins: sorted, unique, positive; empty allowed unless told otherwise', () => {
    expect(() => validateCoins([c(1, 'abc'), c(2, 'abd')])).to.not.throw();
    expect(() => validateCoins([])).to.not.throw();
    expectInvalidCoins(() => validateCoins([], false), 'empty coins: invalid coins');
    expectInvalidCoins(() => validateCoins([c(2, 'bbb'), c(1, 'aaa')]), 'denomination aaa is not sorted or is duplicated: invalid coins');
    expectInvalidCoins(() => validateCoins([c(1, 'aaa'), c(2, 'aaa')]), 'denomination aaa is not sorted or is duplicated: invalid coins');
    expectInvalidCoins(() => validateCoins([c(1, 'aaa'), c(0, 'bbb')]), '1aaa,0bbb: invalid coins');
    expectInvalidCoins(() => validateCoins([c(1, 'a')]), 'invalid denom: a: invalid coins');
    expectInvalidCoins(() => validateCoins([c('x', 'aaa')]), 'invalid amount: x: invalid coins');
  });

  it('coinsToString joins amount+denom with commas', () => {
    expect(coinsToString([c(10, 'achain'), c(5, 'foo')])).to.equal('10achain,5foo');
    expect(coinsToString([])).to.equal('');
  });

  it('parseCoins: sorts by denom, trims, normalizes leading zeros', () => {
    expect(parseCoins('10foo,5achain')).to.deep.equal([c(5, 'achain'), c(10, 'foo')]);
    expect(parseCoins(' 007abc , 1ibc/ABC ')).to.deep.equal([c(7, 'abc'), c(1, 'ibc/ABC')]);
    expect(parseCoins('')).to.deep.equal([]);
    expect(parseCoins('   ')).to.deep.equal([]);
    for (const bad of ['10', 'foo', '1.5foo', '-1foo', '10 foo', '10fo', '1foo,,2bar']) {
      expect(() => parseCoins(bad), bad).to.throw(/invalid coin expression: .*: invalid coins$/);
    }
  });

  it('parseDecCoins: 18-decimal fixed point', () => {
    expect(parseDecCoins('0.025achain')).to.deep.equal([{ denom: 'achain', amount: 25n * 10n ** 15n }]);
    expect(parseDecCoins('1foo,0.000000000000000001bar')).to.deep.equal([{ denom: 'foo', amount: DEC_SCALE }, { denom: 'bar', amount: 1n }]);
    expect(parseDecCoins('12achain')).to.deep.equal([{ denom: 'achain', amount: 12n * DEC_SCALE }]);
    expect(parseDecCoins('')).to.deep.equal([]);
    for (const bad of ['0.0000000000000000001achain', '.5achain', '1.achain', 'achain', '1.5']) {
      expect(() => parseDecCoins(bad), bad).to.throw(`invalid decimal coin expression: ${bad}: invalid coins`);
    }
  });

  it('decToString prints 18 decimals, negatives too', () => {
    expect(decToString(25n * 10n ** 15n)).to.equal('0.025000000000000000');
    expect(decToString(3n * DEC_SCALE + 1n)).to.equal('3.000000000000000001');
    expect(decToString(0n)).to.equal('0.000000000000000000');
    expect(decToString(-DEC_SCALE / 2n)).to.equal('-0.500000000000000000');
  });

  it('addCoins merges, sorts and drops zeros; amountOf reads one denom', () => {
    expect(addCoins([c(1, 'foo'), c(2, 'abc')], [c(3, 'foo'), c(4, 'zed')])).to.deep.equal([c(2, 'abc'), c(4, 'foo'), c(4, 'zed')]);
    expect(addCoins([c(5, 'foo')], [c(-5, 'foo'), c(1, 'bar')])).to.deep.equal([c(1, 'bar')]);
    expect(addCoins([], [])).to.deep.equal([]);
    expect(amountOf([c(7, 'foo'), c(1, 'bar')], 'foo')).to.equal(7n);
    expect(amountOf([c(7, 'foo')], 'nope')).to.equal(0n);
  });
});
