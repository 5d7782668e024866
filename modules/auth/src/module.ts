/** The auth AppModule: what the module manager sees (type aliases, queries, genesis); the parts live in their own files. */
import type { AppModule, Context, GenesisStream, GenesisParts, ServiceRegistrar } from '@chain/app';
import type { ProtoObject, ProtoRegistry } from '@chain/codec';
import { accountFromJSON, defaultGenesis, exportGenesis, exportGenesisParts, initGenesis, initGenesisStream, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import { Query } from './gen/chain/auth/v1beta1.js';
import type { AccountKeeper } from './keeper.js';
import { ETH_SECP256K1_PUBKEY, MODULE_NAME } from './keys.js';
import { createQueryServer } from './query-server.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 2;

export const AUTH_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export class AuthModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [AUTH_PROTO_DIR];
  readonly genesisType = 'chain.auth.v1beta1.GenesisState';

  constructor(readonly keeper: AccountKeeper) {}

  registerTypes(registry: ProtoRegistry): void {
    registry.registerAlias('/ethermint.crypto.v1.ethsecp256k1.PubKey', ETH_SECP256K1_PUBKEY, { cosmos: true });
  }

  registerServices(reg: ServiceRegistrar): void {
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen, this.keeper);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  /** the accounts of a genesis file are read in chunks (`initGenesisStream`) */
  readonly genesisStreamFields = ['accounts'];

  initGenesisStream(ctx: Context, gen: GenesisState): GenesisStream {
    return initGenesisStream(ctx, this.keeper, gen);
  }

  /** a base account without a public key, read straight from its JSON (`accountFromJSON`) */
  genesisEntryFromJSON(_field: string, json: unknown): ProtoObject | undefined {
    return accountFromJSON(json, this.keeper.registry) as ProtoObject | undefined;
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }

  /** the export in parts (`chaind export` writes the accounts entry by entry) */
  exportGenesisParts(ctx: Context): GenesisParts {
    return exportGenesisParts(ctx, this.keeper);
  }
}
