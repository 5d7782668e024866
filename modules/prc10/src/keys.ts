/**
 * Token module state, declared once: the collections of the module store `token`. The keeper, the query
 * server and genesis read and write only through these collections; no other file knows a prefix.
 *
 * Store keys (under `token/`), the original chain's layout (x/prc10/types/keys.go) plus the params:
 *   0x00                         → Params, protobuf (an x/params subspace in the original)
 *   0x01 | symbol                → Token, protobuf
 *   0x02 | min_unit              → google.protobuf.StringValue{symbol}
 *   0x03 | owner (20 bytes) | symbol → google.protobuf.StringValue{symbol}
 */
import type { ProtoRegistry } from '@chain/codec';
import { Schema, fixedBytesKey, pairKey, protoValue, stringKey } from '@chain/collections';
import type { Params, Token } from './gen/chain/prc10.js';

/** Module, store, route and `message.module` name: `token`, as in the original chain. */
export const MODULE_NAME = 'token';
export const STORE_KEY = 'token';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

/** Length of an account address: the owner index key holds it without a length prefix, as the original. */
export const ADDRESS_LENGTH = 20;

/** An account address as the original's keys write it: its 20 bytes, no length prefix. */
export const addressKey = fixedBytesKey(ADDRESS_LENGTH);

/** `google.protobuf.StringValue` (the original's gogo StringValue): the value of both indexes. */
export interface SymbolValue {
  value: string;
}

/** The token schema: build one per keeper (`Prc10Keeper.state`). */
export function prc10Schema(registry: ProtoRegistry) {
  // the proto values below resolve their types now: load the module's protos (the app loads them again, a no-op)
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  const symbolValue = protoValue<SymbolValue>(registry, 'google.protobuf.StringValue');
  return {
    schema,
    /** The params (the original's x/params subspace `token`). */
    Params: schema.item(0x00, 'params', protoValue<Params>(registry, 'chain.prc10.Params')),
    /** Every token by symbol (the original's `PrefixTokenForSymbol`). */
    Tokens: schema.map(0x01, 'tokens', stringKey, protoValue<Token>(registry, 'chain.prc10.Token')),
    /** min_unit → symbol (the original's `PrefixTokenForMinUint`). */
    MinUnits: schema.map(0x02, 'min_units', stringKey, symbolValue),
    /** (owner, symbol) → symbol: the tokens of an owner (the original's `PrefixTokens`). */
    OwnerTokens: schema.map(0x03, 'owner_tokens', pairKey(addressKey, stringKey), symbolValue),
  };
}

/** The collections of `prc10Schema`. */
export type Prc10State = ReturnType<typeof prc10Schema>;
