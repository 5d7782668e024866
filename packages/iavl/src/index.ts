export {
  IavlTree,
  TreeView,
  OpsCollector,
  type IavlDb,
  type IavlTreeOptions,
  type BatchSink,
  type BatchOp,
  type SavedVersion,
  type StagedVersion,
} from './tree.js';
export { type SortedBuild } from './build.js';
export { type RemoteSortedBuild, moduleWorker } from './build-remote.js';
export {
  HashOp,
  LengthOp,
  PROOF_OP_IAVL,
  PROOF_OP_SIMPLE,
  encodeCommitmentProof,
  iavlInnerOps,
  iavlLeafOp,
  type CommitmentProof,
  type ExistenceProof,
  type NonExistenceProof,
  type LeafOp,
  type InnerOp,
  type PathStep,
} from './proof.js';
export { multistoreRoot, multistoreProof, simpleMerkleRoot, type StoreRoot } from './multistore.js';
export { leafHash, leafHashInto, innerHash } from './node.js';
export { EMPTY_HASH, putUvarint, readBE64, readUvarint, sha256, uvarintSize, varint, writeBE64, type Bytes } from './encoding.js';
