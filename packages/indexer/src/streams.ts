/**
 * Sorted streams over index keys and the walks search is built from. A stream is the key range
 * `prefix || pos` of one indexed (key, value) pair (or of the order index), where `pos` starts with
 * BE64(height) so a stream is sorted by position and a height range is a sub-range of keys. In a
 * ranked index each entry's value is BE64(rank): its 0-based position in the whole stream, so
 * counting a range or jumping to the n-th entry costs a few seeks instead of a scan.
 */
import type { Bytes } from '@chain/store';
import { cat, compareBytes, readBe64, successor, upperBound } from './keys.js';

/** Raw database reads the indexer needs (implemented by CommitStore). */
export interface RawDB {
  getRaw(key: Bytes): Promise<Bytes | undefined>;
  iterateRaw(gte: Bytes, lt: Bytes, opts?: { reverse?: boolean; limit?: number }): Promise<[Bytes, Bytes][]>;
  /**
   * Synchronous read (CommitStore has it). Index writes read-modify-write per-value counters with it;
   * an indexer over a RawDB without it writes no counters and search falls back to scanning.
   */
  getRawSync?(key: Bytes): Bytes | undefined;
}

/** How a position is laid out: `BE64(height)` followed by zero or more bytes (the tx index). */
export interface PosCodec {
  readonly len: number;
  /** The smallest position at `height`. */
  start(height: number): Uint8Array;
  /** The `i`-th position at `height` if positions at a height are numbered (tx index), for guesses. */
  at?(height: number, i: number): Uint8Array;
  height(pos: Uint8Array): number;
}

export const MAX_HEIGHT = Number.MAX_SAFE_INTEGER;

/** The key range of a stream restricted to heights [lo, hi]. */
export interface Stream {
  readonly prefix: Uint8Array;
  readonly gte: Uint8Array;
  readonly lt: Uint8Array;
}

export function stream(prefix: Uint8Array, codec: PosCodec, lo = 0, hi = MAX_HEIGHT): Stream {
  return {
    prefix,
    gte: cat(prefix, codec.start(lo)),
    lt: hi >= MAX_HEIGHT ? upperBound(prefix) : cat(prefix, codec.start(hi + 1)),
  };
}

const MIN_CHUNK = 16;
const MAX_CHUNK = 4096;

/**
 * A cursor over a stream, ascending or descending, reading keys in chunks. Sequential reading grows
 * the chunk (up to 4096 keys); a seek that jumps past the buffered chunk reads a small one, so
 * leapfrogging a large stream at the positions of a small one reads little of the large one.
 */
export class Cursor {
  private buf: [Bytes, Bytes][] = [];
  private i = 0;
  private more = true;
  private chunk: number;

  constructor(
    private readonly db: RawDB,
    private readonly s: Stream,
    private readonly posLen: number,
    private readonly desc: boolean,
    chunk = 32,
  ) {
    this.chunk = chunk;
  }

  async init(): Promise<this> {
    await this.fill(undefined);
    return this;
  }

  get done(): boolean {
    return this.i >= this.buf.length;
  }

  /** Position of the current entry (valid while !done). */
  get pos(): Uint8Array {
    const k = this.buf[this.i]![0];
    return k.subarray(k.length - this.posLen);
  }

  get value(): Uint8Array {
    return this.buf[this.i]![1];
  }

  async next(): Promise<void> {
    this.i++;
    if (this.i >= this.buf.length && this.more) {
      this.chunk = Math.min(MAX_CHUNK, this.chunk * 4);
      await this.fill(undefined);
    }
  }

