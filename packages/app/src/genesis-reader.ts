/**
 * Reading a genesis document without building it as one object: a byte scanner finds the extent of each JSON
 * value (strings, nesting) without decoding it, so the document's top-level fields and each `app_state`
 * module section are located first and parsed only when needed, and the large repeated fields of a module
 * (auth's accounts, bank's balances) are parsed in chunks of entries, one chunk in memory at a time.
 *
 * The scanner checks the structure it walks (objects, arrays, commas, colons, the end of the document);
 * every value is checked by `JSON.parse` when it is parsed. A syntax error is reported with the message of
 * `JSON.parse` over the whole text (`onSyntaxError`), so it reads as it did when the document was parsed whole.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';

/** Random access to the bytes of a document. */
export interface ByteSource {
  readonly size: number;
  /** bytes [start, end) in a buffer of their own */
  read(start: number, end: number): Buffer;
  close?(): void;
}

/** A document in memory (e.g. CometBFT's `app_state_bytes`). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { size: b.length, read: (s, e) => b.subarray(s, e) };
}

/** A document in a file, read by ranges (the file stays open until `close()`). */
export function fileSource(path: string): ByteSource {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  let open = true;
  return {
    size,
    read(start, end) {
      if (!open) throw new Error(`${path} is closed`);
      const out = Buffer.allocUnsafe(end - start);
      for (let off = 0; off < out.length;) {
        const n = readSync(fd, out, off, out.length - off, start + off);
        if (n === 0) throw new Error(`${path}: unexpected end of file (did it change while it was read?)`);
        off += n;
      }
      return out;
    },
    close() {
      if (open) { open = false; closeSync(fd); }
    },
  };
}

/** A JSON syntax problem found by the scanner (replaced by JSON.parse's own message, see `onSyntaxError`). */
export class JsonScanError extends Error {}

/** A value's byte range [start, end) in the document. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

const WINDOW = 1 << 22;
/** objects and arrays of at least this many bytes have their end remembered (JsonScanner.ends) */
const LARGE_VALUE = 1 << 16;

const isWs = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** `jumpInString`: the window ends inside the string (no escape pending at its end, or a backslash pending). */
const WINDOW_END = -1;
const WINDOW_END_ESCAPED = -2;

/**
 * Inside a string, from `buf[at]` (neither a quote nor a backslash): where the scan goes on. The next quote ends the
 * string unless an odd number of backslashes comes right before it (they cannot reach back past `at`): its index when
 * it ends the string, the index after it when it is escaped; WINDOW_END(_ESCAPED) when the window has no quote left,
 * with whether its last backslash escapes the first byte of the next window.
 */
function jumpInString(buf: Buffer, at: number): number {
  const q = buf.indexOf(0x22, at);
  const stop = q < 0 ? buf.length : q;
  let k = 0;
  while (stop - 1 - k > at && buf[stop - 1 - k] === 0x5c) k++;
  if (q < 0) return k % 2 === 1 ? WINDOW_END_ESCAPED : WINDOW_END;
  return k % 2 === 1 ? q + 1 : q;
}

/** Scans a {@link ByteSource} through a window of a few MiB. */
export class JsonScanner {
  private buf: Buffer = Buffer.alloc(0);
  private base = 0;
  /**
   * The ends of the large objects and arrays scanned so far, by start: the document is walked at several levels
   * (the top-level fields, the app_state sections, a section's fields), each walk finding the end of what the one
   * before it already went through; a walk from a known start returns at once
   */
  private readonly ends = new Map<number, number>();
  /** the element counts of the large arrays of `ends` with more than one element, by start (arrayElements uses them) */
  private readonly counts = new Map<number, number>();
  /** skipValue's stack of open objects and arrays (their starts), reused */
  private readonly starts: number[] = [];
  /** the commas met directly in each of skipValue's open objects and arrays, reused */
  private readonly commas: number[] = [];

  /** `window`: bytes read at once (tests use small ones to cross window edges) */
  constructor(readonly src: ByteSource, private readonly window = WINDOW) {}

