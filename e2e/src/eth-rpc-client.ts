/**
 * Raw Ethereum JSON-RPC clients for tests that drive two nodes with the same script: `EthTarget` (HTTP; whole
 * response envelopes, so shapes can be compared) and `EthWs` (one websocket; replies by id, notifications).
 */
import WebSocket from 'ws';

export type RpcId = string | number;

export class EthTarget {
  private id = 0;
  constructor(readonly name: string, readonly url: string, readonly wsUrl: string) {}

  /** POSTs a body (an object, an array for a batch, or raw text) and returns the parsed JSON reply. */
  async post(body: unknown): Promise<any> {
    const r = await fetch(this.url, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await r.text();
    try { return JSON.parse(text); } catch { throw new Error(`${this.name}: non-JSON reply (HTTP ${r.status}): ${text.slice(0, 200)}`); }
  }

  /** One call; the whole envelope `{jsonrpc, id, result | error}`. The id is a counter unless given. */
  async call(method: string, params: unknown[] = [], id: RpcId = ++this.id): Promise<any> {
    return this.post({ jsonrpc: '2.0', id, method, params });
  }

  /** The result of a call; throws on an error reply. */
  async result(method: string, params: unknown[] = []): Promise<any> {
    const r = await this.call(method, params);
    if (r.error) throw new Error(`${this.name} ${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  }

  /** Polls eth_getTransactionReceipt until the tx is mined; returns the envelope. */
  async receipt(hash: string, timeoutMs = 60_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.call('eth_getTransactionReceipt', [hash], 'receipt');
      if (r.result) return r;
      if (Date.now() > deadline) throw new Error(`${this.name}: no receipt for ${hash} within ${timeoutMs} ms (${JSON.stringify(r)})`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  /** eth_sendRawTransaction, then waits for the receipt; both envelopes. */
  async send(raw: string): Promise<{ sent: any; receipt: any }> {
    const sent = await this.call('eth_sendRawTransaction', [raw], 'send');
    if (typeof sent.result !== 'string') throw new Error(`${this.name}: eth_sendRawTransaction failed: ${JSON.stringify(sent)}`);
    return { sent, receipt: await this.receipt(sent.result) };
  }
}

/** A websocket JSON-RPC connection: replies matched by id, every other message kept as a notification. */
export class EthWs {
  readonly notifications: any[] = [];
  private readonly replies: any[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as any;
      if (!Array.isArray(m) && m.method === 'eth_subscription') this.notifications.push(m);
      else this.replies.push(m);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(url: string): Promise<EthWs> {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
    return new EthWs(ws);
  }

  private async take(list: any[], pred: (m: any) => boolean, ms: number, what: string): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = list.findIndex(pred);
      if (i >= 0) return list.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error(`websocket: no ${what} within ${ms} ms; got ${JSON.stringify(list).slice(0, 400)}`);
      await new Promise<void>((r) => { this.waiters.push(r); setTimeout(r, 100); });
    }
  }

  /** Sends a request (or a batch) and resolves with the reply whose id is `id` (the array reply for a batch). */
  async request(body: unknown, id: RpcId | 'batch', ms = 30_000): Promise<any> {
    this.ws.send(JSON.stringify(body));
    return this.take(this.replies, (m) => (id === 'batch' ? Array.isArray(m) : m.id === id), ms, `reply ${id}`);
  }

  async call(id: RpcId, method: string, params: unknown[] = []): Promise<any> {
    return this.request({ jsonrpc: '2.0', id, method, params }, id);
  }

  /** The first notification matching `pred` (removed from the list). */
  async notification(pred: (m: any) => boolean, ms = 60_000): Promise<any> {
    return this.take(this.notifications, pred, ms, 'matching notification');
  }

  /** Closes the socket and waits for the close handshake (or 5 s). */
  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((res) => {
      const t = setTimeout(() => { this.ws.terminate(); res(); }, 5000);
      this.ws.once('close', () => { clearTimeout(t); res(); });
      this.ws.close();
    });
  }
}
