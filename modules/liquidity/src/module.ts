/** The liquidity AppModule: what the module manager sees (types, services, genesis, block hooks). */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Msg, Query } from './gen/chain/liquidity/v1beta1.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { LiquidityKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the original's ConsensusVersion 2). */
export const CONSENSUS_VERSION = 2;

/** The canonical proto package, and the original's, accepted as an alias (`/tendermint.liquidity.v1beta1.*`). */
export const PROTO_PACKAGE = 'chain.liquidity.v1beta1';
export const ORIGINAL_PROTO_PACKAGE = 'tendermint.liquidity.v1beta1';

export class LiquidityModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [PROTO_DIR];
  readonly genesisType = 'chain.liquidity.v1beta1.GenesisState';

  constructor(readonly keeper: LiquidityKeeper) {}

  /** The original's type URLs and service names (`/tendermint.liquidity.v1beta1.MsgSwapWithinBatch`, `tendermint.liquidity.v1beta1.Query`). */
  registerTypes(registry: ProtoRegistry): void {
    registry.registerPackageAlias(ORIGINAL_PROTO_PACKAGE, PROTO_PACKAGE, { cosmos: true });
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

  /** `BeginBlocker`: the clean-up of executed batches and the start of the next. */
  beginBlock(ctx: Context): void {
    this.keeper.deleteAndInitPoolBatches(ctx);
  }

  /** `EndBlocker`: the execution of the batches (swaps, deposits, withdrawals). */
  endBlock(ctx: Context): void {
    this.keeper.executePoolBatches(ctx);
  }
}
