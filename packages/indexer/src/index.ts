export { TxIndexer, txEventMap, TX_HASH_PREFIX, TX_EVENT_PREFIX, TX_ORDER_PREFIX, TX_RANK_PREFIX } from './tx-indexer.js';
export type { EventsLoader, RawDB, IndexedTx, TxIndex, TxRef, TxSearchOptions, TxSearchResult } from './tx-indexer.js';
export { IndexWorker, type IndexWorkerOptions } from './index-worker.js';
export { BlockIndexer, BLOCK_INDEX_PREFIX } from './block-indexer.js';
export type { BlockSearchOptions, BlockSearchResult } from './block-indexer.js';
