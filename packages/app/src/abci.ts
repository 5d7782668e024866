/**
 * The application side of the consensus boundary: a TypeScript mirror of CometBFT v0.38's ABCI 2.0
 * `Application` (abci/types/application.go, without snapshots and vote extensions). `App` implements it;
 * the embedded engine drives only this interface, and an ABCI socket server can serve it to a real
 * CometBFT unchanged. Field names follow the protos (`abci/types.proto`) in camelCase.
 */
import type { Event } from '@chain/events';
import type { ProofOp } from '@chain/store';
import type { ValidatorUpdate } from './module.js';
import type { AppStateSource } from './genesis-reader.js';
import type { ProgressFactory } from './progress.js';

/** `types.ConsensusParams` (v0.38). Only `block` is hashed into the header. */
export interface ConsensusParams {
  block: { maxBytes: number; maxGas: number };
  evidence: {
    maxAgeNumBlocks: number;
    /** Nanoseconds (Go `time.Duration`). */
    maxAgeDuration: bigint | number;
    maxBytes: number;
  };
  validator: { pubKeyTypes: string[] };
  version: { app: number };
  abci: { voteExtensionsEnableHeight: number };
}

/** `abci.Validator`: a validator as the app sees it (20-byte consensus address, power). */
export interface AbciValidator {
  readonly address: Uint8Array;
  readonly power: bigint;
}

/** `types.BlockIDFlag`: 1 absent, 2 voted for the block, 3 voted nil. */
export type BlockIdFlag = 1 | 2 | 3;
export const BlockIdFlags = Object.freeze({ Absent: 1, Commit: 2, Nil: 3 } as const);

/** `abci.VoteInfo`: one validator's vote in the previous block's commit. */
export interface VoteInfo {
  readonly validator: AbciValidator;
  readonly blockIdFlag: BlockIdFlag;
}

/** `abci.CommitInfo`: the decided last commit (every validator of the previous height, in set order). */
export interface CommitInfo {
  readonly round: number;
  readonly votes: readonly VoteInfo[];
}

/** `abci.MisbehaviorType`: 1 duplicate vote, 2 light client attack. */
export type MisbehaviorType = 1 | 2;

/** `abci.Misbehavior`: evidence of a validator's misbehaviour committed in this block. */
export interface Misbehavior {
  readonly type: MisbehaviorType;
  readonly validator: AbciValidator;
  readonly height: number;
  readonly time: Date;
  readonly totalVotingPower: bigint;
}

export interface InfoRequest {
  readonly version?: string;
  readonly blockVersion?: number;
  readonly p2pVersion?: number;
  readonly abciVersion?: string;
}

export interface InfoResponse {
  readonly data: string;
  readonly version: string;
  readonly appVersion: number;
  readonly lastBlockHeight: number;
  readonly lastBlockAppHash: Uint8Array;
}

export interface InitChainRequest {
  readonly time: Date;
  readonly chainId: string;
  readonly consensusParams?: ConsensusParams;
  /** the genesis file's validators */
  readonly validators: readonly ValidatorUpdate[];
  /** genesis `app_state` (parsed JSON; the socket server parses `app_state_bytes`) */
  readonly appState: Record<string, unknown>;
  readonly initialHeight: number;
  /**
   * Not ABCI: the same `app_state` read section by section (a genesis file, `app_state_bytes`); when set,
   * `App` reads it instead of `appState`, and the large module fields stream in chunks.
   */
  readonly appStateSource?: AppStateSource;
  /** Not ABCI: the progress displays of the import (none by default) */
  readonly progress?: ProgressFactory;
}

export interface InitChainResponse {
  readonly consensusParams?: ConsensusParams;
  /** non-empty: replaces the genesis file's validators (staking's genesis decides the set) */
  readonly validators: readonly ValidatorUpdate[];
  readonly appHash: Uint8Array;
}

export type CheckTxType = 'new' | 'recheck';

export interface CheckTxRequest {
  readonly tx: Uint8Array;
  readonly type: CheckTxType;
}

