/**
 * The token record and its validation rules, as the original chain has them (x/prc10/types/token.go,
 * validator.go): the limits, the messages of each error, `newToken` (the max_supply 0 rule) and
 * `validateToken` (the checks of MsgIssueToken's ValidateBasic and of genesis, in the original's order).
 */
import { Prc10Errors } from './errors.js';
import type { Token } from './gen/chain/prc10.js';

export const MIN_SYMBOL_LEN = 2;
export const MAX_SYMBOL_LEN = 8;
export const MIN_MIN_UNIT_LEN = 2;
export const MAX_MIN_UNIT_LEN = 8;
/** bytes of a name */
export const MAX_NAME_LEN = 32;
export const MAXIMUM_SCALE = 8;
/**
 * The scale bound of genesis tokens: 18, so the native token (`chain`/`achain`, 18 decimals) can be
 * registered (the original's native token had 6 and the one bound, 8).
 */
export const GENESIS_MAXIMUM_SCALE = 18;
/** whole tokens */
export const MAXIMUM_INIT_SUPPLY = 100_000_000_000n;
/** 2^64 − 1 */
export const MAXIMUM_MAX_SUPPLY = 18_446_744_073_709_551_615n;
/** MsgEditToken's name that keeps the name (and the CLI default of the original) */
export const DO_NOT_MODIFY = '[do-not-modify]';
/** A symbol or min_unit may not start with one of these (prefix match: `ether` is refused). */
export const KEYWORDS = ['ibc', 'btc', 'eth', 'ada', 'bnb', 'usdt', 'xrp', 'link', 'doge', 'eos', 'etc'] as const;

const KEYWORDS_TEXT = KEYWORDS.join('|');
const SYMBOL_RE_TEXT = `^[a-z][a-z0-9]{${MIN_SYMBOL_LEN - 1},${MAX_SYMBOL_LEN - 1}}$`;
const MIN_UNIT_RE_TEXT = `^[a-z][a-z0-9]{${MIN_MIN_UNIT_LEN - 1},${MAX_MIN_UNIT_LEN - 1}}$`;
const SYMBOL_RE = new RegExp(SYMBOL_RE_TEXT);
const MIN_UNIT_RE = new RegExp(MIN_UNIT_RE_TEXT);
const KEYWORD_RE = new RegExp(`^(${KEYWORDS_TEXT})`);
const utf8 = new TextEncoder();

/** A symbol or min_unit starting with a keyword: token 4 (also for a min_unit, as the original). */
export function validateKeywords(denom: string): void {
  if (KEYWORD_RE.test(denom)) throw Prc10Errors.InvalidSymbol.wrap(`invalid token: ${denom}, can not begin with keyword: (${KEYWORDS_TEXT})`);
}

/** `^[a-z][a-z0-9]{1,7}$` and no keyword prefix, else token 4. */
export function validateSymbol(symbol: string): void {
  if (!SYMBOL_RE.test(symbol)) {
    throw Prc10Errors.InvalidSymbol.wrap(`invalid symbol: ${symbol}, only accepts english lowercase letters and numbers, length [${MIN_SYMBOL_LEN}, ${MAX_SYMBOL_LEN}], and begin with an english letter, regexp: ${SYMBOL_RE_TEXT}`);
  }
  validateKeywords(symbol);
}

/** The symbol's rule for a min_unit: token 3 (a keyword prefix: token 4). */
export function validateMinUnit(minUnit: string): void {
  if (!MIN_UNIT_RE.test(minUnit)) {
    throw Prc10Errors.InvalidMinUnit.wrap(`invalid minUnit: ${minUnit}, only accepts english lowercase letters and numbers, length [${MIN_MIN_UNIT_LEN}, ${MAX_MIN_UNIT_LEN}], and begin with an english letter, regexp: ${MIN_UNIT_RE_TEXT}`);
  }
  validateKeywords(minUnit);
}

/** 1 to 32 bytes (UTF-8), else token 2. */
export function validateName(name: string): void {
  const n = utf8.encode(name).length;
  if (n === 0 || n > MAX_NAME_LEN) throw Prc10Errors.InvalidName.wrap(`invalid token name ${name}, only accepts length (0, ${MAX_NAME_LEN}]`);
}

/** At most 8 (genesis: `max`, 18), else token 7. */
export function validateScale(scale: number, max: number = MAXIMUM_SCALE): void {
  if (scale > max) throw Prc10Errors.InvalidScale.wrap(`invalid token scale ${scale}, only accepts value [0, ${max}]`);
}

/** At most 100000000000, else token 5. */
export function validateInitialSupply(initialSupply: bigint): void {
  if (initialSupply > MAXIMUM_INIT_SUPPLY) {
    throw Prc10Errors.InvalidInitSupply.wrap(`invalid token initial supply ${initialSupply}, only accepts value [0, ${MAXIMUM_INIT_SUPPLY}]`);
  }
}

/** Not 0, else token 6 (the amount of MsgBurnToken and the max supply of MsgEditToken, as the original). */
export function validateAmount(amount: bigint): void {
  if (amount === 0n) throw Prc10Errors.InvalidMaxSupply.wrap(`invalid token amount ${amount}, only accepts value (0, ${MAXIMUM_MAX_SUPPLY}]`);
}

/** The fields of a token before the max_supply 0 rule (MsgIssueToken's). */
export interface TokenFields {
  readonly symbol: string;
  readonly name: string;
  readonly scale: number;
  readonly min_unit: string;
  readonly initial_supply: bigint;
  readonly max_supply: bigint;
  readonly mintable: boolean;
  readonly owner: string;
}

/** The token of the fields, max_supply 0 replaced: 2^64 − 1 when mintable, else the initial supply. */
export function newToken(f: TokenFields): Token {
  const max = f.max_supply === 0n ? (f.mintable ? MAXIMUM_MAX_SUPPLY : f.initial_supply) : f.max_supply;
  return {
    symbol: f.symbol, name: f.name, scale: f.scale, min_unit: f.min_unit,
    initial_supply: f.initial_supply, max_supply: max, mintable: f.mintable, owner: f.owner,
  };
}

/**
 * `ValidateToken` of the original, in its order: owner (if set, through `checkOwner`: sdk 7), symbol (4),
 * min_unit (3, keyword 4), scale (7; at most `maxScale`), name (2), max supply ≥ initial supply (6),
 * initial supply (5).
 */
export function validateToken(t: Token, checkOwner: (owner: string) => void, maxScale: number = MAXIMUM_SCALE): void {
  if (t.owner.length > 0) checkOwner(t.owner);
  validateSymbol(t.symbol);
  validateMinUnit(t.min_unit);
  validateScale(t.scale, maxScale);
  validateName(t.name);
  if (t.max_supply < t.initial_supply) {
    throw Prc10Errors.InvalidMaxSupply.wrap(`invalid token max supply ${t.max_supply}, only accepts value [${t.initial_supply}, ${MAXIMUM_MAX_SUPPLY}]`);
  }
  validateInitialSupply(t.initial_supply);
}

/** 10^scale: min units per whole token. */
export function precision(scale: number): bigint {
  return 10n ** BigInt(scale);
}
