export { LiquidityKeeper, newPoolBatch, checkOverflow, checkOverflowWithDec, getCoinsTotalAmount, validateReserveCoinLimit } from './keeper.js';
export type { LiquidityKeeperOptions } from './keeper.js';
export { LiquidityErrors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_LIQUIDITY_PARAMS, defaultParams as defaultLiquidityParams, validateParams as validateLiquidityParams,
  paramSubspace as liquidityParamSubspace, MIN_OFFER_COIN_AMOUNT,
} from './params.js';
export type { LiquidityParams } from './params.js';
export type {
  GenesisState as LiquidityGenesisState, Pool, PoolBatch, SwapMsgState, DepositMsgState, WithdrawMsgState, SwapSuccessMsg, DepositSuccessMsg,
  WithdrawSuccessMsg, MsgSwapWithinBatch, MsgCreatePool, MsgDepositWithinBatch, MsgWithdrawWithinBatch,
} from './gen/chain/liquidity/v1beta1.js';
export { EventType as LiquidityEventType, AttributeKey as LiquidityAttributeKey } from './events.js';
export type { LiquidityAccountKeeper, LiquidityBankKeeper, LiquidityDistributionKeeper } from './expected-keepers.js';
export { LiquidityModule, CONSENSUS_VERSION as LIQUIDITY_CONSENSUS_VERSION } from './module.js';
export { createMsgServer as createLiquidityMsgServer } from './msg-server.js';
export { createQueryServer as createLiquidityQueryServer } from './query-server.js';
export { MODULE_NAME as LIQUIDITY_MODULE_NAME, STORE_KEY as LIQUIDITY_STORE_KEY, PROTO_DIR as LIQUIDITY_PROTO_DIR } from './keys.js';
export type { LiquidityState } from './keys.js';
export { poolName, poolReserveAcc, poolCoinDenom, alphabeticalDenomPair, sortDenoms, getReserveAcc, validatePool } from './pool.js';
export { validateBasicCreatePool, validateBasicDeposit, validateBasicWithdraw, validateBasicSwap } from './msgs.js';
export { validateSdkCoins, validateSdkCoin, validateSdkDenom } from './coins.js';
export {
  validateGenesis as validateLiquidityGenesis, validatePoolRecord, validatePoolRecordState, defaultGenesis as defaultLiquidityGenesis,
  exportGenesis as exportLiquidityGenesis, initGenesis as initLiquidityGenesis,
} from './genesis.js';
export * as liquiditySwap from './swap.js';
// generated types of chain.liquidity.v1beta1
export { chain_liquidity_v1beta1 } from './gen/index.js';
export { escrowAmountInvariant, mintingPoolCoinsInvariant, withdrawAmountInvariant, formatInvariant } from './invariants.js';
