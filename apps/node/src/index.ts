export { Node } from './node.js';
export { createChainApp, VERSION, NODE_PROTO_DIR } from './app.js';
export type { ChainApp, ChainAppOptions } from './app.js';
export { CHAIN_APP_CONFIG } from './app-config.js';
export { loadConfig, applyFlags, parseDurationMs, parseListenAddress } from './config/config.js';
export type { NodeConfig } from './config/config.js';
export { initHome, devAccounts, DEV_CHAIN_ID, BECH32_PREFIX, BASE_DENOM, DEV_BALANCE, DEV_MIN_GAS_PRICES } from './config/init.js';
export type { DevAccount } from './config/init.js';
export { createLogger } from './logger.js';
