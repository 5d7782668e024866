/**
 * A reference EVM dev node for cross-checks and benchmarks: `hardhat node` (hardhat 2, EDR) as a child
 * process on a free local port, with the project in `e2e/hardhat/` (hardhat needs a config file inside the
 * project tree; that one matches a `chaind dev` node: chain id 1337, Prague, 1 gwei initial base fee, the
 * `test test ... junk` accounts with 10^24 wei). HTTP and websocket share the port. Blocks are mined on
 * demand (automine: one block per transaction).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from './node-process.js';

const PROJECT = new URL('../hardhat/', import.meta.url).pathname;
const CLI = new URL('../../node_modules/hardhat/internal/cli/cli.js', import.meta.url).pathname;

export interface HardhatHandle {
  readonly url: string;
  readonly wsUrl: string;
  readonly proc: ChildProcess;
  /** captured stdout and stderr */
  readonly output: () => string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited */
  stop(): Promise<void>;
}

async function blockNumber(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    });
    return r.ok && typeof ((await r.json()) as { result?: unknown }).result === 'string';
  } catch {
    return false;
  }
}

/** Starts `hardhat node` and waits until eth_blockNumber answers (at most `timeoutMs`). */
export async function startHardhat(timeoutMs = 90_000): Promise<HardhatHandle> {
  const port = await freePort();
  const proc = spawn(process.execPath, [CLI, 'node', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: PROJECT,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', HARDHAT_DISABLE_TELEMETRY: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // `hardhat node` logs every request; keep only the tail
  const keep = (d: Buffer): void => { out = (out + d.toString()).slice(-20_000); };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const handle: HardhatHandle = {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
      });
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await blockNumber(handle.url))) {
    if (proc.exitCode !== null) throw new Error(`hardhat node exited with ${proc.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`hardhat node did not answer within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return handle;
}
