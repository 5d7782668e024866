/**
 * The streaming sorted build (build.ts) on a worker thread (`IavlTree.beginSortedOnWorker`): the caller's thread
 * only packs the entries (key, value) into buffers it transfers to the worker; the worker runs the same
 * `SortedBuilder` and `ChunkWriter` (hashing, numbering, encoding) and transfers the finished chunk records back,
 * which this side puts into the caller's sink; at the end it sends the root node, which this side stages in the
 * tree exactly as the in-thread build does. Used for the first block after a large genesis (the trees of the big
 * stores are built at the same time as the caller merges and writes the flat state, on the other core).
 *
 * Messages (every buffer transferred, never copied):
 *   to the worker:   { t: 'add', buf, end }  entries packed as u32le key length, u32le value length, key, value,
 *                                           and the leaf hash (32 bytes) when the key length has bit 31 set
 *                    { t: 'finish' }
 *   from the worker: { t: 'rec', buf, end } one per 'add': the chunk records completed, packed the same way
 *                    { t: 'done', buf, end, next, root? } the last records, the next free id, the root node
 *                                           (BE64 id, 32-byte hash, encoded node), absent for an empty tree
 *                    { t: 'err', message }
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BuildHost } from './build.js';
import { type Bytes, compareBytes, readBE64, readU32le, writeU32le } from './encoding.js';
import { HASH_SIZE, type Node, decodeNode, hashFromBytes } from './node.js';
import type { BatchSink, SavedVersion } from './tree.js';

/** Bytes of entries per message to the worker. */
const PACK_BYTES = 1 << 20;
/** Packs sent and not answered before `pump()` waits. */
const MAX_IN_FLIGHT = 2;

// The worker module next to this one: build-worker.js when compiled; build-worker.ts when running from the sources.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './build-worker.ts' : './build-worker.js', import.meta.url).href;

/**
 * A worker thread running the module at `url` (a file URL) with `workerData` (plus `url`, `tsx`). A `.ts` module (the
 * sources under tsx, whose loader Node 20 does not apply in workers) is loaded after registering tsx's loader in the
 * worker, by a one-line script.
 */
export function moduleWorker(url: string, workerData: Record<string, unknown>): Worker {
  return new Worker(WORKER_SOURCE, { eval: true, workerData: { ...workerData, url, tsx: url.endsWith('.ts') ? tsxApiUrl() : undefined } });
}

const WORKER_SOURCE = `const { workerData: d } = require('node:worker_threads');
(d.tsx ? import(d.tsx).then((m) => m.register()) : Promise.resolve()).then(() => import(d.url));`;
let tsxApi: string | undefined;
function tsxApiUrl(): string {
  // the CommonJS entry's path gives the package folder; the ESM entry is next to it
  return (tsxApi ??= pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href);
}

/** Puts every record of a pack into `sink` (views into `buf`, which the sink may keep). */
export function unpackInto(buf: Uint8Array, end: number, sink: BatchSink): void {
  let off = 0;
  while (off < end) {
    const kl = readU32le(buf, off);
    const vl = readU32le(buf, off + 4);
    off += 8;
    sink.put(buf.subarray(off, off + kl), buf.subarray(off + kl, off + kl + vl));
    off += kl + vl;
  }
}

/** The key length word of a packed entry that carries its leaf hash (bit 31). */
export const WITH_LEAF_HASH = 0x80000000;

/** Appends (key, value) entries (and, to a build worker, their leaf hashes) to transferable buffers of about `size` bytes. */
export class Packer {
  buf: Uint8Array;
  pos = 0;
  constructor(private readonly size: number) {
    this.buf = new Uint8Array(size);
  }

  /** Whether `add` of this many key and value bytes (and a leaf hash when `hashed`) fits without a new buffer. */
  fits(kl: number, vl: number, hashed = false): boolean {
    return this.pos + 8 + kl + vl + (hashed ? HASH_SIZE : 0) <= this.buf.length;
  }

  add(key: Bytes, value: Bytes, leafHash?: Bytes): void {
    const need = 8 + key.length + value.length + (leafHash === undefined ? 0 : HASH_SIZE);
    if (this.pos + need > this.buf.length) {
      const next = new Uint8Array(Math.max(this.size, 2 * this.buf.length, this.pos + need));
      next.set(this.buf.subarray(0, this.pos));
      this.buf = next;
    }
    const b = this.buf;
    let p = this.pos;
    writeU32le(b, p, leafHash === undefined ? key.length : (key.length | WITH_LEAF_HASH) >>> 0);
    writeU32le(b, p + 4, value.length);
    p += 8;
    b.set(key, p);
    b.set(value, p + key.length);
    p += key.length + value.length;
    if (leafHash !== undefined) {
      b.set(leafHash.subarray(0, HASH_SIZE), p);
      p += HASH_SIZE;
    }
    this.pos = p;
  }

  /** The packed bytes so far and their length; the packer starts a new buffer. */
  take(): { buf: Uint8Array; end: number } {
    const out = { buf: this.buf, end: this.pos };
    this.buf = new Uint8Array(this.size);
    this.pos = 0;
    return out;
  }
}

interface WorkerMessage {
  t: 'rec' | 'done' | 'err';
  buf?: Uint8Array;
  end?: number;
  next?: number;
  root?: Uint8Array;
  message?: string;
}

