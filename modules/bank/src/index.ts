export { BankKeeper } from './keeper.js';
export type { BankKeeperOptions } from './keeper.js';
export { BankErrors } from './errors.js';
export { DEFAULT_BANK_PARAMS, paramSubspace as bankParamSubspace } from './params.js';
export type { BankParams } from './params.js';
export type { Metadata, GenesisState as BankGenesisState } from './gen/chain/bank/v1beta1.js';
export { EventType as BankEventType, AttributeKey as BankAttributeKey } from './events.js';
export type { BankAccountKeeper } from './expected-keepers.js';
export { BankModule, BANK_PROTO_DIR } from './module.js';
export { createMsgServer as createBankMsgServer } from './msg-server.js';
export { createQueryServer as createBankQueryServer } from './query-server.js';
export { MODULE_NAME as BANK_MODULE_NAME, STORE_KEY as BANK_STORE_KEY, bankSchema } from './keys.js';
export type { BankState } from './keys.js';
// generated types of chain.bank.v1beta1 (`chain_bank_v1beta1.MsgSend`, `Msg`, `Query`, ...)
export * from './gen/index.js';
export { bankSimulation, bankInvariants, nonNegativeBalanceInvariant, totalSupplyInvariant, type BankSimulationOptions } from './simulation.js';
