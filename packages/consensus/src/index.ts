export { Engine, toTimestamp, fromTimestamp, CHECK_TX_SLOTS } from './engine.js';
export type { EmbeddedApp, EngineOptions, EngineLogger, EngineHalt, CheckTxResult, TxInclusion } from './engine.js';
export { applyValidatorUpdates, sameValidatorSet, MAX_TOTAL_VOTING_POWER } from './validator-set.js';
export { Mempool, MempoolError } from './mempool.js';
export type { MempoolTx, MempoolOptions } from './mempool.js';
export { BlockStore } from './blockstore.js';
export type { StoredBlock, StoredResults, StoredTxResult, StoredValidatorUpdate } from './blockstore.js';
export {
  CONSENSUS_PROTO_DIR, defaultConsensusParamsJSON, consensusParamsOf, consensusParamsJSON, validatorsOf, privValidatorKeyJSON,
  seedOfPrivValidatorKey,
} from './genesis.js';
export type { GenesisDoc, GenesisValidatorJSON, PrivValidatorKeyJSON } from './genesis.js';
export { GO_ZERO_TIME, BlockIDFlags, VoteTypes, BLOCK_PROTOCOL_VERSION } from './cmt-types.js';
export {
  merkleRoot, txHash, dataHash, dataHashOfTxHashes, headerHash, validatorSetHash, blockId, emptyBlockId, validatorAddress, canonicalVoteSignBytes,
  encodeBlock, merkleProofs, verifyMerkleProof, txProof, validateTxProof,
} from './hashing.js';
export type { MerkleProof, TxProof } from './hashing.js';
export type { Block, BlockID, Commit, CommitSig, Header, Timestamp, Validator, ConsensusParams, PartSetHeader, Vote } from './cmt-types.js';
