export { Prc10Keeper, tokenMetadata, TOKEN_DESCRIPTION, NATIVE_TOKEN_DESCRIPTION } from './keeper.js';
export type { Prc10KeeperOptions } from './keeper.js';
export { Prc10Errors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_PRC10_PARAMS, defaultParams as defaultPrc10Params, validateParams as validatePrc10Params,
  NATIVE_SYMBOL, NATIVE_MIN_UNIT, paramSubspace as prc10ParamSubspace,
} from './params.js';
export type { Prc10Params, Prc10ParamsAccess } from './params.js';
export { feeFactor, issueFee, operateFee } from './fee.js';
export {
  validateSymbol, validateMinUnit, validateName, validateScale, validateInitialSupply, validateAmount, validateKeywords, validateToken, newToken,
  MIN_SYMBOL_LEN, MAX_SYMBOL_LEN, MAX_NAME_LEN, MAXIMUM_SCALE, GENESIS_MAXIMUM_SCALE, MAXIMUM_INIT_SUPPLY, MAXIMUM_MAX_SUPPLY, DO_NOT_MODIFY, KEYWORDS,
} from './token.js';
export type { TokenFields } from './token.js';
export type { GenesisState as Prc10GenesisState, Token } from './gen/chain/prc10.js';
export { EventType as Prc10EventType, AttributeKey as Prc10AttributeKey } from './events.js';
export type { Prc10AccountKeeper, Prc10BankKeeper, DenomMetadata as Prc10DenomMetadata } from './expected-keepers.js';
export { Prc10Module, CONSENSUS_VERSION as PRC10_CONSENSUS_VERSION, PROTO_PACKAGE as PRC10_PROTO_PACKAGE, ORIGINAL_PROTO_PACKAGE as PRC10_ORIGINAL_PROTO_PACKAGE } from './module.js';
export { createMsgServer as createPrc10MsgServer } from './msg-server.js';
export { createQueryServer as createPrc10QueryServer } from './query-server.js';
export { MODULE_NAME as PRC10_MODULE_NAME, STORE_KEY as PRC10_STORE_KEY, PROTO_DIR as PRC10_PROTO_DIR, prc10Schema } from './keys.js';
export type { Prc10State } from './keys.js';
// generated types of chain.prc10 (`chain_prc10.MsgIssueToken`, `Msg`, `Query`, ...)
export { chain_prc10 } from './gen/index.js';
