/**
 * The REST gateway (koa): serves every annotated query route with the gRPC-gateway JSON conventions,
 * `{code, message, details}` errors with the gateway's status map (never an HTML page), 501 code 12
 * for unknown routes and wrong methods, the `x-cosmos-block-height` header, and the `[api]` options of
 * app.toml: `max-open-connections`, `rpc-read-timeout` (whole request, seconds), `rpc-write-timeout`
 * (whole response, seconds; 0 = none), `rpc-max-body-bytes`, `enabled-unsafe-cors` (gorilla
 * `handlers.CORS` with Content-Type allowed) and `swagger` (GET /swagger, /swagger/, /swagger/swagger.json).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { grpcStatusOf, httpStatusOfGrpc, GrpcCode, statusError } from '@chain/errors';
import { CodecError, fromGatewayJSON, fromQueryParams } from '@chain/codec';
import type { App } from '@chain/app';
import type { Logger } from '../logger.js';
import { buildRoutes, matchRoute } from './routes.js';
import { swaggerDocument } from './swagger.js';
import { readBody } from '../http-body.js';
import type { NodeMetrics } from '../metrics.js';
import { createExplorerHandler } from '../explorer/serve.js';
import type { ExplorerServeOptions } from '../explorer/serve.js';

export interface RestServer {
  readonly port: number;
  close(): Promise<void>;
}

const SWAGGER_PATHS = new Set(['/swagger', '/swagger/', '/swagger/swagger.json']);
const CORS_METHODS = ['GET', 'HEAD', 'POST'];
/** Headers a CORS preflight may ask for: gorilla's always-allowed ones plus Content-Type. */
const CORS_HEADERS = ['accept', 'accept-language', 'content-language', 'origin', 'content-type'];

function errorText(code: number, message: string): string {
  return JSON.stringify({ code, message, details: [] });
}

function setError(ctx: Koa.Context, code: number, message: string): void {
  ctx.status = httpStatusOfGrpc(code);
  ctx.body = errorText(code, message);
  ctx.set('Content-Type', 'application/json');
}

/**
 * Reads a request body of at most `limit` bytes (gateway: `http: request body too large`, code 3; the
 * connection closes after that answer).
 */
async function readText(ctx: Koa.Context, limit: number): Promise<string> {
  const r = await readBody(ctx.req, limit);
  if ('body' in r) return r.body.toString('utf8');
  if ('error' in r) throw statusError(GrpcCode.CANCELLED, r.error);
  ctx.set('Connection', 'close');
  throw statusError(GrpcCode.INVALID_ARGUMENT, 'http: request body too large');
}

export interface RestServerOptions {
  /** the app whose query routes (from the protos' `google.api.http` annotations) the gateway serves */
  readonly app: App;
  readonly host: string;
  readonly port: number;
  readonly log: Logger;
  /** app.toml's `[api]` settings (same names); absent ones take app.toml's defaults */
  readonly api?: Partial<RestApiConfig>;
  /** requests and errors per route template (`transport="rest"`) */
  readonly metrics?: NodeMetrics;
  /** the wallet descriptions (always) and the explorer page (`[api] explorer`) of `../explorer/` */
  readonly explorer?: ExplorerServeOptions;
}

/** The `[api]` settings of the SDK's app.toml the gateway applies. */
export interface RestApiConfig {
  /** serve the Swagger document (`/swagger`, `/swagger/swagger.json`) */
  readonly swagger: boolean;
  readonly 'max-open-connections': number;
  /** seconds */
  readonly 'rpc-read-timeout': number;
  /** seconds; 0: none */
  readonly 'rpc-write-timeout': number;
  readonly 'rpc-max-body-bytes': number;
  readonly 'enabled-unsafe-cors': boolean;
}

export const DEFAULT_REST_API_CONFIG: RestApiConfig = {
  swagger: false, 'max-open-connections': 1000, 'rpc-read-timeout': 10, 'rpc-write-timeout': 0, 'rpc-max-body-bytes': 1_000_000, 'enabled-unsafe-cors': false,
};

