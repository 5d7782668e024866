/**
 * Block store in the node database (written in the same batch as the state of the block):
 *   0x10 | BE64 height → StoredBlock   0x11 | BE64 height → StoredResults
 *   0x12 | block hash  → BE64 height   0x13 | BE64 height → seen Commit for the block
 *   0x14 | BE64 height → validator set of that height and later ones, written where it changes
 *   0x15 | BE64 height → consensus params of that height and later ones, written where they change
 */
import type { BatchOp, Bytes } from '@chain/store';
import type { Event } from '@chain/events';
import type { ExecTxResult } from '@chain/app';
import type { Block, BlockID, Commit, ConsensusParams, Validator } from './cmt-types.js';
import { serialize, deserialize } from './serde.js';
import { decodeBlock, decodeResults, encodeBlock, encodeResults } from './records.js';

/** What the block store keeps of each tx result (the app's ExecTxResult without msg responses). */
export type StoredTxResult = Omit<ExecTxResult, 'msgResponses'>;

export interface StoredValidatorUpdate { pubKey: Uint8Array; power: number }

export interface StoredResults {
  height: number;
  txResults: StoredTxResult[];
  events: Event[];
  validatorUpdates: StoredValidatorUpdate[];
  /** app hash after executing this block (goes into the next header) */
  appHash: Uint8Array;
}

export interface StoredBlock {
  block: Block;
  blockId: BlockID;
  size: number;
}

export interface BlockDB {
  getRaw(key: Bytes): Promise<Bytes | undefined>;
  getRawSync?(key: Bytes): Bytes | undefined;
  iterateRaw(gte: Bytes, lt: Bytes, opts?: { reverse?: boolean; limit?: number }): Promise<[Bytes, Bytes][]>;
}

const P_BLOCK = 0x10;
const P_RESULTS = 0x11;
const P_HASH = 0x12;
const P_COMMIT = 0x13;
const P_VALIDATORS = 0x14;
const P_PARAMS = 0x15;

function hkey(prefix: number, height: number): Uint8Array {
  const k = new Uint8Array(9);
  k[0] = prefix;
  new DataView(k.buffer).setBigUint64(1, BigInt(height));
  return k;
}

function hashKey(hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + hash.length);
  k[0] = P_HASH;
  k.set(hash, 1);
  return k;
}

/** The latest blocks kept decoded (the RPC's hot path): at most this many ... */
const RECENT_BLOCKS = 64;
/**
 * ... and while they hold more than this many txs in all, only the newest (a tx's decoded results are ~25 KB: a
 * 4,000-tx block's ~100 MB, which would stay for 64 more blocks).
 */
const RECENT_TXS = 1000;

/** A small cache of the latest heights, bounded by count and by the txs it holds (the newest is always kept). */
class RecentCache<T> {
  private readonly m = new Map<number, { v: T; txs: number }>();
  private txs = 0;
  get(h: number): T | undefined {
    return this.m.get(h)?.v;
  }
  set(h: number, v: T, txs: number): void {
    const old = this.m.get(h);
    if (old) { this.txs -= old.txs; this.m.delete(h); }
    this.m.set(h, { v, txs });
    this.txs += txs;
    while (this.m.size > RECENT_BLOCKS || (this.txs > RECENT_TXS && this.m.size > 1)) {
      const [k, e] = this.m.entries().next().value!;
      this.m.delete(k);
      this.txs -= e.txs;
    }
  }
  get size(): number {
    return this.m.size;
  }
}

export class BlockStore {
  /** the latest blocks and their results, decoded */
  private readonly recent = new RecentCache<StoredBlock>();
  private readonly recentResults = new RecentCache<StoredResults>();

  constructor(private readonly db: BlockDB) {}

