/**
 * The messages' ValidateBasic (x/liquidity/types/msgs.go of tendermint/liquidity v1.4.5), each check in the
 * original's order. The coins are checked by the SDK's (v0.45) `Coin.Validate` / `Coins.Validate` (src/coins.ts)
 * with their messages, which the original returns as they are; here those are sdk 10 (invalid coins) wrapping the
 * original's message (`invalid denom: -: invalid coins`), where the original returned a plain error (README,
 * Differences).
 */
import type { Coin } from '@chain/app';
import { coinAmount, validateSdkCoin, validateSdkCoins } from './coins.js';
import { LiquidityErrors } from './errors.js';
import type { MsgCreatePool, MsgDepositWithinBatch, MsgSwapWithinBatch, MsgWithdrawWithinBatch } from './gen/chain/liquidity/v1beta1.js';
import { MAX_RESERVE_COIN_NUM, MIN_OFFER_COIN_AMOUNT, MIN_RESERVE_COIN_NUM, decOf } from './params.js';

/** Whether `text` is an account address (`sdk.AccAddressFromBech32` without error). */
export type IsAddress = (text: string) => boolean;

const reserveCoinNum = (n: number): void => {
  if (n > MAX_RESERVE_COIN_NUM || n < MIN_RESERVE_COIN_NUM) throw LiquidityErrors.NumOfReserveCoin.error();
};

/** `MsgCreatePool.ValidateBasic`: type id ≥ 1 (37), creator (15), coins, 2 coins (5). */
export function validateBasicCreatePool(m: MsgCreatePool, isAddress: IsAddress): void {
  if (1 > m.pool_type_id) throw LiquidityErrors.BadPoolTypeID.error();
  if (!isAddress(m.pool_creator_address)) throw LiquidityErrors.InvalidPoolCreatorAddr.error();
  validateSdkCoins(m.deposit_coins);
  reserveCoinNum(m.deposit_coins.length);
}

/** `MsgDepositWithinBatch.ValidateBasic`: depositor (16), coins, all positive (20), 2 coins (5). */
export function validateBasicDeposit(m: MsgDepositWithinBatch, isAddress: IsAddress): void {
  if (!isAddress(m.depositor_address)) throw LiquidityErrors.InvalidDepositorAddr.error();
  validateSdkCoins(m.deposit_coins);
  // `Coins.IsAllPositive`: false for no coins
  if (m.deposit_coins.length === 0 || m.deposit_coins.some((c) => coinAmount(c) <= 0n)) throw LiquidityErrors.BadDepositCoinsAmount.error();
  reserveCoinNum(m.deposit_coins.length);
}

/** `MsgWithdrawWithinBatch.ValidateBasic`: withdrawer (17), coin, positive (19). */
export function validateBasicWithdraw(m: MsgWithdrawWithinBatch, isAddress: IsAddress): Coin {
  if (!isAddress(m.withdrawer_address)) throw LiquidityErrors.InvalidWithdrawerAddr.error();
  const poolCoin = validateSdkCoin(m.pool_coin);
  if (coinAmount(poolCoin) <= 0n) throw LiquidityErrors.BadPoolCoinAmount.error();
  return poolCoin;
}

/** `MsgSwapWithinBatch.ValidateBasic`: requester (18), coin, positive (21), price > 0 (23), offer ≥ 100 (34). */
export function validateBasicSwap(m: MsgSwapWithinBatch, isAddress: IsAddress): Coin {
  if (!isAddress(m.swap_requester_address)) throw LiquidityErrors.InvalidSwapRequesterAddr.error();
  const offer = validateSdkCoin(m.offer_coin);
  if (coinAmount(offer) <= 0n) throw LiquidityErrors.BadOfferCoinAmount.error();
  if (!decOf(m.order_price).isPositive()) throw LiquidityErrors.BadOrderPrice.error();
  if (coinAmount(offer) < MIN_OFFER_COIN_AMOUNT) throw LiquidityErrors.LessThanMinOfferAmount.error();
  return offer;
}
