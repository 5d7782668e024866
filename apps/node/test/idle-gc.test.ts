import { expect } from 'chai';
import { getHeapStatistics } from 'node:v8';
import { exposedGc } from '@chain/store';
import { shouldCollect, startIdleGc } from '../src/idle-gc.js';

describe('idle gc: a full collection when the node falls idle after work', () => {
  const MB = 1024 * 1024;

  it('collects only when idle long enough and the heap grew enough since the last collection', () => {
    const base = { now: 10_000, idleMs: 2000, heldAfterLastGc: 100 * MB, growthBytes: 64 * MB };
    expect(shouldCollect({ ...base, lastActivity: 9_000, held: 400 * MB }), 'busy 1 s ago').to.equal(false);
    expect(shouldCollect({ ...base, lastActivity: 8_000, held: 400 * MB }), 'idle 2 s, grown 300 MB').to.equal(true);
    expect(shouldCollect({ ...base, lastActivity: 0, held: 150 * MB }), 'idle, grown 50 MB').to.equal(false);
  });

  it('gets V8\'s gc() at run time, which frees unreachable objects', () => {
    const gc = exposedGc();
    expect(gc, 'gc').to.be.a('function');
    let garbage: unknown[] | undefined = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `x${i}` }));
    const before = getHeapStatistics().used_heap_size;
    expect((garbage as unknown[]).length).to.equal(300_000);
    garbage = undefined;
    gc!();
    expect(getHeapStatistics().used_heap_size).to.be.lessThan(before - 10 * MB);
  });

  it('does not collect while the event loop is busy (queries, no txs)', async () => {
    let ran = false;
    const stop = startIdleGc({ lastActivity: () => 0, idleMs: 0, growthBytes: -1, checkEveryMs: 50, maxBusy: 0.5, log: { debug: () => { ran = true; } } });
    try {
      // keep the loop ~90% busy for a while: every check finds it over maxBusy
      const until = Date.now() + 600;
      while (Date.now() < until) {
        const t = Date.now();
        while (Date.now() - t < 9) { /* busy */ }
        await new Promise((r) => setImmediate(r));
      }
      expect(ran, 'no collection while busy').to.equal(false);
    } finally {
      stop();
    }
  });

  it('runs the collection from its timer once the app is idle, and stops', async () => {
    let debug: Record<string, unknown> | undefined;
    const stop = startIdleGc({ lastActivity: () => 0, idleMs: 0, growthBytes: -1, checkEveryMs: 20, maxBusy: 1, log: { debug: (_m, f) => { debug = f; } } });
    try {
      const deadline = Date.now() + 5000;
      while (debug === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(debug, 'an idle gc ran').to.have.keys(['ms', 'heldBefore', 'heldAfter', 'trigger']);
      expect(debug!.trigger).to.equal('idle');
    } finally {
      stop();
    }
  });

  it('collects right after a committed block that leaves no tx pending, not after one that leaves some, and unsubscribes on stop', async () => {
    const blockListeners = new Set<() => void>();
    const onBlock = (fn: () => void): (() => void) => { blockListeners.add(fn); return () => blockListeners.delete(fn); };
    const block = async (): Promise<void> => {
      for (const fn of blockListeners) fn();
      await new Promise((r) => setTimeout(r, 20)); // the collection runs after the block's own work (setImmediate)
    };
    let pending = 5;
    const runs: Record<string, unknown>[] = [];
    // a tx ran just now and the idle timer's wait is an hour: only a block can trigger it
    const stop = startIdleGc({
      lastActivity: () => Date.now(), idleMs: 3_600_000, growthBytes: -1, checkEveryMs: 10,
      onBlock, pendingTxs: () => pending, log: { debug: (_m, f) => { runs.push(f!); } },
    });
    try {
      expect(blockListeners.size).to.equal(1);
      await block();
      expect(runs, 'txs still pending after the block').to.have.length(0);
      pending = 0;
      await block();
      expect(runs).to.have.length(1);
      expect(runs[0]!.trigger).to.equal('block');
      // two blocks in the same turn: one collection
      for (const fn of blockListeners) fn();
      await block();
      expect(runs).to.have.length(2);
    } finally {
      stop();
    }
    expect(blockListeners.size, 'unsubscribed').to.equal(0);
  });

  it('a block does not collect when the heap did not grow enough since the last collection', async () => {
    const blockListeners = new Set<() => void>();
    let ran = false;
    const stop = startIdleGc({
      lastActivity: () => Date.now(), idleMs: 3_600_000, growthBytes: 1024 * MB,
      onBlock: (fn) => { blockListeners.add(fn); return () => blockListeners.delete(fn); }, pendingTxs: () => 0,
      log: { debug: () => { ran = true; } },
    });
    try {
      for (const fn of blockListeners) fn();
      await new Promise((r) => setTimeout(r, 20));
      expect(ran).to.equal(false);
    } finally {
      stop();
    }
  });
});
