/**
 * `DecCoin` / `DecCoins` of SDK v0.45 (types/dec_coin.go): a denom with a `Dec` amount, and sorted sets of
 * them. Immutable. Where the SDK panics (different denoms, negative results, zero divisor, invalid denom),
 * these throw `MathError` with the SDK's message.
 */
import { Dec } from './dec.js';
import { MathError } from './errors.js';

/** An integer coin as the rest of the chain carries it (`@chain/app`'s `Coin`): amount as decimal text. */
export interface IntCoin {
  readonly denom: string;
  readonly amount: string;
}

/** A DecCoin in its protobuf / JSON shape: `amount` is the Dec text (JSON) or its atomics (wire), see the converters. */
export interface DecCoinJSON {
  readonly denom: string;
  readonly amount: string;
}

/** v0.45 `reDnmString`: `[a-zA-Z][a-zA-Z0-9/:._-]{2,127}`. */
const DENOM_RE = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
/** v0.45 `reDecAmt` + optional spaces + denom (`ParseDecCoin`). */
const DEC_COIN_RE = /^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/;

/** `ValidateDenom`: throws `invalid denom: <denom>`. */
export function validateDenom(denom: string): void {
  if (!DENOM_RE.test(denom)) throw new MathError(`invalid denom: ${denom}`);
}

export class DecCoin {
  private constructor(
    readonly denom: string,
    readonly amount: Dec,
  ) {}

  /** A DecCoin without checks (the Go struct literal `DecCoin{Denom, Amount}`). */
  static raw(denom: string, amount: Dec): DecCoin {
    return new DecCoin(denom, amount);
  }

  /** `NewDecCoinFromDec`: valid denom, amount ≥ 0 (`negative decimal coin amount: <amount>`). */
  static fromDec(denom: string, amount: Dec): DecCoin {
    validateDenom(denom);
    if (amount.isNegative()) throw new MathError(`negative decimal coin amount: ${amount.toString()}\n`);
    return new DecCoin(denom, amount);
  }

  /** `NewDecCoin` / `NewInt64DecCoin`: from an integer amount (≥ 0). */
  static fromInt(denom: string, amount: bigint | number | string): DecCoin {
    validateDenom(denom);
    const a = Dec.fromInt(amount);
    if (a.isNegative()) throw new MathError(`negative coin amount: ${BigInt(amount).toString()}`);
    return new DecCoin(denom, a);
  }

  /** `NewDecCoinFromCoin`. */
  static fromCoin(c: IntCoin): DecCoin {
    return DecCoin.fromInt(c.denom, c.amount);
  }

  /** `ParseDecCoin`: `<amount><denom>`, e.g. `1.5stake`. */
  static parse(text: string): DecCoin {
    const s = text.trim();
    const m = DEC_COIN_RE.exec(s);
    if (!m) throw new MathError(`invalid decimal coin expression: ${s}`);
    const amount = Dec.fromString(m[1]!);
    validateDenom(m[2]!);
    return DecCoin.fromDec(m[2]!, amount);
  }

  isZero(): boolean {
    return this.amount.isZero();
  }
  isPositive(): boolean {
    return this.amount.isPositive();
  }
  isNegative(): boolean {
    return this.amount.isNegative();
  }

  private sameDenom(other: DecCoin, msg: (a: string, b: string) => string): void {
    if (this.denom !== other.denom) throw new MathError(msg(this.denom, other.denom));
  }

  /** `IsEqual`: throws on different denoms, as the SDK panics. */
  isEqual(other: DecCoin): boolean {
    this.sameDenom(other, (a, b) => `invalid coin denominations; ${a}, ${b}`);
    return this.amount.equal(other.amount);
  }

  isGTE(other: DecCoin): boolean {
    this.sameDenom(other, (a, b) => `invalid coin denominations; ${a}, ${b}`);
    return !this.amount.lt(other.amount);
  }

