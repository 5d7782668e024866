/**
 * The Ethereum header of a block, as geth encodes it (`types.Header`, the Prague field set): the hash the
 * JSON-RPC serves for a block is keccak256(RLP(header)) of exactly the fields it shows, so any client that
 * recomputes `header.Hash()` from `eth_getBlockByNumber` agrees. One definition, `@chain/crypto`'s
 * (`encodeEthHeader`): the chain's EVM computes each block's header with it in consensus (so BLOCKHASH answers
 * the same hash) and declares it in its `ethereum_block` event, which the backend serves.
 */
export {
  encodeEthHeader as encodeHeader, ethHeaderHash as headerHash, ETH_EMPTY_REQUESTS_HASH as EMPTY_REQUESTS_HASH, ETH_ZERO_NONCE as ZERO_NONCE,
} from '@chain/crypto';
export type { EthHeaderFields } from '@chain/crypto';
