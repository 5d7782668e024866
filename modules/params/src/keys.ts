/**
 * params names. The module keeps no state of its own: every parameter lives in the params of the module that
 * owns it (the SDK's x/params kept them in per-module subspaces of its store; here each module keeps its
 * params, and its `ParamSubspace` reads and writes them key by key in the same amino JSON).
 */
export const MODULE_NAME = 'params';
/** the proposal route of the SDK (`RouterKey`) */
export const ROUTER_KEY = 'params';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

/** full proto name of the proposal content (Any type URL `/` + this; `/cosmos.params.v1beta1.…` is its alias) */
export const PARAMETER_CHANGE_PROPOSAL = 'chain.params.v1beta1.ParameterChangeProposal';
