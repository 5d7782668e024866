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
