/**
 * GovKeeper: x/gov v1beta1 of Cosmos SDK v0.45 (x/gov/keeper: proposal.go, deposit.go, vote.go, tally.go,
 * params.go) through the schema of src/keys.ts, plus the router of proposal contents (the SDK's gov
 * router): a module registers the content types and the handlers it owns (`ProposalContentRoute`).
 */
import type { Coin, Context } from '@chain/app';
import { EventManager, addCoins, amountOf, coinsToString } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { Errors } from '@chain/errors';
import { Dec } from '@chain/math';
import { branch } from '@chain/store';
import { ContentRouter, textProposalRoute } from './content.js';
import { GovErrors } from './errors.js';
import { emit, proposalDepositEvent, proposalVoteEvent, submitProposalIdEvent } from './events.js';
import type { GovAccountKeeper, GovBankKeeper, GovStakingKeeper, ProposalContentRoute } from './expected-keepers.js';
import type { Deposit, Proposal, TallyResult, Vote, WeightedVoteOption } from './gen/chain/gov/v1beta1.js';
import { ProposalStatus, VoteOption } from './gen/chain/gov/v1beta1.js';
import { MODULE_NAME, govSchema } from './keys.js';
import type { GovState } from './keys.js';
import { defaultParams, depositParamsOf, paramsFromProto, paramsToProto, tallyParamsOf, validateParams, votingParamsOf } from './params.js';
import type { DepositParams, GovParams, GovParamsValues, TallyParams, VotingParams } from './params.js';
import { GO_ZERO_TIME, addDuration, dateTs, formatTimeKey } from './time.js';
import { populateLegacyOption, validWeightedVoteOption, weightOf, weightedOptionString, weightedOptionsString } from './votes.js';

export interface GovKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly accountKeeper: GovAccountKeeper;
  readonly bankKeeper: GovBankKeeper;
  readonly stakingKeeper: GovStakingKeeper;
  /**
   * The proposal contents other modules own (params, upgrade, distribution, ...): gov's TextProposal is
   * always routed; more can be added with `addContentRoute` before the chain runs.
   */
  readonly contentRoutes?: readonly ProposalContentRoute[];
}

/** A proposal's content, decoded, with its route. */
export interface DecodedContent {
  /** canonical proto type name */
  readonly name: string;
  readonly route: ProposalContentRoute;
  readonly content: Record<string, unknown>;
}

/** The outcome of a tally (`Tally`): passes, burn the deposits, the result. */
export interface TallyOutcome {
  readonly passes: boolean;
  readonly burnDeposits: boolean;
  readonly tally: TallyResult;
}

/** A ValidatorGovInfo of the tally. */
interface ValidatorGovInfo {
  readonly bondedTokens: bigint;
  readonly delegatorShares: Dec;
  deductions: Dec;
  vote: WeightedVoteOption[];
}

const OPTIONS = [VoteOption.VOTE_OPTION_YES, VoteOption.VOTE_OPTION_ABSTAIN, VoteOption.VOTE_OPTION_NO, VoteOption.VOTE_OPTION_NO_WITH_VETO] as const;

/** `EmptyTallyResult()` */
export const emptyTallyResult = (): TallyResult => ({ yes: '0', abstain: '0', no: '0', no_with_veto: '0' });

/** `coins.IsAllGTE(min)`: every coin of `min` is met (an empty `min` always is; empty coins never meet a non-empty min). */
export function isAllGTE(coins: readonly Coin[], min: readonly Coin[]): boolean {
  if (min.length === 0) return true;
  if (coins.length === 0) return false;
  return min.every((c) => amountOf(coins, c.denom) >= BigInt(c.amount));
}

export class GovKeeper {
  readonly registry: ProtoRegistry;
  readonly ak: GovAccountKeeper;
  readonly bk: GovBankKeeper;
  readonly sk: GovStakingKeeper;
  /** The module's state: the collections of `govSchema` (src/keys.ts). */
  readonly state: GovState;
  /** The content routes (TextProposal and those the modules add). */
  readonly router: ContentRouter;
  /** account addresses (proposers, depositors, voters) */
  readonly accCodec: { encode(bytes: Uint8Array): string; decode(text: string): Uint8Array };

