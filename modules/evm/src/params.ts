/** evm params: the proto shape, defaults, validation, and the bigint view the keeper computes with. */
import { aminoJson, defineKeyedParamSubspace, defineParamSubspace, isValidDenom, paramKey, paramKeyOn, validateParamDenom } from '@chain/app';
import type { Context, ParamKeyAccess, ParamKeyDef, ParamSubspace } from '@chain/app';
import { EvmErrors } from './errors.js';
import type { Params } from './gen/chain/evm/v1.js';
import { EVM_DENOM } from './keys.js';

/** `chain.evm.v1.Params` as the registry decodes it (uint64 as bigint). */
export type EvmParams = Params;

/** 1 gwei */
export const INITIAL_BASE_FEE = 1_000_000_000n;

export const DEFAULT_EVM_PARAMS: EvmParams = {
  evm_denom: EVM_DENOM,
  base_fee_change_denominator: 8,
  elasticity_multiplier: 2,
  initial_base_fee: INITIAL_BASE_FEE.toString(),
  min_gas_price: '0',
  block_gas_limit: 30_000_000n,
  allow_unprotected_txs: false,
};

/** The params with amounts as bigints. */
export interface ParsedParams {
  readonly denom: string;
  readonly baseFeeChangeDenominator: bigint;
  readonly elasticityMultiplier: bigint;
  readonly initialBaseFee: bigint;
  readonly minGasPrice: bigint;
  readonly blockGasLimit: bigint;
  readonly allowUnprotectedTxs: boolean;
}

function parseUint(field: string, v: string): bigint {
  if (!/^[0-9]+$/.test(v)) throw EvmErrors.InvalidParams.wrap(`${field} must be a non-negative integer, got '${v}'`);
  return BigInt(v);
}

/** Validates and converts params; throws evm/17 with the offending field. */
export function parseParams(p: EvmParams): ParsedParams {
  if (!isValidDenom(p.evm_denom)) throw EvmErrors.InvalidParams.wrap(`invalid evm_denom '${p.evm_denom}'`);
  if (!(p.base_fee_change_denominator > 0)) throw EvmErrors.InvalidParams.wrap('base_fee_change_denominator must be positive');
  if (!(p.elasticity_multiplier > 0)) throw EvmErrors.InvalidParams.wrap('elasticity_multiplier must be positive');
  const blockGasLimit = BigInt(p.block_gas_limit);
  if (blockGasLimit < 21000n) throw EvmErrors.InvalidParams.wrap('block_gas_limit must be at least 21000');
  return {
    denom: p.evm_denom,
    baseFeeChangeDenominator: BigInt(p.base_fee_change_denominator),
    elasticityMultiplier: BigInt(p.elasticity_multiplier),
    initialBaseFee: parseUint('initial_base_fee', p.initial_base_fee),
    minGasPrice: parseUint('min_gas_price', p.min_gas_price || '0'),
    blockGasLimit,
    allowUnprotectedTxs: p.allow_unprotected_txs === true,
  };
}

/**
 * EIP-1559 base fee of the next block from this block's base fee and gas used, floored at the minimum gas
 * price (as Ethermint's fee market does). The gas target is block_gas_limit / elasticity_multiplier.
 */
export function nextBaseFee(baseFee: bigint, blockGasUsed: bigint, p: ParsedParams): bigint {
  // the module does not stop a block at the gas limit; a fuller block moves the fee like a full one
  const gasUsed = blockGasUsed > p.blockGasLimit ? p.blockGasLimit : blockGasUsed;
  const target = p.blockGasLimit / p.elasticityMultiplier;
  let next = baseFee;
  if (target > 0n && gasUsed !== target) {
    if (gasUsed > target) {
      const delta = (baseFee * (gasUsed - target)) / target / p.baseFeeChangeDenominator;
      next = baseFee + (delta > 1n ? delta : 1n);
    } else {
      const delta = (baseFee * (target - gasUsed)) / target / p.baseFeeChangeDenominator;
      next = baseFee - delta;
    }
  }
  return next < p.minGasPrice ? p.minGasPrice : next;
}

