/**
 * `Dec`: the Cosmos SDK v0.45 `sdk.Dec` (types/decimal.go), bit for bit. A signed fixed-point number with 18
 * decimals held as a bigint of atomics (value × 10^18). Immutable: every operation returns a new Dec.
 *
 * Rounding follows the SDK exactly (see the README's table): `mul` and `quo` chop 18 digits with banker's
 * rounding (half to even, on the absolute value), `mulTruncate` / `quoTruncate` / `quoInt` truncate toward
 * zero, `quoRoundUp` rounds the chopped digits away from zero for positive results and truncates negative
 * ones. Results whose atomics exceed `MAX_DEC_BIT_LEN` (256 + 60) bits throw `Int overflow`, as the SDK panics.
 */
import { MathError } from './errors.js';
import { bitLen } from './int.js';

/** Number of decimal places (`sdk.Precision`). */
export const PRECISION = 18;
/** Bits needed for the decimals, Ceiling[Log2[999 999 999 999 999 999]] (`DecimalPrecisionBits`). */
export const DECIMAL_PRECISION_BITS = 60;
/** `maxBitLen` of `sdk.Int` in v0.45 (types/int.go). */
export const MAX_INT_BIT_LEN = 256;
/** Largest bit length of a Dec's atomics (`maxDecBitLen = maxBitLen + DecimalPrecisionBits`). */
export const MAX_DEC_BIT_LEN = MAX_INT_BIT_LEN + DECIMAL_PRECISION_BITS;
/** Iteration bound of `approxRoot` (`maxApproxRootIterations`). */
export const MAX_APPROX_ROOT_ITERATIONS = 100;

const PRECISION_REUSE = 10n ** 18n;
const FIVE_PRECISION = PRECISION_REUSE / 2n;

/** The SDK's decimal errors (`ErrEmptyDecimalStr`, `ErrInvalidDecimalLength`, `ErrInvalidDecimalStr`). */
export const DecErrors = {
  EmptyDecimalStr: 'decimal string cannot be empty',
  InvalidDecimalLength: 'invalid decimal length',
  InvalidDecimalStr: 'invalid decimal string',
} as const;

function checkDec(atomics: bigint): bigint {
  if (bitLen(atomics) > MAX_DEC_BIT_LEN) throw new MathError('Int overflow');
  return atomics;
}

/** Go `big.Int.Quo`: truncated division; division by zero throws as Go panics. */
function quo(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new MathError('division by zero');
  return a / b; // bigint division truncates toward zero, as Go's Quo
}

/** Removes 18 digits with banker's rounding (`chopPrecisionAndRound`). */
function chopPrecisionAndRound(d: bigint): bigint {
  if (d < 0n) return -chopPrecisionAndRound(-d);
  const q = d / PRECISION_REUSE;
  const rem = d % PRECISION_REUSE;
  if (rem === 0n) return q;
  if (rem < FIVE_PRECISION) return q;
  if (rem > FIVE_PRECISION) return q + 1n;
  return (q & 1n) === 0n ? q : q + 1n;
}

/** Removes 18 digits rounding up positive values, truncating negative ones (`chopPrecisionAndRoundUp`). */
function chopPrecisionAndRoundUp(d: bigint): bigint {
  if (d < 0n) return -((-d) / PRECISION_REUSE);
  const q = d / PRECISION_REUSE;
  return d % PRECISION_REUSE === 0n ? q : q + 1n;
}

/** Removes 18 digits truncating toward zero (`chopPrecisionAndTruncate`). */
function chopPrecisionAndTruncate(d: bigint): bigint {
  return d / PRECISION_REUSE;
}

/** Go's `new(big.Int).SetString(s, 10)`: optional sign then decimal digits. */
function parseBase10(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  return BigInt(s);
}

export type IntLike = bigint | number | string;

function toBigInt(i: IntLike): bigint {
  if (typeof i === 'bigint') return i;
  if (typeof i === 'number') {
    if (!Number.isSafeInteger(i)) throw new MathError(`not a safe integer: ${i}`);
    return BigInt(i);
  }
  const v = parseBase10(i);
  if (v === undefined) throw new MathError(`invalid integer: ${JSON.stringify(i)}`);
  return v;
}

