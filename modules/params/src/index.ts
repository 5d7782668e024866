export { ParamsKeeper } from './keeper.js';
export type { ParamsKeeperOptions, ParamsLogger } from './keeper.js';
export { ParamsErrors } from './errors.js';
export type { ParamSubspace } from './expected-keepers.js';
export { createParamChangeProposalRoute, validateChanges as validateParamChanges, PROPOSAL_TYPE_CHANGE } from './proposal.js';
export type { ProposalContentRoute } from './proposal.js';
export { ParamsModule, CONSENSUS_VERSION as PARAMS_CONSENSUS_VERSION } from './module.js';
export { createQueryServer as createParamsQueryServer } from './query-server.js';
export {
  MODULE_NAME as PARAMS_MODULE_NAME, ROUTER_KEY as PARAMS_ROUTER_KEY, PROTO_DIR as PARAMS_PROTO_DIR, PARAMETER_CHANGE_PROPOSAL,
} from './keys.js';
export type { ParamChange, ParameterChangeProposal } from './gen/chain/params/v1beta1.js';
// generated types of chain.params.v1beta1 (`chain_params_v1beta1.ParameterChangeProposal`, `Query`, ...)
export { chain_params_v1beta1 } from './gen/index.js';
