/**
 * The Ethereum JSON-RPC (HTTP and websocket) over an `App`, a consensus source and the chain's EVM through
 * an `EthereumExecution` adapter (`adapter.ts`; `@chain/evm`'s `evmRpcAdapter` implements it). The node reads
 * its `[json-rpc]` settings and starts it: `startJsonRpcServer({ backend: new Backend({ ... }), settings, http, ws, log })`.
 */
export type { JsonRpcServer, JsonRpcServerOptions } from './server.js';
export type { JsonRpcSettings, RpcContext, Handler } from './types.js';
export type {
  EthereumExecution, EthTxView, EthTraceOptions, EthTracedTx, EthAccessListResult, EthSimulateRequest, EthSimulateCall, EthSimulatedBlock,
} from './adapter.js';
export type { BackendOptions, EthBlock, EthHashStore, EthTxInfo, LogJSON } from './backend.js';
export { Backend } from './backend.js';
export { startJsonRpcServer } from './server.js';
export { RpcError } from './util.js';
export { addToBloom, logsBloom, encodeReceipt, orderedTrieRoot, rlp, uintBytes } from './trie.js';
export type { ReceiptLog } from './trie.js';
export { parseGoDuration, parseTraceConfig } from './debug.js';

/** The namespaces the server knows (`[json-rpc] api`); `personal` and `miner` have no methods yet. */
export const JSON_RPC_NAMESPACES: readonly string[] = ['eth', 'net', 'web3', 'txpool', 'debug', 'personal', 'miner'];
