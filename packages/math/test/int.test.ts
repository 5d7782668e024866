import { expect } from 'chai';
import {
  CHAIN_POWER_REDUCTION,
  DEFAULT_POWER_REDUCTION,
  MathError,
  bitLen,
  checkInt,
  parseInt256,
  tokensFromConsensusPower,
  tokensToConsensusPower,
} from '../src/index.js';

describe('Int helpers (SDK v0.45 types/int.go, types/staking.go)', () => {
  it('checkInt: the 256-bit bound of sdk.Int', () => {
    const max = 2n ** 256n - 1n;
    expect(checkInt(max)).to.equal(max);
    expect(checkInt(-max)).to.equal(-max);
    expect(() => checkInt(max + 1n)).to.throw(MathError, 'Int overflow');
    expect(() => checkInt(-(max + 1n))).to.throw(MathError, 'Int overflow');
    expect(bitLen(0n)).to.equal(0);
    expect(bitLen(-8n)).to.equal(4);
    expect(parseInt256('123')).to.equal(123n);
    expect(() => parseInt256('1.5')).to.throw(MathError);
    expect(() => parseInt256((max + 1n).toString())).to.throw(MathError, 'Int overflow');
  });

  it('TokensToConsensusPower / TokensFromConsensusPower', () => {
    expect(DEFAULT_POWER_REDUCTION).to.equal(1_000_000n);
    expect(tokensToConsensusPower(1_999_999n, DEFAULT_POWER_REDUCTION)).to.equal(1n);
    expect(tokensToConsensusPower(999_999n, DEFAULT_POWER_REDUCTION)).to.equal(0n);
    expect(tokensFromConsensusPower(5n, DEFAULT_POWER_REDUCTION)).to.equal(5_000_000n);
    expect(tokensToConsensusPower(10n ** 18n * 7n + 1n, CHAIN_POWER_REDUCTION)).to.equal(7n);
    expect(tokensFromConsensusPower(7, CHAIN_POWER_REDUCTION)).to.equal(7n * 10n ** 18n);
    expect(() => tokensToConsensusPower(2n ** 63n, 1n)).to.throw(MathError, 'Int64() out of bound');
  });
});
