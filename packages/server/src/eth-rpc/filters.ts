/**
 * Polling filters: eth_newFilter (logs), eth_newBlockFilter, eth_newPendingTransactionFilter,
 * eth_getFilterChanges, eth_getFilterLogs, eth_uninstallFilter.
 *
 * Block and log filters keep only the last height they reported and read committed blocks on each
 * poll (no per-filter buffers; a poll covers at most `block-range-cap` blocks, the newest ones).
 * Pending-tx filters buffer the Ethereum hashes admitted to the mempool (`Mempool.onAdd`), at most
 * PENDING_BUFFER per filter (the oldest are dropped). Filters live in memory; one not polled for
 * `filter-timeout` is removed. `filter-cap` is a per-client limit (the remote address), not a global one.
 */
import type { Backend } from './backend.js';
import { logsInRange } from './eth.js';
import { parseCriteria } from './format.js';
import type { LogCriteria } from './format.js';
import type { Handler } from './types.js';
import { InvalidParams, ServerError, newId } from './util.js';

export const PENDING_BUFFER = 10_000;

interface Filter {
  readonly id: string;
  readonly kind: 'logs' | 'blocks' | 'pending';
  readonly client: string;
  lastPoll: number;
  lastHeight: number;
  readonly criteria?: LogCriteria;
  readonly raw?: Record<string, unknown>;
  readonly toTag?: unknown;
  readonly fromTag?: unknown;
  pending: string[];
}

export interface FilterOptions {
  readonly capPerClient: number;
  readonly timeoutMs: number;
  readonly blockRangeCap: number;
  readonly logsCap: number;
}

export class FilterManager {
  private readonly filters = new Map<string, Filter>();
  private readonly timer: NodeJS.Timeout;
  private readonly offMempool: () => void;
  private pendingCount = 0;

  constructor(private readonly backend: Backend, private readonly opts: FilterOptions) {
    this.timer = setInterval(() => this.sweep(), Math.max(20, Math.min(30_000, opts.timeoutMs / 2)));
    this.timer.unref();
    this.offMempool = backend.source.onPendingTx((raw) => {
      if (this.pendingCount === 0) return;
      const hashes = backend.ethTxsOf(raw).map((t) => t.hashHex);
      if (hashes.length === 0) return;
      for (const f of this.filters.values()) {
        if (f.kind !== 'pending') continue;
        f.pending.push(...hashes);
        if (f.pending.length > PENDING_BUFFER) f.pending.splice(0, f.pending.length - PENDING_BUFFER);
      }
    });
  }

  get size(): number { return this.filters.size; }

  close(): void {
    clearInterval(this.timer);
    this.offMempool();
    this.filters.clear();
  }

  /** Removes filters not polled within the timeout. */
  sweep(now = Date.now()): void {
    for (const f of [...this.filters.values()]) if (now - f.lastPoll > this.opts.timeoutMs) this.remove(f.id);
  }

  private remove(id: string): boolean {
    const f = this.filters.get(id);
    if (!f) return false;
    this.filters.delete(id);
    if (f.kind === 'pending') this.pendingCount--;
    return true;
  }

  private async add(client: string, kind: Filter['kind'], extra: Partial<Filter> = {}): Promise<string> {
    const latest = await this.backend.latest();
    let n = 0;
    for (const f of this.filters.values()) if (f.client === client) n++;
    if (n >= this.opts.capPerClient) throw ServerError(`error creating filter: max limit reached (${this.opts.capPerClient} filters per client)`);
    const id = newId();
    this.filters.set(id, { id, kind, client, lastPoll: Date.now(), lastHeight: latest, pending: [], ...extra });
    if (kind === 'pending') this.pendingCount++;
    return id;
  }

  newLogFilter(client: string, raw: Record<string, unknown>): Promise<string> {
    if (raw.blockHash !== undefined) throw InvalidParams('blockHash is not supported by eth_newFilter');
    return this.add(client, 'logs', { criteria: parseCriteria(raw), raw, fromTag: raw.fromBlock, toTag: raw.toBlock });
  }

  newBlockFilter(client: string): Promise<string> { return this.add(client, 'blocks'); }
  newPendingFilter(client: string): Promise<string> { return this.add(client, 'pending'); }

  uninstall(id: unknown): boolean {
    return typeof id === 'string' && this.remove(id.toLowerCase());
  }

  private get(id: unknown): Filter {
    if (typeof id !== 'string') throw InvalidParams(`invalid filter id: expected a string, got ${JSON.stringify(id) ?? 'nothing'}`);
    const f = this.filters.get(id.toLowerCase());
    if (!f) throw ServerError(`filter not found: ${id}`);
    return f;
  }

  async changes(id: unknown): Promise<unknown[]> {
    const f = this.get(id);
    f.lastPoll = Date.now();
    if (f.kind === 'pending') {
      const out = f.pending;
      f.pending = [];
      return out;
    }
    const head = await this.backend.latest();
    const from = Math.max(f.lastHeight + 1, head - this.opts.blockRangeCap + 1);
    if (from > head) return [];
    f.lastHeight = head;
    if (f.kind === 'blocks') {
      const out: string[] = [];
      for (let h = from; h <= head; h++) {
        const b = await this.backend.blockByHeight(h);
        if (b) out.push(b.hash);
      }
      return out;
    }
    let lo = from;
    let hi = head;
    const fromH = f.fromTag === undefined || f.fromTag === 'latest' ? undefined : await this.backend.resolveTag(f.fromTag);
    const toH = f.toTag === undefined || f.toTag === 'latest' ? undefined : await this.backend.resolveTag(f.toTag);
    if (fromH !== undefined && fromH > lo) lo = fromH;
    if (toH !== undefined && toH < hi) hi = toH;
    if (lo > hi) return [];
    return logsInRange(this.backend, lo, hi, f.criteria!, this.opts.logsCap);
  }

  /** All logs matching a log filter's criteria over its range (does not reset the expiry). */
  async logs(id: unknown): Promise<unknown[]> {
    const f = this.get(id);
    if (f.kind !== 'logs') throw ServerError(`filter ${String(id)} is not a logs filter`);
    const [lo, hi] = await this.backend.logRange(f.fromTag, f.toTag, this.opts.blockRangeCap);
    return logsInRange(this.backend, lo, hi, f.criteria!, this.opts.logsCap);
  }
}

export const filterMethods: Record<string, Handler> = {
  eth_newFilter: ([f], { filters, client }) => {
    if (typeof f !== 'object' || f === null || Array.isArray(f)) throw InvalidParams('invalid filter: expected an object');
    return filters.newLogFilter(client, f as Record<string, unknown>);
  },
  eth_newBlockFilter: (_p, { filters, client }) => filters.newBlockFilter(client),
  eth_newPendingTransactionFilter: (_p, { filters, client }) => filters.newPendingFilter(client),
  eth_getFilterChanges: ([id], { filters }) => filters.changes(id),
  eth_getFilterLogs: ([id], { filters }) => filters.logs(id),
  eth_uninstallFilter: ([id], { filters }) => filters.uninstall(id),
};
