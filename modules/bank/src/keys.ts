/**
 * bank state, declared once: the collections of the module store `bank` (the SDK v0.50's
 * `collections.NewSchemaBuilder` in x/bank/keeper/view.go and keeper.go). The keeper, the query server and
 * genesis read and write only through these collections; no other file knows a prefix.
 *
 * Store keys (under `bank/`; `len(addr)` is one byte):
 *   0x00 | denom                             → supply, decimal text
 *   0x01 | denom                             → Metadata, protobuf (keyed by `base`)
 *   0x02 | len(addr) | addr | denom          → balance, decimal text
 *   0x03 | denom | 0x00 | len(addr) | addr   → empty (denom → owners)
 *   0x04 | denom                             → send enabled, 0x01 / 0x00
 *   0x05                                     → Params, protobuf (`send_enabled` always empty)
 * These are the SDK's prefixes and encodings (except the send-enabled value, see `SendEnabled`); the layout
 * did not change with the move to collections.
 */
import type { ProtoRegistry } from '@chain/codec';
import { Schema, boolValue, bytesKey, intValue, lazyProtoValue, lengthPrefixedBytesKey, pairKey, stringKey } from '@chain/collections';
import type { Metadata } from './gen/chain/bank/v1beta1.js';
import type { BankParams } from './params.js';

export const MODULE_NAME = 'bank';
export const STORE_KEY = 'bank';

/** The bank schema: build one per keeper (`BankKeeper.state`). */
export function bankSchema(registry: ProtoRegistry) {
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /**
     * Total supply per denom; a supply of 0 is removed.
     * SDK: `Supply = collections.NewMap(sb, types.SupplyKey, "supply", collections.StringKey, sdk.IntValue)`
     * (x/bank/keeper/view.go).
     */
    Supply: schema.map(0x00, 'supply', stringKey, intValue),
    /**
     * Denom metadata by base denom.
     * SDK: `DenomMetadata = collections.NewMap(sb, types.DenomMetadataPrefix, "denom_metadata", collections.StringKey,
     * codec.CollValue[types.Metadata](cdc))` (x/bank/keeper/view.go).
     */
    DenomMetadata: schema.map(0x01, 'denom_metadata', stringKey, lazyProtoValue<Metadata>(registry, 'chain.bank.v1beta1.Metadata')),
    /**
     * Balances by (address, denom); a balance of 0 is removed, together with its `DenomOwners` entry.
     * SDK: `Balances = collections.NewIndexedMap(sb, types.BalancesPrefix, "balances",
     * collections.PairKeyCodec(sdk.AccAddressKey, collections.StringKey), types.BalanceValueCodec,
     * newBalancesIndexes(sb))` (x/bank/keeper/view.go). `BalanceValueCodec` writes `sdk.IntValue`.
     * Plain map here, with its reverse index kept by the keeper (see `DenomOwners`).
     */
    Balances: schema.map(0x02, 'balances', pairKey(bytesKey, stringKey), intValue),
    /**
     * The denom → owners reverse index of `Balances`: one (denom, address) entry per non-zero balance.
     * SDK: `BalancesIndexes.Denom = indexes.NewReversePair[math.Int](sb, types.DenomAddressPrefix,
     * "address_by_denom_index", collections.PairKeyCodec(sdk.LengthPrefixedAddressKey(sdk.AccAddressKey),
     * collections.StringKey), ...)` (x/bank/keeper/view.go). A ReversePair is a KeySet of the reversed pair,
     * which is what this is. It is not an `IndexedMap` multi index: that one would store
     * `denom | 0x00 | len(addr) | addr | denom` and read the old balance on every write (more gas, another
     * app hash). The keeper writes it next to every balance write (`BankKeeper.setBalance`).
     */
    DenomOwners: schema.keySet(0x03, 'address_by_denom_index', pairKey(stringKey, lengthPrefixedBytesKey)),
    /**
     * Per-denom send-enabled flags (the entries of `Params.send_enabled` live here).
     * SDK: `SendEnabled = collections.NewMap(sb, types.SendEnabledPrefix, "send_enabled", collections.StringKey,
     * codec.BoolValue)` (x/bank/keeper/view.go). The SDK's `codec.BoolValue` is a protobuf `BoolValue`
     * (true `0x08 0x01`, false empty); this chain has always stored collections' `BoolValue` (`0x01` / `0x00`),
     * which is kept.
     */
    SendEnabled: schema.map(0x04, 'send_enabled', stringKey, boolValue),
    /**
     * The params, stored with `send_enabled` empty.
     * SDK: `Params = collections.NewItem(sb, types.ParamsKey, "params", codec.CollValue[types.Params](cdc))`
     * (x/bank/keeper/view.go).
     */
    Params: schema.item(0x05, 'params', lazyProtoValue<BankParams>(registry, 'chain.bank.v1beta1.Params')),
  };
}

/** The collections of `bankSchema`. */
export type BankState = ReturnType<typeof bankSchema>;

