/**
 * Emulation of Go's `time.Parse` for the two layouts the query language uses:
 * `2006-01-02` (DATE) and `time.RFC3339` (TIME). Acceptance, the resulting instant and the
 * error texts follow Go's general layout parser (e.g. one-digit hours, `,`/`.` fractional
 * seconds and zone offsets up to 24:60 are accepted, as Go does).
 */

/** Result of {@link parseGoTime}: an instant in nanoseconds since the Unix epoch, or Go's error text. */
export type GoTimeResult =
  | { readonly ok: true; readonly epochNs: bigint; readonly year: number }
  | { readonly ok: false; readonly error: string };

/** Which Go layout to parse with. */
export type GoLayout = 'date' | 'rfc3339';

type Elem = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone';

interface Chunk {
  readonly prefix: string;
  readonly elem: Elem;
  readonly std: string;
}

const DATE_CHUNKS: readonly Chunk[] = [
  { prefix: '', elem: 'year', std: '2006' },
  { prefix: '-', elem: 'month', std: '01' },
  { prefix: '-', elem: 'day', std: '02' },
];

const RFC3339_CHUNKS: readonly Chunk[] = [
  ...DATE_CHUNKS,
  { prefix: 'T', elem: 'hour', std: '15' },
  { prefix: ':', elem: 'minute', std: '04' },
  { prefix: ':', elem: 'second', std: '05' },
  { prefix: '', elem: 'zone', std: 'Z07:00' },
];

const LAYOUTS: Record<GoLayout, { text: string; chunks: readonly Chunk[] }> = {
  date: { text: '2006-01-02', chunks: DATE_CHUNKS },
  rfc3339: { text: '2006-01-02T15:04:05Z07:00', chunks: RFC3339_CHUNKS },
};

const isDigitAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's quote() for time errors: double quotes, `"` and `\` escaped, other non-printables hex-escaped. */
function quote(s: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(s)) {
    if (byte < 0x20 || byte >= 0x80) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else {
      const c = String.fromCharCode(byte);
      out += c === '"' || c === '\\' ? `\\${c}` : c;
    }
  }
  return `${out}"`;
}

/** Go's getnum: one or two leading digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) return fixed ? undefined : { n: s.charCodeAt(0) - 48, rest: s.slice(1) };
  return { n: (s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), rest: s.slice(2) };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Parses `value` with Go's `time.Parse` semantics for the given layout. */
export function parseGoTime(value: string, layout: GoLayout): GoTimeResult {
  const { text: layoutText, chunks } = LAYOUTS[layout];
  const fail = (message: string): GoTimeResult => ({ ok: false, error: `parsing time ${quote(value)}${message}` });
  const cannot = (elem: string, rest: string): GoTimeResult =>
    fail(` as ${quote(layoutText)}: cannot parse ${quote(rest)} as ${quote(elem)}`);

  let v = value;
  let year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0, nsec = 0n, offset = 0;
  for (const chunk of chunks) {
    for (const ch of chunk.prefix) {
      if (v.length === 0 || v[0] !== ch) return cannot(chunk.prefix, v);
      v = v.slice(1);
    }
    const hold = v;
    let range = '';
    let bad = false;
    switch (chunk.elem) {
      case 'year': {
        if (v.length < 4 || !isDigitAt(v, 0)) { bad = true; break; }
        const p = v.slice(0, 4);
        v = v.slice(4);
        if (!/^\d{4}$/.test(p)) { bad = true; break; }
        year = Number(p);
        break;
      }
      case 'month': case 'day': case 'hour': case 'minute': case 'second': {
        const r = getnum(v, chunk.elem !== 'hour');
        if (r === undefined) { bad = true; break; }
        v = r.rest;
        if (chunk.elem === 'month') { month = r.n; if (month < 1 || month > 12) range = 'month'; }
        else if (chunk.elem === 'day') day = r.n;
        else if (chunk.elem === 'hour') { hour = r.n; if (hour >= 24) range = 'hour'; }
        else if (chunk.elem === 'minute') { minute = r.n; if (minute >= 60) range = 'minute'; }
        else {
          second = r.n;
          if (second >= 60) { range = 'second'; break; }
          // Fractional seconds are accepted although the layout has none (Go special case).
          if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigitAt(v, 1)) {
            let n = 2;
            while (isDigitAt(v, n)) n++;
            const digits = v.slice(1, Math.min(n, 10));
            nsec = BigInt(digits) * 10n ** BigInt(9 - digits.length);
            v = v.slice(n);
          }
        }
        break;
      }
      case 'zone': {
        if (v.length >= 1 && v[0] === 'Z') { v = v.slice(1); offset = 0; break; }
        if (v.length < 6 || v[3] !== ':') { bad = true; break; }
        const sign = v[0];
        const hh = getnum(v.slice(1, 3), true);
        const mm = hh === undefined ? undefined : getnum(v.slice(4, 6), true);
        v = v.slice(6);
        const h = hh?.n ?? 0;
        const m = mm?.n ?? 0;
        // Go checks with > (not >=): offsets of 24 hours or 60 minutes are tolerated.
        if (h > 24) range = 'time zone offset hour';
        if (m > 60) range = 'time zone offset minute';
        if (hh === undefined || mm === undefined || (sign !== '+' && sign !== '-')) bad = true;
        offset = (sign === '-' ? -1 : 1) * (h * 60 + m) * 60;
        break;
      }
    }
    if (range !== '') return fail(`: ${range} out of range`);
    if (bad) return cannot(chunk.std, hold);
  }
  if (v.length !== 0) return fail(`: extra text: ${quote(v)}`);
  if (day < 1 || day > daysIn(month, year)) return fail(': day out of range');
  const secs = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hour * 3600 + minute * 60 + second - offset);
  return { ok: true, epochNs: secs * 1_000_000_000n + nsec, year };
}
