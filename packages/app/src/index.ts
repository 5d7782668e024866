export { App } from './app.js';
export { queryErrorToAbci } from './query-errors.js';
export type {
  AnteHandler, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse, QueryRequest, QueryResponse, AppOptions,
} from './app.js';
export type { ReplayBlockRequest, BlockReplay } from './replay.js';
export { Context, EventManager, storePrefix } from './context.js';
export type { BlockInfo, ExecMode } from './context.js';
export { BasicGasMeter, InfiniteGasMeter, GasKVStore, OutOfGasError, KV_GAS } from './gas.js';
export type { GasMeter } from './gas.js';
export {
  isValidDenom, validateDenom, parseAmount, coinsToString, validateCoins, parseCoins, parseDecCoins, decToString,
  addCoins, amountOf, DEC_SCALE,
} from './coins.js';
export type { Coin, DecCoin } from './coins.js';
export { Router, createRouter } from './router.js';
export type { MsgRoute, QueryRoute } from './router.js';
export type { AppModule, MsgHandler, QueryHandler, ServiceRegistrar, ValidatorUpdate } from './module.js';
export { paginate, pageParams, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';
export type { PageRequest, PageResponse } from './pagination.js';
