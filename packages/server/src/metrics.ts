/**
 * Prometheus metrics of a node (prom-client): one registry, named as CometBFT v0.38's and the Cosmos SDK's
 * telemetry where those exist, plus the transports' request metrics. The consensus engine knows nothing of
 * it: the composition observes the engine from outside (`instrumentAbciApp` wraps the app the engine or the
 * ABCI server drives; `observeBlock`, `observeCheckTx` are called by the glue), and the transports take an
 * optional `metrics` handle.
 *
 * Names (`namespace` defaults to CometBFT's `cometbft`):
 * - `<ns>_consensus_height`, `_latest_block_height`, `_block_interval_seconds` (histogram), `_num_txs`,
 *   `_total_txs`, `_block_size_bytes`, `_chain_size_bytes`, `_validators`, `_validators_power`
 * - `<ns>_mempool_size`, `_size_bytes`, `_tx_size_bytes` (histogram), `_failed_txs`, `_rejected_txs`, `_recheck_times`
 * - `<ns>_state_block_processing_time` (histogram, ms: FinalizeBlock), `_validator_set_updates`, `_consensus_param_updates`
 * - `<ns>_abci_connection_method_timing_seconds{method,type}` (check_tx, prepare_proposal, process_proposal,
 *   finalize_block, commit, ...)
 * - the SDK's `tx_count`, `tx_successful`, `tx_failed`; Ethermint's `tx_msg_ethereum_tx_total`,
 *   `tx_msg_ethereum_tx_gas_used_total`
 * - `<app>_block_txs`, `<app>_block_gas_used`, `<app>_evm_block_gas_used` (histograms per block)
 * - `<app>_requests_total{transport,method}`, `<app>_request_errors_total{transport,method}`,
 *   `<app>_request_duration_seconds{transport,method}`, `<app>_websocket_connections{transport}`,
 *   `<app>_websocket_subscriptions{transport}`
 *
 * With `consensusMetrics: false` (CometBFT mode: a CometBFT process runs consensus and serves its own
 * `<ns>_consensus_*`, `_mempool_*`, `_state_*`, `_abci_connection_method_timing_seconds`, `_p2p_*`, ... and Go's
 * `process_*`), this registry serves no family of those names: no consensus, mempool or state families, the
 * app's side of the ABCI calls as `<app>_abci_method_timing_seconds{method,type}`, and prom-client's process
 * metrics as `<app>_process_*`, `<app>_nodejs_*`. The two endpoints can then be scraped into one Prometheus
 * (or federated, or merged by an agent) without two families of one name.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AbciApplication, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse } from '@chain/app';
import type { Logger } from './logger.js';

/** The transports whose requests are counted (the `transport` label). */
export type MetricsTransport = 'rest' | 'cometbft_rpc' | 'grpc' | 'eth_jsonrpc';

export interface NodeMetricsOptions {
  /** prefix of the CometBFT-named metrics (config.toml `[instrumentation] namespace`), default `cometbft` */
  readonly namespace?: string;
  /** prefix of this node's own metrics (blocks, transports), default `chain` */
  readonly appNamespace?: string;
  /** distinct `method` label values per transport before new ones become `other` (default 256) */
  readonly maxMethodsPerTransport?: number;
  /** the process metrics of prom-client (`process_*`, `nodejs_*`), default true */
  readonly processMetrics?: boolean;
  /**
   * this process runs consensus (the embedded engine) and serves CometBFT's families (default true). False when
   * another process (CometBFT) owns consensus and serves them itself: no consensus, mempool or state families
   * here, the ABCI timing under the app's namespace (`<app>_abci_method_timing_seconds`) and the process
   * metrics prefixed with it (`<app>_process_*`, `<app>_nodejs_*`), so no name is served by both
   */
  readonly consensusMetrics?: boolean;
}

