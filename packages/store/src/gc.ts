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
