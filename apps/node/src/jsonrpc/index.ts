/** Ethereum JSON-RPC: settings from `[json-rpc]` and the server start for the node. */
import type { App } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import type { ConsensusSource } from '@chain/server';
import type { AppToml } from '../config/config.js';
import { parseDurationMs, parseListenAddress } from '../config/config.js';
import { Backend } from './backend.js';
import { startJsonRpcServer } from './server.js';
import type { JsonRpcServer } from './server.js';
import type { JsonRpcSettings } from './types.js';

export type { JsonRpcServer } from './server.js';
export type { JsonRpcSettings } from './types.js';
export { Backend } from './backend.js';
export { startJsonRpcServer } from './server.js';

export const ALL_NAMESPACES = ['eth', 'net', 'web3', 'txpool', 'debug', 'personal', 'miner'];

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
  readonly registry: ProtoRegistry;
  readonly source: ConsensusSource;
  readonly appToml: AppToml;
  readonly version: string;
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string, ctx?: Record<string, unknown>): void };
  readonly wsMaxBufferedBytes?: number;
}

export async function startJsonRpc(o: StartJsonRpcOptions): Promise<JsonRpcServer> {
  const settings = jsonRpcSettings(o.appToml, o.version);
  for (const ns of settings.namespaces) if (!ALL_NAMESPACES.includes(ns)) o.log.warn(`[json-rpc] invalid namespace value ${JSON.stringify(ns)}; ignored`);
  for (const ns of ['personal', 'miner']) if (settings.namespaces.has(ns)) o.log.warn(`[json-rpc] namespace ${ns} has no methods in this node yet`);
  const backend = new Backend({ source: o.source, app: o.app, registry: o.registry, minGasPrice: minGasPriceWei(o.appToml['minimum-gas-prices']) });
  const j = o.appToml['json-rpc'];
  return startJsonRpcServer({
    backend, settings, log: o.log,
    http: parseListenAddress(j.address),
    ws: j['ws-address'] ? parseListenAddress(j['ws-address']) : undefined,
    wsMaxBufferedBytes: o.wsMaxBufferedBytes,
  });
}
