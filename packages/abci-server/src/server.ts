/**
 * An ABCI socket server: serves an `AbciApplication` to CometBFT v0.38 over its socket protocol
 * (abci/server/socket_server.go), on a tcp or unix address.
 *
 * CometBFT opens four connections (consensus, mempool, query, snapshot), each a stream of length-prefixed
 * `tendermint.abci.Request`s answered by `Response`s in the same order. Like CometBFT's Go server, every
 * request of every connection runs under one application lock, first come first served: a CheckTx or a
 * Query never runs while FinalizeBlock or Commit is in progress, and each connection's responses leave in
 * its requests' order. An exception from the app is answered with `Response.exception` and the connection
 * is closed (CometBFT then stops, as it does with a Go app).
 */
import net from 'node:net';
import { existsSync, unlinkSync } from 'node:fs';
import type { AbciApplication } from '@chain/app';
import { FrameDecoder, encodeFrame } from './frame.js';
import { decodeRequest, encodeResponse, type PbObject, type RequestKind, type ResponseKind } from './proto.js';
import { parseAbciAddress, formatAbciAddress, type AbciAddress } from './address.js';
import {
  bytesOf,
  commitInfoFromPb,
  execTxResultToPb,
  finalizeBlockToPb,
  initChainFromPb,
  initChainToPb,
  misbehaviorFromPb,
  numberOf,
  queryToPb,
  timeFromPb,
} from './convert.js';

export interface AbciServerLogger {
  info(msg: string): void;
  error(msg: string): void;
}

export interface AbciServerOptions {
  readonly app: AbciApplication;
  /** `tcp://127.0.0.1:26658` (port 0: any free port) or `unix:///path/to/abci.sock` */
  readonly address: string;
  readonly log?: AbciServerLogger;
}

/** One FIFO lock over the application, shared by all connections (the Go server's appMtx). */
class AppLock {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.tail.then(fn, fn);
    this.tail = p.then(() => undefined, () => undefined);
    return p;
  }
}

/** Answers one decoded request with the app; returns the response's oneof case and body. */
export async function handleRequest(app: AbciApplication, kind: RequestKind, r: PbObject): Promise<[ResponseKind, PbObject]> {
  switch (kind) {
    case 'echo':
      return ['echo', { message: r.message }];
    case 'flush':
      return ['flush', {}];
    case 'info': {
      const res = await app.info({
        version: r.version, blockVersion: numberOf(r.block_version), p2pVersion: numberOf(r.p2p_version), abciVersion: r.abci_version,
      });
      return ['info', {
        data: res.data, version: res.version, app_version: String(res.appVersion),
        last_block_height: String(res.lastBlockHeight), last_block_app_hash: res.lastBlockAppHash,
      }];
    }
    case 'init_chain':
      return ['init_chain', initChainToPb(await app.initChain(initChainFromPb(r)))];
    case 'query': {
      const res = await app.query({ path: r.path, data: bytesOf(r.data), height: numberOf(r.height), prove: !!r.prove });
      return ['query', queryToPb(res)];
    }
    case 'check_tx': {
      const res = await app.checkTx({ tx: bytesOf(r.tx), type: numberOf(r.type) === 1 ? 'recheck' : 'new' });
      return ['check_tx', execTxResultToPb(res)];
    }
    case 'commit': {
      const res = await app.commit();
      return ['commit', { retain_height: String(res.retainHeight) }];
    }
    case 'prepare_proposal': {
      const res = await app.prepareProposal({
        maxTxBytes: numberOf(r.max_tx_bytes),
        txs: (r.txs ?? []).map(bytesOf),
        localLastCommit: commitInfoFromPb(r.local_last_commit),
        misbehavior: misbehaviorFromPb(r.misbehavior),
        height: numberOf(r.height),
        time: timeFromPb(r.time),
        nextValidatorsHash: bytesOf(r.next_validators_hash),
        proposerAddress: bytesOf(r.proposer_address),
      });
      return ['prepare_proposal', { txs: [...res.txs] }];
    }
    case 'process_proposal': {
      const res = await app.processProposal({
        txs: (r.txs ?? []).map(bytesOf),
        proposedLastCommit: commitInfoFromPb(r.proposed_last_commit),
        misbehavior: misbehaviorFromPb(r.misbehavior),
        hash: bytesOf(r.hash),
        height: numberOf(r.height),
        time: timeFromPb(r.time),
        nextValidatorsHash: bytesOf(r.next_validators_hash),
        proposerAddress: bytesOf(r.proposer_address),
      });
      return ['process_proposal', { status: res.status === 'ACCEPT' ? 1 : 2 }];
    }
    case 'finalize_block': {
      const res = await app.finalizeBlock({
        txs: (r.txs ?? []).map(bytesOf),
        decidedLastCommit: commitInfoFromPb(r.decided_last_commit),
        misbehavior: misbehaviorFromPb(r.misbehavior),
        hash: bytesOf(r.hash),
        height: numberOf(r.height),
        time: timeFromPb(r.time),
        nextValidatorsHash: bytesOf(r.next_validators_hash),
        proposerAddress: bytesOf(r.proposer_address),
      });
      return ['finalize_block', finalizeBlockToPb(res)];
    }
    // no state sync and no vote extensions: CometBFT's BaseApplication answers
    case 'list_snapshots':
      return ['list_snapshots', { snapshots: [] }];
    case 'offer_snapshot':
      return ['offer_snapshot', {}];
    case 'load_snapshot_chunk':
      return ['load_snapshot_chunk', {}];
    case 'apply_snapshot_chunk':
      return ['apply_snapshot_chunk', {}];
    case 'extend_vote':
      return ['extend_vote', {}];
    case 'verify_vote_extension':
      return ['verify_vote_extension', { status: 1 }];
    default:
      throw new Error(`unknown request from client: ${String(kind)}`);
  }
}

