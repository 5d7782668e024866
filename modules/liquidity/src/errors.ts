/**
 * Registered errors of the liquidity module: codespace `liquidity`, the codes and descriptions of
 * tendermint/liquidity v1.4.5 (x/liquidity/types/errors.go), code 1 included, as the original registered it.
 */
import { GrpcCode, registerError } from '@chain/errors';

const M = 'liquidity';
const C = GrpcCode;

export const LiquidityErrors = {
  PoolNotExists: registerError(M, 1, 'pool not exists', C.NOT_FOUND),
  PoolTypeNotExists: registerError(M, 2, 'pool type not exists'),
  EqualDenom: registerError(M, 3, 'reserve coin denomination are equal'),
  InvalidDenom: registerError(M, 4, 'invalid denom'),
  NumOfReserveCoin: registerError(M, 5, 'invalid number of reserve coin'),
  NumOfPoolCoin: registerError(M, 6, 'invalid number of pool coin'),
  InsufficientPool: registerError(M, 7, 'insufficient pool'),
  InsufficientBalance: registerError(M, 8, 'insufficient coin balance'),
  LessThanMinInitDeposit: registerError(M, 9, 'deposit coin less than MinInitDepositAmount'),
  NotImplementedYet: registerError(M, 10, 'not implemented yet'),
  PoolAlreadyExists: registerError(M, 11, 'the pool already exists'),
  PoolBatchNotExists: registerError(M, 12, 'pool batch not exists'),
  OrderBookInvalidity: registerError(M, 13, 'orderbook is not validity'),
  BatchNotExecuted: registerError(M, 14, 'the liquidity pool batch is not executed'),
  InvalidPoolCreatorAddr: registerError(M, 15, 'invalid pool creator address'),
  InvalidDepositorAddr: registerError(M, 16, 'invalid pool depositor address'),
  InvalidWithdrawerAddr: registerError(M, 17, 'invalid pool withdrawer address'),
  InvalidSwapRequesterAddr: registerError(M, 18, 'invalid pool swap requester address'),
  BadPoolCoinAmount: registerError(M, 19, 'invalid pool coin amount'),
  BadDepositCoinsAmount: registerError(M, 20, 'invalid deposit coins amount'),
  BadOfferCoinAmount: registerError(M, 21, 'invalid offer coin amount'),
  BadOrderingReserveCoin: registerError(M, 22, 'reserve coin denoms not ordered alphabetical'),
  BadOrderPrice: registerError(M, 23, 'invalid order price'),
  NumOfReserveCoinDenoms: registerError(M, 24, 'invalid reserve coin denoms'),
  EmptyReserveAccountAddress: registerError(M, 25, 'empty reserve account address'),
  EmptyPoolCoinDenom: registerError(M, 26, 'empty pool coin denom'),
  BadOrderingReserveCoinDenoms: registerError(M, 27, 'bad ordering reserve coin denoms'),
  BadReserveAccountAddress: registerError(M, 28, 'bad reserve account address'),
  BadPoolCoinDenom: registerError(M, 29, 'bad pool coin denom'),
  InsufficientPoolCreationFee: registerError(M, 30, 'insufficient balances for pool creation fee'),
  ExceededMaxOrderable: registerError(M, 31, 'can not exceed max order ratio of reserve coins that can be ordered at a order'),
  BadBatchMsgIndex: registerError(M, 32, 'bad msg index of the batch'),
  SwapTypeNotExists: registerError(M, 33, 'swap type not exists'),
  LessThanMinOfferAmount: registerError(M, 34, 'offer amount should be over 100 micro'),
  BadOfferCoinFee: registerError(M, 35, 'bad offer coin fee'),
  NotMatchedReserveCoin: registerError(M, 36, 'does not match the reserve coin of the pool'),
  BadPoolTypeID: registerError(M, 37, 'invalid index of the pool type'),
  ExceededReserveCoinLimit: registerError(M, 38, 'can not exceed reserve coin limit amount'),
  DepletedPool: registerError(M, 39, 'the pool is depleted of reserve coin, reinitializing is required by deposit'),
  CircuitBreakerEnabled: registerError(M, 40, 'circuit breaker is triggered'),
  OverflowAmount: registerError(M, 41, 'invalid amount that can cause overflow'),
};
