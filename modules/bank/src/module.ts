/** The bank AppModule: what the module manager sees (services, genesis); the parts live in their own files. */
import type { AppModule, Context, GenesisStream, GenesisParts, ServiceRegistrar } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { balanceFromJSON, defaultGenesis, exportGenesis, exportGenesisParts, initGenesis, initGenesisStream, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import { Msg, Query } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { createMsgServer } from './msg-server.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 2;

export const BANK_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export class BankModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [BANK_PROTO_DIR];
  readonly genesisType = 'chain.bank.v1beta1.GenesisState';

  constructor(readonly keeper: BankKeeper) {}

  registerServices(reg: ServiceRegistrar): void {
    reg.registerMsgService(Msg, createMsgServer(this.keeper));
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen, this.keeper.ak);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  /** the balances of a genesis file are read in chunks (`initGenesisStream`) */
  readonly genesisStreamFields = ['balances'];

  initGenesisStream(ctx: Context, gen: GenesisState): GenesisStream {
    return initGenesisStream(ctx, this.keeper, gen);
  }

  /** a balance of plain coins, read straight from its JSON (`balanceFromJSON`) */
  genesisEntryFromJSON(_field: string, json: unknown): ProtoObject | undefined {
    return balanceFromJSON(json) as ProtoObject | undefined;
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }

  /** the export in parts (`chaind export` writes the balances entry by entry) */
  exportGenesisParts(ctx: Context): GenesisParts {
    return exportGenesisParts(ctx, this.keeper);
  }
}
