/** Shared types of the JSON-RPC server: its settings, the per-call context and method handlers. */
import type { Backend } from './backend.js';
import type { FilterManager } from './filters.js';
import type { SubscriptionHub, WsConnection } from './subscriptions.js';

export interface JsonRpcSettings {
  readonly namespaces: ReadonlySet<string>;
  readonly gasCap: bigint;
  /** 0 disables the check */
  readonly txFeeCapWei: bigint;
  readonly filterCap: number;
  readonly filterTimeoutMs: number;
  readonly feeHistoryCap: number;
  readonly logsCap: number;
  readonly blockRangeCap: number;
  readonly httpTimeoutMs: number;
  /** keep-alive idle time of an HTTP connection (0 = Node's default) */
  readonly httpIdleTimeoutMs: number;
  /** connections per listener (HTTP, websocket); 0 = unlimited */
  readonly maxOpenConnections: number;
  /** node-local: accept txs without an EIP-155 chain id over RPC (the chain's ante still applies its param) */
  readonly allowUnprotectedTxs: boolean;
  readonly batchLimit: number;
  readonly maxBodyBytes: number;
  readonly maxSubscriptionsPerConnection: number;
  readonly clientVersion: string;
}

export interface RpcContext {
  readonly backend: Backend;
  readonly settings: JsonRpcSettings;
  readonly filters: FilterManager;
  readonly hub: SubscriptionHub;
  /** client key for per-client limits (remote address) */
  readonly client: string;
  /** the websocket connection, for eth_subscribe */
  readonly ws?: WsConnection;
  /**
   * Broadcasts through here reach CheckTx in the order of the requests (a batch's items, a websocket's pipelined
   * sends), whichever is ready first: see `AdmissionQueue`. Absent: broadcast at once.
   */
  readonly admit?: <T>(broadcast: () => Promise<T>) => Promise<T>;
}

export type Handler = (params: unknown[], ctx: RpcContext) => unknown;
