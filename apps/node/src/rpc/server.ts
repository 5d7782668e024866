/**
 * CometBFT-compatible JSON-RPC server: POST / (single and batch), GET /<method>?args (URI form) and the
 * /websocket endpoint with subscribe / unsubscribe / unsubscribe_all. Every failure is a JSON-RPC error;
 * nothing a client sends can stop the node.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { parseQuery, QueryParseError, SubscriptionError } from '@chain/events';
import type { Query, Subscription } from '@chain/events';
import type { Node } from '../node.js';
import type { Logger } from '../logger.js';
import { RpcError, RpcErrors } from './errors.js';
import { METHODS, MAX_QUERY_LENGTH } from './methods.js';
import { decodeJsonParams, decodeUriParams } from './params.js';
import { eventDataJson } from './events.js';

export interface RpcServer {
  readonly port: number;
  close(): Promise<void>;
}

type Id = string | number | null;

function errorBody(id: Id, e: RpcError): unknown {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.data !== undefined) error.data = e.data;
  return { jsonrpc: '2.0', id, error };
}

function asRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  return RpcErrors.internal(e instanceof Error ? e.message : String(e));
}

function validId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

async function callMethod(node: Node, method: string, params: unknown, ws: boolean): Promise<unknown> {
  const def = Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method] : undefined;
  if (!def || (def.wsOnly && !ws)) throw RpcErrors.methodNotFound();
  return def.handler(node, decodeJsonParams(def.params, params));
}

async function handleOne(node: Node, req: unknown, ws: boolean): Promise<unknown | undefined> {
  if (!req || typeof req !== 'object' || Array.isArray(req)) return errorBody(null, RpcErrors.invalidRequest('request must be an object'));
  const r = req as Record<string, unknown>;
  if (!('id' in r)) {
    // notification: run, answer nothing
    if (typeof r.method === 'string') await callMethod(node, r.method, r.params, ws).catch(() => undefined);
    return undefined;
  }
  const id = validId(r.id) ? r.id : null;
  if (r.jsonrpc !== '2.0') return errorBody(id, RpcErrors.invalidRequest('jsonrpc must be "2.0"'));
  if (typeof r.method !== 'string') return errorBody(id, RpcErrors.invalidRequest('method must be a string'));
  try {
    const result = await callMethod(node, r.method, r.params, ws);
    return { jsonrpc: '2.0', id, result };
  } catch (e) {
    return errorBody(id, asRpcError(e));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Server-Time': String(Math.floor(Date.now() / 1000)) });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new RpcError(-32600, 'Invalid Request', `request body too large (max ${limit} bytes)`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startRpcServer(o: { node: Node; host: string; port: number; log: Logger }): Promise<RpcServer> {
  const { node, log } = o;
  const cfg = node.config.config.rpc;

  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? '/', 'http://localhost');
        if (req.method === 'POST' && (url.pathname === '/' || url.pathname === '')) {
          let text: string;
          try {
            text = await readBody(req, cfg.max_body_bytes);
          } catch (e) {
            send(res, 413, errorBody(null, asRpcError(e)));
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch (e) {
            send(res, 500, errorBody(null, RpcErrors.parse((e as Error).message)));
            return;
          }
          if (Array.isArray(parsed)) {
            if (parsed.length === 0) { send(res, 200, errorBody(null, RpcErrors.invalidRequest('empty batch'))); return; }
            if (parsed.length > cfg.max_request_batch_size) {
              send(res, 200, errorBody(null, RpcErrors.invalidRequest(`batch request exceeds maximum (${cfg.max_request_batch_size}) allowed number of requests`)));
              return;
            }
            const out = [];
            for (const r of parsed) { const x = await handleOne(node, r, false); if (x !== undefined) out.push(x); }
            send(res, 200, out);
            return;
          }
          const one = await handleOne(node, parsed, false);
          if (one === undefined) { res.writeHead(204); res.end(); return; }
          send(res, 200, one);
          return;
        }
        if (req.method === 'GET' || req.method === 'HEAD') {
          const method = url.pathname.replace(/^\//, '');
          if (method === '') {
            res.writeHead(200, { 'Content-Type': 'text/html' });
            res.end(`<html><body>Available endpoints:<br>${Object.keys(METHODS).filter((m) => !METHODS[m]!.wsOnly).map((m) => `//${req.headers.host ?? ''}/${m}`).join('<br>')}</body></html>`);
            return;
          }
          const def = Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method] : undefined;
          if (!def || def.wsOnly) { send(res, 404, errorBody(-1, RpcErrors.methodNotFound())); return; }
          try {
            const result = await def.handler(node, decodeUriParams(def.params, url.searchParams));
            send(res, 200, { jsonrpc: '2.0', id: -1, result });
          } catch (e) {
            send(res, 500, errorBody(-1, asRpcError(e)));
          }
          return;
        }
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('404 page not found\n');
      } catch (e) {
        log.error('rpc request failed', { err: (e as Error).message });
        if (!res.headersSent) send(res, 500, errorBody(null, asRpcError(e)));
      }
    })();
  });
  server.maxConnections = cfg.max_open_connections > 0 ? cfg.max_open_connections : Infinity;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const wss = new WebSocketServer({ server, path: '/websocket', maxPayload: cfg.max_body_bytes });
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const clientId = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? 0}`;
    const subs = new Map<string, Subscription>();
    const alive = { v: true };
    const writeJson = (body: unknown): void => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > 16 * 1024 * 1024) {
        // the client does not read: cut it off rather than buffer without bound
        ws.terminate();
        return;
      }
      ws.send(JSON.stringify(body));
    };
    const pump = async (sub: Subscription, id: Id, queryText: string): Promise<void> => {
      for (;;) {
        const msg = await sub.next();
        if (!msg) break;
        writeJson({ jsonrpc: '2.0', id, result: { query: queryText, data: eventDataJson(msg.type, msg.data), events: msg.events } });
      }
      if (sub.cancelReason && sub.cancelReason !== 'unsubscribed' && alive.v) {
        writeJson(errorBody(id, RpcErrors.server(`subscription was canceled (reason: ${sub.cancelReason})`)));
      }
    };
    const parseSubQuery = (params: unknown): { text: string; query: Query } => {
      const p = decodeJsonParams([{ name: 'query', type: 'string' }], params);
      const text = String(p.query ?? '');
      if (text.length > MAX_QUERY_LENGTH) throw RpcErrors.internal('maximum query length exceeded');
      try {
        return { text, query: parseQuery(text) };
      } catch (e) {
        if (e instanceof QueryParseError) throw RpcErrors.internal(`failed to parse query: ${e.message}`);
        throw e;
      }
    };
    ws.on('message', (data, isBinary) => {
      void (async () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
        } catch (e) {
          writeJson(errorBody(null, RpcErrors.parse((e as Error).message)));
          return;
        }
        const reqs = Array.isArray(parsed) ? parsed : [parsed];
        for (const r of reqs) {
          const rr = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
          const id: Id = validId(rr.id) ? rr.id : null;
          try {
            if (rr.method === 'subscribe') {
              const { text, query } = parseSubQuery(rr.params);
              let sub: Subscription;
              try {
                sub = node.bus.subscribe(clientId, query);
              } catch (e) {
                if (e instanceof SubscriptionError) throw RpcErrors.internal(e.message);
                throw e;
              }
              subs.set(query.toString(), sub);
              writeJson({ jsonrpc: '2.0', id, result: {} });
              void pump(sub, id, text);
            } else if (rr.method === 'unsubscribe') {
              const { query } = parseSubQuery(rr.params);
              try { node.bus.unsubscribe(clientId, query); } catch (e) { throw RpcErrors.internal((e as Error).message); }
              subs.delete(query.toString());
              writeJson({ jsonrpc: '2.0', id, result: {} });
            } else if (rr.method === 'unsubscribe_all') {
              try { node.bus.unsubscribeAll(clientId); } catch (e) { throw RpcErrors.internal((e as Error).message); }
              subs.clear();
              writeJson({ jsonrpc: '2.0', id, result: {} });
            } else {
              const out = await handleOne(node, r, true);
              if (out !== undefined) writeJson(out);
            }
          } catch (e) {
            writeJson(errorBody(id, asRpcError(e)));
          }
        }
      })();
    });
    const cleanup = (): void => {
      alive.v = false;
      try { node.bus.unsubscribeAll(clientId); } catch { /* none */ }
    };
    ws.on('close', cleanup);
    ws.on('error', cleanup);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
