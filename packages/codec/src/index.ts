export { ProtoRegistry, protoFilesIn, CODEC_PROTO_DIR } from './registry.js';
export type { AnyMsg, ProtoObject } from './registry.js';
export { toGatewayJSON, fromGatewayJSON, CodecError } from './json.js';
export type { AnyResolver } from './json.js';
export { fromQueryParams } from './query-params.js';
