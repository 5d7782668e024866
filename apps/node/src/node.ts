/**
 * The node: opens the database, composes the app (`createChainApp`, app.ts), starts the consensus engine
 * and indexer, registers the node-level services, and starts the transports.
 */
import { join } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import type { App } from '@chain/app';
import { nodeProgress } from './progress.js';
import { startIdleGc } from './idle-gc.js';
import { CommitStore } from '@chain/store';
import { storeOptions } from './config/store-options.js';
import { EventBus } from '@chain/events';
import type { Event } from '@chain/events';
import { BLOCK_INDEX_PREFIX, IndexWorker, TX_HASH_PREFIX, TxIndexer, txEventMap } from '@chain/indexer';
import type { TxIndex } from '@chain/indexer';
import { Engine, Mempool, MempoolError, fromTimestamp, seedOfPrivValidatorKey } from '@chain/consensus';
import type { EngineHalt } from '@chain/consensus';
import { nativeKeccak, nativeSecp256k1, toHex, sha256, utf8 } from '@chain/crypto';
import { fastInterpreterAvailable } from '@chain/evm';
import type { NodeConfig } from './config/config.js';
import { parseDurationMs, parseListenAddress } from './config/config.js';
import { BECH32_PREFIX, openGenesis, readValidatorKey } from './config/init.js';
import type { OpenGenesis } from './config/init.js';
import { createChainApp, VERSION } from './app.js';
import type { ChainApp } from './app.js';
import { COMETBFT_VERSION, EmbeddedSource, createLogger, instrumentAbciApp, registerNodeServices } from '@chain/server/node';
import type { GrpcServer, Logger, MetricsServer, NodeMetrics, RestServer, RpcServer } from '@chain/server';
import { applyLogConfig, createNodeMetrics, startNodeMetricsServer } from './node-observability.js';
import type { JsonRpcServer } from '@chain/server';

export { VERSION } from './app.js';

export interface NodeOptions {
  /** heights whose upgrade plan this node skips instead of halting (`--unsafe-skip-upgrades`) */
  readonly skipUpgradeHeights?: readonly number[];
}

export class Node {
  rpc?: RpcServer;
  rest?: RestServer;
  grpc?: GrpcServer;
  jsonRpc?: JsonRpcServer;
  /** `GET /metrics` (config.toml `[instrumentation] prometheus`) */
  metricsServer?: MetricsServer;
  private offMetrics: (() => void)[] = [];
  private stopIdleGc: (() => void) | undefined;
  /** the genesis file, open until the engine has started (InitChain reads its app_state) */
  private genesisFile: OpenGenesis | undefined;
  private constructor(
    readonly config: NodeConfig,
    readonly store: CommitStore,
    readonly parts: ChainApp,
    readonly engine: Engine,
    readonly bus: EventBus,
    readonly log: Logger,
    /** what the tx service, the node-info/blocks service and the Ethereum JSON-RPC read consensus through */
    readonly source: EmbeddedSource,
    /** the Prometheus metrics (undefined when `[instrumentation] prometheus` is off) */
    readonly metrics?: NodeMetrics,
  ) {}

  get app(): App { return this.parts.app; }

  /**
   * Set when the app halted the chain (an upgrade plan this binary has no handler for): the height that was
   * not committed and why. The node then produces no more blocks but keeps serving queries and CheckTx, so
   * operators and monitors see the halt (status stays at the last committed height) until it is stopped.
   */
  get halted(): EngineHalt | undefined { return this.engine.halted; }

