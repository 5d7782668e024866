/** evm params: the proto shape, defaults, validation, and the bigint view the keeper computes with. */
import { isValidDenom } from '@chain/app';
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
