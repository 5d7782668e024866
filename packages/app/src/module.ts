/**
 * What a module gives the app (the SDK's `AppModule` family in one interface, every part optional but
 * the name and the consensus version). A module registers its services against the proto definitions
 * (the message and query services of its .proto files); the app derives routing, REST, gRPC, ABCI query
 * paths and Swagger from those same definitions. The `ModuleManager` runs the block and genesis hooks
 * in the orders of the `AppConfig` and refuses configurations that forget a module.
 */
import type { ProtoRegistry, ProtoObject, Reply, Req, Res, ServiceDef } from '@chain/codec';
import type { Context } from './context.js';

/** Handler of one Msg service method as the router stores it (untyped: request message in, response out). */
export type MsgHandler = (ctx: Context, msg: ProtoObject) => ProtoObject | Promise<ProtoObject>;
/** Handler of one Query service method as the router stores it (untyped). */
export type QueryHandler = (ctx: Context, req: ProtoObject) => ProtoObject | Promise<ProtoObject>;

/**
 * An implementation of a service with method map `M` (generated from the protos, e.g. bank's
 * `MsgMethods`): one handler per method, taking the decoded request and returning the response.
 */
export type ServiceImpl<M> = {
  [K in keyof M]: (ctx: Context, req: Req<M[K]>) => Reply<Res<M[K]>> | Promise<Reply<Res<M[K]>>>;
};
/** A Msg service implementation (`createMsgServer(keeper): MsgServer<MsgMethods>`). */
export type MsgServer<M> = ServiceImpl<M>;
/** A Query service implementation (`createQueryServer(keeper): QueryServer<QueryMethods>`). */
export type QueryServer<M> = ServiceImpl<M>;

export interface ServiceRegistrar {
  readonly registry: ProtoRegistry;
  // The untyped overloads come first so that a compile error in a typed registration is reported
  // against the typed overload (TypeScript shows the last overload's error).
  /**
   * @deprecated untyped form, for services without generated types (test fixtures): `service` is the
   * full proto name and nothing checks the handlers' names or shapes at compile time.
   */
  registerMsgService(service: string, impl: Record<string, MsgHandler>): void;
  /** Implements the Msg service `def` (a generated `ServiceDef`) with one handler per rpc method. */
  registerMsgService<M>(def: ServiceDef<M>, impl: NoInfer<MsgServer<M>>): void;
  /** @deprecated untyped form, for services without generated types (test fixtures). */
  registerQueryService(service: string, impl: Record<string, QueryHandler>): void;
  /** Implements the Query service `def` (a generated `ServiceDef`) with one handler per rpc method. */
  registerQueryService<M>(def: ServiceDef<M>, impl: NoInfer<QueryServer<M>>): void;
}

/** What {@link AppModule.exportGenesisParts} returns. */
export interface GenesisParts {
  /** the GenesisState with the fields of `streamed` left empty */
  readonly genesis: ProtoObject;
  /** proto field name of a repeated message field → its entries in order, produced lazily */
  readonly streamed: Readonly<Record<string, StreamedField>>;
}

/** The entries of one repeated genesis field, produced lazily; `count` when it is known (progress displays). */
export interface StreamedField {
  readonly entries: Iterable<ProtoObject>;
  readonly count?: number;
}

/**
 * A module's genesis import in steps ({@link AppModule.initGenesisStream}): the manager hands it the decoded entries
 * of its large fields chunk by chunk (each field whole before the next, in `genesisStreamFields` order), then calls
 * `end`. Between chunks the app may move what InitChain wrote so far out of memory.
 */
export interface GenesisStream {
  /** the next entries of `field` (one of the module's `genesisStreamFields`), in document order */
  add(field: string, entries: readonly ProtoObject[]): void;
  /** after the last chunk: the rest of InitGenesis; the initial validator updates, if any */
  end(): readonly ValidatorUpdate[] | void;
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
  /**
   * The hook slots this module calls (`HookSlot`s it owns): the manager refuses an app whose
   * composition did not wire them.
   */
  readonly hookSlots?: readonly { readonly name: string; readonly isSet: boolean }[];
  /** extra type-URL aliases and the like */
  registerTypes?(registry: ProtoRegistry): void;
  registerServices?(r: ServiceRegistrar): void;
  /** migrations from older consensus versions (run by the upgrade module through the manager) */
  registerMigrations?(m: MigrationRegistrar): void;
  defaultGenesis?(): ProtoObject;
  validateGenesis?(genesis: ProtoObject): void;
  initGenesis?(ctx: Context, genesis: ProtoObject): readonly ValidatorUpdate[] | void;
  /**
   * Genesis import in chunks, for a module whose state grows with its users: the repeated fields of its
   * GenesisState that may be large (proto names, e.g. auth's `accounts`). With `initGenesisStream`, the
   * manager decodes the rest of the GenesisState, runs `validateGenesis` on it (those fields empty), and
   * calls `initGenesisStream`, whose stream takes the entries of those fields chunk by chunk and checks each as
   * `validateGenesis` would (same errors), so the fields are never whole in memory.
   */
  readonly genesisStreamFields?: readonly string[];
  /**
   * InitGenesis over `genesis` (the fields of `genesisStreamFields` empty), then the entries of those fields given
   * to the stream; given the whole GenesisState it must do what validateGenesis + initGenesis do.
   */
  initGenesisStream?(ctx: Context, genesis: ProtoObject): GenesisStream;
  /**
   * The common form of an entry of a `genesisStreamFields` field read from its genesis JSON without the registry
   * (e.g. auth's base accounts, bank's balances): an entry the module's stream treats as it would
   * `registry.fromJSON` of it, or undefined for the registry to decode it (any other form, and every error).
   */
  genesisEntryFromJSON?(field: string, json: unknown): ProtoObject | undefined;
  exportGenesis?(ctx: Context): ProtoObject;
  /**
   * ExportGenesis in parts, for a module whose state grows with its users: the GenesisState with the large
   * repeated fields empty, and each of those fields' entries produced one by one as the export writes them
   * (a generator over the store). Assembled, it must equal `exportGenesis`. `chaind export` uses it so
   * that no whole module state is held in memory.
   */
  exportGenesisParts?(ctx: Context): GenesisParts;
  /** runs before BeginBlock (upgrade: halts at a planned height or switches the software) */
  preBlock?(ctx: Context): void | Promise<void>;
  beginBlock?(ctx: Context): void | Promise<void>;
  endBlock?(ctx: Context): readonly ValidatorUpdate[] | void | Promise<readonly ValidatorUpdate[] | void>;
}
