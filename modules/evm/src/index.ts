/** @chain/evm: the EVM module (Prague, @ethereumjs/evm) over the chain's store, auth and bank. */
export { EvmModule, EVM_PROTO_DIR } from './module.js';
export { fastInterpreterAvailable } from './interpreter-fast.js';
export type { GenesisState as EvmGenesisState, GenesisAccount } from './genesis.js';
export {
  EVENT_FEE_MARKET, EVENT_BLOCK_GAS, EVENT_BLOCK_BLOOM, EVENT_ETHEREUM_TX, EVENT_ETHEREUM, EVENT_TX_LOG, ATTR, BLOCK_ATTR, EVENT_ETHEREUM_BLOCK, ETH_BLOCK_ATTR,
} from './events.js';
export type { TxLogJSON } from './events.js';
export { EvmKeeper, FEE_COLLECTOR, DEFAULT_GAS_CAP, DEFAULT_QUERY_TIMEOUT_MS, unmetered, addToBloom } from './keeper.js';
export type { EvmKeeperOptions, EvmAccountInfo, BlockTracker, TxTracing, EthBlockHeader } from './keeper.js';
export type { EvmAccount, EvmAccountKeeper, EvmBankKeeper } from './expected-keepers.js';
export { createEvmAnteHandler, routeAnte, isEthereumTx, verifiedEthTx } from './ante.js';
export type { VerifiedEthTx } from './ante.js';
export { applyEthereumTx, createMsgServer as createEvmMsgServer } from './handler.js';
export {
  createQueryServer as createEvmQueryServer, ethCall, estimateGas, parseAddress, callArgs, callMessage, callState, callEnv, prepareCall,
} from './query.js';
/** @deprecated the name before the typed services: use `createEvmQueryServer` */
export { createQueryServer as queryHandlers } from './query.js';
export type { CallArgs } from './query.js';
export { parseStateOverride, applyStateOverride } from './overrides.js';
export {
  parseAccessList, accessListGas, callFees, feeCheck, parseBlockOverrides, applyBlockOverrides, ACCESS_LIST_ADDRESS_COST, ACCESS_LIST_SLOT_COST,
} from './call-env.js';
export type { AccessList, CallFees, BlockOverrides } from './call-env.js';
export {
  simulateV1, checkSimulateLimits, SimulateError, SimulateCodes, MAX_SIMULATE_BLOCKS, MAX_SIMULATE_CALLS_PER_BLOCK, MAX_SIMULATE_TOTAL_CALLS,
} from './simulate.js';
export type {
  SimulateRequest, SimulateBlock, SimulateCall, SimulateBase, SimulatedBlock, SimulatedCall, SimulatedTx, SimulatedLog,
} from './simulate.js';
export type { AccountOverride, StateOverride } from './overrides.js';
export { attachTracer, gethError, stepCost, TraceSize, TraceTooLargeError, DEFAULT_MAX_TRACE_BYTES } from './tracer.js';
export type { EvmTracer } from './tracer.js';
export { StructLogger } from './struct-logger.js';
export type { StructLoggerConfig, StructLogJSON, StructLogResult } from './struct-logger.js';
export { CallTracer } from './call-tracer.js';
export type { CallTracerConfig, CallFrameJSON, CallLogJSON } from './call-tracer.js';
export {
  traceCall, traceBlock, createTracer, TraceTimeoutError, TracerNotFoundError, DEFAULT_TRACE_TIMEOUT_MS, TRACER_NAMES,
} from './trace.js';
export type { TracerOptions, ResultTracer, TracedTx } from './trace.js';
export { EvmRpcAdapter, evmRpcAdapter, type EvmRpcAdapterOptions } from './rpc-adapter.js';
export { decodeEthTx, effectiveGasPrice, hexAddress, precheckEthTx, wrapEthereumTx, revertReason } from './ethtx.js';
export type { EthTx, WrapOptions, WrappedEthTx } from './ethtx.js';
export { ContextStateManager, CodeCache } from './statedb.js';
export type { StateManagerDeps } from './statedb.js';
export { Executor, ExecutionTimeoutError } from './executor.js';
export type { Message, BlockEnv, ExecutionResult, EvmLog, RunBudget } from './executor.js';
export {
  DEFAULT_EVM_PARAMS, INITIAL_BASE_FEE, parseParams, nextBaseFee, paramSubspace as evmParamSubspace,
  feeMarketParamSubspace as evmFeeMarketParamSubspace,
} from './params.js';
export type { EvmParams, ParsedParams, EvmParamsAccess } from './params.js';
export { EvmErrors } from './errors.js';
export { HARDFORK, commonFor, ecrecover, nativeEcrecover, parseEip155ChainId } from './crypto.js';
export {
  MODULE_NAME as EVM_MODULE_NAME, STORE_KEY as EVM_STORE_KEY, EVM_DENOM, MSG_ETHEREUM_TX, MSG_ETHEREUM_TX_URL,
  MSG_ETHEREUM_TX_RESPONSE, EXTENSION_OPTION_ETH_TX, EXTENSION_OPTION_ETH_TX_URL, ETHERMINT_EXTENSION_OPTION_URL,
} from './keys.js';
// generated types of chain.evm.v1 (`chain_evm_v1.MsgEthereumTx`, `Msg`, `Query`, ...)
export * from './gen/index.js';
