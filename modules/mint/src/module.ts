/** The mint AppModule: what the module manager sees (services, genesis, BeginBlock); the parts live in their own files. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { beginBlocker } from './abci.js';
import { Query } from './gen/chain/mint/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { MintKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion): raise it with a migration. */
export const CONSENSUS_VERSION = 1;

export class MintModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.mint.v1beta1.GenesisState';

  constructor(readonly keeper: MintKeeper) {}

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

  beginBlock(ctx: Context): void {
    beginBlocker(ctx, this.keeper);
  }
}
