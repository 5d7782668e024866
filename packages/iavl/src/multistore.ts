/**
 * The second level of the Cosmos SDK's state commitment: the app hash is the CometBFT "simple" Merkle root of
 * the map storeName -> store root hash (cosmos-sdk v0.45 `store/types/commit_info.go` `CommitInfo.Hash`, through
 * `store/internal/maps.ProofsFromMap`), and a store's root is proved in it by an ICS-23 existence proof checked
 * with `tendermintSpec` (`CommitInfo.ProofOp`, `store/internal/proofs.ConvertExistenceProof`).
 *
 *   item(name, hash) = uvarint(len(name)) || name || uvarint(32) || sha256(hash)      (maps.KVPair.Bytes)
 *   leaf(item)       = sha256(0x00 || item)
 *   inner(l, r)      = sha256(0x01 || l || r)
 *   root(items)      = leaf(item) for one item; inner(root(first k), root(rest)) with k the largest power of 2
 *                      below the count; items sorted by name (bytewise)
 */
import { type Bytes, EMPTY_HASH, compareBytes, concatBytes, copyBytes, putUvarint, sha256, uvarintSize } from './encoding.js';
import { type CommitmentProof, type ExistenceProof, HashOp, type InnerOp, LengthOp } from './proof.js';

export interface StoreRoot {
  name: string;
  /** The store's commit hash (an IAVL root hash; sha256("") for an empty IAVL store). */
  hash: Bytes;
}

const enc = new TextEncoder();

/** CometBFT `merkle.HashFromByteSlices` over raw items (RFC 6962 shape, 0x00 leaf / 0x01 inner prefixes). */
export function simpleMerkleRoot(items: readonly Bytes[]): Bytes {
  if (items.length === 0) return EMPTY_HASH;
  return rootOf(items.map(leafHashOf));
}

function leafHashOf(item: Bytes): Bytes {
  return sha256(concatBytes(Uint8Array.of(0), item));
}

function innerHashOf(l: Bytes, r: Bytes): Bytes {
  const b = new Uint8Array(1 + l.length + r.length);
  b[0] = 1;
  b.set(l, 1);
  b.set(r, 1 + l.length);
  return sha256(b);
}

function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function rootOf(leaves: readonly Bytes[]): Bytes {
  if (leaves.length === 1) return leaves[0]!;
  const k = splitPoint(leaves.length);
  return innerHashOf(rootOf(leaves.slice(0, k)), rootOf(leaves.slice(k)));
}

/** Aunts of leaf `i` from the leaf up, and whether each aunt is on the right. */
function auntsOf(leaves: readonly Bytes[], i: number): { hash: Bytes; right: boolean }[] {
  if (leaves.length <= 1) return [];
  const k = splitPoint(leaves.length);
  if (i < k) return [...auntsOf(leaves.slice(0, k), i), { hash: rootOf(leaves.slice(k)), right: true }];
  return [...auntsOf(leaves.slice(k), i - k), { hash: rootOf(leaves.slice(0, k)), right: false }];
}

/** `maps.KVPair.Bytes` of (name, sha256(hash)). */
function kvItem(name: Bytes, hash: Bytes): Bytes {
  const vh = sha256(hash);
  const out = new Uint8Array(uvarintSize(name.length) + name.length + uvarintSize(vh.length) + vh.length);
  let off = putUvarint(out, 0, name.length);
  out.set(name, off);
  off += name.length;
  off = putUvarint(out, off, vh.length);
  out.set(vh, off);
  return out;
}

function sortedStores(stores: readonly StoreRoot[]): { name: Bytes; hash: Bytes }[] {
  const s = stores.map((x) => ({ name: enc.encode(x.name), hash: x.hash }));
  s.sort((a, b) => compareBytes(a.name, b.name));
  for (let i = 1; i < s.length; i++)
    if (compareBytes(s[i - 1]!.name, s[i]!.name) === 0) throw new Error(`multistore: duplicate store name`);
  for (const x of s) if (x.name.length === 0) throw new Error('multistore: empty store name');
  return s;
}

/**
 * The app hash over the stores' roots (`CommitInfo.Hash()` of SDK v0.45): the simple Merkle root of the sorted
 * map; the empty byte string when there is no store (the SDK returns nil).
 */
export function multistoreRoot(stores: readonly StoreRoot[]): Bytes {
  if (stores.length === 0) return new Uint8Array(0);
  return simpleMerkleRoot(sortedStores(stores).map((s) => kvItem(s.name, s.hash)));
}

/** The tendermintSpec / SDK leaf op: sha256(0x00 || varproto(key) || key || varproto(32) || sha256(value)). */
function simpleLeafOp(): ExistenceProof['leaf'] {
  return {
    hash: HashOp.SHA256,
    prehashKey: HashOp.NO_HASH,
    prehashValue: HashOp.SHA256,
    length: LengthOp.VAR_PROTO,
    prefix: Uint8Array.of(0),
  };
}

/**
 * The ICS-23 existence proof of store `name`'s root hash in the app hash (`CommitInfo.ProofOp(name)`): key = the
 * store name, value = its root hash; verify with `tendermintSpec`.
 */
export function multistoreProof(stores: readonly StoreRoot[], name: string): CommitmentProof {
  const s = sortedStores(stores);
  const nb = enc.encode(name);
  const i = s.findIndex((x) => compareBytes(x.name, nb) === 0);
  if (i < 0) throw new Error(`multistore: no store named ${name}`);
  const leaves = s.map((x) => leafHashOf(kvItem(x.name, x.hash)));
  const path: InnerOp[] = auntsOf(leaves, i).map((a) =>
    a.right
      ? { hash: HashOp.SHA256, prefix: Uint8Array.of(1), suffix: a.hash }
      : { hash: HashOp.SHA256, prefix: concatBytes(Uint8Array.of(1), a.hash), suffix: new Uint8Array(0) },
  );
  return { exist: { key: nb, value: copyBytes(s[i]!.hash), leaf: simpleLeafOp(), path } };
}
