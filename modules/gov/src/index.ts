export { GovKeeper, emptyTallyResult, isAllGTE } from './keeper.js';
export type { GovKeeperOptions, DecodedContent, TallyOutcome } from './keeper.js';
export { GovErrors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_GOV_PARAMS,
  defaultParams as defaultGovParams,
  defaultParamsValues as defaultGovParamsValues,
  validateParams as validateGovParams,
  validateParamsValues as validateGovParamsValues,
  paramsFromProto as govParamsFromProto,
  paramsToProto as govParamsToProto,
  paramAminoJSON as govParamAminoJSON,
  updateFromAmino as govParamsUpdateFromAmino,
  govParamSubspace,
  PARAM_KEYS as GOV_PARAM_KEYS,
} from './params.js';
export type { GovParams, GovParamsValues, GovParamKey } from './params.js';
export type { GenesisState as GovGenesisState } from './gen/chain/gov/v1beta1.js';
export { defaultGenesis as defaultGovGenesis, validateGenesis as validateGovGenesis } from './genesis.js';
export {
  EventType as GovEventType, AttributeKey as GovAttributeKey, ProposalResult as GovProposalResult, ATTRIBUTE_VALUE_CATEGORY as GOV_ATTRIBUTE_VALUE_CATEGORY,
} from './events.js';
export type {
  ProposalContentRoute, GovStakingKeeper, GovBankKeeper, GovAccountKeeper, GovValidator, GovDelegation,
} from './expected-keepers.js';
export { validateAbstract, textProposalRoute, ContentRouter, MAX_TITLE_LENGTH, MAX_DESCRIPTION_LENGTH } from './content.js';
export { GovModule, CONSENSUS_VERSION as GOV_CONSENSUS_VERSION } from './module.js';
export { endBlocker as govEndBlocker } from './abci.js';
export type { EndBlockOutcome as GovEndBlockOutcome } from './abci.js';
export { moduleAccountInvariant as govModuleAccountInvariant, govInvariants } from './invariants.js';
export type { Invariant as GovInvariant, InvariantResult as GovInvariantResult } from './invariants.js';
export { govSimulation } from './simulation.js';
export type { GovSimulationOptions } from './simulation.js';
export { createMsgServer as createGovMsgServer, validateWeightedOptions } from './msg-server.js';
export { createQueryServer as createGovQueryServer, currentTally } from './query-server.js';
export { voteOptionName, weightedOptionsString, populateLegacyOption } from './votes.js';
export { MODULE_NAME as GOV_MODULE_NAME, STORE_KEY as GOV_STORE_KEY, PROTO_DIR as GOV_PROTO_DIR, govSchema } from './keys.js';
export type { GovState } from './keys.js';
// generated types of chain.gov.v1beta1 (`chain_gov_v1beta1.Proposal`, `Msg`, `Query`, ...)
export { chain_gov_v1beta1 } from './gen/index.js';
