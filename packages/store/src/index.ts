/** @chain/store: in-memory KV stores, write buffers, prefix views and the persistent CommitStore. */
export type { Bytes, KVStore, CacheKVStore, Change, BatchOp } from './types.js';
export { MemKVStore } from './mem.js';
export { branch } from './cache.js';
export { prefixStore, prefixEnd } from './prefix.js';
export { CommitStore, type RawIterateOptions, type StateView } from './commit.js';
export { GENESIS_APP_HASH, leafHash, merkleRoot, nextAppHash, uvarint } from './apphash.js';
export {
  NS_STATE,
  NS_VERSIONS,
  NS_META,
  NS_CHANGES,
  changeLogKey,
  NS_FIRST_EXTERNAL,
  META_KEY,
  stateKey,
  versionPrefix,
  versionKey,
  decodeVersionKey,
  encodeVersionValue,
  decodeVersionValue,
  encodeMeta,
  decodeMeta,
  writeBE64,
  readBE64,
} from './layout.js';
export { compareBytes, bytesEqual } from './keys.js';
