/** Events of the gov module (x/gov/types/events.go of SDK v0.45): types, attribute keys, one constructor per event. */
import type { Context } from '@chain/app';

export const EventType = {
  SubmitProposal: 'submit_proposal',
  ProposalDeposit: 'proposal_deposit',
  ProposalVote: 'proposal_vote',
  InactiveProposal: 'inactive_proposal',
  ActiveProposal: 'active_proposal',
  /** `sdk.EventTypeMessage` */
  Message: 'message',
} as const;

export const AttributeKey = {
  ProposalResult: 'proposal_result',
  Option: 'option',
  ProposalID: 'proposal_id',
  VotingPeriodStart: 'voting_period_start',
  ProposalType: 'proposal_type',
  Amount: 'amount',
  Module: 'module',
  Sender: 'sender',
} as const;

/** `types.AttributeValueCategory`: the `message.module` of gov's messages. */
export const ATTRIBUTE_VALUE_CATEGORY = 'governance';

/** The values of `proposal_result`. */
export const ProposalResult = {
  /** did not meet the min deposit in its deposit period */
  Dropped: 'proposal_dropped',
  /** passed, and its handler ran */
  Passed: 'proposal_passed',
  /** did not pass */
  Rejected: 'proposal_rejected',
  /** passed, but its handler failed */
  Failed: 'proposal_failed',
} as const;

/** An event before it is emitted: its type and its attributes in order. */
export interface GovEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: GovEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

const ev = (type: string, ...attributes: [string, string][]): GovEvent => ({ type, attributes });
const id = (proposalId: bigint): [string, string] => [AttributeKey.ProposalID, proposalId.toString()];

/** `submit_proposal{proposal_id}` (keeper.SubmitProposal) */
export const submitProposalIdEvent = (proposalId: bigint) => ev(EventType.SubmitProposal, id(proposalId));
/** `submit_proposal{proposal_type[, voting_period_start]}` (the message server, after the deposit) */
export const submitProposalTypeEvent = (proposalType: string, votingStarted: bigint | undefined) => ev(
  EventType.SubmitProposal,
  [AttributeKey.ProposalType, proposalType],
  ...(votingStarted === undefined ? [] : [[AttributeKey.VotingPeriodStart, votingStarted.toString()] as [string, string]]),
);
/** `proposal_deposit{amount, proposal_id}` (keeper.AddDeposit) */
export const proposalDepositEvent = (amount: string, proposalId: bigint) => ev(EventType.ProposalDeposit, [AttributeKey.Amount, amount], id(proposalId));
/** `proposal_deposit{voting_period_start}` (MsgDeposit, when the deposit started the voting) */
export const votingPeriodStartEvent = (proposalId: bigint) => ev(EventType.ProposalDeposit, [AttributeKey.VotingPeriodStart, proposalId.toString()]);
/** `proposal_vote{option, proposal_id}` (keeper.AddVote) */
export const proposalVoteEvent = (options: string, proposalId: bigint) => ev(EventType.ProposalVote, [AttributeKey.Option, options], id(proposalId));
/** `inactive_proposal{proposal_id, proposal_result=proposal_dropped}` (EndBlock) */
export const inactiveProposalEvent = (proposalId: bigint) => ev(EventType.InactiveProposal, id(proposalId), [AttributeKey.ProposalResult, ProposalResult.Dropped]);
/** `active_proposal{proposal_id, proposal_result}` (EndBlock) */
export const activeProposalEvent = (proposalId: bigint, result: string) => ev(EventType.ActiveProposal, id(proposalId), [AttributeKey.ProposalResult, result]);
/** `message{module=governance, sender}` (each message handler, as v0.45) */
export const messageEvent = (sender: string) => ev(EventType.Message, [AttributeKey.Module, ATTRIBUTE_VALUE_CATEGORY], [AttributeKey.Sender, sender]);