  static async create(config: NodeConfig, log: Logger = createLogger('info'), opts: NodeOptions = {}): Promise<Node> {
    applyLogConfig(log, config);
    const metrics = createNodeMetrics(config);
    if (!nativeSecp256k1) log.warn('native secp256k1 binding not loaded: signature checks fall back to pure JS (slow)');
    if (!nativeKeccak) log.warn('native keccak addon not loaded: keccak256 falls back to pure JS (slow)');
    if (!fastInterpreterAvailable) log.warn("the EVM's fast interpreter paths are not installed: contracts run ethereumjs's own interpreter (slower)");
    // the top-level fields only: app_state is read section by section by InitChain, on a fresh chain only
    const genesisFile = openGenesis(config.home);
    const genesis = genesisFile.doc;
    const valKey = readValidatorKey(config.home);
    const dataDir = join(config.home, 'data');
    mkdirSync(dataDir, { recursive: true });
    let engineRef: Engine | undefined;
    const loadEvents = async (height: number, index: number): Promise<Event[] | undefined> => (await engineRef!.blocks.results(height))?.txResults[index]?.events;
    // the tx index in its own database, written on a worker thread after each commit (@chain/indexer IndexWorker):
    // the worker starts now, loading its code and opening its database while this thread opens the store and
    // builds the app
    const indexWorker = config.config.tx_index.worker_thread
      ? IndexWorker.open(join(dataDir, 'tx_index.db'), loadEvents, {
        onError: (e) => log.error(`the tx index stopped: ${e.message}; tx lookups and searches fail until the node restarts (it then indexes the blocks it missed)`),
      })
      : undefined;
    // (its failure is reported where it is awaited)
    indexWorker?.catch(() => undefined);
    let store: CommitStore;
    try {
      store = await CommitStore.open(join(dataDir, 'chain.db'), { ...storeOptions(config.app), progress: nodeProgress(log) });
    } catch (e) {
      genesisFile.close();
      await indexWorker?.then((w) => w.close(), () => undefined);
      throw e;
    }
    let indexer: TxIndex | undefined;
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
      const rpcCfg = config.config.rpc;
      const bus = new EventBus({
        maxClients: rpcCfg.max_subscription_clients,
        maxSubscriptionsPerClient: rpcCfg.max_subscriptions_per_client,
        bufferSize: rpcCfg.experimental_subscription_buffer_size,
      });
      if (indexWorker) {
        indexer = await indexWorker;
        // what chain.db held of the index goes: the engine indexes the stored blocks into tx_index.db at start
        await store.clearRaw(Uint8Array.of(TX_HASH_PREFIX), Uint8Array.of(BLOCK_INDEX_PREFIX + 1));
      } else {
        if (existsSync(join(dataDir, 'tx_index.db'))) {
          log.warn('data/tx_index.db is left from [tx_index] worker_thread = true: the index in chain.db does not have the blocks indexed there (remove the folder, or turn worker_thread on again)');
        }
        indexer = new TxIndexer(store, loadEvents);
      }
      const mp = config.config.mempool;
      const engine = new Engine({
        // with metrics, the engine drives the app through a timing wrapper (ABCI method latencies, per-block app metrics)
        app: metrics ? instrumentAbciApp(parts.app, metrics) : parts.app,
        store,
        bus,
        indexer,
        genesis,
        appStateSource: genesisFile.appStateSource,
        genesisProgress: nodeProgress(log),
        validatorKey: seedOfPrivValidatorKey(valKey),
        timeoutCommitMs: parseDurationMs(config.config.consensus.timeout_commit),
        mempool: new Mempool({ maxTxs: mp.size, maxTxsBytes: mp.max_txs_bytes, maxTxBytes: mp.max_tx_bytes, cacheSize: mp.cache_size }),
        logger: log.child('consensus'),
        onHalt: (h) => log.error(
          `the chain halted at height ${h.height} (not committed): ${h.reason}. The node produces no more blocks and keeps serving queries; `
          + `stop it and start the binary that has the upgrade, or restart with --unsafe-skip-upgrades ${h.height}`,
        ),
      });
      engineRef = engine;
      const nodeId = toHex(sha256(utf8(valKey.pub_key.value))).slice(0, 40);
      const source = new EmbeddedSource(engine, bus, {
        nodeId, moniker: config.config.moniker, rpcAddress: rpcCfg.laddr, listenAddress: 'tcp://0.0.0.0:26656', version: COMETBFT_VERSION,
      });
      registerNodeServices(parts.app, source, {
        broadcastTimeoutMs: parseDurationMs(rpcCfg.timeout_broadcast_tx_commit), appVersion: VERSION, bech32Prefix: BECH32_PREFIX,
      });
      if (metrics) instrumentEngineCheckTx(engine, metrics);
      const node = new Node(config, store, parts, engine, bus, log, source, metrics);
      node.genesisFile = genesisFile;
      return node;
    } catch (e) {
      genesisFile.close();
      // (the worker's index, also when this failed before taking it)
      await (indexer ? indexer.close() : indexWorker?.then((w) => w.close(), () => undefined));
      await store.close();
      throw e;
    }
  }

  /** Starts block production and the transports enabled in the config. */
  async start(): Promise<void> {
    try {
      await this.engine.start();
    } finally {
      this.genesisFile?.close();
      this.genesisFile = undefined;
    }
    const metrics = this.metrics;
    if (metrics) {
      // consensus and mempool metrics, observed from the engine's committed blocks (the engine knows no metrics)
      const engine = this.engine;
      const observe = async (height: number): Promise<void> => {
        const latest = engine.latestBlock;
        const b = latest && latest.block.header.height === height ? latest : await engine.blocks.block(height);
        if (!b) return;
        const vals = await engine.validatorsAt(height);
        metrics.observeBlock({
          height, time: fromTimestamp(b.block.header.time), numTxs: b.block.data.txs.length, sizeBytes: b.size, validators: vals,
        });
        metrics.observeMempool(engine.mempool.size, engine.mempool.bytes);
      };
      this.offMetrics.push(this.source.onNewBlock((h) => { void observe(h).catch((e: unknown) => this.log.debug('metrics: block observation failed', { err: String(e) })); }));
      this.offMetrics.push(engine.mempool.onAdd(() => metrics.observeMempool(engine.mempool.size, engine.mempool.bytes)));
      if (engine.latestHeight > 0) await observe(engine.latestHeight);
      this.metricsServer = await startNodeMetricsServer(metrics, this.config, this.log);
    }
    // the transports' code is loaded now, while the engine waits for its first height (a restart's next block)
    const [{ startAppTransports }, { startRpcServer }] = await Promise.all([import('./app-transports.js'), import('@chain/server')]);
    ({ rest: this.rest, grpc: this.grpc, jsonRpc: this.jsonRpc } = await startAppTransports({
      app: this.app, registry: this.parts.registry, source: this.source, config: this.config, log: this.log, metrics,
    }));
    // the CometBFT-compatible RPC last (it serves the embedded engine; in CometBFT mode CometBFT serves its own):
    // a client that waits for /status finds the REST, gRPC and Ethereum JSON-RPC listening too
    const rpcAddr = parseListenAddress(this.config.config.rpc.laddr);
    this.rpc = await startRpcServer({
      node: { app: this.app, engine: this.engine, bus: this.bus, config: this.config.config.rpc },
      host: rpcAddr.host, port: rpcAddr.port, log: this.log.child('rpc'), metrics,
    });
    this.log.info(`consensus RPC listening on http://${rpcAddr.host}:${this.rpc.port} (websocket /websocket)`);
    const app = this.app;
    const mempool = this.engine.mempool;
    this.stopIdleGc = startIdleGc({
      lastActivity: () => app.lastTxActivity, log: this.log,
      onBlock: (fn) => this.source.onNewBlock(() => fn()), pendingTxs: () => mempool.size,
    });
  }

  async stop(): Promise<void> {
    this.stopIdleGc?.();
    this.genesisFile?.close();
    this.genesisFile = undefined;
    for (const off of this.offMetrics.splice(0)) off();
    await this.metricsServer?.close();
    await this.jsonRpc?.close();
    await this.grpc?.close();
    await this.rest?.close();
    await this.rpc?.close();
    await this.engine.stop();
    this.source.close();
    this.bus.close();
    await this.engine.indexer.close();
    await this.store.close();
  }
}

/**
 * Wraps the engine's CheckTx (the mempool's entry: RPC broadcast, REST/gRPC BroadcastTx, eth_sendRawTransaction)
 * to count accepted, failed (refused by the app) and rejected (mempool limits, cache) txs.
 */
function instrumentEngineCheckTx(engine: Engine, metrics: NodeMetrics): void {
  const checkTx = engine.checkTx.bind(engine);
  engine.checkTx = async (raw: Uint8Array) => {
    try {
      const r = await checkTx(raw);
      metrics.observeCheckTx(r.code === 0 ? 'accepted' : 'failed', raw.length);
      metrics.observeMempool(engine.mempool.size, engine.mempool.bytes);
      return r;
    } catch (e) {
      if (e instanceof MempoolError) metrics.observeCheckTx('rejected', raw.length);
      throw e;
    }
  };
}