/** What the glue reports of one committed block (embedded engine). */
export interface BlockObservation {
  readonly height: number;
  readonly time: Date;
  readonly numTxs: number;
  readonly sizeBytes: number;
  readonly validators?: readonly { readonly votingPower: number }[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const OTHER = 'other';

export class NodeMetrics {
  readonly registry = new Registry();
  readonly namespace: string;
  readonly appNamespace: string;
  private readonly maxMethods: number;
  private readonly methodsSeen = new Map<string, Set<string>>();
  private readonly wsSubscriptionSources = new Map<MetricsTransport, Set<() => number>>();
  private lastBlockTime: number | undefined;
  private totalTxs = 0;

  readonly consensus;
  readonly mempool;
  readonly state;
  readonly abciTiming: Histogram<'method' | 'type'>;
  readonly sdk;
  readonly app;
  readonly transport;

  constructor(o: NodeMetricsOptions = {}) {
    this.namespace = o.namespace ?? 'cometbft';
    this.appNamespace = o.appNamespace ?? 'chain';
    for (const p of [this.namespace, this.appNamespace]) if (!METRIC_NAME.test(p)) throw new Error(`invalid metrics namespace ${JSON.stringify(p)}`);
    this.maxMethods = o.maxMethodsPerTransport ?? 256;
    const r = [this.registry];
    const ns = this.namespace;
    const an = this.appNamespace;
    const g = (name: string, help: string, registers = r): Gauge => new Gauge({ name, help, registers });
    const c = (name: string, help: string, registers = r): Counter => new Counter({ name, help, registers });
    const external = o.consensusMetrics === false;
    // the families CometBFT serves itself when it runs consensus: not registered then (their handles still work)
    const rc = external ? [] : r;
    this.consensus = {
      height: g(`${ns}_consensus_height`, 'Height of the chain.', rc),
      latestBlockHeight: g(`${ns}_consensus_latest_block_height`, 'The latest block height.', rc),
      blockIntervalSeconds: new Histogram({ name: `${ns}_consensus_block_interval_seconds`, help: 'Time between this and the last block.', registers: rc }),
      numTxs: g(`${ns}_consensus_num_txs`, 'Number of transactions.', rc),
      totalTxs: g(`${ns}_consensus_total_txs`, 'Total number of transactions.', rc),
      blockSizeBytes: g(`${ns}_consensus_block_size_bytes`, 'Size of the block.', rc),
      chainSizeBytes: c(`${ns}_consensus_chain_size_bytes`, 'Size of the chain in bytes.', rc),
      validators: g(`${ns}_consensus_validators`, 'Number of validators.', rc),
      validatorsPower: g(`${ns}_consensus_validators_power`, 'Total power of all validators.', rc),
    };
    this.mempool = {
      size: g(`${ns}_mempool_size`, 'Number of uncommitted transactions in the mempool.', rc),
      sizeBytes: g(`${ns}_mempool_size_bytes`, 'Total size of the mempool in bytes.', rc),
      txSizeBytes: new Histogram({ name: `${ns}_mempool_tx_size_bytes`, help: 'Histogram of transaction sizes in bytes.', buckets: [1, 3, 9, 27, 81, 243, 729], registers: rc }),
      failedTxs: c(`${ns}_mempool_failed_txs`, 'Number of failed transactions (refused by CheckTx).', rc),
      rejectedTxs: c(`${ns}_mempool_rejected_txs`, 'Number of rejected transactions (mempool full, tx too large, already in cache).', rc),
      recheckTimes: c(`${ns}_mempool_recheck_times`, 'Number of times transactions are rechecked in the mempool.', rc),
    };
    this.state = {
      blockProcessingTime: new Histogram({
        name: `${ns}_state_block_processing_time`, help: 'Time spent processing FinalizeBlock', buckets: [1, 11, 21, 31, 41, 51, 61, 71, 81, 91], registers: rc,
      }),
      validatorSetUpdates: c(`${ns}_state_validator_set_updates`, 'Number of validator set updates returned by the application since process start.', rc),
      consensusParamUpdates: c(`${ns}_state_consensus_param_updates`, 'Number of consensus parameter updates returned by the application since process start.', rc),
    };
    this.abciTiming = new Histogram({
      ...(external
        ? { name: `${an}_abci_method_timing_seconds`, help: 'Time the app spends in each ABCI method (the app\'s side of the socket; CometBFT\'s side is its abci_connection_method_timing_seconds).' }
        : { name: `${ns}_abci_connection_method_timing_seconds`, help: 'Timing for each ABCI method.' }),
      labelNames: ['method', 'type'],
      buckets: [0.0001, 0.0004, 0.002, 0.009, 0.02, 0.1, 0.65, 2, 6, 25], registers: r,
    });
    this.sdk = {
      txCount: c('tx_count', 'Transactions executed in blocks (Cosmos SDK telemetry).'),
      txSuccessful: c('tx_successful', 'Transactions executed successfully in blocks (Cosmos SDK telemetry).'),
      txFailed: c('tx_failed', 'Transactions that failed in blocks (Cosmos SDK telemetry).'),
      ethTxTotal: c('tx_msg_ethereum_tx_total', 'Ethereum transactions executed in blocks (Ethermint telemetry).'),
      ethGasUsedTotal: c('tx_msg_ethereum_tx_gas_used_total', 'Gas used by Ethereum transactions in blocks (Ethermint telemetry).'),
    };
    const gasBuckets = [0, 21_000, 100_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 30_000_000, 100_000_000];
    this.app = {
      blockTxs: new Histogram({ name: `${an}_block_txs`, help: 'Transactions per block.', buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], registers: r }),
      blockGasUsed: new Histogram({ name: `${an}_block_gas_used`, help: 'Gas used per block (sum of the txs\' gas used).', buckets: gasBuckets, registers: r }),
      evmBlockGasUsed: new Histogram({ name: `${an}_evm_block_gas_used`, help: 'Gas used by the EVM per block (Ethereum txs).', buckets: gasBuckets, registers: r }),
    };
    const self = this;
    this.transport = {
      requests: new Counter({ name: `${an}_requests_total`, help: 'Requests per transport and route or method.', labelNames: ['transport', 'method'], registers: r }),
      errors: new Counter({ name: `${an}_request_errors_total`, help: 'Requests answered with an error per transport and route or method.', labelNames: ['transport', 'method'], registers: r }),
      duration: new Histogram({
        name: `${an}_request_duration_seconds`, help: 'Request latency per transport and route or method.', labelNames: ['transport', 'method'],
        buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30], registers: r,
      }),
      wsConnections: new Gauge({ name: `${an}_websocket_connections`, help: 'Open websocket connections per transport.', labelNames: ['transport'], registers: r }),
      wsSubscriptions: new Gauge({
        name: `${an}_websocket_subscriptions`, help: 'Active websocket subscriptions per transport.', labelNames: ['transport'], registers: r,
        collect() {
          for (const [t, fns] of self.wsSubscriptionSources) {
            let n = 0;
            for (const f of fns) { try { n += f(); } catch { /* source closed */ } }
            this.set({ transport: t }, n);
          }
        },
      }),
    };
    // CometBFT's Go process serves `process_*` itself: this process's go under the app's namespace then
    if (o.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, ...(external ? { prefix: `${an}_` } : {}) });
  }

  /**
   * The `method` label of a request: at most `maxMethodsPerTransport` distinct values per transport (then
   * `other`), and only metric-safe text of bounded length. Callers pass route templates or known method
   * names, never raw paths.
   */
  methodLabel(transport: MetricsTransport, method: string): string {
    let seen = this.methodsSeen.get(transport);
    if (!seen) this.methodsSeen.set(transport, seen = new Set());
    if (seen.has(method)) return method;
    if (method.length > 200 || seen.size >= this.maxMethods) return OTHER;
    seen.add(method);
    return method;
  }

  /** Starts timing one request; call the result once with whether it failed. */
  startRequest(transport: MetricsTransport, method: string): (error: boolean) => void {
    const t0 = process.hrtime.bigint();
    let done = false;
    return (error) => {
      if (done) return;
      done = true;
      this.observeRequest(transport, method, Number(process.hrtime.bigint() - t0) / 1e9, error);
    };
  }

  /** One finished request of `seconds`. */
  observeRequest(transport: MetricsTransport, method: string, seconds: number, error: boolean): void {
    const labels = { transport, method: this.methodLabel(transport, method) };
    this.transport.requests.inc(labels);
    if (error) this.transport.errors.inc(labels);
    this.transport.duration.observe(labels, seconds);
  }

  wsConnected(transport: MetricsTransport): () => void {
    this.transport.wsConnections.inc({ transport });
    let done = false;
    return () => { if (!done) { done = true; this.transport.wsConnections.dec({ transport }); } };
  }

  /** Adds a source of the subscription count of a transport (read at scrape time); returns the remover. */
  addWsSubscriptionSource(transport: MetricsTransport, count: () => number): () => void {
    let set = this.wsSubscriptionSources.get(transport);
    if (!set) this.wsSubscriptionSources.set(transport, set = new Set());
    set.add(count);
    this.transport.wsSubscriptions.set({ transport }, 0);
    return () => { set.delete(count); };
  }

  /** A committed block of the embedded engine (consensus metrics; in CometBFT mode CometBFT reports them). */
  observeBlock(b: BlockObservation): void {
    this.consensus.height.set(b.height + 1);
    this.consensus.latestBlockHeight.set(b.height);
    const t = b.time.getTime();
    if (this.lastBlockTime !== undefined && t >= this.lastBlockTime) this.consensus.blockIntervalSeconds.observe((t - this.lastBlockTime) / 1000);
    this.lastBlockTime = t;
    this.consensus.numTxs.set(b.numTxs);
    this.totalTxs += b.numTxs;
    this.consensus.totalTxs.set(this.totalTxs);
    this.consensus.blockSizeBytes.set(b.sizeBytes);
    this.consensus.chainSizeBytes.inc(b.sizeBytes);
    if (b.validators) {
      this.consensus.validators.set(b.validators.length);
      this.consensus.validatorsPower.set(b.validators.reduce((n, v) => n + v.votingPower, 0));
    }
  }

  /** The mempool's state (embedded engine). */
  observeMempool(size: number, bytes: number): void {
    this.mempool.size.set(size);
    this.mempool.sizeBytes.set(bytes);
  }

  /** One CheckTx of a new tx at the mempool: accepted (its size), refused by the app, or rejected by the mempool. */
  observeCheckTx(outcome: 'accepted' | 'failed' | 'rejected', sizeBytes: number): void {
    if (outcome === 'accepted') this.mempool.txSizeBytes.observe(sizeBytes);
    else if (outcome === 'failed') this.mempool.failedTxs.inc();
    else this.mempool.rejectedTxs.inc();
  }

  /** The app's FinalizeBlock answer: txs and gas per block, the SDK's tx counters, EVM gas, state updates. */
  observeFinalizeBlock(req: Pick<FinalizeBlockRequest, 'txs'>, resp: FinalizeBlockResponse, ms: number): void {
    this.state.blockProcessingTime.observe(ms);
    if (resp.validatorUpdates.length > 0) this.state.validatorSetUpdates.inc();
    if (resp.consensusParamUpdates) this.state.consensusParamUpdates.inc();
    let gas = 0;
    let evmGas = 0;
    let ok = 0;
    for (const r of resp.txResults) {
      gas += r.gasUsed;
      if (r.code === 0) ok++;
      const eth = ethereumTxGas(r);
      this.sdk.ethTxTotal.inc(eth.count);
      evmGas += eth.gas;
    }
    const n = resp.txResults.length || req.txs.length;
    this.sdk.txCount.inc(n);
    this.sdk.txSuccessful.inc(ok);
    this.sdk.txFailed.inc(n - ok);
    if (evmGas > 0) this.sdk.ethGasUsedTotal.inc(evmGas);
    this.app.blockTxs.observe(n);
    this.app.blockGasUsed.observe(gas);
    this.app.evmBlockGasUsed.observe(evmGas);
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> { return this.registry.metrics(); }
  get contentType(): string { return this.registry.contentType; }
}

