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

/** One public key recovery (an Ethereum tx's sender): the key that made the signature `sig` (r || s) of `digest`. */
export interface RecoverItem {
  readonly digest: Uint8Array;
  /** r || s, 64 bytes */
  readonly sig: Uint8Array;
  /** the recovery id, 0 or 1 */
  readonly recovery: number;
}

type Kind = 'verify' | 'recover';

// Runs in the worker (plain CommonJS: workers do not get the TypeScript loader). A verify batch is packed as
// n × (u8 key length, key, digest 32, sig 64), answered by n bytes of 0/1; a recover batch as n × (u8 recovery id,
// digest 32, sig 64), answered by n × 65 bytes (the uncompressed key, or 65 zero bytes when there is none).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const secp = require(workerData.secpPath);
parentPort.on('message', ({ id, kind, n, buf }) => {
  let out;
  let off = 0;
  if (kind === 'recover') {
    out = new Uint8Array(65 * n);
    for (let i = 0; i < n; i++) {
      const rec = buf[off];
      const digest = buf.subarray(off + 1, off + 33);
      const sig = buf.subarray(off + 33, off + 97);
      off += 97;
      try { out.set(secp.ecdsaRecover(sig, rec, digest, false), 65 * i); } catch {}
    }
  } else {
    out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const kl = buf[off];
      const key = buf.subarray(off + 1, off + 1 + kl);
      const digest = buf.subarray(off + 1 + kl, off + 33 + kl);
      const sig = buf.subarray(off + 33 + kl, off + 97 + kl);
      off += 97 + kl;
      try { out[i] = secp.ecdsaVerify(sig, digest, key) ? 1 : 0; } catch { out[i] = 0; }
    }
  }
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

interface Pending {
  readonly kind: Kind;
  readonly items: (VerifyItem | RecoverItem)[];
  readonly resolve: (out: (boolean | Uint8Array | undefined)[]) => void;
  /** the answers so far (false / undefined until a worker says otherwise) */
  out: (boolean | Uint8Array | undefined)[];
  /** parts (worker messages) not answered yet */
  remaining: number;
  done: boolean;
}

interface Batch {
  readonly kind: Kind;
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
    return this.enqueue('verify', items, false) as Promise<boolean[]>;
  }

  /**
   * Recovers the public keys (65-byte uncompressed) that made the signatures; undefined where there is none, for
   * malformed input and when the pool failed, so a caller must then recover on its own thread (and report the error).
   */
  recover(items: readonly RecoverItem[]): Promise<(Uint8Array | undefined)[]> {
    if (items.length === 0) return Promise.resolve([]);
    if (!this.available) return Promise.resolve(items.map(() => undefined));
    return this.enqueue('recover', items, undefined) as Promise<(Uint8Array | undefined)[]>;
  }

  private enqueue(kind: Kind, items: readonly (VerifyItem | RecoverItem)[], none: false | undefined): Promise<(boolean | Uint8Array | undefined)[]> {
    return new Promise((resolve) => {
      this.queue.push({ kind, items: [...items], resolve, out: new Array<boolean | undefined>(items.length).fill(none), remaining: 0, done: false });
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
    for (const kind of ['verify', 'recover'] as const) this.split(kind, queue.filter((p) => p.kind === kind));
  }

  /** Splits the queued requests of one kind evenly over the workers, keeping each request's answers together. */
  private split(kind: Kind, queue: Pending[]): void {
    if (queue.length === 0) return;
    const total = queue.reduce((n, p) => n + p.items.length, 0);
    const per = Math.ceil(total / this.workers.length);
    let batch: Batch = { kind, parts: [] };
    let count = 0;
    const send = (): void => {
      if (batch.parts.length > 0) this.send(batch);
      batch = { kind, parts: [] };
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
    const recover = batch.kind === 'recover';
    let size = 0;
    let n = 0;
    for (const part of batch.parts) {
      for (let i = part.from; i < part.to; i++) size += 97 + (recover ? 0 : (part.pending.items[i] as VerifyItem).pubkey.length);
      n += part.to - part.from;
    }
    const buf = new Uint8Array(size);
    let off = 0;
    for (const part of batch.parts) {
      for (let i = part.from; i < part.to; i++) {
        // malformed lengths are answered false / undefined without a worker check
        if (recover) {
          const it = part.pending.items[i] as RecoverItem;
          if (wellFormed(it)) {
            buf[off] = it.recovery;
            buf.set(it.digest, off + 1);
            buf.set(it.sig, off + 33);
          }
          off += 97;
          continue;
        }
        const it = part.pending.items[i] as VerifyItem;
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
    this.workers[worker]!.postMessage({ id, kind: batch.kind, n, buf }, [buf.buffer]);
  }

  private onAnswer(id: number, out: Uint8Array): void {
    const f = this.inflight.get(id);
    if (f === undefined) return;
    this.inflight.delete(id);
    if (--this.busy[f.worker]! === 0) this.workers[f.worker]!.unref();
    this.answered += f.batch.kind === 'recover' ? out.length / 65 : out.length;
    let k = 0;
    const recover = f.batch.kind === 'recover';
    for (const part of f.batch.parts) {
      const p = part.pending;
      for (let i = part.from; i < part.to; i++, k++) {
        if (recover) {
          const it = p.items[i] as RecoverItem;
          p.out[i] = wellFormed(it) && out[65 * k] === 4 ? out.slice(65 * k, 65 * k + 65) : undefined;
        } else {
          const it = p.items[i] as VerifyItem;
          p.out[i] = it.digest.length === 32 && it.sig.length === 64 && out[k] === 1;
        }
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

function wellFormed(it: RecoverItem): boolean {
  return it.digest.length === 32 && it.sig.length === 64 && (it.recovery === 0 || it.recovery === 1);
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
