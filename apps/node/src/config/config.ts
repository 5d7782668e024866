/**
 * Node configuration: `HOME/config/app.toml` (app, [api], [grpc], [json-rpc], [evm]) and
 * `HOME/config/config.toml` (consensus, [rpc], [mempool]), with command-line flags on top.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as z from 'zod';
import { parseLogLevel } from '@chain/server/node';

export const AppTomlSchema = z.object({
  'minimum-gas-prices': z.string().default(''),
  'pruning': z.string().default('nothing'),
  'pruning-keep-recent': z.string().default('0'),
  'pruning-interval': z.string().default('0'),
  /** IAVL node cache of each store, in nodes */
  'iavl-cache-size': z.number().int().nonnegative().default(100_000),
  /** values of the current state cached in memory, in entries (the state is on disk) */
  'state-cache-size': z.number().int().positive().default(200_000),
  api: z.object({
    enable: z.boolean().default(false),
    swagger: z.boolean().default(false),
    /** serve the block explorer at /explorer (unset: on under `chaind dev`, off under `chaind start`) */
    explorer: z.boolean().optional(),
    address: z.string().default('tcp://0.0.0.0:1317'),
    'max-open-connections': z.number().int().nonnegative().default(1000),
    'rpc-read-timeout': z.number().nonnegative().default(10),
    'rpc-write-timeout': z.number().nonnegative().default(0),
    'rpc-max-body-bytes': z.number().int().positive().default(1_000_000),
    'enabled-unsafe-cors': z.boolean().default(false),
  }).prefault({}),
  grpc: z.object({
    enable: z.boolean().default(true),
    address: z.string().default('0.0.0.0:9090'),
  }).prefault({}),
  'json-rpc': z.object({
    enable: z.boolean().default(false),
    address: z.string().default('0.0.0.0:8545'),
    'ws-address': z.string().default('0.0.0.0:8546'),
    api: z.string().default('eth,net,web3'),
    'gas-cap': z.number().int().nonnegative().default(25_000_000),
    'evm-timeout': z.string().default('5s'),
    /** ether units; 0 disables the check */
    'txfee-cap': z.number().nonnegative().default(1),
    'filter-cap': z.number().int().positive().default(200),
    'filter-timeout': z.string().default('5m'),
    'feehistory-cap': z.number().int().positive().default(100),
    'logs-cap': z.number().int().positive().default(10000),
    'block-range-cap': z.number().int().positive().default(10000),
    'http-timeout': z.string().default('30s'),
    /** how long an idle keep-alive HTTP connection stays open */
    'http-idle-timeout': z.string().default('120s'),
    /** simultaneous connections of the HTTP listener and of the websocket listener, each (0 = unlimited) */
    'max-open-connections': z.number().int().nonnegative().default(0),
    /** accept txs without an EIP-155 chain id over RPC (node-local; the evm param allow_unprotected_txs rules the chain) */
    'allow-unprotected-txs': z.boolean().default(false),
    'batch-request-limit': z.number().int().positive().default(1000),
    'max-body-bytes': z.number().int().positive().default(5 * 1024 * 1024),
    /** subscriptions per websocket connection */
    'max-subscriptions-per-connection': z.number().int().positive().default(100),
  }).prefault({}),
});

/** a `--log_level` spec: `info`, `info,rest:debug`, `*:error,consensus:info` */
const logLevelSchema = z.string().superRefine((v, ctx) => {
  try { parseLogLevel(v); } catch (e) { ctx.addIssue({ code: 'custom', message: (e as Error).message }); }
});