  constructor(opts: GovKeeperOptions) {
    this.registry = opts.registry;
    this.ak = opts.accountKeeper;
    this.bk = opts.bankKeeper;
    this.sk = opts.stakingKeeper;
    this.state = govSchema(opts.registry);
    this.accCodec = opts.accountKeeper.addressCodec;
    this.router = new ContentRouter(opts.registry);
    this.router.add(textProposalRoute);
    for (const r of opts.contentRoutes ?? []) this.router.add(r);
  }

  /** Routes one more content type (refuses a type name routed already). */
  addContentRoute(route: ProposalContentRoute): void {
    this.router.add(route);
  }

  /** The gov module account's address. */
  moduleAddress(): Uint8Array {
    return this.ak.getModuleAddress(MODULE_NAME);
  }

  // ---- params ----

  /** The stored params, or the defaults before genesis. */
  getParams(ctx: Context): GovParams {
    return this.state.Params.get(ctx) ?? defaultParams();
  }

  /** Validates (plain errors with the SDK's messages) and stores the params. */
  setParams(ctx: Context, p: GovParams): void {
    validateParams(p);
    this.state.Params.set(ctx, p);
  }

  getParamsValues(ctx: Context): GovParamsValues {
    return paramsFromProto(this.getParams(ctx));
  }

  setParamsValues(ctx: Context, v: GovParamsValues): void {
    this.setParams(ctx, paramsToProto(v));
  }

  getDepositParams(ctx: Context): DepositParams {
    return depositParamsOf(this.getParamsValues(ctx));
  }

  getVotingParams(ctx: Context): VotingParams {
    return votingParamsOf(this.getParamsValues(ctx));
  }

  getTallyParams(ctx: Context): TallyParams {
    return tallyParamsOf(this.getParamsValues(ctx));
  }

  // ---- proposal ids ----

  /** `GetProposalID`: the next id; unset (no genesis): `gov` 8 `initial proposal ID hasn't been set`. */
  getProposalID(ctx: Context): bigint {
    const id = this.state.ProposalID.get(ctx);
    if (id === undefined) throw GovErrors.InvalidGenesis.wrap("initial proposal ID hasn't been set");
    return id;
  }

  setProposalID(ctx: Context, id: bigint): void {
    this.state.ProposalID.set(ctx, id);
  }

  // ---- proposals ----

  getProposal(ctx: Context, id: bigint): Proposal | undefined {
    return this.state.Proposals.get(ctx, id);
  }

  setProposal(ctx: Context, p: Proposal): void {
    this.state.Proposals.set(ctx, p.proposal_id, p);
  }

  /** `DeleteProposal`: the proposal and its queue entry (it must exist). */
  deleteProposal(ctx: Context, id: bigint): void {
    const p = this.getProposal(ctx, id);
    if (!p) throw new Error(`couldn't find proposal with id#${id}`);
    this.removeFromInactiveProposalQueue(ctx, id, p.deposit_end_time);
    this.removeFromActiveProposalQueue(ctx, id, p.voting_end_time);
    this.state.Proposals.remove(ctx, id);
  }

  /** Every proposal, by id. */
  getProposals(ctx: Context): Proposal[] {
    return this.state.Proposals.values(ctx).toArray();
  }

  insertActiveProposalQueue(ctx: Context, id: bigint, endTime: Proposal['voting_end_time']): void {
    this.state.ActiveQueue.set(ctx, [formatTimeKey(endTime), id], id);
  }

  removeFromActiveProposalQueue(ctx: Context, id: bigint, endTime: Proposal['voting_end_time']): void {
    this.state.ActiveQueue.remove(ctx, [formatTimeKey(endTime), id]);
  }

  insertInactiveProposalQueue(ctx: Context, id: bigint, endTime: Proposal['deposit_end_time']): void {
    this.state.InactiveQueue.set(ctx, [formatTimeKey(endTime), id], id);
  }

  removeFromInactiveProposalQueue(ctx: Context, id: bigint, endTime: Proposal['deposit_end_time']): void {
    this.state.InactiveQueue.remove(ctx, [formatTimeKey(endTime), id]);
  }

  /** `IterateActiveProposalsQueue(endTime)`: the proposals whose voting ends at or before `time`, by end time then id. */
  activeProposalsDue(ctx: Context, time: Date): Proposal[] {
    return this.dueIn(ctx, this.state.ActiveQueue, time);
  }

