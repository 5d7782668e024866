/**
 * The Msg service of gov (`chain.gov.v1beta1.Msg`, x/gov/keeper/msg_server.go and types/msgs.go of SDK
 * v0.45): each message's ValidateBasic checks first, then the keeper, then `message{module=governance,
 * sender}` and the message's own events.
 */
import type { Coin, Context, MsgServer } from '@chain/app';
import { coinsToString, validateCoins } from '@chain/app';
import { Errors } from '@chain/errors';
import { Dec } from '@chain/math';
import { validateAbstract } from './content.js';
import { GovErrors } from './errors.js';
import { emit, messageEvent, submitProposalTypeEvent, votingPeriodStartEvent } from './events.js';
import type { MsgMethods, WeightedVoteOption } from './gen/chain/gov/v1beta1.js';
import type { GovKeeper } from './keeper.js';
import { nonSplitVoteOption, validVoteOption, validWeightedVoteOption, voteOptionName, weightOf, weightedOptionString, weightedOptionsString } from './votes.js';

/** `Coins.IsValid() && !IsAnyNegative()`, else `sdk` 10 with the coins (an empty list is valid). */
function checkCoins(coins: readonly Coin[]): void {
  try {
    validateCoins(coins);
  } catch {
    throw Errors.InvalidCoins.wrap(coinsToString(coins));
  }
}

/** `MsgVoteWeighted.ValidateBasic`: options present, each valid, none twice, weights summing to exactly 1. */
export function validateWeightedOptions(options: readonly WeightedVoteOption[]): void {
  if (options.length === 0) throw Errors.InvalidRequest.wrap(weightedOptionsString(options));
  let total = Dec.zero();
  const used = new Set<number>();
  for (const o of options) {
    if (!validWeightedVoteOption(o)) throw GovErrors.InvalidVote.wrap(weightedOptionString(o));
    total = total.add(weightOf(o));
    if (used.has(o.option)) throw GovErrors.InvalidVote.wrap('Duplicated vote option');
    used.add(o.option);
  }
  if (total.gt(Dec.one())) throw GovErrors.InvalidVote.wrap('Total weight overflow 1.00');
  if (total.lt(Dec.one())) throw GovErrors.InvalidVote.wrap('Total weight lower than 1.00');
}

export function createMsgServer(k: GovKeeper): MsgServer<MsgMethods> {
  /** an address field: empty is `sdk` 7 with it, a bad bech32 `sdk` 7 with the reason */
  const address = (text: string, what: string): Uint8Array => {
    if (!text) throw Errors.InvalidAddress.wrap(text);
    try {
      return k.accCodec.decode(text);
    } catch (e) {
      throw Errors.InvalidAddress.wrap(`invalid ${what} address: ${(e as Error).message}`);
    }
  };
  const message = (ctx: Context, sender: string): void => emit(ctx, messageEvent(sender));

  return {
    SubmitProposal: (ctx, m) => {
      // ValidateBasic
      if (!m.proposer) throw Errors.InvalidAddress.wrap(m.proposer);
      checkCoins(m.initial_deposit);
      const content = k.decodeContent(ctx, m.content);
      validateAbstract(content.content);
      content.route.validate(ctx, content.content);
      const proposer = address(m.proposer, 'proposer');
      // handler
      const proposal = k.submitProposal(ctx, content);
      const votingStarted = k.addDeposit(ctx, proposal.proposal_id, proposer, m.initial_deposit);
      message(ctx, m.proposer);
      emit(ctx, submitProposalTypeEvent(content.route.proposalType, votingStarted ? proposal.proposal_id : undefined));
      return { proposal_id: proposal.proposal_id };
    },

    Vote: (ctx, m) => {
      if (!m.voter) throw Errors.InvalidAddress.wrap(m.voter);
      if (!validVoteOption(m.option)) throw GovErrors.InvalidVote.wrap(voteOptionName(m.option));
      const voter = address(m.voter, 'voter');
      k.addVote(ctx, m.proposal_id, voter, nonSplitVoteOption(m.option));
      message(ctx, m.voter);
      return {};
    },

    VoteWeighted: (ctx, m) => {
      if (!m.voter) throw Errors.InvalidAddress.wrap(m.voter);
      validateWeightedOptions(m.options);
      const voter = address(m.voter, 'voter');
      k.addVote(ctx, m.proposal_id, voter, m.options);
      message(ctx, m.voter);
      return {};
    },

    Deposit: (ctx, m) => {
      if (!m.depositor) throw Errors.InvalidAddress.wrap(m.depositor);
      checkCoins(m.amount);
      const depositor = address(m.depositor, 'depositor');
      const votingStarted = k.addDeposit(ctx, m.proposal_id, depositor, m.amount);
      message(ctx, m.depositor);
      if (votingStarted) emit(ctx, votingPeriodStartEvent(m.proposal_id));
      return {};
    },
  };
}
