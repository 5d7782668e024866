/** The upgrade AppModule: what the module manager sees (the query service, genesis, the pre-block hook). */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { preBlocker } from './abci.js';
import { Query } from './gen/chain/upgrade/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { UpgradeKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion of x/upgrade v0.45). */
export const CONSENSUS_VERSION = 1;

export class UpgradeModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.upgrade.v1beta1.GenesisState';

  constructor(readonly keeper: UpgradeKeeper) {}

  registerServices(reg: ServiceRegistrar): void {
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }

  /** Runs first in every block (the app config lists upgrade first in `preBlock`): applies, skips or halts at a plan's height. */
  preBlock(ctx: Context): Promise<void> {
    return preBlocker(this.keeper, ctx);
  }
}
