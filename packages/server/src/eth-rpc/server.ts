/**
 * The Ethereum JSON-RPC server: HTTP POST on `[json-rpc] address` and a native websocket server on
 * `ws-address` (every method, batches included, is served over both; ids are echoed unchanged; only
 * eth_subscribe / eth_unsubscribe need the websocket). Only the namespaces in `api` are served.
 * Errors: -32700 parse error, -32600 invalid request / batch too large, -32601 unknown method,
 * -32602 invalid params, 3 execution reverted (data = revert data), -32000 other failures.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { Slots } from '@chain/app';
import type { Backend } from './backend.js';
import { debugMethods } from './debug.js';
import { ethMethods } from './eth.js';
import { simulateMethods } from './simulate.js';
import { FilterManager, filterMethods } from './filters.js';
import { netMethods, txpoolMethods, web3Methods } from './misc.js';
import { SubscriptionHub, WsConnection, subscriptionMethods } from './subscriptions.js';
import { AdmissionQueue } from './admission.js';
import type { Handler, JsonRpcSettings, RpcContext } from './types.js';
import { InvalidRequest, MethodNotFound, ParseError, RpcError, paramList } from './util.js';
import { readBody } from '../http-body.js';
import type { NodeMetrics } from '../metrics.js';

export interface JsonRpcServer {
  readonly port: number;
  readonly wsPort: number | undefined;
  readonly filters: FilterManager;
  readonly hub: SubscriptionHub;
  close(): Promise<void>;
}

export interface JsonRpcServerOptions {
  readonly backend: Backend;
  readonly settings: JsonRpcSettings;
  readonly http: { host: string; port: number };
  readonly ws?: { host: string; port: number };
  readonly log: { info(m: string): void; error(m: string, ctx?: Record<string, unknown>): void };
  /** unsent bytes after which a websocket subscriber is dropped (default 16 MiB) */
  readonly wsMaxBufferedBytes?: number;
  /** requests and errors per method (`transport="eth_jsonrpc"`; unknown methods as `unknown`), websocket gauges */
  readonly metrics?: NodeMetrics;
}

type Id = string | number | null;

/** eth_sendRawTransaction requests a websocket connection may have running at once (see the connection handler). */
const WS_PIPELINE_DEPTH = 64;

const PARSE_FAILED = Symbol('parse failed');

function parseBody(text: string): unknown {
  try { return JSON.parse(text); } catch { return PARSE_FAILED; }
}

/** A single eth_sendRawTransaction request (not a batch). */
function isSend(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === 'eth_sendRawTransaction';
}

function methodTable(namespaces: ReadonlySet<string>): Map<string, Handler> {
  const all: Record<string, Handler> = { ...ethMethods, ...simulateMethods, ...filterMethods, ...subscriptionMethods, ...netMethods, ...web3Methods, ...txpoolMethods, ...debugMethods };
  const m = new Map<string, Handler>();
  for (const [name, h] of Object.entries(all)) if (namespaces.has(name.slice(0, name.indexOf('_')))) m.set(name, h);
  return m;
}

/**
 * A JSON answer with its Content-Length (as geth): headers set, then `end` with the whole text, so Node writes
 * headers and body in one write (`writeHead` would fix chunked encoding before the body is known).
 */
function sendJson(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(text);
}

function errorObj(id: Id, e: unknown): Record<string, unknown> {
  const err = e instanceof RpcError ? e : new RpcError(-32603, e instanceof Error ? e.message : String(e));
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: '2.0', id, error };
}

