/**
 * The transports that serve the app in both consensus modes (the embedded engine's `Node` and the CometBFT
 * mode's `CometNode`): the REST gateway, gRPC and the Ethereum JSON-RPC (all of `@chain/server`; the JSON-RPC
 * reaches the EVM through the evm module's `evmRpcAdapter`), each as app.toml enables it, reading consensus
 * data through the node's `ConsensusSource`.
 */
import type { App } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { evmRpcAdapter, parseEip155ChainId } from '@chain/evm';
import { gasPriceSteps, startGrpcServer, startRestServer } from '@chain/server';
import type { ChainDescription, ConsensusSource, EthereumExecution, GrpcServer, JsonRpcServer, Logger, NodeMetrics, RestServer } from '@chain/server';
import type { NodeConfig } from './config/config.js';
import { parseListenAddress } from './config/config.js';
import { BASE_DENOM, BECH32_PREFIX, DEV_CHAIN_ID, chainMetadata } from './config/init.js';
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
    const explorer = { chain: chainDescription(app.chainId, config), explorer: config.app.api.explorer ?? false };
    rest = await startRestServer({ app, api: config.app.api, host: a.host, port: a.port, log: log.child('rest'), metrics, explorer });
    log.info(`REST API listening on http://${a.host}:${rest.port}`);
    if (explorer.explorer) log.info(`explorer on http://${a.host === '0.0.0.0' ? 'localhost' : a.host}:${rest.port}/explorer/`);
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

/** The amount of `denom` in a `minimum-gas-prices` text (`1000000000achain,5utoken` → 1e9); 0 when absent. */
export function minGasPriceOf(minGasPrices: string, denom: string): number {
  for (const part of minGasPrices.split(',')) {
    const m = /^\s*(\d+(?:\.\d+)?)([a-zA-Z][a-zA-Z0-9/:._-]*)\s*$/.exec(part);
    if (m && m[2] === denom) return Number(m[1]);
  }
  return 0;
}

/**
 * The chain as the wallet descriptions and the explorer's config present it (`@chain/server`'s
 * `ChainDescription`): the chain id, the bech32 prefix, coin type 60 with eth_secp256k1 keys (secp256k1 accepted
 * too), the staking/fee denom of the genesis metadata (`achain`, display `chain`, 18 decimals), the gas prices from
 * app.toml's `minimum-gas-prices`, the EVM's EIP-155 id, and the listen addresses of the surfaces that are on.
 */
export function chainDescription(chainId: string, config: NodeConfig): ChainDescription {
  const meta = chainMetadata() as { description: string; display: string; symbol: string; denom_units: { denom: string; exponent: number }[] };
  const decimals = meta.denom_units.find((u) => u.denom === meta.display)?.exponent ?? 0;
  const dev = chainId === DEV_CHAIN_ID;
  let evmChainId: number | undefined;
  try { evmChainId = Number(parseEip155ChainId(chainId)); } catch { evmChainId = undefined; }
  const j = config.app['json-rpc'];
  return {
    chainId,
    chainName: dev ? `${BECH32_PREFIX}devnet` : BECH32_PREFIX,
    prettyName: dev ? `Chain devnet (${chainId})` : `Chain (${chainId})`,
    networkType: dev ? 'devnet' : 'mainnet',
    bech32Prefix: BECH32_PREFIX,
    coinType: 60,
    keyAlgos: ['ethsecp256k1', 'secp256k1'],
    denom: { base: BASE_DENOM, display: meta.display, decimals, symbol: meta.symbol, description: meta.description },
    gasPrice: gasPriceSteps(minGasPriceOf(config.app['minimum-gas-prices'], BASE_DENOM)),
    evmChainId,
    daemonName: 'chaind',
    nodeHome: '$HOME/.chaind',
    listen: {
      // CometBFT mode with a CometBFT started separately: its RPC URL; otherwise the RPC this node (or its CometBFT) listens on
      rpc: config.config.cometbft.rpc || config.config.rpc.laddr,
      grpc: config.app.grpc.enable ? config.app.grpc.address : undefined,
      jsonRpc: j.enable ? j.address : undefined,
      jsonRpcWs: j.enable && j['ws-address'] ? j['ws-address'] : undefined,
    },
  };
}
