/**
 * gov in a randomized simulation (x/gov/simulation/operations.go of SDK v0.45): MsgSubmitProposal (a
 * TextProposal with an initial deposit below or at/above the min deposit), MsgDeposit (on proposals in
 * their deposit period, sometimes enough to start the voting, and in their voting period), MsgVote and
 * MsgVoteWeighted (random options, valid weights summing to exactly 1) on proposals in their voting period,
 * each chosen from the keeper's state as the block has it so far; and deliberately invalid ones with the
 * SDK's errors (a blank or too long title, a content type gov does not route, a deposit over the balance or
 * of zero, an unknown proposal, a proposal not in the period the message needs, an invalid option, weights
 * not summing to 1, an option twice, a zero weight, no options). Proposals end in EndBlock (passed,
 * rejected, vetoed, without quorum, dropped) when the chain's deposit and voting periods are short against
 * its block times. The SDK schedules the votes of a proposal as future operations; here the vote
 * operations pick a proposal in its voting period, mostly a voter with delegations (whose vote counts), and
 * mostly the proposal's own leaning option (one per proposal id), so that proposals pass, are rejected and
 * are vetoed. The invariant: `gov/module-account` (src/invariants.ts).
 */
import type { Coin } from '@chain/app';
import { addCoins } from '@chain/app';
import { Errors } from '@chain/errors';
import { amountOfDenom, fails, minCoins, noop, ok, positiveAmount, randomFees, subCoins } from '@chain/simulation';
import type { OperationInput, OperationMsg, OperationResult, SimAccount, SimMsg, SimulationModule, WeightedOperation } from '@chain/simulation';
import { MAX_TITLE_LENGTH } from './content.js';
import { GovErrors } from './errors.js';
import { ProposalStatus, VoteOption } from './gen/chain/gov/v1beta1.js';
import type { Proposal, WeightedVoteOption } from './gen/chain/gov/v1beta1.js';
import { govInvariants } from './invariants.js';
import type { GovKeeper } from './keeper.js';
import { isAllGTE } from './keeper.js';

export interface GovSimulationOptions {
  readonly weights?: {
    readonly submitProposal?: number;
    readonly deposit?: number;
    readonly vote?: number;
    readonly voteWeighted?: number;
  };
}

const T = 'chain.gov.v1beta1.';
const { VOTE_OPTION_YES: YES, VOTE_OPTION_ABSTAIN: ABSTAIN, VOTE_OPTION_NO: NO, VOTE_OPTION_NO_WITH_VETO: VETO } = VoteOption;
const OPTIONS = [YES, ABSTAIN, NO, VETO] as const;
/** the option a proposal's voters mostly choose, by proposal id: some proposals pass, some are rejected, some vetoed */
const LEANINGS = [YES, NO, YES, VETO] as const;
/** 1 as Dec atomics */
const ONE = 10n ** 18n;
const { PROPOSAL_STATUS_DEPOSIT_PERIOD: DEPOSIT_PERIOD, PROPOSAL_STATUS_VOTING_PERIOD: VOTING_PERIOD } = ProposalStatus;

