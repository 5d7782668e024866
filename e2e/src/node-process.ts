/** Starts a real `chaind` process on free ports in a temporary home, for end-to-end tests. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../../apps/node/src/main.ts', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

/** ports this process has handed out: the kernel may give a just-released port to the next bind(0) */
const handedOut = new Set<number>();

/**
 * A free local port, never one this process handed out before (a node and hardhat started at once would
 * otherwise get the same released port and one of them would answer on the other's URL).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

export interface NodeHandle {
  readonly home: string;
  readonly rpcUrl: string;
  readonly restUrl: string;
  readonly wsUrl: string;
  /** Ethereum JSON-RPC over HTTP and websocket (served when the dev config enables it) */
  readonly ethUrl: string;
  readonly ethWsUrl: string;
  /** gRPC `host:port` (the last `--grpc.address` given, `extraArgs` included) */
  readonly grpcAddress: string;
  proc: ChildProcess;
  output: string;
  /** sends SIGTERM and waits for exit */
  stop(): Promise<void>;
  /** SIGKILL, no cleanup */
  kill(): Promise<void>;
  /** starts the process again on the same home and ports */
  restart(): Promise<void>;
  /** removes the home folder (after stop) */
  cleanup(): void;
}

export interface StartOptions {
  readonly timeoutCommit?: string;
  readonly extraArgs?: readonly string[];
  readonly home?: string;
  /**
   * `cometbft`: `--consensus cometbft`, the app behind a spawned CometBFT (its RPC on rpcUrl; ABCI and p2p on
   * free ports). The process is a group leader then, so `kill()` SIGKILLs chaind and CometBFT together.
   * The binary must be built first (`ensureCometbft()` from `@chain/cometbft`, in the test's before()).
   */
  readonly consensus?: 'embedded' | 'cometbft';
}

async function waitReady(rpcUrl: string, proc: ChildProcess, out: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`chaind exited with ${proc.exitCode}:\n${out()}`);
    try {
      const r = await fetch(`${rpcUrl}/status`);
      if (r.ok) {
        const j = (await r.json()) as { result: { sync_info: { latest_block_height: string } } };
        if (Number(j.result.sync_info.latest_block_height) >= 1) return;
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`chaind did not become ready:\n${out()}`);
}

export async function startNode(opts: StartOptions = {}): Promise<NodeHandle> {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'chaind-e2e-'));
  const rpcPort = await freePort();
  const apiPort = await freePort();
  const grpcPort = await freePort();
  const ethPort = await freePort();
  const ethWsPort = await freePort();
  const args = [
    '--conditions=source', '--import', 'tsx', MAIN, 'dev', '--home', home,
    '--rpc.laddr', `tcp://127.0.0.1:${rpcPort}`,
    '--api.address', `tcp://127.0.0.1:${apiPort}`,
    '--consensus.timeout_commit', opts.timeoutCommit ?? '200ms',
    '--grpc.address', `127.0.0.1:${grpcPort}`,
    '--json-rpc.address', `127.0.0.1:${ethPort}`,
    '--json-rpc.ws-address', `127.0.0.1:${ethWsPort}`,
    ...(opts.consensus === 'cometbft'
      ? ['--consensus', 'cometbft', '--abci.laddr', `tcp://127.0.0.1:${await freePort()}`, '--p2p.laddr', `tcp://127.0.0.1:${await freePort()}`]
      : []),
    ...(opts.extraArgs ?? []),
  ];
  const group = opts.consensus === 'cometbft';
  const handle: NodeHandle = {
    home,
    rpcUrl: `http://127.0.0.1:${rpcPort}`,
    restUrl: `http://127.0.0.1:${apiPort}`,
    wsUrl: `ws://127.0.0.1:${rpcPort}/websocket`,
    ethUrl: `http://127.0.0.1:${ethPort}`,
    ethWsUrl: `ws://127.0.0.1:${ethWsPort}`,
    grpcAddress: args[args.lastIndexOf('--grpc.address') + 1]!,
    proc: undefined as unknown as ChildProcess,
    output: '',
    async stop() {
      const p = handle.proc;
      if (p.exitCode !== null || p.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
        setTimeout(() => p.kill('SIGKILL'), 10_000).unref();
      });
    },
    async kill() {
      const p = handle.proc;
      if (p.exitCode !== null || p.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        if (group) process.kill(-p.pid!, 'SIGKILL');
        else p.kill('SIGKILL');
      });
    },
    async restart() {
      launch();
      await waitReady(handle.rpcUrl, handle.proc, () => handle.output);
    },
    cleanup() {
      rmSync(home, { recursive: true, force: true });
    },
  };
  const launch = (): void => {
    const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
    proc.stdout!.on('data', (d: Buffer) => { handle.output += d.toString(); });
    proc.stderr!.on('data', (d: Buffer) => { handle.output += d.toString(); });
    handle.proc = proc;
  };
  launch();
  await waitReady(handle.rpcUrl, handle.proc, () => handle.output);
  return handle;
}
