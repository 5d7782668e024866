/** The gov AppModule: what the module manager sees (services, genesis, EndBlock); the parts live in their own files. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { endBlocker } from './abci.js';
import { ATTRIBUTE_VALUE_CATEGORY } from './events.js';
import { Msg, Query } from './gen/chain/gov/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { GovKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion; v0.45 gov is 2). */
export const CONSENSUS_VERSION = 2;

export class GovModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  /** `message.module` of gov's messages: `governance`, as v0.45 (`types.AttributeValueCategory`) */
  readonly eventModuleName = ATTRIBUTE_VALUE_CATEGORY;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.gov.v1beta1.GenesisState';

  constructor(readonly keeper: GovKeeper) {}

  /** Every module's protos are loaded by now: a routed content type the registry does not know is refused. */
  registerTypes(): void {
    this.keeper.router.checkTypes();
  }

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

  endBlock(ctx: Context): void {
    endBlocker(ctx, this.keeper);
  }
}
