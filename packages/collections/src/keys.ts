/**
 * Primitive key codecs. Byte layouts follow cosmossdk.io/collections/codec (bytes.go, string.go,
 * uint.go, int.go, bool.go); see the README for the table.
 */
import { BaseKeyCodec } from './key-codec.js';
import type { Cursor, KeyCodec } from './key-codec.js';
import { EncodingError } from './errors.js';
import { hex, isWellFormed, readUtf8, utf8Length, writeUtf8 } from './bytes.js';

const MAX_U64 = (1n << 64n) - 1n;
const I64_OFFSET = 1n << 63n;
const MIN_I64 = -I64_OFFSET;
const MAX_I64 = I64_OFFSET - 1n;

/** Longest bytes key usable as a non-terminal part (its length must fit the one-byte length prefix). */
export const MAX_BYTES_KEY_NON_TERMINAL_SIZE = 255;

function checkRemaining(keyType: string, cur: Cursor, n: number): void {
  if (cur.end - cur.pos < n) {
    throw new EncodingError(`${keyType} key: want ${n} bytes, got ${cur.end - cur.pos}`);
  }
}

function checkExact(keyType: string, start: number, end: number, n: number): void {
  if (end - start !== n) throw new EncodingError(`${keyType} key: want ${n} bytes, got ${end - start}`);
}

/** Write a value 0 <= v < 2^64 as 8 bytes big-endian. */
export function writeU64(buf: Uint8Array, pos: number, v: bigint): number {
  let hi: number;
  let lo: number;
  if (v <= 0xffffffffn) {
    hi = 0;
    lo = Number(v);
  } else {
    hi = Number(v >> 32n);
    lo = Number(v & 0xffffffffn);
  }
  buf[pos] = hi >>> 24;
  buf[pos + 1] = (hi >>> 16) & 0xff;
  buf[pos + 2] = (hi >>> 8) & 0xff;
  buf[pos + 3] = hi & 0xff;
  buf[pos + 4] = lo >>> 24;
  buf[pos + 5] = (lo >>> 16) & 0xff;
  buf[pos + 6] = (lo >>> 8) & 0xff;
  buf[pos + 7] = lo & 0xff;
  return pos + 8;
}

/** Read 8 bytes big-endian as an unsigned bigint. */
export function readU64(buf: Uint8Array, pos: number): bigint {
  const hi = ((buf[pos]! << 24) | (buf[pos + 1]! << 16) | (buf[pos + 2]! << 8) | buf[pos + 3]!) >>> 0;
  const lo = ((buf[pos + 4]! << 24) | (buf[pos + 5]! << 16) | (buf[pos + 6]! << 8) | buf[pos + 7]!) >>> 0;
  if (hi < 0x200000) return BigInt(hi * 0x100000000 + lo); // < 2^53: exact as a double
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** A key whose terminal and non-terminal encodings are the same fixed-width bytes. */
abstract class FixedKeyCodec<K> extends BaseKeyCodec<K> {
  abstract readonly width: number;
  protected abstract check(key: K): void;
  protected abstract put(buf: Uint8Array, pos: number, key: K): void;
  protected abstract get(buf: Uint8Array, pos: number): K;

  size(key: K): number {
    this.check(key);
    return this.width;
  }
  write(buf: Uint8Array, pos: number, key: K): number {
    this.check(key);
    this.put(buf, pos, key);
    return pos + this.width;
  }
  read(buf: Uint8Array, start: number, end: number): K {
    checkExact(this.keyType, start, end, this.width);
    return this.get(buf, start);
  }
  sizeNonTerminal(key: K): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: K): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): K {
    checkRemaining(this.keyType, cur, this.width);
    const key = this.get(buf, cur.pos);
    cur.pos += this.width;
    return key;
  }
}

class Uint64KeyCodec extends FixedKeyCodec<bigint> {
  readonly keyType = 'uint64';
  readonly width = 8;
  protected check(key: bigint): void {
    if (typeof key !== 'bigint' || key < 0n || key > MAX_U64) {
      throw new EncodingError(`uint64 key: ${String(key)} (${typeof key}) is not a bigint in [0, 2^64)`);
    }
  }
  protected put(buf: Uint8Array, pos: number, key: bigint): void {
    writeU64(buf, pos, key);
  }
  protected get(buf: Uint8Array, pos: number): bigint {
    return readU64(buf, pos);
  }
  stringify(key: bigint): string {
    return key.toString();
  }
}

