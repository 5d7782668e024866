/**
 * The node's logging and Prometheus settings from its config (config.toml's `log_level`, `log_format` and
 * `[instrumentation]`): what a node sets up before its engine starts, apart from its transports (app-transports.ts,
 * loaded when they start).
 */
import { NodeMetrics, configureLogger, startMetricsServer } from '@chain/server/node';
import type { Logger, MetricsServer } from '@chain/server/node';
import type { NodeConfig } from './config/config.js';
import { parseListenAddress } from './config/config.js';

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
