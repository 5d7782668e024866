/**
 * The Msg service of distribution (`chain.distribution.v1beta1.Msg`, x/distribution/keeper/msg_server.go and
 * types/msg.go of SDK v0.45): each message's ValidateBasic checks first, then the keeper, then
 * `message{module=distribution, sender}`.
 */
import type { Coin, MsgServer } from '@chain/app';
import { coinsToString, validateCoins } from '@chain/app';
import { Errors } from '@chain/errors';
import { DistributionErrors } from './errors.js';
import type { MsgMethods } from './gen/chain/distribution/v1beta1.js';
import type { DistributionKeeper } from './keeper.js';

export function createMsgServer(k: DistributionKeeper): MsgServer<MsgMethods> {
  /** `sdk.AccAddressFromBech32` / `ValAddressFromBech32` failures: `sdk` 7 with the reason */
  const decode = (codec: { decode(t: string): Uint8Array }, s: string): Uint8Array => {
    try {
      return codec.decode(s);
    } catch (e) {
      throw Errors.InvalidAddress.wrap((e as Error).message);
    }
  };
  const checkCoins = (coins: Coin[]): void => {
    try {
      // `Coins.IsValid` of v0.45: an empty list is valid (the message then moves nothing)
      validateCoins(coins);
    } catch {
      throw Errors.InvalidCoins.wrap(coinsToString(coins));
    }
  };

  return {
    SetWithdrawAddress: (ctx, m) => {
      if (!m.delegator_address) throw DistributionErrors.EmptyDelegatorAddr.error();
      if (!m.withdraw_address) throw DistributionErrors.EmptyWithdrawAddr.error();
      const del = decode(k.accCodec, m.delegator_address);
      const withdraw = decode(k.accCodec, m.withdraw_address);
      k.setWithdrawAddr(ctx, del, withdraw);
      return {};
    },

    WithdrawDelegatorReward: (ctx, m) => {
      if (!m.delegator_address) throw DistributionErrors.EmptyDelegatorAddr.error();
      if (!m.validator_address) throw DistributionErrors.EmptyValidatorAddr.error();
      const val = decode(k.valCodec, m.validator_address);
      const del = decode(k.accCodec, m.delegator_address);
      k.withdrawDelegationRewards(ctx, del, val);
      return {};
    },

    WithdrawValidatorCommission: (ctx, m) => {
      if (!m.validator_address) throw DistributionErrors.EmptyValidatorAddr.error();
      const val = decode(k.valCodec, m.validator_address);
      k.withdrawValidatorCommission(ctx, val);
      return {};
    },

    FundCommunityPool: (ctx, m) => {
      checkCoins(m.amount);
      if (!m.depositor) throw Errors.InvalidAddress.wrap(m.depositor);
      const depositor = decode(k.accCodec, m.depositor);
      k.fundCommunityPool(ctx, m.amount, depositor);
      return {};
    },
  };
}
