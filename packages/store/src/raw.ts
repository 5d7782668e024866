/**
 * A plain LevelDB key/value database with the raw reads of `CommitStore` (getRaw, getRawSync, iterateRaw) and atomic
 * batch writes: for components that keep their own database beside the chain's, like the tx index
 * (`data/tx_index.db`, written on its own thread).
 */
import { ClassicLevel } from 'classic-level';
import type { BatchOp, Bytes } from './types.js';

export interface RawIterateOptions {
  readonly reverse?: boolean;
  readonly limit?: number;
}

type DB = ClassicLevel<Bytes, Bytes>;

export class RawStore {
  private constructor(private readonly db: DB) {}

  /** Opens (or creates) the database in `dir`. */
  static async open(dir: string): Promise<RawStore> {
    const db: DB = new ClassicLevel<Bytes, Bytes>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    return new RawStore(db);
  }

  async getRaw(key: Bytes): Promise<Bytes | undefined> {
    return this.db.get(key);
  }

  getRawSync(key: Bytes): Bytes | undefined {
    return this.db.getSync(key);
  }

  /** Entries with gte <= key < lt, ascending (or descending), at most `opts.limit`. */
  iterateRaw(gte: Bytes, lt: Bytes, opts: RawIterateOptions = {}): Promise<[Bytes, Bytes][]> {
    return iterateRawOf(this.db, gte, lt, opts);
  }

  /** Writes the operations atomically (`sync`: flushed to disk before it resolves). */
  async write(ops: readonly BatchOp[], sync = false): Promise<void> {
    if (ops.length === 0) return;
    const batch = this.db.batch();
    try {
      for (const op of ops) {
        if (op.type === 'put') batch.put(op.key, op.value);
        else batch.del(op.key);
      }
      await batch.write({ sync });
    } finally {
      await batch.close().catch(() => undefined);
    }
  }

  /** Deletes every entry. */
  clear(): Promise<void> {
    return this.db.clear();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/** `iterateRaw` over a LevelDB (shared with CommitStore). */
export async function iterateRawOf(db: DB, gte: Bytes, lt: Bytes, opts: RawIterateOptions): Promise<[Bytes, Bytes][]> {
  const limit = checkLimit(opts.limit);
  if (limit === 0) return [];
  return db.iterator({ gte, lt, reverse: opts.reverse ?? false, limit: limit === Infinity ? -1 : limit }).all();
}

export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Infinity;
  if (!(Number.isSafeInteger(limit) && limit >= 0) && limit !== Infinity) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  return limit;
}
