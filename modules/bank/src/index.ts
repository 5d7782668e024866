export { BankKeeper, BankErrors, DEFAULT_BANK_PARAMS } from './keeper.js';
export type { BankParams, Metadata, BankKeeperOptions } from './keeper.js';
export type { BankAccountKeeper } from './expected-keepers.js';
export { BankModule, BANK_PROTO_DIR } from './module.js';
export { MODULE_NAME as BANK_MODULE_NAME, STORE_KEY as BANK_STORE_KEY } from './keys.js';
