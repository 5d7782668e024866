/** Byte encodings (hex, base64, bech32) shared by every package. */
import { bech32 } from '@scure/base';

type Slice = (this: Uint8Array, start: number, end: number) => string;
const BUFFER_SLICES = Buffer.prototype as unknown as Partial<Record<'hexSlice' | 'base64Slice' | 'utf8Slice' | 'latin1Slice', Slice>>;
const HEX_SLICE = BUFFER_SLICES.hexSlice;
const BASE64_SLICE = BUFFER_SLICES.base64Slice;
const UTF8_SLICE = BUFFER_SLICES.utf8Slice;
const LATIN1_SLICE = BUFFER_SLICES.latin1Slice;

/**
 * Bytes as text in one of Node's encodings, through the Buffer method that `toString` calls, applied to the bytes as
 * they are (the `*Slice` methods take any Uint8Array; undocumented, in every Node.js release). Making a Buffer view
 * first (`Buffer.from(bytes.buffer, ...)`) makes V8 move a small typed array's bytes off its heap into an
 * ArrayBuffer of their own: 3-4x the cost of the conversion for 20-64 bytes, the size of addresses, hashes and keys.
 */
export function bytesToString(bytes: Uint8Array, encoding: 'hex' | 'base64' | 'utf8' | 'latin1'): string {
  const slice = encoding === 'hex' ? HEX_SLICE : encoding === 'base64' ? BASE64_SLICE : encoding === 'utf8' ? UTF8_SLICE : LATIN1_SLICE;
  if (slice !== undefined) return slice.call(bytes, 0, bytes.length);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

export function toHex(bytes: Uint8Array): string {
  return bytesToString(bytes, 'hex');
}

export function fromHex(hex: string): Uint8Array {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new Error(`invalid hex string: ${hex.slice(0, 80)}`);
  return new Uint8Array(Buffer.from(h, 'hex'));
}

export function toBase64(bytes: Uint8Array): string {
  return bytesToString(bytes, 'base64');
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
  return bytesToString(bytes, 'utf8');
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

// ---- a table-driven bech32 (BIP 173) for the common case; anything else goes through @scure/base ----

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** char code (0-127) → 5-bit value, -1 outside the alphabet */
const CHARSET_REV = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARSET.length; i++) CHARSET_REV[CHARSET.charCodeAt(i)] = i;

/** The BIP 173 generators xored together for each value of the checksum's top 5 bits. */
const POLYMOD_TABLE = new Int32Array(32);
for (let b = 0; b < 32; b++) {
  const gens = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let x = 0;
  for (let i = 0; i < 5; i++) if ((b >> i) & 1) x ^= gens[i]!;
  POLYMOD_TABLE[b] = x;
}

/** One step of the BIP 173 checksum (the state transition before the next 5-bit value is xored in). */
function polymodStep(pre: number): number {
  return ((pre & 0x1ffffff) << 5) ^ POLYMOD_TABLE[pre >>> 25]!;
}

/** The checksum state after the expanded human-readable part (prefix chars 33-126, checked by the caller). */
function prefixChecksum(prefix: string, end: number): number {
  let chk = 1;
  for (let i = 0; i < end; i++) chk = polymodStep(chk) ^ (prefix.charCodeAt(i) >> 5);
  chk = polymodStep(chk);
  for (let i = 0; i < end; i++) chk = polymodStep(chk) ^ (prefix.charCodeAt(i) & 0x1f);
  return chk;
}

/**
 * Decodes a lowercase bech32 string in one pass without intermediate arrays; undefined whenever @scure/base
 * would do anything but return this same result (uppercase, bad characters, lengths, checksum, padding):
 * the caller then asks @scure/base, for its result or its error.
 */
function fastBech32Decode(text: string, limit: number): Bech32Decoded | undefined {
  const n = text.length;
  if (n < 8 || n > limit) return undefined;
  let sep = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // printable ASCII without uppercase letters: `text` is its own lowercase form
    if (c < 33 || c > 126 || (c >= 0x41 && c <= 0x5a)) return undefined;
    if (c === 0x31) sep = i;
  }
  if (sep < 1 || n - sep - 1 < 6) return undefined;
  let chk = prefixChecksum(text, sep);
  const words = n - sep - 1 - 6;
  const bytes = Math.floor((words * 5) / 8);
  const out = new Uint8Array(bytes);
  let carry = 0;
  let bits = 0;
  let j = 0;
  for (let i = sep + 1; i < n; i++) {
    const v = CHARSET_REV[text.charCodeAt(i)]!;
    if (v < 0) return undefined;
    chk = polymodStep(chk) ^ v;
    if (i < n - 6) {
      carry = ((carry << 5) | v) & 0xffff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        out[j++] = (carry >> bits) & 0xff;
      }
    }
  }
  // checksum (bech32, not bech32m), then canonical padding: fewer than 5 leftover bits, all zero
  if (chk !== 1 || bits >= 5 || (carry & ((1 << bits) - 1)) !== 0) return undefined;
  return { prefix: text.slice(0, sep), data: out };
}

