/**
 * distribution state, declared once: the collections of the module store `distribution`, with the key
 * layout of Cosmos SDK v0.45 (x/distribution/types/keys.go). The keeper, the query server and genesis read
 * and write only through these collections; no other file knows a prefix.
 *
 * Store keys (under `distribution/`; `lp(a)` = one length byte then the address, the SDK's
 * `address.MustLengthPrefix`):
 *   0x00                                    → FeePool, protobuf                        (FeePoolKey)
 *   0x01                                    → previous proposer consensus address, raw (ProposerKey)
 *   0x02 | lp(valoper)                      → ValidatorOutstandingRewards, protobuf
 *   0x03 | lp(delegator)                    → withdraw address, raw bytes
 *   0x04 | lp(valoper) | lp(delegator)      → DelegatorStartingInfo, protobuf
 *   0x05 | lp(valoper) | period (8 bytes LE) → ValidatorHistoricalRewards, protobuf (little endian, as v0.45)
 *   0x06 | lp(valoper)                      → ValidatorCurrentRewards, protobuf
 *   0x07 | lp(valoper)                      → ValidatorAccumulatedCommission, protobuf
 *   0x08 | lp(valoper) | height (8 bytes BE) | period (8 bytes BE) → ValidatorSlashEvent, protobuf
 *   0x09                                    → Params, protobuf
 * v0.45 keeps the params in the x/params subspace `distribution` and the previous proposer as a gogo
 * BytesValue; this chain has no params module, so the params live under 0x09 (v0.47's `ParamsKey`), and the
 * proposer is stored as its raw bytes.
 */
import type { ProtoRegistry } from '@chain/codec';
import { BaseKeyCodec, EncodingError, Schema, bytesValue, lengthPrefixedBytesKey, pairKey, protoValue, tripleKey, uint64Key } from '@chain/collections';
import type { Cursor, KeyCodec } from '@chain/collections';
import type {
  DelegatorStartingInfo, FeePool, Params, ValidatorAccumulatedCommission, ValidatorCurrentRewards, ValidatorHistoricalRewards,
  ValidatorOutstandingRewards, ValidatorSlashEvent,
} from './gen/chain/distribution/v1beta1.js';

export const MODULE_NAME = 'distribution';
export const STORE_KEY = 'distribution';
/** `authtypes.FeeCollectorName` */
export const FEE_COLLECTOR_NAME = 'fee_collector';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

const MAX_U64 = (1n << 64n) - 1n;

/** uint64 as 8 bytes little endian (`binary.LittleEndian.PutUint64`, the historical rewards period). */
class Uint64LEKeyCodec extends BaseKeyCodec<bigint> {
  readonly keyType = 'uint64_le';
  size(key: bigint): number {
    if (typeof key !== 'bigint' || key < 0n || key > MAX_U64) throw new EncodingError(`uint64 LE key: ${String(key)} is not a bigint in [0, 2^64)`);
    return 8;
  }
  write(buf: Uint8Array, pos: number, key: bigint): number {
    this.size(key);
    let k = key;
    for (let i = 0; i < 8; i++) {
      buf[pos + i] = Number(k & 0xffn);
      k >>= 8n;
    }
    return pos + 8;
  }
  read(buf: Uint8Array, start: number, end: number): bigint {
    if (end - start !== 8) throw new EncodingError(`uint64 LE key: ${end - start} bytes, want 8`);
    let k = 0n;
    for (let i = 7; i >= 0; i--) k = (k << 8n) | BigInt(buf[start + i]!);
    return k;
  }
  sizeNonTerminal(key: bigint): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: bigint): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): bigint {
    if (cur.pos + 8 > cur.end) throw new EncodingError('uint64 LE key: fewer than 8 bytes');
    const k = this.read(buf, cur.pos, cur.pos + 8);
    cur.pos += 8;
    return k;
  }
  stringify(key: bigint): string {
    return key.toString();
  }
}

export const uint64LEKey: KeyCodec<bigint> = new Uint64LEKeyCodec();

/** The distribution schema: build one per keeper (`DistributionKeeper.state`). */
export function distributionSchema(registry: ProtoRegistry) {
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  const t = (name: string) => `chain.distribution.v1beta1.${name}`;
  const addr = lengthPrefixedBytesKey;
  return {
    schema,
    FeePool: schema.item(0x00, 'fee_pool', protoValue<FeePool>(registry, t('FeePool'))),
    PreviousProposer: schema.item(0x01, 'previous_proposer', bytesValue),
    OutstandingRewards: schema.map(0x02, 'outstanding_rewards', addr, protoValue<ValidatorOutstandingRewards>(registry, t('ValidatorOutstandingRewards'))),
    WithdrawAddrs: schema.map(0x03, 'delegator_withdraw_infos', addr, bytesValue),
    StartingInfos: schema.map(0x04, 'delegator_starting_infos', pairKey(addr, addr), protoValue<DelegatorStartingInfo>(registry, t('DelegatorStartingInfo'))),
    HistoricalRewards: schema.map(0x05, 'validator_historical_rewards', pairKey(addr, uint64LEKey), protoValue<ValidatorHistoricalRewards>(registry, t('ValidatorHistoricalRewards'))),
    CurrentRewards: schema.map(0x06, 'validator_current_rewards', addr, protoValue<ValidatorCurrentRewards>(registry, t('ValidatorCurrentRewards'))),
    AccumulatedCommission: schema.map(0x07, 'validator_accumulated_commissions', addr, protoValue<ValidatorAccumulatedCommission>(registry, t('ValidatorAccumulatedCommission'))),
    SlashEvents: schema.map(0x08, 'validator_slash_events', tripleKey(addr, uint64Key, uint64Key), protoValue<ValidatorSlashEvent>(registry, t('ValidatorSlashEvent'))),
    Params: schema.item(0x09, 'params', protoValue<Params>(registry, t('Params'))),
  };
}

/** The collections of `distributionSchema`. */
export type DistributionState = ReturnType<typeof distributionSchema>;
