/**
 * Token params (x/prc10/types/params.go of the original): the proto type, the defaults, their validation and
 * the x/params subspace `token` (keys `IssueTokenBaseFee`, `OperateTokenFeeRatio`) over the keeper's params.
 */
import { Dec } from '@chain/math';
import type { AminoCodec, Coin, Context, ParamSubspace } from '@chain/app';
import { aminoJson, defineParamSubspace, isValidDenom, paramKey } from '@chain/app';
import type { Params } from './gen/chain/prc10.js';

/** `chain.prc10.Params` as stored: `operate_token_fee_ratio` holds the Dec's atomics (18 decimals). */
export type Prc10Params = Params;

/** The native token's min unit: the denom of the default issue fee. */
export const NATIVE_MIN_UNIT = 'achain';
/** The native token's symbol. */
export const NATIVE_SYMBOL = 'chain';

/**
 * The defaults: an issue base fee of 500 chain (500 × 10^18 achain; the original's 500 pc = 500000000uplugcn)
 * and an operate ratio of 0.1.
 */
export function defaultParams(): Prc10Params {
  return {
    issue_token_base_fee: { denom: NATIVE_MIN_UNIT, amount: (500n * 10n ** 18n).toString() },
    operate_token_fee_ratio: Dec.withPrec(1, 1).atomics(),
  };
}

export const DEFAULT_PARAMS: Readonly<Prc10Params> = Object.freeze(defaultParams());

/** The base fee coin (a missing one reads as `0` of no denom, which validation refuses). */
export function baseFeeOf(p: Prc10Params): Coin {
  return p.issue_token_base_fee ?? { denom: '', amount: '0' };
}

/** The operate ratio as a Dec (`""` = zero). */
export function feeRatioOf(p: Prc10Params): Dec {
  return p.operate_token_fee_ratio === '' ? Dec.zero() : Dec.fromAtomics(p.operate_token_fee_ratio);
}

/** `validateOperateTokenFeeRatio`: in [0, 1]. */
function validateFeeRatio(ratio: Dec): void {
  if (ratio.gt(Dec.one()) || ratio.isNegative()) throw new Error(`fee ratio for minting tokens [${ratio.toString()}] should be between [0, 1]`);
}

/** `validateIssueTokenBaseFee`: not negative; and (beyond the original) a valid denom. */
function validateBaseFee(fee: Coin): void {
  if (!/^-?\d+$/.test(fee.amount)) throw new Error(`invalid base fee amount ${JSON.stringify(fee.amount)}`);
  if (BigInt(fee.amount) < 0n) throw new Error('base fee for issuing token should not be negative');
  if (!isValidDenom(fee.denom)) throw new Error(`invalid denom: ${fee.denom}`);
}

/**
 * The original's `ValidateParams`, its order and messages (plain errors): the ratio must be in [0, 1]
 * (`fee ratio for minting tokens [<r>] should be between [0, 1]`), the base fee must not be negative
 * (`base fee for issuing token should not be negative`) and have a valid denom. Whether the denom is a
 * token is the keeper's check (`setParams`) and genesis'.
 */
export function validateParams(p: Prc10Params): void {
  validateFeeRatio(feeRatioOf(p));
  validateBaseFee(baseFeeOf(p));
}

/** What the token subspace reads and writes: the keeper's params. */
export interface Prc10ParamsAccess {
  getParams(ctx: Context): Prc10Params;
  setParams(ctx: Context, p: Prc10Params): void;
}

/** `sdk.Coin` in amino JSON: `{"denom":"achain","amount":"500"}`. */
const coinAmino: AminoCodec<Coin | null> = {
  encode: (c) => JSON.stringify({ denom: c?.denom ?? '', amount: c?.amount ?? '0' }),
  decode: (json) => {
    // the coins codec reads the fields of one coin as it reads each of a list
    const [coin] = aminoJson.coins.decode(`[${json}]`);
    if (coin === undefined) throw new Error('json: cannot unmarshal null into Go value of type types.Coin');
    return coin;
  },
};

/**
 * The `token` params subspace of x/params (the original's x/prc10/types/params.go): `IssueTokenBaseFee`
 * (`sdk.Coin`, amino JSON `{"denom":…,"amount":"…"}`) and `OperateTokenFeeRatio` (`sdk.Dec`, quoted 18
 * decimals), each checked by the original's validator; the keeper then checks the whole params (the base fee's
 * denom must be a token).
 */
export function paramSubspace(k: Prc10ParamsAccess): ParamSubspace {
  return defineParamSubspace('token', { get: (ctx) => k.getParams(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    paramKey<Prc10Params, Coin | null>(
      'IssueTokenBaseFee', coinAmino, (p) => p.issue_token_base_fee, (p, v) => ({ ...p, issue_token_base_fee: v }), (v) => validateBaseFee(v ?? { denom: '', amount: '0' }),
    ),
    paramKey<Prc10Params, string>(
      'OperateTokenFeeRatio', aminoJson.decAtomics, (p) => p.operate_token_fee_ratio, (p, v) => ({ ...p, operate_token_fee_ratio: v }),
      (atomics) => validateFeeRatio(atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics)),
    ),
  ]);
}
