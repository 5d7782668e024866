/**
 * The block store's block and results records. Every block writes both, in its commit's batch, so their size and the
 * time to write them are on the node's path under load: as JSON (serde.ts) a 2,400-send block's results record was
 * ~8 MB (its events, ~3.4 KB a send) and its block record ~1.1 MB (the txs in base64), ~80% of the block's batch
 * and ~6% of the node's thread to write. They are binary now (the first byte says which form, and JSON records
 * written before read as they did: JSON starts with `{`):
 *
 *   results record: 0x01, height, app hash, per tx (count first) code, codespace, log, info, data, gas wanted,
 *                   gas used; per validator update (count first) pub key, power; then, to the record's end, the
 *                   events as @chain/events' event lists: the block's own events, then each tx's
 *   block record:   0x01, the JSON record of the block with no txs (length first), then the txs (count first)
 *
 * (unsigned varints; bytes and strings length-prefixed). A results record with a number that is not a
 * non-negative safe integer, or an event that is not all strings, is written as JSON.
 */
import { BinaryReader, BinaryWriter, readEventLists, writeEventLists } from '@chain/events';
import type { Event } from '@chain/events';
import type { StoredBlock, StoredResults, StoredTxResult } from './blockstore.js';
import { deserialize, serialize } from './serde.js';

const BINARY = 0x01;
const JSON_START = 0x7b; // '{'

const isUint = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * The results record of a block and, when it is binary, the view of its event lists (list 0 the block's events,
 * list i + 1 tx i's), which the tx index reads.
 */
export function encodeResults(results: StoredResults): { record: Uint8Array; eventLists?: Uint8Array } {
  const w = new BinaryWriter(64 * 1024 + results.txResults.length * 896);
  const events = writeResults(w, results);
  if (events === undefined) return { record: serialize(results) };
  const record = w.view();
  return { record, eventLists: record.subarray(events) };
}

/** Writes the binary record into `w`; returns where its event lists start (undefined: not writable so). */
function writeResults(w: BinaryWriter, r: StoredResults): number | undefined {
  if (!isUint(r.height) || !(r.appHash instanceof Uint8Array)) return undefined;
  w.byte(BINARY);
  w.uint(r.height);
  w.bytes(r.appHash);
  w.uint(r.txResults.length);
  const lists: Event[][] = [r.events];
  for (const t of r.txResults) {
    if (!isUint(t.code) || !isUint(t.gasWanted) || !isUint(t.gasUsed) || !(t.data instanceof Uint8Array)) return undefined;
    if (typeof t.codespace !== 'string' || typeof t.log !== 'string' || typeof t.info !== 'string') return undefined;
    w.uint(t.code);
    w.string(t.codespace);
    w.string(t.log);
    w.string(t.info);
    w.bytes(t.data);
    w.uint(t.gasWanted);
    w.uint(t.gasUsed);
    lists.push(t.events);
  }
  w.uint(r.validatorUpdates.length);
  for (const u of r.validatorUpdates) {
    if (!(u.pubKey instanceof Uint8Array) || !isUint(u.power)) return undefined;
    w.bytes(u.pubKey);
    w.uint(u.power);
  }
  const events = w.pos;
  return writeEventLists(w, lists) ? events : undefined;
}

export function decodeResults(record: Uint8Array): StoredResults {
  if (record[0] === JSON_START) return deserialize<StoredResults>(record);
  if (record[0] !== BINARY) throw new Error(`block store: unknown results record form ${record[0]}`);
  const r = new BinaryReader(record, 1);
  const height = r.uint();
  const appHash = r.bytes();
  const n = r.uint();
  if (n > record.length) throw new Error('binary record: bad tx count');
  const txResults: StoredTxResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const code = r.uint();
    const codespace = r.string();
    const log = r.string();
    const info = r.string();
    const data = r.bytes();
    const gasWanted = r.uint();
    const gasUsed = r.uint();
    txResults[i] = { code, codespace, log, info, data, gasWanted, gasUsed, events: [] };
  }
  const v = r.uint();
  if (v > record.length) throw new Error('binary record: bad validator update count');
  const validatorUpdates = new Array<{ pubKey: Uint8Array; power: number }>(v);
  for (let i = 0; i < v; i++) {
    const pubKey = r.bytes();
    validatorUpdates[i] = { pubKey, power: r.uint() };
  }
  const rest = new BinaryReader(record, r.pos);
  const lists = readEventLists(rest);
  if (rest.pos !== record.length) throw new Error('binary record: bytes after the event lists');
  if (lists.length !== n + 1) throw new Error(`binary record: ${lists.length} event lists for ${n} txs`);
  for (let i = 0; i < n; i++) txResults[i]!.events = lists[i + 1]!;
  return { height, txResults, events: lists[0]!, validatorUpdates, appHash };
}

/** The block record: the block's JSON record without its txs, then the txs as they are. */
export function encodeBlock(stored: StoredBlock): Uint8Array {
  const txs = stored.block.data.txs;
  const head = serialize({ ...stored, block: { ...stored.block, data: { ...stored.block.data, txs: [] } } });
  let size = head.length + 16;
  for (const t of txs) size += t.length + 5;
  const w = new BinaryWriter(size);
  w.byte(BINARY);
  w.bytes(head);
  w.uint(txs.length);
  for (const t of txs) w.bytes(t);
  return w.view();
}

export function decodeBlock(record: Uint8Array): StoredBlock {
  if (record[0] === JSON_START) return deserialize<StoredBlock>(record);
  if (record[0] !== BINARY) throw new Error(`block store: unknown block record form ${record[0]}`);
  const r = new BinaryReader(record, 1);
  const stored = deserialize<StoredBlock>(r.bytesView());
  const n = r.uint();
  if (n > record.length) throw new Error('binary record: bad tx count');
  const txs: Uint8Array[] = new Array(n);
  for (let i = 0; i < n; i++) txs[i] = r.bytes();
  stored.block.data.txs = txs;
  return stored;
}