class Int64KeyCodec extends FixedKeyCodec<bigint> {
  readonly keyType = 'int64';
  readonly width = 8;
  protected check(key: bigint): void {
    if (typeof key !== 'bigint' || key < MIN_I64 || key > MAX_I64) {
      throw new EncodingError(`int64 key: ${String(key)} (${typeof key}) is not a bigint in [-2^63, 2^63)`);
    }
  }
  protected put(buf: Uint8Array, pos: number, key: bigint): void {
    // two's complement with the sign bit flipped == key + 2^63
    writeU64(buf, pos, key + I64_OFFSET);
  }
  protected get(buf: Uint8Array, pos: number): bigint {
    return readU64(buf, pos) - I64_OFFSET;
  }
  stringify(key: bigint): string {
    return key.toString();
  }
}

class Uint32KeyCodec extends FixedKeyCodec<number> {
  readonly keyType = 'uint32';
  readonly width = 4;
  protected check(key: number): void {
    if (typeof key !== 'number' || !Number.isInteger(key) || key < 0 || key > 0xffffffff) {
      throw new EncodingError(`uint32 key: ${String(key)} (${typeof key}) is not an integer in [0, 2^32)`);
    }
  }
  protected put(buf: Uint8Array, pos: number, key: number): void {
    buf[pos] = key >>> 24;
    buf[pos + 1] = (key >>> 16) & 0xff;
    buf[pos + 2] = (key >>> 8) & 0xff;
    buf[pos + 3] = key & 0xff;
  }
  protected get(buf: Uint8Array, pos: number): number {
    return ((buf[pos]! << 24) | (buf[pos + 1]! << 16) | (buf[pos + 2]! << 8) | buf[pos + 3]!) >>> 0;
  }
  stringify(key: number): string {
    return String(key);
  }
}

class BoolKeyCodec extends FixedKeyCodec<boolean> {
  readonly keyType = 'bool';
  readonly width = 1;
  protected check(key: boolean): void {
    if (typeof key !== 'boolean') throw new EncodingError(`bool key: ${String(key)} (${typeof key}) is not a boolean`);
  }
  protected put(buf: Uint8Array, pos: number, key: boolean): void {
    buf[pos] = key ? 1 : 0;
  }
  protected get(buf: Uint8Array, pos: number): boolean {
    const b = buf[pos];
    if (b === 0) return false;
    if (b === 1) return true;
    throw new EncodingError(`bool key: invalid byte ${b}`);
  }
  stringify(key: boolean): string {
    return String(key);
  }
}

class BytesKeyCodec extends BaseKeyCodec<Uint8Array> {
  readonly keyType: string = 'bytes';
  private check(key: Uint8Array): void {
    if (!(key instanceof Uint8Array)) throw new EncodingError(`bytes key: ${typeof key} is not a Uint8Array`);
  }
  size(key: Uint8Array): number {
    this.check(key);
    return key.length;
  }
  write(buf: Uint8Array, pos: number, key: Uint8Array): number {
    this.check(key);
    buf.set(key, pos);
    return pos + key.length;
  }
  read(buf: Uint8Array, start: number, end: number): Uint8Array {
    return buf.slice(start, end);
  }
  sizeNonTerminal(key: Uint8Array): number {
    this.check(key);
    if (key.length > MAX_BYTES_KEY_NON_TERMINAL_SIZE) {
      throw new EncodingError(
        `bytes key: a non-terminal bytes key is at most ${MAX_BYTES_KEY_NON_TERMINAL_SIZE} bytes, got ${key.length}`,
      );
    }
    return key.length + 1;
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: Uint8Array): number {
    this.sizeNonTerminal(key);
    buf[pos] = key.length;
    buf.set(key, pos + 1);
    return pos + 1 + key.length;
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): Uint8Array {
    checkRemaining(this.keyType, cur, 1);
    const n = buf[cur.pos]!;
    const start = cur.pos + 1;
    if (cur.end - start < n) {
      throw new EncodingError(`bytes key: length prefix says ${n} bytes, only ${cur.end - start} left`);
    }
    cur.pos = start + n;
    return buf.slice(start, start + n);
  }
  stringify(key: Uint8Array): string {
    return '0x' + hex(key);
  }
}

/**
 * The SDK's LengthPrefixedBytesKey / LengthPrefixedAddressKey (types/collections.go): length-prefixed
 * in both positions, for state layouts where an address is length-prefixed even as the last key part.
 */
class LengthPrefixedBytesKeyCodec extends BytesKeyCodec {
  override readonly keyType = 'index_key/bytes';
  override size(key: Uint8Array): number {
    return this.sizeNonTerminal(key);
  }
  override write(buf: Uint8Array, pos: number, key: Uint8Array): number {
    return this.writeNonTerminal(buf, pos, key);
  }
  override read(buf: Uint8Array, start: number, end: number): Uint8Array {
    const cur: Cursor = { pos: start, end };
    const key = this.readNonTerminal(buf, cur);
    if (cur.pos !== end) throw new EncodingError(`index_key/bytes key: ${end - cur.pos} trailing bytes`);
    return key;
  }
}

