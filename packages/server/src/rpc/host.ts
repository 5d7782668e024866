/**
 * What the CometBFT-compatible RPC serves: the app, the embedded consensus engine (blocks, commits,
 * validator sets, the mempool, the tx and block index: this RPC is the embedded engine's, in CometBFT mode
 * CometBFT serves its own), the event bus its websocket subscribes to, and CometBFT's `[rpc]` limits.
 */
import type { App } from '@chain/app';
import type { Engine } from '@chain/consensus';
import type { EventBus } from '@chain/events';

/** The `[rpc]` settings of CometBFT's config.toml the server applies (same names). */
export interface RpcConfig {
  readonly max_body_bytes: number;
  readonly max_request_batch_size: number;
  readonly max_open_connections: number;
  /** a Go duration (`10s`): how long `broadcast_tx_commit` waits for the tx's block */
  readonly timeout_broadcast_tx_commit: string;
  readonly cors_allowed_origins: readonly string[];
}

export interface RpcNode {
  readonly app: App;
  readonly engine: Engine;
  readonly bus: EventBus;
  readonly config: RpcConfig;
}