/** A sorted build running on a worker thread; see the file comment and `IavlTree.beginSortedOnWorker`. */
export class RemoteSortedBuild {
  private readonly worker: Worker;
  private readonly packer = new Packer(PACK_BYTES);
  private inFlight = 0;
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private last: Bytes | undefined;
  private state: 'adding' | 'finishing' | 'finished' | 'aborted' = 'adding';
  private onDone: ((m: WorkerMessage) => void) | undefined;
  private onFail: ((e: Error) => void) | undefined;
  private root: Node | undefined;
  private nextId: number;
  /** Entries added. */
  count = 0;

  constructor(
    prefix: Bytes,
    readonly version: number,
    private readonly firstId: number,
    private readonly sink: BatchSink,
    private readonly host: BuildHost,
  ) {
    this.nextId = firstId;
    this.worker = moduleWorker(WORKER_URL, { prefix: Uint8Array.from(prefix), version, firstId });
    this.worker.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => {
      if (this.state !== 'finished' && this.state !== 'aborted') this.fail(new Error(`iavl: the sorted build worker exited (code ${code})`));
    });
  }

  /** Add the next entry (strictly ascending keys, as `SortedBuild.add`; the bytes are copied). */
  add(key: Bytes, value: Bytes, leafHash?: Bytes): void {
    if (this.state !== 'adding') throw new Error('iavl: the sorted build is finished');
    if (this.failure !== undefined) throw this.failure;
    if (!(key instanceof Uint8Array) || key.length === 0) throw new TypeError('iavl: key must be a non-empty Uint8Array');
    if (!(value instanceof Uint8Array)) throw new TypeError('iavl: value must be a Uint8Array');
    const last = this.last;
    if (last !== undefined && (key === last || compareBytes(key, last) <= 0)) throw new Error('iavl: sorted build: keys must be strictly ascending');
    if (!this.packer.fits(key.length, value.length, leafHash !== undefined) && this.packer.pos > 0) this.send();
    this.packer.add(key, value, leafHash);
    // kept to compare with the next key (the caller does not modify its keys, as with `SortedBuild.add`)
    this.last = key;
    this.count++;
  }

  /** Waits while the worker is more than a few packs behind (memory stays bounded when this thread is faster). */
  async pump(): Promise<void> {
    while (this.inFlight > MAX_IN_FLIGHT && this.failure === undefined) await new Promise<void>((r) => (this.wake = r));
    if (this.failure !== undefined) throw this.failure;
  }

  /** Sends the last entries, waits for the worker's last records and root, and stages the version in the tree. */
  async finish(): Promise<SavedVersion> {
    if (this.state !== 'adding') throw new Error('iavl: the sorted build is finished');
    if (this.failure !== undefined) throw this.failure;
    this.state = 'finishing';
    if (this.packer.pos > 0) this.send();
    const done = await new Promise<WorkerMessage>((resolve, reject) => {
      this.onDone = resolve;
      this.onFail = reject;
      this.worker.postMessage({ t: 'finish' });
    });
    unpackInto(done.buf!, done.end!, this.sink);
    this.nextId = done.next!;
    const r = done.root;
    if (r !== undefined) {
      this.root = decodeNode(r, 8 + HASH_SIZE, r.length, hashFromBytes(r, 8), readBE64(r, 0));
    }
    this.state = 'finished';
    void this.worker.terminate();
    return this.host.stage(this.root, this.nextId);
  }

  /** Give up: the worker stops and the tree is empty again (its next id past every id the build may have used). */
  abort(): void {
    if (this.state === 'finished' || this.state === 'aborted') return;
    this.state = 'aborted';
    void this.worker.terminate();
    this.host.release(this.upperNextId());
  }

  /** Put the root record of the built version (after `finish`). */
  putRoot(sink: BatchSink): void {
    if (this.state !== 'finished') throw new Error('iavl: putRoot needs a finished sorted build');
    this.host.putRoot(sink, this.version, this.root, this.nextId);
  }

  /** Put a `del` of every node chunk record the build wrote or may have written. */
  deleteRecords(sink: BatchSink): void {
    const to = this.state === 'finished' ? this.nextId : this.upperNextId();
    if (to > this.firstId) this.host.deleteRange(sink, this.firstId, to);
  }

  /** A tree of n leaves has 2n - 1 nodes. */
  private upperNextId(): number {
    return this.firstId + 2 * this.count;
  }

  private send(): void {
    const { buf, end } = this.packer.take();
    this.inFlight++;
    this.worker.postMessage({ t: 'add', buf, end }, [buf.buffer as ArrayBuffer]);
  }

  private onMessage(m: WorkerMessage): void {
    if (m.t === 'rec') {
      this.inFlight--;
      try {
        unpackInto(m.buf!, m.end!, this.sink);
      } catch (e) {
        this.fail(e as Error);
        return;
      }
      const w = this.wake;
      this.wake = undefined;
      w?.();
    } else if (m.t === 'done') {
      const d = this.onDone;
      this.onDone = undefined;
      this.onFail = undefined;
      d?.(m);
    } else {
      this.fail(new Error(m.message ?? 'iavl: the sorted build worker failed'));
    }
  }

  private fail(e: Error): void {
    if (this.failure !== undefined) return;
    this.failure = e;
    void this.worker.terminate();
    const w = this.wake;
    this.wake = undefined;
    w?.();
    const f = this.onFail;
    this.onFail = undefined;
    f?.(e);
  }
}
