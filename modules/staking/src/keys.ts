/**
 * staking state, declared once: the collections of the module store `staking`, with the key layout of
 * Cosmos SDK v0.45 (x/staking/types/keys.go). The keeper, the query server and genesis read and write only
 * through these collections; no other file knows a prefix.
 *
 * Store keys (under `staking/`; `lp(a)` is `len(a) | a` with one length byte, the SDK's
 * `address.MustLengthPrefix`; `time` is the SDK's `FormatTimeBytes`, `2006-01-02T15:04:05.000000000` UTC):
 *   0x11 | lp(valoper)                       → last validator power, protobuf Int64Value
 *   0x12                                     → last total power, protobuf IntProto
 *   0x21 | lp(valoper)                       → Validator, protobuf
 *   0x22 | lp(consaddr)                      → operator address (raw bytes)
 *   0x23 | power (8 bytes BE) | lp(^valoper) → operator address (raw bytes); ^ = every bit inverted
 *   0x31 | lp(delegator) | lp(valoper)       → Delegation, protobuf
 *   0x32 | lp(delegator) | lp(valoper)       → UnbondingDelegation, protobuf
 *   0x33 | lp(valoper) | lp(delegator)       → empty (unbonding delegations by validator)
 *   0x34 | lp(delegator) | lp(src) | lp(dst) → Redelegation, protobuf
 *   0x35 | lp(src) | lp(delegator) | lp(dst) → empty (redelegations by source validator)
 *   0x36 | lp(dst) | lp(delegator) | lp(src) → empty (redelegations by destination validator)
 *   0x41 | time                              → DVPairs, protobuf (unbonding queue)
 *   0x42 | time                              → DVVTriplets, protobuf (redelegation queue)
 *   0x43 | len(time) (8 bytes BE) | time | height (8 bytes BE) → ValAddresses, protobuf (validator queue)
 *   0x50 | height as decimal text            → HistoricalInfo, protobuf
 *   0x51                                     → Params, protobuf
 * v0.45 keeps the params in the x/params subspace `staking`; this chain has no params module, so they
 * live in the module store under 0x51, the key the SDK gives them from v0.47 (`ParamsKey`).
 */
import type { ProtoRegistry } from '@chain/codec';
import {
  BaseKeyCodec, EncodingError, Schema, bytesValue, lazyProtoValue, lengthPrefixedBytesKey, pairKey, stringKey, tripleKey, uint64Key,
} from '@chain/collections';
import type { Cursor, KeyCodec, ValueCodec } from '@chain/collections';
import type {
  DVPairs, DVVTriplets, Delegation, HistoricalInfo, Params, Redelegation, UnbondingDelegation, ValAddresses, Validator,
} from './gen/chain/staking/v1beta1.js';

export const MODULE_NAME = 'staking';
export const STORE_KEY = 'staking';
/** the module accounts holding the bonded and the not-bonded stake (the SDK's `BondedPoolName` / `NotBondedPoolName`) */
export const BONDED_POOL_NAME = 'bonded_tokens_pool';
export const NOT_BONDED_POOL_NAME = 'not_bonded_tokens_pool';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

// ---- key codecs of the SDK's legacy layouts ----

/**
 * `len(addr) | ^addr`: an operator address with every bit inverted behind its length byte, the tail of the
 * power index key (`GetValidatorsByPowerIndexKey`). The decoded key is the real (non-inverted) address.
 * Self-delimiting, so terminal and non-terminal encodings are the same.
 */
class InvertedAddressKeyCodec extends BaseKeyCodec<Uint8Array> {
  readonly keyType = 'inverted_address';
  size(key: Uint8Array): number {
    if (!(key instanceof Uint8Array)) throw new EncodingError('inverted address key: not bytes');
    if (key.length > 255) throw new EncodingError(`inverted address key: ${key.length} bytes is longer than 255`);
    return 1 + key.length;
  }
  write(buf: Uint8Array, pos: number, key: Uint8Array): number {
    buf[pos++] = key.length;
    for (let i = 0; i < key.length; i++) buf[pos++] = ~key[i]! & 0xff;
    return pos;
  }
  read(buf: Uint8Array, start: number, end: number): Uint8Array {
    const cur: Cursor = { pos: start, end };
    const k = this.readNonTerminal(buf, cur);
    if (cur.pos !== end) throw new EncodingError(`inverted address key: ${end - cur.pos} trailing bytes`);
    return k;
  }
  sizeNonTerminal(key: Uint8Array): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: Uint8Array): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): Uint8Array {
    if (cur.pos >= cur.end) throw new EncodingError('inverted address key: missing length byte');
    const n = buf[cur.pos]!;
    if (cur.pos + 1 + n > cur.end) throw new EncodingError(`inverted address key: length ${n} exceeds the key`);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = ~buf[cur.pos + 1 + i]! & 0xff;
    cur.pos += 1 + n;
    return out;
  }
  stringify(key: Uint8Array): string {
    return `^0x${Buffer.from(key).toString('hex')}`;
  }
}
export const invertedAddressKey: KeyCodec<Uint8Array> = new InvertedAddressKeyCodec();

