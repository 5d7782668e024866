/** The distribution AppModule: what the module manager sees (services, genesis, BeginBlock). */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { beginBlocker } from './abci.js';
import { Msg, Query } from './gen/chain/distribution/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { DistributionKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion; v0.45 distribution is 2). */
export const CONSENSUS_VERSION = 2;

export class DistributionModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.distribution.v1beta1.GenesisState';

  constructor(readonly keeper: DistributionKeeper) {}

  registerServices(reg: ServiceRegistrar): void {
    reg.registerMsgService(Msg, createMsgServer(this.keeper));
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

  beginBlock(ctx: Context): void {
    beginBlocker(ctx, this.keeper);
  }
}
