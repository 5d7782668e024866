/** The staking AppModule: what the module manager sees (services, genesis); the parts live in their own files. */
import type { AppModule, Context, ServiceRegistrar, ValidatorUpdate } from '@chain/app';
import { CONSENSUS_PROTO_DIR } from '@chain/consensus';
import { Msg, Query } from './gen/chain/staking/v1beta1.js';
import { createMsgServer } from './msg-server.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import type { StakingKeeper } from './keeper.js';
import { MODULE_NAME, PROTO_DIR } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion; v0.45's x/staking is at 2). */
export const CONSENSUS_VERSION = 2;

export class StakingModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  /** HistoricalInfo imports tendermint.types.Header: the consensus protos are an import root first */
  readonly protoDirs = [CONSENSUS_PROTO_DIR, PROTO_DIR];
  readonly genesisType = 'chain.staking.v1beta1.GenesisState';
  /** InitGenesis and EndBlock return the validator updates */
  readonly returnsValidatorUpdates = true;
  /** the staking hooks must be wired (`keeper.hooks.set(...)`) */
  readonly hookSlots: AppModule['hookSlots'];

  constructor(readonly keeper: StakingKeeper) {
    this.hookSlots = [keeper.hooks];
  }

  /** The Msg and Query services. */
  registerServices(reg: ServiceRegistrar): void {
    reg.registerMsgService(Msg, createMsgServer(this.keeper));
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  /** BeginBlock: `TrackHistoricalInfo`. */
  beginBlock(ctx: Context): void {
    this.keeper.trackHistoricalInfo(ctx);
  }

  /** EndBlock: `BlockValidatorUpdates` (the validator set, then the unbonding and redelegation queues). */
  endBlock(ctx: Context): ValidatorUpdate[] {
    return this.keeper.blockValidatorUpdates(ctx);
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen, this.keeper);
  }

  initGenesis(ctx: Context, gen: GenesisState): ValidatorUpdate[] {
    return initGenesis(ctx, this.keeper, gen);
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }
}
