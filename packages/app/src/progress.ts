/**
 * A progress display for long work (genesis import and export, block replay). On a terminal
 * (`stream.isTTY`) it redraws one line: label, a bar when the total is known, count/total, rate per second
 * and the estimated time left. Elsewhere (a log file, a pipe) it writes a plain line at most every
 * `intervalMs` and one when the work is done, through `log` when given (the node passes its logger, so the
 * lines have the node's log format).
 */

/** The part of a stream the display writes to (`process.stderr` by default). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  /** width of the terminal in characters (the line is cut to it) */
  readonly columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** what is counted, e.g. `genesis auth.accounts` */
  readonly label: string;
  /** the count at which the work is done; without it there is no bar and no ETA */
  readonly total?: number;
  /** the unit after the counts (default `entries`) */
  readonly unit?: string;
  /** default `process.stderr` */
  readonly stream?: ProgressStream;
  /** milliseconds since some fixed point (default `performance.now()`) */
  readonly now?: () => number;
  /** where the plain lines go when the stream is not a terminal (default: written to the stream) */
  readonly log?: (line: string) => void;
  /** not a terminal: at most one line per this many milliseconds (default 5000) */
  readonly intervalMs?: number;
  /** terminal: at most one redraw per this many milliseconds (default 100) */
  readonly redrawMs?: number;
  /** show nothing (tests, library callers that do not want output) */
  readonly silent?: boolean;
}

const BAR_WIDTH = 24;

/** `1234567` → `1,234,567` */
function grouped(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** seconds → `42s`, `3m07s`, `1h02m` */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export class Progress {
  readonly label: string;
  readonly total: number | undefined;
  private readonly unit: string;
  private readonly stream: ProgressStream;
  private readonly now: () => number;
  private readonly log: ((line: string) => void) | undefined;
  private readonly tty: boolean;
  private readonly intervalMs: number;
  private readonly redrawMs: number;
  private readonly silent: boolean;
  private readonly start: number;
  private last: number;
  private n = 0;
  private finished = false;

  constructor(o: ProgressOptions) {
    this.label = o.label;
    this.total = o.total;
    this.unit = o.unit ?? 'entries';
    this.stream = o.stream ?? process.stderr;
    this.now = o.now ?? (() => performance.now());
    this.log = o.log;
    this.tty = this.stream.isTTY === true;
    this.intervalMs = o.intervalMs ?? 5000;
    this.redrawMs = o.redrawMs ?? 100;
    this.silent = o.silent === true;
    this.start = this.now();
    this.last = this.start;
  }

  /** the count so far */
  get count(): number { return this.n; }

  /** Counts `n` more (default 1); redraws or logs when it is time to. */
  tick(n = 1): void {
    this.n += n;
    if (this.silent || this.finished) return;
    const t = this.now();
    if (t - this.last < (this.tty ? this.redrawMs : this.intervalMs)) return;
    this.last = t;
    if (this.tty) this.draw(t);
    else this.line(this.status(t));
  }

  /** The work is done: the final figures (on a terminal the line is completed with a newline). */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.silent) return;
    const t = this.now();
    const secs = (t - this.start) / 1000;
    const rate = secs > 0 ? this.n / secs : 0;
    const text = `${this.label}: ${grouped(this.n)} ${this.unit} in ${secs.toFixed(1)}s${secs > 0 ? ` (${grouped(rate)}/s)` : ''}`;
    if (this.tty) {
      this.stream.write(`\r${this.fit(text)}\x1b[K\n`);
    } else {
      this.line(text);
    }
  }

  /** label, bar, count/total, rate, ETA at time `t` */
  status(t = this.now()): string {
    const secs = (t - this.start) / 1000;
    const rate = secs > 0 ? this.n / secs : 0;
    const parts = [this.label];
    const total = this.total;
    if (total !== undefined && total > 0) {
      const frac = Math.min(1, this.n / total);
      if (this.tty) {
        const full = Math.round(frac * BAR_WIDTH);
        parts.push(`[${'#'.repeat(full)}${'.'.repeat(BAR_WIDTH - full)}]`);
      }
      parts.push(`${(frac * 100).toFixed(0)}%`, `${grouped(this.n)}/${grouped(total)} ${this.unit}`);
    } else {
      parts.push(`${grouped(this.n)} ${this.unit}`);
    }
    parts.push(`${grouped(rate)}/s`);
    if (total !== undefined && total > 0) parts.push(`ETA ${rate > 0 ? formatDuration(Math.max(0, total - this.n) / rate) : '?'}`);
    return parts.join(' ');
  }

  private draw(t: number): void {
    this.stream.write(`\r${this.fit(this.status(t))}\x1b[K`);
  }

  private fit(text: string): string {
    const w = this.stream.columns;
    return w !== undefined && w > 1 && text.length >= w ? text.slice(0, w - 1) : text;
  }

  private line(text: string): void {
    if (this.log) this.log(text);
    else this.stream.write(text + '\n');
  }
}

/** Creates a {@link Progress}. */
export function progress(o: ProgressOptions): Progress {
  return new Progress(o);
}

/** What code that reports progress takes from its caller: a factory, so the caller decides output and format. */
export type ProgressFactory = (label: string, total?: number) => Progress;

/** A factory of displays that show nothing. */
export const SILENT_PROGRESS: ProgressFactory = (label, total) => new Progress({ label, total, silent: true });
