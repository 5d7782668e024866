/** Go-compatible `time` parsers (RFC 3339, durations) with Go's error texts, and proleptic Gregorian day math. */

/** The `time` package's quote (non-ASCII and control bytes as `\xNN`). */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c >= 0x80) {
      for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

/**
 * Go `time.Parse(time.RFC3339Nano, s)` → Unix seconds and nanos; throws Error with Go's
 * `parsing time …` message.
 */
export function goParseRFC3339(value: string): { seconds: bigint; nanos: number } {
  let rest = value;
  const cannot = (layoutElem: string): Error =>
    new Error(`parsing time ${timeQuote(value)} as ${timeQuote(RFC3339_NANO)}: cannot parse ${timeQuote(rest)} as ${timeQuote(layoutElem)}`);
  const range = (what: string): Error => new Error(`parsing time ${timeQuote(value)}: ${what} out of range`);
  const isD = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';
  const getnum = (fixed: boolean, elem: string): number => {
    if (!isD(rest, 0)) throw cannot(elem);
    if (!isD(rest, 1)) {
      if (fixed) throw cannot(elem);
      const v = rest.charCodeAt(0) - 48;
      rest = rest.slice(1);
      return v;
    }
    const v = (rest.charCodeAt(0) - 48) * 10 + rest.charCodeAt(1) - 48;
    rest = rest.slice(2);
    return v;
  };
  const lit = (p: string): void => {
    if (!rest.startsWith(p)) throw cannot(p);
    rest = rest.slice(p.length);
  };
  if (rest.length < 4 || !/^\d{4}/.test(rest)) throw cannot('2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);
  lit('-');
  const month = getnum(true, '01');
  if (month <= 0 || month > 12) throw range('month');
  lit('-');
  const day = getnum(true, '02');
  lit('T');
  const hour = getnum(false, '15');
  if (hour >= 24) throw range('hour');
  lit(':');
  const minute = getnum(true, '04');
  if (minute >= 60) throw range('minute');
  lit(':');
  const second = getnum(true, '05');
  if (second >= 60) throw range('second');
  let nanos = 0;
  if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isD(rest, 1)) {
    let i = 0;
    while (isD(rest, i + 1)) i++;
    const digits = rest.slice(1, 1 + Math.min(i, 9));
    nanos = Number(digits.padEnd(9, '0'));
    rest = rest.slice(1 + i);
  }
  let offset = 0;
  if (rest.startsWith('Z')) {
    rest = rest.slice(1);
  } else {
    if (rest.length < 6 || rest[3] !== ':') throw cannot('Z07:00');
    const sign = rest[0]!;
    const hh = rest.slice(1, 3);
    const mm = rest.slice(4, 6);
    if (!/^\d\d$/.test(hh) || !/^\d\d$/.test(mm) || (sign !== '+' && sign !== '-')) throw cannot('Z07:00');
    const hr = Number(hh);
    const mn = Number(mm);
    if (hr > 24) throw range('time zone offset hour');
    if (mn > 60) throw range('time zone offset minute');
    offset = (hr * 60 + mn) * 60 * (sign === '-' ? -1 : 1);
    rest = rest.slice(6);
  }
  if (rest.length > 0) throw new Error(`parsing time ${timeQuote(value)}: extra text: ${timeQuote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) throw range('day');
  const secs = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return { seconds: BigInt(secs), nanos };
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** (year, month, day) of a day count since 1970-01-01 (proleptic Gregorian; inverse of `daysFromCivil`). */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Go `time.ParseDuration` → nanoseconds; throws Error with Go's message. */
export function goParseDuration(orig: string): bigint {
  const bad = (): Error => new Error(`time: invalid duration ${timeQuote(orig)}`);
  const LIMIT = 1n << 63n;
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw bad();
  const isD = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  let d = 0n;
  while (s !== '') {
    let v = 0n;
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isD(s[0]))) throw bad();
    let i = 0;
    for (; i < s.length && isD(s[i]); i++) {
      if (v > LIMIT / 10n) throw bad();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw bad();
    }
    const pre = i > 0;
    s = s.slice(i);
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isD(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw bad();
    let k = 0;
    for (; k < s.length; k++) if (s[k] === '.' || isD(s[k])) break;
    if (k === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = DURATION_UNITS[u];
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > LIMIT / unit) throw bad();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw bad();
    }
    d += v;
    if (d > LIMIT) throw bad();
  }
  if (neg) return -d;
  if (d > LIMIT - 1n) throw bad();
  return d;
}
