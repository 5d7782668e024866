/**
 * Key layout of the node database. The first key byte is the namespace; 0x00-0x0F belong to the store,
 * 0x10 and above to other components (block store, tx indexer, ...), written through `extraOps`.
 *
 *   NS_STATE    0x01 || key                 -> value        (current state, flat: what execution reads)
 *   NS_META     0x03 || 0x01                -> BE64(lastHeight) || lastAppHash
 *               0x03 || 0x02                -> BE64(first height) (absent: 1)
 *               0x03 || 0x03                -> the mounted stores (commitment.ts)
 *               0x03 || 0x04                -> BE64(last pruned height) (absent: 0)
 *               0x03 || 0x05                -> BE64(format): the tree format (STORE_FORMAT), written with the first block
 *   NS_TREES    0x05 || name || '/' || ...  -> the IAVL tree of store `name` (nodes, roots, orphans: @chain/iavl)
 *
 * 0x02 and 0x04 held the flat state history of the first store format (before the IAVL commitment); they are
 * not written any more, and a database that has them is refused at open.
 */
import { readBE64, writeBE64 } from '@chain/iavl';
import type { Bytes } from './types.js';

export { readBE64, writeBE64 };

/** Namespace of the current state: NS_STATE || key -> value. */
export const NS_STATE = 0x01;
/** Namespace of the commit metadata (last height, last app hash, mounted stores, pruning). */
export const NS_META = 0x03;
/** Namespace of the state commitment: one IAVL tree per store, under NS_TREES || name || '/'. */
export const NS_TREES = 0x05;
/** Namespaces of the first store format's history (see above). */
export const NS_LEGACY_VERSIONS = 0x02;
export const NS_LEGACY_CHANGES = 0x04;
/** First namespace byte available to other components (0x00-0x0F are reserved for the store). */
export const NS_FIRST_EXTERNAL = 0x10;

/** The single metadata key: value is BE64(lastHeight) || lastAppHash. */
export const META_KEY: Bytes = new Uint8Array([NS_META, 0x01]);

/**
 * The height of the first committed block, written with it when it is not 1 (a chain started from an
 * exported genesis with `initial_height` > 1); absent in a store whose first block was height 1.
 */
export const FIRST_HEIGHT_KEY: Bytes = new Uint8Array([NS_META, 0x02]);

/**
 * The on-disk format of the state trees: 2 since the orphan lists hold node ids only (@chain/iavl). A database with
 * blocks but another (or no) format is refused at open: its pruning would misread the orphan lists.
 */
export const STORE_FORMAT = 2;
export const FORMAT_KEY: Bytes = new Uint8Array([NS_META, 0x05]);

/** NS_STATE || key. */
export function stateKey(key: Bytes): Bytes {
  const out = new Uint8Array(key.length + 1);
  out[0] = NS_STATE;
  out.set(key, 1);
  return out;
}

/** Metadata value: BE64(height) || appHash. */
export function encodeMeta(height: number, appHash: Bytes): Bytes {
  const out = new Uint8Array(8 + appHash.length);
  writeBE64(out, 0, height);
  out.set(appHash, 8);
  return out;
}

/** Decode the metadata value. */
export function decodeMeta(v: Bytes): { height: number; appHash: Bytes } {
  if (v.length < 8) throw new Error('malformed store metadata');
  return { height: readBE64(v, 0), appHash: v.slice(8) };
}
