/**
 * The node's Ethereum JSON-RPC: its settings from app.toml's `[json-rpc]` and the start of `@chain/server`'s
 * server over the node's consensus source and the evm module's adapter (`evmRpcAdapter` of `@chain/evm`).
 */
import type { App } from '@chain/app';
import { join } from 'node:path';
import { EthRpcBackend, JSON_RPC_NAMESPACES, startJsonRpcServer } from '@chain/server';
import { LevelEthHashStore } from './eth-hash-store.js';
import type { ConsensusSource, EthereumExecution, JsonRpcServer, JsonRpcSettings, NodeMetrics } from '@chain/server';
import type { AppToml } from './config/config.js';
import { parseDurationMs, parseListenAddress } from './config/config.js';

export function jsonRpcSettings(app: AppToml, version: string): JsonRpcSettings {
  const j = app['json-rpc'];
  return {
    namespaces: new Set(j.api.split(',').map((s) => s.trim()).filter(Boolean)),
    gasCap: BigInt(j['gas-cap']),
    txFeeCapWei: BigInt(Math.round(j['txfee-cap'] * 1e6)) * 10n ** 12n,
    filterCap: j['filter-cap'],
    filterTimeoutMs: parseDurationMs(j['filter-timeout']),
    feeHistoryCap: j['feehistory-cap'],
    logsCap: j['logs-cap'],
    blockRangeCap: j['block-range-cap'],
    httpTimeoutMs: parseDurationMs(j['http-timeout']),
    httpIdleTimeoutMs: parseDurationMs(j['http-idle-timeout']),
    maxOpenConnections: j['max-open-connections'],
    allowUnprotectedTxs: j['allow-unprotected-txs'],
    batchLimit: j['batch-request-limit'],
    maxBodyBytes: j['max-body-bytes'],
    maxSubscriptionsPerConnection: j['max-subscriptions-per-connection'],
    clientVersion: `chaind/v${version}/node${process.versions.node}`,
  };
}

/** The `achain` amount of `minimum-gas-prices` (rounded up to a whole wei). */
export function minGasPriceWei(minGasPrices: string, denom = 'achain'): bigint {
  const m = new RegExp(`(\\d+(?:\\.\\d+)?)${denom}(?:,|$)`).exec(minGasPrices);
  if (!m) return 0n;
  const [int, frac = ''] = m[1]!.split('.');
  return BigInt(int!) + (/[1-9]/.test(frac) ? 1n : 0n);
}

export interface StartJsonRpcOptions {
  readonly app: App;
  readonly source: ConsensusSource;
  /** the chain's EVM as the JSON-RPC uses it (`evmRpcAdapter` of @chain/evm) */
  readonly execution: EthereumExecution;
  readonly appToml: AppToml;
  readonly version: string;
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string, ctx?: Record<string, unknown>): void };
  readonly wsMaxBufferedBytes?: number;
  /** the node's home: the Ethereum block hashes are kept in HOME/data/eth-hashes.db (none: in memory) */
  readonly home?: string;
  /** Prometheus metrics of the JSON-RPC's requests (`@chain/server`'s `NodeMetrics`) */
  readonly metrics?: NodeMetrics;
}

export async function startJsonRpc(o: StartJsonRpcOptions): Promise<JsonRpcServer> {
  const settings = jsonRpcSettings(o.appToml, o.version);
  for (const ns of settings.namespaces) if (!JSON_RPC_NAMESPACES.includes(ns)) o.log.warn(`[json-rpc] invalid namespace value ${JSON.stringify(ns)}; ignored`);
  for (const ns of ['personal', 'miner']) if (settings.namespaces.has(ns)) o.log.warn(`[json-rpc] namespace ${ns} has no methods in this node yet`);
  const hashStore = o.home ? await LevelEthHashStore.open(join(o.home, 'data', 'eth-hashes.db')) : undefined;
  const backend = new EthRpcBackend({
    source: o.source, app: o.app, execution: o.execution, minGasPrice: minGasPriceWei(o.appToml['minimum-gas-prices']), hashStore,
  });
  const j = o.appToml['json-rpc'];
  let server: JsonRpcServer;
  try {
    server = await startJsonRpcServer({
      backend, settings, log: o.log,
      http: parseListenAddress(j.address),
      ws: j['ws-address'] ? parseListenAddress(j['ws-address']) : undefined,
      wsMaxBufferedBytes: o.wsMaxBufferedBytes, metrics: o.metrics,
    });
  } catch (e) {
    await hashStore?.close();
    throw e;
  }
  if (!hashStore) return server;
  return { ...server, close: async () => { await server.close(); await hashStore.close(); } };
}
