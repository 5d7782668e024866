/** The token AppModule: what the module manager sees (types, services, genesis); the parts live in their own files. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Msg, Query } from './gen/chain/prc10.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { Prc10Keeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion): raise it with a migration. */
export const CONSENSUS_VERSION = 1;

/** The canonical proto package, and the original chain's, accepted as an alias (`/plugchain.prc10.*`). */
export const PROTO_PACKAGE = 'chain.prc10';
export const ORIGINAL_PROTO_PACKAGE = 'plugchain.prc10';

export class Prc10Module implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.prc10.GenesisState';

  constructor(readonly keeper: Prc10Keeper) {}

  /**
   * The original's type URLs and service names (`/plugchain.prc10.MsgIssueToken`, `plugchain.prc10.Query`)
   * resolve to this package's; Cosmos-dialect answers (`/cosmos/…`, `/token/…` REST, `/plugchain.…` paths)
   * spell the token's `Any` as the original did, `/plugchain.prc10.Token`.
   */
  registerTypes(registry: ProtoRegistry): void {
    registry.registerPackageAlias(ORIGINAL_PROTO_PACKAGE, PROTO_PACKAGE, { cosmos: true });
  }

  registerServices(reg: ServiceRegistrar): void {
    reg.registerMsgService(Msg, createMsgServer(this.keeper));
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis(this.keeper);
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(this.keeper, gen);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }
}
