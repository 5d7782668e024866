/**
 * A compact binary form of event lists, for records a node writes with every block (the block store's results, the
 * tx index's input). A block's events repeat the same few strings many times over (types, keys, a signer's address
 * in most of its tx's attributes, amounts), so every distinct string is written once, in a table, and events refer
 * to it by number: a bank send's events are ~0.4 KB this way instead of ~3.4 KB of JSON, and the strings are
 * encoded and decoded once each.
 *
 * Layout (unsigned LEB128 varints):
 *   table:  count, then per string `len << 1 | ascii` and its bytes (UTF-8; `ascii`: every byte below 0x80)
 *   lists:  count, then per list its events: count, then per event `type`, the attribute count and per attribute
 *           `key * 3 + index` (index: 0 absent, 1 false, 2 true) and `value` (string numbers)
 */
import type { Event, EventAttribute } from './event.js';

const encoder = new TextEncoder();

/** Buffer's string slicers without the encoding switch of `toString` (not in @types/node) */
type SlicingBuffer = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

/** A growable byte buffer: varints, bytes and UTF-8 strings. */
export class BinaryWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
  }

  /** room for `n` more bytes */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** a non-negative safe integer */
  uint(n: number): void {
    if (this.pos + 8 > this.buf.length) this.ensure(8);
    const b = this.buf;
    let p = this.pos;
    while (n >= 0x80) {
      b[p++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    b[p++] = n;
    this.pos = p;
  }

  byte(n: number): void {
    this.ensure(1);
    this.buf[this.pos++] = n;
  }

  /** length-prefixed bytes */
  bytes(b: Uint8Array): void {
    this.uint(b.length);
    this.raw(b);
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** `(byte length << 1) | ascii`, then the UTF-8 bytes */
  string(s: string): void {
    const n = s.length;
    if (this.pos + 3 * n + 16 > this.buf.length) this.ensure(3 * n + 16);
    // written after a prefix sized for `n` bytes (ASCII); a string that is not is moved to its prefix's size
    const start = this.pos;
    this.uint(n * 2 + 1);
    const at = this.pos;
    const b = this.buf;
    if (n <= 24) {
      let p = at;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) return this.placed(start, at, encoder.encodeInto(s, b.subarray(at)).written);
        b[p++] = c;
      }
      this.pos = p;
      return;
    }
    // longer strings: the native encoder (one pass; ASCII when it wrote a byte per character)
    const written = encoder.encodeInto(s, b.subarray(at)).written;
    if (written === n) this.pos = at + n;
    else this.placed(start, at, written);
  }

  /** A string that is not ASCII was encoded at `at` (`written` bytes): its prefix at `start`, then the bytes. */
  private placed(start: number, at: number, written: number): void {
    const len = written * 2;
    let size = 1;
    for (let v = len; v >= 0x80; v = Math.floor(v / 0x80)) size++;
    // the bytes move first (a longer prefix would overwrite their start), then the prefix goes before them
    const to = start + size;
    if (to !== at) this.buf.copyWithin(to, at, at + written);
    this.pos = start;
    this.uint(len);
    this.pos = to + written;
  }

  /** the bytes written (a view of this writer's buffer) */
  view(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** Reads what a BinaryWriter wrote; a truncated or malformed input throws. */
export class BinaryReader {
  private readonly buf: SlicingBuffer;
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as SlicingBuffer;
    this.pos = start;
    this.end = end;
  }

  uint(): number {
    let n = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error('binary record: truncated');
      const c = this.buf[this.pos++]!;
      n += (c & 0x7f) * mul;
      if (c < 0x80) break;
      mul *= 0x80;
      if (mul > 2 ** 56) throw new Error('binary record: varint too long');
    }
    return n;
  }

  /** length-prefixed bytes, copied */
  bytes(): Uint8Array {
    const n = this.uint();
    return Uint8Array.prototype.slice.call(this.buf, this.pos, this.take(n));
  }

  /** length-prefixed bytes, a view of the input */
  bytesView(): Uint8Array {
    const n = this.uint();
    const start = this.pos;
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset + start, this.take(n) - start);
  }

  string(): string {
    const h = this.uint();
    const start = this.pos;
    const end = this.take(Math.floor(h / 2));
    return h % 2 === 1 ? this.buf.latin1Slice(start, end) : this.buf.utf8Slice(start, end);
  }

  /** advances past `n` bytes, returning the end offset */
  private take(n: number): number {
    const end = this.pos + n;
    if (end > this.end) throw new Error('binary record: truncated');
    this.pos = end;
    return end;
  }
}

/**
 * Writes event lists (layout above) into `w`. Returns false, with `w` as it was, when an event has a type, key or
 * value that is not a string (the ABCI types are strings; such events are for a record of another form, e.g. JSON).
 */
export function writeEventLists(w: BinaryWriter, lists: readonly (readonly Event[])[]): boolean {
  const ids = new Map<string, number>();
  const table: string[] = [];
  const id = (s: string): number => {
    let i = ids.get(s);
    if (i === undefined) {
      i = table.length;
      ids.set(s, i);
      table.push(s);
    }
    return i;
  };
  const body = new BinaryWriter(4096);
  body.uint(lists.length);
  for (const events of lists) {
    body.uint(events.length);
    for (const e of events) {
      const attrs: readonly EventAttribute[] = e.attributes;
      if (typeof e.type !== 'string' || !Array.isArray(attrs)) return false;
      body.uint(id(e.type));
      body.uint(attrs.length);
      for (const a of attrs) {
        if (typeof a.key !== 'string' || typeof a.value !== 'string') return false;
        const index = a.index;
        const flag = index === undefined ? 0 : index === false ? 1 : index === true ? 2 : -1;
        if (flag < 0) return false;
        body.uint(id(a.key) * 3 + flag);
        body.uint(id(a.value));
      }
    }
  }
  w.uint(table.length);
  for (const s of table) w.string(s);
  w.raw(body.view());
  return true;
}

/** Reads what writeEventLists wrote. Attributes are `{ key, value }` with `index` when it was present. */
export function readEventLists(r: BinaryReader): Event[][] {
  const count = r.uint();
  if (count > r.end - r.pos) throw new Error('binary record: bad string count');
  const table: string[] = new Array(count);
  for (let i = 0; i < count; i++) table[i] = r.string();
  const str = (i: number): string => {
    const s = table[i];
    if (s === undefined) throw new Error('binary record: bad string number');
    return s;
  };
  const nLists = r.uint();
  if (nLists > r.end - r.pos) throw new Error('binary record: bad list count');
  const lists: Event[][] = new Array(nLists);
  for (let l = 0; l < nLists; l++) {
    const nEvents = r.uint();
    if (nEvents > r.end - r.pos) throw new Error('binary record: bad event count');
    const events: Event[] = new Array(nEvents);
    for (let e = 0; e < nEvents; e++) {
      const type = str(r.uint());
      const nAttrs = r.uint();
      if (nAttrs > r.end - r.pos) throw new Error('binary record: bad attribute count');
      const attributes: EventAttribute[] = new Array(nAttrs);
      for (let a = 0; a < nAttrs; a++) {
        const k = r.uint();
        const key = str(Math.floor(k / 3));
        const value = str(r.uint());
        const flag = k % 3;
        attributes[a] = flag === 0 ? { key, value } : { key, value, index: flag === 2 };
      }
      events[e] = { type, attributes };
    }
    lists[l] = events;
  }
  return lists;
}
