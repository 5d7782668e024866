/**
 * CometBFT's socket framing (abci/types/messages.go WriteMessage / ReadMessage, libs/protoio): each message
 * is its protobuf encoding preceded by its length as an unsigned varint (binary.PutUvarint; not zigzag).
 */

/** Max message size CometBFT's reader accepts (math.MaxInt32). */
export const MAX_MESSAGE_SIZE = 0x7fffffff;

export function encodeUvarint(n: number): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid varint ${n}`);
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Uint8Array.from(out);
}

/** One frame: uvarint(len(msg)) ‖ msg. */
export function encodeFrame(msg: Uint8Array): Uint8Array {
  const prefix = encodeUvarint(msg.length);
  const out = new Uint8Array(prefix.length + msg.length);
  out.set(prefix, 0);
  out.set(msg, prefix.length);
  return out;
}

/**
 * Splits a byte stream into frames: `push` chunks as they arrive, take the complete messages it returns.
 * Throws on a length over MAX_MESSAGE_SIZE or a varint longer than 10 bytes (the stream is then unusable).
 */
export class FrameDecoder {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    if (this.buf.length === 0) this.buf = chunk;
    else {
      const b = new Uint8Array(this.buf.length + chunk.length);
      b.set(this.buf, 0);
      b.set(chunk, this.buf.length);
      this.buf = b;
    }
    const out: Uint8Array[] = [];
    let off = 0;
    for (;;) {
      let len = 0;
      let mul = 1;
      let i = off;
      let done = false;
      for (; i < this.buf.length; i++) {
        const byte = this.buf[i]!;
        if (i - off >= 10) throw new Error('invalid varint length prefix');
        len += (byte & 0x7f) * mul;
        mul *= 0x80;
        if ((byte & 0x80) === 0) { done = true; i++; break; }
      }
      if (!done) break;
      if (len > MAX_MESSAGE_SIZE) throw new Error(`message exceeds max size (${len} > ${MAX_MESSAGE_SIZE})`);
      if (this.buf.length - i < len) break;
      out.push(this.buf.slice(i, i + len));
      off = i + len;
    }
    this.buf = off === 0 ? this.buf : this.buf.slice(off);
    return out;
  }

  /** bytes received that do not yet form a whole frame */
  get pending(): number {
    return this.buf.length;
  }
}
