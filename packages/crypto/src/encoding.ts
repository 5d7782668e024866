/** Byte encodings (hex, base64, bech32) shared by every package. */
import { bech32 } from '@scure/base';

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new Error(`invalid hex string: ${hex.slice(0, 80)}`);
  return new Uint8Array(Buffer.from(h, 'hex'));
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Strict standard base64 (padding optional); URL-safe alphabet accepted too. */
export function fromBase64(text: string): Uint8Array {
  const t = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.replace(/=+$/, '').length % 4 === 1) throw new Error('invalid base64 string');
  return new Uint8Array(Buffer.from(t, 'base64'));
}

export function utf8(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

export function fromUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/**
 * A bounded memo of recent conversions (two generations of at most `half` entries each), like the SDK's address
 * string caches: the same few addresses are encoded and decoded many times per block (events, messages, keys).
 */
class Memo<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  constructor(private readonly half: number) {}
  get(k: string): V | undefined {
    const y = this.young.get(k);
    if (y !== undefined) return y;
    const o = this.old.get(k);
    if (o !== undefined) this.set(k, o);
    return o;
  }
  set(k: string, v: V): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(k, v);
  }
}

const ENCODED = new Memo<string>(30_000);
const DECODED = new Memo<Bech32Decoded>(30_000);

/** Bech32 of any length: like the SDK's `bech32.ConvertAndEncode`, encoding has no length limit (decoding has). */
export function toBech32(prefix: string, data: Uint8Array): string {
  if (data.length > 64) return bech32.encode(prefix, bech32.toWords(data), false);
  const k = `${prefix}\u0000${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1')}`;
  let s = ENCODED.get(k);
  if (s === undefined) {
    s = bech32.encode(prefix, bech32.toWords(data), false);
    ENCODED.set(k, s);
  }
  return s;
}

export interface Bech32Decoded { readonly prefix: string; readonly data: Uint8Array }

/** Decodes a bech32 string; throws `decoding bech32 failed: <reason>` like the Cosmos SDK. */
export function fromBech32(text: string): Bech32Decoded {
  const hit = text.length <= 128 ? DECODED.get(text) : undefined;
  // a fresh copy of the bytes: callers may keep or change them
  if (hit !== undefined) return { prefix: hit.prefix, data: hit.data.slice() };
  let out: Bech32Decoded;
  try {
    const { prefix, words } = bech32.decode(text as `${string}1${string}`, 1023);
    out = { prefix, data: bech32.fromWords(words) };
  } catch (e) {
    throw new Error(`decoding bech32 failed: ${(e as Error).message}`);
  }
  if (text.length <= 128) DECODED.set(text, { prefix: out.prefix, data: out.data.slice() });
  return out;
}

/**
 * A bech32 address codec of one prefix (account `chain`, operator `chainvaloper`, consensus `chainvalcons`),
 * decoding as the SDK's address types do: empty text, bad bech32, another prefix and a length outside
 * 1-255 bytes are refused with the SDK's messages.
 */
export class Bech32Codec {
  constructor(readonly prefix: string) {}

  encode(bytes: Uint8Array): string {
    return toBech32(this.prefix, bytes);
  }

  /** Throws `empty address string is not allowed`, `decoding bech32 failed: …` or a prefix / length error. */
  decode(text: string): Uint8Array {
    return decodeAddress(text, [this.prefix]);
  }
}

/** Decodes an address whose prefix is one of `prefixes` (the first is named in the error). */
export function decodeAddress(text: string, prefixes: readonly string[]): Uint8Array {
  if (!text || !text.trim()) throw new Error('empty address string is not allowed');
  const { prefix, data } = fromBech32(text);
  if (!prefixes.includes(prefix)) throw new Error(`invalid Bech32 prefix; expected ${prefixes[0]}, got ${prefix}`);
  if (data.length === 0 || data.length > 255) throw new Error(`address length must be 1-255 bytes, got ${data.length}`);
  return data;
}
