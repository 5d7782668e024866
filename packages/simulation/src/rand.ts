/**
 * The simulation's pseudo-random source: xoshiro128** (Blackman and Vigna) seeded through splitmix32, so a
 * seed gives the same sequence on every machine and Node version (no Math.random anywhere). Every random
 * choice of a run (genesis, accounts, operations, block times, votes, misbehaviour) draws from one `Rand`,
 * in a fixed order: the seed alone reproduces the run.
 */

/** A seed: a non-negative safe integer (what `SIM_SEED` holds). */
export type Seed = number;

/** Parses a seed (decimal digits, or `0x` hex) into a safe integer; throws on anything else. */
export function parseSeed(text: string): Seed {
  const t = text.trim();
  const n = /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid simulation seed ${JSON.stringify(text)}: a non-negative integer (at most 2^53 - 1) is expected`);
  return n;
}

/**
 * The seed of a run: `SIM_SEED` from the environment when set, else `fallback` (a fixed seed keeps CI
 * reproducible; pass `randomSeed()` for a new one each run). Either way the runner prints it.
 */
export function seedFromEnv(fallback: Seed, env: Record<string, string | undefined> = process.env): Seed {
  const s = env.SIM_SEED;
  return s === undefined || s === '' ? fallback : parseSeed(s);
}

/** A fresh seed from the OS clock and entropy (only to pick a seed; the run itself never uses it). */
export function randomSeed(): Seed {
  return Math.floor(Math.random() * 2 ** 32) * 2 ** 20 + (Date.now() % 2 ** 20);
}

function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) >>> 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return [s, (z ^ (z >>> 16)) >>> 0];
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

export class Rand {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: Seed) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`invalid simulation seed ${seed}`);
    // both halves of the seed feed the state
    let s = (seed % 2 ** 32) ^ Math.imul(Math.floor(seed / 2 ** 32), 0x27d4eb2d);
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [ns, z] = splitmix32(s >>> 0);
      s = ns;
      out.push(z);
    }
    [this.a, this.b, this.c, this.d] = out as [number, number, number, number];
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** A new independent stream derived from this one (consumes one draw). */
  fork(): Rand {
    return new Rand(this.uint32() * 2 ** 21 + (this.uint32() >>> 11));
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c = (this.c ^ this.a) >>> 0;
    this.d = (this.d ^ this.b) >>> 0;
    this.b = (this.b ^ this.c) >>> 0;
    this.a = (this.a ^ this.d) >>> 0;
    this.c = (this.c ^ t) >>> 0;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform float in [0, 1) with 53 random bits. */
  float(): number {
    return ((this.uint32() >>> 5) * 2 ** 26 + (this.uint32() >>> 6)) / 2 ** 53;
  }

  /** True with probability `p`. */
  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  /** A uniform integer in [min, max] (inclusive; safe integers). */
  int(min: number, max: number): number {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) throw new Error(`rand.int: bad range [${min}, ${max}]`);
    return min + Number(this.bigint(0n, BigInt(max - min)));
  }

  /** A uniform bigint in [min, max] (inclusive), by rejection sampling (no modulo bias). */
  bigint(min: bigint, max: bigint): bigint {
    if (max < min) throw new Error(`rand.bigint: bad range [${min}, ${max}]`);
    const span = max - min;
    if (span === 0n) return min;
    const bits = span.toString(2).length;
    const words = Math.ceil(bits / 32);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      let v = 0n;
      for (let i = 0; i < words; i++) v = (v << 32n) | BigInt(this.uint32());
      v &= mask;
      if (v <= span) return min + v;
    }
  }

  /** A random element (throws on an empty list). */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('rand.pick: empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** A random element, or undefined for an empty list. */
  maybePick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : this.pick(items);
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const w = this.uint32();
      for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (w >>> (8 * k)) & 0xff;
    }
    return out;
  }

  /** An index chosen with probability proportional to its weight (weights ≥ 0, not all zero). */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) {
      if (!(w >= 0) || !Number.isFinite(w)) throw new Error(`rand.weighted: bad weight ${w}`);
      total += w;
    }
    if (total <= 0) throw new Error('rand.weighted: the weights sum to zero');
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** A lower-case ASCII string of length in [min, max]. */
  string(min: number, max: number): string {
    const n = this.int(min, max);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(97 + this.int(0, 25));
    return s;
  }
}
