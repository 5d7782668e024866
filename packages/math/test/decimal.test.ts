/**
 * Vectors of SDK v0.45 types/decimal_test.go (TestNewDecFromStr, TestDecString, TestEqualities, TestDecsEqual,
 * TestArithmetic, TestBankerRoundChop, TestTruncate, TestDecMarshalJSON, TestStringOverflow, TestDecMulInt,
 * TestDecCeil, TestPower, TestApproxRoot, TestApproxSqrt, TestDecEncoding) plus the maxDecBitLen bound.
 */
import { expect } from 'chai';
import { Dec, MathError, MAX_DEC_BIT_LEN, decsEqual } from '../src/index.js';

const d = (i: bigint | number) => Dec.fromInt(i);
const p = (i: bigint | number, prec: number) => Dec.withPrec(i, prec);
const s = (str: string) => Dec.fromString(str);

describe('Dec (SDK v0.45 types/decimal.go)', () => {
  it('TestNewDecFromStr (and the negated inputs)', () => {
    const largeBigInt = 3144605511029693144278234343371835n;
    const tests: [string, boolean, Dec | null][] = [
      ['', true, null],
      ['0.-75', true, null],
      ['0', false, d(0)],
      ['1', false, d(1)],
      ['1.1', false, p(11, 1)],
      ['0.75', false, p(75, 2)],
      ['0.8', false, p(8, 1)],
      ['0.11111', false, p(11111, 5)],
      ['314460551102969.3144278234343371835', true, null],
      ['314460551102969314427823434337.1835718092488231350', true, null],
      ['314460551102969314427823434337.1835', false, p(largeBigInt, 4)],
      ['.', true, null],
      ['.0', true, null],
      ['1.', true, null],
      ['foobar', true, null],
      ['0.foobar', true, null],
      ['0.foobar.', true, null],
      // beyond maxDecBitLen (the v0.45 bound; vector of the v0.45-derived osmomath suite)
      ['23258839177459420497578361852416145099316523541994177929007686373780457219628733546438113622840434097944400691400517693873107252115668992', true, null],
    ];
    for (const [str, expErr, exp] of tests) {
      for (const [input, sign] of [[str, 1n], ['-' + str, -1n]] as const) {
        if (expErr) {
          expect(() => Dec.fromString(input), input).to.throw(MathError);
        } else {
          const res = Dec.fromString(input);
          expect(res.equal(exp!.mulInt(sign)), `${input}: ${res}`).to.equal(true);
        }
      }
    }
  });

  it('NewDecFromStr error messages (v0.45)', () => {
    const msg = (str: string) => {
      try {
        Dec.fromString(str);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(msg('')).to.equal('decimal string cannot be empty');
    expect(msg('-')).to.equal('decimal string cannot be empty');
    expect(msg('1.')).to.equal('invalid decimal length');
    expect(msg('.5')).to.equal('invalid decimal length');
    expect(msg('1.2.3')).to.equal('invalid decimal string');
    expect(msg('0.1234567890123456789')).to.equal('invalid precision; max: 18, got: 19');
    expect(msg('foobar')).to.equal('failed to set decimal string: foobar000000000000000000');
    expect(msg('0.-75')).to.equal('failed to set decimal string: 0-75000000000000000');
  });

  it('parses as Go big.Int.SetString does (sign inside the digits)', () => {
    expect(s('+1.5').toString()).to.equal('1.500000000000000000');
    // "--1" strips one '-', then SetString("-1000…") succeeds and the sign is flipped back: 1
    expect(s('--1').toString()).to.equal('1.000000000000000000');
  });

  it('TestDecString', () => {
    const tests: [Dec, string][] = [
      [d(0), '0.000000000000000000'],
      [d(1), '1.000000000000000000'],
      [d(10), '10.000000000000000000'],
      [d(12340), '12340.000000000000000000'],
      [p(12340, 4), '1.234000000000000000'],
      [p(12340, 5), '0.123400000000000000'],
      [p(12340, 8), '0.000123400000000000'],
      [p(1009009009009009009n, 17), '10.090090090090090090'],
      [p(-15, 1), '-1.500000000000000000'],
      [p(1, 1), '0.100000000000000000'],
    ];
    for (const [dec, want] of tests) expect(dec.toString()).to.equal(want);
  });

  it('TestEqualities', () => {
    const tests: [Dec, Dec, boolean, boolean, boolean][] = [
      [d(0), d(0), false, false, true],
      [p(0, 2), p(0, 4), false, false, true],
      [p(100, 0), p(100, 0), false, false, true],
      [p(-100, 0), p(-100, 0), false, false, true],
      [p(-1, 1), p(-1, 1), false, false, true],
      [p(3333, 3), p(3333, 3), false, false, true],
      [p(0, 0), p(3333, 3), false, true, false],
      [p(0, 0), p(100, 0), false, true, false],
      [p(-1, 0), p(3333, 3), false, true, false],
      [p(-1, 0), p(100, 0), false, true, false],
      [p(1111, 3), p(100, 0), false, true, false],
      [p(1111, 3), p(3333, 3), false, true, false],
      [p(-3333, 3), p(-1111, 3), false, true, false],
      [p(3333, 3), p(0, 0), true, false, false],
      [p(100, 0), p(0, 0), true, false, false],
      [p(3333, 3), p(-1, 0), true, false, false],
      [p(100, 0), p(-1, 0), true, false, false],
      [p(100, 0), p(1111, 3), true, false, false],
      [p(3333, 3), p(1111, 3), true, false, false],
      [p(-1111, 3), p(-3333, 3), true, false, false],
    ];
    tests.forEach(([d1, d2, gt, lt, eq], i) => {
      expect(d1.gt(d2), `gt ${i}`).to.equal(gt);
      expect(d1.lt(d2), `lt ${i}`).to.equal(lt);
      expect(d1.equal(d2), `eq ${i}`).to.equal(eq);
      expect(d1.gte(d2), `gte ${i}`).to.equal(gt || eq);
      expect(d1.lte(d2), `lte ${i}`).to.equal(lt || eq);
    });
  });

  it('TestDecsEqual', () => {
    const tests: [Dec[], Dec[], boolean][] = [
      [[d(0)], [d(0)], true],
      [[d(0)], [d(1)], false],
      [[d(0)], [], false],
      [[d(0), d(1)], [d(0), d(1)], true],
      [[d(1), d(0)], [d(1), d(0)], true],
      [[d(1), d(0)], [d(0), d(1)], false],
      [[d(1), d(0)], [d(1)], false],
      [[d(1), d(2)], [d(2), d(4)], false],
      [[d(3), d(18)], [d(1), d(6)], false],
    ];
    for (const [a, b, eq] of tests) {
      expect(decsEqual(a, b)).to.equal(eq);
      expect(decsEqual(b, a)).to.equal(eq);
    }
  });

  it('TestArithmetic: add, sub, mul, mulTruncate, quo, quoRoundUp, quoTruncate', () => {
    //            d1      d2      MUL     MulTrunc  QUO     QuoRoundUp QuoTrunc  ADD     SUB
    const tests: [Dec, Dec, Dec, Dec, Dec, Dec, Dec, Dec, Dec][] = [
      [d(0), d(0), d(0), d(0), d(0), d(0), d(0), d(0), d(0)],
      [d(1), d(0), d(0), d(0), d(0), d(0), d(0), d(1), d(1)],
      [d(0), d(1), d(0), d(0), d(0), d(0), d(0), d(1), d(-1)],
      [d(0), d(-1), d(0), d(0), d(0), d(0), d(0), d(-1), d(1)],
      [d(-1), d(0), d(0), d(0), d(0), d(0), d(0), d(-1), d(-1)],
      [d(1), d(1), d(1), d(1), d(1), d(1), d(1), d(2), d(0)],
      [d(-1), d(-1), d(1), d(1), d(1), d(1), d(1), d(-2), d(0)],
      [d(1), d(-1), d(-1), d(-1), d(-1), d(-1), d(-1), d(0), d(2)],
      [d(-1), d(1), d(-1), d(-1), d(-1), d(-1), d(-1), d(0), d(-2)],
      [d(3), d(7), d(21), d(21), p(428571428571428571n, 18), p(428571428571428572n, 18), p(428571428571428571n, 18), d(10), d(-4)],
      [d(2), d(4), d(8), d(8), p(5, 1), p(5, 1), p(5, 1), d(6), d(-2)],
      [d(100), d(100), d(10000), d(10000), d(1), d(1), d(1), d(200), d(0)],
      [p(15, 1), p(15, 1), p(225, 2), p(225, 2), d(1), d(1), d(1), d(3), d(0)],
      [
        p(3333, 4),
        p(333, 4),
        p(1109889, 8),
        p(1109889, 8),
        s('10.009009009009009009'),
        s('10.009009009009009010'),
        s('10.009009009009009009'),
        p(3666, 4),
        p(3, 1),
      ],
    ];
    tests.forEach(([d1, d2, mul, mulT, q, qUp, qT, add, sub], i) => {
      expect(d1.add(d2).toString(), `add ${i}`).to.equal(add.toString());
      expect(d1.sub(d2).toString(), `sub ${i}`).to.equal(sub.toString());
      expect(d1.mul(d2).toString(), `mul ${i}`).to.equal(mul.toString());
      expect(d1.mulTruncate(d2).toString(), `mulTruncate ${i}`).to.equal(mulT.toString());
      if (d2.isZero()) {
        expect(() => d1.quo(d2)).to.throw(MathError, 'division by zero');
        expect(() => d1.quoTruncate(d2)).to.throw(MathError);
        expect(() => d1.quoRoundUp(d2)).to.throw(MathError);
      } else {
        expect(d1.quo(d2).toString(), `quo ${i}`).to.equal(q.toString());
        expect(d1.quoRoundUp(d2).toString(), `quoRoundUp ${i}`).to.equal(qUp.toString());
        expect(d1.quoTruncate(d2).toString(), `quoTruncate ${i}`).to.equal(qT.toString());
      }
    });
  });

  it('mul / quo rounding: banker\'s on the chopped digits, truncation toward zero', () => {
    const tiny = Dec.smallest(); // 1e-18
    const half = p(5, 1);
    // 1e-18 × 0.5 = 0.5e-18 → half to even: 0; 3e-18 × 0.5 = 1.5e-18 → 2e-18
    expect(tiny.mul(half).atomics()).to.equal('0');
    expect(p(3, 18).mul(half).atomics()).to.equal('2');
    expect(p(5, 18).mul(half).atomics()).to.equal('2');
    expect(p(-3, 18).mul(half).atomics()).to.equal('-2');
    expect(p(3, 18).mulTruncate(half).atomics()).to.equal('1');
    expect(p(-3, 18).mulTruncate(half).atomics()).to.equal('-1');
    // 2/3 = 0.666…67 (banker's), truncate 0.666…66, round up 0.666…67
    expect(d(2).quo(d(3)).toString()).to.equal('0.666666666666666667');
    expect(d(2).quoTruncate(d(3)).toString()).to.equal('0.666666666666666666');
    expect(d(2).quoRoundUp(d(3)).toString()).to.equal('0.666666666666666667');
    expect(d(-2).quoRoundUp(d(3)).toString()).to.equal('-0.666666666666666666');
    expect(d(-2).quo(d(3)).toString()).to.equal('-0.666666666666666667');
    // quoInt truncates the atomics toward zero
    expect(d(2).quoInt(3).toString()).to.equal('0.666666666666666666');
    expect(d(-2).quoInt64(3).toString()).to.equal('-0.666666666666666666');
    expect(p(13, 2).mulInt64(-3).toString()).to.equal('-0.390000000000000000');
  });

  it('TestBankerRoundChop (roundInt64, positive and negated)', () => {
    const tests: [string, bigint][] = [
      ['0.25', 0n],
      ['0', 0n],
      ['1', 1n],
      ['0.75', 1n],
      ['0.5', 0n],
      ['7.5', 8n],
      ['1.5', 2n],
      ['2.5', 2n],
      ['0.545', 1n],
      ['1.545', 2n],
    ];
    for (const [str, exp] of tests) {
      expect(s(str).neg().roundInt64(), `-${str}`).to.equal(-exp);
      expect(s(str).roundInt64(), str).to.equal(exp);
      expect(s(str).roundInt(), str).to.equal(exp);
    }
  });

  it('TestTruncate (truncateInt64, positive and negated) and truncateDec', () => {
    const tests: [string, bigint][] = [
      ['0', 0n],
      ['0.25', 0n],
      ['0.75', 0n],
      ['1', 1n],
      ['1.5', 1n],
      ['7.5', 7n],
      ['7.6', 7n],
      ['7.4', 7n],
      ['100.1', 100n],
      ['1000.1', 1000n],
    ];
    for (const [str, exp] of tests) {
      expect(s(str).neg().truncateInt64()).to.equal(-exp);
      expect(s(str).truncateInt64()).to.equal(exp);
      expect(s(str).truncateInt()).to.equal(exp);
      expect(s(str).truncateDec().toString()).to.equal(d(exp).toString());
    }
    expect(() => d(2n ** 63n).truncateInt64()).to.throw(MathError, 'Int64() out of bound');
    expect(() => d(2n ** 63n).roundInt64()).to.throw(MathError, 'Int64() out of bound');
  });

  it('TestDecMarshalJSON (atomics → JSON text)', () => {
    const tests: [Dec, string][] = [
      [Dec.fromAtomics(0n), '"0.000000000000000000"'],
      [Dec.fromAtomics(1n), '"0.000000000000000001"'],
      [Dec.fromAtomics(10n), '"0.000000000000000010"'],
      [Dec.fromAtomics(12340n), '"0.000000000000012340"'],
      [d(0), '"0.000000000000000000"'],
      [d(1), '"1.000000000000000000"'],
      [d(10), '"10.000000000000000000"'],
      [d(12340), '"12340.000000000000000000"'],
    ];
    for (const [dec, want] of tests) {
      const json = JSON.stringify(dec);
      expect(json).to.equal(want);
      expect(Dec.fromString(JSON.parse(json) as string).equal(dec)).to.equal(true);
    }
  });

  it('TestStringOverflow', () => {
    const dec3 = s('51643150036226787134389711697696177267').add(s('-31798496660535729618459429845579852627'));
    expect(dec3.toString()).to.equal('19844653375691057515930281852116324640.000000000000000000');
  });

  it('TestDecMulInt', () => {
    expect(d(10).mulInt(2n).equal(d(20))).to.equal(true);
    expect(d(1000000).mulInt(100n).equal(d(100000000))).to.equal(true);
    expect(p(1, 1).mulInt(10n).equal(d(1))).to.equal(true);
    expect(p(1, 5).mulInt(20n).equal(p(2, 4))).to.equal(true);
  });

  it('TestDecCeil', () => {
    const tests: [Dec, Dec][] = [
      [p(1000000000000000n, 18), d(1)],
      [p(-1000000000000000n, 18), Dec.zero()],
      [Dec.zero(), Dec.zero()],
      [p(900000000000000000n, 18), d(1)],
      [p(4001000000000000000n, 18), d(5)],
      [p(-4001000000000000000n, 18), d(-4)],
      [p(4700000000000000000n, 18), d(5)],
      [p(-4700000000000000000n, 18), d(-4)],
    ];
    for (const [input, exp] of tests) expect(input.ceil().toString(), input.toString()).to.equal(exp.toString());
  });

  it('TestPower (within 1e-18)', () => {
    const tests: [Dec, number, Dec][] = [
      [Dec.one(), 10, Dec.one()],
      [p(5, 1), 2, p(25, 2)],
      [p(2, 1), 2, p(4, 2)],
      [d(3), 3, d(27)],
      [d(-3), 4, d(81)],
      [p(1414213562373095049n, 18), 2, d(2)],
    ];
    for (const [input, power, exp] of tests) {
      const res = input.power(power);
      expect(exp.sub(res).abs().lte(Dec.smallest()), `${input}^${power} = ${res}`).to.equal(true);
    }
    expect(d(7).power(0).equal(Dec.one())).to.equal(true);
    // exact: 1.414213562373095049^2 = 2.000000000000000000 98… → 2.000000000000000001 after the banker's chop
    expect(p(1414213562373095049n, 18).power(2).toString()).to.equal('2.000000000000000001');
  });

  it('TestApproxRoot (within 1e-18)', () => {
    const tests: [Dec, number, Dec][] = [
      [Dec.one(), 10, Dec.one()],
      [p(25, 2), 2, p(5, 1)],
      [p(4, 2), 2, p(2, 1)],
      [d(27), 3, d(3)],
      [d(-81), 4, d(-3)],
      [d(2), 2, p(1414213562373095049n, 18)],
      [p(1005, 3), 31536000, s('1.000000000158153904')],
      [Dec.smallest(), 2, p(1, 9)],
      [Dec.smallest(), 3, s('0.000000999999999997')],
      [p(1, 8), 3, s('0.002154434690031900')],
    ];
    for (const [input, root, exp] of tests) {
      const res = input.approxRoot(root);
      expect(exp.sub(res).abs().lte(Dec.smallest()), `${input}^(1/${root}) = ${res}`).to.equal(true);
    }
    expect(d(5).approxRoot(0).equal(Dec.one())).to.equal(true);
    expect(d(5).approxRoot(1).equal(d(5))).to.equal(true);
  });

  it('TestApproxSqrt (exact)', () => {
    const tests: [Dec, Dec][] = [
      [Dec.one(), Dec.one()],
      [p(25, 2), p(5, 1)],
      [p(4, 2), p(2, 1)],
      [d(9), d(3)],
      [d(-9), d(-3)],
      [d(2), p(1414213562373095049n, 18)],
    ];
    for (const [input, exp] of tests) expect(input.approxSqrt().toString()).to.equal(exp.toString());
  });

  it('TestDecEncoding: wire bytes are the ASCII of the atomics, JSON the 18-decimal text', () => {
    const tests: [Dec, string, string][] = [
      [d(0), '30', '"0.000000000000000000"'],
      [p(4, 2), '3430303030303030303030303030303030', '"0.040000000000000000"'],
      [p(-4, 2), '2D3430303030303030303030303030303030', '"-0.040000000000000000"'],
      [p(1414213562373095049n, 18), '31343134323133353632333733303935303439', '"1.414213562373095049"'],
      [p(-1414213562373095049n, 18), '2D31343134323133353632333733303935303439', '"-1.414213562373095049"'],
    ];
    for (const [input, rawHex, json] of tests) {
      const bz = input.atomicsBytes();
      expect(Buffer.from(bz).toString('hex').toUpperCase()).to.equal(rawHex);
      expect(Dec.fromAtomicsBytes(bz).equal(input)).to.equal(true);
      expect(Dec.fromAtomics(input.atomics()).equal(input)).to.equal(true);
      expect(JSON.stringify(input)).to.equal(json);
    }
    expect(Dec.fromAtomicsBytes(new Uint8Array()).isZero()).to.equal(true);
  });

  describe('overflow: maxDecBitLen = 256 + 60', () => {
    const maxAtomics = 2n ** BigInt(MAX_DEC_BIT_LEN) - 1n;
    const max = Dec.fromAtomics(maxAtomics);

    it('is 316 bits; the largest Dec parses and prints, one atom more does not', () => {
      expect(MAX_DEC_BIT_LEN).to.equal(316);
      const text = max.toString();
      expect(text).to.equal('133499189745056880149688856635597007162669032647290798121690100488888732861290.034376435130433535');
      expect(Dec.fromString(text).equal(max)).to.equal(true);
      expect(Dec.fromString('-' + text).equal(max.neg())).to.equal(true);
      expect(() => Dec.fromString('133499189745056880149688856635597007162669032647290798121690100488888732861290.034376435130433536')).to.throw(
        MathError,
        'decimal out of range; bitLen: got 317, max 316',
      );
      expect(() => Dec.fromAtomics(maxAtomics + 1n)).to.throw(MathError, 'Int overflow');
      expect(() => Dec.fromAtomics((maxAtomics + 1n).toString())).to.throw(MathError, 'decimal out of range; got: 317, max: 316');
    });

    it('add, sub, mul, mulInt, quo panic with Int overflow past the bound', () => {
      expect(() => max.add(Dec.smallest())).to.throw(MathError, 'Int overflow');
      expect(() => max.neg().sub(Dec.smallest())).to.throw(MathError, 'Int overflow');
      expect(() => max.mul(d(2))).to.throw(MathError, 'Int overflow');
      expect(() => max.mulTruncate(d(2))).to.throw(MathError, 'Int overflow');
      expect(() => max.mulInt(2n)).to.throw(MathError, 'Int overflow');
      expect(() => max.quo(p(5, 1))).to.throw(MathError, 'Int overflow');
      expect(() => max.quoTruncate(p(5, 1))).to.throw(MathError, 'Int overflow');
      expect(() => max.quoRoundUp(p(5, 1))).to.throw(MathError, 'Int overflow');
      expect(max.add(Dec.smallest().neg()).sub(Dec.zero()).equal(Dec.fromAtomics(maxAtomics - 1n))).to.equal(true);
      expect(max.mul(Dec.one()).equal(max)).to.equal(true);
    });

    it('approxRoot reports an overflow as "out of bounds"', () => {
      expect(() => max.approxRoot(3)).to.throw(MathError, 'out of bounds');
    });
  });

  it('min / max', () => {
    expect(Dec.min(d(1), d(2)).equal(d(1))).to.equal(true);
    expect(Dec.max(d(1), d(2)).equal(d(2))).to.equal(true);
    expect(Dec.min(d(-1), d(-1)).equal(d(-1))).to.equal(true);
  });
});
