/**
 * The REST gateway (koa): serves every annotated query route with the gRPC-gateway JSON conventions,
 * `{code, message, details}` errors with the gateway's status map, 501 for unknown routes, the
 * `x-cosmos-block-height` header, CORS when enabled, and the Swagger document when enabled.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { grpcStatusOf, httpStatusOfGrpc, GrpcCode, statusError } from '@chain/errors';
import { CodecError, fromGatewayJSON, fromQueryParams } from '@chain/codec';
import type { Node } from '../node.js';
import type { Logger } from '../logger.js';
import { buildRoutes, matchRoute } from './routes.js';
import { swaggerDocument } from './swagger.js';

export interface RestServer {
  readonly port: number;
  close(): Promise<void>;
}

function errorBody(code: number, message: string): { code: number; message: string; details: unknown[] } {
  return { code, message, details: [] };
}

async function readBody(ctx: Koa.Context, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > limit) throw statusError(GrpcCode.INVALID_ARGUMENT, `request body too large (max ${limit} bytes)`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRestServer(o: { node: Node; host: string; port: number; log: Logger }): Promise<RestServer> {
  const { node, log } = o;
  const api = node.config.app.api;
  const registry = node.app.registry;
  const routes = buildRoutes(node.app.router.allQueryRoutes());
  const app = new Koa();

  app.use(async (ctx, next) => {
    if (api['enabled-unsafe-cors']) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type');
      if (ctx.method === 'OPTIONS') { ctx.status = 204; return; }
    }
    try {
      await next();
    } catch (e) {
      const st = e instanceof CodecError ? { code: GrpcCode.INVALID_ARGUMENT, message: e.message } : grpcStatusOf(e);
      if (st.code === GrpcCode.UNKNOWN && !(e instanceof Error && 'grpcCode' in e)) log.debug('query failed', { err: st.message });
      ctx.status = httpStatusOfGrpc(st.code);
      ctx.body = errorBody(st.code, st.message);
    }
  });

  app.use(async (ctx) => {
    const path = ctx.path;
    if (api.swagger && (path === '/swagger' || path === '/swagger/' || path === '/swagger/swagger.json')) {
      ctx.body = swaggerDocument(routes, registry);
      return;
    }
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const m = matchRoute(routes, method, path);
    if (!m || m === 'method') {
      ctx.status = 501;
      ctx.body = errorBody(GrpcCode.UNIMPLEMENTED, 'Not Implemented');
      return;
    }
    const { route, params } = m;
    const reqType = registry.type(route.query.requestType);
    let reqObj;
    if (route.method === 'POST') {
      const text = await readBody(ctx, api['rpc-max-body-bytes']);
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
      if (!/^\d+$/.test(hdr)) throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid height header ${JSON.stringify(hdr)}`);
      height = Number(hdr);
      if (height > node.app.lastHeight) throw statusError(GrpcCode.INVALID_ARGUMENT, `height ${height} is greater than the latest height ${node.app.lastHeight}`);
    }
    const resp = await node.app.runQuery(route.query.path, reqObj, height);
    ctx.set('Grpc-Metadata-X-Cosmos-Block-Height', String(height ?? node.app.lastHeight));
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(registry.toJSON(route.query.responseType, resp, route.dialect));
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, () => resolve(s));
    s.once('error', reject);
  });
  server.maxConnections = api['max-open-connections'] > 0 ? api['max-open-connections'] : Infinity;
  if (api['rpc-read-timeout'] > 0) server.requestTimeout = api['rpc-read-timeout'] * 1000;
  server.headersTimeout = Math.min(server.requestTimeout || 60_000, 60_000);
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
