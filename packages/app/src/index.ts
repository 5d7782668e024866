export { App } from './app.js';
export { queryErrorToAbci } from './query-errors.js';
export type { AnteHandler, AppOptions } from './app.js';
export { BlockIdFlags } from './abci.js';
export type {
  AbciApplication, AbciValidator, BlockIdFlag, CheckTxRequest, CheckTxType, CommitInfo, CommitListener, CommitResponse,
  ConsensusParams, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse, InfoRequest, InfoResponse, InitChainRequest,
  InitChainResponse, Misbehavior, MisbehaviorType, PrepareProposalRequest, PrepareProposalResponse, ProcessProposalRequest,
  ProcessProposalResponse, ProposalStatus, QueryRequest, QueryResponse, VoteInfo,
} from './abci.js';
export { ModuleManager, defaultMigrationsOrder, repeatedMessageType } from './manager.js';
export type { VersionMap } from './manager.js';
export { blockedModuleAccounts, moduleAccountPermissions } from './app-config.js';
export type { AppConfig, ModuleAccountConfig, ModuleAccountPermission, ModuleOrders } from './app-config.js';
export { HookSlot } from './hooks.js';
export type { HookMethods } from './hooks.js';
export type { ReplayBlockRequest, BlockReplay, BlockDryRun } from './replay.js';
export { Context, EventManager, storePrefix, EMPTY_COMET_INFO } from './context.js';
export type { BlockInfo, CometInfo, ExecMode } from './context.js';
export { BasicGasMeter, InfiniteGasMeter, GasKVStore, OutOfGasError, KV_GAS } from './gas.js';
export type { GasMeter } from './gas.js';
export {
  isValidDenom, validateDenom, parseAmount, coinsToString, validateCoins, parseCoins, parseDecCoins, decToString,
  addCoins, amountOf, DEC_SCALE,
} from './coins.js';
export type { Coin, DecCoin } from './coins.js';
export { Router, createRouter } from './router.js';
export type { MsgRoute, QueryRoute } from './router.js';
export type {
  AppModule, GenesisStream, GenesisParts, StreamedField, MigrationHandler, MigrationRegistrar, MsgHandler, MsgServer, QueryHandler, QueryServer, ServiceImpl, ServiceRegistrar,
  ValidatorUpdate,
} from './module.js';
export { paginate, paginateCollection, pageParams, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';
export type { PageRequest, PageResponse, PageableCollection } from './pagination.js';
export { aminoJson, decTextToAtomics, defineKeyedParamSubspace, defineParamSubspace, paramKey, paramKeyOn, parseAminoJson, validateParamDenom } from './param-subspace.js';
export type { AminoCodec, ParamKeyAccess, ParamKeyDef, ParamsAccess, ParamSubspace, ProtoDuration } from './param-subspace.js';
export { ChainHaltError, isChainHalt } from './halt.js';
export { JsonStreamWriter, LazyArray, LazyObject, materialize, stringifyLazy } from './json-writer.js';
export type { JsonSink, WriteHooks } from './json-writer.js';
export { Progress, progress, formatDuration, SILENT_PROGRESS } from './progress.js';
export type { ProgressFactory, ProgressOptions, ProgressStream } from './progress.js';
export { Slots } from './slots.js';
export {
  JsonAppState, JsonScanError, JsonScanner, appStateOfBytes, bytesSource, fileSource, objectAppState, openGenesisFile,
} from './genesis-reader.js';
export type { AppStateSource, ByteRange, ByteSource, GenesisFile, SectionParts } from './genesis-reader.js';
