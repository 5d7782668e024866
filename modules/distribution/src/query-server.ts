/**
 * The Query service of distribution (`chain.distribution.v1beta1.Query`, x/distribution/keeper/grpc_query.go
 * of SDK v0.45). Rewards are computed as if withdrawn now: the period is incremented on a throw-away branch.
 */
import type { Context, QueryServer } from '@chain/app';
import { pageParams } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import { DecCoins } from '@chain/math';
import { branch } from '@chain/store';
import { DistributionErrors } from './errors.js';
import type { QueryMethods, ValidatorSlashEvent } from './gen/chain/distribution/v1beta1.js';
import type { DistributionKeeper } from './keeper.js';

const invalid = (msg: string) => statusError(GrpcCode.INVALID_ARGUMENT, msg);

export function createQueryServer(k: DistributionKeeper): QueryServer<QueryMethods> {
  /** `CacheContext()`: writes go to a branch that is dropped */
  const cacheCtx = (ctx: Context): Context => ctx.withStore(branch(ctx.ms));
  // an address that does not decode is InvalidArgument (HTTP 400); v0.45 returns the bare bech32 error (500)
  const decoded = (codec: { decode(s: string): Uint8Array }, s: string, what: string): Uint8Array => {
    try {
      return codec.decode(s);
    } catch (e) {
      throw invalid(`invalid ${what} address: ${(e as Error).message}`);
    }
  };
  const valAddr = (s: string): Uint8Array => {
    if (!s) throw invalid('empty validator address');
    return decoded(k.valCodec, s, 'validator');
  };
  const delAddr = (s: string): Uint8Array => {
    if (!s) throw invalid('empty delegator address');
    return decoded(k.accCodec, s, 'delegator');
  };

  return {
    Params: (ctx) => ({ params: k.getParamsProto(ctx) }),

    ValidatorOutstandingRewards: (ctx, req) => ({ rewards: { rewards: k.getOutstandingRewards(ctx, valAddr(req.validator_address)).toProto() } }),

    ValidatorCommission: (ctx, req) => ({ commission: { commission: k.getAccumulatedCommission(ctx, valAddr(req.validator_address)).toProto() } }),

    ValidatorSlashes: (ctx, req) => {
      if (!req.validator_address) throw invalid('empty validator address');
      if (req.ending_height < req.starting_height) {
        throw invalid(`starting height greater than ending height (${req.starting_height} > ${req.ending_height})`);
      }
      let val: Uint8Array;
      try {
        val = k.valCodec.decode(req.validator_address);
      } catch {
        throw invalid('invalid validator address');
      }
      // v0.45 filters on the event's validator_period (sic) against the height bounds
      const all: ValidatorSlashEvent[] = [];
      for (const { value } of k.state.SlashEvents.iterate(ctx, { prefix: [val] })) {
        if (value.validator_period < req.starting_height || value.validator_period > req.ending_height) continue;
        all.push(value);
      }
      const { offset, limit, countTotal, reverse } = pageParams(req.pagination);
      const ordered = reverse ? [...all].reverse() : all;
      const slashes = ordered.slice(offset, offset + limit);
      return { slashes, pagination: { next_key: null, total: countTotal ? BigInt(all.length) : 0n } };
    },

    DelegationRewards: (ctx0, req) => {
      const ctx = cacheCtx(ctx0);
      if (!req.delegator_address) throw invalid('empty delegator address');
      if (!req.validator_address) throw invalid('empty validator address');
      const v = valAddr(req.validator_address);
      const val = k.sk.getValidator(ctx, v);
      if (!val) throw DistributionErrors.NoValidatorExists.wrap(req.validator_address);
      const d = delAddr(req.delegator_address);
      const del = k.sk.getDelegation(ctx, d, v);
      if (!del) throw DistributionErrors.NoDelegationExists.error();
      const endingPeriod = k.incrementValidatorPeriod(ctx, val);
      return { rewards: k.calculateDelegationRewards(ctx, val, del, endingPeriod).toProto() };
    },

    DelegationTotalRewards: (ctx0, req) => {
      const ctx = cacheCtx(ctx0);
      const d = delAddr(req.delegator_address);
      let total = DecCoins.empty();
      const rewards = [];
      for (const del of k.sk.iterateDelegatorDelegations(ctx, d)) {
        const val = k.sk.getValidator(ctx, k.valCodec.decode(del.validator_address));
        if (!val) continue;
        const endingPeriod = k.incrementValidatorPeriod(ctx, val);
        const reward = k.calculateDelegationRewards(ctx, val, del, endingPeriod);
        rewards.push({ validator_address: del.validator_address, reward: reward.toProto() });
        total = total.add(reward);
      }
      return { rewards, total: total.toProto() };
    },

    DelegatorValidators: (ctx, req) => {
      const d = delAddr(req.delegator_address);
      const validators: string[] = [];
      for (const del of k.sk.iterateDelegatorDelegations(ctx, d)) validators.push(del.validator_address);
      return { validators };
    },

    DelegatorWithdrawAddress: (ctx, req) => {
      const d = delAddr(req.delegator_address);
      return { withdraw_address: k.accCodec.encode(k.getDelegatorWithdrawAddr(ctx, d)) };
    },

    CommunityPool: (ctx) => ({ pool: k.getFeePoolCommunityCoins(ctx).toProto() }),
  };
}