export class Dec {
  /** The atomics: value × 10^18. */
  readonly i: bigint;

  private constructor(atomics: bigint) {
    this.i = atomics;
  }

  // ---- constructors ----

  /** `ZeroDec()` */
  static zero(): Dec {
    return new Dec(0n);
  }
  /** `OneDec()` */
  static one(): Dec {
    return new Dec(PRECISION_REUSE);
  }
  /** `SmallestDec()`: 10^-18 */
  static smallest(): Dec {
    return new Dec(1n);
  }

  /** `NewDec` / `NewDecFromInt` / `NewDecFromBigInt`: a whole number. */
  static fromInt(i: IntLike): Dec {
    return Dec.withPrec(i, 0);
  }

  /** `NewDecWithPrec(i, prec)`: i × 10^-prec (prec ≤ 18). */
  static withPrec(i: IntLike, prec: number): Dec {
    if (!Number.isInteger(prec) || prec < 0 || prec > PRECISION) {
      throw new MathError(`too much precision, maximum ${PRECISION}, provided ${prec}`);
    }
    return new Dec(toBigInt(i) * 10n ** BigInt(PRECISION - prec));
  }

  /** From atomics (the wire form: the ASCII of the atomics, or the bigint). Checks the SDK's bound. */
  static fromAtomics(atomics: bigint | string): Dec {
    if (typeof atomics === 'bigint') return new Dec(checkDec(atomics));
    const v = parseBase10(atomics);
    if (v === undefined) throw new MathError(`math/big: cannot unmarshal ${JSON.stringify(atomics)} into a *big.Int`);
    if (bitLen(v) > MAX_DEC_BIT_LEN) throw new MathError(`decimal out of range; got: ${bitLen(v)}, max: ${MAX_DEC_BIT_LEN}`);
    return new Dec(v);
  }

  /**
   * `NewDecFromStr`: `[-]digits[.digits]` with at most 18 decimals; the SDK's rules and messages (v0.45):
   * `decimal string cannot be empty`, `invalid decimal length` (`1.`, `.5`), `invalid decimal string` (two
   * points), `invalid precision; max: 18, got: N`, `failed to set decimal string: <digits>`,
   * `decimal out of range; bitLen: got N, max 316`.
   */
  static fromString(input: string): Dec {
    let str = input;
    if (str.length === 0) throw new MathError(DecErrors.EmptyDecimalStr);
    let neg = false;
    if (str[0] === '-') {
      neg = true;
      str = str.slice(1);
    }
    if (str.length === 0) throw new MathError(DecErrors.EmptyDecimalStr);
    const strs = str.split('.');
    let lenDecs = 0;
    let combinedStr = strs[0]!;
    if (strs.length === 2) {
      lenDecs = strs[1]!.length;
      if (lenDecs === 0 || combinedStr.length === 0) throw new MathError(DecErrors.InvalidDecimalLength);
      combinedStr += strs[1]!;
    } else if (strs.length > 2) {
      throw new MathError(DecErrors.InvalidDecimalStr);
    }
    if (lenDecs > PRECISION) throw new MathError(`invalid precision; max: ${PRECISION}, got: ${lenDecs}`);
    combinedStr += '0'.repeat(PRECISION - lenDecs);
    let combined = parseBase10(combinedStr);
    if (combined === undefined) throw new MathError(`failed to set decimal string: ${combinedStr}`);
    if (bitLen(combined) > MAX_DEC_BIT_LEN) {
      throw new MathError(`decimal out of range; bitLen: got ${bitLen(combined)}, max ${MAX_DEC_BIT_LEN}`);
    }
    if (neg) combined = -combined;
    return new Dec(combined);
  }

  /** `MinDec` */
  static min(a: Dec, b: Dec): Dec {
    return a.lt(b) ? a : b;
  }
  /** `MaxDec` */
  static max(a: Dec, b: Dec): Dec {
    return a.lt(b) ? b : a;
  }

  /** `fromString`, or undefined on error. */
  static tryFromString(input: string): Dec | undefined {
    try {
      return Dec.fromString(input);
    } catch {
      return undefined;
    }
  }

  // ---- wire ----

  /** The wire form (`Dec.Marshal`): the decimal text of the atomics, `"0"` for zero. */
  atomics(): string {
    return this.i.toString();
  }

