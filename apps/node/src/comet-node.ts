/**
 * The node in CometBFT mode (`chaind start --consensus cometbft`): the same app (`createChainApp`) served over
 * ABCI (`@chain/abci-server`) to a real CometBFT v0.38 node, which this process spawns with its home under
 * `HOME/cometbft` (or, with `--cometbft.rpc`, one started separately that dials `--abci.laddr`).
 *
 * CometBFT owns consensus, the mempool, the block store, the tx index and the RPC/websocket (on the node's
 * `rpc.laddr`). This process serves the REST gateway and gRPC: state queries read the app directly; the tx
 * service (`cosmos.tx.v1beta1.Service`: simulate, broadcast, tx lookup and search), the node-info/blocks
 * service (`cosmos.base.tendermint.v1beta1.Service`) and the Ethereum JSON-RPC read blocks, results, the tx
 * index and events from CometBFT's RPC and broadcast through it, via the consensus source `CometSource`
 * (consensus-source.ts), as they read the embedded engine through `EmbeddedSource` in the default mode.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App, InitChainRequest } from '@chain/app';
import { AbciServer } from '@chain/abci-server';
import { ensureCometbft } from '@chain/cometbft';
import { CommitStore } from '@chain/store';
import { storeOptions } from './config/store-options.js';
import type { NodeConfig } from './config/config.js';
import { parseDurationMs, parseListenAddress } from './config/config.js';
import { openGenesis } from './config/init.js';
import { nodeProgress, withProgress } from './progress.js';
import { startIdleGc } from './idle-gc.js';
import { createChainApp } from './app.js';
import type { ChainApp } from './app.js';
import { CometSource, createLogger, instrumentAbciApp, registerNodeServices } from '@chain/server';
import type { GrpcServer, Logger, MetricsServer, NodeMetrics, RestServer } from '@chain/server';
import type { NodeOptions } from './node.js';
import { startAppTransports } from './app-transports.js';
import { applyLogConfig, createNodeMetrics, startNodeMetricsServer } from './node-observability.js';
import type { JsonRpcServer } from '@chain/server';
import { BECH32_PREFIX } from './config/init.js';
import { VERSION } from './app.js';

export interface CometNodeOptions extends NodeOptions {
  /** called when the spawned CometBFT exits on its own (the node cannot go on without consensus) */
  readonly onCometExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/** `HOME/cometbft`: CometBFT's home in this mode. */
export function cometHome(home: string): string {
  return join(home, 'cometbft');
}

/**
 * Creates (first start) or refreshes CometBFT's home: `cometbft init` for its config and node key, then the
 * chain's genesis.json (already a CometBFT genesis doc) and the validator key (already CometBFT's
 * priv_validator_key.json format), and the node's consensus settings in its config.toml.
 */
