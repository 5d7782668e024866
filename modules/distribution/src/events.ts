/** Events of the distribution module (x/distribution/types/events.go of SDK v0.45). */
import type { Context } from '@chain/app';

export const EventType = {
  SetWithdrawAddress: 'set_withdraw_address',
  Rewards: 'rewards',
  Commission: 'commission',
  WithdrawRewards: 'withdraw_rewards',
  WithdrawCommission: 'withdraw_commission',
  ProposerReward: 'proposer_reward',
  /** `sdk.EventTypeMessage` */
  Message: 'message',
} as const;

export const AttributeKey = {
  WithdrawAddress: 'withdraw_address',
  Validator: 'validator',
  Amount: 'amount',
  Module: 'module',
  Sender: 'sender',
} as const;

/** `types.AttributeValueCategory` */
export const ATTRIBUTE_VALUE_CATEGORY = 'distribution';

export interface DistributionEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: DistributionEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

const ev = (type: string, ...attributes: [string, string][]): DistributionEvent => ({ type, attributes });

export const setWithdrawAddressEvent = (withdrawAddr: string) => ev(EventType.SetWithdrawAddress, [AttributeKey.WithdrawAddress, withdrawAddr]);
/** `rewards{amount=<DecCoins>, validator}` */
export const rewardsEvent = (amount: string, validator: string) => ev(EventType.Rewards, [AttributeKey.Amount, amount], [AttributeKey.Validator, validator]);
export const commissionEvent = (amount: string, validator: string) => ev(EventType.Commission, [AttributeKey.Amount, amount], [AttributeKey.Validator, validator]);
export const proposerRewardEvent = (amount: string, validator: string) => ev(EventType.ProposerReward, [AttributeKey.Amount, amount], [AttributeKey.Validator, validator]);
/** `withdraw_rewards{amount=<Coins, may be "">, validator}` */
export const withdrawRewardsEvent = (amount: string, validator: string) => ev(EventType.WithdrawRewards, [AttributeKey.Amount, amount], [AttributeKey.Validator, validator]);
export const withdrawCommissionEvent = (amount: string) => ev(EventType.WithdrawCommission, [AttributeKey.Amount, amount]);
/** `message{module=distribution, sender}` */
