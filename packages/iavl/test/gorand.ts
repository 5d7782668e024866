/**
 * Go's math/rand (`rand.New(rand.NewSource(seed))`: the additive lagged Fibonacci source seeded through
 * `seedrand`) with the methods IAVL's tests use: Int63, Int31, Int31n/Intn, Float64, Read. The value streams equal
 * Go's for the same seed, which lets the tests replay IAVL's own randomized hash vectors.
 */
import { RNG_COOKED } from './go-rng-cooked.js';

const RNG_LEN = 607;
const RNG_TAP = 273;
const INT32_MAX = 2147483647;
const MASK63 = (1n << 63n) - 1n;

function seedrand(x: number): number {
  const A = 48271;
  const Q = 44488;
  const R = 3399;
  const hi = Math.trunc(x / Q);
  const lo = x % Q;
  x = A * lo - R * hi;
  if (x < 0) x += INT32_MAX;
  return x;
}

export class GoRand {
  private readonly vec = new BigInt64Array(RNG_LEN);
  private tap = 0;
  private feed = RNG_LEN - RNG_TAP;
  private readVal = 0n;
  private readPos = 0;

  constructor(seed: bigint | number) {
    let s = BigInt(seed) % BigInt(INT32_MAX);
    if (s < 0n) s += BigInt(INT32_MAX);
    if (s === 0n) s = 89482311n;
    let x = Number(s);
    for (let i = -20; i < RNG_LEN; i++) {
      x = seedrand(x);
      if (i >= 0) {
        let u = BigInt(x) << 40n;
        x = seedrand(x);
        u ^= BigInt(x) << 20n;
        x = seedrand(x);
        u ^= BigInt(x);
        u ^= RNG_COOKED[i]!;
        this.vec[i] = BigInt.asIntN(64, u);
      }
    }
  }

  int63(): bigint {
    if (--this.tap < 0) this.tap += RNG_LEN;
    if (--this.feed < 0) this.feed += RNG_LEN;
    const x = BigInt.asIntN(64, this.vec[this.feed]! + this.vec[this.tap]!);
    this.vec[this.feed] = x;
    return BigInt.asUintN(64, x) & MASK63;
  }

  int31(): number {
    return Number(this.int63() >> 32n);
  }

  int31n(n: number): number {
    if ((n & (n - 1)) === 0) return this.int31() & (n - 1);
    const max = INT32_MAX - (2147483648 % n);
    let v = this.int31();
    while (v > max) v = this.int31();
    return v % n;
  }

  intn(n: number): number {
    if (n > INT32_MAX) throw new RangeError('intn: only 31-bit bounds are implemented');
    return this.int31n(n);
  }

  float64(): number {
    for (;;) {
      const f = Number(this.int63()) / 2 ** 63;
      if (f !== 1) return f;
    }
  }

  read(p: Uint8Array): void {
    let pos = this.readPos;
    let val = this.readVal;
    for (let n = 0; n < p.length; n++) {
      if (pos === 0) {
        val = this.int63();
        pos = 7;
      }
      p[n] = Number(val & 0xffn);
      val >>= 8n;
      pos--;
    }
    this.readPos = pos;
    this.readVal = val;
  }
}