  /** `IterateInactiveProposalsQueue(endTime)`: the proposals whose deposit period ends at or before `time`. */
  inactiveProposalsDue(ctx: Context, time: Date): Proposal[] {
    return this.dueIn(ctx, this.state.InactiveQueue, time);
  }

  private dueIn(ctx: Context, queue: GovState['ActiveQueue'], time: Date): Proposal[] {
    const ids = queue.values(ctx, { end: [formatTimeKey(dateTs(time))], endInclusive: true }).toArray();
    return ids.map((id) => {
      const p = this.getProposal(ctx, id);
      if (!p) throw new Error(`proposal #${id} was expected to exist`);
      return p;
    });
  }

  /** The content of a proposal decoded through its route (a content whose type is no longer routed: undefined). */
  proposalContent(p: Proposal): DecodedContent | undefined {
    if (!p.content) return undefined;
    const hit = this.router.byTypeUrl(p.content.type_url);
    if (!hit) return undefined;
    return { name: hit.name, route: hit.route, content: this.registry.decode(hit.name, p.content.value) };
  }

  /**
   * Decodes and checks a content at submission: an unrouted type is `gov` 6, undecodable bytes `sdk` 34;
   * then `ValidateAbstract` (`gov` 5) and the route's `validate` (its own errors).
   */
  decodeContent(ctx: Context, any: { type_url: string; value: Uint8Array } | null): DecodedContent {
    if (!any) throw GovErrors.InvalidProposalContent.wrap('missing content');
    const hit = this.router.byTypeUrl(any.type_url);
    if (!hit) throw GovErrors.InvalidProposalType.wrap(any.type_url);
    let content: Record<string, unknown>;
    try {
      content = this.registry.decode(hit.name, any.value);
    } catch (e) {
      throw Errors.UnpackAny.wrap(`${any.type_url}: ${(e as Error).message}`);
    }
    return { name: hit.name, route: hit.route, content };
  }

  /**
   * `SubmitProposal`: the content's handler runs on a throwaway branch (its failure is `gov` 5 wrapping
   * it); then the proposal is stored in its deposit period (deposit end = block time + max deposit period),
   * queued in the inactive queue, the next id raised; event `submit_proposal{proposal_id}`.
   */
  submitProposal(ctx: Context, c: DecodedContent): Proposal {
    const trial = ctx.withStore(branch(ctx.ms)).withEvents(new EventManager());
    try {
      c.route.execute(trial, c.content);
    } catch (e) {
      throw GovErrors.InvalidProposalContent.wrap(e instanceof Error ? e.message : String(e));
    }
    const id = this.getProposalID(ctx);
    const submitTime = dateTs(ctx.block.time);
    const proposal: Proposal = {
      proposal_id: id,
      content: { type_url: '/' + c.name, value: this.registry.encode(c.name, c.content) },
      status: ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD,
      final_tally_result: emptyTallyResult(),
      submit_time: submitTime,
      deposit_end_time: addDuration(submitTime, this.getDepositParams(ctx).max_deposit_period),
      total_deposit: [],
      voting_start_time: { ...GO_ZERO_TIME },
      voting_end_time: { ...GO_ZERO_TIME },
    };
    this.setProposal(ctx, proposal);
    this.insertInactiveProposalQueue(ctx, id, proposal.deposit_end_time);
    this.setProposalID(ctx, id + 1n);
    emit(ctx, submitProposalIdEvent(id));
    return proposal;
  }

  /** `ActivateVotingPeriod`: voting from now for the voting period; from the inactive to the active queue. */
  activateVotingPeriod(ctx: Context, proposal: Proposal): Proposal {
    const start = dateTs(ctx.block.time);
    const p: Proposal = {
      ...proposal,
      voting_start_time: start,
      voting_end_time: addDuration(start, this.getVotingParams(ctx).voting_period),
      status: ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD,
    };
    this.setProposal(ctx, p);
    this.removeFromInactiveProposalQueue(ctx, p.proposal_id, p.deposit_end_time);
    this.insertActiveProposalQueue(ctx, p.proposal_id, p.voting_end_time);
    return p;
  }

  // ---- deposits ----

  getDeposit(ctx: Context, id: bigint, depositor: Uint8Array): Deposit | undefined {
    return this.state.Deposits.get(ctx, [id, depositor]);
  }

  setDeposit(ctx: Context, d: Deposit): void {
    this.state.Deposits.set(ctx, [d.proposal_id, this.accCodec.decode(d.depositor)], d);
  }

