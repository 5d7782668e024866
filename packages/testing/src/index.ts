/** @chain/testing: the shared test harness of module and infrastructure tests. */
export { TestChain, GENESIS_TIME, blockHashOf } from './chain.js';
export type { TestChainOptions, BlockOptions } from './chain.js';
export { testAppConfig } from './config.js';
export { devKey, devEthKey } from './keys.js';
export type { DevKey } from './keys.js';
export { buildTx, pubKeyAny } from './tx.js';
export type { TxSigner, TxOptions } from './tx.js';
export { tempDir } from './tmp.js';