  /**
   * The batch operations that store a block, its results and its seen commit (records.ts), and the view of the
   * results record's event lists when it has them (the FinalizeBlock events, then each tx's: what the tx index
   * reads; see TxIndex.committed).
   */
  saveOps(stored: StoredBlock, results: StoredResults, seenCommit: Commit): { ops: BatchOp[]; eventLists?: Uint8Array } {
    const h = stored.block.header.height;
    const hv = new Uint8Array(8);
    new DataView(hv.buffer).setBigUint64(0, BigInt(h));
    const { record, eventLists } = encodeResults(results);
    const ops: BatchOp[] = [
      { type: 'put', key: hkey(P_BLOCK, h), value: encodeBlock(stored) },
      { type: 'put', key: hkey(P_RESULTS, h), value: record },
      { type: 'put', key: hashKey(stored.blockId.hash), value: hv },
      { type: 'put', key: hkey(P_COMMIT, h), value: serialize(seenCommit) },
    ];
    return { ops, eventLists };
  }

  /** Writes the validator set of `height` (in effect until the next height that has one). */
  validatorsOps(height: number, validators: readonly Validator[]): BatchOp[] {
    return [{ type: 'put', key: hkey(P_VALIDATORS, height), value: serialize(validators) }];
  }

  /** The validator set of `height`: the last set written at or below it (undefined before the first). */
  async validatorsAt(height: number): Promise<Validator[] | undefined> {
    const found = await this.db.iterateRaw(hkey(P_VALIDATORS, 0), hkey(P_VALIDATORS, height + 1), { reverse: true, limit: 1 });
    return found.length === 0 ? undefined : deserialize<Validator[]>(found[0]![1]);
  }

  /** Writes the consensus params in effect from `height` on. */
  paramsOps(height: number, params: ConsensusParams): BatchOp[] {
    return [{ type: 'put', key: hkey(P_PARAMS, height), value: serialize(params) }];
  }

  /** The consensus params of `height`: the last written at or below it (undefined: the genesis ones). */
  async paramsAt(height: number): Promise<ConsensusParams | undefined> {
    const found = await this.db.iterateRaw(hkey(P_PARAMS, 0), hkey(P_PARAMS, height + 1), { reverse: true, limit: 1 });
    return found.length === 0 ? undefined : deserialize<ConsensusParams>(found[0]![1]);
  }

  /** Caches a block after its batch committed (the RPC's hot path reads the latest blocks). */
  committed(stored: StoredBlock, results: StoredResults): void {
    const h = stored.block.header.height;
    this.recent.set(h, stored, stored.block.data.txs.length);
    this.recentResults.set(h, results, results.txResults.length);
  }

  /** heights cached decoded (blocks, results), for tests */
  get cachedHeights(): { blocks: number; results: number } {
    return { blocks: this.recent.size, results: this.recentResults.size };
  }

  async block(height: number): Promise<StoredBlock | undefined> {
    const c = this.recent.get(height);
    if (c) return c;
    const bz = await this.db.getRaw(hkey(P_BLOCK, height));
    return bz ? decodeBlock(bz) : undefined;
  }

  /** The block hash at `height`, synchronously (for the EVM's BLOCKHASH), from the cache or the database. */
  blockHashSync(height: number): Uint8Array | undefined {
    const c = this.recent.get(height);
    if (c) return c.blockId.hash;
    const bz = this.db.getRawSync?.(hkey(P_BLOCK, height));
    return bz ? decodeBlock(bz).blockId.hash : undefined;
  }

  async results(height: number): Promise<StoredResults | undefined> {
    const c = this.recentResults.get(height);
    if (c) return c;
    const bz = await this.db.getRaw(hkey(P_RESULTS, height));
    return bz ? decodeResults(bz) : undefined;
  }

  async seenCommit(height: number): Promise<Commit | undefined> {
    const bz = await this.db.getRaw(hkey(P_COMMIT, height));
    return bz ? deserialize<Commit>(bz) : undefined;
  }

  async heightByHash(hash: Uint8Array): Promise<number | undefined> {
    const bz = await this.db.getRaw(hashKey(hash));
    return bz ? Number(new DataView(bz.buffer, bz.byteOffset, 8).getBigUint64(0)) : undefined;
  }

  /** Lowest stored height (1 unless pruned), or 0 when empty. */
  async baseHeight(): Promise<number> {
    const first = await this.db.iterateRaw(hkey(P_BLOCK, 0), Uint8Array.of(P_BLOCK + 1), { limit: 1 });
    if (first.length === 0) return 0;
    return Number(new DataView(first[0]![0].buffer, first[0]![0].byteOffset + 1, 8).getBigUint64(0));
  }
}
