/**
 * Events of the liquidity module (x/liquidity/types/events.go of the original): the tx-time events
 * `create_pool`, `deposit_within_batch`, `withdraw_within_batch`, `swap_within_batch` (each after
 * `message{module=liquidity}`), and the EndBlock events `deposit_to_pool`, `withdraw_from_pool`,
 * `swap_transacted` with `success` = `success` / `failure`.
 */
import type { Context } from '@chain/app';

export const EventType = {
  Message: 'message',
  CreatePool: 'create_pool',
  DepositWithinBatch: 'deposit_within_batch',
  WithdrawWithinBatch: 'withdraw_within_batch',
  SwapWithinBatch: 'swap_within_batch',
  DepositToPool: 'deposit_to_pool',
  WithdrawFromPool: 'withdraw_from_pool',
  SwapTransacted: 'swap_transacted',
} as const;

export const AttributeKey = {
  Module: 'module',
  PoolId: 'pool_id',
  PoolTypeId: 'pool_type_id',
  PoolName: 'pool_name',
  ReserveAccount: 'reserve_account',
  PoolCoinDenom: 'pool_coin_denom',
  PoolCoinAmount: 'pool_coin_amount',
  BatchIndex: 'batch_index',
  MsgIndex: 'msg_index',
  DepositCoins: 'deposit_coins',
  OfferCoinDenom: 'offer_coin_denom',
  OfferCoinAmount: 'offer_coin_amount',
  OfferCoinFeeAmount: 'offer_coin_fee_amount',
  ExchangedCoinFeeAmount: 'exchanged_coin_fee_amount',
  DemandCoinDenom: 'demand_coin_denom',
  OrderPrice: 'order_price',
  Depositor: 'depositor',
  RefundedCoins: 'refunded_coins',
  AcceptedCoins: 'accepted_coins',
  Success: 'success',
  Withdrawer: 'withdrawer',
  WithdrawCoins: 'withdraw_coins',
  WithdrawFeeCoins: 'withdraw_fee_coins',
  SwapRequester: 'swap_requester',
  SwapTypeId: 'swap_type_id',
  SwapPrice: 'swap_price',
  TransactedCoinAmount: 'transacted_coin_amount',
  RemainingOfferCoinAmount: 'remaining_offer_coin_amount',
  ExchangedOfferCoinAmount: 'exchanged_offer_coin_amount',
  ExchangedDemandCoinAmount: 'exchanged_demand_coin_amount',
  ReservedOfferCoinFeeAmount: 'reserved_offer_coin_fee_amount',
  OrderExpiryHeight: 'order_expiry_height',
} as const;

export const SUCCESS = 'success';
export const FAILURE = 'failure';

/** An event before it is emitted: its type and its attributes in order. */
export interface LiquidityEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, ...events: LiquidityEvent[]): void {
  for (const e of events) ctx.events.emit(e.type, e.attributes);
}

export const event = (type: string, attributes: [string, string][]): LiquidityEvent => ({ type, attributes });

/** `message{module=liquidity}`, emitted by every message before its own event. */
export const messageEvent = (): LiquidityEvent => event(EventType.Message, [[AttributeKey.Module, 'liquidity']]);
