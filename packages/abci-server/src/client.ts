/**
 * A minimal ABCI socket client (as CometBFT's abci/client/socket_client.go speaks it): requests are written
 * framed and answered in order. Used by the tests and by tools that talk to an ABCI app directly.
 */
import net from 'node:net';
import { FrameDecoder, encodeFrame } from './frame.js';
import { decodeResponse, encodeRequest, type DecodedResponse, type PbObject, type RequestKind } from './proto.js';
import { parseAbciAddress } from './address.js';

export class AbciClient {
  private readonly pending: { resolve: (r: DecodedResponse) => void; reject: (e: Error) => void }[] = [];
  private readonly decoder = new FrameDecoder();
  private error?: Error;

  private constructor(private readonly sock: net.Socket) {
    sock.on('data', (chunk: Buffer) => {
      for (const f of this.decoder.push(new Uint8Array(chunk))) {
        const p = this.pending.shift();
        if (!p) { this.failAll(new Error('ABCI response without a request')); return; }
        try { p.resolve(decodeResponse(f)); } catch (e) { p.reject(e as Error); }
      }
    });
    sock.on('error', (e) => this.failAll(e));
    sock.on('close', () => this.failAll(new Error('ABCI connection closed')));
  }

  static async connect(address: string): Promise<AbciClient> {
    const a = parseAbciAddress(address);
    const sock = a.kind === 'unix' ? net.connect(a.path) : net.connect(a.port, a.host === '0.0.0.0' ? '127.0.0.1' : a.host);
    await new Promise<void>((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
    sock.setNoDelay(true);
    return new AbciClient(sock);
  }

  private failAll(e: Error): void {
    this.error ??= e;
    for (const p of this.pending.splice(0)) p.reject(e);
  }

  /** Sends one request (no flush); resolves with its response. */
  send(kind: RequestKind, body: PbObject = {}): Promise<DecodedResponse> {
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.sock.write(encodeFrame(encodeRequest(kind, body)));
    });
  }

  /** Sends a request followed by a Flush, as CometBFT's sync calls do; resolves with the request's response. */
  async call(kind: RequestKind, body: PbObject = {}): Promise<DecodedResponse> {
    const [res, flush] = await Promise.all([this.send(kind, body), this.send('flush')]);
    if (flush.kind !== 'flush') throw new Error(`expected a flush response, got ${flush.kind}`);
    return res;
  }

  close(): void {
    this.sock.destroy();
  }
}
