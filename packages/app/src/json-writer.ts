/**
 * Writing a large JSON document piece by piece, with exactly the text `JSON.stringify(value, null, 2)`
 * gives for the same value, without building the value: containers whose members are produced lazily
 * ({@link LazyObject}, {@link LazyArray}: a generator over the store) are written member by member; every
 * other value is written whole with `JSON.stringify`, indented to its depth. The genesis export
 * (`chaind export`) writes its document this way.
 */

/** An object whose members are produced on demand, in order (a member with an undefined value is left out, as JSON.stringify does). */
export class LazyObject {
  constructor(readonly entries: Iterable<readonly [string, unknown]>) {}
}

/**
 * An array whose elements are produced on demand, in order; `count` (when known) and `label` (e.g.
 * `auth.accounts`) are for progress displays.
 */
export class LazyArray {
  constructor(readonly items: Iterable<unknown>, readonly count?: number, readonly label?: string) {}
}

/** Called by {@link JsonStreamWriter.write} as it writes lazy arrays (progress displays). */
export interface WriteHooks {
  /** before the first element of `array` */
  begin?(array: LazyArray): void;
  /** after each element of `array` */
  item?(array: LazyArray): void;
  /** after the last element of `array` */
  end?(array: LazyArray): void;
}

/** Receives the text in pieces; a promise makes the writer wait (backpressure). */
export type JsonSink = (text: string) => void | Promise<void>;

interface Frame {
  readonly array: boolean;
  members: number;
}

/**
 * A pull-free JSON writer with JSON.stringify's `space = 2` layout: `{}` and `[]` when empty, otherwise one
 * member per line, `"key": value`, two spaces per depth. Text is buffered and handed to the sink in pieces
 * of about `chunkSize` characters at `flush()` / `maybeFlush()`.
 */
export class JsonStreamWriter {
  private readonly stack: Frame[] = [];
  private pendingKey: string | undefined;
  private buf: string[] = [];
  private bufLen = 0;

  constructor(private readonly sink: JsonSink, private readonly chunkSize = 1 << 16) {}

  private out(s: string): void {
    this.buf.push(s);
    this.bufLen += s.length;
  }

  private indent(depth: number): string {
    return '\n' + '  '.repeat(depth);
  }

  /** Writes the separator, indentation and key that come before a member of the current container. */
  private memberStart(): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      if (this.pendingKey !== undefined) throw new Error('JsonStreamWriter: a key outside an object');
      return;
    }
    if (!top.array && this.pendingKey === undefined) throw new Error('JsonStreamWriter: an object member without a key');
    if (top.array && this.pendingKey !== undefined) throw new Error('JsonStreamWriter: a key inside an array');
    // the container's opening bracket is written with its first member ({} and [] when it has none)
    this.out((top.members === 0 ? (top.array ? '[' : '{') : ',') + this.indent(this.stack.length));
    top.members++;
    if (this.pendingKey !== undefined) {
      this.out(JSON.stringify(this.pendingKey) + ': ');
      this.pendingKey = undefined;
    }
  }

  /** The key of the next member of the current object. */
  key(k: string): this {
    this.pendingKey = k;
    return this;
  }

  /**
   * A whole value (JSON.stringify's text at this depth). In an object, a value JSON.stringify leaves out
   * (undefined, a function) leaves the member out; in an array it is `null`.
   */
  value(v: unknown): this {
    const text = JSON.stringify(v, null, 2) as string | undefined;
    const top = this.stack[this.stack.length - 1];
    if (text === undefined) {
      if (top && !top.array) {
        this.pendingKey = undefined;
        return this;
      }
      if (!top) throw new Error('JsonStreamWriter: the document is not a JSON value');
      this.memberStart();
      this.out('null');
      return this;
    }
    this.memberStart();
    const depth = this.stack.length;
    // JSON text has no raw newline inside strings, so every newline is a layout one
    this.out(depth === 0 || !text.includes('\n') ? text : text.replaceAll('\n', this.indent(depth)));
    return this;
  }

  beginObject(): this {
    this.memberStart();
    this.stack.push({ array: false, members: 0 });
    return this;
  }

  beginArray(): this {
    this.memberStart();
    this.stack.push({ array: true, members: 0 });
    return this;
  }

  /** Closes the innermost object or array. */
  end(): this {
    const top = this.stack.pop();
    if (!top) throw new Error('JsonStreamWriter: end() without an open container');
    if (this.pendingKey !== undefined) throw new Error('JsonStreamWriter: a key without a value');
    if (top.members === 0) this.out(top.array ? '[]' : '{}');
    else this.out(this.indent(this.stack.length) + (top.array ? ']' : '}'));
    return this;
  }

  /** Open containers (0 when the document is complete). */
  get depth(): number {
    return this.stack.length;
  }

  /** Hands the buffered text to the sink when it is at least `chunkSize` long. */
  maybeFlush(): void | Promise<void> {
    if (this.bufLen >= this.chunkSize) return this.flush();
  }

  /** Hands all buffered text to the sink. */
  flush(): void | Promise<void> {
    if (this.bufLen === 0) return;
    const text = this.buf.join('');
    this.buf = [];
    this.bufLen = 0;
    return this.sink(text);
  }

  /**
   * Writes `v`, walking into {@link LazyObject} and {@link LazyArray} (also nested in one another) member by
   * member and flushing as the buffer fills; `hooks` follow the lazy arrays.
   */
  async write(v: unknown, hooks: WriteHooks = {}): Promise<void> {
    if (v instanceof LazyObject) {
      this.beginObject();
      for (const [k, x] of v.entries) {
        if (x === undefined) continue;
        this.key(k);
        await this.write(x, hooks);
      }
      this.end();
    } else if (v instanceof LazyArray) {
      hooks.begin?.(v);
      this.beginArray();
      for (const x of v.items) {
        // (JSON.stringify writes an undefined element as null: value() does)
        if (x instanceof LazyObject || x instanceof LazyArray) await this.write(x, hooks);
        else this.value(x);
        hooks.item?.(v);
        const p = this.maybeFlush();
        if (p) await p;
      }
      this.end();
      hooks.end?.(v);
    } else {
      this.value(v);
    }
    const p = this.maybeFlush();
    if (p) await p;
  }
}

/** The plain value of a value with lazy parts (the whole thing in memory: for small documents and tests). */
export function materialize(v: unknown): unknown {
  if (v instanceof LazyObject) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries) o[k] = materialize(x);
    return o;
  }
  if (v instanceof LazyArray) return Array.from(v.items, materialize);
  return v;
}

/** The text `JSON.stringify(materialize(v), null, 2)` would give, written by {@link JsonStreamWriter}. */
export async function stringifyLazy(v: unknown): Promise<string> {
  const parts: string[] = [];
  const w = new JsonStreamWriter((s) => { parts.push(s); });
  await w.write(v);
  await w.flush();
  return parts.join('');
}
