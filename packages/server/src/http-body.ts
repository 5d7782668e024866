/**
 * Request bodies of the node's HTTP listeners (REST, CometBFT RPC, Ethereum JSON-RPC): read up to a limit,
 * and, past it, answered without losing the answer in a TCP reset.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long the client gets to read the answer after the half-close (Go's `rstAvoidanceDelay`). */
export const LINGER_MS = 500;

/**
 * Go's `closeWriteAndWait` for a connection answered before its request body was read (body too
 * large): when Node closes such a socket (`Connection: close` → `destroySoon`) while the client is
 * still sending, the unread bytes turn the close into a TCP reset, which can discard the answer before
 * the client reads it. Instead the socket is half-closed after the answer (FIN) and destroyed
 * `LINGER_MS` later (or as soon as the client closes); what still arrives meanwhile is read and dropped.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function destroySoon(this: Socket): void {
    this.on('data', () => undefined);
    this.resume();
    if (this.writable) this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

export type BodyResult =
  | { readonly body: Buffer }
  /** declared or sent beyond the limit: answer with `Connection: close` (the socket lingers, see lingerOnClose) */
  | { readonly tooLarge: true }
  /** the client failed or aborted the request */
  | { readonly error: string };

/**
 * Reads a request body of at most `limit` bytes. Past the limit (by Content-Length or by the bytes sent)
 * the stream is not destroyed (that would kill the socket before the answer): the rest is read and
 * dropped, and the socket set to linger once the caller's answer is written.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: BodyResult): void => { if (!done) { done = true; resolve(r); } };
    const tooLarge = (): void => {
      lingerOnClose(req.socket);
      req.removeAllListeners('data');
      req.resume();
      finish({ tooLarge: true });
    };
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) { tooLarge(); return; }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) { tooLarge(); return; }
      chunks.push(c);
    });
    req.on('end', () => finish({ body: Buffer.concat(chunks) }));
    req.on('error', (e) => finish({ error: `error reading request body: ${e.message}` }));
    req.on('aborted', () => finish({ error: 'request aborted' }));
  });
}