  /** The deposits of a proposal, by depositor address. */
  getDeposits(ctx: Context, id: bigint): Deposit[] {
    return this.state.Deposits.values(ctx, { prefix: [id] }).toArray();
  }

  /**
   * `AddDeposit`: proposal missing `gov` 2, not in its deposit or voting period `gov` 3; coins depositor →
   * gov module account; total deposit += amount; a deposit-period proposal whose total meets the min deposit
   * in every denom starts its voting; the depositor's record accumulates; event `proposal_deposit{amount,
   * proposal_id}`. Returns whether the voting started.
   */
  addDeposit(ctx: Context, id: bigint, depositor: Uint8Array, amount: Coin[]): boolean {
    let proposal = this.getProposal(ctx, id);
    if (!proposal) throw GovErrors.UnknownProposal.wrap(id.toString());
    if (proposal.status !== ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD && proposal.status !== ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD) {
      throw GovErrors.InactiveProposal.wrap(id.toString());
    }
    this.bk.sendCoinsFromAccountToModule(ctx, depositor, MODULE_NAME, amount);
    proposal = { ...proposal, total_deposit: addCoins(proposal.total_deposit, amount) };
    this.setProposal(ctx, proposal);
    let activated = false;
    if (proposal.status === ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD && isAllGTE(proposal.total_deposit, this.getDepositParams(ctx).min_deposit)) {
      this.activateVotingPeriod(ctx, proposal);
      activated = true;
    }
    const existing = this.getDeposit(ctx, id, depositor);
    const deposit: Deposit = existing
      ? { ...existing, amount: addCoins(existing.amount, amount) }
      : { proposal_id: id, depositor: this.accCodec.encode(depositor), amount: addCoins([], amount) };
    emit(ctx, proposalDepositEvent(coinsToString(amount), id));
    this.setDeposit(ctx, deposit);
    return activated;
  }

  /** `DeleteDeposits`: burns every deposit of the proposal (from the gov module account) and deletes them. */
  deleteDeposits(ctx: Context, id: bigint): void {
    for (const { key, value } of this.state.Deposits.iterate(ctx, { prefix: [id] }).toArray()) {
      this.bk.burnCoins(ctx, MODULE_NAME, value.amount);
      this.state.Deposits.remove(ctx, key);
    }
  }

