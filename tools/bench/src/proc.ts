/**
 * What the benches read of a process (/proc: memory, CPU time) and the forked load generators (load-worker.ts).
 */
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** VmRSS and VmHWM (peak) of a process in bytes. */
export function procMemory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string): number => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) of a process in ms. */
export function procCpuMs(pid: number): number {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

const WORKER = new URL('./load-worker.ts', import.meta.url).pathname;

/** Forks `jobs.length` generator processes, hands each its job, starts them together, collects the results. */
export async function runWorkers<R>(jobs: unknown[]): Promise<{ results: R[]; startedAt: number }> {
  const children = jobs.map(() => fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const results: Promise<R>[] = children.map((c) => new Promise<R>((resolve, reject) => {
    c.on('message', (m: any) => {
      if (m.type === 'result') resolve(m.result as R);
      if (m.type === 'error') reject(new Error(m.error));
    });
    c.on('exit', (code) => { if (code !== 0) reject(new Error(`load worker exited with ${code}`)); });
  }));
  await Promise.all(children.map((c, i) => new Promise<void>((resolve) => {
    c.on('message', (m: any) => { if (m.type === 'ready') resolve(); });
    c.send({ type: 'job', job: jobs[i] });
  })));
  const startedAt = Date.now();
  for (const c of children) c.send({ type: 'go' });
  return { results: await Promise.all(results), startedAt };
}

