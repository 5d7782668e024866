export { sha256, keccak256, ripemd160, nativeKeccak, addToBloom } from './hash.js';
export {
  toHex, fromHex, toBase64, fromBase64, utf8, fromUtf8, bytesToString, equalBytes, concatBytes, toBech32, fromBech32, Bech32Codec, decodeAddress,
} from './encoding.js';
export type { Bech32Decoded } from './encoding.js';
export {
  nativeSecp256k1, recoverSecp256k1, verifySecp256k1Digest, verifySecp256k1, verifyEthSecp256k1, signSecp256k1Digest,
  secp256k1Address, uncompressSecp256k1, compressSecp256k1, ethAddress, secp256k1PublicKey, toChecksumAddress,
  ed25519PublicKey, ed25519Sign, ed25519Verify, randomBytes,
} from './keys.js';
export { DEV_MNEMONIC, derivePrivateKey, generateMnemonic, hdPath, isValidMnemonic } from './hd.js';
export {
  rlp, rlpListHeader, uintBytes, orderedTrieRoot, logsBloom, encodeReceipt, encodeReceiptBytes, type LogBytes, encodeEthHeader, ethHeaderHash, ethStateRoot,
  ETH_ZERO_HASH, ETH_EMPTY_ROOT, ETH_EMPTY_UNCLES, ETH_EMPTY_REQUESTS_HASH, ETH_ZERO_NONCE,
} from './eth-block.js';
export type { ReceiptLog, EthHeaderFields } from './eth-block.js';
export { VerifyPool, sharedVerifyPool, type VerifyItem, type RecoverItem } from './verify-pool.js';
