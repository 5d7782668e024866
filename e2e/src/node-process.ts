/** Starts a real `chaind` process on free ports in a temporary home, for end-to-end tests. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { initHome } from '@chain/node';
import { chaind, startLocalnet } from './localnet.js';
import type { LnNode } from './localnet.js';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../../apps/node/src/main.ts', import.meta.url).pathname;
const BIN = new URL('../../apps/node/bin/chaind.mjs', import.meta.url).pathname;
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
  /** Node.js flags for the chaind process, before its script (e.g. `--cpu-prof`) */
  readonly nodeArgs?: readonly string[];
  readonly home?: string;
  /**
   * `cometbft`: `--consensus cometbft`, the app behind a spawned CometBFT (its RPC on rpcUrl; ABCI and p2p on
   * free ports). The process is a group leader then, so `kill()` SIGKILLs chaind and CometBFT together.
   * The binary must be built first (`ensureCometbft()` from `@chain/cometbft`, in the test's before()).
   */
  readonly consensus?: 'embedded' | 'cometbft';
  /**
   * Run `apps/node/bin/chaind.mjs` (the compiled build when it is current, as a user's `chaind`; the benches build
   * first) instead of the TypeScript sources through tsx, which the tests run so that no build step is needed.
   */
  readonly compiled?: boolean;
  /** (startTargetNode) changes the genesis before the chain starts: a fresh dev home's, or the localnet's */
  readonly patchGenesis?: (genesis: any) => void;
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
    ...(opts.nodeArgs ?? []),
    ...(opts.compiled ? [BIN] : ['--conditions=source', '--import', 'tsx', MAIN]), 'dev', '--home', home,
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

/**
 * The target of the suites that must behave the same in both consensus modes (REST, tx search, the CometBFT
 * RPC and websocket, the Ethereum JSON-RPC): `E2E_TARGET=localnet` runs them against node 0 of a 2-validator
 * `chaind localnet` (real CometBFT v0.38, blocks proposed by both validators in turn), otherwise against
 * `chaind dev` (the embedded engine). `npm test` runs them both ways (e2e/package.json).
 */
export const E2E_TARGET: 'dev' | 'localnet' = process.env.E2E_TARGET === 'localnet' ? 'localnet' : 'dev';

/** Validators of the `E2E_TARGET=localnet` network. */
export const TARGET_VALIDATORS = 2;

/**
 * `startNode(opts)`, or with `E2E_TARGET=localnet` a localnet whose node 0 the handle points at (`extraArgs`
 * go to every node; `home` and `consensus` are not supported there). `stop()` stops the whole network.
 */
export async function startTargetNode(opts: StartOptions = {}): Promise<NodeHandle> {
  if (E2E_TARGET === 'dev') {
    if (!opts.patchGenesis) return startNode(opts);
    const home = opts.home ?? mkdtempSync(join(tmpdir(), 'chaind-e2e-'));
    if (!opts.home) initHome({ home, dev: true });
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    opts.patchGenesis(genesis);
    writeFileSync(file, JSON.stringify(genesis));
    return startNode({ ...opts, home });
  }
  if (opts.home !== undefined || opts.consensus !== undefined) throw new Error('startTargetNode: home/consensus are not supported with E2E_TARGET=localnet');
  const patchArgs: string[] = [];
  let patchDir: string | undefined;
  if (opts.patchGenesis) {
    // the patch is what the callback changes in a dev genesis (a JSON merge patch for `--genesis-patch`)
    patchDir = mkdtempSync(join(tmpdir(), 'chaind-e2e-genesis-'));
    initHome({ home: patchDir, dev: true });
    const genesis = JSON.parse(readFileSync(join(patchDir, 'config', 'genesis.json'), 'utf8'));
    const before = JSON.stringify(genesis);
    opts.patchGenesis(genesis);
    writeFileSync(join(patchDir, 'genesis-patch.json'), JSON.stringify(jsonDiff(JSON.parse(before), genesis) ?? {}));
    patchArgs.push('--genesis-patch', join(patchDir, 'genesis-patch.json'));
  }
  let dir: string;
  let nodes: LnNode[];
  try {
    ({ dir, nodes } = await startLocalnet('e2e-localnet', ['--validators', String(TARGET_VALIDATORS), '--timeout-commit', opts.timeoutCommit ?? '200ms', ...patchArgs, '--', ...(opts.extraArgs ?? [])]));
  } finally {
    if (patchDir) rmSync(patchDir, { recursive: true, force: true });
  }
  const n = nodes[0]!;
  let stopped = false;
  const handle: NodeHandle = {
    home: n.home,
    rpcUrl: n.rpc,
    restUrl: n.rest,
    wsUrl: `${n.rpc.replace(/^http/, 'ws')}/websocket`,
    ethUrl: n.eth,
    ethWsUrl: n.ethWs,
    grpcAddress: n.grpc,
    get proc(): ChildProcess {
      throw new Error('a localnet target has no child process of this test (its nodes run detached)');
    },
    set proc(_p: ChildProcess) {
      throw new Error('a localnet target has no child process of this test');
    },
    get output(): string {
      try { return readFileSync(join(n.home, 'chaind.log'), 'utf8'); } catch { return ''; }
    },
    set output(_s: string) { /* read from the log */ },
    async stop() {
      if (stopped) return;
      stopped = true;
      await chaind(['localnet', 'stop', '--home', dir]);
    },
    async kill() {
      for (const node of nodes) for (const pid of node.pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
      stopped = true;
    },
    async restart() {
      throw new Error('restart() is not supported for a localnet target');
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

/** The changes from `a` to `b` as a merge patch (objects key by key, other values whole); undefined if equal. */
function jsonDiff(a: unknown, b: unknown): unknown {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(b)) {
      const d = jsonDiff(a[k], b[k]);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : b;
}