  /** `RefundDeposits`: every deposit back to its depositor, then deleted. */
  refundDeposits(ctx: Context, id: bigint): void {
    for (const { key, value } of this.state.Deposits.iterate(ctx, { prefix: [id] }).toArray()) {
      this.bk.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, key[1], value.amount);
      this.state.Deposits.remove(ctx, key);
    }
  }

  // ---- votes ----

  /** `GetVote`, with the legacy `option` filled in. */
  getVote(ctx: Context, id: bigint, voter: Uint8Array): Vote | undefined {
    const v = this.state.Votes.get(ctx, [id, voter]);
    return v && populateLegacyOption(v);
  }

  /** `SetVote`: the deprecated `option` is never stored. */
  setVote(ctx: Context, v: Vote): void {
    this.state.Votes.set(ctx, [v.proposal_id, this.accCodec.decode(v.voter)], { ...v, option: VoteOption.VOTE_OPTION_UNSPECIFIED });
  }

  /** The votes of a proposal, by voter address (legacy option filled in). */
  getVotes(ctx: Context, id: bigint): Vote[] {
    return this.state.Votes.values(ctx, { prefix: [id] }).toArray().map(populateLegacyOption);
  }

  /**
   * `AddVote`: proposal missing `gov` 2, not in its voting period `gov` 3, an invalid option `gov` 7; the
   * vote replaces the voter's previous one; event `proposal_vote{option, proposal_id}`.
   */
  addVote(ctx: Context, id: bigint, voter: Uint8Array, options: WeightedVoteOption[]): void {
    const proposal = this.getProposal(ctx, id);
    if (!proposal) throw GovErrors.UnknownProposal.wrap(id.toString());
    if (proposal.status !== ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD) throw GovErrors.InactiveProposal.wrap(id.toString());
    for (const o of options) if (!validWeightedVoteOption(o)) throw GovErrors.InvalidVote.wrap(weightedOptionString(o));
    this.setVote(ctx, { proposal_id: id, voter: this.accCodec.encode(voter), option: VoteOption.VOTE_OPTION_UNSPECIFIED, options });
    emit(ctx, proposalVoteEvent(weightedOptionsString(options), id));
  }

  // ---- tally ----

  /**
   * `Tally` (x/gov/keeper/tally.go): each bonded validator (of the power index, at most max_validators)
   * votes with its bonded tokens in proportion to the shares its delegators did not vote themselves; each
   * voter's delegations to those validators vote as the voter did. Votes are deleted as they are counted.
   * No bonded tokens: rejected, refunded; below quorum: rejected, burned; everyone abstained: rejected,
   * refunded; veto over the veto threshold: rejected, burned; yes over the threshold of the non-abstaining
   * power: passes (strictly greater); else rejected, refunded.
   */
  tally(ctx: Context, proposal: Proposal): TallyOutcome {
    const results = new Map<number, Dec>(OPTIONS.map((o) => [o, Dec.zero()]));
    const add = (option: number, d: Dec): void => {
      results.set(option, (results.get(option) ?? Dec.zero()).add(d));
    };
    let totalVotingPower = Dec.zero();
    const validators = new Map<string, ValidatorGovInfo>();
    for (const v of this.sk.iterateBondedValidatorsByPower(ctx)) {
      validators.set(v.operator_address, {
        bondedTokens: BigInt(v.tokens || '0'),
        delegatorShares: v.delegator_shares === '' ? Dec.zero() : Dec.fromAtomics(v.delegator_shares),
        deductions: Dec.zero(),
        vote: [],
      });
    }
    for (const { key, value: vote } of this.state.Votes.iterate(ctx, { prefix: [proposal.proposal_id] }).toArray()) {
      const voter = key[1];
      const asValidator = validators.get(this.sk.valCodec.encode(voter));
      if (asValidator) asValidator.vote = vote.options;
      for (const d of this.sk.iterateDelegatorDelegations(ctx, voter)) {
        const val = validators.get(d.validator_address);
        if (!val) continue;
        const shares = d.shares === '' ? Dec.zero() : Dec.fromAtomics(d.shares);
        val.deductions = val.deductions.add(shares);
        const votingPower = shares.mulInt(val.bondedTokens).quo(val.delegatorShares);
        for (const o of vote.options) add(o.option, votingPower.mul(weightOf(o)));
        totalVotingPower = totalVotingPower.add(votingPower);
      }
      this.state.Votes.remove(ctx, key);
    }
    for (const val of validators.values()) {
      if (val.vote.length === 0) continue;
      const votingPower = val.delegatorShares.sub(val.deductions).mulInt(val.bondedTokens).quo(val.delegatorShares);
      for (const o of val.vote) add(o.option, votingPower.mul(weightOf(o)));
      totalVotingPower = totalVotingPower.add(votingPower);
    }
    const r = (o: number): Dec => results.get(o)!;
    const tally: TallyResult = {
      yes: r(VoteOption.VOTE_OPTION_YES).truncateInt().toString(),
      abstain: r(VoteOption.VOTE_OPTION_ABSTAIN).truncateInt().toString(),
      no: r(VoteOption.VOTE_OPTION_NO).truncateInt().toString(),
      no_with_veto: r(VoteOption.VOTE_OPTION_NO_WITH_VETO).truncateInt().toString(),
    };
    const params = this.getParamsValues(ctx);
    const totalBonded = this.sk.totalBondedTokens(ctx);
    if (totalBonded === 0n) return { passes: false, burnDeposits: false, tally };
    const percentVoting = totalVotingPower.quo(Dec.fromInt(totalBonded));
    if (percentVoting.lt(params.quorum)) return { passes: false, burnDeposits: true, tally };
    const nonAbstaining = totalVotingPower.sub(r(VoteOption.VOTE_OPTION_ABSTAIN));
    if (nonAbstaining.isZero()) return { passes: false, burnDeposits: false, tally };
    if (r(VoteOption.VOTE_OPTION_NO_WITH_VETO).quo(totalVotingPower).gt(params.vetoThreshold)) return { passes: false, burnDeposits: true, tally };
    if (r(VoteOption.VOTE_OPTION_YES).quo(nonAbstaining).gt(params.threshold)) return { passes: true, burnDeposits: false, tally };
    return { passes: false, burnDeposits: false, tally };
  }
}