/** Encodes as @scure/base's `bech32.encode(prefix, toWords(data), false)` for a prefix of chars 33-126 but A-Z. */
function fastBech32Encode(prefix: string, data: Uint8Array): string | undefined {
  const plen = prefix.length;
  if (plen === 0) return undefined;
  for (let i = 0; i < plen; i++) {
    const c = prefix.charCodeAt(i);
    if (c < 33 || c > 126 || (c >= 0x41 && c <= 0x5a)) return undefined;
  }
  let chk = prefixChecksum(prefix, plen);
  let s = prefix + '1';
  let carry = 0;
  let bits = 0;
  const len = data.length;
  for (let i = 0; i < len; i++) {
    carry = ((carry << 8) | data[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      const v = (carry >> bits) & 31;
      chk = polymodStep(chk) ^ v;
      s += CHARSET[v]!;
    }
  }
  if (bits > 0) {
    const v = (carry << (5 - bits)) & 31;
    chk = polymodStep(chk) ^ v;
    s += CHARSET[v]!;
  }
  for (let i = 0; i < 6; i++) chk = polymodStep(chk);
  chk ^= 1;
  for (let i = 0; i < 6; i++) s += CHARSET[(chk >>> (5 * (5 - i))) & 31]!;
  return s;
}

/** Bech32 of any length: like the SDK's `bech32.ConvertAndEncode`, encoding has no length limit (decoding has). */
export function toBech32(prefix: string, data: Uint8Array): string {
  if (data.length > 64) return fastBech32Encode(prefix, data) ?? bech32.encode(prefix, bech32.toWords(data), false);
  const k = `${prefix}\u0000${bytesToString(data, 'latin1')}`;
  let s = ENCODED.get(k);
  if (s === undefined) {
    s = fastBech32Encode(prefix, data) ?? bech32.encode(prefix, bech32.toWords(data), false);
    ENCODED.set(k, s);
  }
  return s;
}

export interface Bech32Decoded { readonly prefix: string; readonly data: Uint8Array }

/** Decodes a bech32 string; throws `decoding bech32 failed: <reason>` like the Cosmos SDK. */
export function fromBech32(text: string): Bech32Decoded {
  // a fresh result each time: callers may keep or change the bytes
  if (typeof text === 'string') {
    const fast = fastBech32Decode(text, 1023);
    if (fast !== undefined) return fast;
  } else {
    // null or undefined: the TypeError it always was
    void (text as { length?: number }).length;
  }
  try {
    const { prefix, words } = bech32.decode(text as `${string}1${string}`, 1023);
    return { prefix, data: bech32.fromWords(words) };
  } catch (e) {
    throw new Error(`decoding bech32 failed: ${(e as Error).message}`);
  }
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
