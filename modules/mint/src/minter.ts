/**
 * The minter (x/mint/types/minter.go of SDK v0.45): the inflation and the annual provisions, and the three
 * computations of BeginBlock, each with exactly the SDK's Dec operations (hence its roundings).
 */
import { Dec } from '@chain/math';
import type { IntCoin } from '@chain/math';
import type { Minter } from './gen/chain/mint/v1beta1.js';
import type { MintParamsValues } from './params.js';
import { decOf } from './params.js';

/** The minter with `Dec` values. */
export interface MinterValues {
  readonly inflation: Dec;
  readonly annualProvisions: Dec;
}

/** `InitialMinter(inflation)`: annual provisions 0. */
export function initialMinter(inflation: Dec): MinterValues {
  return { inflation, annualProvisions: Dec.zero() };
}

/** `DefaultInitialMinter()`: inflation 0.13. */
export function defaultInitialMinter(): MinterValues {
  return initialMinter(Dec.withPrec(13, 2));
}

export function minterToProto(m: MinterValues): Minter {
  return { inflation: m.inflation.atomics(), annual_provisions: m.annualProvisions.atomics() };
}

export function minterFromProto(m: Minter): MinterValues {
  return { inflation: decOf(m.inflation), annualProvisions: decOf(m.annual_provisions) };
}

/** `ValidateMinter`: `mint parameter Inflation should be positive, is <inflation>`. */
export function validateMinter(m: MinterValues): void {
  if (m.inflation.isNegative()) throw new Error(`mint parameter Inflation should be positive, is ${m.inflation.toString()}`);
}

/**
 * `NextInflationRate`: `(1 − bondedRatio.Quo(goalBonded)).Mul(inflationRateChange).Quo(blocksPerYear)` added to
 * the current inflation, clamped to [inflationMin, inflationMax].
 */
export function nextInflationRate(m: MinterValues, p: MintParamsValues, bondedRatio: Dec): Dec {
  const inflationRateChangePerYear = Dec.one().sub(bondedRatio.quo(p.goalBonded)).mul(p.inflationRateChange);
  const inflationRateChange = inflationRateChangePerYear.quo(Dec.fromInt(p.blocksPerYear));
  let inflation = m.inflation.add(inflationRateChange);
  if (inflation.gt(p.inflationMax)) inflation = p.inflationMax;
  if (inflation.lt(p.inflationMin)) inflation = p.inflationMin;
  return inflation;
}

/** `NextAnnualProvisions`: `inflation.MulInt(totalSupply)`. */
export function nextAnnualProvisions(m: MinterValues, _p: MintParamsValues, totalSupply: bigint): Dec {
  return m.inflation.mulInt(totalSupply);
}

/** `BlockProvision`: `annualProvisions.QuoInt(blocksPerYear).TruncateInt()` of the mint denom. */
export function blockProvision(m: MinterValues, p: MintParamsValues): IntCoin {
  return { denom: p.mintDenom, amount: m.annualProvisions.quoInt(p.blocksPerYear).truncateInt().toString() };
}
