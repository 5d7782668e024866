/** mint genesis (x/mint/genesis.go, types/genesis.go of SDK v0.45): default, validation, init, export. */
import type { Context } from '@chain/app';
import type { GenesisState, Minter, Params } from './gen/chain/mint/v1beta1.js';
import type { MintKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { defaultInitialMinter, minterFromProto, minterToProto, validateMinter } from './minter.js';
import { defaultParams, paramsFromProto, validateParams } from './params.js';

export type { GenesisState };

/** `DefaultGenesisState()`: `DefaultInitialMinter()` and `DefaultParams()`. */
export function defaultGenesis(): GenesisState {
  return { minter: minterToProto(defaultInitialMinter()), params: defaultParams() };
}

function zeroMinter(): Minter {
  return { inflation: '0', annual_provisions: '0' };
}

/**
 * `ValidateGenesis`: the params (`Params.Validate`'s messages), then the minter (`mint parameter Inflation
 * should be positive, is <inflation>`). A missing message is its zero value, as the SDK's non-nullable fields.
 */
export function validateGenesis(gen: GenesisState): void {
  validateParams(gen.params ?? zeroParams());
  validateMinter(minterFromProto(gen.minter ?? zeroMinter()));
}

function zeroParams(): Params {
  return { mint_denom: '', inflation_rate_change: '0', inflation_max: '0', inflation_min: '0', goal_bonded: '0', blocks_per_year: 0n };
}

/** `InitGenesis`: the minter, the params, and the `mint` module account (when an account keeper is wired). */
export function initGenesis(ctx: Context, k: MintKeeper, gen: GenesisState): void {
  k.setMinter(ctx, minterFromProto(gen.minter ?? zeroMinter()));
  k.setParams(ctx, paramsFromProto(gen.params ?? zeroParams()));
  k.accountKeeper?.ensureModuleAccount(ctx, MODULE_NAME);
}

/**
 * Walks the schema: every collection's entries, decoded (`schema.exportAll`), each mapped to its
 * GenesisState field. A collection added to src/keys.ts without a field here makes the export throw (and
 * the genesis round-trip test fail), so the genesis cannot silently leave state out.
 */
export function exportGenesis(ctx: Context, k: MintKeeper): GenesisState {
  const { minter, params, ...unmapped } = k.state.schema.exportAll(ctx);
  const left = Object.keys(unmapped);
  if (left.length > 0) throw new Error(`mint genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  // an Item exports [] or [[null, value]]
  const storedMinter = minter?.[0]?.[1] as Minter | undefined;
  const storedParams = params?.[0]?.[1] as Params | undefined;
  return { minter: storedMinter ?? minterToProto(defaultInitialMinter()), params: storedParams ?? defaultParams() };
}
