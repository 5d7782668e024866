/**
 * The governance content of the params module: ParameterChangeProposal (route `params`, type
 * `ParameterChange`), as the SDK v0.45 params proposal handler (x/params/proposal_handler.go).
 */
import type { Context } from '@chain/app';
import { ParamsErrors } from './errors.js';
import type { ParamChange, ParameterChangeProposal } from './gen/chain/params/v1beta1.js';
import type { ParamsKeeper } from './keeper.js';
import { PARAMETER_CHANGE_PROPOSAL, ROUTER_KEY } from './keys.js';

/**
 * A proposal content type and its handler, the shape the gov module takes (gov declares the same interface
 * in its expected keepers; it is repeated here structurally so that this module does not depend on gov).
 */
export interface ProposalContentRoute<C = unknown> {
  /** fully-qualified proto message name (Any type URL `/` + this; the `/cosmos.` alias resolves to it) */
  readonly typeName: string;
  /** the SDK's `ProposalRoute()` */
  readonly route: string;
  /** the SDK's `ProposalType()` */
  readonly proposalType: string;
  /** ValidateBasic of the content (title and description are gov's) plus the checks at submission */
  validate(ctx: Context, content: C): void;
  /** executes a passed proposal; throws to fail it */
  execute(ctx: Context, content: C): void;
}

export const PROPOSAL_TYPE_CHANGE = 'ParameterChange';

/**
 * `ValidateChanges` of SDK v0.45: at least one change (`params` 4), and each with a subspace (5), a key (6)
 * and a value (7).
 */
export function validateChanges(changes: readonly ParamChange[]): void {
  if (changes.length === 0) throw ParamsErrors.EmptyChanges.error();
  for (const c of changes) {
    if (c.subspace.length === 0) throw ParamsErrors.EmptySubspace.error();
    if (c.key.length === 0) throw ParamsErrors.EmptyKey.error();
    if (c.value.length === 0) throw ParamsErrors.EmptyValue.error();
  }
}

/**
 * The ParameterChangeProposal route for gov:
 * - `validate` (at submission): `ParameterChangeProposal.ValidateBasic` (`validateChanges`); gov then runs
 *   `execute` on a throwaway branch, as the SDK runs the handler on a cache context, and wraps its failure
 *   (unknown subspace `params` 2; unregistered key, undecodable or invalid value `params` 3) in `gov` 5;
 * - `execute` (the proposal passed): the changes applied in order through the owning modules' validation,
 *   all or nothing; a failure throws (gov marks the proposal failed). No events, as the SDK.
 */
export function createParamChangeProposalRoute(k: ParamsKeeper): ProposalContentRoute<ParameterChangeProposal> {
  return {
    typeName: PARAMETER_CHANGE_PROPOSAL,
    route: ROUTER_KEY,
    proposalType: PROPOSAL_TYPE_CHANGE,
    validate: (_ctx, content) => {
      validateChanges(content.changes);
    },
    execute: (ctx, content) => {
      validateChanges(content.changes);
      k.applyChanges(ctx, content.changes);
    },
  };
}