export async function startJsonRpcServer(opts: JsonRpcServerOptions): Promise<JsonRpcServer> {
  const { backend, settings, log } = opts;
  const methods = methodTable(settings.namespaces);
  const filters = new FilterManager(backend, {
    capPerClient: settings.filterCap, timeoutMs: settings.filterTimeoutMs, blockRangeCap: settings.blockRangeCap, logsCap: settings.logsCap,
  });
  const hub = new SubscriptionHub(backend, settings.maxSubscriptionsPerConnection, (m) => log.error(m));
  // the Ethereum hash of every new block, as it commits (the height ↔ hash map stays current for lookups by hash)
  const unfollow = backend.follow();
  const offSubs = opts.metrics?.addWsSubscriptionSource('eth_jsonrpc', () => hub.subscriptionCount());

  /** One request object → its response (undefined for a notification). */
  async function one(req: unknown, base: Omit<RpcContext, 'backend' | 'settings' | 'filters' | 'hub'>): Promise<Record<string, unknown> | undefined> {
    if (typeof req !== 'object' || req === null || Array.isArray(req)) return errorObj(null, InvalidRequest());
    const r = req as Record<string, unknown>;
    const hasId = 'id' in r;
    const id = r.id as Id;
    if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number') return errorObj(null, InvalidRequest('invalid request id'));
    if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') return errorObj(hasId ? id : null, InvalidRequest());
    const done = opts.metrics?.startRequest('eth_jsonrpc', methods.has(r.method) ? r.method : 'unknown');
    try {
      const h = methods.get(r.method);
      if (!h) throw MethodNotFound(r.method);
      const result = await h(paramList(r.params), { backend, settings, filters, hub, ...base });
      done?.(false);
      if (!hasId) return undefined;
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (e) {
      done?.(true);
      if (!(e instanceof RpcError)) log.error(`${r.method} failed`, { err: (e as Error).stack ?? String(e) });
      return hasId ? errorObj(id, e) : undefined;
    }
  }

  type Base = Omit<RpcContext, 'backend' | 'settings' | 'filters' | 'hub'>;
  const inCallOrder = backend.source.admitsInCallOrder === true;

  /** A parsed request body → the response text (undefined: nothing to send). */
  async function handleBody(body: unknown, base: Base): Promise<string | undefined> {
    if (body === PARSE_FAILED) return JSON.stringify(errorObj(null, ParseError()));
    if (Array.isArray(body)) {
      if (body.length === 0) return JSON.stringify(errorObj(null, InvalidRequest('empty batch')));
      if (body.length > settings.batchLimit) {
        const first = (body[0] as { id?: Id } | null)?.id ?? null;
        return JSON.stringify(errorObj(first, InvalidRequest('batch too large')));
      }
      // the items run at once; their broadcasts reach CheckTx in the batch's order (an account's nonces in a batch)
      const order = new AdmissionQueue(inCallOrder);
      const out = (await Promise.all(body.map((r) => {
        const t = order.ticket();
        return one(r, { ...base, admit: t.admit }).finally(t.done);
      }))).filter((x) => x !== undefined);
      return out.length ? JSON.stringify(out) : undefined;
    }
    const r = await one(body, base);
    return r ? JSON.stringify(r) : undefined;
  }

  /** A request text → the response text (undefined: nothing to send). */
  function handle(text: string, base: Base): Promise<string | undefined> {
    return handleBody(parseBody(text), base);
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    if (req.method === 'OPTIONS') { res.writeHead(204); res.end(); return; }
    if (req.method !== 'POST') {
      sendJson(res, 405, JSON.stringify(errorObj(null, InvalidRequest('only POST is supported'))));
      return;
    }
    // geth: 413 `content length too large`; the rest of the body is read and dropped (destroying the
    // socket would lose the answer), then the connection closes
    void readBody(req, settings.maxBodyBytes).then((r) => {
      if ('error' in r) return;
      if ('tooLarge' in r) {
        res.setHeader('connection', 'close');
        sendJson(res, 413, JSON.stringify(errorObj(null, InvalidRequest(`content length too large (max ${settings.maxBodyBytes} bytes)`))));
        return;
      }
      const client = req.socket.remoteAddress ?? 'unknown';
      handle(r.body.toString('utf8'), { client }).then((text) => {
        sendJson(res, 200, text ?? '');
      }, (e: unknown) => {
        sendJson(res, 500, JSON.stringify(errorObj(null, new RpcError(-32603, e instanceof Error ? e.message : String(e)))));
      });
    });
  });
  if (settings.httpTimeoutMs > 0) server.requestTimeout = settings.httpTimeoutMs;
  if (settings.httpIdleTimeoutMs > 0) server.keepAliveTimeout = settings.httpIdleTimeoutMs;
  // beyond the limit a new connection is closed at once (as the REST and CometBFT listeners do)
  if (settings.maxOpenConnections > 0) server.maxConnections = settings.maxOpenConnections;

  const listen = (s: Server, host: string, port: number): Promise<number> => new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => { s.off('error', reject); resolve((s.address() as AddressInfo).port); });
  });
  const port = await listen(server, opts.http.host, opts.http.port);

  let wsServer: Server | undefined;
  let wss: WebSocketServer | undefined;
  let wsPort: number | undefined;
  if (opts.ws) {
    wsServer = createServer((_req, res) => { res.writeHead(426); res.end('websocket only'); });
    if (settings.maxOpenConnections > 0) wsServer.maxConnections = settings.maxOpenConnections;
    wss = new WebSocketServer({ server: wsServer, maxPayload: settings.maxBodyBytes });
    wss.on('error', (e) => log.error('websocket server error', { err: String(e) }));
    wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
      const client = req.socket.remoteAddress ?? 'unknown';
      const conn = new WsConnection(ws, client, opts.wsMaxBufferedBytes ?? 16 * 1024 * 1024, (c) => hub.remove(c), req.socket);
      hub.add(conn);
      const wsGone = opts.metrics?.wsConnected('eth_jsonrpc');
      // Requests of one connection are answered in order, and each waits for the ones before it, except
      // eth_sendRawTransaction: up to WS_PIPELINE_DEPTH of those run at once (a client pipelining an account's txs
      // gets their signatures recovered together on the workers), their broadcasts reaching CheckTx in arrival order.
      const order = new AdmissionQueue(inCallOrder);
      /** every request so far has ended */
      let all: Promise<unknown> = Promise.resolve();
      /** every request up to the last one that is not a pipelined send has ended */
      let barrier: Promise<unknown> = Promise.resolve();
      /** the answers so far have been written */
      let answered: Promise<void> = Promise.resolve();
      /** the WS_PIPELINE_DEPTH places of running sends, given in arrival order */
      const places = new Slots(WS_PIPELINE_DEPTH);
      ws.on('message', (data, isBinary) => {
        const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
        const body = parseBody(text);
        const overlap = isSend(body);
        const ticket = overlap ? order.ticket() : undefined;
        let gate: Promise<unknown> = overlap ? barrier : all;
        if (overlap) {
          // past the depth a send waits for one place, not for every request before it to end (which let the
          // pipeline run dry every WS_PIPELINE_DEPTH sends); its ticket keeps its turn at CheckTx
          const place = places.acquire();
          if (place !== undefined) gate = Promise.all([gate, place]);
        }
        const run = gate
          .then(() => handleBody(body, { client, ws: conn, admit: ticket?.admit }))
          .catch((e: unknown) => { log.error('websocket request failed', { err: String(e) }); return undefined; })
          .finally(() => ticket?.done());
        if (overlap) void run.finally(() => places.release());
        all = Promise.all([all, run]);
        if (!overlap) barrier = all;
        answered = Promise.all([answered, run]).then(([, out]) => {
          if (out !== undefined) conn.send(out);
          for (const id of subscribeIds(out)) conn.activate(id);
        }).catch((e: unknown) => log.error('websocket request failed', { err: String(e) }));
      });
      ws.on('close', () => { wsGone?.(); hub.remove(conn); });
      ws.on('error', () => { wsGone?.(); hub.remove(conn); });
    });
    try {
      wsPort = await listen(wsServer, opts.ws.host, opts.ws.port);
    } catch (e) {
      server.close();
      throw e;
    }
  }

  return {
    port, wsPort, filters, hub,
    async close() {
      unfollow();
      offSubs?.();
      filters.close();
      hub.close();
      for (const c of wss?.clients ?? []) c.terminate();
      wss?.close();
      server.closeAllConnections();
      await Promise.all([server, wsServer].filter((s): s is Server => !!s).map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}

/** Subscription ids in a response text (results that are new subscription ids), to activate after the write. */
function subscribeIds(out: string | undefined): string[] {
  if (!out || !out.includes('"result":"0x')) return [];
  const parsed = JSON.parse(out) as unknown;
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((r) => (r as { result?: unknown }).result).filter((x): x is string => typeof x === 'string' && x.startsWith('0x'));
}
