/**
 * The tx and block index on a worker thread, in a database of its own (`data/tx_index.db`, CometBFT's name), as
 * CometBFT indexes on its own goroutine: the engine hands each committed block to the worker (`committed`) and goes on
 * with the next block; the worker computes the index writes (`TxIndexer.indexOps`, `blockIndexOps`) and commits them
 * with its indexed height in one batch. On the node's thread a block then costs one message (the results record the block store wrote
 * anyway, moved, not copied) instead of the index writes (tens of LevelDB puts per tx, most of a block's batch).
 *
 * Reads stay consistent with the blocks: the worker handles messages in order and answers a lookup or search only
 * after every block handed to it before that query is indexed. A crash loses at most the blocks not indexed yet: at
 * start the engine indexes the stored blocks above `indexedHeight()` again (`reset()` first when the index is ahead of
 * the block store).
 *
 * Messages to the worker: `index` (height, tx hashes and indexes, events as JSON: the block store's results record), `q` (id, kind, args), `ev` (the
 * events a search asked for), `reset`, `close`. From it: `ready` (indexed height), `r` (answer: value or error), `ev`
 * (a search needs a tx's events: the host loads them from the block store), `fail` (a write failed: the index stops).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Event, Query } from '@chain/events';
import { BinaryWriter, writeEventLists } from '@chain/events';
import type { BatchOp } from '@chain/store';
import type { BlockSearchOptions, BlockSearchResult } from './block-indexer.js';
import type { EventsLoader, IndexedTx, TxIndex, TxRef, TxSearchOptions, TxSearchResult } from './tx-indexer.js';
import { TxSearchError } from './tx-indexer.js';

// The worker module next to this one: index-worker-main.js when compiled; .ts when running from the sources under
// tsx, whose loader Node 20 does not apply in workers: the worker's script then registers it, and a resolve hook that
// adds the `source` condition so the workspace packages it imports resolve to their sources too (as bin/chaind.mjs).
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './index-worker-main.ts' : './index-worker-main.js', import.meta.url).href;
const SOURCE_HOOK = 'data:text/javascript,' + encodeURIComponent(
  "export async function resolve(s, c, next) { return next(s, c.conditions.includes('source') ? c : { ...c, conditions: [...c.conditions, 'source'] }); }",
);
const WORKER_SOURCE = `const { workerData: d } = require('node:worker_threads');
const { register } = require('node:module');
(d.tsx ? import(d.tsx).then((m) => { m.register(); register(d.hook); }) : Promise.resolve()).then(() => import(d.url));`;
let tsxApi: string | undefined;
function tsxApiUrl(): string | undefined {
  if (!FROM_SOURCE) return undefined;
  return (tsxApi ??= pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href);
}

/** A block as the worker receives it. */
export interface IndexMessage {
  t: 'index';
  height: number;
  /** the txs' hashes, 32 bytes each, in the order of `indexes` */
  hashes: Uint8Array;
  indexes: number[];
  /** the block's events: @chain/events' event lists, list 0 the FinalizeBlock events, list i + 1 the tx at index i's */
  events: Uint8Array;
}

export type QueryKind = 'byHash' | 'search' | 'searchBlocks' | 'height' | 'memory';

