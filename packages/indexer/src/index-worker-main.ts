/**
 * The worker side of `IndexWorker` (index-worker.ts): a `TxIndexer` over the index's own database. Blocks are indexed
 * one after the other, each in one batch with the indexed height; a query waits for the blocks received before it.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { BinaryReader, Query, readEventLists } from '@chain/events';
import type { Condition, Event } from '@chain/events';
import { RawStore, exposedCompactingGc } from '@chain/store';
import type { IndexMessage, QueryKind } from './index-worker.js';
import { be64, readBe64 } from './keys.js';
import { TxIndexer } from './tx-indexer.js';
import type { IndexedTx } from './tx-indexer.js';

/** The last indexed height (below the index's own namespaces 0x20-0x24). */
const HEIGHT_KEY = Uint8Array.of(0x01);

const port = parentPort!;
const { dir } = workerData as { dir: string };

let store: RawStore;
try {
  store = await RawStore.open(dir);
} catch (e) {
  // LevelDB's reason (e.g. the database is locked by another process) is the cause of abstract-level's error
  const cause = (e as { cause?: Error }).cause;
  port.postMessage({ t: 'fail', message: cause ? `${(e as Error).message}: ${cause.message}` : (e as Error).message });
  process.exit(1);
}
const stored = await store.getRaw(HEIGHT_KEY);
let height = stored && stored.length === 8 ? readBe64(stored) : 0;

const eventRequests = new Map<number, (events: readonly Event[] | undefined) => void>();
let nextEventRequest = 1;
const indexer = new TxIndexer(store, (h, index) => new Promise((resolve) => {
  const id = nextEventRequest++;
  eventRequests.set(id, resolve);
  port.postMessage({ t: 'ev', id, height: h, index });
}));

/** Blocks and resets, in order; a query waits for the chain as it was when the query arrived. */
let chain: Promise<void> = Promise.resolve();
let failure: string | undefined;

// A full, compacting collection when the index falls idle: a loaded block's events decode into tens of MB of short-lived objects,
// and V8 keeps the heap it grew until its memory reducer gets to it (the node's thread does the same, idle-gc.ts).
// Only when no block is being indexed: one collected while a block's write was pending kept that block's objects,
// and the heap then stayed at that size (after 20,000 bank sends: 43 MB used of 75 MB held, 8 MB before the load); a
// block that ends schedules the next try: 1 s later, or at once after a block without txs (the load that grew the heap
// has ended; with 1 s blocks, a 1 s wait was reset by each empty block's arrival and the collection came 2-3 s after
// the load, its ~65 MB still held two blocks after it).
const gc = exposedCompactingGc();
const heldBytes = (): number => { const h = getHeapStatistics(); return h.total_heap_size + h.external_memory; };
let heldAfterGc = heldBytes();
let collections = 0;
let idleTimer: NodeJS.Timeout | undefined;
/** blocks being indexed (parsed, their write pending) */
let indexing = 0;
function collectWhenIdle(afterMs: number): void {
  if (!gc) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (indexing > 0 || heldBytes() - heldAfterGc < 16 * 1024 * 1024) return;
    gc();
    collections++;
    heldAfterGc = heldBytes();
  }, afterMs);
  idleTimer.unref();
}

async function index(m: IndexMessage): Promise<void> {
  if (failure || m.height <= height) return; // indexed before a restart: the engine hands over from its stored height
  indexing++;
  try {
    const lists = readEventLists(new BinaryReader(m.events));
    const blockEvents = lists[0] ?? [];
    const eventsOf = (index: number): readonly Event[] => lists[index + 1] ?? [];
    const txs: IndexedTx[] = m.indexes.map((index, i) => ({ hash: m.hashes.subarray(32 * i, 32 * i + 32), height: m.height, index, events: eventsOf(index) }));
    const ops = indexer.blockOps(m.height, txs, blockEvents);
    ops.push({ type: 'put', key: HEIGHT_KEY, value: be64(m.height) });
    await store.write(ops);
    height = m.height;
  } finally {
    indexing--;
  }
  collectWhenIdle(m.indexes.length === 0 ? 0 : 1000);
}

async function answer(kind: QueryKind | 'reset', args: unknown[]): Promise<unknown> {
  switch (kind) {
    case 'byHash': return indexer.byHash(args[0] as Uint8Array);
    case 'search': return indexer.search(Query.fromConditions(args[0] as Condition[]), args[1] as Parameters<TxIndexer['search']>[1]);
    case 'searchBlocks': return indexer.searchBlocks(Query.fromConditions(args[0] as Condition[]), args[1] as Parameters<TxIndexer['searchBlocks']>[1]);
    case 'height': return height;
    case 'memory': return { heldBytes: heldBytes(), collections };
    case 'reset':
      await store.clear();
      height = 0;
      return undefined;
  }
}

const onFailure = (e: unknown): void => {
  if (failure) return;
  failure = (e as Error).message ?? String(e);
  port.postMessage({ t: 'fail', message: failure });
};

port.on('message', (m: IndexMessage | { t: 'q'; id: number; kind: QueryKind | 'reset'; args: unknown[] } | { t: 'ev'; id: number; events: readonly Event[] | undefined } | { t: 'close' }) => {
  switch (m.t) {
    case 'index':
      chain = chain.then(() => index(m)).catch(onFailure);
      break;
    case 'q': {
      const run = (): Promise<unknown> => (failure ? Promise.reject(new Error(failure)) : answer(m.kind, m.args));
      // a reset is a write: later blocks and queries wait for it
      const done = chain.then(run);
      if (m.kind === 'reset') chain = done.then(() => undefined, () => undefined);
      done.then(
        (value) => port.postMessage({ t: 'r', id: m.id, ok: true, value }),
        (e: Error) => port.postMessage({ t: 'r', id: m.id, ok: false, name: e?.constructor?.name, message: e?.message ?? String(e) }),
      );
      break;
    }
    case 'ev': {
      const resolve = eventRequests.get(m.id);
      eventRequests.delete(m.id);
      resolve?.(m.events);
      break;
    }
    case 'close':
      void chain.then(() => store.close()).finally(() => process.exit(0));
      break;
  }
});
port.postMessage({ t: 'ready', height });
