/**
 * gov state, declared once: the collections of the module store `gov`, with the key layout of Cosmos SDK
 * v0.45 (x/gov/types/keys.go). The keeper, the query server and genesis read and write only through these
 * collections; no other file knows a prefix. Genesis export walks the schema.
 *
 * Store keys (under `gov/`; `id` = 8 bytes big-endian, `lp(a)` = one length byte then the address, the
 * SDK's `address.MustLengthPrefix`, `time` = the 29 bytes of `sdk.FormatTimeBytes`):
 *   0x00 | id                → Proposal, protobuf                      (ProposalsKeyPrefix)
 *   0x01 | time | id         → id (8 bytes BE): the active queue, by voting end time    (ActiveProposalQueuePrefix)
 *   0x02 | time | id         → id (8 bytes BE): the inactive queue, by deposit end time (InactiveProposalQueuePrefix)
 *   0x03                     → the next proposal id, 8 bytes BE        (ProposalIDKey)
 *   0x10 | id | lp(depositor) → Deposit, protobuf                      (DepositsKeyPrefix)
 *   0x20 | id | lp(voter)     → Vote, protobuf (option zeroed)         (VotesKeyPrefix)
 *   0x30                     → Params, protobuf (the three param sets; v0.45 keeps them in the x/params
 *                              subspace `gov`, this chain in the module store, as v0.47's ParamsKey 0x30)
 */
import type { ProtoRegistry } from '@chain/codec';
import { BaseKeyCodec, EncodingError, Schema, lengthPrefixedBytesKey, pairKey, protoValue, uint64Key, uint64Value } from '@chain/collections';
import type { Cursor, KeyCodec } from '@chain/collections';
import type { Deposit, Params, Proposal, Vote } from './gen/chain/gov/v1beta1.js';

export const MODULE_NAME = 'gov';
export const STORE_KEY = 'gov';
/** `types.RouterKey`: the route of gov's own content (TextProposal) */
export const ROUTER_KEY = 'gov';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

/** Length of `sdk.FormatTimeBytes` (`2006-01-02T15:04:05.000000000`). */
export const TIME_KEY_LENGTH = 29;

/** The sortable time text of the queue keys: fixed width, so the same bytes terminal and non-terminal. */
class TimeKeyCodec extends BaseKeyCodec<string> {
  readonly keyType = 'sortable_time';
  size(key: string): number {
    if (typeof key !== 'string' || key.length !== TIME_KEY_LENGTH || !/^[0-9T:.-]+$/.test(key)) {
      throw new EncodingError(`time key: ${JSON.stringify(key)} is not a ${TIME_KEY_LENGTH}-byte sortable time`);
    }
    return TIME_KEY_LENGTH;
  }
  write(buf: Uint8Array, pos: number, key: string): number {
    for (let i = 0; i < TIME_KEY_LENGTH; i++) buf[pos + i] = key.charCodeAt(i);
    return pos + TIME_KEY_LENGTH;
  }
  read(buf: Uint8Array, start: number, end: number): string {
    if (end - start !== TIME_KEY_LENGTH) throw new EncodingError(`time key: ${end - start} bytes, want ${TIME_KEY_LENGTH}`);
    return String.fromCharCode(...buf.subarray(start, end));
  }
  sizeNonTerminal(key: string): number {
    return this.size(key);
  }
  writeNonTerminal(buf: Uint8Array, pos: number, key: string): number {
    return this.write(buf, pos, key);
  }
  readNonTerminal(buf: Uint8Array, cur: Cursor): string {
    if (cur.pos + TIME_KEY_LENGTH > cur.end) throw new EncodingError(`time key: fewer than ${TIME_KEY_LENGTH} bytes`);
    const k = this.read(buf, cur.pos, cur.pos + TIME_KEY_LENGTH);
    cur.pos += TIME_KEY_LENGTH;
    return k;
  }
  stringify(key: string): string {
    return key;
  }
}

export const timeKey: KeyCodec<string> = new TimeKeyCodec();

/** The gov schema: build one per keeper (`GovKeeper.state`). */
export function govSchema(registry: ProtoRegistry) {
  // the proto values below resolve their types now: load the module's protos (the app loads them again, a no-op)
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  const t = (name: string) => `chain.gov.v1beta1.${name}`;
  return {
    schema,
    /** SDK `ProposalsKeyPrefix` 0x00: proposals by id. */
    Proposals: schema.map(0x00, 'proposals', uint64Key, protoValue<Proposal>(registry, t('Proposal'))),
    /** SDK `ActiveProposalQueuePrefix` 0x01: (voting end time, id) → id, proposals in their voting period. */
    ActiveQueue: schema.map(0x01, 'active_proposal_queue', pairKey(timeKey, uint64Key), uint64Value),
    /** SDK `InactiveProposalQueuePrefix` 0x02: (deposit end time, id) → id, proposals in their deposit period. */
    InactiveQueue: schema.map(0x02, 'inactive_proposal_queue', pairKey(timeKey, uint64Key), uint64Value),
    /** SDK `ProposalIDKey` 0x03: the id of the next proposal. */
    ProposalID: schema.item(0x03, 'proposal_id', uint64Value),
    /** SDK `DepositsKeyPrefix` 0x10: deposits by (proposal id, depositor). */
    Deposits: schema.map(0x10, 'deposits', pairKey(uint64Key, lengthPrefixedBytesKey), protoValue<Deposit>(registry, t('Deposit'))),
    /** SDK `VotesKeyPrefix` 0x20: votes by (proposal id, voter). */
    Votes: schema.map(0x20, 'votes', pairKey(uint64Key, lengthPrefixedBytesKey), protoValue<Vote>(registry, t('Vote'))),
    /** The deposit, voting and tally params (0x30, see above). */
    Params: schema.item(0x30, 'params', protoValue<Params>(registry, t('Params'))),
  };
}

/** The collections of `govSchema`. */
export type GovState = ReturnType<typeof govSchema>;