export const ConfigTomlSchema = z.object({
  moniker: z.string().default('node0'),
  /** log levels, per module as the SDK's `--log_level` (`info,rest:debug`); module names are the loggers' */
  'log_level': logLevelSchema.default('info'),
  /** `plain` (one text line per entry) or `json` (one JSON object per line) */
  'log_format': z.enum(['plain', 'json']).default('plain'),
  'db_backend': z.string().default('goleveldb'),
  rpc: z.object({
    laddr: z.string().default('tcp://127.0.0.1:26657'),
    'max_open_connections': z.number().int().nonnegative().default(900),
    'max_subscription_clients': z.number().int().positive().default(100),
    'max_subscriptions_per_client': z.number().int().positive().default(5),
    'experimental_subscription_buffer_size': z.number().int().positive().default(200),
    'max_body_bytes': z.number().int().positive().default(1_000_000),
    'max_request_batch_size': z.number().int().positive().default(10),
    'timeout_broadcast_tx_commit': z.string().default('10s'),
    'cors_allowed_origins': z.array(z.string()).default([]),
  }).prefault({}),
  mempool: z.object({
    size: z.number().int().positive().default(5000),
    'max_txs_bytes': z.number().int().positive().default(1073741824),
    'max_tx_bytes': z.number().int().positive().default(1048576),
    'cache_size': z.number().int().positive().default(10000),
  }).prefault({}),
  consensus: z.object({
    'timeout_commit': z.string().default('1s'),
    /** `embedded`: the single-validator engine in this process; `cometbft`: a CometBFT node over ABCI (`--consensus`) */
    engine: z.enum(['embedded', 'cometbft']).default('embedded'),
  }).prefault({}),
  /** the embedded engine's tx and block index (CometBFT's section; CometBFT mode indexes in CometBFT) */
  'tx_index': z.object({
    /**
     * false: in chain.db, written in each block's batch; true: in data/tx_index.db, written on a worker thread after
     * each commit (@chain/indexer IndexWorker)
     */
    'worker_thread': z.boolean().default(true),
  }).prefault({}),
  /** cometbft mode: where the app's ABCI socket server listens (CometBFT's proxy_app) */
  abci: z.object({
    laddr: z.string().default('tcp://127.0.0.1:26658'),
  }).prefault({}),
  /** cometbft mode: the spawned CometBFT node's p2p listen address */
  p2p: z.object({
    laddr: z.string().default('tcp://0.0.0.0:26656'),
  }).prefault({}),
  /** Prometheus metrics (CometBFT's `[instrumentation]`): `GET /metrics` on `prometheus_listen_addr` */
  instrumentation: z.object({
    prometheus: z.boolean().default(false),
    'prometheus_listen_addr': z.string().default(':26660'),
    /** prefix of the CometBFT-named metrics */
    namespace: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'a Prometheus name prefix').default('cometbft'),
    /**
     * cometbft mode: where this process serves the app's and the transports' metrics, CometBFT serving its own
     * on `prometheus_listen_addr` (as in any Cosmos SDK chain); empty = `prometheus_listen_addr`'s host and
     * port + 1 (`:26661`). Unused by the embedded engine, whose one `/metrics` has everything.
     */
    'app_prometheus_listen_addr': z.string().default(''),
  }).prefault({}),
  /** cometbft mode: `rpc` set (http://host:port) = a CometBFT started separately (not spawned), whose RPC this is */
  cometbft: z.object({
    rpc: z.string().default(''),
  }).prefault({}),
});

export type AppToml = z.infer<typeof AppTomlSchema>;
export type ConfigToml = z.infer<typeof ConfigTomlSchema>;

export interface NodeConfig {
  readonly home: string;
  readonly app: AppToml;
  readonly config: ConfigToml;
}

export function configDir(home: string): string {
  return join(home, 'config');
}