export function prepareCometHome(bin: string, config: NodeConfig): string {
  const dir = cometHome(config.home);
  const cfgDir = join(dir, 'config');
  if (!existsSync(join(cfgDir, 'config.toml'))) {
    const r = spawnSync(bin, ['init', '--home', dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cometbft init --home ${dir} failed: ${r.stderr || r.stdout}`);
  }
  copyFileSync(join(config.home, 'config', 'genesis.json'), join(cfgDir, 'genesis.json'));
  copyFileSync(join(config.home, 'config', 'priv_validator_key.json'), join(cfgDir, 'priv_validator_key.json'));
  const tomlPath = join(cfgDir, 'config.toml');
  let toml = readFileSync(tomlPath, 'utf8');
  const set = (section: string, key: string, value: string): void => {
    // replace `key = ...` inside [section] (the first occurrence after the section header)
    const head = section ? toml.indexOf(`[${section}]`) : 0;
    if (head < 0) throw new Error(`cometbft config.toml has no [${section}]`);
    const re = new RegExp(`^${key} = .*$`, 'm');
    const tail = toml.slice(head);
    const m = re.exec(tail);
    if (!m) throw new Error(`cometbft config.toml has no ${key} in [${section}]`);
    toml = toml.slice(0, head) + tail.slice(0, m.index) + `${key} = ${value}` + tail.slice(m.index + m[0].length);
  };
  set('consensus', 'timeout_commit', JSON.stringify(config.config.consensus.timeout_commit));
  set('', 'moniker', JSON.stringify(config.config.moniker));
  set('rpc', 'max_body_bytes', String(config.config.rpc.max_body_bytes));
  set('rpc', 'timeout_broadcast_tx_commit', JSON.stringify(config.config.rpc.timeout_broadcast_tx_commit));
  set('mempool', 'size', String(config.config.mempool.size));
  set('mempool', 'max_tx_bytes', String(config.config.mempool.max_tx_bytes));
  // CometBFT's own metrics (consensus, mempool, p2p, state, ABCI timing, Go process) on the configured
  // prometheus_listen_addr, as in any Cosmos SDK chain; the app's are this process's (cometMetricsAddresses)
  const inst = config.config.instrumentation;
  set('instrumentation', 'prometheus', inst.prometheus ? 'true' : 'false');
  if (inst.prometheus) {
    set('instrumentation', 'prometheus_listen_addr', JSON.stringify(cometMetricsAddresses(config).comet));
    set('instrumentation', 'namespace', JSON.stringify(inst.namespace));
  }
  writeFileSync(tomlPath, toml);
  return dir;
}

/**
 * Where the metrics are served in CometBFT mode (`[instrumentation] prometheus = true`), as `host:port`:
 * `comet`, CometBFT's own, is `prometheus_listen_addr` (what config.toml's `[instrumentation]` means in any
 * Cosmos SDK chain, so scrape configs and dashboards find `cometbft_consensus_height` where they look for it,
 * in both modes); `app`, this process's (the app's and the transports'), is `app_prometheus_listen_addr`, or
 * when that is empty the same host with the port + 1 (`:26660` → `:26661`; port 0 stays 0). Throws when the
 * two would be the same listener.
 */
export function cometMetricsAddresses(config: NodeConfig): { comet: string; app: string } {
  const inst = config.config.instrumentation;
  const c = parseListenAddress(inst.prometheus_listen_addr);
  let a: { host: string; port: number };
  if (inst.app_prometheus_listen_addr) {
    a = parseListenAddress(inst.app_prometheus_listen_addr);
  } else {
    if (c.port === 65535) throw new Error(`[instrumentation] prometheus_listen_addr ${inst.prometheus_listen_addr}: no port + 1 for the app's metrics; set app_prometheus_listen_addr`);
    a = { host: c.host, port: c.port === 0 ? 0 : c.port + 1 };
  }
  const wild = (h: string): boolean => h === '0.0.0.0' || h === '::';
  if (c.port !== 0 && a.port === c.port && (a.host === c.host || wild(a.host) || wild(c.host))) {
    throw new Error(`[instrumentation] app_prometheus_listen_addr ${inst.app_prometheus_listen_addr} is CometBFT's prometheus_listen_addr ${inst.prometheus_listen_addr}: the app's metrics need a port of their own in --consensus cometbft`);
  }
  // `:port` (every interface, as CometBFT's default ":26660") stays so; other hosts as given
  const anyHost = (addr: string): boolean => addr.replace(/^(tcp|http):\/\//, '').startsWith(':');
  const hp = (x: { host: string; port: number }, any: boolean): string => `${any ? '' : x.host.includes(':') ? `[${x.host}]` : x.host}:${x.port}`;
  const cometAny = anyHost(inst.prometheus_listen_addr);
  return { comet: hp(c, cometAny), app: hp(a, inst.app_prometheus_listen_addr ? anyHost(inst.app_prometheus_listen_addr) : cometAny) };
}

/** The CometBFT RPC URL of a node config (spawned: the node's rpc.laddr; external: `--cometbft.rpc`). */
export function cometRpcUrlOf(config: NodeConfig): string {
  const ext = config.config.cometbft.rpc;
  if (ext) return ext.replace(/\/$/, '');
  const a = parseListenAddress(config.config.rpc.laddr);
  return `http://${a.host === '0.0.0.0' ? '127.0.0.1' : a.host}:${a.port}`;
}

export class CometNode {
  abci?: AbciServer;
  rest?: RestServer;
  grpc?: GrpcServer;
  jsonRpc?: JsonRpcServer;
  comet?: ChildProcess;
  /**
   * `GET /metrics` (config.toml `[instrumentation] prometheus`): the app's and the transports' metrics, on
   * `app_prometheus_listen_addr` (CometBFT serves its own on `prometheus_listen_addr`)
   */
  metricsServer?: MetricsServer;
  /** the CometBFT RPC URL (spawned: the node's rpc.laddr; external: `--cometbft.rpc`) */
  readonly cometRpcUrl: string;
  private stopping = false;
  private stopIdleGc: (() => void) | undefined;

  private constructor(
    readonly config: NodeConfig,
    readonly store: CommitStore,
    readonly parts: ChainApp,
    readonly log: Logger,
    private readonly opts: CometNodeOptions,
    /** what the tx service, the node-info/blocks service and the Ethereum JSON-RPC read consensus through */
    readonly source: CometSource,
    /** the app and transport metrics (CometBFT serves its consensus and mempool metrics itself) */
    readonly metrics?: NodeMetrics,
  ) {
    this.cometRpcUrl = source.rpcUrl;
  }

  get app(): App { return this.parts.app; }
  get chainId(): string { return this.parts.app.chainId; }

  static async create(config: NodeConfig, log: Logger = createLogger('info'), opts: CometNodeOptions = {}): Promise<CometNode> {
    applyLogConfig(log, config);
    // the app's and the transports' metrics, none of the names CometBFT serves (NodeMetrics' consensusMetrics)
    const metrics = createNodeMetrics(config, false);
    if (metrics) cometMetricsAddresses(config); // a bad or colliding address fails here, before anything starts
    // the top-level fields only (CometBFT hands app_state to InitChain as bytes)
    const genesisFile = openGenesis(config.home);
    const genesis = genesisFile.doc;
    genesisFile.close();
    const dataDir = join(config.home, 'data');
    mkdirSync(dataDir, { recursive: true });
    const store = await CommitStore.open(join(dataDir, 'chain.db'), { ...storeOptions(config.app), progress: nodeProgress(log) });
    try {
      const jsonRpc = config.app['json-rpc'];
      const parts = createChainApp({
        store,
        chainId: genesis.chain_id,
        minGasPrices: config.app['minimum-gas-prices'],
        evmGasCap: BigInt(jsonRpc['gas-cap']),
        evmQueryTimeoutMs: parseDurationMs(jsonRpc['evm-timeout']),
        homeDir: config.home,
        skipUpgradeHeights: opts.skipUpgradeHeights ?? [],
        upgradeLogger: log.child('upgrade'),
      });
      const source = new CometSource({
        rpcUrl: cometRpcUrlOf(config), chainId: genesis.chain_id, log: (m) => log.warn(m), appHeight: () => parts.app.lastHeight,
      });
      registerNodeServices(parts.app, source, {
        broadcastTimeoutMs: parseDurationMs(config.config.rpc.timeout_broadcast_tx_commit), appVersion: VERSION, bech32Prefix: BECH32_PREFIX,
      });
      return new CometNode(config, store, parts, log, opts, source, metrics);
    } catch (e) {
      await store.close();
      throw e;
    }
  }

  /** Starts the ABCI server, then CometBFT (unless external), then REST and gRPC. */
  async start(): Promise<void> {
    const abciLog = this.log.child('abci');
    if (this.metrics) {
      // this process's /metrics on the app's address; CometBFT's on prometheus_listen_addr (prepareCometHome)
      const app = cometMetricsAddresses(this.config).app;
      const inst = { ...this.config.config.instrumentation, prometheus_listen_addr: app };
      this.metricsServer = await startNodeMetricsServer(this.metrics, { ...this.config, config: { ...this.config.config, instrumentation: inst } }, this.log);
    }
    const served = this.metrics ? instrumentAbciApp(this.app, this.metrics) : this.app;
    // InitChain from CometBFT: the import's progress displays (app_state_bytes is read in sections and chunks)
    const progress = nodeProgress(this.log);
    const abciApp = new Proxy(served, {
      get(target, prop, receiver) {
        if (prop === 'initChain') return (req: InitChainRequest) => target.initChain(withProgress(req, progress));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    this.abci = await AbciServer.listen({ app: abciApp, address: this.config.config.abci.laddr, log: abciLog });
    if (!this.config.config.cometbft.rpc) {
      const bin = await ensureCometbft({ log: (l) => this.log.info(l) });
      const dir = prepareCometHome(bin, this.config);
      const logFile = join(dir, 'cometbft.log');
      const fd = openSync(logFile, 'a');
      const args = [
        'start', '--home', dir,
        '--proxy_app', this.abci.address,
        '--rpc.laddr', this.config.config.rpc.laddr,
        '--p2p.laddr', this.config.config.p2p.laddr,
      ];
      const child = spawn(bin, args, { stdio: ['ignore', fd, fd] });
      closeSync(fd);
      this.comet = child;
      child.on('exit', (code, signal) => {
        if (this.stopping) return;
        this.log.error(`CometBFT exited (code ${code}, signal ${signal}); see ${logFile}`);
        this.opts.onCometExit?.(code, signal);
      });
      this.log.info(`CometBFT ${bin} started (pid ${child.pid}, home ${dir}, log ${logFile}); its RPC: ${this.cometRpcUrl}`);
      if (this.metrics) this.log.child('metrics').info(`CometBFT's Prometheus metrics on http://${cometMetricsAddresses(this.config).comet}/metrics`);
    } else {
      this.log.info(`waiting for the CometBFT at ${this.cometRpcUrl} to connect to ABCI ${this.abci.address}`);
    }
    ({ rest: this.rest, grpc: this.grpc, jsonRpc: this.jsonRpc } = await startAppTransports({
      app: this.app, registry: this.parts.registry, source: this.source, config: this.config, log: this.log, metrics: this.metrics,
    }));
    const app = this.app;
    this.stopIdleGc = startIdleGc({ lastActivity: () => app.lastTxActivity, log: this.log });
  }

  /** Stops CometBFT first (SIGTERM, it finishes its block and closes its connections), then the app's side. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopIdleGc?.();
    const c = this.comet;
    if (c && c.exitCode === null && c.signalCode === null) {
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
        setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
      });
    }
    await this.metricsServer?.close();
    await this.jsonRpc?.close();
    this.source.close();
    await this.grpc?.close();
    await this.rest?.close();
    await this.abci?.close();
    await this.store.close();
  }
}
