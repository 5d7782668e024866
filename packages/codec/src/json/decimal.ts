/**
 * Cosmos `Dec` / `Int` custom scalar types: `Dec` holds the integer scaled by 10^18 on the wire and is written
 * with exactly 18 decimals; `Int` is decimal text (big.Int syntax on input).
 */
import { CodecError } from './errors.js';
import { goQuote, underscoreOK } from './go-strconv.js';
import type { ValueSpec } from './plan.js';

/** Custom scalar types: none, `Dec` (scaled by 10^18 on the wire) or `Int` (decimal text). */
export const CUSTOM_NONE = 0;
export const CUSTOM_DEC = 1;
export const CUSTOM_INT = 2;

/** A zero `Dec` as written. */
export const DEC_ZERO = '0.000000000000000000';

/** Scaled integer text (wire form of `Dec`) → 18-decimal text. Text that already has a point passes. */
function scaledToDec(text: string): string {
  if (text.includes('.')) return text;
  let digits = text;
  let neg = false;
  if (digits.startsWith('-')) {
    neg = true;
    digits = digits.slice(1);
  } else if (digits.startsWith('+')) {
    digits = digits.slice(1);
  }
  if (!/^\d+$/.test(digits)) throw new CodecError(`invalid Dec value ${JSON.stringify(text)}`, 2);
  digits = digits.replace(/^0+(?=\d)/, '');
  if (digits.length < 19) digits = digits.padStart(19, '0');
  const s = digits.slice(0, -18) + '.' + digits.slice(-18);
  return neg && s !== DEC_ZERO ? '-' + s : s;
}

/** Decimal text → scaled integer text (`LegacyNewDecFromStr` rules and messages). */
function decTextToScaled(input: string): string {
  let str = input;
  let neg = false;
  if (str.length > 0 && str[0] === '-') {
    neg = true;
    str = str.slice(1);
  }
  if (str.length === 0) throw new CodecError('decimal string cannot be empty');
  const parts = str.split('.');
  let lenDecs = 0;
  let combined = parts[0]!;
  if (parts.length === 2) {
    lenDecs = parts[1]!.length;
    if (lenDecs === 0 || combined.length === 0) throw new CodecError('invalid decimal length');
    combined += parts[1];
  } else if (parts.length > 2) {
    throw new CodecError('invalid decimal string');
  }
  if (lenDecs > 18) {
    throw new CodecError(`value '${str}' exceeds max precision by ${18 - lenDecs} decimal places: max precision 18`);
  }
  combined += '0'.repeat(18 - lenDecs);
  if (!/^[+-]?\d+$/.test(combined)) throw new CodecError(`failed to set decimal string with base 10: ${combined}`);
  let v = BigInt(combined);
  if (neg) v = -v;
  return v.toString();
}

/** `math.Int` text (big.Int base-0 syntax, ≤ 256 bits) → normalized decimal text. */
function intTextNormalize(text: string): string {
  const v = parseBigIntBase0(text);
  if (v === undefined) throw new CodecError(`math/big: cannot unmarshal ${goQuote(text)} into a *big.Int`);
  if ((v < 0n ? -v : v).toString(2).length > 256 && v !== 0n) throw new CodecError(`integer out of range: ${text}`);
  return v.toString();
}

function parseBigIntBase0(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith('+') || s.startsWith('-')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let body: string;
  let prefix: string;
  if (/^0[xX]/.test(s)) {
    prefix = '0x';
    body = s.slice(2);
    if (!/^[0-9a-fA-F_]+$/.test(body)) return undefined;
  } else if (/^0[bB]/.test(s)) {
    prefix = '0b';
    body = s.slice(2);
    if (!/^[01_]+$/.test(body)) return undefined;
  } else if (/^0[oO]/.test(s)) {
    prefix = '0o';
    body = s.slice(2);
    if (!/^[0-7_]+$/.test(body)) return undefined;
  } else if (s.startsWith('0') && s.length > 1) {
    prefix = '0o';
    body = s.slice(1);
    if (!/^[0-7_]+$/.test(body)) return undefined;
  } else {
    prefix = '';
    body = s;
    if (!/^\d+$/.test(body)) return undefined;
  }
  if (body.includes('_')) {
    if (!underscoreOK(text)) return undefined;
    body = body.replace(/_/g, '');
  }
  if (body === '') return undefined;
  const v = BigInt(prefix + body);
  return neg ? -v : v;
}

/** JSON for a custom-type value read from a message (`Dec` wire text → 18 decimals, empty → `customEmpty`). */
export function encCustom(spec: ValueSpec, text: string): string | null {
  if (text === '') return spec.customEmpty;
  return spec.custom === CUSTOM_DEC ? scaledToDec(text) : text;
}

/** Custom-type text from JSON or a query string → the message's value text (`Dec` scaled, `Int` normalized). */
export function decCustomText(f: ValueSpec, text: string): string {
  if (f.custom === CUSTOM_DEC) {
    if (text === '' && f.customEmptyOk) return '';
    return decTextToScaled(text);
  }
  return intTextNormalize(text);
}

