export { MintKeeper, FEE_COLLECTOR_NAME as MINT_FEE_COLLECTOR_NAME } from './keeper.js';
export type { MintKeeperOptions } from './keeper.js';
export {
  DEFAULT_PARAMS as DEFAULT_MINT_PARAMS,
  DEFAULT_MINT_DENOM,
  DEFAULT_BLOCKS_PER_YEAR,
  defaultParamsValues as defaultMintParamsValues,
  validateParams as validateMintParams,
  validateParamsValues as validateMintParamsValues,
  paramsFromProto as mintParamsFromProto,
  paramsToProto as mintParamsToProto,
  paramSubspace as mintParamSubspace,
} from './params.js';
export type { MintParamsAccess } from './params.js';
export type { MintParams, MintParamsValues } from './params.js';
export {
  initialMinter,
  defaultInitialMinter,
  validateMinter,
  nextInflationRate,
  nextAnnualProvisions,
  blockProvision,
  minterFromProto,
  minterToProto,
} from './minter.js';
export type { MinterValues } from './minter.js';
export { beginBlocker as mintBeginBlocker } from './abci.js';
export { defaultGenesis as defaultMintGenesis, validateGenesis as validateMintGenesis } from './genesis.js';
export type { GenesisState as MintGenesisState } from './gen/chain/mint/v1beta1.js';
export { EventType as MintEventType, AttributeKey as MintAttributeKey } from './events.js';
export type { MintExpectedKeepers, MintBankKeeper, MintStakingKeeper, MintAccountKeeper } from './expected-keepers.js';
export { MintModule, CONSENSUS_VERSION as MINT_CONSENSUS_VERSION } from './module.js';
export { createQueryServer as createMintQueryServer } from './query-server.js';
export { MODULE_NAME as MINT_MODULE_NAME, STORE_KEY as MINT_STORE_KEY, PROTO_DIR as MINT_PROTO_DIR } from './keys.js';
export type { MintState } from './keys.js';
// generated types of chain.mint.v1beta1 (`chain_mint_v1beta1.Minter`, `Params`, `Query`, ...)
export { chain_mint_v1beta1 } from './gen/index.js';
