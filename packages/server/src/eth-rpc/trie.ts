/**
 * Ethereum block roots of the Ethereum txs of a block, as go-ethereum derives them (`types.DeriveSha`): the
 * root of a Merkle-Patricia trie keyed by rlp(index) whose values are the typed tx envelopes
 * (`transactionsRoot`) or the typed receipt encodings (`receiptsRoot`), and the receipt's logs bloom. One
 * definition, `@chain/crypto`'s (the evm module computes the same roots in consensus for the header hash).
 */
export { addToBloom, encodeReceipt, logsBloom, orderedTrieRoot, rlp, uintBytes } from '@chain/crypto';
export type { ReceiptLog } from '@chain/crypto';
