/**
 * What the gov module needs of other modules (x/gov/types/expected_keepers.go of SDK v0.45), declared as
 * interfaces: this module's src never imports another module's values (tools/check-boundaries.mjs refuses
 * it), and createChainApp (apps/node/src/app.ts) passes the concrete keepers. Addresses are raw bytes.
 *
 * Also the contract between gov and the modules owning proposal contents: `ProposalContentRoute`.
 */
import type { Coin, Context } from '@chain/app';

/**
 * A proposal content type and its handler, contributed by the module that owns it (the SDK's gov router
 * entry plus the content's registration). Gov knows none of them by name but its own TextProposal.
 *
 * At submission gov runs, in order: its own checks of the content's `title` / `description` (the SDK's
 * `ValidateAbstract`), `validate` (its error surfaces as is), then `execute` on a throwaway branch of the
 * state (the SDK's `SubmitProposal` runs the handler in a cache context; its error surfaces as `gov` 5
 * wrapping it). When the proposal passes, gov runs `execute` on a branch of the EndBlock state: written if
 * it returns, discarded (the proposal FAILED) if it throws.
 */
export interface ProposalContentRoute<C = any> {
  /** fully-qualified proto message name, e.g. 'chain.params.v1beta1.ParameterChangeProposal' (Any type URL '/' + this; the '/cosmos.' alias is resolved by the registry) */
  readonly typeName: string;
  /** the SDK's content.ProposalRoute(): 'params', 'upgrade', 'distribution', 'gov' */
  readonly route: string;
  /** the SDK's content.ProposalType(): 'ParameterChange', 'SoftwareUpgrade', 'CancelSoftwareUpgrade', 'CommunityPoolSpend', 'Text' */
  readonly proposalType: string;
  /** ValidateBasic of the content (title/description checks are gov's) plus checks at submission; throws a registered error */
  validate(ctx: Context, content: C): void;
  /** executes a passed proposal; throws to fail it (gov discards its writes) */
  execute(ctx: Context, content: C): void;
}

/** A bonded validator as the tally reads it (@chain/staking's `Validator` has these fields). */
export interface GovValidator {
  /** bech32 operator address */
  readonly operator_address: string;
  /** Int text */
  readonly tokens: string;
  /** Dec atomics text */
  readonly delegator_shares: string;
}

/** A delegation as the tally reads it (@chain/staking's `Delegation`). */
export interface GovDelegation {
  readonly delegator_address: string;
  /** bech32 operator address */
  readonly validator_address: string;
  /** Dec atomics text */
  readonly shares: string;
}

/** Implemented by @chain/staking's StakingKeeper (these names exactly). */
export interface GovStakingKeeper {
  /** `IterateBondedValidatorsByPower`: the bonded validators of the power index, at most `max_validators` (jailed ones are not in it) */
  iterateBondedValidatorsByPower(ctx: Context): Iterable<GovValidator>;
  /** `IterateDelegations(delegator)`: the delegations of one delegator */
  iterateDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Iterable<GovDelegation>;
  /** `TotalBondedTokens`: the bonded pool's balance of the bond denom */
  totalBondedTokens(ctx: Context): bigint;
  /** the validator operator address codec (`chainvaloper...`) */
  readonly valCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
}

/** Implemented by @chain/bank's BankKeeper (the methods and signatures it has). */
export interface GovBankKeeper {
  getAllBalances(ctx: Context, addr: Uint8Array): Coin[];
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: Coin[]): void;
}

/** Implemented by @chain/auth's AccountKeeper. */
export interface GovAccountKeeper {
  /** the account address codec (bech32 of the chain's account prefix) */
  readonly addressCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };
  getModuleAddress(name: string): Uint8Array;
  /** the module account, created if missing (the SDK's `GetModuleAccount`); its address */
  ensureModuleAccount(ctx: Context, name: string): Uint8Array;
}
