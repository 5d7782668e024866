export { StakingKeeper, Bech32Codec, DEFAULT_POWER_REDUCTION } from './keeper.js';
export type { StakingKeeperOptions } from './keeper.js';
export { StakingErrors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_STAKING_PARAMS, defaultParams as defaultStakingParams, validateParams as validateStakingParams,
  paramSubspace as stakingParamSubspace,
} from './params.js';
export type { StakingParamsAccess } from './params.js';
export type { StakingParams } from './params.js';
export type { GenesisState as StakingGenesisState } from './gen/chain/staking/v1beta1.js';
export { EventType as StakingEventType, AttributeKey as StakingAttributeKey } from './events.js';
export type { StakingAccountKeeper, StakingBankKeeper } from './expected-keepers.js';
export { StakingModule, CONSENSUS_VERSION as STAKING_CONSENSUS_VERSION } from './module.js';
export { createQueryServer as createStakingQueryServer } from './query-server.js';
export {
  MODULE_NAME as STAKING_MODULE_NAME, STORE_KEY as STAKING_STORE_KEY, PROTO_DIR as STAKING_PROTO_DIR, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME,
  stakingSchema,
} from './keys.js';
export type { StakingState } from './keys.js';
export { tokensFromSharesTruncated } from './math.js';
export { formatTimeKey } from './time.js';
// generated types of chain.staking.v1beta1 (`chain_staking_v1beta1.Validator`, `Query`, ...)
export { chain_staking_v1beta1 } from './gen/index.js';
export { STAKING_HOOK_NAMES, stakingHookSlot } from './hooks.js';
export type { StakingHooks } from './hooks.js';
export { createMsgServer as createStakingMsgServer, DO_NOT_MODIFY_DESC, updateDescription, ensureDescriptionLength } from './msg-server.js';
export {
  STAKING_INVARIANTS, allInvariants as allStakingInvariants, moduleAccountsInvariant, nonNegativePowerInvariant, positiveDelegationInvariant,
  delegatorSharesInvariant,
} from './invariants.js';
export type { InvariantResult as StakingInvariantResult } from './invariants.js';
export {
  addTokensFromDel, removeDelShares, removeTokens, sharesFromTokens, sharesFromTokensTruncated, tokensFromShares,
  tokensFromSharesTruncated as validatorTokensFromSharesTruncated, tokensFromSharesRoundUp, invalidExRate, validateCommissionRates, validateNewRate,
} from './shares.js';
export { stakingSimulation, type StakingSimulationOptions } from './simulation.js';
