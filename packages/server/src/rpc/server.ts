/**
 * CometBFT-compatible JSON-RPC server (CMT rpc/jsonrpc/server): JSON-RPC 2.0 on `/` (single, batch,
 * notifications), the URI form `/<method>?arg=…`, and `/websocket` with subscribe / unsubscribe /
 * unsubscribe_all. Every failure is a JSON-RPC error; nothing a client sends can stop the node.
 *
 * Limits are CometBFT's `[rpc]` ones: `max_body_bytes` (HTTP bodies and websocket frames),
 * `max_request_batch_size`, `max_open_connections`, subscription limits (in the event bus), query
 * length 512, read timeout 10 s, write timeout max(10 s, timeout_broadcast_tx_commit + 1 s).
 * Websocket connections are served one request at a time; a client that does not read has at most
 * WS_WRITE_WINDOW frames in flight, after which its subscriptions stop draining, their buffers fill
 * and the bus cancels them (error `subscription was canceled (reason: slow client)`); a connection
 * whose writes make no progress for 10 s, or that sends nothing (not even a pong) for 30 s, is closed.
 * Block production never waits for a subscriber: the bus publishes synchronously into bounded buffers.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket, RawData } from 'ws';
import { SubscriptionError } from '@chain/events';
import type { Subscription } from '@chain/events';
import type { RpcNode as Node } from './host.js';
import type { Logger } from '../logger.js';
import { parseDurationMs } from '../address.js';
import { RpcError, RpcErrors } from './errors.js';
import { METHODS, isCacheable, parseRpcQuery } from './methods.js';
import type { MethodDef } from './methods.js';
import { decodeJsonParams, decodeUriParams, ParamError } from './params.js';
import { goCleanPath, goQuery, goRedirect, goRouteName, parseGoTarget } from './go-url.js';
import type { Params } from './params.js';
import { eventDataJson } from './events.js';
import { readBody } from '../http-body.js';
import type { NodeMetrics } from '../metrics.js';

export interface RpcServer {
  readonly port: number;
  close(): Promise<void>;
}

type Id = string | number;

/** A decoded JSON-RPC request; `id` undefined marks a notification (never executed, never answered). */
interface RpcRequest { readonly id?: Id; readonly method: string; readonly params: unknown }

/** A request body that cannot be decoded into requests (CometBFT: -32700 `error unmarshaling request: …`). */
class RequestParseError extends Error {}

/** CometBFT `[rpc]` websocket constants (rpc/jsonrpc/server/ws_handler.go, config.go). */
const WS_WRITE_WINDOW = 200; // experimental_websocket_write_buffer_size
const WS_WRITE_WINDOW_BYTES = 16 * 1024 * 1024;
const WS_WRITE_WAIT_MS = 10_000;
const WS_READ_WAIT_MS = 30_000;
const WS_PING_PERIOD_MS = 27_000;
/** Frames read ahead of processing before the socket is paused. */
const WS_READ_AHEAD = 32;
/**
 * Requests a connection may have running at once when they are these: CometBFT runs a connection's requests one
 * by one; here the broadcasts of a pipelining client overlap (their signature checks go to the workers together),
 * still reaching CheckTx in frame order. Any other request waits until the ones before it are answered.
 */
const WS_PIPELINED = new Set(['broadcast_tx_sync', 'broadcast_tx_async']);
const WS_PIPELINE_DEPTH = 64;
const READ_TIMEOUT_MS = 10_000;
const CORS_HEADERS = ['Origin', 'Accept', 'Content-Type', 'X-Requested-With', 'X-Server-Time'];

function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

function errorResponse(id: Id | undefined, e: RpcError): Record<string, unknown> {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.data !== undefined && e.data !== '') error.data = e.data;
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

function successResponse(id: Id, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}

function asRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  return RpcErrors.internal(e instanceof Error ? e.message : String(e));
}

/** Go's name of a JSON value's kind in encoding/json errors. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** Go's %v of a decoded JSON value (interface{}): maps as map[k:v], slices as [a b]. */
function goValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (v !== null && typeof v === 'object') return `map[${Object.keys(v).sort().map((k) => `${k}:${goValue((v as Record<string, unknown>)[k])}`).join(' ')}]`;
  if (v === null) return '<nil>';
  return String(v);
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (v !== null && typeof v === 'object') return 'map[string]interface {}';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** The anonymous struct CometBFT v0.38's RPCRequest.UnmarshalJSON decodes into (named in its errors). */
const REQUEST_STRUCT = 'struct { JSONRPC string "json:\\"jsonrpc\\""; ID interface {} "json:\\"id,omitempty\\""; Method string "json:\\"method\\""; Params json.RawMessage "json:\\"params\\"" }';

