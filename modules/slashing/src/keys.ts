/**
 * slashing state, declared once: the collections of the module store `slashing`, with the key layout of
 * Cosmos SDK v0.45 (x/slashing/types/keys.go). The keeper, the query server and genesis read and write only
 * through these collections; no other file knows a prefix. Genesis export walks the schema.
 *
 * Store keys (under `slashing/`; `lp(a)` is `len(a) | a`, the SDK's `address.MustLengthPrefix`):
 *   0x00                         → Params, protobuf (v0.45 keeps them in the x/params subspace `slashing`;
 *                                  0x00 is the key v0.47 gives them, `ParamsKey`)
 *   0x01 | lp(consaddr)          → ValidatorSigningInfo, protobuf (`ValidatorSigningInfoKeyPrefix`)
 *   0x02 | lp(consaddr) | index  → gogoproto BoolValue, protobuf (`ValidatorMissedBlockBitArrayKeyPrefix`;
 *                                  index 8 bytes big-endian; `false` is stored as the empty encoding)
 *   0x03 | lp(consaddr)          → the consensus public key, protobuf Any (`AddrPubkeyRelationKeyPrefix`)
 */
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { EncodingError, Schema, lengthPrefixedBytesKey, pairKey, protoValue, uint64Key } from '@chain/collections';
import type { ValueCodec } from '@chain/collections';
import type { Params, ValidatorSigningInfo } from './gen/chain/slashing/v1beta1.js';

export const MODULE_NAME = 'slashing';
export const STORE_KEY = 'slashing';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export const SIGNING_INFO_PREFIX = 0x01;
export const MISSED_BLOCK_BIT_ARRAY_PREFIX = 0x02;
export const ADDR_PUBKEY_RELATION_PREFIX = 0x03;

const BOOL_TRUE = Uint8Array.of(0x08, 0x01);
const BOOL_FALSE = new Uint8Array(0);

/** gogoproto `BoolValue{value}` in protobuf: `08 01` for true, empty for false (what v0.45 stores). */
export const boolValueProto: ValueCodec<boolean> = {
  valueType: 'proto:google.protobuf.BoolValue',
  encode(value) {
    if (typeof value !== 'boolean') throw new EncodingError(`BoolValue: ${typeof value} is not a boolean`);
    return value ? BOOL_TRUE : BOOL_FALSE;
  },
  decode(bytes) {
    if (bytes.length === 0) return false;
    if (bytes.length === 2 && bytes[0] === 0x08 && (bytes[1] === 0x01 || bytes[1] === 0x00)) return bytes[1] === 0x01;
    throw new EncodingError(`BoolValue: unexpected bytes ${Buffer.from(bytes).toString('hex')}`);
  },
  stringify: (value) => String(value),
};

/** The slashing schema: build one per keeper (`SlashingKeeper.state`). */
export function slashingSchema(registry: ProtoRegistry) {
  // the proto values below resolve their types now: load the module's protos (the app loads them again, a no-op)
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /** The params. */
    Params: schema.item(0x00, 'params', protoValue<Params>(registry, 'chain.slashing.v1beta1.Params')),
    /** consensus address → signing info (`GetValidatorSigningInfo`). */
    SigningInfos: schema.map(SIGNING_INFO_PREFIX, 'signing_infos', lengthPrefixedBytesKey,
      protoValue<ValidatorSigningInfo>(registry, 'chain.slashing.v1beta1.ValidatorSigningInfo')),
    /** (consensus address, index) → missed (`GetValidatorMissedBlockBitArray`). */
    MissedBlocks: schema.map(MISSED_BLOCK_BIT_ARRAY_PREFIX, 'missed_blocks', pairKey(lengthPrefixedBytesKey, uint64Key), boolValueProto),
    /** consensus address → consensus public key (`AddrPubkeyRelation`); rebuilt from staking at InitGenesis. */
    Pubkeys: schema.map(ADDR_PUBKEY_RELATION_PREFIX, 'pubkeys', lengthPrefixedBytesKey, protoValue<google_protobuf.Any>(registry, 'google.protobuf.Any')),
  };
}

/** The collections of `slashingSchema`. */
export type SlashingState = ReturnType<typeof slashingSchema>;
