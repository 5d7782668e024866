/**
 * The key codec contract. A key has two encodings:
 * - terminal: used when the key is the whole key or the last part of a composite key; it may use every
 *   byte to the end of the buffer;
 * - non-terminal: used for the non-last parts of a composite key; it must be self-delimiting so the
 *   next part can be found.
 * Both preserve order as documented per codec (README, "Byte layouts").
 *
 * The `size`/`write`/`read*` primitives work in place so composite keys and collections encode a full
 * store key (collection prefix included) with one allocation.
 */
import { EncodingError } from './errors.js';

/** A read position in a buffer and the end of the readable region. */
export interface Cursor {
  pos: number;
  readonly end: number;
}

/** Support for partial keys (the first parts of a composite key), used for prefix ranges. */
export interface KeyPrefixCodec<K, P> {
  /** Whether a range bound is a partial key P (rather than a full key K). */
  isPrefix(bound: K | P): bound is P;
  /** Byte length of the prefix encoding. */
  size(prefix: P): number;
  /** Write the prefix encoding (the non-terminal encodings of its parts); returns the new position. */
  write(buf: Uint8Array, pos: number, prefix: P): number;
}

export interface KeyCodec<K, P = never> {
  /** A readable type name, e.g. `uint64`, `Pair[bytes, string]`. */
  readonly keyType: string;
  /** Byte length of the terminal encoding (validates the key's type when cheap). */
  size(key: K): number;
  /**
   * Write the terminal encoding at `pos`; returns the new position (`pos + size(key)`). Callers size the
   * buffer with `size(key)` first, which validates the key; `write` may rely on that.
   */
  write(buf: Uint8Array, pos: number, key: K): number;
  /** Decode a terminal encoding occupying exactly `buf[start, end)`. Throws EncodingError. */
  read(buf: Uint8Array, start: number, end: number): K;
  sizeNonTerminal(key: K): number;
  writeNonTerminal(buf: Uint8Array, pos: number, key: K): number;
  /** Decode a non-terminal encoding at `cur.pos` (within `cur.end`) and advance `cur.pos` past it. */
  readNonTerminal(buf: Uint8Array, cur: Cursor): K;
  /** The terminal encoding as a new array. */
  encode(key: K): Uint8Array;
  /** Decode a whole terminal encoding. */
  decode(bytes: Uint8Array): K;
  encodeNonTerminal(key: K): Uint8Array;
  /** Decode a non-terminal encoding that must fill `bytes` exactly. */
  decodeNonTerminal(bytes: Uint8Array): K;
  /** A human-readable form for error messages. */
  stringify(key: K): string;
  /** Present on composite codecs: partial keys for prefix ranges. */
  readonly prefix?: KeyPrefixCodec<K, P>;
}

/** Implements the convenience methods of KeyCodec on top of the in-place primitives. */
export abstract class BaseKeyCodec<K, P = never> implements KeyCodec<K, P> {
  abstract readonly keyType: string;
  abstract size(key: K): number;
  abstract write(buf: Uint8Array, pos: number, key: K): number;
  abstract read(buf: Uint8Array, start: number, end: number): K;
  abstract sizeNonTerminal(key: K): number;
  abstract writeNonTerminal(buf: Uint8Array, pos: number, key: K): number;
  abstract readNonTerminal(buf: Uint8Array, cur: Cursor): K;
  abstract stringify(key: K): string;

  encode(key: K): Uint8Array {
    const out = new Uint8Array(this.size(key));
    this.write(out, 0, key);
    return out;
  }

  decode(bytes: Uint8Array): K {
    return this.read(bytes, 0, bytes.length);
  }

  encodeNonTerminal(key: K): Uint8Array {
    const out = new Uint8Array(this.sizeNonTerminal(key));
    this.writeNonTerminal(out, 0, key);
    return out;
  }

  decodeNonTerminal(bytes: Uint8Array): K {
    const cur: Cursor = { pos: 0, end: bytes.length };
    const key = this.readNonTerminal(bytes, cur);
    if (cur.pos !== bytes.length) {
      throw new EncodingError(`${this.keyType} key: ${bytes.length - cur.pos} trailing bytes after a non-terminal key`);
    }
    return key;
  }
}