export interface IndexWorkerOptions {
  /** Called once when the worker fails (a write error, the thread died); the index then answers with that error. */
  readonly onError?: (e: Error) => void;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export class IndexWorker implements TxIndex {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(private readonly worker: Worker, private readonly loadEvents: EventsLoader, private readonly opts: IndexWorkerOptions) {
    worker.on('message', (m: { t: string; id?: number; ok?: boolean; value?: unknown; name?: string; message?: string; height?: number; index?: number }) => {
      if (m.t === 'r') {
        const p = this.pending.get(m.id!);
        if (!p) return;
        this.pending.delete(m.id!);
        this.refs();
        if (m.ok) p.resolve(m.value);
        else p.reject(m.name === 'TxSearchError' ? new TxSearchError(m.message) : new Error(m.message));
      } else if (m.t === 'ev') {
        void this.loadEvents(m.height!, m.index!).then(
          (events) => worker.postMessage({ t: 'ev', id: m.id, events }),
          () => worker.postMessage({ t: 'ev', id: m.id, events: undefined }),
        );
      } else if (m.t === 'fail') {
        this.fail(new Error(`tx index: ${m.message}`));
      }
    });
    worker.on('error', (e) => this.fail(e));
    worker.on('exit', (code) => { if (!this.closing) this.fail(new Error(`tx index: the worker exited (code ${code})`)); });
    worker.unref();
  }

  /** Starts the worker on the database in `dir` (created if missing). */
  static open(dir: string, loadEvents: EventsLoader, opts: IndexWorkerOptions = {}): Promise<IndexWorker> {
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { url: WORKER_URL, tsx: tsxApiUrl(), hook: SOURCE_HOOK, dir } });
    return new Promise((resolve, reject) => {
      const onError = (e: Error): void => { off(); void worker.terminate(); reject(new Error(`tx index ${dir}: ${e.message}`)); };
      const onExit = (code: number): void => { off(); reject(new Error(`tx index ${dir}: the worker exited (code ${code})`)); };
      const onMessage = (m: { t: string; message?: string }): void => {
        off();
        if (m.t === 'ready') resolve(new IndexWorker(worker, loadEvents, opts));
        else { void worker.terminate(); reject(new Error(`tx index ${dir}: ${m.message}`)); }
      };
      const off = (): void => { worker.off('error', onError); worker.off('exit', onExit); worker.off('message', onMessage); };
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.on('message', onMessage);
    });
  }

  blockOps(): BatchOp[] {
    return [];
  }

  committed(height: number, txs: readonly IndexedTx[], finalizeBlockEvents: readonly Event[], eventLists?: Uint8Array): void {
    if (this.failure || this.closing) return;
    const hashes = new Uint8Array(32 * txs.length);
    const indexes: number[] = [];
    for (let i = 0; i < txs.length; i++) {
      const t = txs[i]!;
      if (t.hash.length !== 32) throw new Error(`tx index: a tx hash is 32 bytes, got ${t.hash.length}`);
      hashes.set(t.hash, 32 * i);
      indexes.push(t.index);
    }
    let events = eventLists;
    if (events === undefined) {
      const lists: (readonly Event[])[] = [finalizeBlockEvents];
      for (const t of txs) lists[t.index + 1] = t.events;
      for (let i = 0; i < lists.length; i++) lists[i] ??= [];
      const w = new BinaryWriter(64 * 1024);
      if (!writeEventLists(w, lists)) {
        // ABCI events are strings; the index could not store others (as the in-database index cannot)
        this.fail(new Error(`tx index: block ${height} has an event whose type, key or value is not a string`));
        return;
      }
      events = w.view();
    }
    // its buffer moves to the worker when the view is all of it, else the view is copied
    const whole = events.byteOffset === 0 && events.byteLength === events.buffer.byteLength && !(events.buffer instanceof SharedArrayBuffer);
    if (!whole) events = events.slice();
    const msg: IndexMessage = { t: 'index', height, hashes, indexes, events };
    const transfer = [hashes.buffer, events.buffer as ArrayBuffer];
    this.worker.postMessage(msg, transfer);
  }

  byHash(hash: Uint8Array): Promise<TxRef | undefined> {
    return this.call('byHash', [hash]) as Promise<TxRef | undefined>;
  }

  search(query: Query, opts: TxSearchOptions): Promise<TxSearchResult> {
    return this.call('search', [query.conditions, opts]) as Promise<TxSearchResult>;
  }

  searchBlocks(query: Query, opts: BlockSearchOptions): Promise<BlockSearchResult> {
    return this.call('searchBlocks', [query.conditions, opts]) as Promise<BlockSearchResult>;
  }

  indexedHeight(): Promise<number> {
    return this.call('height', []) as Promise<number>;
  }

  /** The worker's V8 memory (heap and external buffers) and how many idle collections it ran, after the blocks handed over before. */
  memory(): Promise<{ heldBytes: number; collections: number }> {
    return this.call('memory', []) as Promise<{ heldBytes: number; collections: number }>;
  }

  reset(): Promise<void> {
    return this.call('reset', []) as Promise<void>;
  }

  /** Indexes what was handed over, closes the database and ends the worker. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.failure) {
        await new Promise<void>((resolve) => {
          this.worker.once('exit', () => resolve());
          this.worker.ref();
          this.worker.postMessage({ t: 'close' });
        });
      } else {
        await this.worker.terminate();
      }
      for (const p of this.pending.values()) p.reject(new Error('tx index: closed'));
      this.pending.clear();
    })();
    return this.closing;
  }

  private call(kind: QueryKind | 'reset', args: unknown[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new Error('tx index: closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.refs();
      this.worker.postMessage({ t: 'q', id, kind, args });
    });
  }

  /** The worker keeps the process alive only while an answer is awaited. */
  private refs(): void {
    if (this.pending.size > 0) this.worker.ref();
    else if (!this.closing) this.worker.unref();
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.refs();
    this.opts.onError?.(e);
  }
}
