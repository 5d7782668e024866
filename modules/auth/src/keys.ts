/**
 * auth state, declared once: the collections of the module store `acc` (the SDK v0.50's
 * `collections.NewSchemaBuilder` in x/auth/keeper/keeper.go). The keeper and the query server read and
 * write only through these collections; no other file knows a prefix.
 *
 * Store keys (under `acc/`):
 *   0x01 | address               → Any(BaseAccount | ModuleAccount), protobuf
 *   0x02                         → next account number, decimal text
 *   0x03                         → Params, protobuf
 *   0x04 | account number (BE64) → address (the account-number index)
 * The layout did not change with the move to collections. It differs from the SDK's in three places, kept
 * for the app hash and the gas of every tx: params at 0x03 (SDK 0x00), the account-number index at 0x04
 * (SDK the prefix "accountNumber"), and the account number as decimal text (SDK 8 bytes big-endian).
 */
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { Schema, bytesKey, intValue, keyAsValue, lazyProtoValue, uint64Key } from '@chain/collections';
import type { AuthParams } from './params.js';

export const MODULE_NAME = 'auth';
export const STORE_KEY = 'acc';
export const FEE_COLLECTOR = 'fee_collector';

/** The auth schema: build one per keeper (`AccountKeeper.state`). */
export function authSchema(registry: ProtoRegistry) {
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /**
     * Accounts by address, each stored as an `Any` of `BaseAccount` or `ModuleAccount`.
     * SDK: `Accounts = collections.NewIndexedMap(sb, types.AddressStoreKeyPrefix, "accounts", sdk.AccAddressKey,
     * codec.CollInterfaceValue[sdk.AccountI](cdc), NewAccountIndexes(sb))` (x/auth/keeper/keeper.go).
     * Plain map here, with its account-number index kept by the keeper (see `AccountsByNumber`).
     */
    Accounts: schema.map(0x01, 'accounts', bytesKey, lazyProtoValue<google_protobuf.Any>(registry, 'google.protobuf.Any')),
    /**
     * The next account number (unset reads as 0).
     * SDK: `AccountNumber = collections.NewSequence(sb, types.GlobalAccountNumberKey, "account_number")`
     * (x/auth/keeper/keeper.go). A collections `Sequence` stores 8 bytes big-endian; this chain stores decimal
     * text, so it is an `Item` and `AccountKeeper.nextAccountNumber` does the sequence's get-and-increment.
     */
    AccountNumber: schema.item(0x02, 'account_number', intValue),
    /**
     * The params.
     * SDK: `Params = collections.NewItem(sb, types.ParamsKey, "params", codec.CollValue[types.Params](cdc))`
     * (x/auth/keeper/keeper.go).
     */
    Params: schema.item(0x03, 'params', lazyProtoValue<AuthParams>(registry, 'chain.auth.v1beta1.Params')),
    /**
     * Account number → address: the layout of the SDK's unique index
     * `AccountsIndexes.Number = indexes.NewUnique(sb, types.AccountNumberStoreKeyPrefix, "account_by_number",
     * collections.Uint64Key, sdk.AccAddressKey, ...)` (x/auth/keeper/keeper.go): the number big-endian, the
     * address as the value. It is not an `IndexedMap` unique index, which would read the old account on every
     * `setAccount` (more gas per tx); the keeper writes it next to every account write.
     */
    AccountsByNumber: schema.map(0x04, 'account_by_number', uint64Key, keyAsValue(bytesKey)),
  };
}

/** The collections of `authSchema`. */
export type AuthState = ReturnType<typeof authSchema>;

// ---- value codecs the SDK has and @chain/collections does not (yet); copies of bank's (src/keys.ts) ----


export const BASE_ACCOUNT = 'chain.auth.v1beta1.BaseAccount';
export const MODULE_ACCOUNT = 'chain.auth.v1beta1.ModuleAccount';
export const SECP256K1_PUBKEY = 'chain.crypto.secp256k1.PubKey';
export const ETH_SECP256K1_PUBKEY = 'chain.crypto.ethsecp256k1.PubKey';
export const ED25519_PUBKEY = 'chain.crypto.ed25519.PubKey';
