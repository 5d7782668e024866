/**
 * The Msg service of the liquidity module (`chain.liquidity.v1beta1.Msg`, the original's
 * `tendermint.liquidity.v1beta1.Msg`). Each handler runs the message's ValidateBasic first
 * (x/liquidity/types/msgs.go), then the original msg server's checks in its order
 * (x/liquidity/keeper/msg_server.go: the circuit breaker, except for withdrawals as in the original chain's
 * fork; the pool batch), the keeper's work, then `message{module=liquidity}` and the message's event.
 */
import type { MsgServer } from '@chain/app';
import { coinsToString } from '@chain/app';
import { LiquidityErrors } from './errors.js';
import { AttributeKey as A, EventType, emit, event, messageEvent } from './events.js';
import type { MsgMethods } from './gen/chain/liquidity/v1beta1.js';
import type { LiquidityKeeper } from './keeper.js';
import { validateBasicCreatePool, validateBasicDeposit, validateBasicSwap, validateBasicWithdraw } from './msgs.js';
import { decOf } from './params.js';
import { poolName } from './pool.js';

export function createMsgServer(k: LiquidityKeeper): MsgServer<MsgMethods> {
  const codec = k.ak.addressCodec;
  const isAddress = (text: string): boolean => {
    try {
      codec.decode(text);
      return true;
    } catch {
      return false;
    }
  };
  const circuitBreaker = (ctx: Parameters<MsgServer<MsgMethods>['CreatePool']>[0]): void => {
    if (k.getParams(ctx).circuit_breaker_enabled) throw LiquidityErrors.CircuitBreakerEnabled.error();
  };

  return {
    CreatePool: (ctx, m) => {
      validateBasicCreatePool(m, isAddress);
      circuitBreaker(ctx);
      const pool = k.createPool(ctx, m);
      emit(ctx, messageEvent(), event(EventType.CreatePool, [
        [A.PoolId, String(pool.id)], [A.PoolTypeId, String(m.pool_type_id)], [A.PoolName, poolName(pool.reserve_coin_denoms, pool.type_id)],
        [A.ReserveAccount, pool.reserve_account_address], [A.DepositCoins, coinsToString(m.deposit_coins)], [A.PoolCoinDenom, pool.pool_coin_denom],
      ]));
      return {};
    },

    DepositWithinBatch: (ctx, m) => {
      validateBasicDeposit(m, isAddress);
      circuitBreaker(ctx);
      const batch = k.getBatch(ctx, m.pool_id);
      if (!batch) throw LiquidityErrors.PoolBatchNotExists.error();
      const s = k.depositWithinBatch(ctx, m);
      emit(ctx, messageEvent(), event(EventType.DepositWithinBatch, [
        [A.PoolId, String(m.pool_id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(s.msg_index)], [A.DepositCoins, coinsToString(m.deposit_coins)],
      ]));
      return {};
    },

    WithdrawWithinBatch: (ctx, m) => {
      const poolCoin = validateBasicWithdraw(m, isAddress);
      // no circuit breaker: the original chain's fork has that check commented out, withdrawals always work
      const batch = k.getBatch(ctx, m.pool_id);
      if (!batch) throw LiquidityErrors.PoolBatchNotExists.error();
      const s = k.withdrawWithinBatch(ctx, m);
      emit(ctx, messageEvent(), event(EventType.WithdrawWithinBatch, [
        [A.PoolId, String(m.pool_id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(s.msg_index)],
        [A.PoolCoinDenom, poolCoin.denom], [A.PoolCoinAmount, poolCoin.amount],
      ]));
      return {};
    },

    Swap: (ctx, m) => {
      const offer = validateBasicSwap(m, isAddress);
      if (!m.offer_coin_fee) m.offer_coin_fee = { denom: '', amount: '0' };
      circuitBreaker(ctx);
      const batch = k.getBatch(ctx, m.pool_id);
      if (!batch) throw LiquidityErrors.PoolBatchNotExists.error();
      const s = k.swapWithinBatch(ctx, m);
      emit(ctx, messageEvent(), event(EventType.SwapWithinBatch, [
        [A.PoolId, String(m.pool_id)], [A.BatchIndex, String(batch.index)], [A.MsgIndex, String(s.msg_index)], [A.SwapTypeId, String(m.swap_type_id)],
        [A.OfferCoinDenom, offer.denom], [A.OfferCoinAmount, offer.amount], [A.OfferCoinFeeAmount, m.offer_coin_fee.amount],
        [A.DemandCoinDenom, m.demand_coin_denom], [A.OrderPrice, decOf(m.order_price).toString()],
      ]));
      return {};
    },
  };
}