/** `len (8 bytes BE) | utf8`: the time part of the validator queue key (`GetValidatorQueueKey`). */
class U64LengthStringKeyCodec extends BaseKeyCodec<string> {
  readonly keyType = 'u64_length_string';
  size(key: string): number {
    if (typeof key !== 'string') throw new EncodingError('u64-length string key: not a string');
    return 8 + Buffer.byteLength(key, 'utf8');
  }
  write(buf: Uint8Array, pos: number, key: string): number {
    const bytes = Buffer.from(key, 'utf8');
    new DataView(buf.buffer, buf.byteOffset, buf.byteLength).setBigUint64(pos, BigInt(bytes.length));
    buf.set(bytes, pos + 8);
    return pos + 8 + bytes.length;
  }
  read(buf: Uint8Array, start: number, end: number): string {
    const cur: Cursor = { pos: start, end };
    const k = this.readNonTerminal(buf, cur);
    if (cur.pos !== end) throw new EncodingError(`u64-length string key: ${end - cur.pos} trailing bytes`);
    return k;
  }
  sizeNonTerminal(key: string): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: string): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): string {
    if (cur.pos + 8 > cur.end) throw new EncodingError('u64-length string key: missing length');
    const n = Number(new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getBigUint64(cur.pos));
    if (cur.pos + 8 + n > cur.end) throw new EncodingError(`u64-length string key: length ${n} exceeds the key`);
    const s = Buffer.from(buf.subarray(cur.pos + 8, cur.pos + 8 + n)).toString('utf8');
    cur.pos += 8 + n;
    return s;
  }
  stringify(key: string): string {
    return JSON.stringify(key);
  }
}

/** A height as its decimal text (`strconv.FormatInt(height, 10)`, the v0.45 `GetHistoricalInfoKey`); terminal only. */
class DecimalHeightKeyCodec extends BaseKeyCodec<bigint> {
  readonly keyType = 'decimal_height';
  size(key: bigint): number {
    if (typeof key !== 'bigint') throw new EncodingError('decimal height key: not a bigint');
    return key.toString().length;
  }
  write(buf: Uint8Array, pos: number, key: bigint): number {
    const s = key.toString();
    for (let i = 0; i < s.length; i++) buf[pos++] = s.charCodeAt(i);
    return pos;
  }
  read(buf: Uint8Array, start: number, end: number): bigint {
    const s = Buffer.from(buf.subarray(start, end)).toString('latin1');
    if (!/^-?\d+$/.test(s)) throw new EncodingError(`decimal height key: not decimal text: ${JSON.stringify(s)}`);
    return BigInt(s);
  }
  sizeNonTerminal(): number {
    throw new EncodingError('decimal height key: only a whole key');
  }
  writeNonTerminal(): number {
    throw new EncodingError('decimal height key: only a whole key');
  }
  readNonTerminal(): bigint {
    throw new EncodingError('decimal height key: only a whole key');
  }
  stringify(key: bigint): string {
    return key.toString();
  }
}
export const decimalHeightKey: KeyCodec<bigint> = new DecimalHeightKeyCodec();

/** The validator queue key: (time text, height). */
export const validatorQueueKey = pairKey(new U64LengthStringKeyCodec(), uint64Key);

// ---- value codecs ----

/** protobuf varint */
function writeVarint(out: number[], v: bigint): void {
  let x = BigInt.asUintN(64, v);
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
}

/**
 * The SDK's `gogotypes.Int64Value{Value: power}` (the value of 0x11): field 1 varint, omitted when 0.
 * Written by hand: the registry need not hold the wrapper types.
 */
export const int64ProtoValue: ValueCodec<bigint> = {
  valueType: 'proto:google.protobuf.Int64Value',
  encode(value) {
    if (typeof value !== 'bigint') throw new EncodingError('Int64Value: not a bigint');
    if (value === 0n) return new Uint8Array(0);
    const out = [0x08];
    writeVarint(out, value);
    return Uint8Array.from(out);
  },
  decode(bytes) {
    if (bytes.length === 0) return 0n;
    if (bytes[0] !== 0x08) throw new EncodingError(`Int64Value: unexpected tag 0x${bytes[0]!.toString(16)}`);
    let x = 0n;
    let shift = 0n;
    let i = 1;
    for (; i < bytes.length; i++) {
      const b = bytes[i]!;
      x |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) break;
    }
    if (i !== bytes.length - 1) throw new EncodingError('Int64Value: malformed varint');
    return BigInt.asIntN(64, x);
  },
  stringify: (v) => v.toString(),
};