/** CometBFT v0.38.26 `RPCRequest.UnmarshalJSON` + `idFromInterface`; JSON null is an empty request (a notification). */
function toRequest(v: unknown): RpcRequest {
  if (v === null) return { method: '', params: undefined };
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new RequestParseError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${REQUEST_STRUCT}`);
  }
  const r = v as Record<string, unknown>;
  for (const f of ['jsonrpc', 'method']) {
    if (r[f] !== undefined && r[f] !== null && typeof r[f] !== 'string') {
      throw new RequestParseError(`json: cannot unmarshal ${jsonKind(r[f])} into Go struct field .${f} of type string`);
    }
  }
  const method = typeof r.method === 'string' ? r.method : '';
  const rawId = r.id;
  if (rawId === undefined || rawId === null) return { method, params: r.params };
  if (typeof rawId === 'string') return { id: rawId, method, params: r.params };
  if (typeof rawId === 'number') {
    // Go's int(float64): a fraction is truncated (1.5 → 1)
    const whole = Math.trunc(rawId);
    if (whole >= 2 ** 63 || whole < -(2 ** 63)) throw new RequestParseError(`json-rpc ID out of int64 range, got ${rawId}`);
    return { id: whole === 0 ? 0 : whole, method, params: r.params };
  }
  throw new RequestParseError(`json-rpc ID (${goValue(rawId)}) is of unknown type (${goType(rawId)})`);
}

/**
 * A batch as CometBFT v0.38.26 reads it: it decodes the body as []RPCRequest and, when that fails for any
 * element, as one RPCRequest, so a bad element is reported as an array that is not a request.
 */
function toBatch(items: unknown[]): RpcRequest[] {
  try {
    return items.map(toRequest);
  } catch (e) {
    if (!(e instanceof RequestParseError)) throw e;
    throw new RequestParseError(`json: cannot unmarshal array into Go value of type ${REQUEST_STRUCT}`);
  }
}

function methodDef(method: string): MethodDef | undefined {
  return Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method] : undefined;
}

/**
 * The index page as CometBFT v0.38.26 writes it: the "no arguments" section stays empty (every route handler
 * takes a context argument there), so every method, websocket-only ones included, is listed with its
 * arguments, a method without any ending in `?`.
 */
function endpointList(host: string): string {
  let html = '<html><body><br>Available endpoints:<br><br>Endpoints that require arguments:<br>';
  for (const n of Object.keys(METHODS).sort()) {
    const link = `//${host}/${n}?${METHODS[n]!.params.map((p) => `${p.name}=_`).join('&')}`;
    html += `<a href="${link}">${link}</a></br>`;
  }
  return html + '</body></html>';
}

