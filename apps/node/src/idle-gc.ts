/**
 * A full garbage collection when the node falls idle after work, so its memory goes back to the system at once
 * instead of whenever V8's memory reducer gets to it (in the bench, 25 s or more after the last block of a load,
 * or not within a minute; the JS objects alive after 20,000 sends were ~90 MB of a ~450 MB heap). V8 keeps the
 * heap it grew under load even once its own collections have emptied it; a compacting full collection gives it back.
 *
 * Idle: no tx ran (CheckTx, a block's tx, a simulation) for `idleMs` (default 1 s, a block interval), and the event
 * loop was busy less than 25% of the last check's interval (250 ms; a node serving queries is not idle). Then, when
 * the memory V8 holds (its heap plus the external buffers it tracks) grew by more than `growthBytes` since the last
 * forced collection (or the start), one full collection that compacts the whole old generation (`exposedCompactingGc`,
 * ~70-200 ms) runs in that idle gap; under load it never runs. A plain `gc()` left the heap it emptied in place: after 50,000 bank sends,
 * 490 MB held for 90 MB alive, until V8's memory reducer, 30 s or more later. `gc` comes from V8 (`--expose-gc` set
 * at run time, the way jest does), so no Node.js flag is needed. `CHAIND_IDLE_GC=0` turns it off.
 *
 * A committed block that leaves the node's mempool empty is an idle moment too (`onBlock` with `pendingTxs`): nothing
 * is left to run until the next block's proposal, `timeout_commit` later, so the same test runs then, right after the
 * block (the embedded engine; CometBFT's mempool is not the node's to see). The load's last block frees its memory at
 * once instead of 1-2 s later: two blocks after 20,000 sends the bench read 359 MB in the middle of the timer's
 * collection, ~293 MB once it was done.
 */
import { getHeapStatistics } from 'node:v8';
import { exposedCompactingGc } from '@chain/store';
import { performance } from 'node:perf_hooks';

export interface IdleGcOptions {
  /** ms since the last tx activity (see `App.lastTxActivity`) */
  readonly lastActivity: () => number;
  readonly idleMs?: number;
  readonly growthBytes?: number;
  /** how often the conditions are checked (default 250 ms: the collection runs within a quarter second of `idleMs`) */
  readonly checkEveryMs?: number;
  /** the event loop's utilization over the last check above which the node is not idle (default 0.25) */
  readonly maxBusy?: number;
  readonly log?: { debug(msg: string, fields?: Record<string, unknown>): void };
  /** subscribes to committed blocks (returns its unsubscribe); with `pendingTxs`, also tests right after each block */
  readonly onBlock?: (fn: () => void) => () => void;
  /** the txs waiting to run (the mempool's size): a block is an idle moment only when none is left */
  readonly pendingTxs?: () => number;
}

/** Whether to collect now: idle long enough, and V8's memory grew enough since the last forced collection. */
export function shouldCollect(o: { now: number; lastActivity: number; idleMs: number; held: number; heldAfterLastGc: number; growthBytes: number }): boolean {
  return o.now - o.lastActivity >= o.idleMs && o.held - o.heldAfterLastGc >= o.growthBytes;
}

/** The memory V8 holds: its committed heap and the external (ArrayBuffer) memory it accounts for. */
function held(): number {
  const h = getHeapStatistics();
  return h.total_heap_size + h.external_memory;
}

/** Starts the idle collector; returns its stop function (a no-op when it is off or gc is not available). */
export function startIdleGc(o: IdleGcOptions): () => void {
  if (process.env.CHAIND_IDLE_GC === '0') return () => undefined;
  const gc = exposedCompactingGc();
  if (gc === undefined) return () => undefined;
  const idleMs = o.idleMs ?? 1000;
  const growthBytes = o.growthBytes ?? 64 * 1024 * 1024;
  const maxBusy = o.maxBusy ?? 0.25;
  let heldAfterLastGc = held();
  let elu = performance.eventLoopUtilization();
  /** the collection, when V8's memory grew enough since the last one (or since it gave memory back by itself) */
  const collectIfGrown = (trigger: 'idle' | 'block', due: (now: number) => boolean): void => {
    const now = held();
    if (now < heldAfterLastGc) heldAfterLastGc = now; // V8 gave memory back by itself
    if (!due(now)) return;
    const t = performance.now();
    gc();
    heldAfterLastGc = held();
    o.log?.debug('idle gc', { ms: Math.round(performance.now() - t), heldBefore: now, heldAfter: heldAfterLastGc, trigger });
  };
  const timer = setInterval(() => {
    // idle means the event loop too: queries (REST, gRPC, RPC) keep it busy without any tx
    const since = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    if (since.utilization > maxBusy) return;
    collectIfGrown('idle', (now) => shouldCollect({ now: Date.now(), lastActivity: o.lastActivity(), idleMs, held: now, heldAfterLastGc, growthBytes }));
  }, o.checkEveryMs ?? 250);
  timer.unref();
  // after a block: once the engine has finished it (its mempool update runs right after the block's event), and only
  // when no tx is left to run
  const pendingTxs = o.pendingTxs;
  let afterBlock: NodeJS.Immediate | undefined;
  const offBlock = o.onBlock !== undefined && pendingTxs !== undefined
    ? o.onBlock(() => {
      afterBlock ??= setImmediate(() => {
        afterBlock = undefined;
        if (pendingTxs() === 0) collectIfGrown('block', (now) => now - heldAfterLastGc >= growthBytes);
      });
    })
    : undefined;
  return () => {
    clearInterval(timer);
    offBlock?.();
    if (afterBlock !== undefined) clearImmediate(afterBlock);
  };
}
