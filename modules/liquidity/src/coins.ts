/**
 * The SDK's (v0.45) `ValidateDenom`, `Coin.Validate` and `Coins.Validate` with their messages, as the original
 * module calls them (ValidateBasic, the pool creation fee param). Each throws sdk 10 (invalid coins) wrapping the
 * SDK's message; `sdkMessage` gives the message alone (the original's plain error).
 */
import type { Coin } from '@chain/app';
import { isValidDenom } from '@chain/app';
import { ChainError, Errors } from '@chain/errors';

/** An amount as `sdk.Int` holds it (`""` = the zero / nil Int); a malformed or over-256-bit one is an invalid coin. */
export function coinAmount(c: Coin): bigint {
  if (c.amount === '') return 0n;
  if (!/^-?\d+$/.test(c.amount)) throw Errors.InvalidCoins.wrap(`invalid amount: ${c.amount}`);
  const a = BigInt(c.amount);
  // sdk.Int holds at most 256 bits: a larger amount never decodes in the original
  if ((a < 0n ? -a : a).toString(2).length > 256) throw Errors.InvalidCoins.wrap(`invalid amount: ${c.amount}`);
  return a;
}

/** `sdk.ValidateDenom`: `invalid denom: <denom>`. */
export function validateSdkDenom(denom: string): void {
  if (!isValidDenom(denom)) throw Errors.InvalidCoins.wrap(`invalid denom: ${denom}`);
}

/** `sdk.Coin.Validate`: a valid denom, then `negative coin amount: <n>`. */
export function validateSdkCoin(c: Coin | null | undefined): Coin {
  if (!c) throw Errors.InvalidCoins.wrap('invalid denom: ');
  validateSdkDenom(c.denom);
  const a = coinAmount(c);
  if (a < 0n) throw Errors.InvalidCoins.wrap(`negative coin amount: ${a}`);
  return c;
}

/**
 * `sdk.Coins.Validate` (v0.45): the first coin's denom and `coin <amount><denom> amount is not positive`; each
 * further coin: `duplicate denomination`, its denom, `denomination … is not sorted`, `coin <denom> amount is not
 * positive`.
 */
export function validateSdkCoins(coins: readonly Coin[]): void {
  if (coins.length === 0) return;
  const first = coins[0]!;
  validateSdkDenom(first.denom);
  if (coinAmount(first) <= 0n) throw Errors.InvalidCoins.wrap(`coin ${coinAmount(first)}${first.denom} amount is not positive`);
  const seen = new Set([first.denom]);
  let low = first.denom;
  for (const c of coins.slice(1)) {
    if (seen.has(c.denom)) throw Errors.InvalidCoins.wrap(`duplicate denomination ${c.denom}`);
    validateSdkDenom(c.denom);
    if (c.denom <= low) throw Errors.InvalidCoins.wrap(`denomination ${c.denom} is not sorted`);
    if (coinAmount(c) <= 0n) throw Errors.InvalidCoins.wrap(`coin ${c.denom} amount is not positive`);
    seen.add(c.denom);
    low = c.denom;
  }
}

/** The SDK's own message of an error of these validators (the `ChainError`'s context), else the message. */
export function sdkMessage(e: unknown): string {
  if (e instanceof ChainError && e.context !== undefined) return e.context;
  return e instanceof Error ? e.message : String(e);
}
