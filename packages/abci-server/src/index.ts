export { AbciServer, handleRequest } from './server.js';
export type { AbciServerOptions, AbciServerLogger } from './server.js';
export { FrameDecoder, encodeFrame, encodeUvarint, MAX_MESSAGE_SIZE } from './frame.js';
export { abciRoot, RequestType, ResponseType, decodeRequest, encodeRequest, decodeResponse, encodeResponse, ABCI_PROTO_DIR } from './proto.js';
export type { PbObject, RequestKind, ResponseKind, DecodedRequest, DecodedResponse } from './proto.js';
export { parseAbciAddress, formatAbciAddress } from './address.js';
export type { AbciAddress } from './address.js';
export { AbciClient } from './client.js';