  isLT(other: DecCoin): boolean {
    this.sameDenom(other, (a, b) => `invalid coin denominations; ${a}, ${b}`);
    return this.amount.lt(other.amount);
  }

  add(other: DecCoin): DecCoin {
    this.sameDenom(other, (a, b) => `coin denom different: ${a} ${b}\n`);
    return new DecCoin(this.denom, this.amount.add(other.amount));
  }

  /** Throws `negative decimal coin amount` when the result is negative. */
  sub(other: DecCoin): DecCoin {
    this.sameDenom(other, (a, b) => `coin denom different: ${a} ${b}\n`);
    const res = new DecCoin(this.denom, this.amount.sub(other.amount));
    if (res.isNegative()) throw new MathError('negative decimal coin amount');
    return res;
  }

  /** `TruncateDecimal`: the integer part as a Coin and the change (possibly zero) as a DecCoin. */
  truncateDecimal(): [IntCoin, DecCoin] {
    const truncated = this.amount.truncateInt();
    if (truncated < 0n) throw new MathError(`negative coin amount: ${truncated}`);
    const change = this.amount.sub(Dec.fromInt(truncated));
    return [{ denom: this.denom, amount: truncated.toString() }, DecCoin.fromDec(this.denom, change)];
  }

  /** `Validate`: the denom, and `decimal coin <coin> amount cannot be negative`. */
  validate(): void {
    validateDenom(this.denom);
    if (this.isNegative()) throw new MathError(`decimal coin ${this.toString()} amount cannot be negative`);
  }

  isValid(): boolean {
    try {
      this.validate();
      return true;
    } catch {
      return false;
    }
  }

  /** `"1.500000000000000000stake"` */
  toString(): string {
    return `${this.amount.toString()}${this.denom}`;
  }

  /** JSON shape (`{"denom","amount":"1.500000000000000000"}`). */
  toJSON(): DecCoinJSON {
    return { denom: this.denom, amount: this.amount.toString() };
  }

  /** Protobuf message value shape: the amount as atomics text (how `chain.base.v1beta1.DecCoin` holds it). */
  toProto(): DecCoinJSON {
    return { denom: this.denom, amount: this.amount.atomics() };
  }
}

function removeZero(coins: readonly DecCoin[]): DecCoin[] {
  return coins.filter((c) => !c.isZero());
}

function sortByDenom(coins: readonly DecCoin[]): DecCoin[] {
  return [...coins].sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
}

/** A set of DecCoins; operations assume (as the SDK) that the set is sorted by denom. */
export class DecCoins {
  readonly coins: readonly DecCoin[];

  private constructor(coins: readonly DecCoin[]) {
    this.coins = Object.freeze([...coins]);
  }

  /** The Go slice literal `DecCoins{...}`: no sorting, no checks. */
  static raw(coins: readonly DecCoin[]): DecCoins {
    return new DecCoins(coins);
  }

  static empty(): DecCoins {
    return new DecCoins([]);
  }

  /** `NewDecCoins`: drops zero coins, sorts, validates (`invalid coin set <coins>: <reason>`). */
  static of(...coins: DecCoin[]): DecCoins {
    const res = new DecCoins(sortByDenom(removeZero(coins)));
    try {
      res.validate();
    } catch (e) {
      throw new MathError(`invalid coin set ${res.toString()}: ${(e as Error).message}`);
    }
    return res;
  }

  /** `NewDecCoinsFromCoins`: integer coins as DecCoins (sorted, validated, zeros dropped). */
  static fromCoins(coins: readonly IntCoin[]): DecCoins {
    return DecCoins.of(...coins.map((c) => DecCoin.fromCoin(c)));
  }

  /** `ParseDecCoins`: comma-separated `<amount><denom>`; zero coins dropped, sorted, validated. */
  static parse(text: string): DecCoins {
    const s = text.trim();
    if (s.length === 0) return DecCoins.empty();
    const parsed = s.split(',').map((c) => DecCoin.parse(c));
    const res = new DecCoins(sortByDenom(removeZero(parsed)));
    if (!res.isValid()) throw new MathError(`parsed decimal coins are invalid: ${res.toString()}`);
    return res;
  }

