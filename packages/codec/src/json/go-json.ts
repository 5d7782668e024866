/** encoding/json's scalar unmarshalling rules and error texts, for reading gateway JSON. */
import { CodecError } from './errors.js';
import { goQuote } from './go-strconv.js';
import type { Kind } from './plan.js';

/** Go type of a scalar kind in encoding/json messages. */
export const GO_KIND: Record<Kind, string> = {
  double: 'float64',
  float: 'float32',
  int32: 'int32',
  uint32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  bool: 'bool',
  string: 'string',
  bytes: '[]uint8',
  enum: 'int32',
  message: 'struct',
};

/** encoding/json's name for the kind of a parsed JSON value. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** encoding/json's `UnmarshalTypeError` for a JSON value that does not fit a Go type. */
export function typeErr(v: unknown, goType: string): CodecError {
  return new CodecError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
}

const INT_RANGE: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** An integer JSON value (number or quoted number) for an integer Go type. */
export function jsonInt(raw: unknown, kind: Kind, goType: string): bigint {
  let text: string;
  let v: bigint;
  if (typeof raw === 'number') {
    text = String(raw);
    if (!Number.isInteger(raw)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
    v = BigInt(raw);
  } else if (typeof raw === 'bigint') {
    text = raw.toString();
    v = raw;
  } else if (typeof raw === 'string') {
    // plain decimal text (no sign but '-', no leading zero, no space, exponent or fraction) is its own
    // jsonNumberText: skip that scan
    text = isPlainInt(raw) ? raw : jsonNumberText(raw);
    if (!/^-?\d+$/.test(text)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
    v = BigInt(text);
  } else {
    throw typeErr(raw, goType);
  }
  const [lo, hi] = INT_RANGE[kind]!;
  if (v < lo || v > hi) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  return v;
}

/** `-?(0|[1-9][0-9]*)`, at most 20 digits. */
function isPlainInt(s: string): boolean {
  const n = s.length;
  let i = n > 0 && s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === n || n - i > 20) return false;
  const first = s.charCodeAt(i);
  if (first === 0x30) return i + 1 === n;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Map keys are raw JSON text (`"1"` → `1`). */
export function jsonIntText(ks: string, kind: Kind): bigint {
  const goType = GO_KIND[kind];
  if (ks.startsWith('"')) throw new CodecError(`json: cannot unmarshal string into Go value of type ${goType}`);
  const text = jsonNumberText(ks);
  if (!/^-?\d+$/.test(text)) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  const v = BigInt(text);
  const [lo, hi] = INT_RANGE[kind]!;
  if (v < lo || v > hi) throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  return v;
}

/** encoding/json's kind name of raw JSON text (map keys). */
export function jsonTextKind(s: string): string {
  const t = s.trim();
  if (t.startsWith('"')) return 'string';
  if (t === 'true' || t === 'false') return 'bool';
  if (t.startsWith('[')) return 'array';
  if (t.startsWith('{')) return 'object';
  return 'number';
}

const MAX_FLOAT32 = 3.4028234663852886e38;

/** A float JSON value (number, quoted number or `"NaN"` / `"Infinity"` / `"-Infinity"`) for float32/64. */
export function jsonFloat(raw: unknown, f32: boolean): number {
  const goType = f32 ? 'float32' : 'float64';
  let v: number;
  let text: string;
  if (typeof raw === 'number') {
    v = raw;
    text = String(raw);
  } else if (typeof raw === 'string') {
    if (raw === 'NaN') return NaN;
    if (raw === 'Infinity') return Infinity;
    if (raw === '-Infinity') return -Infinity;
    text = jsonNumberText(raw);
    v = Number(text);
  } else {
    throw typeErr(raw, goType);
  }
  if (!Number.isFinite(v) || (f32 && Math.abs(v) > MAX_FLOAT32 && !Number.isFinite(Math.fround(v)))) {
    throw new CodecError(`json: cannot unmarshal number ${text} into Go value of type ${goType}`);
  }
  return f32 ? Math.fround(v) : v;
}

/**
 * Validates text as one JSON number (surrounding JSON whitespace allowed) and returns it trimmed;
 * throws encoding/json's syntax errors otherwise.
 */
function jsonNumberText(s: string): string {
  const t = s.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (t === '') throw new CodecError('unexpected end of JSON input');
  let i = 0;
  const n = t.length;
  const digit = (k: number): boolean => k < n && t.charCodeAt(k) >= 48 && t.charCodeAt(k) <= 57;
  const fail = (k: number, where: string): never => {
    if (k >= n) throw new CodecError('unexpected end of JSON input');
    throw new CodecError(`invalid character ${quoteChar(t[k]!)} ${where}`);
  };
  if (t[i] === '-') i++;
  if (i === 0 && !digit(0)) fail(0, 'looking for beginning of value');
  if (!digit(i)) fail(i, 'in numeric literal');
  if (t[i] === '0') i++;
  else while (digit(i)) i++;
  if (t[i] === '.') {
    i++;
    if (!digit(i)) fail(i, 'after decimal point in numeric literal');
    while (digit(i)) i++;
  }
  if (t[i] === 'e' || t[i] === 'E') {
    i++;
    if (t[i] === '+' || t[i] === '-') i++;
    if (!digit(i)) fail(i, 'in exponent of numeric literal');
    while (digit(i)) i++;
  }
  if (i < n) fail(i, 'after top-level value');
  return t;
}

function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = goQuote(c);
  return `'${q.slice(1, -1)}'`;
}

