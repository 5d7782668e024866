import { expect } from 'chai';
import { Errors } from '@chain/errors';
import type { RegisteredError } from '@chain/errors';
import {
  KEYWORDS, MAXIMUM_MAX_SUPPLY, Prc10Errors, newToken, validateAmount, validateInitialSupply, validateMinUnit, validateName, validateScale,
  validateSymbol, validateToken,
} from '../src/index.js';
import type { Token } from '../src/index.js';
import { ALICE, codec } from './helpers.js';

/** The registered error `f` throws (and its message), or undefined. */
function thrown(f: () => void): { err: RegisteredError | undefined; message: string } | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    const all = [...Object.values(Prc10Errors), Errors.InvalidAddress];
    return { err: all.find((r) => r.is(e)), message: (e as Error).message };
  }
}

const TOKEN: Token = {
  symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: 1000n, max_supply: 10000n, mintable: true, owner: ALICE.address,
};
const checkOwner = (o: string): void => {
  try {
    codec.decode(o);
  } catch (e) {
    throw Errors.InvalidAddress.wrap(`invalid owner address (${(e as Error).message})`);
  }
};

describe('token: validation rules', () => {
  it('symbol: ^[a-z][a-z0-9]{1,7}$, else token 4 with the original message', () => {
    for (const ok of ['ab', 'kitty', 'a1234567', 'z9', 'abcdefgh']) expect(thrown(() => validateSymbol(ok)), ok).to.equal(undefined);
    for (const bad of ['', 'a', 'abcdefghi', 'Kitty', '1abc', 'ab-c', 'ab c', 'ábc', 'ab_c']) {
      const t = thrown(() => validateSymbol(bad));
      expect(t?.err, bad).to.equal(Prc10Errors.InvalidSymbol);
      expect(t?.message).to.equal(`invalid symbol: ${bad}, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid standard denom`);
    }
  });

  it('reserved prefixes: a symbol or min_unit starting with a keyword is token 4 (prefix match)', () => {
    expect(KEYWORDS).to.deep.equal(['ibc', 'btc', 'eth', 'ada', 'bnb', 'usdt', 'xrp', 'link', 'doge', 'eos', 'etc']);
    for (const kw of KEYWORDS) {
      for (const denom of [kw, `${kw}x`]) {
        for (const f of [validateSymbol, validateMinUnit]) {
          const t = thrown(() => f(denom));
          expect(t?.err, `${f.name}(${denom})`).to.equal(Prc10Errors.InvalidSymbol);
          expect(t?.message).to.equal(`invalid token: ${denom}, can not begin with keyword: (ibc|btc|eth|ada|bnb|usdt|xrp|link|doge|eos|etc): invalid standard denom`);
        }
      }
    }
    expect(thrown(() => validateSymbol('ether'))?.err).to.equal(Prc10Errors.InvalidSymbol);
    // a keyword inside is fine
    expect(thrown(() => validateSymbol('abtc'))).to.equal(undefined);
  });

  it('min_unit: the symbol rule, else token 3 with the original message', () => {
    expect(thrown(() => validateMinUnit('ukitty'))).to.equal(undefined);
    const t = thrown(() => validateMinUnit('U-KITTY'));
    expect(t?.err).to.equal(Prc10Errors.InvalidMinUnit);
    expect(t?.message).to.equal('invalid minUnit: U-KITTY, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid token min unit');
  });

  it('name: 1 to 32 bytes of UTF-8, else token 2', () => {
    for (const ok of ['K', 'x'.repeat(32), 'Kätzchen', '猫'.repeat(10)]) expect(thrown(() => validateName(ok)), ok).to.equal(undefined);
    for (const bad of ['', 'x'.repeat(33), '猫'.repeat(11)]) {
      const t = thrown(() => validateName(bad));
      expect(t?.err, bad).to.equal(Prc10Errors.InvalidName);
      expect(t?.message).to.equal(`invalid token name ${bad}, only accepts length (0, 32]: invalid token name`);
    }
  });

  it('scale: at most 8 (genesis: 18), else token 7', () => {
    expect(thrown(() => validateScale(8))).to.equal(undefined);
    expect(thrown(() => validateScale(9))).to.deep.equal({ err: Prc10Errors.InvalidScale, message: 'invalid token scale 9, only accepts value [0, 8]: invalid token scale' });
    expect(thrown(() => validateScale(18, 18))).to.equal(undefined);
    expect(thrown(() => validateScale(19, 18))?.message).to.equal('invalid token scale 19, only accepts value [0, 18]: invalid token scale');
  });

  it('initial supply: at most 100000000000 whole tokens, else token 5; amounts (burn, edit max supply) not 0, else token 6', () => {
    expect(thrown(() => validateInitialSupply(100_000_000_000n))).to.equal(undefined);
    expect(thrown(() => validateInitialSupply(100_000_000_001n))).to.deep.equal({
      err: Prc10Errors.InvalidInitSupply, message: 'invalid token initial supply 100000000001, only accepts value [0, 100000000000]: invalid token initial supply',
    });
    expect(thrown(() => validateAmount(1n))).to.equal(undefined);
    expect(thrown(() => validateAmount(0n))).to.deep.equal({
      err: Prc10Errors.InvalidMaxSupply, message: 'invalid token amount 0, only accepts value (0, 18446744073709551615]: invalid token maximum supply',
    });
  });

  it('max_supply 0: 2^64 − 1 when mintable, the initial supply when not; otherwise kept', () => {
    expect(newToken({ ...TOKEN, max_supply: 0n, mintable: true }).max_supply).to.equal(MAXIMUM_MAX_SUPPLY);
    expect(newToken({ ...TOKEN, max_supply: 0n, mintable: false }).max_supply).to.equal(1000n);
    expect(newToken({ ...TOKEN, max_supply: 5000n }).max_supply).to.equal(5000n);
    expect(newToken({ ...TOKEN, initial_supply: 0n, max_supply: 0n, mintable: false }).max_supply).to.equal(0n);
  });

  it('validateToken: the original order (owner, symbol, min_unit, scale, name, max ≥ initial, initial supply)', () => {
    expect(thrown(() => validateToken(TOKEN, checkOwner))).to.equal(undefined);
    // every field wrong: the owner is reported first, then each in turn as the earlier ones are fixed
    const steps: [Partial<Token>, RegisteredError][] = [
      [{ owner: 'chain1bad' }, Errors.InvalidAddress],
      [{ symbol: 'K' }, Prc10Errors.InvalidSymbol],
      [{ min_unit: 'U' }, Prc10Errors.InvalidMinUnit],
      [{ scale: 9 }, Prc10Errors.InvalidScale],
      [{ name: '' }, Prc10Errors.InvalidName],
      [{ max_supply: 999n }, Prc10Errors.InvalidMaxSupply],
      [{ initial_supply: 200_000_000_000n, max_supply: 300_000_000_000n }, Prc10Errors.InvalidInitSupply],
    ];
    for (let i = 0; i < steps.length; i++) {
      const t: Token = Object.assign({}, TOKEN, ...steps.slice(i).map(([p]) => p).reverse());
      expect(thrown(() => validateToken(t, checkOwner))?.err, `step ${i}`).to.equal(steps[i]![1]);
    }
    expect(thrown(() => validateToken({ ...TOKEN, max_supply: 999n }, checkOwner))?.message)
      .to.equal('invalid token max supply 999, only accepts value [1000, 18446744073709551615]: invalid token maximum supply');
    // a token without owner is not checked for one
    expect(thrown(() => validateToken({ ...TOKEN, owner: '' }, checkOwner))).to.equal(undefined);
  });
});
