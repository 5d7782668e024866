/**
 * What a module gives the app. A module registers its services against the proto definitions (the
 * message and query services of its .proto files); the app derives routing, REST, gRPC, ABCI query
 * paths and Swagger from those same definitions.
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

export interface ValidatorUpdate {
  readonly pubKey: { type: 'ed25519'; key: Uint8Array };
  readonly power: bigint;
}

export interface AppModule {
  readonly name: string;
  /** value of `message.module` in events (defaults to name) */
  readonly eventModuleName?: string;
  /** folders of .proto files this module contributes */
  readonly protoDirs?: readonly string[];
  /** full name of the module's genesis message, if it has genesis state */
  readonly genesisType?: string;
  /** extra type-URL aliases and the like */
  registerTypes?(registry: ProtoRegistry): void;
  registerServices?(r: ServiceRegistrar): void;
  defaultGenesis?(): ProtoObject;
  validateGenesis?(genesis: ProtoObject): void;
  initGenesis?(ctx: Context, genesis: ProtoObject): void;
  exportGenesis?(ctx: Context): ProtoObject;
  beginBlock?(ctx: Context): void | Promise<void>;
  endBlock?(ctx: Context): readonly ValidatorUpdate[] | void | Promise<readonly ValidatorUpdate[] | void>;
}
