export { AccountKeeper, Permission } from './keeper.js';
export type { Account, BaseAccount, AccountKeeperOptions } from './keeper.js';
export { DEFAULT_AUTH_PARAMS, paramSubspace as authParamSubspace } from './params.js';
export type { AuthParamsAccess } from './params.js';
export type { AuthParams } from './params.js';
export type { GenesisState as AuthGenesisState } from './gen/chain/auth/v1beta1.js';
export { AddressCodec, moduleAddress } from './address.js';
export { createAnteHandler } from './ante.js';
export type { AnteBankKeeper, PubKeyInfo } from './ante.js';
export { EventType as AuthEventType, AttributeKey as AuthAttributeKey } from './events.js';
export { AuthModule, AUTH_PROTO_DIR } from './module.js';
export { createQueryServer as createAuthQueryServer } from './query-server.js';
export {
  MODULE_NAME as AUTH_MODULE_NAME, STORE_KEY as AUTH_STORE_KEY, FEE_COLLECTOR, BASE_ACCOUNT, MODULE_ACCOUNT,
  SECP256K1_PUBKEY, ETH_SECP256K1_PUBKEY, ED25519_PUBKEY, authSchema,
} from './keys.js';
export type { AuthState } from './keys.js';
// generated types of chain.auth.v1beta1 (`chain_auth_v1beta1.BaseAccount`, `Query`, ...)
export * from './gen/index.js';
