/**
 * Liquidity params (x/liquidity/types/params.go of tendermint/liquidity v1.4.5): the proto type, the
 * defaults, the original's validators and messages, and the x/params subspace `liquidity` with the original's
 * keys (`PoolTypes`, `MinInitDepositAmount`, `InitPoolCoinMintAmount`, `MaxReserveCoinAmount`,
 * `PoolCreationFee`, `SwapFeeRate`, `WithdrawFeeRate`, `MaxOrderAmountRatio`, `UnitBatchHeight`,
 * `CircuitBreakerEnabled`).
 */
import { Dec } from '@chain/math';
import type { AminoCodec, Coin, Context, ParamSubspace } from '@chain/app';
import { aminoJson, defineParamSubspace, paramKey, parseAminoJson } from '@chain/app';
import { sdkMessage, validateSdkCoins } from './coins.js';
import type { Params, PoolType } from './gen/chain/liquidity/v1beta1.js';

/** `chain.liquidity.v1beta1.Params` as stored: Ints as decimal text, Decs as their atomics (18 decimals). */
export type LiquidityParams = Params;

/** The original's constants. */
export const MIN_RESERVE_COIN_NUM = 2;
export const MAX_RESERVE_COIN_NUM = 2;
export const CANCEL_ORDER_LIFE_SPAN = 0n;
export const MIN_OFFER_COIN_AMOUNT = 100n;
export const POOL_COIN_DENOM_PREFIX = 'pool';
/** the bond denom of this chain: the default pool creation fee's denom (the original's `stake`) */
export const NATIVE_DENOM = 'achain';

export const DEFAULT_POOL_TYPE: Readonly<PoolType> = Object.freeze({
  id: 1,
  name: 'StandardLiquidityPool',
  min_reserve_coin_num: MIN_RESERVE_COIN_NUM,
  max_reserve_coin_num: MAX_RESERVE_COIN_NUM,
  description: 'Standard liquidity pool with pool price function X/Y, ESPM constraint, and two kinds of reserve coins',
});

/**
 * The original's defaults; the creation fee's denom is this chain's bond denom (`achain`) where the
 * original has `sdk.DefaultBondDenom` (`stake`), with the original amount 40000000.
 */
export function defaultParams(): LiquidityParams {
  return {
    pool_types: [{ ...DEFAULT_POOL_TYPE }],
    min_init_deposit_amount: '1000000',
    init_pool_coin_mint_amount: '1000000',
    max_reserve_coin_amount: '0',
    pool_creation_fee: [{ denom: NATIVE_DENOM, amount: '40000000' }],
    swap_fee_rate: Dec.withPrec(3, 3).atomics(),
    withdraw_fee_rate: Dec.zero().atomics(),
    max_order_amount_ratio: Dec.withPrec(1, 1).atomics(),
    unit_batch_height: 1,
    circuit_breaker_enabled: false,
  };
}

export const DEFAULT_PARAMS: Readonly<LiquidityParams> = Object.freeze(defaultParams());

/** A Dec param (atomics; `""` = zero). */
export const decOf = (atomics: string): Dec => (atomics === '' ? Dec.zero() : Dec.fromAtomics(atomics));
/** An Int param (`""` = zero). */
export const intOf = (text: string): bigint => (text === '' ? 0n : BigInt(text));

const poolTypeEqual = (a: PoolType, b: PoolType): boolean => a.id === b.id && a.name === b.name && a.min_reserve_coin_num === b.min_reserve_coin_num
  && a.max_reserve_coin_num === b.max_reserve_coin_num && a.description === b.description;

const fail = (msg: string): never => {
  throw new Error(msg);
};

export function validatePoolTypes(v: readonly PoolType[]): void {
  if (v.length === 0) fail('pool types must not be empty');
  v.forEach((p, i) => {
    if (p.id !== i + 1) fail('pool type ids must be sorted');
    if (p.max_reserve_coin_num > MAX_RESERVE_COIN_NUM || MIN_RESERVE_COIN_NUM > p.min_reserve_coin_num) {
      fail('min, max reserve coin num value of pool types are out of bounds');
    }
  });
  if (v.length > 1 || !poolTypeEqual(v[0]!, DEFAULT_POOL_TYPE)) fail('the only supported pool type is 1');
}

export function validateMinInitDepositAmount(v: bigint): void {
  if (v <= 0n) fail(`minimum initial deposit amount must be positive: ${v}`);
}

export function validateInitPoolCoinMintAmount(v: bigint): void {
  if (v <= 0n) fail(`initial pool coin mint amount must be positive: ${v}`);
  if (v < 1_000_000n) fail(`initial pool coin mint amount must be greater than or equal to 1000000: ${v}`);
}

export function validateMaxReserveCoinAmount(v: bigint): void {
  if (v < 0n) fail(`max reserve coin amount must not be negative: ${v}`);
}

const rate = (what: string) => (v: Dec): void => {
  if (v.isNegative()) fail(`${what} must not be negative: ${v.toString()}`);
  if (v.gt(Dec.one())) fail(`${what} too large: ${v.toString()}`);
};
export const validateSwapFeeRate = rate('swap fee rate');
export const validateWithdrawFeeRate = rate('withdraw fee rate');
export const validateMaxOrderAmountRatio = rate('max order amount ratio');

/** `Coins.Validate` (its message as a plain error, `invalid denom: …`, `coin 0stake amount is not positive`), then non-empty. */
export function validatePoolCreationFee(v: readonly Coin[]): void {
  try {
    validateSdkCoins(v);
  } catch (e) {
    fail(sdkMessage(e));
  }
  if (v.length === 0) fail('pool creation fee must not be empty');
}