export async function startRestServer(o: RestServerOptions): Promise<RestServer> {
  const { log } = o;
  const node = { app: o.app };
  const api: RestApiConfig = { ...DEFAULT_REST_API_CONFIG, ...o.api };
  const registry = node.app.registry;
  const routes = buildRoutes(node.app.router.allQueryRoutes());
  let swaggerText: string | undefined;
  const explorer = o.explorer ? createExplorerHandler(o.explorer) : undefined;
  const app = new Koa();
  app.silent = true;

  // metrics: one sample per request, labelled by the route template (never the raw path)
  const metrics = o.metrics;
  if (metrics) {
    app.use(async (ctx, next) => {
      const t0 = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const label = (ctx.state as { metricsRoute?: string }).metricsRoute ?? (ctx.method === 'OPTIONS' ? 'OPTIONS' : 'unmatched');
        metrics.observeRequest('rest', label, Number(process.hrtime.bigint() - t0) / 1e9, ctx.status >= 400);
      }
    });
  }

  // CORS (gorilla handlers.CORS with AllowedHeaders(["Content-Type"]), every origin, GET/HEAD/POST)
  app.use(async (ctx, next) => {
    if (!api['enabled-unsafe-cors']) return next();
    if (ctx.method === 'OPTIONS') {
      const method = ctx.get('access-control-request-method');
      if (!method) { setError(ctx, GrpcCode.INVALID_ARGUMENT, 'CORS preflight without Access-Control-Request-Method'); return; }
      if (!CORS_METHODS.includes(method.toUpperCase())) { ctx.status = 405; ctx.body = errorText(GrpcCode.UNIMPLEMENTED, `CORS method ${method} not allowed`); ctx.type = 'application/json'; return; }
      const asked = ctx.get('access-control-request-headers').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
      const bad = asked.find((h) => !CORS_HEADERS.includes(h));
      if (bad) { ctx.status = 403; ctx.body = errorText(GrpcCode.PERMISSION_DENIED, `CORS header ${bad} not allowed`); ctx.type = 'application/json'; return; }
      const extra = asked.filter((h) => h === 'content-type');
      if (extra.length) ctx.set('Access-Control-Allow-Headers', 'Content-Type');
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    return next();
  });

  // errors: {code, message, details} with the gateway's HTTP status
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      const st = e instanceof CodecError ? { code: GrpcCode.INVALID_ARGUMENT, message: e.message }
        : e instanceof URIError ? { code: GrpcCode.INVALID_ARGUMENT, message: `invalid URL escape in ${JSON.stringify(ctx.path.slice(0, 200))}` }
        : grpcStatusOf(e);
      if (st.code === GrpcCode.UNKNOWN || st.code === GrpcCode.INTERNAL) log.debug('query failed', { path: ctx.path, err: st.message });
      setError(ctx, st.code, st.message);
    }
  });

  app.use(async (ctx) => {
    const path = ctx.path;
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (api.swagger && method === 'GET' && SWAGGER_PATHS.has(path)) {
      ctx.state.metricsRoute = `GET ${path}`;
      swaggerText ??= JSON.stringify(swaggerDocument(routes, registry));
      ctx.body = swaggerText;
      ctx.set('Content-Type', 'application/json');
      return;
    }
    if (explorer && method === 'GET' && explorer(ctx)) return;
    const m = matchRoute(routes, method, path);
    if (!m || m === 'method') {
      setError(ctx, GrpcCode.UNIMPLEMENTED, 'Not Implemented');
      return;
    }
    const { route, params } = m;
    ctx.state.metricsRoute = `${route.method} ${route.template}`;
    const reqType = registry.type(route.query.requestType);
    let reqObj;
    if (route.method === 'POST') {
      const text = await readText(ctx, api['rpc-max-body-bytes']);
      let json: unknown;
      try {
        json = text.trim() === '' ? {} : JSON.parse(text);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid JSON body: ${(e as Error).message}`);
      }
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw statusError(GrpcCode.INVALID_ARGUMENT, 'request body must be a JSON object');
      reqObj = registry.toPlain(route.query.requestType, fromGatewayJSON(reqType, { ...(json as object), ...params }, registry));
    } else {
      reqObj = registry.toPlain(route.query.requestType, fromQueryParams(reqType, ctx.query as Record<string, string | string[]>, params, registry));
    }
    const hdr = ctx.get('x-cosmos-block-height');
    let height: number | undefined;
    if (hdr) {
      if (!/^\d{1,16}$/.test(hdr)) throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid height header "x-cosmos-block-height": ${JSON.stringify(hdr.slice(0, 40))}`);
      height = Number(hdr);
      if (height > node.app.lastHeight) throw statusError(GrpcCode.INVALID_ARGUMENT, `cannot query with height in the future; please provide a valid height: height ${height} is greater than the latest height ${node.app.lastHeight}`);
    }
    const resp = await node.app.runQuery(route.query.path, reqObj, height);
    const body = JSON.stringify(registry.toJSON(route.query.responseType, resp, route.dialect));
    ctx.set('Grpc-Metadata-X-Cosmos-Block-Height', String(height || node.app.lastHeight));
    ctx.body = body;
    ctx.set('Content-Type', 'application/json');
  });

  const readTimeoutMs = Math.round(api['rpc-read-timeout'] * 1000);
  const writeTimeoutMs = Math.round(api['rpc-write-timeout'] * 1000);
  const callback = app.callback();
  const server: Server = createServer({
    requestTimeout: readTimeoutMs,
    headersTimeout: readTimeoutMs > 0 ? readTimeoutMs : 60_000,
    connectionsCheckingInterval: readTimeoutMs > 0 ? Math.min(1000, readTimeoutMs) : 30_000,
    keepAliveTimeout: readTimeoutMs > 0 ? readTimeoutMs : 5000,
  }, (req, res) => {
    if (writeTimeoutMs > 0) {
      // Go's WriteTimeout: the response must be written within the timeout, else the connection is closed
      const t = setTimeout(() => { if (!res.writableEnded) res.destroy(); }, writeTimeoutMs);
      t.unref();
      res.on('close', () => clearTimeout(t));
    }
    void callback(req, res);
  });
  server.maxConnections = api['max-open-connections'] > 0 ? api['max-open-connections'] : Infinity;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) { socket.destroy(); return; }
    const [status, code] = err.code === 'HPE_HEADER_OVERFLOW' ? ['431 Request Header Fields Too Large', GrpcCode.RESOURCE_EXHAUSTED]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ['408 Request Timeout', GrpcCode.DEADLINE_EXCEEDED]
      : ['400 Bad Request', GrpcCode.INVALID_ARGUMENT];
    const body = errorText(code as number, `malformed HTTP request: ${String(err.code ?? err.message)}`);
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  server.on('error', (e) => log.error('REST server error', { err: String(e) }));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
