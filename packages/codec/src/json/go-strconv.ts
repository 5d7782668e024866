/** Go-compatible `strconv` parsers and quoting, with Go's error texts (shared with query-params.ts). */
import { CodecError } from './errors.js';

/** Go `strconv.Quote` (close enough for error texts). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

function numError(fn: string, s: string, what: 'invalid syntax' | 'value out of range'): CodecError {
  return new CodecError(`strconv.${fn}: parsing ${goQuote(s)}: ${what}`);
}

/** Go `underscoreOK` (digit separators in base-prefixed literals). */
export function underscoreOK(input: string): boolean {
  let s = input;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

interface UintResult {
  value: bigint;
  range: boolean;
}

function parseUintCore(s0: string, base0: number, bitSize: number, fn: string): UintResult {
  if (s0 === '') throw numError(fn, s0, 'invalid syntax');
  let s = s0;
  let base = base0;
  const isBase0 = base0 === 0;
  if (base0 === 0) {
    base = 10;
    if (s[0] === '0') {
      const l = (s[1] ?? '').toLowerCase();
      if (s.length >= 3 && l === 'b') {
        base = 2;
        s = s.slice(2);
      } else if (s.length >= 3 && l === 'o') {
        base = 8;
        s = s.slice(2);
      } else if (s.length >= 3 && l === 'x') {
        base = 16;
        s = s.slice(2);
      } else {
        base = 8;
        s = s.slice(1);
      }
    }
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  const b = BigInt(base);
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    let d: number;
    const lc = c.toLowerCase();
    if (c === '_' && isBase0) {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
    else if (lc >= 'a' && lc <= 'z' && lc.length === 1) d = lc.charCodeAt(0) - 87;
    else throw numError(fn, s0, 'invalid syntax');
    if (d >= base) throw numError(fn, s0, 'invalid syntax');
    n = n * b + BigInt(d);
    if (n > maxVal) return { value: maxVal, range: true };
  }
  if (underscores && !underscoreOK(s0)) throw numError(fn, s0, 'invalid syntax');
  return { value: n, range: false };
}

/** Go `strconv.ParseUint(s, base, bitSize)`; throws CodecError with Go's message. */
export function goParseUint(s: string, base: number, bitSize: number): bigint {
  const r = parseUintCore(s, base, bitSize, 'ParseUint');
  if (r.range) throw numError('ParseUint', s, 'value out of range');
  return r.value;
}

/** Go `strconv.ParseInt(s, base, bitSize)`; throws CodecError with Go's message. */
export function goParseInt(s0: string, base: number, bitSize: number): bigint {
  if (s0 === '') throw numError('ParseInt', s0, 'invalid syntax');
  let s = s0;
  let neg = false;
  if (s[0] === '+') s = s.slice(1);
  else if (s[0] === '-') {
    neg = true;
    s = s.slice(1);
  }
  let un: UintResult;
  try {
    un = parseUintCore(s, base, bitSize, 'ParseInt');
  } catch {
    throw numError('ParseInt', s0, 'invalid syntax');
  }
  const cutoff = 1n << BigInt(bitSize - 1);
  if (!neg && un.value >= cutoff) throw numError('ParseInt', s0, 'value out of range');
  if (neg && un.value > cutoff) throw numError('ParseInt', s0, 'value out of range');
  return neg ? -un.value : un.value;
}

/** Go `strconv.ParseBool`. */
export function goParseBool(s: string): boolean {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false;
  }
  throw new CodecError(`strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax`);
}

/** Go `strconv.ParseFloat` for decimal syntax, inf/infinity and nan. */
export function goParseFloat(s: string, bitSize: 32 | 64): number {
  let v: number;
  if (/^[+-]?(inf|infinity)$/i.test(s)) v = s.startsWith('-') ? -Infinity : Infinity;
  else if (/^nan$/i.test(s)) v = NaN;
  else if (/^[+-]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][+-]?\d+)?$/.test(s)) {
    v = Number(s.replace(/_/g, ''));
    if (!Number.isFinite(v) || (bitSize === 32 && !Number.isFinite(Math.fround(v)))) {
      throw new CodecError(`strconv.ParseFloat: parsing ${goQuote(s)}: value out of range`);
    }
  } else {
    throw new CodecError(`strconv.ParseFloat: parsing ${goQuote(s)}: invalid syntax`);
  }
  return bitSize === 32 ? Math.fround(v) : v;
}
