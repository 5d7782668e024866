/**
 * Times of gov: proposal timestamps (`google.protobuf.Timestamp`, never null: Go's zero time stands for
 * "not set"), durations, and the sortable time text of the queue keys (`sdk.FormatTimeBytes`).
 */
import type { google_protobuf } from '@chain/codec';

export type Timestamp = google_protobuf.Timestamp;
export type Duration = google_protobuf.Duration;

const NS = 1_000_000_000n;

/** Go's zero `time.Time` (0001-01-01T00:00:00Z): a deposit-period proposal's voting start and end. */
export const GO_ZERO_TIME: Readonly<Timestamp> = Object.freeze({ seconds: -62135596800n, nanos: 0 });

/** Nanoseconds since the Unix epoch (Go's `UnixNano`, unbounded). */
export function tsNanos(t: Timestamp | null): bigint {
  const ts = t ?? GO_ZERO_TIME;
  return ts.seconds * NS + BigInt(ts.nanos);
}

/** Nanoseconds since the epoch → timestamp. */
export function nanosTs(ns: bigint): Timestamp {
  let s = ns / NS;
  let n = ns % NS;
  if (n < 0n) {
    n += NS;
    s -= 1n;
  }
  return { seconds: s, nanos: Number(n) };
}

/** A block time (JS Date) as a timestamp. */
export function dateTs(d: Date): Timestamp {
  return nanosTs(BigInt(d.getTime()) * 1_000_000n);
}

/** A duration in nanoseconds (Go's `time.Duration`). */
export function durationNanos(d: Duration | null): bigint {
  return d ? d.seconds * NS + BigInt(d.nanos) : 0n;
}

/** Nanoseconds → duration. */
export function nanosDuration(ns: bigint): Duration {
  return { seconds: ns / NS, nanos: Number(ns % NS) };
}

/** `t.Add(d)`. */
export function addDuration(t: Timestamp, d: Duration | null): Timestamp {
  return nanosTs(tsNanos(t) + durationNanos(d));
}

const pad = (n: number, w: number): string => n.toString().padStart(w, '0');

/** `sdk.FormatTimeString(t)`: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn` in UTC (29 bytes; the queue keys' time). */
export function formatTimeKey(t: Timestamp | null): string {
  const ts = t ?? GO_ZERO_TIME;
  const d = new Date(Number(ts.seconds) * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(ts.nanos, 9)}`;
}

/** Go's `time.Duration.String()` (`48h0m0s`, `20s`, `1.5s`, `0s`): the readable form in messages. */
export function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < NS) {
    // sub-second: ns, µs or ms with fraction
    const units: [bigint, string][] = [[1_000_000n, 'ms'], [1_000n, 'µs'], [1n, 'ns']];
    const [div, name] = units.find(([d]) => u >= d)!;
    out = fraction(u, div) + name;
  } else {
    const h = u / (3600n * NS);
    u -= h * 3600n * NS;
    const m = u / (60n * NS);
    u -= m * 60n * NS;
    const s = fraction(u, NS) + 's';
    out = h > 0n ? `${h}h${m}m${s}` : m > 0n ? `${m}m${s}` : s;
  }
  return neg ? '-' + out : out;
}

function fraction(v: bigint, div: bigint): string {
  const whole = v / div;
  const rest = v % div;
  if (rest === 0n) return whole.toString();
  const digits = div.toString().length - 1;
  return `${whole}.${rest.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}
