/**
 * The governance contents of the upgrade module (SDK v0.45 x/upgrade/handler.go and types/proposal.go):
 * SoftwareUpgradeProposal (schedules its plan) and CancelSoftwareUpgradeProposal (clears the plan), route
 * `upgrade`. Neither emits events (the SDK's x/upgrade emits none).
 */
import type { Context } from '@chain/app';
import type { CancelSoftwareUpgradeProposal, Plan, SoftwareUpgradeProposal } from './gen/chain/upgrade/v1beta1.js';
import type { UpgradeKeeper } from './keeper.js';
import { CANCEL_SOFTWARE_UPGRADE_PROPOSAL, ROUTER_KEY, SOFTWARE_UPGRADE_PROPOSAL } from './keys.js';
import { validatePlan } from './plan.js';

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

export const PROPOSAL_TYPE_SOFTWARE_UPGRADE = 'SoftwareUpgrade';
export const PROPOSAL_TYPE_CANCEL_SOFTWARE_UPGRADE = 'CancelSoftwareUpgrade';

const EMPTY_PLAN: Plan = { name: '', time: null, height: 0n, info: '', upgraded_client_state: null };

/**
 * SoftwareUpgradeProposal:
 * - `validate` (at submission): `Plan.ValidateBasic` (`sdk` 18); gov then runs `execute` on a throwaway
 *   branch, as the SDK runs the handler on a cache context, and wraps its failure (a height in the past or a
 *   name already applied: `sdk` 18) in `gov` 5;
 * - `execute` (passed): `ScheduleUpgrade`, replacing any scheduled plan.
 */
export function createSoftwareUpgradeProposalRoute(k: UpgradeKeeper): ProposalContentRoute<SoftwareUpgradeProposal> {
  return {
    typeName: SOFTWARE_UPGRADE_PROPOSAL,
    route: ROUTER_KEY,
    proposalType: PROPOSAL_TYPE_SOFTWARE_UPGRADE,
    validate: (_ctx, content) => {
      const plan = content.plan ?? EMPTY_PLAN;
      validatePlan(plan);
    },
    execute: (ctx, content) => {
      k.scheduleUpgrade(ctx, content.plan ?? EMPTY_PLAN);
    },
  };
}

/** CancelSoftwareUpgradeProposal: nothing to check beyond gov's; `execute` clears the plan (also when there is none). */
export function createCancelSoftwareUpgradeProposalRoute(k: UpgradeKeeper): ProposalContentRoute<CancelSoftwareUpgradeProposal> {
  return {
    typeName: CANCEL_SOFTWARE_UPGRADE_PROPOSAL,
    route: ROUTER_KEY,
    proposalType: PROPOSAL_TYPE_CANCEL_SOFTWARE_UPGRADE,
    validate: () => undefined,
    execute: (ctx) => {
      k.clearUpgradePlan(ctx);
    },
  };
}
