export { decodeTx, directSignBytes, signerFieldOf, msgSigners, txSigners, TX_PROTO_DIR } from './decode.js';
export type { Coin, SignerInfo, Fee, TxBody, AuthInfo, TxMsg, DecodedTx } from './decode.js';
// generated types of chain.tx.v1beta1 (`chain_tx_v1beta1.Tx`, the `Service` definition, ...)
export * from './gen/index.js';