/** gov's operations and invariant for `runSimulation`. */
export function govSimulation(k: GovKeeper, o: GovSimulationOptions = {}): SimulationModule {
  const msg = (type: string, value: object): SimMsg[] => [{ type: T + type, value: value as SimMsg['value'] }];

  /** the signer's balances, the fee it pays (from what CheckTx also sees) and what is left to spend */
  const wallet = (input: OperationInput, signer: SimAccount): { balances: Coin[]; fee: Coin[]; spendable: Coin[] } => {
    const balances = k.bk.getAllBalances(input.ctx, signer.addr);
    const fee = randomFees(input.rand, minCoins(k.bk.getAllBalances(input.committed, signer.addr), balances));
    return { balances, fee, spendable: subCoins(balances, fee) };
  };

  const proposals = (input: OperationInput, ...statuses: number[]): Proposal[] =>
    k.getProposals(input.ctx).filter((p) => statuses.includes(p.status));
  const ended = (input: OperationInput): Proposal[] =>
    k.getProposals(input.ctx).filter((p) => p.status !== DEPOSIT_PERIOD && p.status !== VOTING_PERIOD);
  /** an id no proposal has: past the next id, or one that was dropped (deleted), or 0 */
  const unknownId = (input: OperationInput): bigint => {
    const next = k.getProposalID(input.ctx);
    const r = input.rand.float();
    if (r < 0.1) return 0n;
    if (r < 0.5) {
      const gone: bigint[] = [];
      for (let id = 1n; id < next; id++) if (!k.getProposal(input.ctx, id)) gone.push(id);
      if (gone.length > 0) return input.rand.pick(gone);
    }
    return next + BigInt(input.rand.int(0, 20));
  };

  /**
   * A deposit towards `missing` (what the proposal lacks of the min deposit): half of the time all of it
   * and a little more, else part of it; capped by what the signer can spend; now and then with some of a
   * denom the min deposit does not ask for. Sorted, no zero amounts.
   */
  const randomDeposit = (input: OperationInput, missing: readonly Coin[], spendable: readonly Coin[]): Coin[] => {
    const { rand } = input;
    const cover = rand.bool(0.5);
    let out: Coin[] = [];
    for (const c of missing) {
      const need = BigInt(c.amount);
      if (need <= 0n) continue;
      let amount = cover ? need + rand.bigint(0n, need / 2n) : need > 1n ? rand.bigint(1n, need - 1n) : 0n;
      amount = amount < amountOfDenom(spendable, c.denom) ? amount : amountOfDenom(spendable, c.denom);
      if (amount > 0n) out = addCoins(out, [{ denom: c.denom, amount: amount.toString() }]);
    }
    const others = spendable.filter((c) => !missing.some((m) => m.denom === c.denom) && BigInt(c.amount) / 1000n > 0n);
    if (others.length > 0 && rand.bool(0.2)) {
      const c = rand.pick(others);
      out = addCoins(out, [{ denom: c.denom, amount: positiveAmount(rand, BigInt(c.amount) / 1000n).toString() }]);
    }
    return out;
  };

  /** what `total` lacks of the min deposit, per denom (nothing once met) */
  const missingOf = (input: OperationInput, total: readonly Coin[]): Coin[] =>
    k.getDepositParams(input.ctx).min_deposit
      .map((c) => ({ denom: c.denom, amount: (BigInt(c.amount) - amountOfDenom(total, c.denom)).toString() }))
      .filter((c) => BigInt(c.amount) > 0n);

  /** more of one denom than the signer holds */
  const tooMuch = (input: OperationInput, balances: readonly Coin[]): Coin[] => {
    const denoms = [...new Set([...k.getDepositParams(input.ctx).min_deposit, ...balances].map((c) => c.denom))];
    const denom = input.rand.pick(denoms);
    return [{ denom, amount: (amountOfDenom(balances, denom) + positiveAmount(input.rand, 10n ** 20n)).toString() }];
  };

  /** a zero coin of a denom of the min deposit: not valid coins */
  const zeroCoin = (input: OperationInput): Coin[] => [{ denom: k.getDepositParams(input.ctx).min_deposit[0]?.denom ?? 'stake', amount: '0' }];

  const text = (title: string, description: string, typeUrl?: string) =>
    k.registry.packAny(`${T}TextProposal`, { title, description }, typeUrl);

  const submitProposal = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const signer = rand.pick(input.available);
    const { balances, fee, spendable } = wallet(input, signer);
    const submit = (content: unknown, deposit: Coin[]) => msg('MsgSubmitProposal', { content, initial_deposit: deposit, proposer: signer.address });
    const title = `proposal ${rand.string(1, 40)}`;
    const description = rand.string(1, 200);
    const r = rand.float();
    if (r < 0.04) {
      return { msgs: submit(text(' '.repeat(rand.int(0, 3)), description), []), signer, expect: fails(GovErrors.InvalidProposalContent, 'proposal title cannot be blank'), label: 'blank title' };
    }
    if (r < 0.07) {
      return {
        msgs: submit(text('x'.repeat(MAX_TITLE_LENGTH + rand.int(1, 20)), description), []), signer,
        expect: fails(GovErrors.InvalidProposalContent, `proposal title is longer than max length of ${MAX_TITLE_LENGTH}`), label: 'title too long',
      };
    }
    if (r < 0.1) {
      // a type the registry knows (a gov message) but no content route
      const content = k.registry.packAny(`${T}MsgVote`, { proposal_id: 1n, voter: signer.address, option: YES });
      return { msgs: submit(content, []), signer, expect: fails(GovErrors.InvalidProposalType, `/${T}MsgVote`), label: 'not a content type' };
    }
    if (r < 0.14) {
      return { msgs: submit(text(title, description), tooMuch(input, balances)), signer, expect: fails(Errors.InsufficientFunds), label: 'deposit over the balance' };
    }
    if (r < 0.16) return { msgs: submit(text(title, description), zeroCoin(input)), signer, expect: fails(Errors.InvalidCoins), label: 'zero deposit' };
    const deposit = randomDeposit(input, missingOf(input, []), spendable);
    // the SDK's (cosmjs's) type URL now and then: the registry resolves the alias
    const content = rand.bool(0.1) ? text(title, description, '/cosmos.gov.v1beta1.TextProposal') : text(title, description);
    const voting = isAllGTE(deposit, k.getDepositParams(input.ctx).min_deposit);
    return { msgs: submit(content, deposit), signer, fee, expect: ok(), label: voting ? 'voting started' : 'in deposit period' };
  };

  const deposit = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const signer = rand.pick(input.available);
    const { balances, fee, spendable } = wallet(input, signer);
    const dep = (id: bigint, amount: Coin[]) => msg('MsgDeposit', { proposal_id: id, depositor: signer.address, amount });
    const some = (): Coin[] => [{ denom: k.getDepositParams(ctx).min_deposit[0]?.denom ?? 'stake', amount: '1' }];
    const active = proposals(input, DEPOSIT_PERIOD, VOTING_PERIOD);
    const r = rand.float();
    if (r < 0.06) return { msgs: dep(unknownId(input), some()), signer, expect: fails(GovErrors.UnknownProposal), label: 'unknown proposal' };
    if (r < 0.12) {
      const p = rand.maybePick(ended(input));
      if (!p) return noop('no finished proposal');
      return { msgs: dep(p.proposal_id, some()), signer, expect: fails(GovErrors.InactiveProposal), label: 'finished proposal' };
    }
    if (r < 0.2) {
      const p = rand.maybePick(active);
      if (!p) return noop('no active proposal');
      if (r < 0.17) return { msgs: dep(p.proposal_id, tooMuch(input, balances)), signer, expect: fails(Errors.InsufficientFunds), label: 'over the balance' };
      return { msgs: dep(p.proposal_id, zeroCoin(input)), signer, expect: fails(Errors.InvalidCoins), label: 'zero amount' };
    }
    // mostly towards the min deposit of a proposal in its deposit period, sometimes more in the voting period (allowed in v0.45)
    const inDeposit = active.filter((p) => p.status === DEPOSIT_PERIOD);
    const p = inDeposit.length > 0 && rand.bool(0.85) ? rand.pick(inDeposit) : rand.maybePick(active);
    if (!p) return noop('no active proposal');
    const missing = p.status === DEPOSIT_PERIOD ? missingOf(input, p.total_deposit) : k.getDepositParams(ctx).min_deposit.map((c) => ({ denom: c.denom, amount: (BigInt(c.amount) / 4n).toString() }));
    const amount = randomDeposit(input, missing, spendable);
    if (amount.length === 0) return noop('nothing to deposit');
    const label = p.status === VOTING_PERIOD ? 'in voting period' : isAllGTE(addCoins(p.total_deposit, amount), k.getDepositParams(ctx).min_deposit) ? 'voting started' : 'in deposit period';
    return { msgs: dep(p.proposal_id, amount), signer, fee, expect: ok(), label };
  };

  /**
   * a voter whose vote counts in the tally: half of the time the operator of a bonded validator (it votes
   * for its delegators that do not), else mostly an account with delegations; sometimes any account
   */
  const voter = (input: OperationInput): SimAccount => {
    const { rand, ctx } = input;
    const r = rand.float();
    if (r < 0.5) {
      const operators = [...k.sk.iterateBondedValidatorsByPower(ctx)].map((v) => input.availableByAddr(k.sk.valCodec.decode(v.operator_address))).filter((a) => a !== undefined);
      if (operators.length > 0) return rand.pick(operators);
    }
    if (r < 0.9) {
      const staked = input.available.filter((a) => !k.sk.iterateDelegatorDelegations(ctx, a.addr)[Symbol.iterator]().next().done);
      if (staked.length > 0) return rand.pick(staked);
    }
    return rand.pick(input.available);
  };

  /** the option of a vote on `p`: mostly the proposal's leaning */
  const option = (input: OperationInput, p: Proposal): number =>
    input.rand.bool(0.7) ? LEANINGS[Number(p.proposal_id % BigInt(LEANINGS.length))]! : input.rand.pick(OPTIONS);

  /**
   * The invalid cases shared by both votes: an unknown proposal (`gov` 2), a proposal not in its voting
   * period (`gov` 3); undefined when the draw is a valid vote.
   */
  const badProposal = (input: OperationInput, r: number, lo: number, vote: (signer: SimAccount, id: bigint) => SimMsg[]): OperationResult | undefined => {
    if (r < lo) return undefined;
    const signer = input.rand.pick(input.available);
    if (r < lo + 0.05) return { msgs: vote(signer, unknownId(input)), signer, expect: fails(GovErrors.UnknownProposal), label: 'unknown proposal' };
    if (r < lo + 0.12) {
      const p = input.rand.maybePick([...proposals(input, DEPOSIT_PERIOD), ...ended(input)]);
      if (!p) return noop('no proposal out of its voting period');
      return { msgs: vote(signer, p.proposal_id), signer, expect: fails(GovErrors.InactiveProposal), label: p.status === DEPOSIT_PERIOD ? 'in deposit period' : 'finished proposal' };
    }
    return undefined;
  };

  /** a valid vote on a proposal in its voting period (or a no-op without one) */
  const validVote = (input: OperationInput, vote: (signer: SimAccount, p: Proposal) => SimMsg[]): OperationResult => {
    const p = input.rand.maybePick(proposals(input, VOTING_PERIOD));
    if (!p) return noop('no proposal in voting period');
    const signer = voter(input);
    const previous = k.getVote(input.ctx, p.proposal_id, signer.addr);
    return { msgs: vote(signer, p), signer, fee: wallet(input, signer).fee, expect: ok(), label: previous ? 'vote replaced' : 'ok' };
  };

  /** some proposal id (for a message that fails its ValidateBasic before the proposal is read) */
  const anyId = (input: OperationInput): bigint => input.rand.maybePick(k.getProposals(input.ctx))?.proposal_id ?? 1n;

  const vote = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const v = (signer: SimAccount, id: bigint, opt: number) => msg('MsgVote', { proposal_id: id, voter: signer.address, option: opt });
    const r = rand.float();
    if (r < 0.05) {
      const signer = rand.pick(input.available);
      const bad = rand.bool(0.5) ? VoteOption.VOTE_OPTION_UNSPECIFIED : rand.int(5, 9);
      return { msgs: v(signer, anyId(input), bad), signer, expect: fails(GovErrors.InvalidVote), label: 'invalid option' };
    }
    const bad = badProposal(input, r, 0.05, (signer, id) => v(signer, id, rand.pick(OPTIONS)));
    if (bad) return bad;
    return validVote(input, (signer, p) => v(signer, p.proposal_id, option(input, p)));
  };

  /** `n` positive weights (Dec atomics) summing to exactly 1 */
  const weights = (input: OperationInput, n: number): bigint[] => {
    const cuts = new Set<bigint>();
    while (cuts.size < n - 1) cuts.add(input.rand.bool(0.3) ? BigInt(input.rand.int(1, 9)) * (ONE / 10n) : input.rand.bigint(1n, ONE - 1n));
    const points = [0n, ...[...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), ONE];
    return points.slice(1).map((x, i) => x - points[i]!);
  };

  /** valid weighted options: 1 to 4 distinct options, the proposal's leaning mostly among them */
  const weightedOptions = (input: OperationInput, p: Proposal | undefined): WeightedVoteOption[] => {
    const { rand } = input;
    const chosen = rand.shuffle(OPTIONS).slice(0, rand.int(1, 4));
    if (p && rand.bool(0.6)) {
      const lean = LEANINGS[Number(p.proposal_id % BigInt(LEANINGS.length))]!;
      if (!chosen.includes(lean)) chosen[0] = lean;
    }
    const ws = weights(input, chosen.length).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
    // the leaning (when chosen first) gets the largest weight
    return chosen.map((opt, i) => ({ option: opt, weight: ws[i]!.toString() }));
  };

  const voteWeighted = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const v = (signer: SimAccount, id: bigint, options: WeightedVoteOption[]) => msg('MsgVoteWeighted', { proposal_id: id, voter: signer.address, options });
    const r = rand.float();
    if (r < 0.15) {
      const signer = rand.pick(input.available);
      const id = anyId(input);
      const opts = weightedOptions(input, undefined);
      const refused = (options: WeightedVoteOption[], label: string, log?: string): OperationMsg =>
        ({ msgs: v(signer, id, options), signer, expect: log === undefined ? fails(GovErrors.InvalidVote) : fails(GovErrors.InvalidVote, log), label });
      const last = opts.length - 1;
      const w = (i: number) => BigInt(opts[i]!.weight);
      if (r < 0.04) {
        // one weight lowered: the sum is below 1 (a single option lowered stays in (0, 1])
        if (w(last) < 2n) return noop('weight too small to lower');
        const less = opts.map((x, i) => (i === last ? { ...x, weight: (w(i) - rand.bigint(1n, w(i) - 1n)).toString() } : x));
        return refused(less, 'weights below 1', 'Total weight lower than 1.00');
      }
      if (r < 0.08) {
        if (opts.length < 2) return refused([{ option: opts[0]!.option, weight: (ONE + rand.bigint(1n, ONE)).toString() }], 'a weight over 1');
        // one weight raised, still at most 1 itself: the sum is above 1
        const room = ONE - w(last);
        if (room < 1n) return noop('no room to raise a weight');
        const more = opts.map((x, i) => (i === last ? { ...x, weight: (w(i) + rand.bigint(1n, room)).toString() } : x));
        return refused(more, 'weights above 1', 'Total weight overflow 1.00');
      }
      if (r < 0.1) {
        const opt = rand.pick(OPTIONS);
        return refused([{ option: opt, weight: (ONE / 2n).toString() }, { option: opt, weight: (ONE / 2n).toString() }], 'option twice', 'Duplicated vote option');
      }
      if (r < 0.12) return refused([...opts, { option: rand.maybePick(OPTIONS.filter((x) => !opts.some((y) => y.option === x))) ?? YES, weight: '0' }], 'zero weight');
      if (r < 0.13) return { msgs: v(signer, id, []), signer, expect: fails(Errors.InvalidRequest), label: 'no options' };
      return refused([{ option: rand.bool(0.5) ? VoteOption.VOTE_OPTION_UNSPECIFIED : rand.int(5, 9), weight: ONE.toString() }], 'invalid option');
    }
    const bad = badProposal(input, r, 0.15, (signer, id) => v(signer, id, weightedOptions(input, undefined)));
    if (bad) return bad;
    return validVote(input, (signer, p) => v(signer, p.proposal_id, weightedOptions(input, p)));
  };

  const w = o.weights ?? {};
  const operations: WeightedOperation[] = [
    { name: 'gov/submit-proposal', weight: w.submitProposal ?? 12, op: submitProposal },
    { name: 'gov/deposit', weight: w.deposit ?? 15, op: deposit },
    { name: 'gov/vote', weight: w.vote ?? 35, op: vote },
    { name: 'gov/vote-weighted', weight: w.voteWeighted ?? 15, op: voteWeighted },
  ];
  return {
    name: 'gov',
    operations,
    invariants: Object.entries(govInvariants(k)).map(([route, check]) => ({ name: `gov/${route}`, check })),
  };
}