function readToml(path: string): unknown {
  if (!existsSync(path)) return {};
  try {
    return parseToml(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`cannot parse ${path}: ${(e as Error).message}`);
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid ${file}: ${issues}`);
  }
  return r.data;
}

export { parseDurationMs, parseListenAddress } from '@chain/server/node';

export function loadConfig(home: string): NodeConfig {
  const dir = configDir(home);
  return {
    home,
    app: check(AppTomlSchema, readToml(join(dir, 'app.toml')), 'app.toml'),
    config: check(ConfigTomlSchema, readToml(join(dir, 'config.toml')), 'config.toml'),
  };
}

/** Start flags as in the interface; each overrides its config-file key. */
export const FLAG_TARGETS: Record<string, { file: 'app' | 'config'; path: string[]; type: 'string' | 'boolean' }> = {
  'rpc.laddr': { file: 'config', path: ['rpc', 'laddr'], type: 'string' },
  'api.address': { file: 'app', path: ['api', 'address'], type: 'string' },
  'api.enable': { file: 'app', path: ['api', 'enable'], type: 'boolean' },
  'api.swagger': { file: 'app', path: ['api', 'swagger'], type: 'boolean' },
  'api.explorer': { file: 'app', path: ['api', 'explorer'], type: 'boolean' },
  'grpc.address': { file: 'app', path: ['grpc', 'address'], type: 'string' },
  'grpc.enable': { file: 'app', path: ['grpc', 'enable'], type: 'boolean' },
  'json-rpc.enable': { file: 'app', path: ['json-rpc', 'enable'], type: 'boolean' },
  'json-rpc.address': { file: 'app', path: ['json-rpc', 'address'], type: 'string' },
  'json-rpc.ws-address': { file: 'app', path: ['json-rpc', 'ws-address'], type: 'string' },
  'evm.rpc.api': { file: 'app', path: ['json-rpc', 'api'], type: 'string' },
  'minimum-gas-prices': { file: 'app', path: ['minimum-gas-prices'], type: 'string' },
  'pruning': { file: 'app', path: ['pruning'], type: 'string' },
  'pruning-keep-recent': { file: 'app', path: ['pruning-keep-recent'], type: 'string' },
  'pruning-interval': { file: 'app', path: ['pruning-interval'], type: 'string' },
  'consensus.timeout_commit': { file: 'config', path: ['consensus', 'timeout_commit'], type: 'string' },
  'tx_index.worker_thread': { file: 'config', path: ['tx_index', 'worker_thread'], type: 'boolean' },
  'moniker': { file: 'config', path: ['moniker'], type: 'string' },
  'consensus': { file: 'config', path: ['consensus', 'engine'], type: 'string' },
  'abci.laddr': { file: 'config', path: ['abci', 'laddr'], type: 'string' },
  'p2p.laddr': { file: 'config', path: ['p2p', 'laddr'], type: 'string' },
  'cometbft.rpc': { file: 'config', path: ['cometbft', 'rpc'], type: 'string' },
  'log_level': { file: 'config', path: ['log_level'], type: 'string' },
  'log_format': { file: 'config', path: ['log_format'], type: 'string' },
  'instrumentation.prometheus': { file: 'config', path: ['instrumentation', 'prometheus'], type: 'boolean' },
  'instrumentation.prometheus_listen_addr': { file: 'config', path: ['instrumentation', 'prometheus_listen_addr'], type: 'string' },
  'instrumentation.app_prometheus_listen_addr': { file: 'config', path: ['instrumentation', 'app_prometheus_listen_addr'], type: 'string' },
};

/** `chaind dev`'s defaults for keys its app.toml leaves unset (a dev home written before the key existed): the explorer on. */
export function devDefaults(cfg: NodeConfig): NodeConfig {
  if (cfg.app.api.explorer !== undefined) return cfg;
  return { ...cfg, app: { ...cfg.app, api: { ...cfg.app.api, explorer: true } } };
}

export function applyFlags(cfg: NodeConfig, flags: Record<string, string | boolean>): NodeConfig {
  const app = structuredClone(cfg.app) as Record<string, unknown>;
  const config = structuredClone(cfg.config) as Record<string, unknown>;
  for (const [name, raw] of Object.entries(flags)) {
    const t = FLAG_TARGETS[name];
    if (!t) continue;
    let value: string | boolean = raw;
    if (t.type === 'boolean' && typeof raw === 'string') {
      if (!['true', 'false'].includes(raw)) throw new Error(`flag --${name} expects true or false, got ${raw}`);
      value = raw === 'true';
    }
    if (t.type === 'string' && typeof raw === 'boolean') throw new Error(`flag --${name} needs a value`);
    let o = (t.file === 'app' ? app : config) as Record<string, unknown>;
    for (const p of t.path.slice(0, -1)) o = o[p] as Record<string, unknown>;
    o[t.path[t.path.length - 1]!] = value;
  }
  return { home: cfg.home, app: check(AppTomlSchema, app, 'app.toml'), config: check(ConfigTomlSchema, config, 'config.toml') };
}
