import type protobuf from 'protobufjs';

/** Resolves the type URL of a `google.protobuf.Any` to its message type (undefined when unknown). */
export interface AnyResolver {
  resolveAny(typeUrl: string): protobuf.Type | undefined;
}
