/**
 * Typed service definitions. The generated code (tools/proto-gen) declares, for each proto service, a
 * method map `{ Method: [Request, Response] }` and a `ServiceDef` constant that carries the service's
 * full name and, at the type level only, that map; `@chain/app` checks a service implementation against
 * it (`registerMsgService(Msg, impl)`).
 */

declare const methodTypes: unique symbol;

/** A proto service: its full name, with its method map `M` as a phantom type. */
export interface ServiceDef<M> {
  /** full proto name, e.g. `chain.bank.v1beta1.Msg` */
  readonly name: string;
  /** never set; only carries `M` */
  readonly [methodTypes]?: M;
}

/** The definition of the service `name` with method map `M` (used by the generated code). */
export function serviceDef<M>(name: string): ServiceDef<M> {
  return { name };
}

/** Request type of a method map entry `[Request, Response]`. */
export type Req<P> = P extends readonly [infer Q, unknown] ? Q : never;
/** Response type of a method map entry `[Request, Response]`. */
export type Res<P> = P extends readonly [unknown, infer R] ? R : never;

/**
 * What a handler may return for a message of type `T` (the decoded model): every field must be there
 * (so a misspelled field name is a missing field, a compile error; TypeScript does not check excess
 * properties of returned object literals), arrays may be readonly, and bytes may be `null` (written as
 * empty), like message fields.
 */
export type Reply<T> = T extends Uint8Array
  ? Uint8Array | null
  : T extends bigint | number | string | boolean | null | undefined
    ? T
    : T extends readonly (infer E)[]
      ? readonly Reply<E>[]
      : T extends object
        ? { readonly [K in keyof T]: Reply<T[K]> }
        : T;