  /** From protobuf message values (amount as atomics text), checked as `Validate` would. */
  static fromProto(coins: readonly DecCoinJSON[]): DecCoins {
    return new DecCoins(coins.map((c) => DecCoin.raw(c.denom, Dec.fromAtomics(c.amount))));
  }

  /** From JSON (amount as Dec text). */
  static fromJSON(coins: readonly DecCoinJSON[]): DecCoins {
    return new DecCoins(coins.map((c) => DecCoin.raw(c.denom, Dec.fromString(c.amount))));
  }

  get length(): number {
    return this.coins.length;
  }

  [Symbol.iterator](): Iterator<DecCoin> {
    return this.coins[Symbol.iterator]();
  }

  /** `Add(coinsB...)`: merge by denom (both sorted), zero results dropped. */
  add(...coinsB: (DecCoin | DecCoins)[]): DecCoins {
    const b: DecCoin[] = [];
    for (const x of coinsB) {
      if (x instanceof DecCoins) b.push(...x.coins);
      else b.push(x);
    }
    return new DecCoins(safeAdd(this.coins, b));
  }

  /** `SafeSub`: the difference and whether any amount is negative. */
  safeSub(coinsB: DecCoins): [DecCoins, boolean] {
    const diff = new DecCoins(safeAdd(this.coins, coinsB.coins.map((c) => DecCoin.raw(c.denom, c.amount.neg()))));
    return [diff, diff.isAnyNegative()];
  }

  /** `Sub`: throws `negative coin amount` when any result is negative. */
  sub(coinsB: DecCoins): DecCoins {
    const [diff, neg] = this.safeSub(coinsB);
    if (neg) throw new MathError('negative coin amount');
    return diff;
  }

  /** Per coin `mul` (banker's rounding); zero results dropped. */
  mulDec(d: Dec): DecCoins {
    return this.perCoin((a) => a.mul(d));
  }

  /** Per coin `mulTruncate`; zero results dropped. */
  mulDecTruncate(d: Dec): DecCoins {
    return this.perCoin((a) => a.mulTruncate(d));
  }

  /** Per coin `quo` (banker's rounding); zero results dropped; throws `invalid zero decimal`. */
  quoDec(d: Dec): DecCoins {
    if (d.isZero()) throw new MathError('invalid zero decimal');
    return this.perCoin((a) => a.quo(d));
  }

  /** Per coin `quoTruncate`; zero results dropped; throws `invalid zero decimal`. */
  quoDecTruncate(d: Dec): DecCoins {
    if (d.isZero()) throw new MathError('invalid zero decimal');
    return this.perCoin((a) => a.quoTruncate(d));
  }

  /** Each coin's amount through `op`, zero results dropped, summed with `add` (the SDK's per-coin loops). */
  private perCoin(op: (amount: Dec) => Dec): DecCoins {
    let res = DecCoins.empty();
    for (const c of this.coins) {
      const r = DecCoin.raw(c.denom, op(c.amount));
      if (!r.isZero()) res = res.add(r);
    }
    return res;
  }

  /** `TruncateDecimal`: (integer Coins, the fractional change); neither holds a zero coin. */
  truncateDecimal(): [IntCoin[], DecCoins] {
    const truncated: IntCoin[] = [];
    let change = DecCoins.empty();
    for (const c of this.coins) {
      const [t, ch] = c.truncateDecimal();
      if (t.amount !== '0') truncated.push(t);
      if (!ch.isZero()) change = change.add(ch);
    }
    return [truncated, change];
  }

