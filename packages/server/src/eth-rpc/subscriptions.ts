/**
 * eth_subscribe / eth_unsubscribe over websocket: newHeads, logs (address / topics), newPendingTransactions
 * (from the mempool, at admission), syncing (one `false`). The hub holds one consensus-source listener for
 * new blocks (`onNewBlock`) and one mempool listener (`onPendingTx`), and fans out to connections. A notification is never sent before the
 * subscribe reply (the subscription is activated after the reply is written). One notification per log.
 * A connection whose unsent bytes exceed `maxBufferedBytes` (a subscriber that does not read) is
 * terminated; others are not affected, and block production never waits for a subscriber.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Backend } from './backend.js';
import { blockLogs, formatHeader, formatTx, parseCriteria } from './format.js';
import type { LogCriteria } from './format.js';
import type { Handler } from './types.js';
import { InvalidParams, RpcError, ServerError, newId } from './util.js';

interface Sub {
  readonly id: string;
  readonly kind: 'newHeads' | 'logs' | 'newPendingTransactions' | 'syncing';
  readonly criteria?: LogCriteria;
  readonly fullTx?: boolean;
  active: boolean;
  queued: unknown[];
}

export class WsConnection {
  readonly subs = new Map<string, Sub>();
  closed = false;
  private corked = false;

  /** `socket`: the connection's socket, corked while a turn of the event loop writes, so its frames leave together */
  constructor(readonly ws: WebSocket, readonly client: string, private readonly maxBufferedBytes: number, private readonly onDrop: (c: WsConnection) => void,
    private readonly socket?: Socket) {}

  send(text: string): void {
    if (this.closed) return;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      this.closed = true;
      this.ws.terminate();
      this.onDrop(this);
      return;
    }
    const sock = this.socket;
    if (sock && !this.corked) {
      this.corked = true;
      sock.cork();
      setImmediate(() => { this.corked = false; sock.uncork(); });
    }
    this.ws.send(text);
  }

  notify(sub: Sub, result: unknown): void {
    if (!sub.active) { sub.queued.push(result); return; }
    this.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: sub.id, result } }));
  }

  /** Called after the subscribe reply is written: flushes what arrived in between. */
  activate(id: string): void {
    const s = this.subs.get(id);
    if (!s || s.active) return;
    s.active = true;
    const q = s.queued;
    s.queued = [];
    for (const r of q) this.notify(s, r);
  }
}

export class SubscriptionHub {
  private readonly conns = new Set<WsConnection>();
  private readonly offMempool: () => void;
  private offBlocks: (() => void) | undefined;
  private blockQueue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly backend: Backend, private readonly maxPerConnection: number, private readonly log: (m: string) => void) {
    this.offMempool = backend.source.onPendingTx((raw) => {
      if (!this.has('newPendingTransactions')) return;
      const txs = backend.ethTxsOf(raw);
      for (const c of this.conns) for (const s of c.subs.values()) {
        if (s.kind === 'newPendingTransactions') for (const t of txs) c.notify(s, s.fullTx ? formatTx(t, undefined) : t.hashHex);
      }
    });
    try {
      this.offBlocks = backend.source.onNewBlock((height) => {
        if (this.stopped) return;
        if (!this.has('newHeads') && !this.has('logs')) return;
        // blocks are handled in height order (one at a time), as the bus delivered them
        this.blockQueue = this.blockQueue.then(async () => {
          try {
            const b = await this.backend.blockByHeight(height);
            if (b && !this.stopped) this.onBlock(b);
          } catch (e) {
            this.log(`newHeads: ${(e as Error).message}`);
          }
        });
      });
    } catch (e) {
      this.log(`eth_subscribe newHeads/logs unavailable: ${(e as Error).message}`);
    }
  }

  /** active subscriptions over every connection (the metrics' websocket gauge) */
  subscriptionCount(): number {
    let n = 0;
    for (const c of this.conns) n += c.subs.size;
    return n;
  }

  private has(kind: Sub['kind']): boolean {
    for (const c of this.conns) for (const s of c.subs.values()) if (s.kind === kind) return true;
    return false;
  }

  private onBlock(b: NonNullable<Awaited<ReturnType<Backend['blockByHeight']>>>): void {
    const head = formatHeader(b);
    for (const c of [...this.conns]) {
      for (const s of c.subs.values()) {
        if (s.kind === 'newHeads') c.notify(s, head);
        else if (s.kind === 'logs') for (const l of blockLogs(b, s.criteria!)) c.notify(s, l);
      }
    }
  }

  add(c: WsConnection): void { this.conns.add(c); }
  remove(c: WsConnection): void { c.closed = true; c.subs.clear(); this.conns.delete(c); }

  subscribe(c: WsConnection, params: unknown[]): string {
    if (c.subs.size >= this.maxPerConnection) throw ServerError(`too many subscriptions on this connection (max ${this.maxPerConnection})`);
    const kind = params[0];
    const id = newId();
    const base = { id, active: false, queued: [] as unknown[] };
    if (kind === 'newHeads' || kind === 'syncing') c.subs.set(id, { ...base, kind });
    else if (kind === 'newPendingTransactions') c.subs.set(id, { ...base, kind, fullTx: params[1] === true });
    else if (kind === 'logs') {
      const f = params[1] ?? {};
      if (typeof f !== 'object' || f === null || Array.isArray(f)) throw InvalidParams('invalid logs filter: expected an object');
      c.subs.set(id, { ...base, kind, criteria: parseCriteria(f as Record<string, unknown>) });
    } else throw InvalidParams(`unsupported subscription type ${JSON.stringify(kind)}`);
    if (kind === 'syncing') c.notify(c.subs.get(id)!, false);
    return id;
  }

  close(): void {
    this.stopped = true;
    this.offMempool();
    this.offBlocks?.();
    this.conns.clear();
  }
}

export const subscriptionMethods: Record<string, Handler> = {
  eth_subscribe: (params, { hub, ws }) => {
    // geth's ErrNotificationsUnsupported (-32601) over HTTP
    if (!ws) throw new RpcError(-32601, 'notifications not supported');
    return hub.subscribe(ws, params);
  },
  eth_unsubscribe: ([id], { ws }) => {
    if (!ws) throw ServerError('notifications not supported');
    return typeof id === 'string' && ws.subs.delete(id.toLowerCase());
  },
};
