/** Times of the staking keys: Go's `sdk.FormatTimeBytes` (`2006-01-02T15:04:05.000000000`, UTC). */
import type { google_protobuf } from '@chain/codec';

type Timestamp = google_protobuf.Timestamp;

const pad = (n: number, w: number): string => n.toString().padStart(w, '0');

/** `sdk.FormatTimeString(t)`: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn` in UTC (the key of the queues). */
export function formatTimeKey(t: Timestamp | null): string {
  const ts = t ?? GO_ZERO_TIMESTAMP;
  const d = new Date(Number(ts.seconds) * 1000);
  const y = d.getUTCFullYear();
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(ts.nanos, 9)}`;
}

/** Go's zero `time.Time` (0001-01-01T00:00:00Z), what an unset non-nullable timestamp stands for. */
export const GO_ZERO_TIMESTAMP: Timestamp = { seconds: -62135596800n, nanos: 0 };

/** A timestamp in nanoseconds since the Unix epoch (Go's `UnixNano`, unbounded). */
export function tsNanos(t: Timestamp | null): bigint {
  const ts = t ?? GO_ZERO_TIMESTAMP;
  return ts.seconds * 1_000_000_000n + BigInt(ts.nanos);
}

/** Nanoseconds since the epoch → timestamp. */
export function nanosTs(ns: bigint): Timestamp {
  let s = ns / 1_000_000_000n;
  let n = ns % 1_000_000_000n;
  if (n < 0n) {
    n += 1_000_000_000n;
    s -= 1n;
  }
  return { seconds: s, nanos: Number(n) };
}

/** A block time (JS Date, milliseconds) as a timestamp. */
export function dateTs(d: Date): Timestamp {
  return nanosTs(BigInt(d.getTime()) * 1_000_000n);
}

/** Go's `t.Format(time.RFC3339)` for a UTC time: `2006-01-02T15:04:05Z` (fractional seconds dropped). */
export function formatRFC3339(t: Timestamp | null): string {
  return formatTimeKey(t).slice(0, 19) + 'Z';
}

/** The Unix epoch, `time.Unix(0, 0).UTC()` (a new validator's unbonding time). */
export const UNIX_EPOCH: Timestamp = { seconds: 0n, nanos: 0 };
