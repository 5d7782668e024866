/** Small byte helpers (internal). */

const encoder = new TextEncoder();
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** An empty value, shared (zero-length arrays cannot be mutated). */
export const EMPTY = new Uint8Array(0);

/** `a || b` in one allocation. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex');
}

export function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** UTF-8 byte length of a well-formed string (ASCII fast path). */
export function utf8Length(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  }
  return n;
}

/** Write the UTF-8 bytes of `s` at `pos` (the caller sized `buf` with utf8Length); returns the new position. */
export function writeUtf8(buf: Uint8Array, pos: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      const { written } = encoder.encodeInto(s.slice(i), buf.subarray(pos));
      return pos + written;
    }
    buf[pos++] = c;
  }
  return pos;
}

/** Strict UTF-8 decoding of buf[start, end): invalid sequences throw. */
export function readUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) return fatalDecoder.decode(buf.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return fatalDecoder.decode(buf.subarray(start, end));
}

export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
