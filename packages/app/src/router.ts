/** Message and query routing by proto service definitions. */
import type protobuf from 'protobufjs';
import type { ProtoRegistry } from '@chain/codec';
import type { MsgHandler, QueryHandler, ServiceRegistrar } from './module.js';

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

export class Router implements ServiceRegistrar {
  private readonly msgRoutes = new Map<string, MsgRoute>();
  private readonly queryRoutes = new Map<string, QueryRoute>();
  private readonly pathAliases: [string, string][] = [['/cosmos.', '/chain.']];
  private currentModule = '';
  private currentEventModule = '';

  constructor(readonly registry: ProtoRegistry) {}

  /** Sets the module on whose behalf the following registrations are made. */
  forModule(name: string, eventName: string): ServiceRegistrar {
    this.currentModule = name;
    this.currentEventModule = eventName;
    return this;
  }

  registerMsgService(serviceName: string, impl: Record<string, MsgHandler>): void {
    const service = this.registry.service(serviceName);
    for (const method of service.methodsArray) {
      const handler = impl[method.name];
      if (!handler) throw new Error(`${serviceName}: no handler for ${method.name}`);
      method.resolve();
      const requestType = fullName(method.resolvedRequestType!);
      if (this.msgRoutes.has(requestType)) throw new Error(`duplicate msg route ${requestType}`);
      this.msgRoutes.set(requestType, {
        module: this.currentModule,
        eventModule: this.currentEventModule,
        requestType,
        responseType: fullName(method.resolvedResponseType!),
        handler,
      });
    }
  }

  registerQueryService(serviceName: string, impl: Record<string, QueryHandler>): void {
    const service = this.registry.service(serviceName);
    for (const method of service.methodsArray) {
      const handler = impl[method.name];
      if (!handler) throw new Error(`${serviceName}: no handler for ${method.name}`);
      method.resolve();
      const path = `/${serviceName}/${method.name}`;
      this.queryRoutes.set(path, {
        path,
        service,
        method,
        requestType: fullName(method.resolvedRequestType!),
        responseType: fullName(method.resolvedResponseType!),
        handler,
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

  /** Resolves `/chain.x.Query/M` and its aliases (`/cosmos.x.Query/M`, ...). */
  queryRoute(path: string): QueryRoute | undefined {
    const direct = this.queryRoutes.get(path);
    if (direct) return direct;
    for (const [from, to] of this.pathAliases) {
      if (path.startsWith(from)) {
        const r = this.queryRoutes.get(to + path.slice(from.length));
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