/** Result of executing one tx (`abci.ExecTxResult`; CheckTx answers the same fields). */
export interface ExecTxResult {
  code: number;
  codespace: string;
  log: string;
  info: string;
  data: Uint8Array;
  gasWanted: number;
  gasUsed: number;
  events: Event[];
  /** msg responses (for simulate) */
  msgResponses?: { type_url: string; value: Uint8Array }[];
}

export interface PrepareProposalRequest {
  readonly maxTxBytes: number;
  readonly txs: readonly Uint8Array[];
  readonly localLastCommit: CommitInfo;
  readonly misbehavior: readonly Misbehavior[];
  readonly height: number;
  readonly time: Date;
  readonly nextValidatorsHash: Uint8Array;
  readonly proposerAddress: Uint8Array;
}

export interface PrepareProposalResponse {
  readonly txs: readonly Uint8Array[];
}

export interface ProcessProposalRequest {
  readonly txs: readonly Uint8Array[];
  readonly proposedLastCommit: CommitInfo;
  readonly misbehavior: readonly Misbehavior[];
  readonly hash: Uint8Array;
  readonly height: number;
  readonly time: Date;
  readonly nextValidatorsHash: Uint8Array;
  readonly proposerAddress: Uint8Array;
}

export type ProposalStatus = 'ACCEPT' | 'REJECT';

export interface ProcessProposalResponse {
  readonly status: ProposalStatus;
}

export interface FinalizeBlockRequest {
  readonly txs: readonly Uint8Array[];
  readonly decidedLastCommit: CommitInfo;
  readonly misbehavior: readonly Misbehavior[];
  /** hash of the block being finalized (its header hash) */
  readonly hash: Uint8Array;
  readonly height: number;
  readonly time: Date;
  readonly nextValidatorsHash: Uint8Array;
  readonly proposerAddress: Uint8Array;
}

export interface FinalizeBlockResponse {
  readonly events: Event[];
  readonly txResults: ExecTxResult[];
  readonly validatorUpdates: ValidatorUpdate[];
  readonly consensusParamUpdates?: ConsensusParams;
  readonly appHash: Uint8Array;
}

export interface CommitResponse {
  /** blocks below this height may be pruned by the consensus engine (0: keep all) */
  readonly retainHeight: number;
}

export interface QueryRequest {
  path: string;
  data: Uint8Array;
  height?: number;
  prove?: boolean;
}

export interface QueryResponse {
  code: number;
  codespace: string;
  log: string;
  value: Uint8Array;
  height: number;
  /** the queried key (raw store queries echo it, as the SDK's) */
  key?: Uint8Array;
  /** with `prove` on a raw store path: the ICS-23 proof ops (`ics23:iavl`, then `ics23:simple`) */
  proofOps?: ProofOp[];
}

/** The ABCI application a consensus engine drives (embedded engine or CometBFT over a socket). */
export interface AbciApplication {
  info(req: InfoRequest): Promise<InfoResponse>;
  initChain(req: InitChainRequest): Promise<InitChainResponse>;
  checkTx(req: CheckTxRequest): Promise<ExecTxResult>;
  /**
   * Not ABCI: work the CheckTx of `tx` can do before it, concurrently with other work (signature checks on worker
   * threads), which that CheckTx then reuses. An engine calls it as a tx arrives, before queueing its CheckTx; it
   * never fails and writes nothing, and skipping it changes nothing but speed.
   */
  precheckTx?(tx: Uint8Array): Promise<void>;
  prepareProposal(req: PrepareProposalRequest): Promise<PrepareProposalResponse>;
  processProposal(req: ProcessProposalRequest): Promise<ProcessProposalResponse>;
  finalizeBlock(req: FinalizeBlockRequest): Promise<FinalizeBlockResponse>;
  commit(): Promise<CommitResponse>;
  query(req: QueryRequest): Promise<QueryResponse>;
}

/**
 * Extra writes joined to the atomic batch that commits a block's state (the embedded engine's block
 * store and tx index). A listener is called with the height being committed.
 */
export type CommitListener = (height: number) => readonly import('@chain/store').BatchOp[];