export function validateUnitBatchHeight(v: number): void {
  if (v <= 0) fail(`unit batch height must be positive: ${v}`);
}

/** An Int / Dec param as stored: `""` is the original's nil `sdk.Int{}` / `sdk.Dec{}` (`… must not be nil`). */
const notNil = (text: string, what: string): string => (text === '' ? fail(`${what} must not be nil`) : text);

/** `Params.Validate`: each validator in the original's order; the plain error's message, as the original. */
export function validateParams(p: LiquidityParams): void {
  validatePoolTypes(p.pool_types);
  validateMinInitDepositAmount(intOf(notNil(p.min_init_deposit_amount, 'minimum initial deposit amount')));
  validateInitPoolCoinMintAmount(intOf(notNil(p.init_pool_coin_mint_amount, 'initial pool coin mint amount')));
  validateMaxReserveCoinAmount(intOf(notNil(p.max_reserve_coin_amount, 'max reserve coin amount')));
  validatePoolCreationFee(p.pool_creation_fee);
  validateSwapFeeRate(decOf(notNil(p.swap_fee_rate, 'swap fee rate')));
  validateWithdrawFeeRate(decOf(notNil(p.withdraw_fee_rate, 'withdraw fee rate')));
  validateMaxOrderAmountRatio(decOf(notNil(p.max_order_amount_ratio, 'max order amount ratio')));
  validateUnitBatchHeight(p.unit_batch_height);
}

/** What the liquidity subspace reads and writes: the keeper's params. */
export interface LiquidityParamsAccess {
  getParams(ctx: Context): LiquidityParams;
  setParams(ctx: Context, p: LiquidityParams): void;
}

/** `[]PoolType` in amino JSON: `[{"id":1,"name":"…","min_reserve_coin_num":2,"max_reserve_coin_num":2,"description":"…"}]`. */
const poolTypesAmino: AminoCodec<PoolType[]> = {
  encode: (v) => JSON.stringify(v.map((p) => ({
    id: p.id, name: p.name, min_reserve_coin_num: p.min_reserve_coin_num, max_reserve_coin_num: p.max_reserve_coin_num, description: p.description,
  }))),
  decode: (json) => {
    const v = parseAminoJson(json);
    if (v === null) return [];
    if (!Array.isArray(v)) throw new Error('json: cannot unmarshal into Go value of type []types.PoolType');
    return v.map((o: Record<string, unknown>) => ({
      id: aminoJson.uint32.decode(JSON.stringify(o.id ?? 0)),
      name: String(o.name ?? ''),
      min_reserve_coin_num: aminoJson.uint32.decode(JSON.stringify(o.min_reserve_coin_num ?? 0)),
      max_reserve_coin_num: aminoJson.uint32.decode(JSON.stringify(o.max_reserve_coin_num ?? 0)),
      description: String(o.description ?? ''),
    }));
  },
};

const intKey = (key: string, field: 'min_init_deposit_amount' | 'init_pool_coin_mint_amount' | 'max_reserve_coin_amount', validate: (v: bigint) => void) =>
  paramKey<LiquidityParams, bigint>(key, aminoJson.int, (p) => intOf(p[field]), (p, v) => ({ ...p, [field]: v.toString() }), validate);

const DEC_NAMES = { swap_fee_rate: 'swap fee rate', withdraw_fee_rate: 'withdraw fee rate', max_order_amount_ratio: 'max order amount ratio' } as const;
const decKey = (key: string, field: 'swap_fee_rate' | 'withdraw_fee_rate' | 'max_order_amount_ratio', validate: (v: Dec) => void) =>
  paramKey<LiquidityParams, string>(key, aminoJson.decAtomics, (p) => p[field], (p, v) => ({ ...p, [field]: v }), (a) => validate(decOf(notNil(a, DEC_NAMES[field]))));

/** The `liquidity` params subspace of x/params over the keeper's params, with the original's keys and validators. */
export function paramSubspace(k: LiquidityParamsAccess): ParamSubspace {
  return defineParamSubspace('liquidity', { get: (ctx) => k.getParams(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    paramKey<LiquidityParams, PoolType[]>('PoolTypes', poolTypesAmino, (p) => p.pool_types, (p, v) => ({ ...p, pool_types: v }), validatePoolTypes),
    intKey('MinInitDepositAmount', 'min_init_deposit_amount', validateMinInitDepositAmount),
    intKey('InitPoolCoinMintAmount', 'init_pool_coin_mint_amount', validateInitPoolCoinMintAmount),
    intKey('MaxReserveCoinAmount', 'max_reserve_coin_amount', validateMaxReserveCoinAmount),
    paramKey<LiquidityParams, Coin[]>('PoolCreationFee', aminoJson.coins, (p) => p.pool_creation_fee, (p, v) => ({ ...p, pool_creation_fee: v }), validatePoolCreationFee),
    decKey('SwapFeeRate', 'swap_fee_rate', validateSwapFeeRate),
    decKey('WithdrawFeeRate', 'withdraw_fee_rate', validateWithdrawFeeRate),
    decKey('MaxOrderAmountRatio', 'max_order_amount_ratio', validateMaxOrderAmountRatio),
    paramKey<LiquidityParams, number>('UnitBatchHeight', aminoJson.uint32, (p) => p.unit_batch_height, (p, v) => ({ ...p, unit_batch_height: v }), validateUnitBatchHeight),
    paramKey<LiquidityParams, boolean>('CircuitBreakerEnabled', aminoJson.bool, (p) => p.circuit_breaker_enabled, (p, v) => ({ ...p, circuit_breaker_enabled: v })),
  ]);
}
