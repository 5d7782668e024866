export { ProtoRegistry, protoFilesIn, CODEC_PROTO_DIR } from './registry.js';
export type { AnyMsg, PackageAlias, ProtoObject } from './registry.js';
export { toGatewayJSON, fromGatewayJSON, CodecError } from './json.js';
export type { AnyResolver } from './json.js';
export { fromQueryParams } from './query-params.js';
export { serviceDef } from './service-def.js';
export type { ServiceDef, Req, Res, Reply } from './service-def.js';
// generated types, one namespace per proto package (`chain_base_v1beta1.Coin`, `google_protobuf.Any`, ...)
export * from './gen/index.js';
