/** The params AppModule: what the module manager sees (the query service; no state, no genesis, no block hooks). */
import type { AppModule, ServiceRegistrar } from '@chain/app';
import { Query } from './gen/chain/params/v1beta1.js';
import type { ParamsKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion of x/params v0.45). */
export const CONSENSUS_VERSION = 1;

export class ParamsModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];

  constructor(readonly keeper: ParamsKeeper) {}

  registerServices(reg: ServiceRegistrar): void {
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }
}
