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
