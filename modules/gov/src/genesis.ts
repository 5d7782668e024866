/** gov genesis (x/gov/genesis.go, types/genesis.go of SDK v0.45): default, validation, InitGenesis, ExportGenesis. */
import type { Coin, Context } from '@chain/app';
import { addCoins, coinsToString } from '@chain/app';
import { Dec } from '@chain/math';
import type { GenesisState } from './gen/chain/gov/v1beta1.js';
import { ProposalStatus } from './gen/chain/gov/v1beta1.js';
import type { GovKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { decOfBytes, defaultParams, validateParamsValues } from './params.js';
import { durationNanos } from './time.js';

export type { GenesisState };

/** `DefaultGenesisState`: starting proposal id 1, no proposals, the default params. */
export function defaultGenesis(): GenesisState {
  const p = defaultParams();
  return {
    starting_proposal_id: 1n,
    deposits: [],
    votes: [],
    proposals: [],
    deposit_params: p.deposit_params,
    voting_params: p.voting_params,
    tally_params: p.tally_params,
  };
}

/**
 * `ValidateGenesis` of v0.45 (its messages): threshold and veto threshold in [0, 1], min deposit valid
 * coins; then the param validators (periods positive, thresholds positive), which the subspace runs when
 * InitGenesis sets the params.
 */
export function validateGenesis(gen: GenesisState): void {
  const threshold = decOfBytes(gen.tally_params?.threshold);
  if (threshold.isNegative() || threshold.gt(Dec.one())) {
    throw new Error(`governance vote threshold should be positive and less or equal to one, is ${threshold}`);
  }
  const veto = decOfBytes(gen.tally_params?.veto_threshold);
  if (veto.isNegative() || veto.gt(Dec.one())) {
    throw new Error(`governance vote veto threshold should be positive and less or equal to one, is ${veto}`);
  }
  const minDeposit = gen.deposit_params?.min_deposit ?? [];
  try {
    validateParamsValues({
      minDeposit,
      maxDepositPeriod: durationNanos(gen.deposit_params?.max_deposit_period ?? null),
      votingPeriod: durationNanos(gen.voting_params?.voting_period ?? null),
      quorum: decOfBytes(gen.tally_params?.quorum),
      threshold,
      vetoThreshold: veto,
    });
  } catch (e) {
    if ((e as Error).message.startsWith('invalid minimum deposit')) {
      throw new Error(`governance deposit amount must be a valid sdk.Coins amount, is ${coinsToString(minDeposit)}`);
    }
    throw e;
  }
}

/**
 * `InitGenesis`: the next proposal id and the params; deposits, votes, proposals (deposit-period ones
 * queued in the inactive queue, voting-period ones in the active queue); the gov module account is created
 * if missing, and its balance must equal the sum of the deposits (else `expected module account was
 * <balance> but we got <deposits>`, as v0.45).
 */
export function initGenesis(ctx: Context, k: GovKeeper, gen: GenesisState): void {
  k.setProposalID(ctx, gen.starting_proposal_id);
  k.setParams(ctx, { deposit_params: gen.deposit_params, voting_params: gen.voting_params, tally_params: gen.tally_params });
  const macc = k.ak.ensureModuleAccount(ctx, MODULE_NAME);
  let totalDeposits: Coin[] = [];
  for (const d of gen.deposits) {
    k.setDeposit(ctx, d);
    totalDeposits = addCoins(totalDeposits, d.amount);
  }
  for (const v of gen.votes) k.setVote(ctx, v);
  for (const p of gen.proposals) {
    if (p.status === ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD) k.insertInactiveProposalQueue(ctx, p.proposal_id, p.deposit_end_time);
    else if (p.status === ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD) k.insertActiveProposalQueue(ctx, p.proposal_id, p.voting_end_time);
    k.setProposal(ctx, p);
  }
  const balance = k.bk.getAllBalances(ctx, macc);
  if (coinsToString(balance) !== coinsToString(totalDeposits)) {
    throw new Error(`expected module account was ${coinsToString(balance)} but we got ${coinsToString(totalDeposits)}`);
  }
}

/**
 * `ExportGenesis`: the next id, the params, every proposal, and the deposits and votes of each (votes with
 * the legacy option filled in). Walks the schema so that a collection added to src/keys.ts without a
 * place here makes the export throw; the queues are derived from the proposals (InitGenesis rebuilds them).
 */
export function exportGenesis(ctx: Context, k: GovKeeper): GenesisState {
  const left = k.state.schema.collections().filter((c) => !c.isIndex && !EXPORTED.has(c.name)).map((c) => c.name);
  if (left.length > 0) throw new Error(`gov genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  const proposals = k.getProposals(ctx);
  const p = k.getParams(ctx);
  return {
    starting_proposal_id: k.state.ProposalID.get(ctx) ?? 0n,
    deposits: proposals.flatMap((x) => k.getDeposits(ctx, x.proposal_id)),
    votes: proposals.flatMap((x) => k.getVotes(ctx, x.proposal_id)),
    proposals,
    deposit_params: p.deposit_params,
    voting_params: p.voting_params,
    tally_params: p.tally_params,
  };
}

/** The collections the export covers (the two queues are derived from the proposals). */
const EXPORTED = new Set(['proposals', 'deposits', 'votes', 'proposal_id', 'params', 'active_proposal_queue', 'inactive_proposal_queue']);