  /** The wire form as bytes (ASCII of the atomics), as a `bytes` field with the Dec customtype carries it. */
  atomicsBytes(): Uint8Array {
    return new TextEncoder().encode(this.atomics());
  }

  /** From the bytes of a `bytes` Dec field (empty = zero). */
  static fromAtomicsBytes(b: Uint8Array): Dec {
    if (b.length === 0) return Dec.zero();
    return Dec.fromAtomics(new TextDecoder().decode(b));
  }

  // ---- predicates and comparisons ----

  isZero(): boolean {
    return this.i === 0n;
  }
  isNegative(): boolean {
    return this.i < 0n;
  }
  isPositive(): boolean {
    return this.i > 0n;
  }
  /** No decimals (`IsInteger`). */
  isInteger(): boolean {
    return this.i % PRECISION_REUSE === 0n;
  }
  equal(d: Dec): boolean {
    return this.i === d.i;
  }
  gt(d: Dec): boolean {
    return this.i > d.i;
  }
  gte(d: Dec): boolean {
    return this.i >= d.i;
  }
  lt(d: Dec): boolean {
    return this.i < d.i;
  }
  lte(d: Dec): boolean {
    return this.i <= d.i;
  }
  /** -1, 0, 1 */
  cmp(d: Dec): number {
    return this.i < d.i ? -1 : this.i > d.i ? 1 : 0;
  }

  // ---- arithmetic ----

  neg(): Dec {
    return new Dec(-this.i);
  }
  abs(): Dec {
    return new Dec(this.i < 0n ? -this.i : this.i);
  }
  add(d: Dec): Dec {
    return new Dec(checkDec(this.i + d.i));
  }
  sub(d: Dec): Dec {
    return new Dec(checkDec(this.i - d.i));
  }
  /** Product, 18 digits chopped with banker's rounding. */
  mul(d: Dec): Dec {
    return new Dec(checkDec(chopPrecisionAndRound(this.i * d.i)));
  }
  /** Product, 18 digits truncated toward zero. */
  mulTruncate(d: Dec): Dec {
    return new Dec(checkDec(chopPrecisionAndTruncate(this.i * d.i)));
  }
  /** Exact product with an integer. */
  mulInt(i: IntLike): Dec {
    return new Dec(checkDec(this.i * toBigInt(i)));
  }
  /** `MulInt64` (same as mulInt). */
  mulInt64(i: IntLike): Dec {
    return this.mulInt(i);
  }
  /** (a × 10^36) / b truncated, then 18 digits chopped with banker's rounding. */
  quo(d: Dec): Dec {
    return new Dec(checkDec(chopPrecisionAndRound(quo(this.i * PRECISION_REUSE * PRECISION_REUSE, d.i))));
  }
  /** (a × 10^36) / b truncated, then 18 digits truncated: (a × 10^18) / b toward zero. */
  quoTruncate(d: Dec): Dec {
    return new Dec(checkDec(chopPrecisionAndTruncate(quo(this.i * PRECISION_REUSE * PRECISION_REUSE, d.i))));
  }
  /**
   * (a × 10^36) / b truncated, then 18 digits chopped rounding up (positive) or truncating (negative): the
   * v0.45 `QuoRoundUp`, which looks only at the chopped digits of the truncated 36-digit quotient.
   */
  quoRoundUp(d: Dec): Dec {
    return new Dec(checkDec(chopPrecisionAndRoundUp(quo(this.i * PRECISION_REUSE * PRECISION_REUSE, d.i))));
  }
  /** Atomics ÷ i truncated toward zero. */
  quoInt(i: IntLike): Dec {
    return new Dec(quo(this.i, toBigInt(i)));
  }
  /** `QuoInt64` (same as quoInt). */
  quoInt64(i: IntLike): Dec {
    return this.quoInt(i);
  }

  /** `Power(n)`: square-and-multiply exactly as the SDK (each step a banker's-rounded `mul`). */
  power(power: number | bigint): Dec {
    const p = BigInt(power);
    if (p < 0n) throw new MathError('negative power');
    if (p === 0n) return Dec.one();
    let tmp = Dec.one();
    let d: Dec = this;
    for (let i = p; i > 1n; ) {
      if (i % 2n !== 0n) tmp = tmp.mul(d);
      i /= 2n;
      d = d.mul(d);
    }
    return d.mul(tmp);
  }

