/** Closing an HTTP connection whose request body was not read to the end, without losing the answer. */
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
