/** Query conditions the index answers without events: heights as integer ranges, constant tags. */
import { Query } from '@chain/events';
import type { Condition } from '@chain/events';
import { MAX_HEIGHT } from './streams.js';

/** An inclusive height range; lo > hi means no height. */
export interface HeightRange { lo: number; hi: number }

const clamp = (n: bigint): number => (n < 0n ? -1 : n > BigInt(MAX_HEIGHT) ? MAX_HEIGHT + 1 : Number(n));

/**
 * The exact set of integer heights a condition on `tx.height` / `block.height` accepts, as a range
 * (query numbers are exact decimals: `> 4.5` is `>= 5`, `= 4.5` is nothing; `= '5'` compares strings
 * and the height's string is its canonical decimal). Undefined when it is not a range (CONTAINS,
 * dates): such conditions are checked per candidate.
 */
export function heightRange(c: Condition): HeightRange | undefined {
  if (c.op === 'EXISTS') return { lo: 0, hi: MAX_HEIGHT };
  const a = c.arg;
  if (!a) return undefined;
  if (a.type === 'string') {
    if (c.op !== '=') return undefined;
    if (!/^(0|[1-9]\d*)$/.test(a.text)) return { lo: 1, hi: 0 };
    const h = clamp(BigInt(a.text));
    return h > MAX_HEIGHT ? { lo: 1, hi: 0 } : { lo: h, hi: h };
  }
  if (a.type !== 'number') return undefined;
  const m = /^(\d+)(?:\.(\d*))?$/.exec(a.text);
  if (!m) return undefined;
  const int = BigInt(m[1]!);
  const frac = (m[2] ?? '').replace(/0+$/, '') !== '';
  let lo: bigint;
  let hi: bigint;
  switch (c.op) {
    case '=': if (frac) return { lo: 1, hi: 0 }; lo = int; hi = int; break;
    case '>': lo = int + 1n; hi = BigInt(MAX_HEIGHT); break;
    case '>=': lo = frac ? int + 1n : int; hi = BigInt(MAX_HEIGHT); break;
    case '<': lo = 0n; hi = frac ? int : int - 1n; break;
    case '<=': lo = 0n; hi = int; break;
    default: return undefined;
  }
  const l = Math.max(0, clamp(lo));
  const h = Math.min(MAX_HEIGHT, clamp(hi));
  return l > MAX_HEIGHT ? { lo: 1, hi: 0 } : { lo: l, hi: h };
}

/** Whether condition `c` holds when its tag has exactly `values` (CometBFT matching). */
export function holds(c: Condition, values: string[]): boolean {
  return Query.fromConditions([c]).matches({ [c.tag]: values });
}

/** A matcher of one condition against single values, memoized per value. */
export function valueMatcher(c: Condition): (value: string) => boolean {
  const q = Query.fromConditions([c]);
  const memo = new Map<string, boolean>();
  return (v) => {
    let r = memo.get(v);
    if (r === undefined) {
      r = q.matches({ [c.tag]: [v] });
      if (memo.size < 100_000) memo.set(v, r);
    }
    return r;
  };
}

/** A value CometBFT's kv indexers read as a number: Go's big.Int SetString(v, 10), else big.ParseFloat(v, 10). */
const GO_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:inf|Inf|infinity|Infinity)$/;

/**
 * A matcher of one event condition against an indexed attribute value, as CometBFT v0.38's kv indexers decide
 * (they differ from the subscription matching of `Query.matches`): `=` compares the value with the argument's
 * text (`amount = 5` finds "5", not "5achain"); `<`, `<=`, `>`, `>=` with a number hold only for values that
 * parse as a number (so "4242achain" never matches a range; a date or time bound matches nothing); CONTAINS
 * is a substring test and EXISTS any value.
 */
export function kvValueMatcher(c: Condition): (value: string) => boolean {
  if (c.op === 'EXISTS') return () => true;
  const arg = c.arg;
  if (!arg) return () => false;
  if (c.op === '=') return (v) => v === arg.text;
  if (c.op === 'CONTAINS') return (v) => v.includes(arg.text);
  if (arg.type !== 'number') return () => false;
  const numeric = valueMatcher(c);
  return (v) => GO_NUMBER.test(v) && numeric(v);
}