export class AbciServer {
  private readonly sockets = new Set<net.Socket>();
  private readonly lock = new AppLock();
  private closed = false;

  private constructor(
    private readonly server: net.Server,
    /** the address actually listened on (a tcp port 0 resolved) */
    readonly address: string,
    private readonly parsed: AbciAddress,
  ) {}

  /** number of open client connections */
  get connections(): number {
    return this.sockets.size;
  }

  static async listen(opts: AbciServerOptions): Promise<AbciServer> {
    const parsed = parseAbciAddress(opts.address);
    if (parsed.kind === 'unix' && existsSync(parsed.path)) unlinkSync(parsed.path); // a stale socket of a killed process
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (parsed.kind === 'unix') server.listen(parsed.path, () => resolve());
      else server.listen(parsed.port, parsed.host, () => resolve());
      server.off('error', reject);
    });
    const bound = server.address();
    const actual: AbciAddress = parsed.kind === 'tcp' && bound && typeof bound === 'object' ? { ...parsed, port: bound.port } : parsed;
    const s = new AbciServer(server, formatAbciAddress(actual), actual);
    server.on('connection', (sock) => s.serve(sock, opts.app, opts.log));
    opts.log?.info(`ABCI server listening on ${s.address}`);
    return s;
  }

  private serve(sock: net.Socket, app: AbciApplication, log?: AbciServerLogger): void {
    this.sockets.add(sock);
    sock.setNoDelay(true);
    const decoder = new FrameDecoder();
    let failed = false;
    const fail = (msg: string): void => {
      if (failed) return;
      failed = true;
      log?.error(msg);
      sock.end();
    };
    sock.on('data', (chunk: Buffer) => {
      if (failed) return;
      let frames: Uint8Array[];
      try {
        frames = decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      } catch (e) {
        fail(`ABCI connection: ${(e as Error).message}`);
        return;
      }
      for (const frame of frames) {
        // decoded as it arrives, so a new tx's signature checks start on worker threads (app.precheckTx) while
        // the requests before it hold the lock
        let decoded: ReturnType<typeof decodeRequest> | Error;
        try {
          decoded = decodeRequest(frame);
        } catch (e) {
          decoded = e instanceof Error ? e : new Error(String(e));
        }
        const pre = !(decoded instanceof Error) && decoded.kind === 'check_tx' && numberOf(decoded.body.type) !== 1 && app.precheckTx
          ? app.precheckTx(bytesOf(decoded.body.tx)).catch(() => undefined)
          : undefined;
        void this.lock.run(async () => {
          if (failed || this.closed) return;
          let out: Uint8Array;
          let exception = false;
          try {
            if (decoded instanceof Error) throw decoded;
            if (pre !== undefined) await pre;
            const { kind, body } = decoded;
            const [rk, rb] = await handleRequest(app, kind, body);
            out = encodeResponse(rk, rb);
          } catch (e) {
            exception = true;
            const msg = (e as Error)?.message ?? String(e);
            log?.error(`ABCI request failed: ${msg}`);
            out = encodeResponse('exception', { error: msg });
          }
          if (!sock.destroyed) sock.write(encodeFrame(out));
          if (exception) fail('ABCI connection closed after an exception');
        });
      }
    });
    sock.on('error', (e) => log?.error(`ABCI connection error: ${e.message}`));
    sock.on('close', () => this.sockets.delete(sock));
  }

  /** Stops listening and closes every connection; waits for a request in progress to finish. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await this.lock.run(async () => undefined);
    await done;
    if (this.parsed.kind === 'unix' && existsSync(this.parsed.path)) {
      try { unlinkSync(this.parsed.path); } catch { /* already gone */ }
    }
  }
}