/** What the evm subspaces read and write: the keeper's params and the live base fee. */
export interface EvmParamsAccess {
  getParams(ctx: Context): EvmParams;
  setParams(ctx: Context, p: EvmParams): void;
  getBaseFee(ctx: Context): bigint;
  setBaseFee(ctx: Context, fee: bigint): void;
}

const DEC_SCALE = 10n ** 18n;

/**
 * The `evm` params subspace of x/params, with Ethermint v0.18's key names for the params this module has:
 * `EVMDenom` (string) and `AllowUnprotectedTxs` (bool), plus this chain's `BlockGasLimit` (uint64, quoted;
 * Ethermint takes it from the consensus params). Ethermint's `EnableCreate`, `EnableCall`,
 * `EnableExtraEIPs` and `ChainConfig` are not params here (creation and calls are always enabled, the fork
 * rules fixed). Each change is then checked by `parseParams` (`evm` 17).
 */
export function paramSubspace(k: EvmParamsAccess): ParamSubspace {
  return defineParamSubspace('evm', { get: (ctx) => k.getParams(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    paramKey<EvmParams, string>('EVMDenom', aminoJson.string, (p) => p.evm_denom, (p, v) => ({ ...p, evm_denom: v }), validateParamDenom),
    paramKey<EvmParams, boolean>('AllowUnprotectedTxs', aminoJson.bool, (p) => p.allow_unprotected_txs, (p, v) => ({ ...p, allow_unprotected_txs: v })),
    paramKey<EvmParams, bigint>('BlockGasLimit', aminoJson.uint64, (p) => p.block_gas_limit, (p, v) => ({ ...p, block_gas_limit: v })),
  ]);
}

/**
 * The `feemarket` params subspace of x/params, with Ethermint v0.18's key names for the fee-market params
 * this module has: `BaseFeeChangeDenominator`, `ElasticityMultiplier` (uint32, bare numbers), `BaseFee`
 * (sdk.Int, quoted: the live base fee of the next block, as Ethermint's param) and `MinGasPrice` (sdk.Dec,
 * quoted 18 decimals; whole units of the evm denom here). `NoBaseFee`, `EnableHeight` and
 * `MinGasMultiplier` are not params here (the base fee is always on).
 */
export function feeMarketParamSubspace(k: EvmParamsAccess): ParamSubspace {
  const params = { get: (ctx: Context) => k.getParams(ctx), set: (ctx: Context, p: EvmParams) => k.setParams(ctx, p) };
  const onParams = (def: ParamKeyDef<EvmParams>): ParamKeyAccess => paramKeyOn(params, def);
  return defineKeyedParamSubspace('feemarket', [
    onParams(paramKey<EvmParams, number>('BaseFeeChangeDenominator', aminoJson.uint32, (p) => p.base_fee_change_denominator, (p, v) => ({ ...p, base_fee_change_denominator: v }), (v) => {
      if (v === 0) throw new Error('base fee change denominator cannot be 0');
    })),
    onParams(paramKey<EvmParams, number>('ElasticityMultiplier', aminoJson.uint32, (p) => p.elasticity_multiplier, (p, v) => ({ ...p, elasticity_multiplier: v }))),
    {
      key: 'BaseFee',
      getCtx: (ctx) => aminoJson.int.encode(k.getBaseFee(ctx)),
      setCtx: (ctx, value) => {
        const fee = aminoJson.int.decode(value);
        if (fee < 0n) throw new Error('invalid parameter value: base fee cannot be negative');
        k.setBaseFee(ctx, fee);
      },
    },
    onParams(paramKey<EvmParams, string>(
      'MinGasPrice',
      aminoJson.decAtomics,
      (p) => (BigInt(p.min_gas_price || '0') * DEC_SCALE).toString(),
      (p, atomics) => ({ ...p, min_gas_price: (BigInt(atomics) / DEC_SCALE).toString() }),
      (atomics) => {
        const v = BigInt(atomics);
        const text = JSON.parse(aminoJson.decAtomics.encode(atomics)) as string;
        if (v < 0n) throw new Error(`value cannot be negative: ${text}`);
        // this module prices gas in whole units of the evm denom
        if (v % DEC_SCALE !== 0n) throw new Error(`min gas price must be an integer: ${text}`);
      },
    )),
  ]);
}
