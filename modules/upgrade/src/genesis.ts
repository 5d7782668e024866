/**
 * upgrade genesis: `{}`, as the SDK's. Plans, applied plans and the protocol version are not carried over a
 * genesis; InitGenesis records the app's consensus version of every module (what simapp's InitChainer does
 * with `SetModuleVersionMap(ctx, mm.GetVersionMap())`), so `module_versions` answers from the first block and
 * the first upgrade handler migrates from these versions.
 */
import type { Context } from '@chain/app';
import type { GenesisState } from './gen/chain/upgrade/v1beta1.js';
import type { UpgradeKeeper } from './keeper.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return {};
}

/** Always valid (the SDK ignores the value). */
export function validateGenesis(_gen: GenesisState): void {}

export function initGenesis(ctx: Context, k: UpgradeKeeper, _gen: GenesisState): void {
  k.setModuleVersionMap(ctx, k.appModuleVersions());
}

/** Always `{}`. */
export function exportGenesis(_ctx: Context, _k: UpgradeKeeper): GenesisState {
  return {};
}
