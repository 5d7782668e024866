/**
 * The mempool: txs admitted by CheckTx, in arrival order, with a cache of recently seen hashes, size
 * limits, reaping for the next block and re-checking after each committed block.
 */
import { toHex } from '@chain/crypto';

export interface MempoolTx {
  readonly raw: Uint8Array;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly gasWanted: number;
  readonly sender?: string;
}

export interface MempoolOptions {
  readonly maxTxs?: number;
  readonly maxTxsBytes?: number;
  readonly maxTxBytes?: number;
  readonly cacheSize?: number;
}

/** A mempool rejection (a JSON-RPC error in broadcast, not a CheckTx result). */
export class MempoolError extends Error {
  constructor(readonly kind: 'in-cache' | 'full' | 'too-large', message: string) {
    super(message);
  }
}

export class Mempool {
  private readonly txs = new Map<string, MempoolTx>();
  private readonly cache = new Set<string>();
  private totalBytes = 0;
  readonly maxTxs: number;
  readonly maxTxsBytes: number;
  readonly maxTxBytes: number;
  private readonly cacheSize: number;
  private readonly listeners = new Set<(tx: MempoolTx) => void>();

  constructor(opts: MempoolOptions = {}) {
    this.maxTxs = opts.maxTxs ?? 5000;
    this.maxTxsBytes = opts.maxTxsBytes ?? 1024 * 1024 * 1024;
    this.maxTxBytes = opts.maxTxBytes ?? 1024 * 1024;
    this.cacheSize = opts.cacheSize ?? 10000;
  }

  /** Pre-checks before CheckTx, in CometBFT's order: fullness, size, duplicates. Marks the hash as seen. */
  precheck(raw: Uint8Array, hashHex: string): void {
    if (this.txs.size >= this.maxTxs || this.totalBytes + raw.length > this.maxTxsBytes) {
      throw new MempoolError('full', `mempool is full: number of txs ${this.txs.size} (max: ${this.maxTxs}), total txs bytes ${this.totalBytes} (max: ${this.maxTxsBytes})`);
    }
    if (raw.length > this.maxTxBytes) throw new MempoolError('too-large', `Tx too large. Max size is ${this.maxTxBytes}, but got ${raw.length}`);
    if (this.cache.has(hashHex)) throw new MempoolError('in-cache', 'tx already exists in cache');
    this.remember(hashHex);
  }

  /** Forgets a hash (after a failed CheckTx, so the same tx may be resubmitted once fixed state allows). */
  forget(hashHex: string): void {
    this.cache.delete(hashHex);
  }

  private remember(hashHex: string): void {
    if (this.cache.delete(hashHex)) { this.cache.add(hashHex); return; } // refresh, evicting nothing
    if (this.cache.size >= this.cacheSize) {
      const first = this.cache.values().next().value;
      if (first !== undefined) this.cache.delete(first);
    }
    this.cache.add(hashHex);
  }

  add(tx: MempoolTx): void {
    if (this.txs.has(tx.hashHex)) return;
    this.txs.set(tx.hashHex, tx);
    this.totalBytes += tx.raw.length;
    for (const l of this.listeners) l(tx);
  }

  /** Called for each admitted tx (pending-tx subscriptions). */
  onAdd(listener: (tx: MempoolTx) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  has(hashHex: string): boolean {
    return this.txs.has(hashHex);
  }

  remove(hashHex: string): void {
    const tx = this.txs.get(hashHex);
    if (!tx) return;
    this.txs.delete(hashHex);
    this.totalBytes -= tx.raw.length;
  }

  /** Txs for the next block, in arrival order, within byte and gas budgets (-1 = unlimited gas). */
  reap(maxBytes: number, maxGas: number): MempoolTx[] {
    const out: MempoolTx[] = [];
    let bytes = 0;
    let gas = 0;
    for (const tx of this.txs.values()) {
      if (bytes + tx.raw.length > maxBytes) break;
      if (maxGas >= 0 && gas + tx.gasWanted > maxGas) break;
      bytes += tx.raw.length;
      gas += tx.gasWanted;
      out.push(tx);
    }
    return out;
  }

  list(limit = Infinity): MempoolTx[] {
    const out: MempoolTx[] = [];
    for (const tx of this.txs.values()) {
      if (out.length >= limit) break;
      out.push(tx);
    }
    return out;
  }

  get size(): number { return this.txs.size; }
  get bytes(): number { return this.totalBytes; }

  /**
   * Removes committed txs and returns the ones left, to re-check. Committed txs stay in the cache,
   * except those whose result `codes[i]` is not 0, which may be resubmitted (CometBFT with
   * keep-invalid-txs-in-cache = false).
   */
  update(committed: readonly Uint8Array[], codes?: readonly number[]): MempoolTx[] {
    for (let i = 0; i < committed.length; i++) {
      const hex = toHex(committed[i]!);
      this.remove(hex);
      if (codes !== undefined && codes[i] !== 0) this.forget(hex);
      else this.remember(hex);
    }
    return [...this.txs.values()];
  }
}
