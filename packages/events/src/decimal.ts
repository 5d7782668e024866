/**
 * Exact decimal helpers for query number arguments and numeric attribute values.
 * A decimal is kept as `mantissa / 10^scale` with a BigInt mantissa, so integers of any size
 * and fractions compare exactly (CometBFT uses big.Float; exact comparison agrees with it on
 * every value that big.Float represents exactly).
 */

/** A non-negative decimal `mantissa / 10^scale`. */
export interface Decimal {
  readonly mantissa: bigint;
  readonly scale: number;
}

const QUERY_NUMBER = /^\d+(\.\d*)?$/;
const LEADING_NUMBER = /^\d+(\.\d+)?/;

/** Parses the number syntax of the query language (`\d+(\.\d*)?`); undefined if malformed. */
export function parseDecimal(text: string): Decimal | undefined {
  if (!QUERY_NUMBER.test(text)) return undefined;
  const dot = text.indexOf('.');
  if (dot < 0) return { mantissa: BigInt(text), scale: 0 };
  const frac = text.slice(dot + 1).replace(/0+$/, '');
  return { mantissa: BigInt(text.slice(0, dot) + frac), scale: frac.length };
}

/**
 * Reads an attribute value as a number the way CometBFT's pubsub does: the leading
 * `\d+(\.\d+)?` is used and any suffix is ignored (`"10stake"` → 10, `"1.5e3"` → 1.5);
 * values without leading digits (including signed ones) are not numbers.
 */
export function parseAttributeNumber(value: string): Decimal | undefined {
  const m = LEADING_NUMBER.exec(value);
  return m === null ? undefined : parseDecimal(m[0]);
}

/** Compares two decimals: negative, zero or positive like a sort comparator. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  let x = a.mantissa;
  let y = b.mantissa;
  if (a.scale < b.scale) x *= 10n ** BigInt(b.scale - a.scale);
  else if (b.scale < a.scale) y *= 10n ** BigInt(a.scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Compares two decimal strings in query-number syntax (`\d+(\.\d*)?`), exactly.
 * Returns -1, 0 or 1; throws RangeError on malformed input.
 */
export function compareDecimal(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (x === undefined || y === undefined) {
    throw new RangeError(`not a decimal: ${JSON.stringify(x === undefined ? a : b)}`);
  }
  return compareDecimals(x, y);
}
