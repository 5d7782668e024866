export { UpgradeKeeper } from './keeper.js';
export type { UpgradeHandler, UpgradeInfo, UpgradeKeeperOptions, UpgradeLogger } from './keeper.js';
export { UpgradeErrors } from './errors.js';
export { preBlocker as upgradePreBlocker } from './abci.js';
export {
  ZERO_TIME as PLAN_ZERO_TIME, dueAt, isZeroTime, normalizePlan, planString, shouldExecute, upgradeNeededMsg, validatePlan,
} from './plan.js';
export {
  createCancelSoftwareUpgradeProposalRoute, createSoftwareUpgradeProposalRoute, PROPOSAL_TYPE_CANCEL_SOFTWARE_UPGRADE,
  PROPOSAL_TYPE_SOFTWARE_UPGRADE,
} from './proposal.js';
export type { ProposalContentRoute } from './proposal.js';
export type { GenesisState as UpgradeGenesisState } from './gen/chain/upgrade/v1beta1.js';
export type { CancelSoftwareUpgradeProposal, ModuleVersion, Plan, SoftwareUpgradeProposal } from './gen/chain/upgrade/v1beta1.js';
export type { UpgradeExpectedKeepers } from './expected-keepers.js';
export { UpgradeModule, CONSENSUS_VERSION as UPGRADE_CONSENSUS_VERSION } from './module.js';
export { createQueryServer as createUpgradeQueryServer } from './query-server.js';
export {
  MODULE_NAME as UPGRADE_MODULE_NAME, STORE_KEY as UPGRADE_STORE_KEY, ROUTER_KEY as UPGRADE_ROUTER_KEY, PROTO_DIR as UPGRADE_PROTO_DIR,
  UPGRADE_INFO_FILE_NAME, SOFTWARE_UPGRADE_PROPOSAL, CANCEL_SOFTWARE_UPGRADE_PROPOSAL, upgradeSchema,
} from './keys.js';
export type { UpgradeState } from './keys.js';
// generated types of chain.upgrade.v1beta1 (`chain_upgrade_v1beta1.Plan`, `Query`, ...)
export { chain_upgrade_v1beta1 } from './gen/index.js';
