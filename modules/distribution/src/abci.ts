/** BeginBlock of distribution (x/distribution/abci.go of SDK v0.45). */
import type { Context } from '@chain/app';
import { BlockIdFlags } from '@chain/app';
import type { DistributionKeeper } from './keeper.js';

/**
 * 1. total and precommit power of the last commit (`BlockIdFlag` Commit = signed); 2. at height > 1, the
 * fee collector's balance allocated with the previous proposer stored last block; 3. this block's proposer
 * stored for the next block.
 */
export function beginBlocker(ctx: Context, k: DistributionKeeper): void {
  const votes = ctx.comet.lastCommit.votes;
  let previousTotalPower = 0n;
  let sumPreviousPrecommitPower = 0n;
  for (const v of votes) {
    previousTotalPower += v.validator.power;
    if (v.blockIdFlag === BlockIdFlags.Commit) sumPreviousPrecommitPower += v.validator.power;
  }
  if (ctx.block.height > 1) {
    k.allocateTokens(ctx, sumPreviousPrecommitPower, previousTotalPower, k.getPreviousProposerConsAddr(ctx), votes);
  }
  k.setPreviousProposerConsAddr(ctx, ctx.block.proposer);
}
