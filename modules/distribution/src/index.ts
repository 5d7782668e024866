export { DistributionKeeper, Bech32Codec as DistributionBech32Codec } from './keeper.js';
export type { DistributionKeeperOptions } from './keeper.js';
export { DistributionErrors } from './errors.js';
export {
  DEFAULT_PARAMS as DEFAULT_DISTRIBUTION_PARAMS,
  defaultParams as defaultDistributionParams,
  defaultParamsValues as defaultDistributionParamsValues,
  validateParams as validateDistributionParams,
  validateParamsValues as validateDistributionParamsValues,
  paramsFromProto as distributionParamsFromProto,
  paramsToProto as distributionParamsToProto,
  paramSubspace as distributionParamSubspace,
} from './params.js';
export type { DistributionParamsAccess } from './params.js';
export type { DistributionParams, DistributionParamsValues } from './params.js';
export type { GenesisState as DistributionGenesisState } from './gen/chain/distribution/v1beta1.js';
export { defaultGenesis as defaultDistributionGenesis, validateGenesis as validateDistributionGenesis } from './genesis.js';
export { EventType as DistributionEventType, AttributeKey as DistributionAttributeKey } from './events.js';
export type {
  DistributionStakingKeeper, DistributionBankKeeper, DistributionAccountKeeper, Validator as DistributionValidator,
  Delegation as DistributionDelegation,
} from './expected-keepers.js';
export { DistributionModule, CONSENSUS_VERSION as DISTRIBUTION_CONSENSUS_VERSION } from './module.js';
export { beginBlocker as distributionBeginBlocker } from './abci.js';
export {
  nonNegativeOutstandingInvariant, canWithdrawInvariant, referenceCountInvariant, moduleAccountInvariant, distributionInvariants,
  allInvariants as allDistributionInvariants,
} from './invariants.js';
export type { Invariant as DistributionInvariant, InvariantResult as DistributionInvariantResult } from './invariants.js';
export { tokensFromShares, tokensFromSharesTruncated, validatorCommissionRate, validatorTokens } from './validator-math.js';
export { createMsgServer as createDistributionMsgServer } from './msg-server.js';
export { createQueryServer as createDistributionQueryServer } from './query-server.js';
export {
  MODULE_NAME as DISTRIBUTION_MODULE_NAME, STORE_KEY as DISTRIBUTION_STORE_KEY, PROTO_DIR as DISTRIBUTION_PROTO_DIR, FEE_COLLECTOR_NAME as DISTRIBUTION_FEE_COLLECTOR_NAME,
  distributionSchema,
} from './keys.js';
export type { DistributionState } from './keys.js';
// generated types of chain.distribution.v1beta1 (`chain_distribution_v1beta1.FeePool`, `Msg`, `Query`, ...)
export { chain_distribution_v1beta1 } from './gen/index.js';
export { distributionSimulation, type DistributionSimulationOptions } from './simulation.js';
export {
  createCommunityPoolSpendProposalRoute, validateCommunityPoolSpendProposal, PROPOSAL_TYPE_COMMUNITY_POOL_SPEND,
} from './proposal.js';
export type { CommunityPoolSpendProposalRoute } from './proposal.js';
