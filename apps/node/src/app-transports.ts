/**
 * The transports that serve the app in both consensus modes (the embedded engine's `Node` and the CometBFT
 * mode's `CometNode`): the REST gateway, gRPC and the Ethereum JSON-RPC (all of `@chain/server`; the JSON-RPC
 * reaches the EVM through the evm module's `evmRpcAdapter`), each as app.toml enables it, reading consensus
 * data through the node's `ConsensusSource`.
 */
import type { App } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { evmRpcAdapter } from '@chain/evm';
import { startGrpcServer, startRestServer } from '@chain/server';
import type { ConsensusSource, EthereumExecution, GrpcServer, JsonRpcServer, Logger, RestServer } from '@chain/server';
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
}): Promise<AppTransports> {
  const { app, config, log } = o;
  let rest: RestServer | undefined;
  let grpc: GrpcServer | undefined;
  let jsonRpc: JsonRpcServer | undefined;
  if (config.app.api.enable) {
    const a = parseListenAddress(config.app.api.address);
    rest = await startRestServer({ app, api: config.app.api, host: a.host, port: a.port, log: log.child('rest') });
    log.info(`REST API listening on http://${a.host}:${rest.port}`);
  }
  if (config.app.grpc.enable) {
    grpc = await startGrpcServer({ app, address: config.app.grpc.address, log: log.child('grpc') });
    log.info(`gRPC server listening on ${config.app.grpc.address} (port ${grpc.port}, ${grpc.services.length} services)`);
  }
  const j = config.app['json-rpc'];
  if (j.enable) {
    const jlog = log.child('json-rpc');
    try {
      const execution: EthereumExecution = evmRpcAdapter(app, { bech32Prefix: BECH32_PREFIX });
      jsonRpc = await startJsonRpc({ app, source: o.source, execution, appToml: config.app, version: VERSION, log: jlog, home: config.home });
      jlog.info(`Ethereum JSON-RPC listening on http://${j.address} (port ${jsonRpc.port}), websocket port ${jsonRpc.wsPort}, api ${j.api}`);
    } catch (e) {
      // an auxiliary transport: a busy port is reported, the node keeps running
      jlog.error(`Ethereum JSON-RPC not started: ${(e as Error).message}`);
    }
  }
  return { rest, grpc, jsonRpc };
}
