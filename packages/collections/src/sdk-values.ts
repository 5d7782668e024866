/** Value codecs of the SDK's `types/collections.go` and `codec.CollValue`, as modules use them. */
import type { ProtoRegistry } from '@chain/codec';
import { EncodingError } from './errors.js';
import { protoValue } from './values.js';
import type { ValueCodec } from './values.js';

/**
 * The SDK's `sdk.IntValue` (types/collections.go): a non-negative or negative integer as its decimal text
 * (`math.Int.Marshal`), the encoding of balances (`BalanceValueCodec`) and supply. Decoding is strict
 * (`-?[0-9]+`).
 */
export const intValue: ValueCodec<bigint> = {
  valueType: 'math.Int',
  encode(value) {
    if (typeof value !== 'bigint') throw new EncodingError(`math.Int value: ${typeof value} is not a bigint`);
    const s = value.toString();
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  },
  decode(bytes) {
    const n = bytes.length;
    const neg = n > 0 && bytes[0] === 0x2d; // '-'
    const start = neg ? 1 : 0;
    if (n === start) throw new EncodingError(`math.Int value: want decimal digits, got ${n} bytes`);
    if (n - start <= 15) {
      // < 10^15 < 2^53: exact as a double
      let v = 0;
      for (let i = start; i < n; i++) {
        const d = bytes[i]! - 0x30;
        if (d < 0 || d > 9) throw notDecimal(bytes);
        v = v * 10 + d;
      }
      return BigInt(neg ? -v : v);
    }
    let s = neg ? '-' : '';
    for (let i = start; i < n; i++) {
      const c = bytes[i]!;
      if (c < 0x30 || c > 0x39) throw notDecimal(bytes);
      s += String.fromCharCode(c);
    }
    return BigInt(s);
  },
  stringify: (value) => value.toString(),
};

function notDecimal(bytes: Uint8Array): EncodingError {
  return new EncodingError(`math.Int value: not decimal text: 0x${Buffer.from(bytes).toString('hex')}`);
}

/**
 * The SDK's `codec.CollValue[T](cdc)`: a protobuf message through the registry (`protoValue`), resolved on
 * first use. A module's schema is declared when its keeper is built, before the app loads the module's
 * protos into the registry: `protoValue` would refuse the type then.
 */
export function lazyProtoValue<T extends object>(registry: ProtoRegistry, typeName: string): ValueCodec<T> {
  let codec: ValueCodec<T> | undefined;
  const c = (): ValueCodec<T> => (codec ??= protoValue<T>(registry, typeName));
  return {
    valueType: `proto:${typeName}`,
    encode: (value) => c().encode(value),
    decode: (bytes) => c().decode(bytes),
    stringify: (value) => c().stringify(value),
  };
}
