/** JSON with bytes and bigints, for block-store records (not a wire format). */
import { bytesToString } from '@chain/crypto';

export function serialize(v: unknown): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify(v, function (this: Record<string, unknown>, k: string, json: unknown) {
      // JSON.stringify applies toJSON (Buffer → {type,data}, Date → string) before the replacer: look at
      // the original value in its holder.
      const x = this[k];
      if (x instanceof Uint8Array) return { $b: bytesToString(x, 'base64') };
      if (typeof x === 'bigint') return { $n: x.toString() };
      if (x instanceof Date) return { $d: x.toISOString() };
      return json;
    }),
  );
}

export function deserialize<T>(bz: Uint8Array): T {
  return JSON.parse(new TextDecoder().decode(bz), (_k, x: unknown) => {
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      const o = x as Record<string, unknown>;
      if (typeof o.$b === 'string') return new Uint8Array(Buffer.from(o.$b, 'base64'));
      if (typeof o.$n === 'string') return BigInt(o.$n);
      if (typeof o.$d === 'string') return new Date(o.$d);
    }
    return x;
  }) as T;
}
