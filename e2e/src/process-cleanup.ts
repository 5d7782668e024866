/**
 * The last line of a suite's `after` for a node that spawns children (CometBFT mode): whatever the node's own
 * stop did or could not do (a SIGKILLed chaind leaves its CometBFT running; a `startNode` whose node never
 * became ready throws without a handle to stop), every process still running with this test's unique
 * temporary home in its command line (`chaind ... --home DIR`, `cometbft start --home DIR/cometbft`) is
 * SIGKILLed, one pid at a time. Only this user's processes are looked at, and only ones whose arguments name
 * the home, so nothing another test or agent started is touched.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';

/** Pids of this user's processes (other than this one) with `home` or a path under it as an argument. */
export function processesUsingHome(home: string): number[] {
  const dir = home.replace(/\/+$/, '');
  if (dir.length < 8) throw new Error(`processesUsingHome: ${JSON.stringify(home)} is not a test's temporary home`);
  const uid = process.getuid?.();
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.some((a) => a === dir || a.startsWith(`${dir}/`))) out.push(pid);
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** SIGKILLs every process `processesUsingHome(home)` finds and waits (up to 10 s) until they are gone; returns their pids. */
export async function killProcessesUsingHome(home: string): Promise<number[]> {
  const pids = processesUsingHome(home);
  for (const pid of pids) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && processesUsingHome(home).length > 0) await new Promise((r) => setTimeout(r, 50));
  const left = processesUsingHome(home);
  if (left.length > 0) throw new Error(`processes of ${home} still running after SIGKILL: ${left.join(', ')}`);
  return pids;
}
