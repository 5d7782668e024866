/** The evidence AppModule: what the module manager sees (queries, genesis, BeginBlock). */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { Query } from './gen/chain/evidence/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { EvidenceKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion): raise it with a migration. */
export const CONSENSUS_VERSION = 1;

export class EvidenceModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.evidence.v1beta1.GenesisState';

  constructor(readonly keeper: EvidenceKeeper) {}

  registerServices(reg: ServiceRegistrar): void {
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen, this.keeper.registry);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }

  /** x/evidence BeginBlocker: the block's misbehaviour (`ctx.comet.misbehavior`). */
  beginBlock(ctx: Context): void {
    this.keeper.beginBlocker(ctx);
  }
}
