/**
 * What a module gives the app (the SDK's `AppModule` family in one interface, every part optional but
 * the name and the consensus version). A module registers its services against the proto definitions
 * (the message and query services of its .proto files); the app derives routing, REST, gRPC, ABCI query
 * paths and Swagger from those same definitions. The `ModuleManager` runs the block and genesis hooks
 * in the orders of the `AppConfig` and refuses configurations that forget a module.
 */
import type { ProtoRegistry, ProtoObject } from '@chain/codec';
import type { Context } from './context.js';

/** Handler of one Msg service method: request message in, response message out. */
export type MsgHandler = (ctx: Context, msg: ProtoObject) => ProtoObject | Promise<ProtoObject>;
/** Handler of one Query service method. */
export type QueryHandler = (ctx: Context, req: ProtoObject) => ProtoObject | Promise<ProtoObject>;

export interface ServiceRegistrar {
  readonly registry: ProtoRegistry;
  /** Implements `service` (full proto name) with one handler per rpc method name. */
  registerMsgService(service: string, impl: Record<string, MsgHandler>): void;
  registerQueryService(service: string, impl: Record<string, QueryHandler>): void;
}

/** A validator power change (ABCI `ValidatorUpdate`): power 0 removes the validator. */
export interface ValidatorUpdate {
  readonly pubKey: { type: 'ed25519'; key: Uint8Array };
  readonly power: bigint;
}

/** A state migration of one module from consensus version `fromVersion` to `fromVersion + 1`. */
export type MigrationHandler = (ctx: Context) => void | Promise<void>;

/** Where a module registers its migrations (the SDK's `module.Configurator.RegisterMigration`). */
export interface MigrationRegistrar {
  /** Registers the migration of `module` from `fromVersion` to `fromVersion + 1`. */
  register(module: string, fromVersion: number, handler: MigrationHandler): void;
}

export interface AppModule {
  readonly name: string;
  /**
   * Version of the module's state layout (the SDK's `ConsensusVersion`). Raised by one with each
   * state-breaking change, together with a migration from the previous version.
   */
  readonly consensusVersion: number;
  /** value of `message.module` in events (defaults to name) */
  readonly eventModuleName?: string;
  /** folders of .proto files this module contributes */
  readonly protoDirs?: readonly string[];
  /** full name of the module's genesis message, if it has genesis state */
  readonly genesisType?: string;
  /**
   * True for the one module whose EndBlock (and InitGenesis) returns validator updates (staking). The
   * manager refuses two such modules, and updates returned by any other module.
   */
  readonly returnsValidatorUpdates?: boolean;
  /** extra type-URL aliases and the like */
  registerTypes?(registry: ProtoRegistry): void;
  registerServices?(r: ServiceRegistrar): void;
  /** migrations from older consensus versions (run by the upgrade module through the manager) */
  registerMigrations?(m: MigrationRegistrar): void;
  defaultGenesis?(): ProtoObject;
  validateGenesis?(genesis: ProtoObject): void;
  initGenesis?(ctx: Context, genesis: ProtoObject): readonly ValidatorUpdate[] | void;
  exportGenesis?(ctx: Context): ProtoObject;
  /** runs before BeginBlock (upgrade: halts at a planned height or switches the software) */
  preBlock?(ctx: Context): void | Promise<void>;
  beginBlock?(ctx: Context): void | Promise<void>;
  endBlock?(ctx: Context): readonly ValidatorUpdate[] | void | Promise<readonly ValidatorUpdate[] | void>;
}