/** Gas used by the Ethereum txs of one tx result (`ethereum_tx` events' `txGasUsed`). */
function ethereumTxGas(r: ExecTxResult): { count: number; gas: number } {
  let count = 0;
  let gas = 0;
  for (const e of r.events) {
    if (e.type !== 'ethereum_tx') continue;
    const a = e.attributes.find((x) => x.key === 'txGasUsed');
    if (!a) continue;
    count++;
    const v = Number(a.value);
    if (Number.isFinite(v)) gas += v;
  }
  return { count, gas };
}

const ABCI_METHODS: Record<string, string> = {
  info: 'info', initChain: 'init_chain', checkTx: 'check_tx', prepareProposal: 'prepare_proposal',
  processProposal: 'process_proposal', finalizeBlock: 'finalize_block', commit: 'commit', query: 'query',
};

/**
 * The app as the engine (or the ABCI server) sees it, timed: every ABCI method into
 * `abci_connection_method_timing_seconds` (CheckTx of type recheck counted in `mempool_recheck_times`),
 * FinalizeBlock into `state_block_processing_time` and the per-block app metrics. Other members pass
 * through, bound to the app.
 */
export function instrumentAbciApp<A extends AbciApplication>(app: A, metrics: NodeMetrics): A {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(app, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      let w = wrapped.get(prop);
      if (w) return w;
      const fn = v as (...args: unknown[]) => unknown;
      const method = typeof prop === 'string' ? ABCI_METHODS[prop] : undefined;
      if (!method) {
        w = fn.bind(target);
      } else {
        w = async (...args: unknown[]) => {
          const t0 = process.hrtime.bigint();
          const type = method === 'check_tx' && (args[0] as { type?: string } | undefined)?.type === 'recheck' ? 'recheck' : 'sync';
          const out = await fn.apply(target, args);
          const s = Number(process.hrtime.bigint() - t0) / 1e9;
          metrics.abciTiming.observe({ method, type }, s);
          if (type === 'recheck') metrics.mempool.recheckTimes.inc();
          if (method === 'finalize_block') metrics.observeFinalizeBlock(args[0] as FinalizeBlockRequest, out as FinalizeBlockResponse, s * 1000);
          return out;
        };
      }
      wrapped.set(prop, w);
      return w;
    },
  });
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` (Prometheus text format) on `host:port` (CometBFT's `prometheus_listen_addr`). */
export async function startMetricsServer(o: { metrics: NodeMetrics; host: string; port: number; log: Logger }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
      return;
    }
    o.metrics.text().then((text) => {
      res.writeHead(200, { 'content-type': o.metrics.contentType });
      res.end(req.method === 'HEAD' ? undefined : text);
    }, (e: unknown) => {
      o.log.error('metrics collection failed', { err: String(e) });
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`error collecting metrics: ${String(e)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  server.on('error', (e) => o.log.error('metrics server error', { err: String(e) }));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