  /** `Intersect`: per denom of this set the minimum with `coinsB` (absent = 0); zeros dropped. */
  intersect(coinsB: DecCoins): DecCoins {
    return new DecCoins(removeZero(this.coins.map((c) => DecCoin.raw(c.denom, Dec.min(c.amount, coinsB.amountOf(c.denom))))));
  }

  /** `AmountOf`: throws `invalid denom: <denom>` on a bad denom. */
  amountOf(denom: string): Dec {
    validateDenom(denom);
    for (const c of this.coins) if (c.denom === denom) return c.amount;
    return Dec.zero();
  }

  isAnyNegative(): boolean {
    return this.coins.some((c) => c.isNegative());
  }

  /** All amounts zero (true for the empty set). */
  isZero(): boolean {
    return this.coins.every((c) => c.amount.isZero());
  }

  isEmpty(): boolean {
    return this.coins.length === 0;
  }

  /** At least one coin, all positive. */
  isAllPositive(): boolean {
    return this.coins.length > 0 && this.coins.every((c) => c.isPositive());
  }

  /** `IsEqual`: same length, same denoms and amounts (throws on a denom mismatch, as the SDK panics). */
  isEqual(coinsB: DecCoins): boolean {
    if (this.coins.length !== coinsB.coins.length) return false;
    const a = sortByDenom(this.coins);
    const b = sortByDenom(coinsB.coins);
    return a.every((c, i) => c.isEqual(b[i]!));
  }

  /** Sorted by denom (a new set). */
  sort(): DecCoins {
    return new DecCoins(sortByDenom(this.coins));
  }

  /**
   * `Validate`: sorted, unique, valid denoms, positive amounts; messages as the SDK (`coin <c> amount is not
   * positive`, `duplicate denomination <d>`, `denomination <d> is not sorted`, `invalid denom: <d>`).
   */
  validate(): void {
    const coins = this.coins;
    if (coins.length === 0) return;
    const first = coins[0]!;
    validateDenom(first.denom);
    if (!first.isPositive()) throw new MathError(`coin ${first.toString()} amount is not positive`);
    let low = first.denom;
    const seen = new Set([low]);
    for (const c of coins.slice(1)) {
      if (seen.has(c.denom)) throw new MathError(`duplicate denomination ${c.denom}`);
      validateDenom(c.denom);
      if (c.denom <= low) throw new MathError(`denomination ${c.denom} is not sorted`);
      if (!c.isPositive()) throw new MathError(`coin ${c.denom} amount is not positive`);
      low = c.denom;
      seen.add(c.denom);
    }
  }

  isValid(): boolean {
    try {
      this.validate();
      return true;
    } catch {
      return false;
    }
  }

  /** `"1.500000000000000000stake,2.000000000000000000uatom"`, `""` when empty. */
  toString(): string {
    return this.coins.map((c) => c.toString()).join(',');
  }

  toJSON(): DecCoinJSON[] {
    return this.coins.map((c) => c.toJSON());
  }

  toProto(): DecCoinJSON[] {
    return this.coins.map((c) => c.toProto());
  }
}

/** The SDK's `safeAdd` merge of two sorted sets: equal denoms summed, zero coins dropped. */
function safeAdd(a: readonly DecCoin[], b: readonly DecCoin[]): DecCoin[] {
  const sum: DecCoin[] = [];
  let ia = 0;
  let ib = 0;
  for (;;) {
    if (ia === a.length) {
      if (ib === b.length) return sum;
      return sum.concat(removeZero(b.slice(ib)));
    }
    if (ib === b.length) return sum.concat(removeZero(a.slice(ia)));
    const ca = a[ia]!;
    const cb = b[ib]!;
    if (ca.denom < cb.denom) {
      if (!ca.isZero()) sum.push(ca);
      ia++;
    } else if (ca.denom === cb.denom) {
      const res = ca.add(cb);
      if (!res.isZero()) sum.push(res);
      ia++;
      ib++;
    } else {
      if (!cb.isZero()) sum.push(cb);
      ib++;
    }
  }
}
