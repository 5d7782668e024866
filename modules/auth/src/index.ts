export { AccountKeeper, DEFAULT_AUTH_PARAMS, Permission } from './keeper.js';
export type { Account, BaseAccount, AuthParams, AccountKeeperOptions } from './keeper.js';
export { AddressCodec, moduleAddress } from './address.js';
export { createAnteHandler } from './ante.js';
export type { AnteBankKeeper, PubKeyInfo } from './ante.js';
export { AuthModule, AUTH_PROTO_DIR } from './module.js';
export {
  MODULE_NAME as AUTH_MODULE_NAME, STORE_KEY as AUTH_STORE_KEY, FEE_COLLECTOR, BASE_ACCOUNT, MODULE_ACCOUNT,
  SECP256K1_PUBKEY, ETH_SECP256K1_PUBKEY, ED25519_PUBKEY,
} from './keys.js';
