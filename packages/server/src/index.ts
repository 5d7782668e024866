/**
 * @chain/server: the transports of a chain built on @chain/app, over an `App` and a consensus source.
 *
 * - the REST gateway and its Swagger document (`startRestServer`), derived from the app router's query routes;
 * - gRPC with server reflection (`startGrpcServer`), every query service under its canonical and Cosmos name;
 * - the CometBFT-compatible RPC and websocket of the embedded engine (`startRpcServer`: it serves an
 *   `Engine` of @chain/consensus; in CometBFT mode CometBFT serves its own);
 * - the node-level query services (`registerNodeServices`: the tx service and the node-info/blocks service),
 *   over a `ConsensusSource` (`EmbeddedSource` over the embedded engine, `CometSource` over a CometBFT's RPC);
 * - the Ethereum JSON-RPC and its websocket (`startJsonRpcServer` over a `Backend`: the consensus source, the
 *   app and the chain's EVM through the `EthereumExecution` adapter, which the EVM module implements).
 *
 * A chain composes its `App` (modules, router, registry), adds `SERVER_PROTO_DIR` to its registry, picks a
 * consensus source, registers the node services and starts the transports it wants.
 */
export { startRestServer, DEFAULT_REST_API_CONFIG } from './rest/server.js';
export type { RestServer, RestServerOptions, RestApiConfig } from './rest/server.js';
export { buildRoutes, matchRoute, httpBindings, cosmosPath } from './rest/routes.js';
export type { RestRoute, HttpBinding } from './rest/routes.js';
export { swaggerDocument } from './rest/swagger.js';
export * from './explorer/index.js';

export { startGrpcServer, grpcServiceSpecs, BLOCK_HEIGHT_METADATA, MAX_RECEIVE_MESSAGE_LENGTH } from './grpc/server.js';
export type { GrpcServer, GrpcServerOptions, GrpcServiceSpec } from './grpc/server.js';
export { cosmosName, cosmosServiceName, cosmosPackage, COSMOS_PACKAGE_RENAMES } from './grpc/names.js';
export { buildReflectionFiles } from './grpc/reflection.js';
export type { ReflectionFiles } from './grpc/reflection.js';

export { startRpcServer } from './rpc/server.js';
export type { RpcServer } from './rpc/server.js';
export type { RpcNode, RpcConfig } from './rpc/host.js';
export { consensusStateJson, dumpConsensusStateJson, txProofJson } from './rpc/format.js';

export {
  startJsonRpcServer, Backend as EthRpcBackend, RpcError as EthRpcError, JSON_RPC_NAMESPACES,
  addToBloom, logsBloom, encodeReceipt, orderedTrieRoot, rlp, uintBytes, parseGoDuration, parseTraceConfig,
} from './eth-rpc/index.js';
export type {
  JsonRpcServer, JsonRpcServerOptions, JsonRpcSettings, EthereumExecution, EthTxView, EthTraceOptions, EthTracedTx,
  EthAccessListResult, EthSimulateRequest, EthSimulateCall, EthSimulatedBlock,
  BackendOptions as EthRpcBackendOptions, EthBlock, EthHashStore, EthTxInfo, LogJSON as EthLogJSON, ReceiptLog,
} from './eth-rpc/index.js';

export { readBody, lingerOnClose, LINGER_MS } from './http-body.js';
export type { BodyResult } from './http-body.js';

// the parts a node needs before its transports (also alone: `@chain/server/node`)
export * from './node.js';
