/**
 * The gRPC server: every query service of the app router, under its canonical name
 * (`chain.bank.v1beta1.Query`, answering with canonical `Any` type URLs) and its Cosmos name
 * (`cosmos.bank.v1beta1.Query`, `cosmos.base.tendermint.v1beta1.Service`, `cosmos.tx.v1beta1.Service`,
 * answering in the Cosmos dialect), plus server reflection (v1 and v1alpha) over both trees.
 *
 * Nothing here is per module: the services are derived from `router.allQueryRoutes()` and each call runs
 * through `app.runQuery`, like the REST gateway and ABCI query. Requests and responses stay raw bytes in
 * grpc-js (identity (de)serializers) so decoding errors become INVALID_ARGUMENT answers, not crashes.
 * The request metadata `x-cosmos-block-height` selects a past height; the response header carries the
 * height the query ran at.
 */
import * as grpc from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { GrpcCode, grpcStatusOf } from '@chain/errors';
import { CodecError } from '@chain/codec';
import type { App, QueryRoute } from '@chain/app';
import type { Logger } from '../logger.js';
import { parseListenAddress } from '../address.js';
import { cosmosServiceName } from './names.js';
import { buildReflectionFiles } from './reflection.js';
import type { NodeMetrics } from '../metrics.js';

export const BLOCK_HEIGHT_METADATA = 'x-cosmos-block-height';
export const MAX_RECEIVE_MESSAGE_LENGTH = 10 * 1024 * 1024;

export interface GrpcServer {
  readonly port: number;
  /** every service served, both spellings */
  readonly services: readonly string[];
  close(): Promise<void>;
}

/** One served service: a name, the dialect of its answers, and its routes by method name. */
export interface GrpcServiceSpec {
  readonly name: string;
  readonly dialect: 'chain' | 'cosmos';
  readonly methods: ReadonlyMap<string, QueryRoute>;
}

function canonicalServiceName(route: QueryRoute): string {
  return route.path.slice(1, route.path.lastIndexOf('/'));
}

/**
 * The services to serve, derived from the router's query routes: each canonical service and, when the
 * router also answers it under its Cosmos name (checked through `queryRoute`; a registry Cosmos package
 * alias such as `plugchain.prc10` gives that name), that name too.
 */
export function grpcServiceSpecs(node: { readonly app: App }): GrpcServiceSpec[] {
  const router = node.app.router;
  const specs = new Map<string, { name: string; dialect: 'chain' | 'cosmos'; methods: Map<string, QueryRoute> }>();
  const add = (name: string, dialect: 'chain' | 'cosmos', method: string, route: QueryRoute): void => {
    let s = specs.get(name);
    if (!s) specs.set(name, (s = { name, dialect, methods: new Map() }));
    s.methods.set(method, route);
  };
  for (const route of router.allQueryRoutes()) {
    const svc = canonicalServiceName(route);
    const method = route.method.name;
    add(svc, 'chain', method, route);
    const alias = cosmosServiceName(node.app.registry, svc);
    if (alias !== undefined && alias !== svc && router.queryRoute(`/${alias}/${method}`) === route) add(alias, 'cosmos', method, route);
  }
  return [...specs.values()];
}

const identity = (b: Buffer): Buffer => b;

function parseHeight(md: grpc.Metadata, latest: number): number {
  const values = md.get(BLOCK_HEIGHT_METADATA);
  if (values.length === 0) return latest;
  const raw = String(values[0]).trim();
  if (!/^\d+$/.test(raw)) throw new GrpcFailure(GrpcCode.INVALID_ARGUMENT, `invalid height ${JSON.stringify(raw)} in ${BLOCK_HEIGHT_METADATA}`);
  const h = Number(raw);
  if (h === 0) return latest;
  if (h > latest) throw new GrpcFailure(GrpcCode.INVALID_ARGUMENT, `height ${h} is greater than the latest height ${latest}`);
  return h;
}

class GrpcFailure extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

