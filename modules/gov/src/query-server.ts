/**
 * The Query service of gov (`chain.gov.v1beta1.Query`), as Cosmos SDK v0.45 x/gov/keeper/grpc_query.go:
 * the same iteration (and so the same order and page keys), filters, error codes and messages. One
 * deliberate difference: an address that does not decode is InvalidArgument (`invalid voter address: …`),
 * where v0.45 returns the bare bech32 error (gRPC Unknown / Internal, HTTP 500).
 */
import type { Context, QueryServer } from '@chain/app';
import { paginateCollection } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import { branch } from '@chain/store';
import type { Proposal, QueryMethods, TallyResult } from './gen/chain/gov/v1beta1.js';
import { ProposalStatus } from './gen/chain/gov/v1beta1.js';
import { emptyTallyResult } from './keeper.js';
import type { GovKeeper } from './keeper.js';
import { depositParamsOf, tallyParamsOf, votingParamsOf } from './params.js';
import { populateLegacyOption } from './votes.js';

/** `ParamDeposit`, `ParamVoting`, `ParamTallying` */
export const PARAMS_TYPES = ['deposit', 'voting', 'tallying'] as const;

/** `ValidProposalStatus`: deposit, voting, passed, rejected, failed. */
function validProposalStatus(s: number): boolean {
  return s >= ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD && s <= ProposalStatus.PROPOSAL_STATUS_FAILED;
}

const ZERO_DEC = new TextEncoder().encode('0');

/**
 * The tally of a proposal as the TallyResult query reports it: zero in its deposit period, the stored
 * final result once passed or rejected, otherwise (voting, failed) computed now on a throwaway branch
 * (the tally deletes the votes it counts).
 */
export function currentTally(ctx: Context, k: GovKeeper, p: Proposal): TallyResult {
  if (p.status === ProposalStatus.PROPOSAL_STATUS_DEPOSIT_PERIOD) return emptyTallyResult();
  if (p.status === ProposalStatus.PROPOSAL_STATUS_PASSED || p.status === ProposalStatus.PROPOSAL_STATUS_REJECTED) {
    return p.final_tally_result ?? emptyTallyResult();
  }
  return k.tally(ctx.withStore(branch(ctx.ms)), p).tally;
}

export function createQueryServer(k: GovKeeper): QueryServer<QueryMethods> {
  const proposalId = (id: bigint): bigint => {
    if (id === 0n) throw statusError(GrpcCode.INVALID_ARGUMENT, 'proposal id can not be 0');
    return id;
  };
  const address = (text: string, what: string): Uint8Array => {
    if (!text) throw statusError(GrpcCode.INVALID_ARGUMENT, `empty ${what} address`);
    try {
      return k.accCodec.decode(text);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid ${what} address: ${(e as Error).message}`);
    }
  };

  return {
    Proposal: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const proposal = k.getProposal(ctx, id);
      if (!proposal) throw statusError(GrpcCode.NOT_FOUND, `proposal ${id} doesn't exist`);
      return { proposal };
    },

    Proposals: (ctx, req) => {
      const voter = req.voter ? address(req.voter, 'voter') : undefined;
      const depositor = req.depositor ? address(req.depositor, 'depositor') : undefined;
      const byStatus = validProposalStatus(req.proposal_status);
      const { items, pagination } = paginateCollection(ctx, k.state.Proposals, undefined, req.pagination, (_id, p) => {
        if (byStatus && p.status !== req.proposal_status) return undefined;
        if (voter && !k.state.Votes.has(ctx, [p.proposal_id, voter])) return undefined;
        if (depositor && !k.state.Deposits.has(ctx, [p.proposal_id, depositor])) return undefined;
        return p;
      });
      return { proposals: items, pagination };
    },

    Vote: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const voter = address(req.voter, 'voter');
      const vote = k.getVote(ctx, id, voter);
      if (!vote) throw statusError(GrpcCode.INVALID_ARGUMENT, `voter: ${req.voter} not found for proposal: ${id}`);
      return { vote };
    },

    Votes: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const { items, pagination } = paginateCollection(ctx, k.state.Votes, [id], req.pagination, (_k, v) => populateLegacyOption(v));
      return { votes: items, pagination };
    },

    Params: (ctx, req) => {
      const v = k.getParamsValues(ctx);
      const empty = {
        voting_params: { voting_period: { seconds: 0n, nanos: 0 } },
        deposit_params: { min_deposit: [], max_deposit_period: { seconds: 0n, nanos: 0 } },
        tally_params: { quorum: ZERO_DEC, threshold: ZERO_DEC, veto_threshold: ZERO_DEC },
      };
      switch (req.params_type) {
        case 'deposit':
          return { ...empty, deposit_params: depositParamsOf(v) };
        case 'voting':
          return { ...empty, voting_params: votingParamsOf(v) };
        case 'tallying':
          return { ...empty, tally_params: tallyParamsOf(v) };
        default:
          throw statusError(GrpcCode.INVALID_ARGUMENT, `${req.params_type} is not a valid parameter type`);
      }
    },

    Deposit: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const depositor = address(req.depositor, 'depositor');
      const deposit = k.getDeposit(ctx, id, depositor);
      // "depositer" (sic), as v0.45
      if (!deposit) throw statusError(GrpcCode.INVALID_ARGUMENT, `depositer: ${req.depositor} not found for proposal: ${id}`);
      return { deposit };
    },

    Deposits: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const { items, pagination } = paginateCollection(ctx, k.state.Deposits, [id], req.pagination, (_k, d) => d);
      return { deposits: items, pagination };
    },

    TallyResult: (ctx, req) => {
      const id = proposalId(req.proposal_id);
      const proposal = k.getProposal(ctx, id);
      if (!proposal) throw statusError(GrpcCode.NOT_FOUND, `proposal ${id} doesn't exist`);
      return { tally: currentTally(ctx, k, proposal) };
    },
  };
}

