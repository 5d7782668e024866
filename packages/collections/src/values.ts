/**
 * Value codecs. bytes / string / uint64 / bool match cosmossdk.io/collections (which derives them from
 * the key codecs' terminal encodings: `codec.KeyToValueCodec(BytesKey | StringKey | Uint64Key | BoolKey)`).
 * Decoding is strict: wrong lengths, invalid UTF-8, bad JSON or protobuf bytes throw EncodingError.
 */
import type { ProtoObject, ProtoRegistry } from '@chain/codec';
import type { KeyCodec } from './key-codec.js';
import { EncodingError } from './errors.js';
import { hex, readUtf8, utf8 } from './bytes.js';
import { readU64, writeU64 } from './keys.js';
import { IdentityMemo, clonePlain } from './memo.js';

export interface ValueCodec<V> {
  /** A readable type name, e.g. `uint64`, `proto:chain.base.v1beta1.Coin`. */
  readonly valueType: string;
  encode(value: V): Uint8Array;
  /** Throws EncodingError on bytes this codec did not produce. */
  decode(bytes: Uint8Array): V;
  /** A human-readable form for error messages. */
  stringify(value: V): string;
}

const MAX_U64 = (1n << 64n) - 1n;

/** The bytes as stored (not copied: do not mutate a value after `set`, nor a value returned by `get`). */
export const bytesValue: ValueCodec<Uint8Array> = {
  valueType: 'bytes',
  encode(value) {
    if (!(value instanceof Uint8Array)) throw new EncodingError(`bytes value: ${typeof value} is not a Uint8Array`);
    return value;
  },
  decode: (bytes) => bytes,
  stringify: (value) => '0x' + hex(value),
};

/** UTF-8 text. */
export const stringValue: ValueCodec<string> = {
  valueType: 'string',
  encode(value) {
    if (typeof value !== 'string') throw new EncodingError(`string value: ${typeof value} is not a string`);
    return utf8(value);
  },
  decode(bytes) {
    try {
      return readUtf8(bytes, 0, bytes.length);
    } catch (e) {
      throw new EncodingError(`string value: invalid UTF-8 (${(e as Error).message})`);
    }
  },
  stringify: (value) => JSON.stringify(value),
};

/** bigint in [0, 2^64) as 8 bytes big-endian (like the SDK's Uint64Value, which Sequence uses). */
export const uint64Value: ValueCodec<bigint> = {
  valueType: 'uint64',
  encode(value) {
    if (typeof value !== 'bigint' || value < 0n || value > MAX_U64) {
      throw new EncodingError(`uint64 value: ${String(value)} (${typeof value}) is not a bigint in [0, 2^64)`);
    }
    const out = new Uint8Array(8);
    writeU64(out, 0, value);
    return out;
  },
  decode(bytes) {
    if (bytes.length !== 8) throw new EncodingError(`uint64 value: want 8 bytes, got ${bytes.length}`);
    return readU64(bytes, 0);
  },
  stringify: (value) => value.toString(),
};

const FALSE = Uint8Array.of(0);
const TRUE = Uint8Array.of(1);

/** false = 0x00, true = 0x01. */
export const boolValue: ValueCodec<boolean> = {
  valueType: 'bool',
  encode(value) {
    if (typeof value !== 'boolean') throw new EncodingError(`bool value: ${typeof value} is not a boolean`);
    // shared instances: stores keep values by reference and never mutate them
    return value ? TRUE : FALSE;
  },
  decode(bytes) {
    if (bytes.length === 1) {
      if (bytes[0] === 0) return false;
      if (bytes[0] === 1) return true;
    }
    throw new EncodingError(`bool value: want one byte 0x00 or 0x01, got 0x${hex(bytes)}`);
  },
  stringify: (value) => String(value),
};

/**
 * UTF-8 JSON (`JSON.stringify` / `JSON.parse`): for plain data only. bigint, undefined and functions are
 * not JSON; encoding a bigint throws.
 */
export function jsonValue<T>(): ValueCodec<T> {
  return {
    valueType: 'json',
    encode(value) {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch (e) {
        throw new EncodingError(`json value: ${(e as Error).message}`);
      }
      if (text === undefined) throw new EncodingError(`json value: ${typeof value} has no JSON form`);
      return utf8(text);
    },
    decode(bytes) {
      try {
        return JSON.parse(readUtf8(bytes, 0, bytes.length)) as T;
      } catch (e) {
        throw new EncodingError(`json value: ${(e as Error).message}`);
      }
    },
    stringify(value) {
      try {
        return JSON.stringify(value) ?? String(value);
      } catch {
        return String(value);
      }
    },
  };
}

/**
 * A protobuf message through the codec registry: plain objects with snake_case field names, 64-bit
 * integers as bigint (`registry.encode` / `registry.decode`). The type must be known to the registry.
 */
export function protoValue<T extends object = ProtoObject>(registry: ProtoRegistry, typeName: string): ValueCodec<T> {
  if (!registry.hasType(typeName)) throw new EncodingError(`proto value: unknown message type ${typeName}`);
  // the same stored bytes decode once; each caller gets its own copy to change (./memo.ts)
  const memo = new IdentityMemo<Uint8Array, T>();
  return {
    valueType: `proto:${typeName}`,
    encode(value) {
      try {
        return registry.encode(typeName, value as ProtoObject);
      } catch (e) {
        throw new EncodingError(`proto value ${typeName}: ${(e as Error).message}`);
      }
    },
    decode(bytes) {
      let v = memo.get(bytes);
      if (v === undefined) {
        try {
          v = registry.decode<T>(typeName, bytes);
        } catch (e) {
          throw new EncodingError(`proto value ${typeName}: ${(e as Error).message}`);
        }
        memo.set(bytes, v);
      }
      return clonePlain(v);
    },
    stringify(value) {
      try {
        return JSON.stringify(registry.toJSON(typeName, value as ProtoObject));
      } catch {
        return `<${typeName}>`;
      }
    },
  };
}

/** A key codec's terminal encoding used as a value codec (the SDK's `codec.KeyToValueCodec`). */
export function keyAsValue<K>(kc: KeyCodec<K, unknown>): ValueCodec<K> {
  return {
    valueType: kc.keyType,
    encode: (value) => kc.encode(value),
    decode: (bytes) => kc.decode(bytes),
    stringify: (value) => kc.stringify(value),
  };
}