function statusOf(e: unknown): { code: number; message: string } {
  if (e instanceof GrpcFailure) return { code: e.code, message: e.message };
  if (e instanceof CodecError) return { code: GrpcCode.INVALID_ARGUMENT, message: e.message };
  return grpcStatusOf(e);
}

function unaryHandler(node: { readonly app: App }, route: QueryRoute, dialect: 'chain' | 'cosmos', log: Logger, metrics?: NodeMetrics, path = route.path): grpc.handleUnaryCall<Buffer, Buffer> {
  const registry = node.app.registry;
  const responseType = registry.type(route.responseType);
  return (call, callback) => {
    const done = metrics?.startRequest('grpc', path);
    let height: number | undefined;
    const run = async (): Promise<Buffer> => {
      height = parseHeight(call.metadata, node.app.lastHeight);
      let req;
      try {
        req = registry.decode(route.requestType, call.request ?? Buffer.alloc(0));
      } catch (e) {
        throw new GrpcFailure(GrpcCode.INVALID_ARGUMENT, `failed to decode ${route.requestType}: ${(e as Error).message}`);
      }
      const resp = await node.app.runQuery(route.path, req, height);
      return Buffer.from(registry.encode(route.responseType, registry.toDialect(responseType, resp, dialect)));
    };
    const header = (): void => {
      if (height === undefined) return;
      const md = new grpc.Metadata();
      md.set(BLOCK_HEIGHT_METADATA, String(height));
      try { call.sendMetadata(md); } catch { /* call already ended */ }
    };
    run().then(
      (bytes) => { done?.(false); header(); callback(null, bytes); },
      (e: unknown) => {
        const st = statusOf(e);
        if (st.code === GrpcCode.UNKNOWN && !(e instanceof Error && 'grpcCode' in e)) log.debug('query failed', { path: route.path, err: st.message });
        done?.(true);
        header();
        callback({ code: st.code, details: st.message });
      },
    ).catch((e: unknown) => log.error('grpc handler failed', { path: route.path, err: String(e) }));
  };
}

/** grpc-js wants `host:port`; IPv6 hosts in brackets. `tcp://` prefixes are accepted. */
function grpcBindAddress(address: string): string {
  const { host, port } = parseListenAddress(address);
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface GrpcServerOptions {
  readonly app: App;
  /** `host:port` (app.toml `[grpc] address`; port 0 picks a free one) */
  readonly address: string;
  readonly log: Logger;
  /** requests and errors per method (`transport="grpc"`, method `/package.Service/Method`) */
  readonly metrics?: NodeMetrics;
}

export async function startGrpcServer(o: GrpcServerOptions): Promise<GrpcServer> {
  const { log } = o;
  const node = { app: o.app };
  const server = new grpc.Server({ 'grpc.max_receive_message_length': MAX_RECEIVE_MESSAGE_LENGTH });
  const specs = grpcServiceSpecs(node);
  for (const spec of specs) {
    const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
    const impl: grpc.UntypedServiceImplementation = {};
    for (const [method, route] of spec.methods) {
      definition[method] = {
        path: `/${spec.name}/${method}`,
        requestStream: false,
        responseStream: false,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      };
      impl[method] = unaryHandler(node, route, spec.dialect, log, o.metrics, `/${spec.name}/${method}`);
    }
    server.addService(definition, impl);
  }
  const served = specs.map((s) => s.name);
  try {
    const { packageDefinition } = buildReflectionFiles(node.app.registry);
    const reflectionServices = ['grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection'];
    new ReflectionService(packageDefinition, { services: [...served, ...reflectionServices] }).addToServer(server);
  } catch (e) {
    log.warn('gRPC server reflection is not available', { err: e instanceof Error ? e.message : String(e) });
  }
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(grpcBindAddress(o.address), grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(new Error(`gRPC server cannot listen on ${o.address}: ${err.message}`)) : resolve(p)));
  });
  let closed: Promise<void> | undefined;
  return {
    port,
    services: served,
    close: () => (closed ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => { server.forceShutdown(); resolve(); }, 2000);
      force.unref();
      server.tryShutdown(() => { clearTimeout(force); resolve(); });
    })),
  };
}