/** The SDK's `sdk.IntProto{Int}` (the value of 0x12): field 1, the decimal text (always written). */
export function intProtoValue(registry: ProtoRegistry): ValueCodec<bigint> {
  const inner = lazyProtoValue<{ int: string }>(registry, 'chain.base.v1beta1.IntProto');
  return {
    valueType: 'proto:chain.base.v1beta1.IntProto',
    encode: (v) => inner.encode({ int: v.toString() }),
    decode: (b) => BigInt(inner.decode(b).int || '0'),
    stringify: (v) => v.toString(),
  };
}

/** The staking schema: build one per keeper (`StakingKeeper.state`). */
export function stakingSchema(registry: ProtoRegistry) {
  const proto = <T extends object>(name: string) => lazyProtoValue<T>(registry, `chain.staking.v1beta1.${name}`);
  const lp = lengthPrefixedBytesKey;
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /** SDK `LastValidatorPowerKey` 0x11: power of each validator of the last set, by operator. */
    LastValidatorPower: schema.map(0x11, 'last_validator_power', lp, int64ProtoValue),
    /** SDK `LastTotalPowerKey` 0x12: the total power of the last set. */
    LastTotalPower: schema.item(0x12, 'last_total_power', intProtoValue(registry)),
    /** SDK `ValidatorsKey` 0x21: validators by operator address. */
    Validators: schema.map(0x21, 'validators', lp, proto<Validator>('Validator')),
    /** SDK `ValidatorsByConsAddrKey` 0x22: consensus address → operator address (raw). */
    ValidatorsByConsAddr: schema.map(0x22, 'validators_by_cons_addr', lp, bytesValue),
    /**
     * SDK `ValidatorsByPowerIndexKey` 0x23: (consensus power, operator) → operator address (raw). Iterated
     * in reverse: higher power first; on equal power the smaller operator address first (it is inverted).
     */
    ValidatorsByPower: schema.map(0x23, 'validators_by_power', pairKey(uint64Key, invertedAddressKey), bytesValue),
    /** SDK `DelegationKey` 0x31: delegations by (delegator, validator). */
    Delegations: schema.map(0x31, 'delegations', pairKey(lp, lp), proto<Delegation>('Delegation')),
    /** SDK `UnbondingDelegationKey` 0x32: unbonding delegations by (delegator, validator). */
    UnbondingDelegations: schema.map(0x32, 'unbonding_delegations', pairKey(lp, lp), proto<UnbondingDelegation>('UnbondingDelegation')),
    /** SDK `UnbondingDelegationByValIndexKey` 0x33: (validator, delegator), empty value. */
    UnbondingDelegationsByValidator: schema.keySet(0x33, 'unbonding_delegations_by_validator', pairKey(lp, lp)),
    /** SDK `RedelegationKey` 0x34: redelegations by (delegator, source, destination). */
    Redelegations: schema.map(0x34, 'redelegations', tripleKey(lp, lp, lp), proto<Redelegation>('Redelegation')),
    /** SDK `RedelegationByValSrcIndexKey` 0x35: (source, delegator, destination), empty value. */
    RedelegationsBySrc: schema.keySet(0x35, 'redelegations_by_src', tripleKey(lp, lp, lp)),
    /** SDK `RedelegationByValDstIndexKey` 0x36: (destination, delegator, source), empty value. */
    RedelegationsByDst: schema.keySet(0x36, 'redelegations_by_dst', tripleKey(lp, lp, lp)),
    /** SDK `UnbondingQueueKey` 0x41: completion time → the (delegator, validator) pairs maturing then. */
    UnbondingQueue: schema.map(0x41, 'unbonding_queue', stringKey, proto<DVPairs>('DVPairs')),
    /** SDK `RedelegationQueueKey` 0x42: completion time → the triplets maturing then. */
    RedelegationQueue: schema.map(0x42, 'redelegation_queue', stringKey, proto<DVVTriplets>('DVVTriplets')),
    /** SDK `ValidatorQueueKey` 0x43: (unbonding time, unbonding height) → the operators unbonding then. */
    ValidatorQueue: schema.map(0x43, 'validator_queue', validatorQueueKey, proto<ValAddresses>('ValAddresses')),
    /** SDK `HistoricalInfoKey` 0x50: historical info by height. */
    HistoricalInfo: schema.map(0x50, 'historical_info', decimalHeightKey, proto<HistoricalInfo>('HistoricalInfo')),
    /** The params (0x51, see above). */
    Params: schema.item(0x51, 'params', proto<Params>('Params')),
  };
}

/** The collections of `stakingSchema`. */
export type StakingState = ReturnType<typeof stakingSchema>;
