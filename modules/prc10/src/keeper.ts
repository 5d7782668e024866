/**
 * Prc10Keeper: tokens, their indexes and params, through the schema of src/keys.ts; the fees and the
 * issue / mint / edit / burn / transfer-owner operations of the original chain (x/prc10/keeper), with the
 * bank and account keepers declared in src/expected-keepers.ts.
 */
import type { Coin, Context } from '@chain/app';
import { isValidDenom } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Errors } from '@chain/errors';
import { Prc10Errors } from './errors.js';
import type { DenomMetadata, Prc10AccountKeeper, Prc10BankKeeper } from './expected-keepers.js';
import { issueFee, operateFee } from './fee.js';
import type { Token } from './gen/chain/prc10.js';
import { MODULE_NAME, prc10Schema } from './keys.js';
import type { Prc10State } from './keys.js';
import { NATIVE_MIN_UNIT, NATIVE_SYMBOL, defaultParams, validateParams } from './params.js';
import type { Prc10Params } from './params.js';
import { MAXIMUM_MAX_SUPPLY, newToken, precision } from './token.js';
import type { TokenFields } from './token.js';

export interface Prc10KeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: Prc10AccountKeeper;
  readonly bankKeeper: Prc10BankKeeper;
}

/** The bank metadata description of an issued token (the original's "x/prc10 module of Plug Chain Hub token."). */
export const TOKEN_DESCRIPTION = 'x/prc10 module of chain token.';
/** ... and of the native token (`chain`). */
export const NATIVE_TOKEN_DESCRIPTION = 'The native staking token of chain.';

export class Prc10Keeper {
  readonly registry: ProtoRegistry;
  readonly ak: Prc10AccountKeeper;
  readonly bk: Prc10BankKeeper;
  /** The module's state: the collections of `prc10Schema` (src/keys.ts). */
  readonly state: Prc10State;

  constructor(opts: Prc10KeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bk = opts.bankKeeper;
    this.state = prc10Schema(opts.registry);
  }

  /** The address of the `token` module account (the native token's owner). */
  moduleAddress(): string {
    return this.ak.addressCodec.encode(this.ak.getModuleAddress(MODULE_NAME));
  }

  /** Whether `address` is one of the chain's module accounts (no token goes to one, none is issued by one). */
  isModuleAccount(address: Uint8Array): boolean {
    return this.ak.moduleNameOf(address) !== undefined;
  }

  /**
   * The native token of the default genesis: symbol `chain`, min unit `achain`, scale 18, mintable, owned
   * by the `token` module account (which signs nothing: nobody mints, edits, burns or transfers it).
   */
  nativeToken(): Token {
    return newToken({
      symbol: NATIVE_SYMBOL, name: 'chain', scale: 18, min_unit: NATIVE_MIN_UNIT,
      initial_supply: 0n, max_supply: MAXIMUM_MAX_SUPPLY, mintable: true, owner: this.moduleAddress(),
    });
  }

  // ---- params ----

  /** The stored params, or the defaults before genesis. */
  getParams(ctx: Context): Prc10Params {
    return this.state.Params.getOr(ctx, defaultParams());
  }

  /**
   * Validates (`validateParams`, plain errors), checks that the base fee's denom is a token's symbol or min
   * unit (`Token <denom> does not exist`: every fee would fail otherwise), then stores the params.
   */
  setParams(ctx: Context, p: Prc10Params): void {
    validateParams(p);
    const denom = p.issue_token_base_fee?.denom ?? '';
    if (!this.hasToken(ctx, denom)) throw new Error(`Token ${denom} does not exist`);
    this.state.Params.set(ctx, p);
  }

  // ---- tokens ----

  getTokenBySymbol(ctx: Context, symbol: string): Token | undefined {
    return this.state.Tokens.get(ctx, symbol);
  }

  getTokenByMinUnit(ctx: Context, minUnit: string): Token | undefined {
    const symbol = this.state.MinUnits.get(ctx, minUnit);
    return symbol === undefined ? undefined : this.getTokenBySymbol(ctx, symbol.value);
  }

  /** The token of a symbol, else of a min unit (`GetToken`). */
  getToken(ctx: Context, denom: string): Token | undefined {
    return this.getTokenBySymbol(ctx, denom) ?? this.getTokenByMinUnit(ctx, denom);
  }

  /** The token of a symbol, else token 10 `token symbol X does not exist`. */
  mustGetTokenBySymbol(ctx: Context, symbol: string): Token {
    const t = this.getTokenBySymbol(ctx, symbol);
    if (!t) throw Prc10Errors.TokenNotExists.wrap(`token symbol ${symbol} does not exist`);
    return t;
  }

  hasSymbol(ctx: Context, symbol: string): boolean {
    return this.state.Tokens.has(ctx, symbol);
  }

