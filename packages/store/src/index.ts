/** @chain/store: in-memory KV stores, write buffers, prefix views and the persistent CommitStore. */
export type { Bytes, KVStore, CacheKVStore, Change, BatchOp, PackedChanges } from './types.js';
export { MemKVStore } from './mem.js';
export { branch } from './cache.js';
export { prefixStore, prefixEnd } from './prefix.js';
export { CommitStore, GENESIS_APP_HASH, type CommitStoreOptions, type StateView } from './commit.js';
export { RawStore, type RawIterateOptions } from './raw.js';
export { DEFAULT_STATE_CACHE_SIZE } from './live.js';
export { VersionNotFoundError, STORES_KEY, PRUNED_KEY, type ProofOp } from './commitment.js';
export {
  NS_STATE,
  NS_META,
  NS_TREES,
  NS_FIRST_EXTERNAL,
  META_KEY,
  stateKey,
  encodeMeta,
  decodeMeta,
  writeBE64,
  readBE64,
} from './layout.js';
export { compareBytes, bytesEqual } from './keys.js';
export { exposedGc, exposedCompactingGc } from './gc.js';
