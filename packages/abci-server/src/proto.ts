/**
 * The `tendermint.abci` protos of CometBFT v0.38 (proto/, copied from cometbft v0.38.26), loaded into one
 * protobufjs root with the protos' field names (keepCase), as packages/consensus loads its protos.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

export const ABCI_PROTO_DIR = fileURLToPath(new URL('../proto/', import.meta.url));

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  // imports are relative to proto/; google/protobuf/* are protobufjs built-ins
  root.resolvePath = (_origin: string, target: string): string =>
    target.startsWith('google/protobuf/') ? target : path.join(ABCI_PROTO_DIR, target);
  root.loadSync(['tendermint/abci/types.proto', 'google/protobuf/duration.proto', 'google/protobuf/timestamp.proto'], { keepCase: true });
  root.resolveAll();
  return root;
}

export const abciRoot = loadRoot();
export const RequestType = abciRoot.lookupType('tendermint.abci.Request');
export const ResponseType = abciRoot.lookupType('tendermint.abci.Response');

/** A decoded message: the protos' field names, int64 as decimal strings, bytes as Uint8Array, defaults filled. */
export type PbObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: Number, defaults: true, arrays: true, oneofs: true };

/** The oneof case names of `tendermint.abci.Request` (`echo`, `flush`, `info`, `init_chain`, ...). */
export type RequestKind =
  | 'echo' | 'flush' | 'info' | 'init_chain' | 'query' | 'check_tx' | 'commit' | 'list_snapshots' | 'offer_snapshot'
  | 'load_snapshot_chunk' | 'apply_snapshot_chunk' | 'prepare_proposal' | 'process_proposal' | 'extend_vote'
  | 'verify_vote_extension' | 'finalize_block';

export type ResponseKind = Exclude<RequestKind, never> | 'exception';

export interface DecodedRequest {
  readonly kind: RequestKind;
  readonly body: PbObject;
}

export function decodeRequest(bytes: Uint8Array): DecodedRequest {
  const obj = RequestType.toObject(RequestType.decode(bytes), TO_OBJECT) as PbObject;
  const kind = obj.value as RequestKind | undefined;
  if (!kind) throw new Error('ABCI request with no value');
  return { kind, body: obj[kind] as PbObject };
}

/**
 * Drops proto3 default values (0, '', false, empty bytes and lists) so the encoding is Go's byte for byte:
 * gogoproto omits them, protobufjs writes any field that is set. Message fields that are present are kept
 * (a non-nullable field such as `time` is always written by Go, even empty), and so are oneof members.
 */
export function pruneDefaults(type: protobuf.Type, obj: PbObject): PbObject {
  const out: PbObject = {};
  for (const f of type.fieldsArray) {
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : undefined;
    if (f.repeated) {
      if (!Array.isArray(v) || v.length === 0) continue;
      out[f.name] = sub ? v.map((e: PbObject) => pruneDefaults(sub, e)) : v;
    } else if (sub) {
      out[f.name] = pruneDefaults(sub, v);
    } else if (f.partOf || !isDefault(v, f.type)) {
      out[f.name] = v;
    }
  }
  return out;
}

function isDefault(v: unknown, type: string): boolean {
  if (v instanceof Uint8Array) return v.length === 0;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'string') return type === 'string' || type === 'bytes' ? v === '' : v === '' || Number(v) === 0;
  return v === 0 || v === false;
}

export function encodeRequest(kind: RequestKind, body: PbObject = {}): Uint8Array {
  const msg = RequestType.fromObject(pruneDefaults(RequestType, { [kind]: body }));
  return RequestType.encode(msg).finish();
}

export function encodeResponse(kind: ResponseKind, body: PbObject = {}): Uint8Array {
  const msg = ResponseType.fromObject(pruneDefaults(ResponseType, { [kind]: body }));
  return ResponseType.encode(msg).finish();
}

export interface DecodedResponse {
  readonly kind: ResponseKind;
  readonly body: PbObject;
}

export function decodeResponse(bytes: Uint8Array): DecodedResponse {
  const obj = ResponseType.toObject(ResponseType.decode(bytes), TO_OBJECT) as PbObject;
  const kind = obj.value as ResponseKind | undefined;
  if (!kind) throw new Error('ABCI response with no value');
  return { kind, body: obj[kind] as PbObject };
}