  /** Moves to the first entry at or after `target` (at or before it when descending). */
  async seek(target: Uint8Array): Promise<void> {
    if (this.done) return;
    const dir = this.desc ? -1 : 1;
    if (compareBytes(this.pos, target) * dir >= 0) return;
    const n = this.buf.length;
    const lastKey = this.buf[n - 1]![0];
    if (compareBytes(lastKey.subarray(lastKey.length - this.posLen), target) * dir >= 0) {
      // in the buffer: binary search (i, n-1]
      let lo = this.i + 1;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const k = this.buf[mid]![0];
        if (compareBytes(k.subarray(k.length - this.posLen), target) * dir >= 0) hi = mid;
        else lo = mid + 1;
      }
      this.i = lo;
      return;
    }
    if (!this.more) { this.i = n; return; }
    // sequential use (we were at the last buffered entry) grows the chunk, a jump shrinks it
    this.chunk = this.i === n - 1 ? Math.min(MAX_CHUNK, this.chunk * 4) : MIN_CHUNK;
    await this.fill(cat(this.s.prefix, target));
  }

  /** Reads the next chunk: from `from` (inclusive) or after the last buffered key. */
  private async fill(from: Uint8Array | undefined): Promise<void> {
    const lastKey = this.buf.length > 0 ? this.buf[this.buf.length - 1]![0] : undefined;
    let gte = this.s.gte;
    let lt = this.s.lt;
    if (!this.desc) {
      const start = from ?? (lastKey ? successor(lastKey) : undefined);
      if (start && compareBytes(start, gte) > 0) gte = start;
    } else {
      const end = from ? successor(from) : lastKey;
      if (end && compareBytes(end, lt) < 0) lt = end;
    }
    this.buf = compareBytes(gte, lt) < 0 ? await this.db.iterateRaw(gte, lt, { reverse: this.desc, limit: this.chunk }) : [];
    this.i = 0;
    this.more = this.buf.length === this.chunk;
  }
}

/** Positions of a stream, in the cursor's direction. */
export async function* scan(c: Cursor): AsyncGenerator<Uint8Array> {
  while (!c.done) {
    yield c.pos;
    await c.next();
  }
}

/** Positions present in every stream (leapfrog join), in the cursors' direction. Put the smallest first. */
export async function* intersect(cursors: Cursor[]): AsyncGenerator<Uint8Array> {
  if (cursors.length === 1) { yield* scan(cursors[0]!); return; }
  const [lead, ...others] = cursors as [Cursor, ...Cursor[]];
  if (cursors.some((c) => c.done)) return;
  for (;;) {
    let target = lead.pos;
    let agreed = true;
    for (const c of others) {
      await c.seek(target);
      if (c.done) return;
      if (compareBytes(c.pos, target) !== 0) { target = c.pos; agreed = false; break; }
    }
    if (agreed) {
      yield target;
      await lead.next();
    } else {
      await lead.seek(target);
    }
    if (lead.done) return;
  }
}

export async function* fromArray(items: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of items) yield p;
}

/** Counts every position of `source` that passes `filter` and keeps those in [offset, offset + limit). */
export async function collect(
  source: AsyncIterable<Uint8Array>,
  filter: ((pos: Uint8Array) => Promise<boolean>) | undefined,
  offset: number,
  limit: number,
): Promise<{ total: number; page: Uint8Array[] }> {
  let total = 0;
  const page: Uint8Array[] = [];
  for await (const p of source) {
    if (filter && !(await filter(p))) continue;
    if (total >= offset && page.length < limit) page.push(p);
    total++;
  }
  return { total, page };
}

/** Thrown when a ranked read finds entries without consistent ranks; callers fall back to walking. */
export class RankError extends Error {}

function rankOf(v: Uint8Array): number {
  if (v.length !== 8) throw new RankError('index entry without a rank');
  return readBe64(v);
}

/** Offsets up to this are reached by reading keys; beyond, by a search on ranks. */
const SHORT_SKIP = 200;

/**
 * One page of a ranked stream and its size, with O(log(heights)) seeks at worst: the size is
 * rank(last) - rank(first) + 1, and the entry at an offset is found by searching heights (the rank
 * of the first entry at or after a height is monotonic in the height), interpolating on ranks and
 * bisecting every other step. Within the height found, the entry is first guessed at its index
 * (exact when the stream holds every tx of that block), then read forward from the guess.
 */
