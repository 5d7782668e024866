/** Message and query routing by proto service definitions. */
import type protobuf from 'protobufjs';
import type { ProtoRegistry, ServiceDef } from '@chain/codec';
import type { MsgHandler, MsgServer, QueryHandler, QueryServer, ServiceRegistrar } from './module.js';

export interface MsgRoute {
  readonly module: string;
  readonly eventModule: string;
  readonly requestType: string;
  readonly responseType: string;
  readonly handler: MsgHandler;
}

export interface QueryRoute {
  /** `/chain.bank.v1beta1.Query/Balance` */
  readonly path: string;
  readonly service: protobuf.Service;
  readonly method: protobuf.Method;
  readonly requestType: string;
  readonly responseType: string;
  readonly handler: QueryHandler;
}

function fullName(o: { fullName: string }): string {
  return o.fullName.startsWith('.') ? o.fullName.slice(1) : o.fullName;
}

/** A service as the registrars accept it: a generated definition, or (untyped form) its full name. */
type ServiceRef = ServiceDef<unknown> | string;

const nameOf = (s: ServiceRef): string => (typeof s === 'string' ? s : s.name);

/**
 * The handlers of a service implementation, by method name. The typed registrar signatures have checked
 * `impl` against the service's generated method map; the routes keep the erased handler type, since
 * requests reach them as decoded plain objects of the method's request type.
 */
function handlers<H>(impl: object): Readonly<Record<string, H | undefined>> {
  return impl as Readonly<Record<string, H | undefined>>;
}

/**
 * The message and query router. It is built before the keepers (`createRouter`), so a keeper that
 * dispatches messages (gov executing a passed proposal) can be handed it, and then given to the App.
 * Registering the same message type or query path twice is refused.
 */
export class Router implements ServiceRegistrar {
  private readonly msgRoutes = new Map<string, MsgRoute>();
  private readonly queryRoutes = new Map<string, QueryRoute & { owner: string }>();
  private readonly pathAliases: [string, string][] = [['/cosmos.', '/chain.']];

  constructor(readonly registry: ProtoRegistry) {}

  /** A registrar whose registrations are made on behalf of module `name` (`eventName`: `message.module`). */
  forModule(name: string, eventName: string = name): ServiceRegistrar {
    return {
      registry: this.registry,
      registerMsgService: (service: ServiceRef, impl: object) => this.addMsgService(name, eventName, service, impl),
      registerQueryService: (service: ServiceRef, impl: object) => this.addQueryService(name, service, impl),
    };
  }

  /** @deprecated untyped form, for services without generated types (test fixtures). */
  registerMsgService(service: string, impl: Record<string, MsgHandler>): void;
  /** Registers a message service on behalf of no module (`message.module` is empty). */
  registerMsgService<M>(def: ServiceDef<M>, impl: NoInfer<MsgServer<M>>): void;
  registerMsgService(service: ServiceRef, impl: object): void {
    this.addMsgService('', '', service, impl);
  }

  /** @deprecated untyped form, for services without generated types (test fixtures). */
  registerQueryService(service: string, impl: Record<string, QueryHandler>): void;
  /** Registers a query service on behalf of the node (node-level services: tx, consensus). */
  registerQueryService<M>(def: ServiceDef<M>, impl: NoInfer<QueryServer<M>>): void;
  registerQueryService(service: ServiceRef, impl: object): void {
    this.addQueryService('', service, impl);
  }

  private addMsgService(module: string, eventModule: string, ref: ServiceRef, impl: object): void {
    const name = nameOf(ref);
    const service = this.registry.service(name);
    const byName = handlers<MsgHandler>(impl);
    for (const method of service.methodsArray) {
      const handler = byName[method.name];
      if (!handler) throw new Error(`${name}: no handler for ${method.name}`);
      method.resolve();
      const requestType = fullName(method.resolvedRequestType!);
      const prior = this.msgRoutes.get(requestType);
      if (prior) throw new Error(`duplicate msg route ${requestType}${prior.module ? ` (already registered by ${prior.module})` : ''}`);
      this.msgRoutes.set(requestType, {
        module,
        eventModule,
        requestType,
        responseType: fullName(method.resolvedResponseType!),
        handler,
      });
    }
  }

  private addQueryService(owner: string, ref: ServiceRef, impl: object): void {
    const name = nameOf(ref);
    const service = this.registry.service(name);
    const byName = handlers<QueryHandler>(impl);
    for (const method of service.methodsArray) {
      const handler = byName[method.name];
      if (!handler) throw new Error(`${name}: no handler for ${method.name}`);
      const path = `/${name}/${method.name}`;
      const prior = this.queryRoutes.get(path);
      if (prior) throw new Error(`duplicate query path ${path}${prior.owner ? ` (already registered by ${prior.owner})` : ''}`);
    }
    for (const method of service.methodsArray) {
      method.resolve();
      const path = `/${name}/${method.name}`;
      this.queryRoutes.set(path, {
        owner,
        path,
        service,
        method,
        requestType: fullName(method.resolvedRequestType!),
        responseType: fullName(method.resolvedResponseType!),
        handler: byName[method.name]!,
      });
    }
  }

  msgRoute(typeName: string): MsgRoute | undefined {
    return this.msgRoutes.get(typeName);
  }

  /** Declares that query paths starting with `from` are served by the routes starting with `to`. */
  registerPathAlias(from: string, to: string): void {
    this.pathAliases.unshift([from, to]);
  }

  /**
   * Resolves `/chain.x.Query/M` and its aliases (`/cosmos.x.Query/M`, ..., and `/<alias>.Query/M` of the
   * registry's package aliases, e.g. `/plugchain.prc10.Query/Token`).
   */
  queryRoute(path: string): QueryRoute | undefined {
    const direct = this.queryRoutes.get(path);
    if (direct) return direct;
    for (const [from, to] of this.pathAliases) {
      if (path.startsWith(from)) {
        const r = this.queryRoutes.get(to + path.slice(from.length));
        if (r) return r;
      }
    }
    for (const { alias, canonical } of this.registry.packageAliases()) {
      if (path.startsWith(`/${alias}.`)) {
        const r = this.queryRoutes.get(`/${canonical}${path.slice(1 + alias.length)}`);
        if (r) return r;
      }
    }
    return undefined;
  }

  allQueryRoutes(): QueryRoute[] {
    return [...this.queryRoutes.values()];
  }

  allMsgRoutes(): MsgRoute[] {
    return [...this.msgRoutes.values()];
  }
}

/** Builds the router first, so keepers that dispatch messages can be handed it before the App exists. */
export function createRouter(registry: ProtoRegistry): Router {
  return new Router(registry);
}
