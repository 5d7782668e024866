/**
 * Plain TypeScript shapes of the CometBFT v0.38 data structures our
 * consensus engine produces. They mirror `github.com/cometbft/cometbft/types`
 * (Go) with camelCase names; `hashing.ts` encodes them exactly as CometBFT does.
 *
 * Conventions: heights, rounds, powers and gas are JS numbers (safe up to
 * 2^53); hashes, addresses, keys, signatures and txs are `Uint8Array`
 * (an empty array stands for Go's nil/empty slice).
 */

/** A protobuf `google.protobuf.Timestamp` (Go `time.Time`); nanos in [0, 1e9). */
export interface Timestamp {
  seconds: number;
  nanos: number;
}

/**
 * Go's zero `time.Time` (0001-01-01T00:00:00Z) as a proto Timestamp.
 * CometBFT puts this in the timestamp of an absent CommitSig.
 */
export const GO_ZERO_TIME: Readonly<Timestamp> = Object.freeze({ seconds: -62135596800, nanos: 0 });

/** Size of one block part in bytes (`types.BlockPartSizeBytes`). */
export const BLOCK_PART_SIZE_BYTES = 65536;

/** Block protocol version of CometBFT v0.38 (`version.BlockProtocol`). */
export const BLOCK_PROTOCOL_VERSION = 11;

/** Header of the part set a block is split into for gossiping. */
export interface PartSetHeader {
  total: number;
  hash: Uint8Array;
}

/** Identifies a block: header hash plus its part set header. */
export interface BlockID {
  hash: Uint8Array;
  partSetHeader: PartSetHeader;
}

/** `tendermint.version.Consensus`: block protocol and app version. */
export interface ConsensusVersion {
  block: number;
  app: number;
}

/** A block header (`types.Header`). */
export interface Header {
  version: ConsensusVersion;
  chainId: string;
  height: number;
  time: Timestamp;
  /** Empty (zero hash, total 0) at the initial height. */
  lastBlockId: BlockID;
  lastCommitHash: Uint8Array;
  dataHash: Uint8Array;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  evidenceHash: Uint8Array;
  proposerAddress: Uint8Array;
}

/** `BlockIDFlag`: 1 absent, 2 commit (voted for the block), 3 nil. */
export type BlockIDFlag = 1 | 2 | 3;

/** Named `BlockIDFlag` values. */
export const BlockIDFlags = Object.freeze({ Absent: 1, Commit: 2, Nil: 3 } as const);

/** One validator's entry in a Commit (`types.CommitSig`). */
export interface CommitSig {
  blockIdFlag: BlockIDFlag;
  /** Empty for an absent signature. */
  validatorAddress: Uint8Array;
  /** {@link GO_ZERO_TIME} for an absent signature. */
  timestamp: Timestamp;
  /** Empty for an absent signature. */
  signature: Uint8Array;
}

/** +2/3 precommits for a block (`types.Commit`). */
export interface Commit {
  height: number;
  round: number;
  blockId: BlockID;
  /** In validator-set order, one per validator. */
  signatures: CommitSig[];
}

/** Transactions of a block. */
export interface BlockData {
  txs: Uint8Array[];
}

/**
 * A block (`types.Block`). Evidence is always empty for our single-validator
 * engine. `lastCommit` is an empty Commit at the initial height (what
 * CometBFT puts there); `null` is encoded as an absent field.
 */
export interface Block {
  header: Header;
  data: BlockData;
  evidence: never[];
  lastCommit: Commit | null;
}

/** A validator (`types.Validator`) with an ed25519 key. */
export interface Validator {
  /** First 20 bytes of sha256(pubKey). */
  address: Uint8Array;
  /** Raw 32-byte ed25519 public key. */
  pubKey: Uint8Array;
  votingPower: number;
  proposerPriority: number;
}

/** The deterministic part of `abci.ExecTxResult` that LastResultsHash covers. */
export interface ExecTxResult {
  code: number;
  data: Uint8Array;
  gasWanted: number;
  gasUsed: number;
}

/** `types.ConsensusParams` (v0.38), as the ABCI interface carries them. Only `block` is hashed into the header. */
export type { ConsensusParams } from '@chain/app';

/** `SignedMsgType` of a vote: 1 prevote, 2 precommit. */
export type VoteType = 1 | 2;

/** Named vote types. */
export const VoteTypes = Object.freeze({ Prevote: 1, Precommit: 2 } as const);

/** A prevote or precommit (`types.Vote`, without vote extensions). */
export interface Vote {
  type: VoteType;
  height: number;
  round: number;
  /** Zero BlockID (empty hash, total 0) for a nil vote. */
  blockId: BlockID;
  timestamp: Timestamp;
  validatorAddress: Uint8Array;
  validatorIndex: number;
  signature: Uint8Array;
}