  /**
   * `ApproxRoot(root)`: Newton's method from 1 until |delta| ≤ 10^-18 or 100 iterations; a negative input gives
   * -(|d|^(1/root)). The SDK returns an error where it would panic: here that is a thrown `MathError`
   * (`out of bounds` for an overflow, as the SDK's recover turns a string panic into that error).
   */
  approxRoot(root: number | bigint): Dec {
    const r = BigInt(root);
    if (r < 0n) throw new MathError('negative root');
    try {
      return this.approxRootInner(r);
    } catch (e) {
      if (e instanceof MathError && e.message === 'Int overflow') throw new MathError('out of bounds');
      throw e;
    }
  }

  private approxRootInner(root: bigint): Dec {
    if (this.isNegative()) return this.mulInt64(-1).approxRootInner(root).mulInt64(-1);
    if (root === 1n || this.isZero() || this.equal(Dec.one())) return this;
    if (root === 0n) return Dec.one();
    let guess = Dec.one();
    let delta = Dec.one();
    const smallest = Dec.smallest();
    for (let iter = 0; delta.abs().gt(smallest) && iter < MAX_APPROX_ROOT_ITERATIONS; iter++) {
      let prev = guess.power(root - 1n);
      if (prev.isZero()) prev = smallest;
      delta = this.quo(prev);
      delta = delta.sub(guess);
      delta = delta.quoInt(root);
      guess = guess.add(delta);
    }
    return guess;
  }

  /** `ApproxSqrt()` = `approxRoot(2)`. */
  approxSqrt(): Dec {
    return this.approxRoot(2);
  }

  // ---- rounding to integers ----

  /** Smallest integer ≥ d, as a Dec. */
  ceil(): Dec {
    const q = this.i / PRECISION_REUSE;
    const rem = this.i % PRECISION_REUSE;
    if (rem === 0n || rem < 0n) return new Dec(q * PRECISION_REUSE);
    return new Dec((q + 1n) * PRECISION_REUSE);
  }
  /** Decimals dropped toward zero, as an integer (`TruncateInt`). */
  truncateInt(): bigint {
    return chopPrecisionAndTruncate(this.i);
  }
  /** `TruncateInt64`: as `truncateInt`, throws `Int64() out of bound` outside int64. */
  truncateInt64(): bigint {
    return toInt64(this.truncateInt());
  }
  /** Decimals dropped toward zero, as a Dec (`TruncateDec`). */
  truncateDec(): Dec {
    return new Dec(chopPrecisionAndTruncate(this.i) * PRECISION_REUSE);
  }
  /** Banker's rounding to an integer (`RoundInt`). */
  roundInt(): bigint {
    return chopPrecisionAndRound(this.i);
  }
  /** `RoundInt64`: as `roundInt`, throws `Int64() out of bound` outside int64. */
  roundInt64(): bigint {
    return toInt64(this.roundInt());
  }

  // ---- text ----

  /** The SDK's `String()`: always 18 decimals, `-` for negatives (`"0.100000000000000000"`). */
  toString(): string {
    const neg = this.i < 0n;
    const digits = (neg ? -this.i : this.i).toString();
    let s: string;
    if (digits.length <= PRECISION) s = '0.' + digits.padStart(PRECISION, '0');
    else s = digits.slice(0, digits.length - PRECISION) + '.' + digits.slice(digits.length - PRECISION);
    return neg ? '-' + s : s;
  }

  /** JSON is the string form, as the SDK's `MarshalJSON`. */
  toJSON(): string {
    return this.toString();
  }
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function toInt64(v: bigint): bigint {
  if (v > INT64_MAX || v < INT64_MIN) throw new MathError('Int64() out of bound');
  return v;
}

/** `MinDec` */
export function minDec(a: Dec, b: Dec): Dec {
  return a.lt(b) ? a : b;
}

/** `MaxDec` */
export function maxDec(a: Dec, b: Dec): Dec {
  return a.lt(b) ? b : a;
}

/** `DecsEqual` */
export function decsEqual(a: readonly Dec[], b: readonly Dec[]): boolean {
  return a.length === b.length && a.every((d, i) => d.equal(b[i]!));
}
