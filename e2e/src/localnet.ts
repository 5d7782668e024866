/** Helpers for the `chaind localnet` e2e tests: the CLI, pids, heights and blocks of the nodes. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcCall } from './clients.js';

const CHAIND = new URL('../../apps/node/bin/chaind.mjs', import.meta.url).pathname;
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface LnNode { rest: string; rpc: string; grpc: string; eth: string; ethWs: string; pids: number[]; home: string; moniker: string }

/** Runs `chaind ARGS` (the CLI), resolving with its stdout. */
export function chaind(args: string[], timeoutMs = 240_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHAIND, ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`chaind ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

export function readNodes(dir: string): LnNode[] {
  return JSON.parse(readFileSync(join(dir, 'localnet.json'), 'utf8')).nodes;
}

/** alive and not a zombie (an exited process its reparented parent has not reaped yet) */
export function alive(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch { return false; }
}

export async function height(n: { rpc: string }): Promise<number> {
  return Number((await rpcCall(n.rpc, 'status')).result.sync_info.latest_block_height);
}

export async function waitHeight(n: { rpc: string; home?: string }, h: number, timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    let cur = -1;
    try { cur = await height(n); } catch { /* restarting */ }
    if (cur >= h) return cur;
    if (Date.now() > end) throw new Error(`${n.home ?? n.rpc}: height ${cur} did not reach ${h}`);
    await sleep(200);
  }
}

export async function blockAt(n: { rpc: string }, h: number): Promise<{ hash: string; appHash: string }> {
  const b = (await rpcCall(n.rpc, 'block', { height: String(h) })).result;
  return { hash: b.block_id.hash, appHash: b.block.header.app_hash };
}

/** Polls `probe` until it returns a value other than undefined. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 300): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    let v: T | undefined;
    try { v = await probe(); } catch { /* not yet */ }
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * `chaind localnet start` in a new temporary folder (`tag` names it): builds CometBFT first if needed (a few
 * minutes, once). Returns the folder, the CLI's output and the nodes of localnet.json.
 */
export async function startLocalnet(tag: string, args: string[]): Promise<{ dir: string; out: string; nodes: LnNode[] }> {
  const { ensureCometbft } = await import('@chain/cometbft');
  await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), `chaind-${tag}-`));
    try {
      const out = await chaind(['localnet', 'start', '--home', dir, ...args]);
      return { dir, out, nodes: readNodes(dir) };
    } catch (e) {
      await teardownLocalnet(dir);
      // the free ports it picked can be taken by another process before its nodes bind them: pick again, once
      if (attempt >= 2 || !/EADDRINUSE/.test((e as Error).message)) throw e;
    }
  }
}

/** Stops the localnet in `dir` (unless `stopped`), SIGKILLs whatever of it survived, and removes the folder. */
export async function teardownLocalnet(dir: string | undefined, o: { stopped?: boolean } = {}): Promise<void> {
  if (!dir) return;
  if (!o.stopped) await chaind(['localnet', 'stop', '--home', dir]).catch(() => undefined);
  let nodes: LnNode[] = [];
  try { nodes = readNodes(dir); } catch { /* no localnet.json */ }
  for (const p of nodes.flatMap((n) => n.pids)) if (alive(p)) process.kill(p, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