class StringKeyCodec extends BaseKeyCodec<string> {
  readonly keyType = 'string';
  private check(key: string): void {
    if (typeof key !== 'string') throw new EncodingError(`string key: ${typeof key} is not a string`);
    if (!isWellFormed(key)) throw new EncodingError(`string key: ${JSON.stringify(key)} has a lone surrogate`);
  }
  private checkNonTerminal(key: string): void {
    this.check(key);
    if (key.indexOf('\u0000') !== -1) {
      throw new EncodingError(`string key: a non-terminal string key may not contain NUL: ${JSON.stringify(key)}`);
    }
  }
  size(key: string): number {
    this.check(key);
    return utf8Length(key);
  }
  write(buf: Uint8Array, pos: number, key: string): number {
    return writeUtf8(buf, pos, key);
  }
  read(buf: Uint8Array, start: number, end: number): string {
    try {
      return readUtf8(buf, start, end);
    } catch (e) {
      throw new EncodingError(`string key: invalid UTF-8 (${(e as Error).message})`);
    }
  }
  sizeNonTerminal(key: string): number {
    this.checkNonTerminal(key);
    return utf8Length(key) + 1;
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: string): number {
    this.checkNonTerminal(key);
    pos = writeUtf8(buf, pos, key);
    buf[pos] = 0;
    return pos + 1;
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): string {
    const nul = buf.indexOf(0, cur.pos);
    if (nul === -1 || nul >= cur.end) {
      throw new EncodingError('string key: no NUL terminator after a non-terminal string key');
    }
    const s = this.read(buf, cur.pos, nul);
    cur.pos = nul + 1;
    return s;
  }
  stringify(key: string): string {
    return JSON.stringify(key);
  }
}

/** Raw bytes; non-terminal: one length byte (max 255) then the bytes. */
export const bytesKey: KeyCodec<Uint8Array> = new BytesKeyCodec();
/** Length-prefixed bytes in both positions (one length byte, max 255), like the SDK's LengthPrefixedBytesKey. */
export const lengthPrefixedBytesKey: KeyCodec<Uint8Array> = new LengthPrefixedBytesKeyCodec();
/** UTF-8; non-terminal: UTF-8 then 0x00 (the string may not contain NUL). */
export const stringKey: KeyCodec<string> = new StringKeyCodec();
/** bigint in [0, 2^64): 8 bytes big-endian (both encodings). */
export const uint64Key: KeyCodec<bigint> = new Uint64KeyCodec();
/** bigint in [-2^63, 2^63): 8 bytes big-endian two's complement with the sign bit flipped. */
export const int64Key: KeyCodec<bigint> = new Int64KeyCodec();
/** number in [0, 2^32): 4 bytes big-endian. */
export const uint32Key: KeyCodec<number> = new Uint32KeyCodec();
/** false = 0x00, true = 0x01. */
export const boolKey: KeyCodec<boolean> = new BoolKeyCodec();

/**
 * Keys of exactly `length` bytes written as they are, terminal or not (no length prefix: the length is
 * fixed), e.g. 20-byte account addresses in the key layouts of modules that wrote them that way.
 */
class FixedBytesKeyCodec extends BaseKeyCodec<Uint8Array> {
  readonly keyType: string;
  constructor(private readonly length: number) {
    super();
    this.keyType = `bytes${length}`;
  }
  size(key: Uint8Array): number {
    if (!(key instanceof Uint8Array) || key.length !== this.length) {
      throw new EncodingError(`${this.keyType} key: want ${this.length} bytes, got ${key instanceof Uint8Array ? key.length : typeof key}`);
    }
    return this.length;
  }
  write(buf: Uint8Array, pos: number, key: Uint8Array): number {
    buf.set(key, pos);
    return pos + this.length;
  }
  read(buf: Uint8Array, start: number, end: number): Uint8Array {
    if (end - start !== this.length) throw new EncodingError(`${this.keyType} key: want ${this.length} bytes, got ${end - start}`);
    return buf.slice(start, end);
  }
  sizeNonTerminal(key: Uint8Array): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: Uint8Array): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): Uint8Array {
    if (cur.end - cur.pos < this.length) throw new EncodingError(`${this.keyType} key: want ${this.length} bytes, ${cur.end - cur.pos} left`);
    const key = buf.slice(cur.pos, cur.pos + this.length);
    cur.pos += this.length;
    return key;
  }
  stringify(key: Uint8Array): string {
    return Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('');
  }
}

/** A key codec of exactly `length` bytes, without a length prefix (see FixedBytesKeyCodec). */
export function fixedBytesKey(length: number): KeyCodec<Uint8Array> {
  if (!Number.isInteger(length) || length < 1) throw new Error(`fixedBytesKey: bad length ${length}`);
  return new FixedBytesKeyCodec(length);
}
