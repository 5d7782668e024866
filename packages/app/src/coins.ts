/** Coins: sorted, positive, valid-denom token amounts (bigint arithmetic, never floats). */
import { Errors } from '@chain/errors';

export interface Coin { denom: string; amount: string }

const DENOM_RE = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

export function isValidDenom(denom: string): boolean {
  return DENOM_RE.test(denom);
}

export function validateDenom(denom: string): void {
  if (!isValidDenom(denom)) throw Errors.InvalidCoins.wrap(`invalid denom: ${denom}`);
}

/** Parses an integer amount; throws invalid coins on anything but a non-negative decimal integer. */
export function parseAmount(amount: string): bigint {
  if (!/^\d{1,78}$/.test(amount)) throw Errors.InvalidCoins.wrap(`invalid amount: ${amount}`);
  return BigInt(amount);
}

export function coinsToString(coins: readonly Coin[]): string {
  return coins.map((c) => `${c.amount}${c.denom}`).join(',');
}

/** Validates a Coins list as the SDK's Coins.Validate: sorted, unique denoms, positive amounts. */
export function validateCoins(coins: readonly Coin[], allowEmpty = true): void {
  if (coins.length === 0 && !allowEmpty) throw Errors.InvalidCoins.wrap('empty coins');
  let prev = '';
  for (const c of coins) {
    validateDenom(c.denom);
    if (parseAmount(c.amount) <= 0n) throw Errors.InvalidCoins.wrap(coinsToString(coins));
    if (prev && c.denom <= prev) throw Errors.InvalidCoins.wrap(`denomination ${c.denom} is not sorted or is duplicated`);
    prev = c.denom;
  }
}

/** Parses `10achain,5foo` (whole amounts) into sorted coins. */
export function parseCoins(text: string): Coin[] {
  const t = text.trim();
  if (!t) return [];
  const out = t.split(',').map((part) => {
    const m = /^(\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(part.trim());
    if (!m) throw Errors.InvalidCoins.wrap(`invalid coin expression: ${part}`);
    return { denom: m[2]!, amount: BigInt(m[1]!).toString() };
  });
  return out.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
}

/** A decimal coin with 18-decimal precision held as a scaled bigint. */
export interface DecCoin { denom: string; amount: bigint /* scaled by 1e18 */ }
export const DEC_SCALE = 10n ** 18n;

/** Parses `0.025achain,1foo` into DecCoins (min gas prices). */
export function parseDecCoins(text: string): DecCoin[] {
  const t = text.trim();
  if (!t) return [];
  return t.split(',').map((part) => {
    const m = /^(\d+)(?:\.(\d{1,18}))?([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(part.trim());
    if (!m) throw Errors.InvalidCoins.wrap(`invalid decimal coin expression: ${part}`);
    const frac = (m[2] ?? '').padEnd(18, '0');
    return { denom: m[3]!, amount: BigInt(m[1]!) * DEC_SCALE + BigInt(frac) };
  });
}

export function decToString(scaled: bigint): string {
  const neg = scaled < 0n;
  const a = neg ? -scaled : scaled;
  const s = `${a / DEC_SCALE}.${(a % DEC_SCALE).toString().padStart(18, '0')}`;
  return neg ? '-' + s : s;
}

export function addCoins(a: readonly Coin[], b: readonly Coin[]): Coin[] {
  const m = new Map<string, bigint>();
  for (const c of [...a, ...b]) m.set(c.denom, (m.get(c.denom) ?? 0n) + BigInt(c.amount));
  return [...m.entries()].filter(([, v]) => v !== 0n).sort(([x], [y]) => (x < y ? -1 : 1)).map(([denom, v]) => ({ denom, amount: v.toString() }));
}

export function amountOf(coins: readonly Coin[], denom: string): bigint {
  for (const c of coins) if (c.denom === denom) return BigInt(c.amount);
  return 0n;
}