export async function rankedPage(
  db: RawDB, s: Stream, codec: PosCodec, offset: number, limit: number, desc: boolean,
): Promise<{ total: number; page: Uint8Array[] }> {
  const posOf = (k: Uint8Array): Uint8Array => k.subarray(k.length - codec.len);
  if (offset <= SHORT_SKIP) {
    // read the page from the near end; the far end gives the total (unless the page reached it)
    const want = offset + Math.max(limit, 1);
    const rows = await db.iterateRaw(s.gte, s.lt, { reverse: desc, limit: want });
    if (rows.length === 0) return { total: 0, page: [] };
    const r0 = rankOf(rows[0]![1]);
    let total = rows.length;
    if (rows.length === want) {
      const [far] = await db.iterateRaw(s.gte, s.lt, { reverse: !desc, limit: 1 });
      total = Math.abs(rankOf(far![1]) - r0) + 1;
    }
    const page = rows.slice(offset, offset + limit);
    for (let i = 0; i < page.length; i++) {
      if (rankOf(page[i]![1]) !== (desc ? r0 - offset - i : r0 + offset + i)) throw new RankError('ranks are not consecutive');
    }
    return { total, page: page.map(([k]) => posOf(k)) };
  }
  const [first] = await db.iterateRaw(s.gte, s.lt, { limit: 1 });
  if (!first) return { total: 0, page: [] };
  const [last] = await db.iterateRaw(s.gte, s.lt, { reverse: true, limit: 1 });
  const rf = rankOf(first[1]);
  const rl = rankOf(last![1]);
  const total = rl - rf + 1;
  if (total <= 0) throw new RankError('inconsistent ranks');
  const n = Math.min(limit, total - offset);
  if (n <= 0) return { total, page: [] };
  const r = desc ? rl - offset : rf + offset;
  // largest height a with f(a) <= r, f(h) = rank of the first entry at or after height h;
  // invariant: f(a) = fa <= r < fb, fb = f(b) (b = last height + 1: fb = rl + 1)
  let a = codec.height(posOf(first[0]));
  let fa = rf;
  let b = codec.height(posOf(last![0])) + 1;
  let fb = rl + 1;
  for (let step = 0; b - a > 1; step++) {
    let mid = step % 2 === 0 ? a + Math.floor(((r - fa) * (b - a)) / (fb - fa)) : a + Math.floor((b - a) / 2);
    mid = Math.min(b - 1, Math.max(a + 1, mid));
    const [e] = await db.iterateRaw(cat(s.prefix, codec.start(mid)), s.lt, { limit: 1 });
    if (!e) throw new RankError('stream ends before its last entry');
    const fm = rankOf(e[1]);
    const hm = codec.height(posOf(e[0]));
    if (fm <= r) { a = hm; fa = fm; } else { b = mid; fb = fm; }
    if (a >= b) throw new RankError('ranks are not monotonic');
  }
  // the entry of rank r is the (r - fa)-th of height a: guess it at index r - fa (exact when the
  // stream holds every tx of the block), then read forward from the guess or from the height's start
  let from = cat(s.prefix, codec.start(a));
  let fromRank = fa;
  let atGuess: [Bytes, Bytes][] | undefined;
  if (r > fa && codec.at) {
    const got = await db.iterateRaw(cat(s.prefix, codec.at(a, r - fa)), s.lt, { limit: desc ? 1 : n });
    const g = got[0];
    if (g && rankOf(g[1]) >= fa && rankOf(g[1]) <= r) {
      from = g[0];
      fromRank = rankOf(g[1]);
      if (fromRank === r) atGuess = got;
    }
  }
  let rows: [Bytes, Bytes][];
  if (!desc) {
    rows = atGuess ?? (await db.iterateRaw(from, s.lt, { limit: r - fromRank + n })).slice(r - fromRank);
  } else {
    let target = from;
    if (fromRank !== r) {
      const within = await db.iterateRaw(from, s.lt, { limit: r - fromRank + 1 });
      if (within.length !== r - fromRank + 1) throw new RankError('rank not found where expected');
      target = within[within.length - 1]![0];
    }
    rows = await db.iterateRaw(s.gte, successor(target), { reverse: true, limit: n });
  }
  // ranks of consecutive entries are consecutive: a cheap consistency check of the whole page
  for (let i = 0; i < rows.length; i++) {
    if (rankOf(rows[i]![1]) !== (desc ? r - i : r + i)) throw new RankError('ranks are not consecutive');
  }
  return { total, page: rows.map(([k]) => posOf(k)) };
}
