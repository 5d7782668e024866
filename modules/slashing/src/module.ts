/** The slashing AppModule: what the module manager sees (services, genesis, BeginBlock); the parts live in their own files. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { Msg, Query } from './gen/chain/slashing/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { SlashingKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion; v0.45 slashing is 2). */
export const CONSENSUS_VERSION = 2;

export class SlashingModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.slashing.v1beta1.GenesisState';

  constructor(readonly keeper: SlashingKeeper) {}

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

  /** x/slashing BeginBlocker: liveness from the block's last commit (`ctx.comet.lastCommit`). */
  beginBlock(ctx: Context): void {
    this.keeper.beginBlocker(ctx);
  }
}
