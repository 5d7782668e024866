/**
 * The transports that serve the app in both consensus modes (the embedded engine's `Node` and the CometBFT
 * mode's `CometNode`): the REST gateway, gRPC and the Ethereum JSON-RPC (all of `@chain/server`; the JSON-RPC
 * reaches the EVM through the evm module's `evmRpcAdapter`), each as app.toml enables it, reading consensus
 * data through the node's `ConsensusSource`.
 */
import type { App } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { evmRpcAdapter } from '@chain/evm';
import { NodeMetrics, configureLogger, startGrpcServer, startMetricsServer, startRestServer } from '@chain/server';
import type { ConsensusSource, EthereumExecution, GrpcServer, JsonRpcServer, Logger, MetricsServer, RestServer } from '@chain/server';
import type { NodeConfig } from './config/config.js';
import { parseListenAddress } from './config/config.js';
import { BECH32_PREFIX } from './config/init.js';
import { VERSION } from './app.js';
import { startJsonRpc } from './eth-rpc.js';

export interface AppTransports {
  readonly rest?: RestServer;
  readonly grpc?: GrpcServer;
  readonly jsonRpc?: JsonRpcServer;
}

export async function startAppTransports(o: {
  readonly app: App;
  readonly registry: ProtoRegistry;
  readonly source: ConsensusSource;
  readonly config: NodeConfig;
  readonly log: Logger;
  /** requests and errors of each transport (config.toml `[instrumentation] prometheus`) */
  readonly metrics?: NodeMetrics;
}): Promise<AppTransports> {
  const { app, config, log, metrics } = o;
  let rest: RestServer | undefined;
  let grpc: GrpcServer | undefined;
  let jsonRpc: JsonRpcServer | undefined;
  if (config.app.api.enable) {
    const a = parseListenAddress(config.app.api.address);
    rest = await startRestServer({ app, api: config.app.api, host: a.host, port: a.port, log: log.child('rest'), metrics });
    log.info(`REST API listening on http://${a.host}:${rest.port}`);
  }
  if (config.app.grpc.enable) {
    grpc = await startGrpcServer({ app, address: config.app.grpc.address, log: log.child('grpc'), metrics });
    log.info(`gRPC server listening on ${config.app.grpc.address} (port ${grpc.port}, ${grpc.services.length} services)`);
  }
  const j = config.app['json-rpc'];
  if (j.enable) {
    const jlog = log.child('json-rpc');
    try {
      const execution: EthereumExecution = evmRpcAdapter(app, { bech32Prefix: BECH32_PREFIX });
      jsonRpc = await startJsonRpc({ app, source: o.source, execution, appToml: config.app, version: VERSION, log: jlog, home: config.home, metrics });
      jlog.info(`Ethereum JSON-RPC listening on http://${j.address} (port ${jsonRpc.port}), websocket port ${jsonRpc.wsPort}, api ${j.api}`);
    } catch (e) {
      // an auxiliary transport: a busy port is reported, the node keeps running
      jlog.error(`Ethereum JSON-RPC not started: ${(e as Error).message}`);
    }
  }
  return { rest, grpc, jsonRpc };
}

/**
 * Applies config.toml's `log_level` (per module, as the SDK's `--log_level`) and `log_format` to the node's
 * logger (one made by `createLogger`; its children follow). Left alone when both are the defaults, so a logger
 * handed in by a test keeps its own level.
 */
export function applyLogConfig(log: Logger, config: NodeConfig): void {
  const { log_level: level, log_format: format } = config.config;
  if (level === 'info' && format === 'plain') return;
  configureLogger(log, { level, format });
}

/**
 * The node's metrics registry when config.toml `[instrumentation] prometheus` is on; `consensusMetrics` false in
 * CometBFT mode (CometBFT reports consensus and the mempool itself).
 */
export function createNodeMetrics(config: NodeConfig, consensusMetrics = true): NodeMetrics | undefined {
  const i = config.config.instrumentation;
  return i.prometheus ? new NodeMetrics({ namespace: i.namespace, consensusMetrics }) : undefined;
}

/**
 * `GET /metrics` on `prometheus_listen_addr`. A busy port is reported and the node keeps running (as
 * CometBFT's Prometheus server).
 */
export async function startNodeMetricsServer(metrics: NodeMetrics, config: NodeConfig, log: Logger): Promise<MetricsServer | undefined> {
  const mlog = log.child('metrics');
  const addr = config.config.instrumentation.prometheus_listen_addr;
  try {
    const a = parseListenAddress(addr);
    const server = await startMetricsServer({ metrics, host: a.host, port: a.port, log: mlog });
    mlog.info(`Prometheus metrics on http://${a.host}:${server.port}/metrics`);
    return server;
  } catch (e) {
    mlog.error(`Prometheus metrics server not started on ${addr}: ${(e as Error).message}`);
    return undefined;
  }
}
