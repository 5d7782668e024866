/**
 * Signature verification on worker threads: secp256k1 ECDSA checks (the cost of admitting a tx) run on the other
 * cores while the main thread executes blocks and serves requests. Each worker loads the native libsecp256k1
 * binding; the pool batches the checks queued in one turn of the event loop into one message per worker.
 *
 * The answers are the same as {@link verifySecp256k1Digest}'s (64-byte r||s, 32-byte digest, 33- or 65-byte key,
 * high-S refused). Without the native binding or without workers the pool is not available and callers verify on
 * the main thread as before.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { nativeSecp256k1 } from './keys.js';

/** One check: the signature `sig` of `digest` by `pubkey`. */
export interface VerifyItem {
  readonly pubkey: Uint8Array;
  readonly digest: Uint8Array;
  readonly sig: Uint8Array;
}

// Runs in the worker (plain CommonJS: workers do not get the TypeScript loader). A batch is packed as
// n × (u8 key length, key, digest 32, sig 64); the answer is n bytes of 0/1.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const secp = require(workerData.secpPath);
parentPort.on('message', ({ id, n, buf }) => {
  const out = new Uint8Array(n);
  let off = 0;
  for (let i = 0; i < n; i++) {
    const kl = buf[off];
    const key = buf.subarray(off + 1, off + 1 + kl);
    const digest = buf.subarray(off + 1 + kl, off + 33 + kl);
    const sig = buf.subarray(off + 33 + kl, off + 97 + kl);
    off += 97 + kl;
    try { out[i] = secp.ecdsaVerify(sig, digest, key) ? 1 : 0; } catch { out[i] = 0; }
  }
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

interface Pending {
  readonly items: VerifyItem[];
  readonly resolve: (ok: boolean[]) => void;
  /** the answers so far (false until a worker says otherwise) */
  out: boolean[];
  /** parts (worker messages) not answered yet */
  remaining: number;
  done: boolean;
}

interface Batch {
  readonly parts: { pending: Pending; from: number; to: number }[];
}

function settle(p: Pending): void {
  if (p.done) return;
  p.done = true;
  p.resolve(p.out);
}

export class VerifyPool {
  private readonly workers: Worker[] = [];
  /** batches in flight per worker */
  private readonly busy: number[] = [];
  private readonly inflight = new Map<number, { batch: Batch; worker: number }>();
  private queue: Pending[] = [];
  private scheduled = false;
  private nextId = 1;
  private next = 0;
  private broken = false;
  private closed = false;
  private answered = 0;

  /** A pool of `size` workers (default: one per core but the main thread's, at least one). */
  constructor(size = Math.max(1, availableParallelism() - 1)) {
    const secpPath = createRequire(import.meta.url).resolve('secp256k1');
    for (let i = 0; i < size; i++) {
      // a worker holds only its batch buffers: small heaps keep its memory (RSS) low
      const w = new Worker(WORKER_SOURCE, {
        eval: true,
        // none of the parent's flags (e.g. --input-type=module would make this CommonJS source a module)
        execArgv: [],
        workerData: { secpPath },
        resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
      });
      w.on('message', (m: { id: number; out: Uint8Array }) => this.onAnswer(m.id, m.out));
      w.on('error', () => this.fail());
      w.on('exit', () => { if (!this.closed) this.fail(); });
      // an idle worker never keeps the process alive; one with checks in flight does (see send/onAnswer). Unref after
      // the listeners: adding a 'message' listener refs the worker again.
      w.unref();
      this.workers.push(w);
      this.busy.push(0);
    }
  }

  /** Checks the workers answered since the pool started (metrics, tests). */
  get checks(): number {
    return this.answered;
  }

  /** Whether checks can be sent (the pool started and no worker failed). */
  get available(): boolean {
    return !this.broken && !this.closed && this.workers.length > 0;
  }

  /**
   * Verifies the signatures; resolves with one answer per item (false also for malformed input). A pool that
   * failed answers false for everything, so a caller must treat false as "not verified here", never as invalid.
   */
  verify(items: readonly VerifyItem[]): Promise<boolean[]> {
    if (items.length === 0) return Promise.resolve([]);
    if (!this.available) return Promise.resolve(items.map(() => false));
    return new Promise((resolve) => {
      this.queue.push({ items: [...items], resolve, out: new Array<boolean>(items.length).fill(false), remaining: 0, done: false });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Stops the workers; pending checks answer false. */
  async close(): Promise<void> {
    this.closed = true;
    this.fail();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private flush(): void {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    if (queue.length === 0) return;
    if (!this.available) {
      for (const p of queue) settle(p);
      return;
    }
    // split the queued checks evenly over the workers, keeping each request's answers together
    const total = queue.reduce((n, p) => n + p.items.length, 0);
    const per = Math.ceil(total / this.workers.length);
    let batch: Batch = { parts: [] };
    let count = 0;
    const send = (): void => {
      if (batch.parts.length > 0) this.send(batch);
      batch = { parts: [] };
      count = 0;
    };
    for (const p of queue) {
      let from = 0;
      while (from < p.items.length) {
        const to = Math.min(p.items.length, from + (per - count));
        p.remaining++;
        batch.parts.push({ pending: p, from, to });
        count += to - from;
        from = to;
        if (count >= per) send();
      }
    }
    send();
  }

  private send(batch: Batch): void {
    let size = 0;
    let n = 0;
    for (const part of batch.parts) {
      for (let i = part.from; i < part.to; i++) size += 97 + part.pending.items[i]!.pubkey.length;
      n += part.to - part.from;
    }
    const buf = new Uint8Array(size);
    let off = 0;
    for (const part of batch.parts) {
      for (let i = part.from; i < part.to; i++) {
        const it = part.pending.items[i]!;
        // malformed lengths are answered false without a worker check
        const ok = it.digest.length === 32 && it.sig.length === 64 && (it.pubkey.length === 33 || it.pubkey.length === 65);
        buf[off] = it.pubkey.length;
        buf.set(it.pubkey, off + 1);
        if (ok) {
          buf.set(it.digest, off + 1 + it.pubkey.length);
          buf.set(it.sig, off + 33 + it.pubkey.length);
        }
        off += 97 + it.pubkey.length;
      }
    }
    const id = this.nextId++;
    const worker = this.next;
    this.next = (this.next + 1) % this.workers.length;
    this.inflight.set(id, { batch, worker });
    if (this.busy[worker]!++ === 0) this.workers[worker]!.ref();
    this.workers[worker]!.postMessage({ id, n, buf }, [buf.buffer]);
  }

  private onAnswer(id: number, out: Uint8Array): void {
    const f = this.inflight.get(id);
    if (f === undefined) return;
    this.inflight.delete(id);
    if (--this.busy[f.worker]! === 0) this.workers[f.worker]!.unref();
    this.answered += out.length;
    let k = 0;
    for (const part of f.batch.parts) {
      const p = part.pending;
      for (let i = part.from; i < part.to; i++, k++) {
        const it = p.items[i]!;
        const wellFormed = it.digest.length === 32 && it.sig.length === 64;
        p.out[i] = wellFormed && out[k] === 1;
      }
      if (--p.remaining === 0) settle(p);
    }
  }

  /** A worker failed or the pool closed: every check in flight or queued answers false, and no more are sent. */
  private fail(): void {
    this.broken = true;
    for (const { batch } of this.inflight.values()) for (const part of batch.parts) settle(part.pending);
    this.inflight.clear();
    this.busy.fill(0);
    for (const w of this.workers) w.unref();
    for (const p of this.queue) settle(p);
    this.queue = [];
  }
}

let shared: VerifyPool | null | undefined;

/**
 * The process's verification pool, started on first use; undefined when the native binding is missing or workers
 * cannot start (callers then verify on the main thread). `CHAIN_VERIFY_WORKERS=0` turns it off.
 */
export function sharedVerifyPool(): VerifyPool | undefined {
  if (shared === undefined) {
    const env = process.env.CHAIN_VERIFY_WORKERS;
    const size = env === undefined || env === '' ? undefined : Number(env);
    if (!nativeSecp256k1 || size === 0 || (size !== undefined && !(Number.isInteger(size) && size > 0))) {
      shared = null;
    } else {
      try {
        shared = new VerifyPool(size);
      } catch {
        shared = null;
      }
    }
  }
  return shared ?? undefined;
}
