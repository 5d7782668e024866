/**
 * Composite keys as tuples, like cosmossdk.io/collections Pair / Triple: every part but the last uses
 * its non-terminal encoding, the last its terminal encoding. A partial key (the first parts) encodes as
 * the non-terminal encodings of those parts, so "every key whose first part is X" is a byte-prefix range.
 */
import { BaseKeyCodec } from './key-codec.js';
import type { Cursor, KeyCodec, KeyPrefixCodec } from './key-codec.js';
import { EncodingError } from './errors.js';

type AnyKeyCodec = KeyCodec<any, any>;

class TupleKeyCodec extends BaseKeyCodec<unknown[], unknown[]> {
  readonly keyType: string;
  readonly prefix: KeyPrefixCodec<unknown[], unknown[]>;
  private readonly n: number;

  constructor(
    kind: string,
    private readonly parts: readonly AnyKeyCodec[],
  ) {
    super();
    this.n = parts.length;
    this.keyType = `${kind}[${parts.map((p) => p.keyType).join(', ')}]`;
    const self = this;
    this.prefix = {
      isPrefix(bound: unknown[]): bound is unknown[] {
        return Array.isArray(bound) && bound.length < self.n;
      },
      size(p: unknown[]): number {
        self.checkPrefix(p);
        let size = 0;
        for (let i = 0; i < p.length; i++) size += parts[i]!.sizeNonTerminal(p[i]);
        return size;
      },
      write(buf: Uint8Array, pos: number, p: unknown[]): number {
        for (let i = 0; i < p.length; i++) pos = parts[i]!.writeNonTerminal(buf, pos, p[i]);
        return pos;
      },
    };
  }

  private checkKey(key: unknown[]): void {
    if (!Array.isArray(key) || key.length !== this.n) {
      throw new EncodingError(`${this.keyType} key: want an array of ${this.n} parts, got ${describe(key)}`);
    }
  }

  private checkPrefix(p: unknown[]): void {
    if (!Array.isArray(p) || p.length < 1 || p.length >= this.n) {
      throw new EncodingError(`${this.keyType} prefix: want an array of 1 to ${this.n - 1} parts, got ${describe(p)}`);
    }
  }

  size(key: unknown[]): number {
    this.checkKey(key);
    const last = this.n - 1;
    let size = this.parts[last]!.size(key[last]);
    for (let i = 0; i < last; i++) size += this.parts[i]!.sizeNonTerminal(key[i]);
    return size;
  }

  write(buf: Uint8Array, pos: number, key: unknown[]): number {
    const last = this.n - 1;
    for (let i = 0; i < last; i++) pos = this.parts[i]!.writeNonTerminal(buf, pos, key[i]);
    return this.parts[last]!.write(buf, pos, key[last]);
  }

  read(buf: Uint8Array, start: number, end: number): unknown[] {
    const last = this.n - 1;
    const out = new Array<unknown>(this.n);
    const cur: Cursor = { pos: start, end };
    for (let i = 0; i < last; i++) out[i] = this.parts[i]!.readNonTerminal(buf, cur);
    out[last] = this.parts[last]!.read(buf, cur.pos, end);
    return out;
  }

  sizeNonTerminal(key: unknown[]): number {
    this.checkKey(key);
    let size = 0;
    for (let i = 0; i < this.n; i++) size += this.parts[i]!.sizeNonTerminal(key[i]);
    return size;
  }

  writeNonTerminal(buf: Uint8Array, pos: number, key: unknown[]): number {
    for (let i = 0; i < this.n; i++) pos = this.parts[i]!.writeNonTerminal(buf, pos, key[i]);
    return pos;
  }

  readNonTerminal(buf: Uint8Array, cur: Cursor): unknown[] {
    const out = new Array<unknown>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.parts[i]!.readNonTerminal(buf, cur);
    return out;
  }

  stringify(key: unknown[]): string {
    return `(${key.map((k, i) => this.parts[i]!.stringify(k)).join(', ')})`;
  }
}

function describe(v: unknown): string {
  return Array.isArray(v) ? `an array of ${v.length}` : typeof v;
}

/** Keys `[k1, k2]`: k1 non-terminal, k2 terminal. Prefix ranges take `[k1]`. */
export function pairKey<K1, K2>(k1: KeyCodec<K1, any>, k2: KeyCodec<K2, any>): KeyCodec<[K1, K2], [K1]> {
  return new TupleKeyCodec('Pair', [k1, k2]) as unknown as KeyCodec<[K1, K2], [K1]>;
}

/** Keys `[k1, k2, k3]`: k1 and k2 non-terminal, k3 terminal. Prefix ranges take `[k1]` or `[k1, k2]`. */
export function tripleKey<K1, K2, K3>(
  k1: KeyCodec<K1, any>,
  k2: KeyCodec<K2, any>,
  k3: KeyCodec<K3, any>,
): KeyCodec<[K1, K2, K3], [K1] | [K1, K2]> {
  return new TupleKeyCodec('Triple', [k1, k2, k3]) as unknown as KeyCodec<[K1, K2, K3], [K1] | [K1, K2]>;
}
