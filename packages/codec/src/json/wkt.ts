/** Well-known type helpers: Timestamp and Duration text forms (both directions) and the `Any` value rule. */
import { CodecError } from './errors.js';
import { typeErr } from './go-json.js';
import { civilFromDays, goParseDuration, goParseRFC3339 } from './go-time.js';
import { fieldOf } from './plan.js';
import type { TypePlan } from './plan.js';
import { makeLong, newMessage, toBigInt64, toNumber } from './values.js';
import type { Rec } from './values.js';

/** Well-known types written as `{"@type":…,"value":…}` inside an Any. */
export function anyNeedsValue(p: TypePlan): boolean {
  return p.wkt !== undefined && p.wkt !== 'FieldMask';
}

/** A Timestamp message (or a JS Date) as RFC 3339 text; code 2 for nanos out of range. */
export function encTimestamp(msg: Rec): string {
  let secs: number;
  let nanos: number;
  if ((msg as unknown) instanceof Date) {
    const ms = (msg as unknown as Date).getTime();
    if (!Number.isFinite(ms)) throw new CodecError('invalid Date for Timestamp', 2);
    secs = Math.floor(ms / 1000);
    nanos = (ms - secs * 1000) * 1e6;
  } else {
    secs = Number(toBigInt64(msg['seconds'], false));
    nanos = toNumber(msg['nanos']);
  }
  if (!(nanos >= 0 && nanos < 1e9)) throw new CodecError('ns out of range [0, 1000000000)', 2);
  return formatTimestamp(secs, nanos);
}

/** RFC 3339 UTC text with 0/3/6/9 fraction digits (Go `Format` with year padded to 4). */
function formatTimestamp(secs: number, nanos: number): string {
  const days = Math.floor(secs / 86400);
  const sod = secs - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  const year = y < 0 ? '-' + String(-y).padStart(4, '0') : String(y).padStart(4, '0');
  const hh = Math.floor(sod / 3600);
  const mi = Math.floor((sod % 3600) / 60);
  const ss = sod % 60;
  return `${year}-${pad2(mo)}-${pad2(d)}T${pad2(hh)}:${pad2(mi)}:${pad2(ss)}${fraction(nanos)}Z`;
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const s = String(nanos).padStart(9, '0');
  if (nanos % 1e6 === 0) return '.' + s.slice(0, 3);
  if (nanos % 1e3 === 0) return '.' + s.slice(0, 6);
  return '.' + s;
}

/** Go's zero `time.Time` as written (unset gogoproto `stdtime` + `nullable=false` fields). */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const MAX_DURATION_SECONDS = 315576000000n;

/** A Duration message as `"<s>[.fff]s"`; code 2 for out-of-range or mixed-sign values. */
export function encDuration(msg: Rec): string {
  const s = toBigInt64(msg['seconds'], false);
  let ns = toNumber(msg['nanos']);
  if (s < -MAX_DURATION_SECONDS || s > MAX_DURATION_SECONDS) throw new CodecError(`seconds out of range ${s}`, 2);
  if (ns <= -1e9 || ns >= 1e9) throw new CodecError('ns out of range (-1000000000, 1000000000)', 2);
  if ((s > 0n && ns < 0) || (s < 0n && ns > 0)) throw new CodecError('signs of seconds and nanos do not match', 2);
  let sign = '';
  if (ns < 0) {
    ns = -ns;
    if (s === 0n) sign = '-';
  }
  let x = `${sign}${s}.${String(ns).padStart(9, '0')}`;
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('.000')) x = x.slice(0, -4);
  return x + 's';
}

/** A Timestamp message from RFC 3339 text (`bad Timestamp, …` errors as gogo jsonpb words them). */
export function decTimestamp(p: TypePlan, json: unknown): Rec {
  if (typeof json !== 'string') throw typeErr(json, 'string');
  let ts: { seconds: bigint; nanos: number };
  try {
    ts = goParseRFC3339(json);
  } catch (e) {
    throw new CodecError(`bad Timestamp, should be RFC 3339 encoded: ${(e as Error).message}`);
  }
  return timeMessage(p, ts.seconds, ts.nanos);
}

/** A Duration message from Go duration text (`bad Duration: …` errors). */
export function decDuration(p: TypePlan, json: unknown): Rec {
  if (typeof json !== 'string') throw typeErr(json, 'string');
  let d: bigint;
  try {
    d = goParseDuration(json);
  } catch (e) {
    throw new CodecError(`bad Duration: ${(e as Error).message}`);
  }
  return timeMessage(p, d / 1_000_000_000n, Number(d % 1_000_000_000n));
}

function timeMessage(p: TypePlan, seconds: bigint, nanos: number): Rec {
  const msg = newMessage(p.type);
  msg[fieldOf(p, 'seconds').key] = makeLong(seconds, false);
  msg[fieldOf(p, 'nanos').key] = nanos;
  return msg;
}