  /** Whether `denom` is a symbol or a min unit of a token (`HasToken`). */
  hasToken(ctx: Context, denom: string): boolean {
    return this.hasSymbol(ctx, denom) || this.state.MinUnits.has(ctx, denom);
  }

  /** Every token in symbol order, or those of one owner (`GetTokens`). */
  getTokens(ctx: Context, owner?: Uint8Array): Token[] {
    if (!owner) return [...this.state.Tokens.iterate(ctx)].map((e) => e.value);
    const out: Token[] = [];
    for (const { value } of this.state.OwnerTokens.iterate(ctx, { prefix: [owner] })) {
      const t = this.getTokenBySymbol(ctx, value.value);
      if (t) out.push(t);
    }
    return out;
  }

  /** Writes the token record (no index changes). */
  setToken(ctx: Context, t: Token): void {
    this.state.Tokens.set(ctx, t.symbol, t);
  }

  /**
   * `AddToken`: refuses a taken symbol or min unit (token 8, `symbol already exists: X` when the symbol is a
   * symbol or min unit of a token, `min-unit already exists: X` when the min unit is, or is already a bank
   * denom with a supply or metadata), stores the token and its indexes and writes its bank metadata. At
   * genesis (`genesis`), bank metadata of the min unit that the bank genesis already holds is kept, and the
   * bank denoms are not checked (the bank genesis holds the balances of the genesis tokens).
   */
  addToken(ctx: Context, t: Token, genesis = false): void {
    if (this.hasToken(ctx, t.symbol)) throw Prc10Errors.SymbolAlreadyExists.wrap(`symbol already exists: ${t.symbol}`);
    if (this.hasToken(ctx, t.min_unit) || (!genesis && this.isBankDenom(ctx, t.min_unit))) {
      throw Prc10Errors.SymbolAlreadyExists.wrap(`min-unit already exists: ${t.min_unit}`);
    }
    this.setToken(ctx, t);
    if (t.owner.length > 0) this.state.OwnerTokens.set(ctx, [this.ak.addressCodec.decode(t.owner), t.symbol], { value: t.symbol });
    this.state.MinUnits.set(ctx, t.min_unit, { value: t.symbol });
    if (!(genesis && this.bk.getDenomMetadata(ctx, t.min_unit))) this.bk.setDenomMetadata(ctx, tokenMetadata(t));
  }

  /** A denom bank knows: with a supply or with metadata. */
  private isBankDenom(ctx: Context, denom: string): boolean {
    return this.bk.getSupply(ctx, denom) > 0n || this.bk.getDenomMetadata(ctx, denom) !== undefined;
  }

  // ---- fees ----

  /** The issue fee of a symbol, in the fee token's min unit (token 10 if the base fee's denom is no token). */
  getIssueTokenFee(ctx: Context, symbol: string): Coin {
    return issueFee(this.getParams(ctx), symbol, (d) => this.getToken(ctx, d));
  }

  /** The operate fee (mint, edit, burn, transfer-owner) of a symbol. */
  getOperateTokenFee(ctx: Context, symbol: string): Coin {
    return operateFee(this.getParams(ctx), symbol, (d) => this.getToken(ctx, d));
  }

  /** Takes the issue fee from `payer` and burns it (through the `token` module account). */
  deductIssueTokenFee(ctx: Context, payer: Uint8Array, symbol: string): void {
    this.burnFee(ctx, payer, this.getIssueTokenFee(ctx, symbol));
  }

  /** Takes the operate fee from `payer` and burns it. */
  deductOperateTokenFee(ctx: Context, payer: Uint8Array, symbol: string): void {
    this.burnFee(ctx, payer, this.getOperateTokenFee(ctx, symbol));
  }

  private burnFee(ctx: Context, payer: Uint8Array, fee: Coin): void {
    this.bk.sendCoinsFromAccountToModule(ctx, payer, MODULE_NAME, [fee]);
    this.bk.burnCoins(ctx, MODULE_NAME, [fee]);
  }

  // ---- operations (after the message checks and the fee) ----

