/**
 * `@chain/server/node`: the parts of @chain/server a node needs before it starts its transports (the consensus
 * sources, the node-level query services, the logger, the metrics, address parsing), without loading the REST
 * gateway, gRPC, the RPC server, the Ethereum JSON-RPC and the explorer: a node imports those when it starts them,
 * after its engine has started (a restart reaches its next block sooner). `@chain/server` exports all of this too.
 */
import type { App } from '@chain/app';
import { createTxService, TxService } from './services/tx-service.js';
import { createConsensusService, ConsensusService } from './services/consensus-service.js';
import type { ConsensusSource } from './consensus-source.js';

export const SERVER_PROTO_DIR = new URL('../proto', import.meta.url).pathname;
export { createTxService, TxService, canonicalizeQuery } from './services/tx-service.js';
export { createConsensusService, ConsensusService, COMETBFT_VERSION } from './services/consensus-service.js';
export { checkTxAsync, MEMPOOL_ERROR_CODES } from './services/broadcast.js';
export { EmbeddedSource, CometSource, CometRpcError, parseCometTime, decodeCometBlock, decodeTxResult } from './consensus-source.js';
export type { ConsensusSource, SourceStatus, SourceNodeInfo, SourceTxRef, SearchPage, BroadcastCommitResult, CometSourceOptions } from './consensus-source.js';
export { createLogger, configureLogger, parseLogLevel } from './logger.js';
export type { Logger, Level, LogFormat, LevelSpec } from './logger.js';
export { NodeMetrics, instrumentAbciApp, startMetricsServer } from './metrics.js';
export type { NodeMetricsOptions, MetricsTransport, BlockObservation, MetricsServer } from './metrics.js';
export { parseDurationMs, parseListenAddress } from './address.js';

export interface NodeServicesOptions {
  /** how long BROADCAST_MODE_BLOCK waits for the tx's block (CometBFT's `timeout_broadcast_tx_commit`) */
  readonly broadcastTimeoutMs: number;
  /** the application version the node-info service reports */
  readonly appVersion: string;
  /** the chain's bech32 account prefix (validator consensus addresses are `<prefix>valcons...`) */
  readonly bech32Prefix: string;
}

/**
 * Registers the node-level query services into the app's router, over a consensus source: the tx service
 * (`chain.tx.v1beta1.Service`, Cosmos `cosmos.tx.v1beta1.Service`: simulate, broadcast, tx lookup and search)
 * and the node-info/blocks service (`chain.base.consensus.v1beta1.Service`, Cosmos
 * `cosmos.base.tendermint.v1beta1.Service`). The registry must hold `SERVER_PROTO_DIR`'s protos.
 */
export function registerNodeServices(app: App, source: ConsensusSource, opts: NodeServicesOptions): void {
  app.router.registerQueryService(TxService, createTxService(app, source, { broadcastTimeoutMs: opts.broadcastTimeoutMs }));
  app.router.registerQueryService(ConsensusService, createConsensusService(app, source, opts.appVersion, opts.bech32Prefix));
}
