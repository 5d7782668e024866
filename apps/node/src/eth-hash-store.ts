/**
 * The node's table of Ethereum block hashes (`HOME/data/eth-hashes.db`, its own LevelDB): node-local data like a
 * tx index, written as the JSON-RPC backend reads each block's hash (the evm module's `ethereum_block` event: the
 * hash is consensus data, BLOCKHASH's), so a restart does not read every block's results again to find a block
 * by hash. Reads are synchronous (`getSync`); writes are batched in the background (a write lost in a crash is
 * read again from the blocks).
 *
 *   'h' || BE64(height) → hash (32 bytes)      'x' || hash → BE64(height)      's' → BE64(scanned-to height)
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { EthHashStore } from '@chain/server';

type DB = ClassicLevel<Uint8Array, Uint8Array>;

const be64 = (n: number): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
};
const readBe64 = (b: Uint8Array): number => Number(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0));
const cat = (tag: string, rest: Uint8Array): Uint8Array => {
  const out = new Uint8Array(1 + rest.length);
  out[0] = tag.charCodeAt(0);
  out.set(rest, 1);
  return out;
};
const hashBytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'));
const SCANNED = Uint8Array.of('s'.charCodeAt(0));

export class LevelEthHashStore implements EthHashStore {
  /** writes not flushed yet (height → hash), readable at once */
  private readonly pending = new Map<number, string>();
  private pendingScanned: number | undefined;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(private readonly db: DB) {}

  static async open(path: string): Promise<LevelEthHashStore> {
    mkdirSync(dirname(path), { recursive: true });
    const db: DB = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    return new LevelEthHashStore(db);
  }

  hashAt(height: number): string | undefined {
    const p = this.pending.get(height);
    if (p) return p;
    const v = this.db.getSync(cat('h', be64(height)));
    return v ? '0x' + Buffer.from(v).toString('hex') : undefined;
  }

  heightOf(hash: string): number | undefined {
    if (!/^0x[0-9a-f]{64}$/.test(hash)) return undefined;
    for (const [h, x] of this.pending) if (x === hash) return h;
    const v = this.db.getSync(cat('x', hashBytes(hash)));
    return v ? readBe64(v) : undefined;
  }

  put(height: number, hash: string): void {
    this.pending.set(height, hash);
    this.schedule();
  }

  scannedTo(): number {
    if (this.pendingScanned !== undefined) return this.pendingScanned;
    const v = this.db.getSync(SCANNED);
    return v ? readBe64(v) : 0;
  }

  setScannedTo(height: number): void {
    this.pendingScanned = height;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => { this.timer = undefined; void this.flush(); }, 50);
    this.timer.unref();
  }

  /** Writes what is pending in one batch. */
  async flush(): Promise<void> {
    await this.flushing;
    if (this.pending.size === 0 && this.pendingScanned === undefined) return;
    const entries = [...this.pending];
    const scanned = this.pendingScanned;
    const batch = this.db.batch();
    for (const [h, x] of entries) {
      const hb = hashBytes(x);
      batch.put(cat('h', be64(h)), hb);
      batch.put(cat('x', hb), be64(h));
    }
    if (scanned !== undefined) batch.put(SCANNED, be64(scanned));
    this.flushing = batch.write().then(() => {
      for (const [h, x] of entries) if (this.pending.get(h) === x) this.pending.delete(h);
      if (this.pendingScanned === scanned) this.pendingScanned = undefined;
    }).finally(() => { this.flushing = undefined; });
    await this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    await this.flush().catch(() => undefined);
    this.closed = true;
    await this.db.close();
  }
}
