/**
 * The `CommunityPoolSpendProposal` content (x/distribution/types/proposal.go and proposal_handler.go of SDK
 * v0.45) as a gov content route: gov routes `chain.distribution.v1beta1.CommunityPoolSpendProposal` (and its
 * `/cosmos.` alias) to it. The shape is gov's `ProposalContentRoute` (modules/gov/src/expected-keepers.ts),
 * declared here structurally so that distribution imports nothing of gov; createChainApp hands the route to
 * the gov keeper, which type-checks it against the contract.
 */
import type { Context } from '@chain/app';
import { validateCoins } from '@chain/app';
import { DistributionErrors } from './errors.js';
import type { CommunityPoolSpendProposal } from './gen/chain/distribution/v1beta1.js';
import type { DistributionKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

/** gov's `ProposalContentRoute<CommunityPoolSpendProposal>`. */
export interface CommunityPoolSpendProposalRoute {
  readonly typeName: string;
  readonly route: string;
  readonly proposalType: string;
  validate(ctx: Context, content: CommunityPoolSpendProposal): void;
  execute(ctx: Context, content: CommunityPoolSpendProposal): void;
}

/** `ProposalTypeCommunityPoolSpend` */
export const PROPOSAL_TYPE_COMMUNITY_POOL_SPEND = 'CommunityPoolSpend';

/**
 * `CommunityPoolSpendProposal.ValidateBasic` after gov's title/description checks: the amount valid coins
 * (an empty list is valid), else `distribution` 10; the recipient not empty, else `distribution` 11.
 */
export function validateCommunityPoolSpendProposal(p: CommunityPoolSpendProposal): void {
  try {
    validateCoins(p.amount);
  } catch {
    throw DistributionErrors.InvalidProposalAmount.error();
  }
  if (!p.recipient) throw DistributionErrors.EmptyProposalRecipient.error();
}

/**
 * The route: validate as above; execute is `HandleCommunityPoolSpendProposal` (a blocked recipient `sdk` 4,
 * a bad bech32 the decode error, a short community pool `distribution` 9; else the pool pays the recipient
 * from the distribution module account). Gov runs execute at submission on a throwaway branch (so a spend
 * the pool cannot pay is refused then, as v0.45) and again when the proposal passes.
 */
export function createCommunityPoolSpendProposalRoute(k: DistributionKeeper): CommunityPoolSpendProposalRoute {
  return {
    typeName: 'chain.distribution.v1beta1.CommunityPoolSpendProposal',
    route: MODULE_NAME,
    proposalType: PROPOSAL_TYPE_COMMUNITY_POOL_SPEND,
    validate: (_ctx, p) => validateCommunityPoolSpendProposal(p),
    execute: (ctx, p) => k.handleCommunityPoolSpendProposal(ctx, p),
  };
}
