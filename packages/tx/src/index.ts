export { decodeTx, directSignBytes, signerFieldOf, msgSigners, txSigners, TX_PROTO_DIR } from './decode.js';
export type { Coin, SignerInfo, Fee, TxBody, AuthInfo, TxMsg, DecodedTx } from './decode.js';