  /**
   * Stores a new token (`addToken`) and mints its initial supply × 10^scale of the min unit to the owner.
   * A min unit that is no bank denom (2 characters: bank denoms have 3 to 128) is sdk 10
   * `invalid denom: X` (the original panicked there).
   */
  issueToken(ctx: Context, f: TokenFields, owner: Uint8Array): Token {
    const t = newToken(f);
    this.addToken(ctx, t);
    if (!isValidDenom(t.min_unit)) throw Errors.InvalidCoins.wrap(`invalid denom: ${t.min_unit}`);
    const coins = this.minUnitCoins(t, t.initial_supply);
    this.bk.mintCoins(ctx, MODULE_NAME, coins);
    this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, owner, coins);
    return t;
  }

  /**
   * Mints `amount` whole tokens to `to`. Checks in order: the token exists (10), is mintable (13), `owner` is
   * its owner (11), `amount` ≤ floor((max_supply × 10^scale − supply) / 10^scale) (15).
   */
  mintToken(ctx: Context, symbol: string, amount: bigint, to: Uint8Array, owner: Uint8Array): void {
    const t = this.mustGetTokenBySymbol(ctx, symbol);
    if (!t.mintable) throw Prc10Errors.NotMintable.wrap(symbol);
    this.checkOwner(t, owner, t.owner);
    const prec = precision(t.scale);
    const room = (t.max_supply * prec - this.bk.getSupply(ctx, t.min_unit)) / prec;
    const mintable = room < 0n ? 0n : room;
    if (amount > mintable) {
      throw Prc10Errors.InvalidAmount.wrap(`the amount exceeds the mintable token amount; expected (0, ${mintable}], got ${amount}`);
    }
    const coins = this.minUnitCoins(t, amount);
    this.bk.mintCoins(ctx, MODULE_NAME, coins);
    this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, to, coins);
  }

  /**
   * Edits a token. Checks in order: the token exists (10), `owner` is its owner (11); a `maxSupply` above 0
   * must be ≥ floor(supply / 10^scale) (6) and replaces the max supply; a name other than
   * `[do-not-modify]` replaces the name in the token and in the bank metadata (which the original forgot).
   */
  editToken(ctx: Context, symbol: string, name: string | undefined, maxSupply: bigint, owner: Uint8Array): void {
    const t = { ...this.mustGetTokenBySymbol(ctx, symbol) };
    this.checkOwner(t, owner, t.owner);
    if (maxSupply > 0n) {
      const issued = this.bk.getSupply(ctx, t.min_unit) / precision(t.scale);
      if (maxSupply < issued) throw Prc10Errors.InvalidMaxSupply.wrap(`max supply must not be less than ${issued}`);
      t.max_supply = maxSupply;
    }
    if (name !== undefined) {
      t.name = name;
      const meta = this.bk.getDenomMetadata(ctx, t.min_unit);
      this.bk.setDenomMetadata(ctx, meta ? { ...meta, name } : tokenMetadata(t));
    }
    this.setToken(ctx, t);
  }

  /** Burns `amount` whole tokens of `owner`. Checks: the token exists (10), `owner` is its owner (11), funds (sdk 5). */
  burnToken(ctx: Context, symbol: string, amount: bigint, owner: Uint8Array): void {
    const t = this.mustGetTokenBySymbol(ctx, symbol);
    this.checkOwner(t, owner, t.owner);
    const coins = this.minUnitCoins(t, amount);
    this.bk.sendCoinsFromAccountToModule(ctx, owner, MODULE_NAME, coins);
    this.bk.burnCoins(ctx, MODULE_NAME, coins);
  }

  /** Makes `to` the owner. Checks: the token exists (10), `owner` is its owner (11); moves the owner index. */
  transferOwnerToken(ctx: Context, symbol: string, owner: Uint8Array, to: Uint8Array): void {
    const t = { ...this.mustGetTokenBySymbol(ctx, symbol) };
    this.checkOwner(t, owner, this.ak.addressCodec.encode(owner));
    t.owner = this.ak.addressCodec.encode(to);
    this.setToken(ctx, t);
    this.state.OwnerTokens.remove(ctx, [owner, symbol]);
    this.state.OwnerTokens.set(ctx, [to, symbol], { value: symbol });
  }

  /**
   * token 11 `the address <shown> is not the owner of the token <symbol>` unless `owner` owns `t`. The
   * original shows the token's owner for mint, edit and burn, and the sender for transfer-owner.
   */
  private checkOwner(t: Token, owner: Uint8Array, shown: string): void {
    if (this.ak.addressCodec.encode(owner) !== t.owner) {
      throw Prc10Errors.InvalidOwner.wrap(`the address ${shown} is not the owner of the token ${t.symbol}`);
    }
  }

  /** `amount` whole tokens in the min unit; none for 0 (the SDK's `NewCoins` drops zero coins). */
  private minUnitCoins(t: Token, amount: bigint): Coin[] {
    const n = amount * precision(t.scale);
    return n === 0n ? [] : [{ denom: t.min_unit, amount: n.toString() }];
  }
}

/**
 * The bank metadata of a token: name, symbol in upper case, the description (the native token's own),
 * base = min unit, display = symbol, units [min unit (0), symbol (scale)].
 */
export function tokenMetadata(t: Token): DenomMetadata {
  return {
    description: t.symbol === NATIVE_SYMBOL ? NATIVE_TOKEN_DESCRIPTION : TOKEN_DESCRIPTION,
    denom_units: [
      { denom: t.min_unit, exponent: 0, aliases: [] },
      { denom: t.symbol, exponent: t.scale, aliases: [] },
    ],
    base: t.min_unit,
    display: t.symbol,
    name: t.name,
    symbol: t.symbol.toUpperCase(),
    uri: '',
    uri_hash: '',
  };
}
