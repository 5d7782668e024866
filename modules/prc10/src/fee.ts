/**
 * The fees of the original chain (x/prc10/keeper/fee.go): the issue fee of a symbol is the base fee divided
 * by a factor growing with the symbol's length, the operate fee (mint, edit, burn, transfer-owner) that
 * times the ratio. Both are paid in the base fee's token, converted to its min unit.
 */
import type { Coin } from '@chain/app';
import { Dec } from '@chain/math';
import { Prc10Errors } from './errors.js';
import type { Token } from './gen/chain/prc10.js';
import { baseFeeOf, feeRatioOf } from './params.js';
import type { Prc10Params } from './params.js';
import { MIN_SYMBOL_LEN, precision } from './token.js';

const utf8 = new TextEncoder();

/**
 * `ratioFeeFactor`: (log(len) / log(2))^3 rounded to 2 decimals (Go's `FormatFloat(x, 'f', 2, 64)`), `len`
 * the symbol's length in bytes. By length: 2 → 1.00, 3 → 3.98, 4 → 8.00, 5 → 12.52, 6 → 17.27,
 * 7 → 22.13, 8 → 27.00. A symbol shorter than 2 has no factor (the original divided by zero and panicked).
 */
export function feeFactor(symbol: string): Dec {
  const n = utf8.encode(symbol).length;
  if (n < MIN_SYMBOL_LEN) throw new Error(`the length of a symbol must be at least ${MIN_SYMBOL_LEN}, got ${n}`);
  const x = Math.log(n) / Math.log(MIN_SYMBOL_LEN);
  return Dec.fromString((x * x * x).toFixed(2));
}

/** A whole amount of the fee: `fee` truncated when above 1, else 1 (a fee is never below 1). */
function feeAmount(fee: Dec): bigint {
  return fee.gt(Dec.one()) ? fee.truncateInt() : 1n;
}

/**
 * `ReturnMinUnitCoin` of the fee token: an amount of its min unit stays as it is, an amount of its symbol
 * is multiplied by 10^scale. `token` is the token of the base fee's denom (by symbol, then min unit).
 */
function inMinUnit(denom: string, amount: bigint, token: Token | undefined): Coin {
  if (!token) throw Prc10Errors.TokenNotExists.wrap(`token: ${denom} does not exist`);
  if (token.min_unit === denom) return { denom, amount: amount.toString() };
  return { denom: token.min_unit, amount: (amount * precision(token.scale)).toString() };
}

/** The issue fee of `symbol` (`GetIssueTokenFee`): base / factor. */
export function issueFee(p: Prc10Params, symbol: string, tokenOf: (denom: string) => Token | undefined): Coin {
  const base = baseFeeOf(p);
  const fee = Dec.fromInt(BigInt(base.amount)).quo(feeFactor(symbol));
  return inMinUnit(base.denom, feeAmount(fee), tokenOf(base.denom));
}

/** The operate fee of `symbol` (`GetOperateTokenFee`): base / factor × ratio. */
export function operateFee(p: Prc10Params, symbol: string, tokenOf: (denom: string) => Token | undefined): Coin {
  const base = baseFeeOf(p);
  const fee = Dec.fromInt(BigInt(base.amount)).quo(feeFactor(symbol)).mul(feeRatioOf(p));
  return inMinUnit(base.denom, feeAmount(fee), tokenOf(base.denom));
}
