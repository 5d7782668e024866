/**
 * The client side of a node's CometBFT RPC (`--node`, default `tcp://localhost:26657`), as the SDK's CLI uses it:
 * `abci_query` with a gRPC method path and the protobuf request for every query, `broadcast_tx_*` for txs,
 * `status`, `block`, `tx`. JSON-RPC 2.0 over HTTP POST; works against the embedded engine and CometBFT alike.
 */

export interface AbciQueryResult {
  readonly code: number;
  readonly codespace: string;
  readonly log: string;
  readonly value: Uint8Array;
  readonly height: string;
}

export interface BroadcastResult {
  readonly code: number;
  readonly codespace: string;
  readonly log: string;
  readonly data: string;
  readonly hash: string;
  /** broadcast mode `block` only: the block result */
  readonly height?: string;
  readonly deliver?: { code: number; codespace: string; log: string; gas_wanted: string; gas_used: string; events: unknown[]; data: string | null };
}

export class RpcError extends Error {}

/** `tcp://host:port` → `http://host:port`; a bare `host:port` gets `http://`. */
export function nodeUrl(node: string | undefined): string {
  const n = node ?? 'tcp://localhost:26657';
  if (n.startsWith('tcp://')) return 'http://' + n.slice('tcp://'.length);
  if (/^https?:\/\//.test(n)) return n.replace(/\/+$/, '');
  return 'http://' + n;
}

export class NodeClient {
  private id = 0;

  constructor(readonly url: string) {}

  /** One JSON-RPC call; throws RpcError with the node's message, or a hint when the node is not reachable. */
  async call<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new RpcError(`cannot reach the node at ${this.url} (${cause?.code ?? cause?.message ?? (e as Error).message}): is it running? (set --node)`);
    }
    const text = await res.text();
    let body: { result?: T; error?: { code: number; message: string; data?: string } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new RpcError(`${this.url} ${method}: HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    if (body.error) throw new RpcError(`${method}: ${body.error.message}${body.error.data ? `: ${body.error.data}` : ''}`);
    return body.result as T;
  }

  async abciQuery(path: string, data: Uint8Array, height?: bigint): Promise<AbciQueryResult> {
    const r = await this.call<{ response: { code: number; codespace: string; log: string; value: string | null; height: string } }>('abci_query', {
      path, data: Buffer.from(data).toString('hex'), height: String(height ?? 0n), prove: false,
    });
    const v = r.response;
    return { code: v.code ?? 0, codespace: v.codespace ?? '', log: v.log ?? '', value: v.value ? new Uint8Array(Buffer.from(v.value, 'base64')) : new Uint8Array(), height: v.height };
  }

  async status(): Promise<{ node_info: { network: string; moniker: string; version: string }; sync_info: { latest_block_height: string; catching_up: boolean }; validator_info: unknown }> {
    return this.call('status');
  }

  async broadcast(tx: Uint8Array, mode: 'sync' | 'async' | 'block'): Promise<BroadcastResult> {
    const b64 = Buffer.from(tx).toString('base64');
    if (mode === 'block') {
      const r = await this.call<{ check_tx: { code: number; codespace: string; log: string; data: string | null }; tx_result: NonNullable<BroadcastResult['deliver']>; hash: string; height: string }>('broadcast_tx_commit', { tx: b64 });
      const failed = r.check_tx.code !== 0 ? r.check_tx : r.tx_result;
      return { code: failed.code, codespace: failed.codespace, log: failed.log, data: failed.data ?? '', hash: r.hash, height: r.height, deliver: r.check_tx.code === 0 ? r.tx_result : undefined };
    }
    return this.call<BroadcastResult>(mode === 'sync' ? 'broadcast_tx_sync' : 'broadcast_tx_async', { tx: b64 });
  }
}
