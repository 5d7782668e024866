/** The Query service of upgrade (`chain.upgrade.v1beta1.Query`), as SDK v0.45 x/upgrade/keeper/grpc_query.go. */
import type { QueryServer } from '@chain/app';
import { UpgradeErrors } from './errors.js';
import type { QueryMethods } from './gen/chain/upgrade/v1beta1.js';
import type { UpgradeKeeper } from './keeper.js';

export function createQueryServer(k: UpgradeKeeper): QueryServer<QueryMethods> {
  return {
    /** The scheduled plan, `{"plan":null}` when there is none. */
    CurrentPlan: (ctx) => ({ plan: k.getUpgradePlan(ctx) ?? null }),
    /** The height the plan `name` was applied at; `"0"` for a name never applied (no error). */
    AppliedPlan: (ctx, req) => ({ height: k.getDoneHeight(ctx, req.name) }),
    /** The upgraded consensus state stored for `last_height`, empty when none. */
    UpgradedConsensusState: (ctx, req) => ({ upgraded_consensus_state: k.getUpgradedConsensusState(ctx, req.last_height) ?? new Uint8Array() }),
    /**
     * Every module's consensus version from state, by module name; with `module_name` only that module, and
     * `sdk` 38 `x/upgrade: QueryModuleVersions module <m> not found` when state has none for it.
     */
    ModuleVersions: (ctx, req) => {
      if (req.module_name.length > 0) {
        const version = k.getModuleVersion(ctx, req.module_name);
        if (version === undefined) throw UpgradeErrors.NotFound.wrap(`x/upgrade: QueryModuleVersions module ${req.module_name} not found`);
        return { module_versions: [{ name: req.module_name, version }] };
      }
      return { module_versions: k.getModuleVersions(ctx) };
    },
  };
}