export async function startRpcServer(o: { node: Node; host: string; port: number; log: Logger; metrics?: NodeMetrics }): Promise<RpcServer> {
  const { node, log, metrics } = o;
  /** metrics label of a method name: a known method, else `unknown` (bounded cardinality) */
  const methodLabel = (m: string): string => (m === 'subscribe' || m === 'unsubscribe' || m === 'unsubscribe_all' || methodDef(m) ? m : 'unknown');
  const cfg = node.config;
  const writeTimeoutMs = Math.max(10_000, parseDurationMs(cfg.timeout_broadcast_tx_commit) + 1000);
  const corsOrigins = cfg.cors_allowed_origins;

  /** Runs one decoded request (not a notification). */
  const execute = async (req: RpcRequest & { id: Id }, ws: boolean): Promise<{ body: Record<string, unknown>; cacheable: boolean }> => {
    const done = metrics?.startRequest('cometbft_rpc', methodLabel(req.method));
    const out = await executeOne(req, ws);
    done?.('error' in out.body);
    return out;
  };
  const executeOne = async (req: RpcRequest & { id: Id }, ws: boolean): Promise<{ body: Record<string, unknown>; cacheable: boolean }> => {
    const def = methodDef(req.method);
    if (!def || def.wsOnly) return { body: errorResponse(req.id, RpcErrors.methodNotFound()), cacheable: false };
    let p: Params;
    try {
      p = decodeJsonParams(def.params, req.params);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      const data = `error converting json params to arguments: ${e.message}`;
      // CometBFT answers bad params with -32602 over HTTP and -32603 over the websocket
      return { body: errorResponse(req.id, ws ? RpcErrors.internal(data) : new RpcError(-32602, 'Invalid params', data)), cacheable: false };
    }
    try {
      return { body: successResponse(req.id, await def.handler(node, p)), cacheable: isCacheable(def, p) };
    } catch (e) {
      return { body: errorResponse(req.id, asRpcError(e)), cacheable: false };
    }
  };

  const baseHeaders = (res: ServerResponse, req: IncomingMessage): void => {
    res.setHeader('X-Server-Time', String(Math.floor(Date.now() / 1000)));
    const origin = req.headers.origin;
    if (corsOrigins.length > 0 && typeof origin === 'string' && (corsOrigins.includes('*') || corsOrigins.includes(origin))) {
      res.setHeader('Access-Control-Allow-Origin', corsOrigins.includes('*') ? '*' : origin);
      res.setHeader('Vary', 'Origin');
    }
  };

  const sendJson = (res: ServerResponse, status: number, body: unknown, cache = false): void => {
    if (res.headersSent || res.destroyed) return;
    const text = jsonText(body);
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json');
    if (cache) res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(text);
  };

  const sendText = (res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void => {
    if (res.headersSent || res.destroyed) return;
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.end(text);
  };

  /** Reads the body up to `max_body_bytes`; undefined (after answering) when it is too large or failed. */
  const readRequest = async (req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> => {
    const r = await readBody(req, cfg.max_body_bytes);
    if ('body' in r) return r.body;
    if ('tooLarge' in r) {
      res.setHeader('Connection', 'close');
      sendJson(res, 400, errorResponse(undefined, RpcErrors.invalidRequest('error reading request body: http: request body too large')));
    }
    return undefined;
  };

  /** JSON-RPC over HTTP on `/` (CometBFT `makeJSONRPCHandler`). */
  const handleJsonRpc = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readRequest(req, res);
    if (body === undefined) return;
    if (body.length === 0) { sendText(res, 200, endpointList(req.headers.host ?? ''), 'text/html'); return; }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (e) {
      sendJson(res, 500, errorResponse(undefined, RpcErrors.parse(`error unmarshaling request: ${(e as Error).message}`)));
      return;
    }
    let requests: RpcRequest[];
    try {
      if (Array.isArray(parsed)) {
        if (parsed.length > cfg.max_request_batch_size) {
          sendJson(res, 200, errorResponse(undefined, RpcErrors.invalidRequest(`batch request exceeds maximum (${cfg.max_request_batch_size}) allowed number of requests`)));
          return;
        }
        // an empty batch: nothing to answer (CometBFT v0.38.26 writes an empty 200)
        if (parsed.length === 0) { res.statusCode = 200; res.end(); return; }
        requests = toBatch(parsed);
      } else {
        requests = [toRequest(parsed)];
      }
    } catch (e) {
      if (!(e instanceof RequestParseError)) throw e;
      sendJson(res, 500, errorResponse(undefined, RpcErrors.parse(`error unmarshaling request: ${e.message}`)));
      return;
    }
    const responses: Record<string, unknown>[] = [];
    let cache = true;
    for (const r of requests) {
      if (r.id === undefined) continue; // notification: not executed, not answered
      const out = await execute(r as RpcRequest & { id: Id }, false);
      responses.push(out.body);
      cache &&= out.cacheable;
    }
    if (responses.length === 0) { res.statusCode = 200; res.end(); return; }
    // CometBFT writes a single response as an object, even for a batch of one
    sendJson(res, 200, responses.length === 1 ? responses[0] : responses, cache);
  };

  /** URI form `GET /<method>?…` (CometBFT `makeHTTPHandler`); `id` is always -1. */
  const handleUri = async (def: MethodDef, name: string, query: URLSearchParams, res: ServerResponse): Promise<void> => {
    const done = metrics?.startRequest('cometbft_rpc', methodLabel(name));
    try {
      await handleUriOne(def, query, res);
    } finally {
      done?.(res.statusCode >= 400);
    }
  };
  const handleUriOne = async (def: MethodDef, query: URLSearchParams, res: ServerResponse): Promise<void> => {
    if (def.wsOnly) { sendJson(res, 404, errorResponse(-1, RpcErrors.methodNotFound())); return; }
    let p: Params;
    try {
      p = decodeUriParams(def.params, query);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      sendJson(res, 500, errorResponse(-1, new RpcError(-32602, 'Invalid params', `error converting http params to arguments: ${e.message}`)));
      return;
    }
    let result: unknown;
    try {
      result = await def.handler(node, p);
    } catch (e) {
      sendJson(res, 500, errorResponse(-1, asRpcError(e)));
      return;
    }
    sendJson(res, 200, successResponse(-1, result), isCacheable(def, p));
  };

  const server: Server = createServer({ requestTimeout: READ_TIMEOUT_MS, headersTimeout: READ_TIMEOUT_MS, connectionsCheckingInterval: 1000, keepAliveTimeout: READ_TIMEOUT_MS }, (req, res) => {
    const timer = setTimeout(() => { if (!res.writableEnded) res.destroy(); }, writeTimeoutMs);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    void (async () => {
      try {
        baseHeaders(res, req);
        // the request target as Go's net/http and ServeMux read it (CometBFT serves through them)
        const target = parseGoTarget(req.url ?? '/');
        if (target === undefined) {
          res.setHeader('Connection', 'close');
          if (req.url === '*') { res.statusCode = 400; res.end(); return; }
          sendText(res, 400, '400 Bad Request');
          return;
        }
        if (req.method === 'OPTIONS' && corsOrigins.length > 0) {
          res.setHeader('Access-Control-Allow-Methods', 'HEAD, GET, POST');
          res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS.join(', '));
          res.statusCode = 204;
          res.end();
          return;
        }
        const clean = goCleanPath(target.escapedPath);
        if (clean !== target.escapedPath) {
          const { location, body } = goRedirect(clean, target.rawQuery);
          res.statusCode = 307;
          res.setHeader('Location', location);
          if (req.method === 'GET' || req.method === 'HEAD') res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(req.method === 'GET' ? body : undefined);
          return;
        }
        const name = goRouteName(clean);
        const def = name === undefined ? undefined : methodDef(name);
        if (def && name !== undefined) { await handleUri(def, name, goQuery(target.rawQuery), res); return; }
        if (name === 'websocket') {
          sendText(res, 400, "Bad Request\nwebsocket: the client is not using the websocket protocol: 'upgrade' token not found in 'Connection' header\n");
          return;
        }
        if (target.path === '/') { await handleJsonRpc(req, res); return; }
        sendText(res, 404, '404 page not found\n');
      } catch (e) {
        log.error('rpc request failed', { err: (e as Error).stack ?? String(e) });
        sendJson(res, 500, errorResponse(-1, asRpcError(e)));
      }
    })();
  });
  server.maxConnections = cfg.max_open_connections > 0 ? cfg.max_open_connections : Infinity;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) { socket.destroy(); return; }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
  });

  // ---- websocket ----------------------------------------------------------------------------------

  interface WsConn {
    readonly ws: WebSocket;
    /** the connection's socket: corked while a turn of the event loop writes answers, so they leave together */
    readonly sock: Socket;
    corked: boolean;
    readonly clientId: string;
    pending: number;
    pendingBytes: number;
    lastProgress: number;
    lastSeen: number;
    lastPing: number;
    closed: boolean;
    waiters: (() => void)[];
  }
  const conns = new Set<WsConn>();

  const wsSend = (c: WsConn, body: unknown): void => {
    if (c.closed || c.ws.readyState !== c.ws.OPEN) return;
    const text = jsonText(body);
    if (!c.corked) {
      c.corked = true;
      c.sock.cork();
      setImmediate(() => { c.corked = false; c.sock.uncork(); });
    }
    if (c.pending === 0) c.lastProgress = Date.now();
    c.pending++;
    c.pendingBytes += text.length;
    c.ws.send(text, () => {
      c.pending--;
      c.pendingBytes -= text.length;
      c.lastProgress = Date.now();
      if (wsWritable(c)) for (const w of c.waiters.splice(0)) w();
    });
  };
  const wsWritable = (c: WsConn): boolean => c.closed || c.pending === 0 || (c.pending < WS_WRITE_WINDOW && c.pendingBytes < WS_WRITE_WINDOW_BYTES);
  /** Resolves when the connection can take another frame (or is closed), or when `stop()` turns true. */
  const untilWritable = async (c: WsConn, stop?: () => boolean): Promise<void> => {
    while (!wsWritable(c)) {
      if (stop?.()) return;
      await new Promise<void>((resolve) => {
        c.waiters.push(resolve);
        if (stop) setTimeout(resolve, 100); // poll `stop` while blocked
      });
    }
  };

  /** Forwards a subscription's events; a cancelled subscription (slow client, shutdown) gets one error frame. */
  const pump = async (c: WsConn, sub: Subscription, id: Id, queryText: string): Promise<void> => {
    for (;;) {
      await untilWritable(c, () => sub.cancelled);
      if (c.closed) return;
      const msg = await sub.next();
      if (!msg || c.closed) break;
      wsSend(c, successResponse(id, { query: queryText, data: eventDataJson(msg.type, msg.data), events: msg.events }));
    }
    const reason = sub.cancelReason;
    if (reason && reason !== 'unsubscribed' && !c.closed) {
      wsSend(c, errorResponse(id, RpcErrors.server(`subscription was canceled (reason: ${reason})`)));
    }
  };

  const subscriptionQuery = (params: unknown): { text: string; query: ReturnType<typeof parseRpcQuery> } => {
    let p: Params;
    try {
      p = decodeJsonParams([{ name: 'query', type: 'string' }], params);
    } catch (e) {
      if (e instanceof ParamError) throw RpcErrors.internal(`error converting json params to arguments: ${e.message}`);
      throw e;
    }
    const text = String(p.query ?? '');
    return { text, query: parseRpcQuery(node, text, 'failed to parse query: ') };
  };

  /** A frame's request, or undefined when there is nothing to run (a parse error, answered here, or a notification). */
  const parseWsFrame = (c: WsConn, data: RawData): (RpcRequest & { id: Id }) | undefined => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    let parsed: unknown;
    try {
      parsed = JSON.parse(buf.toString('utf8'));
    } catch (e) {
      wsSend(c, errorResponse(undefined, RpcErrors.parse(`error unmarshaling request: ${(e as Error).message}`)));
      return undefined;
    }
    let req: RpcRequest;
    try {
      req = toRequest(parsed);
    } catch (e) {
      if (!(e instanceof RequestParseError)) throw e;
      wsSend(c, errorResponse(undefined, RpcErrors.parse(`error unmarshaling request: ${e.message}`)));
      return undefined;
    }
    return req.id === undefined ? undefined : (req as RpcRequest & { id: Id }); // a notification is never run
  };

  const handleWsRequest = async (c: WsConn, req: RpcRequest & { id: Id }): Promise<void> => {
    const id = req.id;
    const subDone = metrics && ['subscribe', 'unsubscribe', 'unsubscribe_all'].includes(req.method) ? metrics.startRequest('cometbft_rpc', req.method) : undefined;
    try {
      switch (req.method) {
        case 'subscribe': {
          const { text, query } = subscriptionQuery(req.params);
          let sub: Subscription;
          try {
            sub = node.bus.subscribe(c.clientId, query);
          } catch (e) {
            if (e instanceof SubscriptionError) throw RpcErrors.internal(e.message);
            throw e;
          }
          wsSend(c, successResponse(id, {}));
          subDone?.(false);
          void pump(c, sub, id, text).catch((e: unknown) => log.error('websocket event pump failed', { err: String(e) }));
          return;
        }
        case 'unsubscribe': {
          const { query } = subscriptionQuery(req.params);
          try { node.bus.unsubscribe(c.clientId, query); } catch (e) { throw RpcErrors.internal((e as Error).message); }
          wsSend(c, successResponse(id, {}));
          subDone?.(false);
          return;
        }
        case 'unsubscribe_all': {
          try { node.bus.unsubscribeAll(c.clientId); } catch (e) { throw RpcErrors.internal((e as Error).message); }
          wsSend(c, successResponse(id, {}));
          subDone?.(false);
          return;
        }
        default:
          wsSend(c, (await execute({ ...req, id }, true)).body);
      }
    } catch (e) {
      subDone?.(true);
      wsSend(c, errorResponse(id, asRpcError(e)));
    }
  };

  const wss = new WebSocketServer({ server, path: '/websocket', maxPayload: cfg.max_body_bytes });
  wss.on('error', (e) => log.error('websocket server error', { err: String(e) }));
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const now = Date.now();
    const c: WsConn = {
      ws, sock: req.socket, corked: false, clientId: `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? 0}`,
      pending: 0, pendingBytes: 0, lastProgress: now, lastSeen: now, lastPing: now, closed: false, waiters: [],
    };
    conns.add(c);
    const wsGone = metrics?.wsConnected('cometbft_rpc');
    const queue: RawData[] = [];
    let processing = false;
    /** broadcast requests of this connection still running (see WS_PIPELINED) */
    const inflight = new Set<Promise<void>>();
    // wakes the drain loop when one of them ends: one waiter at a time (Promise.race over the set attached a
    // reaction to every running request on each wait, kept until it ended: most of them outlived a young-generation
    // collection under load and were copied to the old generation)
    let wake: (() => void) | undefined;
    const untilOneEnds = (): Promise<void> => new Promise<void>((r) => { wake = r; });
    const drain = async (): Promise<void> => {
      processing = true;
      try {
        while (queue.length > 0 && !c.closed) {
          await untilWritable(c);
          if (c.closed) break;
          const frame = queue.shift()!;
          if (ws.isPaused && queue.length < WS_READ_AHEAD / 4) ws.resume();
          const req = parseWsFrame(c, frame);
          if (req === undefined) continue;
          if (WS_PIPELINED.has(req.method)) {
            while (inflight.size >= WS_PIPELINE_DEPTH) await untilOneEnds();
            // started in frame order: the call reaches the engine's CheckTx before this returns, and the
            // engine admits txs in the order they reach it
            const p: Promise<void> = handleWsRequest(c, req)
              .catch((e: unknown) => log.error('websocket request failed', { err: (e as Error).stack ?? String(e) }))
              .finally(() => {
                inflight.delete(p);
                const w = wake;
                wake = undefined;
                w?.();
              });
            inflight.add(p);
          } else {
            // every earlier request is answered first, as when a connection's requests run one by one
            while (inflight.size > 0) await untilOneEnds();
            await handleWsRequest(c, req);
          }
        }
      } catch (e) {
        log.error('websocket request failed', { err: (e as Error).stack ?? String(e) });
      } finally {
        processing = false;
      }
      if (queue.length > 0 && !c.closed) void drain();
    };
    ws.on('message', (data) => {
      c.lastSeen = Date.now();
      if (c.closed) return;
      queue.push(data);
      if (queue.length >= WS_READ_AHEAD && !ws.isPaused) ws.pause();
      if (!processing) void drain();
    });
    ws.on('pong', () => { c.lastSeen = Date.now(); });
    ws.on('ping', () => { c.lastSeen = Date.now(); });
    const cleanup = (): void => {
      if (c.closed) return;
      c.closed = true;
      queue.length = 0;
      conns.delete(c);
      wsGone?.();
      for (const w of c.waiters.splice(0)) w();
      if (node.bus.numSubscriptions(c.clientId) > 0) node.bus.unsubscribeAll(c.clientId);
    };
    ws.on('close', cleanup);
    ws.on('error', (e) => { log.debug('websocket connection error', { err: String(e) }); cleanup(); });
  });

  const offSubs = metrics?.addWsSubscriptionSource('cometbft_rpc', () => {
    let n = 0;
    for (const c of conns) n += node.bus.numSubscriptions(c.clientId);
    return n;
  });

  // one timer for every websocket: pings, read deadline, stalled writes
  const ticker = setInterval(() => {
    const now = Date.now();
    for (const c of conns) {
      if (now - c.lastSeen > WS_READ_WAIT_MS || (c.pending > 0 && now - c.lastProgress > WS_WRITE_WAIT_MS)) {
        c.ws.terminate();
        continue;
      }
      if (now - c.lastPing >= WS_PING_PERIOD_MS) {
        c.lastPing = now;
        try { c.ws.ping(); } catch { /* closing */ }
      }
    }
  }, 1000);
  ticker.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  server.on('error', (e) => log.error('rpc server error', { err: String(e) }));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      clearInterval(ticker);
      offSubs?.();
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
