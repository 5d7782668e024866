/**
 * V8's `gc()`, exposed at run time (`--expose-gc` set through `v8.setFlagsFromString`, the way jest does), so no
 * Node.js flag is needed: for the parts that give memory back when they fall idle (the node's idle collector, the tx
 * index worker). Each isolate (a worker thread's too) gets its own. Undefined if this runtime refuses.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function exposedGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    return typeof fn === 'function' ? (fn as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A full collection that also compacts every page of the old generation, so the heap V8 holds shrinks to about what
 * is alive and the pages go back to the system: for a process falling idle after a load. A plain `gc()` frees the
 * objects but evacuates only the few most fragmented pages: after 50,000 bank sends the node's heap stayed at ~490 MB
 * with ~90 MB alive (RSS ~1 GB) until V8's memory reducer got to it, 30 s or more later. This one sets V8's
 * `--compact-on-every-full-gc` for the one collection (the flag is read when a collection starts; it is process-wide,
 * so a worker's collection meanwhile compacts too). Costs about the copying of what is alive (~100-200 ms for ~100 MB).
 * Undefined when `gc` is not available.
 */
export function exposedCompactingGc(): (() => void) | undefined {
  const gc = exposedGc();
  if (gc === undefined) return undefined;
  return () => {
    try {
      setFlagsFromString('--compact-on-every-full-gc');
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
