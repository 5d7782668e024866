export {
  SlashingKeeper, AddressCodec as SlashingAddressCodec, VALIDATOR_UPDATE_DELAY, DOUBLE_SIGN_JAIL_END_TIME, UNIX_EPOCH,
  newSigningInfo, tokensFromShares, timestampOfDate, timestampNanos,
} from './keeper.js';
export type { SlashingKeeperOptions } from './keeper.js';
export { SlashingErrors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_SLASHING_PARAMS, defaultParams as defaultSlashingParams, defaultParamsValues as defaultSlashingParamsValues,
  validateParams as validateSlashingParams, validateParamsValues as validateSlashingParamsValues,
  paramsFromProto as slashingParamsFromProto, paramsToProto as slashingParamsToProto, goDurationString,
  paramSubspace as slashingParamSubspace,
} from './params.js';
export type { SlashingParamsAccess } from './params.js';
export type { SlashingParams, SlashingParamsValues } from './params.js';
export type { GenesisState as SlashingGenesisState } from './gen/chain/slashing/v1beta1.js';
export { defaultGenesis as defaultSlashingGenesis, validateGenesis as validateSlashingGenesis } from './genesis.js';
export { EventType as SlashingEventType, AttributeKey as SlashingAttributeKey, AttributeValue as SlashingAttributeValue } from './events.js';
export type { SlashingStakingKeeper, StakingValidator, StakingDelegation } from './expected-keepers.js';
export { SlashingModule, CONSENSUS_VERSION as SLASHING_CONSENSUS_VERSION } from './module.js';
export { createMsgServer as createSlashingMsgServer } from './msg-server.js';
export { createQueryServer as createSlashingQueryServer } from './query-server.js';
export {
  MODULE_NAME as SLASHING_MODULE_NAME, STORE_KEY as SLASHING_STORE_KEY, PROTO_DIR as SLASHING_PROTO_DIR, slashingSchema,
} from './keys.js';
export type { SlashingState } from './keys.js';
// generated types of chain.slashing.v1beta1 (`chain_slashing_v1beta1.MsgUnjail`, `Msg`, `Query`, ...)
export { chain_slashing_v1beta1 } from './gen/index.js';
export { slashingSimulation, type SlashingSimulationOptions } from './simulation.js';
