/** EndBlock of gov (x/gov/abci.go of SDK v0.45). */
import type { Context } from '@chain/app';
import { EventManager } from '@chain/app';
import { branch } from '@chain/store';
import { ProposalResult, activeProposalEvent, emit, inactiveProposalEvent } from './events.js';
import type { Proposal } from './gen/chain/gov/v1beta1.js';
import { ProposalStatus } from './gen/chain/gov/v1beta1.js';
import type { GovKeeper } from './keeper.js';

/** What EndBlock did to one proposal (for the caller's log and tests). */
export interface EndBlockOutcome {
  readonly proposalId: bigint;
  readonly result: (typeof ProposalResult)[keyof typeof ProposalResult];
  /** why a passed proposal failed: the handler's error */
  readonly error?: string;
}

/**
 * 1. The inactive queue up to the block time (deposit period over without the min deposit): the proposal
 *    is deleted and its deposits burned; `inactive_proposal{proposal_id, proposal_result=proposal_dropped}`.
 * 2. The active queue up to the block time (voting period over): the tally (votes deleted); deposits burned
 *    (no quorum, vetoed) or refunded; a passing proposal's content handler runs on a branch: written with
 *    its events if it returns (PASSED), discarded if it throws (FAILED); otherwise REJECTED. The final
 *    tally is stored, the proposal leaves the queue; `active_proposal{proposal_id, proposal_result}`.
 */
export function endBlocker(ctx: Context, k: GovKeeper): EndBlockOutcome[] {
  const out: EndBlockOutcome[] = [];
  for (const proposal of k.inactiveProposalsDue(ctx, ctx.block.time)) {
    k.deleteProposal(ctx, proposal.proposal_id);
    k.deleteDeposits(ctx, proposal.proposal_id);
    emit(ctx, inactiveProposalEvent(proposal.proposal_id));
    out.push({ proposalId: proposal.proposal_id, result: ProposalResult.Dropped });
  }
  for (const proposal of k.activeProposalsDue(ctx, ctx.block.time)) {
    const { passes, burnDeposits, tally } = k.tally(ctx, proposal);
    if (burnDeposits) k.deleteDeposits(ctx, proposal.proposal_id);
    else k.refundDeposits(ctx, proposal.proposal_id);
    let status: number;
    let result: EndBlockOutcome['result'];
    let error: string | undefined;
    if (passes) {
      const outcome = executeProposal(ctx, k, proposal);
      error = outcome.error;
      status = error === undefined ? ProposalStatus.PROPOSAL_STATUS_PASSED : ProposalStatus.PROPOSAL_STATUS_FAILED;
      result = error === undefined ? ProposalResult.Passed : ProposalResult.Failed;
    } else {
      status = ProposalStatus.PROPOSAL_STATUS_REJECTED;
      result = ProposalResult.Rejected;
    }
    // the proposal as it is now (the handler may not touch it: it ran on a branch written before this)
    const current = k.getProposal(ctx, proposal.proposal_id) ?? proposal;
    k.setProposal(ctx, { ...current, status, final_tally_result: tally });
    k.removeFromActiveProposalQueue(ctx, proposal.proposal_id, proposal.voting_end_time);
    emit(ctx, activeProposalEvent(proposal.proposal_id, result));
    out.push(error === undefined ? { proposalId: proposal.proposal_id, result } : { proposalId: proposal.proposal_id, result, error });
  }
  return out;
}

/** Runs a passed proposal's handler on a branch with its own events: written and re-emitted on success. */
function executeProposal(ctx: Context, k: GovKeeper, proposal: Proposal): { error?: string } {
  const c = k.proposalContent(proposal);
  if (!c) return { error: `no handler exists for proposal content ${proposal.content?.type_url ?? '(none)'}` };
  const state = branch(ctx.ms);
  const events = new EventManager();
  try {
    c.route.execute(ctx.withStore(state).withEvents(events), c.content);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  state.write();
  ctx.events.emitAll(events.events);
  return {};
}