  /** Makes byte `pos` available in the window; false at the end of the source. */
  private load(pos: number): boolean {
    if (pos >= this.src.size) return false;
    if (pos >= this.base && pos < this.base + this.buf.length) return true;
    this.base = pos;
    this.buf = this.src.read(pos, Math.min(this.src.size, pos + this.window));
    return true;
  }

  /** The byte at `pos`, or -1 past the end. */
  byte(pos: number): number {
    return this.load(pos) ? this.buf[pos - this.base]! : -1;
  }

  /** The first position at or after `pos` that is not whitespace. */
  skipWs(pos: number): number {
    for (;;) {
      const b = this.byte(pos);
      if (b < 0 || !isWs(b)) return pos;
      pos++;
    }
  }

  /** The text of [start, end). */
  text(start: number, end: number): string {
    if (start >= this.base && end <= this.base + this.buf.length) return this.buf.toString('utf8', start - this.base, end - this.base);
    return this.src.read(start, end).toString('utf8');
  }

  /** The parsed JSON value of [start, end). */
  parse(r: ByteRange): unknown {
    return JSON.parse(this.text(r.start, r.end));
  }

  /**
   * The end (exclusive) of the JSON value that starts at `pos` (no whitespace before it). Strings and
   * nesting are followed; the tokens themselves are checked when the value is parsed.
   */
  skipValue(pos: number): number {
    const known = this.ends.get(pos);
    if (known !== undefined) return known;
    const starts = this.starts;
    const commas = this.commas;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let i = pos;
    let buf = this.buf;
    let base = this.base;
    let lim = base + buf.length;
    for (;;) {
      if (i >= lim) {
        if (!this.load(i)) {
          if (depth === 0 && !inString && i > pos) return i;
          throw new JsonScanError(`unexpected end of the document in the value at byte ${pos}`);
        }
        buf = this.buf;
        base = this.base;
        lim = base + buf.length;
      }
      const b = buf[i - base]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) {
          inString = false;
          if (depth === 0) return i + 1;
        } else {
          // most of a document is string text: jump to the next quote (or the window's end)
          const j = jumpInString(buf, i - base);
          if (j < 0) {
            escaped = j === WINDOW_END_ESCAPED;
            i = lim;
          } else i = base + j;
          continue;
        }
      } else if (b === 0x22) {
        if (depth === 0 && i > pos) throw new JsonScanError(`unexpected string at byte ${i}`);
        inString = true;
      } else if (b === 0x2c && depth > 0) {
        commas[depth - 1]!++;
      } else if (b === 0x7b || b === 0x5b) {
        if (depth === 0 && i > pos) throw new JsonScanError(`unexpected ${String.fromCharCode(b)} at byte ${i}`);
        commas[depth] = 0;
        starts[depth++] = i;
      } else if (b === 0x7d || b === 0x5d) {
        if (depth === 0) {
          if (i > pos) return i;
          throw new JsonScanError(`unexpected ${String.fromCharCode(b)} at byte ${i}`);
        }
        // a large object or array: remember where it ends (a scan from its start finds the same end), and for an
        // array of several elements how many (one more than its commas)
        const start = starts[--depth]!;
        if (i + 1 - start >= LARGE_VALUE) {
          this.ends.set(start, i + 1);
          if (b === 0x5d && commas[depth]! > 0) this.counts.set(start, commas[depth]! + 1);
        }
        if (depth === 0) return i + 1;
      } else if (depth === 0 && (b === 0x2c || b === 0x3a || isWs(b))) {
        // the end of a number or literal
        if (i === pos) throw new JsonScanError(`unexpected ${String.fromCharCode(b)} at byte ${i}`);
        return i;
      }
      i++;
    }
  }

  private expect(pos: number, b: number): void {
    if (this.byte(pos) !== b) throw new JsonScanError(`expected ${String.fromCharCode(b)} at byte ${pos}`);
  }

  /** The members of the object at `pos` (`{`): each key with the byte range of its value; and the object's end. */
  objectMembers(pos: number): { members: { key: string; value: ByteRange }[]; end: number } {
    this.expect(pos, 0x7b);
    const members: { key: string; value: ByteRange }[] = [];
    let i = this.skipWs(pos + 1);
    if (this.byte(i) === 0x7d) return { members, end: i + 1 };
    for (;;) {
      this.expect(i, 0x22);
      const keyEnd = this.skipValue(i);
      const key = JSON.parse(this.text(i, keyEnd)) as string;
      i = this.skipWs(keyEnd);
      this.expect(i, 0x3a);
      const start = this.skipWs(i + 1);
      const end = this.skipValue(start);
      members.push({ key, value: { start, end } });
      i = this.skipWs(end);
      const b = this.byte(i);
      if (b === 0x7d) return { members, end: i + 1 };
      if (b !== 0x2c) throw new JsonScanError(`expected , or } at byte ${i}`);
      i = this.skipWs(i + 1);
    }
  }

  /**
   * Walks the array at `pos` (`[`): calls `element` with the range of each element in order; returns the
   * array's end and the number of elements.
   */
  arrayElements(pos: number, element?: (r: ByteRange) => void): { end: number; count: number } {
    this.expect(pos, 0x5b);
    // a large array skipValue went through: its end and count are known (its elements are checked when parsed)
    const known = this.ends.get(pos);
    const knownCount = this.counts.get(pos);
    if (element === undefined && known !== undefined && knownCount !== undefined) return { end: known, count: knownCount };
    let i = this.skipWs(pos + 1);
    let count = 0;
    if (this.byte(i) === 0x5d) return { end: i + 1, count };
    for (;;) {
      const end = this.skipValue(i);
      element?.({ start: i, end });
      count++;
      i = this.skipWs(end);
      const b = this.byte(i);
      if (b === 0x5d) return { end: i + 1, count };
      if (b !== 0x2c) throw new JsonScanError(`expected , or ] at byte ${i}`);
      i = this.skipWs(i + 1);
    }
  }

  /**
   * The elements of the array at `range`, parsed in chunks of at most `maxItems` elements or about
   * `maxBytes` of text (one `JSON.parse` per chunk).
   */
  *arrayChunks(range: ByteRange, maxItems = 1000, maxBytes = 1 << 20): Generator<unknown[]> {
    this.expect(range.start, 0x5b);
    let i = this.skipWs(range.start + 1);
    if (this.byte(i) === 0x5d) return;
    for (;;) {
      // the text from the first element's start to the last one's end holds the commas between them only
      const { end, next } = this.scanElements(i, maxItems, maxBytes);
      yield JSON.parse('[' + this.text(i, end) + ']') as unknown[];
      if (next < 0) return;
      i = next;
    }
  }

  /**
   * From the array element that starts at `pos` (no whitespace before it): where the text of the next `maxItems`
   * elements, or of about `maxBytes` bytes of them, ends (exclusive: at the comma after the last one, or at the
   * array's `]`), and where the element after them starts (-1: the array ends there). One pass over the bytes,
   * following strings and nesting as `skipValue` does (a call per element costs more than the scan of a small one);
   * the elements' tokens are checked when the chunk is parsed.
   */
  private scanElements(pos: number, maxItems: number, maxBytes: number): { end: number; next: number } {
    let depth = 0;
    let inString = false;
    let escaped = false;
    let n = 0;
    let i = pos;
    let buf = this.buf;
    let base = this.base;
    let lim = base + buf.length;
    for (;;) {
      if (i >= lim) {
        if (!this.load(i)) throw new JsonScanError(`unexpected end of the document in the array element at byte ${pos}`);
        buf = this.buf;
        base = this.base;
        lim = base + buf.length;
      }
      const b = buf[i - base]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) inString = false;
        else {
          const j = jumpInString(buf, i - base);
          if (j < 0) {
            escaped = j === WINDOW_END_ESCAPED;
            i = lim;
          } else i = base + j;
          continue;
        }
      } else if (b === 0x22) {
        inString = true;
      } else if (b === 0x7b || b === 0x5b) {
        depth++;
      } else if (b === 0x7d || b === 0x5d) {
        if (depth > 0) depth--;
        else if (b === 0x5d) return { end: i, next: -1 };
        else throw new JsonScanError(`unexpected } at byte ${i}`);
      } else if (b === 0x2c && depth === 0 && (++n >= maxItems || i - pos >= maxBytes)) {
        const next = this.skipWs(i + 1);
        const c = this.byte(next);
        if (c < 0 || c === 0x2c || c === 0x5d) throw new JsonScanError(`unexpected ${c < 0 ? 'end of the document' : String.fromCharCode(c)} at byte ${next}`);
        return { end: i, next };
      }
      i++;
    }
  }

  /** Checks that only whitespace follows `pos`. */
  expectEnd(pos: number): void {
    const i = this.skipWs(pos);
    if (i < this.src.size) throw new JsonScanError(`unexpected data after the document at byte ${i}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// app_state sources

/** One module's section of `app_state` with its large fields apart. */
export interface SectionParts {
  /** the section without the large fields (JSON) */
  readonly head: Record<string, unknown>;
  /** the large fields present in the section (arrays), each read in chunks by {@link AppStateSource.chunks} */
  readonly streamed: ReadonlySet<string>;
}

/**
 * The `app_state` of a genesis document, read section by section: the parsed object as before
 * ({@link objectAppState}), or the bytes of a file or of CometBFT's `app_state_bytes` ({@link JsonAppState}).
 */
export interface AppStateSource {
  /** the module names that have a section, in the document's order */
  readonly modules: readonly string[];
  /** the JSON of a module's section (undefined: none) */
  section(name: string): unknown;
  /** a module's section with the array fields named in `large` apart (undefined: no section) */
  sectionParts(name: string, large: readonly string[]): SectionParts | undefined;
  /** the elements of a large field of a module's section, in chunks (each call reads them again) */
  chunks(name: string, field: string): Iterable<unknown[]>;
  /** the number of elements of a large field, when known without reading them */
  count(name: string, field: string): number | undefined;
}

const CHUNK = 1000;

/** The source of an `app_state` already parsed (tests, InitChain requests that carry the object). */
export function objectAppState(appState: Record<string, unknown>): AppStateSource {
  const isSection = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  return {
    modules: Object.keys(appState),
    section: (name) => (Object.hasOwn(appState, name) ? appState[name] : undefined),
    sectionParts(name, large) {
      if (!Object.hasOwn(appState, name) || appState[name] === undefined) return undefined;
      const s = appState[name];
      // not an object: the decoder reports it as it always did
      if (!isSection(s)) return { head: s as Record<string, unknown>, streamed: new Set() };
      const head: Record<string, unknown> = {};
      const streamed = new Set<string>();
      for (const [k, v] of Object.entries(s)) {
        if (large.includes(k) && Array.isArray(v)) streamed.add(k);
        else head[k] = v;
      }
      return { head, streamed };
    },
    *chunks(name, field) {
      const v = (appState[name] as Record<string, unknown> | undefined)?.[field];
      if (!Array.isArray(v)) return;
      for (let i = 0; i < v.length; i += CHUNK) yield v.slice(i, i + CHUNK);
    },
    count(name, field) {
      const v = (appState[name] as Record<string, unknown> | undefined)?.[field];
      return Array.isArray(v) ? v.length : undefined;
    },
  };
}

/**
 * The source of an `app_state` in bytes: the sections are located once (their bytes are not kept), each is
 * parsed when asked for, and the large fields chunk by chunk. `onSyntaxError` turns a scanner error or a
 * parse error into the error to throw (e.g. JSON.parse's message over the whole document).
 */
export class JsonAppState implements AppStateSource {
  private readonly ranges = new Map<string, ByteRange>();
  private readonly largeRanges = new Map<string, ByteRange & { count: number }>();
  readonly modules: readonly string[];

  constructor(private readonly scanner: JsonScanner, range: ByteRange, private readonly onSyntaxError: (e: Error) => Error = (e) => e) {
    const names: string[] = [];
    this.guard(() => {
      // `app_state: null` is an empty app_state, as before
      if (scanner.byte(range.start) === 0x6e && scanner.text(range.start, range.end) === 'null') return;
      for (const { key, value } of scanner.objectMembers(range.start).members) {
        if (!this.ranges.has(key)) names.push(key);
        // a key given twice: the last value counts (as JSON.parse)
        this.ranges.set(key, value);
      }
    });
    this.modules = names;
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof JsonScanError || e instanceof SyntaxError) throw this.onSyntaxError(e);
      throw e;
    }
  }

  section(name: string): unknown {
    const r = this.ranges.get(name);
    return r === undefined ? undefined : this.guard(() => this.scanner.parse(r));
  }

  sectionParts(name: string, large: readonly string[]): SectionParts | undefined {
    const r = this.ranges.get(name);
    if (r === undefined) return undefined;
    return this.guard(() => {
      if (this.scanner.byte(r.start) !== 0x7b) return { head: this.scanner.parse(r) as Record<string, unknown>, streamed: new Set<string>() };
      const head: Record<string, unknown> = {};
      const streamed = new Set<string>();
      for (const { key, value } of this.scanner.objectMembers(r.start).members) {
        if (large.includes(key) && this.scanner.byte(value.start) === 0x5b) {
          const { count } = this.scanner.arrayElements(value.start);
          this.largeRanges.set(`${name}\u0000${key}`, { ...value, count });
          streamed.add(key);
          delete head[key];
        } else {
          head[key] = this.scanner.parse(value);
          streamed.delete(key);
        }
      }
      return { head, streamed };
    });
  }

  *chunks(name: string, field: string): Generator<unknown[]> {
    const r = this.largeRanges.get(`${name}\u0000${field}`);
    if (r === undefined) return;
    const it = this.scanner.arrayChunks(r);
    for (;;) {
      const next = this.guard(() => it.next());
      if (next.done) return;
      yield next.value;
    }
  }

  count(name: string, field: string): number | undefined {
    return this.largeRanges.get(`${name}\u0000${field}`)?.count;
  }
}

// ---------------------------------------------------------------------------------------------------------
// a genesis file

/** A genesis document read from a file: its top-level fields but `app_state`, which is read by sections. */
export interface GenesisFile {
  /** the top-level fields of the document, `app_state` excepted */
  readonly header: Record<string, unknown>;
  /** whether the document has an `app_state` */
  readonly hasAppState: boolean;
  /** the whole `app_state`, parsed on each call (e.g. for the RPC `genesis` method) */
  appState(): Record<string, unknown>;
  /** `app_state` section by section (InitChain) */
  appStateSource(): AppStateSource;
  /** closes the file */
  close(): void;
}

/**
 * Opens a genesis file and reads its top-level fields (`app_state` is located, not parsed). Any syntax error
 * is thrown as `errorOf(JSON.parse's error over the whole file)`, as when the file was parsed whole.
 *
 * `headerCache`: a file where the scan's result (the top-level fields, where `app_state` lies) is kept with the
 * genesis file's identity (size, mtime, ctime, inode, device); while that identity holds, an open reads the
 * cache instead of scanning the file (a restart of a chain with a 1M-account genesis skips reading ~200 MB).
 */
export function openGenesisFile(path: string, errorOf: (e: Error) => Error = (e) => e, window?: number, headerCache?: string): GenesisFile {
  const src = fileSource(path);
  const scanner = new JsonScanner(src, window);
  const identity = headerCache === undefined ? undefined : fileIdentity(path);
  const cached = identity === undefined ? undefined : readHeaderCache(headerCache!, identity);
  if (cached !== undefined) return genesisFileOf(scanner, src, cached.header, cached.app ?? undefined, errorOf, path);
  const syntaxError = wholeFileSyntaxError(path, errorOf);
  let header: Record<string, unknown>;
  let appRange: ByteRange | undefined;
  try {
    const start = scanner.skipWs(0);
    if (scanner.byte(start) !== 0x7b) {
      // not an object (or not JSON): JSON.parse says what it is
      src.close?.();
      throw syntaxError(new JsonScanError('the genesis document is not a JSON object'));
    }
    const { members, end } = scanner.objectMembers(start);
    scanner.expectEnd(end);
    header = {};
    appRange = undefined;
    for (const { key, value } of members) {
      if (key === 'app_state') {
        appRange = value;
        delete header[key];
      } else {
        header[key] = scanner.parse(value);
      }
    }
  } catch (e) {
    src.close?.();
    if (e instanceof JsonScanError || e instanceof SyntaxError) throw syntaxError(e);
    throw e;
  }
  if (identity !== undefined) writeHeaderCache(headerCache!, { ...identity, header, app: appRange ?? null });
  return genesisFileOf(scanner, src, header, appRange, errorOf, path);
}

/** the message JSON.parse gives for the whole text (only on a syntax error: this reads the file whole) */
function wholeFileSyntaxError(path: string, errorOf: (e: Error) => Error): (e: Error) => Error {
  return (e) => {
    try {
      JSON.parse(readFileSync(path, 'utf8'));
    } catch (full) {
      return errorOf(full as Error);
    }
    return errorOf(e);
  };
}

function genesisFileOf(scanner: JsonScanner, src: ByteSource, header: Record<string, unknown>, range: ByteRange | undefined, errorOf: (e: Error) => Error, path: string): GenesisFile {
  const syntaxError = wholeFileSyntaxError(path, errorOf);
  return {
    header,
    hasAppState: range !== undefined,
    appState: () => (range === undefined ? {} : ((scanner.parse(range) ?? {}) as Record<string, unknown>)),
    appStateSource: () => (range === undefined ? objectAppState({}) : new JsonAppState(scanner, range, syntaxError)),
    close: () => src.close?.(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// the header cache: what a scan of an unchanged file would find, so a restart skips reading it whole

/** What identifies one version of a file: any write or replacement changes its ctime (and usually more). */
interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly dev: number;
}

interface HeaderCache extends FileIdentity {
  readonly v: 1;
  readonly header: Record<string, unknown>;
  readonly app: ByteRange | null;
}

function fileIdentity(path: string): FileIdentity {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, dev: st.dev };
}

function readHeaderCache(file: string, id: FileIdentity): HeaderCache | undefined {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as HeaderCache;
    const same = c.v === 1 && c.size === id.size && c.mtimeMs === id.mtimeMs && c.ctimeMs === id.ctimeMs && c.ino === id.ino && c.dev === id.dev;
    const rangeOk = c.app === null || (Number.isInteger(c.app?.start) && Number.isInteger(c.app?.end) && c.app.start < c.app.end && c.app.end <= id.size);
    return same && rangeOk && typeof c.header === 'object' && c.header !== null ? c : undefined;
  } catch {
    return undefined;
  }
}

/** best effort: a cache that cannot be written is only a slower next start */
function writeHeaderCache(file: string, c: Omit<HeaderCache, 'v'>): void {
  try {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: 1, ...c }));
    renameSync(tmp, file);
  } catch {
    /* e.g. a read-only home */
  }
}

/** The `app_state` source of CometBFT's InitChain `app_state_bytes` (an empty one when there are none). */
export function appStateOfBytes(bytes: Uint8Array): AppStateSource {
  if (bytes.length === 0) return objectAppState({});
  const scanner = new JsonScanner(bytesSource(bytes));
  const text = (): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const syntaxError = (e: Error): Error => {
    try {
      JSON.parse(text());
    } catch (full) {
      return full as Error;
    }
    return e;
  };
  try {
    const start = scanner.skipWs(0);
    const end = scanner.skipValue(start);
    scanner.expectEnd(end);
    if (scanner.byte(start) !== 0x7b) return objectAppState((JSON.parse(text()) ?? {}) as Record<string, unknown>);
    return new JsonAppState(scanner, { start, end }, syntaxError);
  } catch (e) {
    if (e instanceof JsonScanError || e instanceof SyntaxError) throw syntaxError(e);
    throw e;
  }
}
