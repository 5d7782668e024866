/**
 * liquidity state, declared once: the collections of the module store `liquidity`. The keeper, the query
 * server and genesis read and write only through these collections; no other file knows a prefix.
 *
 * Store keys (under `liquidity/`), the original's layout (x/liquidity/types/keys.go of tendermint/liquidity
 * v1.4.5 and of the fork oracleNetworkProtocol/liquidity v0.4.5) plus the params:
 *   0x00                                   → Params, protobuf (an x/params subspace in the original)
 *   "globalLiquidityPoolId"                → google.protobuf.UInt64Value: the next pool id (from 1)
 *   0x11 | pool_id (8)                     → Pool
 *   0x12 | len | reserve account           → google.protobuf.UInt64Value{pool_id}
 *   0x22 | pool_id                         → PoolBatch
 *   0x31 | pool_id | msg_index (8)         → DepositMsgState
 *   0x32 | pool_id | msg_index             → WithdrawMsgState
 *   0x33 | pool_id | msg_index             → SwapMsgState
 *   0x34 | pool_id | address (20) | msg_index → DepositSuccessMsg
 *   0x35 | pool_id | msg_index             → the depositor's 20 address bytes (the index of 0x34)
 *   0x36 | pool_id | address | msg_index   → SwapSuccessMsg
 *   0x37 | pool_id | msg_index             → the requester's address (the index of 0x36)
 *   0x38 | pool_id | address | msg_index   → WithdrawSuccessMsg
 *   0x39 | pool_id | msg_index             → the withdrawer's address (the index of 0x38)
 * (the fork's 0x35/0x37/0x39 hold the whole key of the record; here its address part, from which the key follows)
 */
import type { ProtoRegistry } from '@chain/codec';
import { Schema, bytesValue, fixedBytesKey, lengthPrefixedBytesKey, pairKey, protoValue, tripleKey, uint64Key } from '@chain/collections';
import type {
  DepositMsgState, DepositSuccessMsg, Params, Pool, PoolBatch, SwapMsgState, SwapSuccessMsg, WithdrawMsgState, WithdrawSuccessMsg,
} from './gen/chain/liquidity/v1beta1.js';

export const MODULE_NAME = 'liquidity';
export const STORE_KEY = 'liquidity';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

const ADDRESS_LENGTH = 20;

/** An account address as the original's keys write it: its 20 bytes, no length prefix. */
export const addressKey = fixedBytesKey(ADDRESS_LENGTH);

export interface UInt64Value {
  value: bigint;
}

/** The liquidity schema: build one per keeper (`LiquidityKeeper.state`). */
export function liquiditySchema(registry: ProtoRegistry) {
  // the proto values below resolve their types now: load the module's protos (the app loads them again, a no-op)
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  const u64 = protoValue<UInt64Value>(registry, 'google.protobuf.UInt64Value');
  const poolMsg = pairKey(uint64Key, uint64Key);
  const record = tripleKey(uint64Key, addressKey, uint64Key);
  const T = (n: string) => `chain.liquidity.v1beta1.${n}`;
  return {
    schema,
    /** The params (the original's x/params subspace `liquidity`). */
    Params: schema.item(0x00, 'params', protoValue<Params>(registry, T('Params'))),
    /** The next pool id (`GlobalLiquidityPoolIDKey`); absent = 1. */
    NextPoolId: schema.item('globalLiquidityPoolId', 'next_pool_id', u64),
    Pools: schema.map(0x11, 'pools', uint64Key, protoValue<Pool>(registry, T('Pool'))),
    PoolByReserveAcc: schema.map(0x12, 'pool_by_reserve_acc', lengthPrefixedBytesKey, u64),
    Batches: schema.map(0x22, 'batches', uint64Key, protoValue<PoolBatch>(registry, T('PoolBatch'))),
    DepositMsgStates: schema.map(0x31, 'deposit_msg_states', poolMsg, protoValue<DepositMsgState>(registry, T('DepositMsgState'))),
    WithdrawMsgStates: schema.map(0x32, 'withdraw_msg_states', poolMsg, protoValue<WithdrawMsgState>(registry, T('WithdrawMsgState'))),
    SwapMsgStates: schema.map(0x33, 'swap_msg_states', poolMsg, protoValue<SwapMsgState>(registry, T('SwapMsgState'))),
    DepositSuccess: schema.map(0x34, 'deposit_success_msgs', record, protoValue<DepositSuccessMsg>(registry, T('DepositSuccessMsg'))),
    DepositSuccessIndex: schema.map(0x35, 'deposit_success_index', poolMsg, bytesValue),
    SwapSuccess: schema.map(0x36, 'swap_success_msgs', record, protoValue<SwapSuccessMsg>(registry, T('SwapSuccessMsg'))),
    SwapSuccessIndex: schema.map(0x37, 'swap_success_index', poolMsg, bytesValue),
    WithdrawSuccess: schema.map(0x38, 'withdraw_success_msgs', record, protoValue<WithdrawSuccessMsg>(registry, T('WithdrawSuccessMsg'))),
    WithdrawSuccessIndex: schema.map(0x39, 'withdraw_success_index', poolMsg, bytesValue),
  };
}

/** The collections of `liquiditySchema`. */
export type LiquidityState = ReturnType<typeof liquiditySchema>;
