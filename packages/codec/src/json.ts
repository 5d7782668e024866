/**
 * JSON for protobufjs messages exactly as the Cosmos SDK REST gateway writes and reads it
 * (grpc-gateway v1 + gogoproto jsonpb with `EmitDefaults`, `OrigName`, compact output).
 *
 * Output rules (see docs: cosmos-rest-and-cometbft-rpc.md A.1):
 * - proto (snake_case) field names, every field emitted, in declaration order (a oneof at the position
 *   of its first member, only the set member, nothing when unset);
 * - 64-bit integers as decimal strings, 32-bit integers / floats / bools as JSON numbers / bools
 *   (non-finite floats as `"NaN"`, `"Infinity"`, `"-Infinity"`; float32 with its shortest digits);
 * - bytes as padded standard base64; a zero-length singular bytes field is written as `null` (Go writes
 *   nil slices as `null`, and proto3 cannot tell nil from empty); zero-length elements of repeated bytes and
 *   bytes map values are written as `""` (decoded Go slices are never nil there);
 * - enums by value name (unknown numbers as numbers); unset message fields `null` (gogoproto
 *   `nullable=false` fields: the default message instead); unset proto3 `optional` scalars `null`;
 *   repeated `[]`; maps `{}` with Go's key order;
 * - `google.protobuf.Any` inline with `"@type"` (well-known payloads as `{"@type":…,"value":…}`),
 *   `Timestamp` RFC 3339 `Z` with 0/3/6/9 fraction digits, `Duration` `"<s>[.fff]s"` (0/3/6/9 digits, so
 *   1.5 s is `"1.500s"`), wrappers as their value, `Struct`/`Value`/`ListValue` as plain JSON;
 * - `Dec` custom types (`(gogoproto.customtype)` ending in `Dec`, or `(cosmos_proto.scalar) = "cosmos.Dec"`)
 *   hold the integer scaled by 10^18 on the wire and are written with exactly 18 decimals; `Int` custom
 *   types are decimal text (empty → `"0"`).
 *
 * Known limit: the result is a JS value; JS objects list integer-like keys first, so maps whose keys look
 * like non-negative integers keep numeric (not Go's lexicographic) order after `JSON.stringify`.
 *
 * Implementation: ./json/ (plan.ts compiles per-type field plans; encode.ts / decode.ts walk them; wkt.ts,
 * decimal.ts and the go-*.ts parsers hold the well-known-type, Dec/Int and Go-compatible text rules).
 */
export { CodecError } from './json/errors.js';
export type { AnyResolver } from './json/resolver.js';
export { toGatewayJSON } from './json/encode.js';
export { fromGatewayJSON } from './json/decode.js';
