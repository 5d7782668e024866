/**
 * Token genesis: the default state (the params and the native token), validation, InitGenesis and
 * ExportGenesis on `GenesisState` (x/prc10/genesis.go of the original).
 */
import type { Context } from '@chain/app';
import { Errors } from '@chain/errors';
import type { GenesisState, Params, Token } from './gen/chain/prc10.js';
import type { Prc10Keeper } from './keeper.js';
import { defaultParams, validateParams } from './params.js';
import { GENESIS_MAXIMUM_SCALE, validateToken } from './token.js';

export type { GenesisState };

/** The collections InitGenesis derives from the tokens (`addToken`): not exported. */
const DERIVED = new Set(['min_units', 'owner_tokens']);

/** The default params and the native token (`chain` / `achain`, scale 18, owned by the `token` module account). */
export function defaultGenesis(k: Prc10Keeper): GenesisState {
  return { params: defaultParams(), tokens: [k.nativeToken()] };
}

/**
 * The params are valid (missing params are the defaults), every token is valid (`validateToken`, scales up
 * to 18) with a decodable owner, and no symbol or min unit is used twice (InitGenesis would refuse it).
 */
export function validateGenesis(k: Prc10Keeper, gen: GenesisState): void {
  validateParams(gen.params ?? defaultParams());
  const taken = new Set<string>();
  for (const t of gen.tokens) {
    validateToken(t, (o) => {
      try {
        k.ak.addressCodec.decode(o);
      } catch (e) {
        throw Errors.InvalidAddress.wrap(`invalid owner address (${(e as Error).message})`);
      }
    }, GENESIS_MAXIMUM_SCALE);
    for (const d of new Set([t.symbol, t.min_unit])) {
      if (taken.has(d)) throw new Error(`duplicate token denom ${d} in genesis`);
      taken.add(d);
    }
  }
}

/**
 * Stores each token (`addToken`: indexes and bank metadata, keeping the metadata of the bank genesis; mints
 * nothing, the bank genesis holds the balances), then the params, whose base fee's denom must be a token's
 * symbol or min unit (`Token <denom> does not exist`).
 */
export function initGenesis(ctx: Context, k: Prc10Keeper, gen: GenesisState): void {
  validateGenesis(k, gen);
  for (const t of gen.tokens) k.addToken(ctx, t, true);
  k.setParams(ctx, gen.params ?? defaultParams());
}

/**
 * Walks the schema: the params and the tokens (in symbol order); the two indexes are derived from the
 * tokens (InitGenesis rebuilds them). A collection added to src/keys.ts without a place here makes the
 * export throw, so the genesis cannot silently leave state out.
 */
export function exportGenesis(ctx: Context, k: Prc10Keeper): GenesisState {
  const { params, tokens, ...rest } = k.state.schema.exportAll(ctx);
  const left = Object.keys(rest).filter((name) => !DERIVED.has(name));
  if (left.length > 0) throw new Error(`token genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  // an Item exports [] or [[null, value]]
  const stored = params?.[0]?.[1] as Params | undefined;
  return { params: stored ?? defaultParams(), tokens: (tokens ?? []).map(([, t]) => t as Token) };
}
