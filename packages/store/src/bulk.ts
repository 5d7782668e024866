/**
 * Bulk writes to LevelDB (the first block after a large genesis: the flat copy and the trees' node records, millions
 * of entries): chained batches of about `batchBytes`, one written while the next fills.
 *
 * A chained batch copies each entry into its native batch at once, so the keys and values die young; the array form
 * of `db.batch(ops)` holds every entry as a JS object until the batch is written (they survive the scavenges in
 * between and get promoted) and reads each op back through N-API. 2M ascending puts here: 2.1 s with ~0.4 s of GC
 * against 4.7 s with ~1.2 s of GC.
 *
 * The catch: classic-level frees a chained batch's native memory only when its JS object is collected (its `close`
 * does not), and V8 does not count that memory. So the writer tracks the bytes of its written batches not yet
 * collected (a FinalizationRegistry) and, once they are over `maxUnreleased`, asks V8 for a full collection (when
 * `gc` is exposed, see gc.ts): memory stays bounded whatever the size of the import. (In a 1M-account genesis V8's own
 * collections kept it under the bound: the collections of the garbage the build makes free the batches too.)
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { ClassicLevel } from 'classic-level';
import { exposedGc } from './gc.js';
import type { Bytes } from './types.js';

type DB = ClassicLevel<Bytes, Bytes>;
type Batch = ReturnType<DB['batch']>;

/** bytes of written chained batches (of every writer) whose native memory is not freed yet */
let unreleased = 0;
/** of those, the bytes written since the last collection this module asked for */
let sinceGc = 0;
const released = new FinalizationRegistry<number>((bytes) => {
  unreleased -= bytes;
});
let defaultGc: (() => void) | null | undefined;

export interface BulkWriterOptions {
  /** bytes per batch (default 2 MiB: small, for the peak memory, as two are held at a time) */
  readonly batchBytes?: number;
  /** written batches' bytes held natively before a full collection is asked for (default 96 MiB) */
  readonly maxUnreleased?: number;
  /** the collection to ask for (default V8's, see gc.ts; tests pass their own) */
  readonly gc?: () => void;
}

export class BulkWriter {
  private batch: Batch;
  /** bytes put in the batch being filled */
  bytes = 0;
  /** the batch being written (one at a time: the next one fills meanwhile) */
  private inFlight: Promise<void> | undefined;
  private readonly batchBytes: number;
  private readonly maxUnreleased: number;
  private readonly gc: (() => void) | undefined;

  constructor(private readonly db: DB, o: BulkWriterOptions = {}) {
    this.batchBytes = o.batchBytes ?? 2 << 20;
    this.maxUnreleased = o.maxUnreleased ?? 96 << 20;
    this.gc = o.gc;
    this.batch = db.batch();
  }

  put(key: Bytes, value: Bytes): void {
    this.batch.put(key, value);
    this.bytes += key.length + value.length + 8;
  }

  del(key: Bytes): void {
    this.batch.del(key);
    this.bytes += key.length + 8;
  }

  /** Whether the batch being filled is big enough to be written (`flush`). */
  get full(): boolean {
    return this.bytes >= this.batchBytes;
  }

  /** Starts writing the batch so far, once the previous write is done. */
  async flush(): Promise<void> {
    if (this.bytes === 0) return;
    const b = this.batch;
    const bytes = this.bytes;
    this.batch = this.db.batch();
    this.bytes = 0;
    const prev = this.inFlight;
    this.inFlight = undefined;
    if (prev !== undefined) await prev;
    unreleased += bytes;
    sinceGc += bytes;
    released.register(b, bytes);
    // (the registry's callbacks run after a collection, as tasks: `sinceGc` keeps the next batches from asking again
    // before they have run)
    if (Math.min(unreleased, sinceGc) > this.maxUnreleased) {
      const collect = this.gc ?? (defaultGc ??= exposedGc() ?? null);
      if (collect !== null) {
        collect();
        sinceGc = 0;
      }
    }
    const p = b.write();
    p.catch(() => undefined); // awaited by the next flush, drain or close
    this.inFlight = p;
  }

  /** Writes everything and waits for it. */
  async drain(): Promise<void> {
    await this.flush();
    const p = this.inFlight;
    this.inFlight = undefined;
    if (p !== undefined) await p;
  }

  /** Drops what was not written; waits for a write in flight (its failure ignored). */
  async close(): Promise<void> {
    const p = this.inFlight;
    this.inFlight = undefined;
    await p?.catch(() => undefined);
    await this.batch.close();
  }
}

/**
 * Entries put aside in a file, to be put into the database later, in the same order (`putInto`). The first block
 * after a large genesis builds the trees from the merged genesis state while the flat copy of that state waits here:
 * LevelDB then gets the trees' node records alone, then the flat copy alone, each an ascending run of keys that its
 * compactions move down the levels as whole files, where the two streams at once made every new file overlap the
 * files of both and be merged again (a core busy with LevelDB's compactions through the whole block).
 * Packed as u32le key length, u32le value length, `prefix` (one byte, when given), key, value.
 */
export class EntryFile {
  private readonly fd: number;
  private block: Buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private size = 0;
  /** entries added */
  count = 0;

  constructor(private readonly path: string, private readonly prefix?: number) {
    this.fd = openSync(path, 'w+');
  }

  add(key: Bytes, value: Bytes): void {
    const kl = key.length + (this.prefix === undefined ? 0 : 1);
    const need = 8 + kl + value.length;
    if (this.used + need > this.block.length) {
      this.flush();
      if (need > this.block.length) this.block = Buffer.allocUnsafe(need);
    }
    const b = this.block;
    let p = this.used;
    b.writeUInt32LE(kl, p);
    b.writeUInt32LE(value.length, p + 4);
    p += 8;
    if (this.prefix !== undefined) b[p++] = this.prefix;
    b.set(key, p);
    p += key.length;
    b.set(value, p);
    this.used = p + value.length;
    this.count++;
  }

  private flush(): void {
    let done = 0;
    while (done < this.used) done += writeSync(this.fd, this.block, done, this.used - done, this.size + done);
    this.size += this.used;
    this.used = 0;
  }

  /** Puts every entry into `out` in the order they were added (the file is read sequentially, in blocks). */
  async putInto(out: BulkWriter): Promise<void> {
    this.flush();
    const READ = 4 << 20;
    let pos = 0;
    // bytes of the block read but not used yet (an entry cut at the block's end) move to the next block's start
    let carry: Uint8Array = new Uint8Array(0);
    while (pos < this.size) {
      const len = Math.min(READ, this.size - pos);
      // a fresh block each time: the views put into `out` are copied by LevelDB at once, but nothing is reused
      const buf = Buffer.allocUnsafe(carry.length + len);
      buf.set(carry, 0);
      let got = 0;
      while (got < len) {
        const k = readSync(this.fd, buf, carry.length + got, len - got, pos + got);
        if (k === 0) throw new Error('bulk: an entry file is shorter than written');
        got += k;
      }
      pos += len;
      const end = buf.length;
      let off = 0;
      while (off + 8 <= end) {
        const kl = buf.readUInt32LE(off);
        const vl = buf.readUInt32LE(off + 4);
        if (off + 8 + kl + vl > end) break;
        out.put(buf.subarray(off + 8, off + 8 + kl), buf.subarray(off + 8 + kl, off + 8 + kl + vl));
        off += 8 + kl + vl;
        if (out.full) await out.flush();
      }
      carry = buf.subarray(off);
    }
    if (carry.length > 0) throw new Error('bulk: an entry file ends inside an entry');
  }

  /** Closes and removes the file. */
  close(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }
}
