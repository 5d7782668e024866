/**
 * ICS-23 commitment proofs, as plain objects structurally compatible with `@confio/ics23`'s `ics23.ICommitmentProof`
 * (pass them to its `verifyMembership` / `verifyNonMembership` as they are), their protobuf encoding (the bytes of
 * a `cosmos.ics23.v1.CommitmentProof` / `ics23.CommitmentProof`, as carried in a Tendermint `ProofOp`), and the
 * conversion of an IAVL path to ICS-23 ops (cosmos/iavl v0.19 `proof_ics23.go`: `convertLeafOp`,
 * `convertInnerOps`).
 */
import { type Bytes, putUvarint, putVarint, uvarintSize } from './encoding.js';
import { HASH_SIZE } from './node.js';

/** ics23.HashOp values used here. */
export const HashOp = { NO_HASH: 0, SHA256: 1 } as const;
/** ics23.LengthOp values used here. */
export const LengthOp = { NO_PREFIX: 0, VAR_PROTO: 1 } as const;

export interface LeafOp {
  hash: number;
  prehashKey: number;
  prehashValue: number;
  length: number;
  prefix: Bytes;
}
export interface InnerOp {
  hash: number;
  prefix: Bytes;
  suffix: Bytes;
}
export interface ExistenceProof {
  key: Bytes;
  value: Bytes;
  leaf: LeafOp;
  path: InnerOp[];
}
export interface NonExistenceProof {
  key: Bytes;
  left?: ExistenceProof;
  right?: ExistenceProof;
}
export interface CommitmentProof {
  exist?: ExistenceProof;
  nonexist?: NonExistenceProof;
}

/** One inner node on the path from the root to a leaf: the sibling's hash on the side not taken. */
export interface PathStep {
  height: number;
  size: number;
  version: number;
  /** Hash of the left sibling (set when the path goes right). */
  left?: Bytes;
  /** Hash of the right sibling (set when the path goes left). */
  right?: Bytes;
}

const EMPTY = new Uint8Array(0);

/** IAVL's leaf op (`convertLeafOp`): prefix = varint(0) || varint(1) || varint(version). */
export function iavlLeafOp(version: number): LeafOp {
  const b = new Uint8Array(12);
  b[0] = 0;
  b[1] = 2;
  const end = putVarint(b, 2, version);
  return {
    hash: HashOp.SHA256,
    prehashKey: HashOp.NO_HASH,
    prehashValue: HashOp.SHA256,
    length: LengthOp.VAR_PROTO,
    prefix: b.slice(0, end),
  };
}

/**
 * IAVL's inner ops (`convertInnerOps`), from the leaf up: prefix = varint(height) || varint(size) ||
 * varint(version) || (0x20 || leftHash || 0x20 | 0x20), suffix = (empty | 0x20 || rightHash).
 * `rootToLeaf` is the path as walked from the root.
 */
export function iavlInnerOps(rootToLeaf: readonly PathStep[]): InnerOp[] {
  const ops: InnerOp[] = [];
  for (let i = rootToLeaf.length - 1; i >= 0; i--) {
    const s = rootToLeaf[i]!;
    const b = new Uint8Array(30 + 2 + HASH_SIZE);
    let off = putVarint(b, 0, s.height);
    off = putVarint(b, off, s.size);
    off = putVarint(b, off, s.version);
    let suffix: Bytes = EMPTY;
    if (s.left !== undefined && s.left.length > 0) {
      b[off++] = s.left.length;
      b.set(s.left, off);
      off += s.left.length;
      b[off++] = HASH_SIZE;
    } else {
      b[off++] = HASH_SIZE;
      const r = s.right!;
      suffix = new Uint8Array(1 + r.length);
      suffix[0] = r.length;
      suffix.set(r, 1);
    }
    ops.push({ hash: HashOp.SHA256, prefix: b.slice(0, off), suffix });
  }
  return ops;
}

// ------------------------------------------------------------------------------------------------------------
// Protobuf encoding (proto3, fields in number order, defaults omitted: as Go's gogoproto marshals them).

class Writer {
  private parts: Bytes[] = [];
  len = 0;
  varintField(field: number, v: number): void {
    if (v === 0) return;
    this.tag(field, 0);
    this.uvarint(v);
  }
  bytesField(field: number, v: Bytes | undefined): void {
    if (v === undefined || v.length === 0) return;
    this.tag(field, 2);
    this.uvarint(v.length);
    this.push(v);
  }
  messageField(field: number, w: Writer | undefined): void {
    if (w === undefined) return;
    this.tag(field, 2);
    this.uvarint(w.len);
    for (const p of w.parts) this.push(p);
  }
  finish(): Bytes {
    const out = new Uint8Array(this.len);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
  private tag(field: number, wire: number): void {
    this.uvarint(field * 8 + wire);
  }
  private uvarint(v: number): void {
    const b = new Uint8Array(uvarintSize(v));
    putUvarint(b, 0, v);
    this.push(b);
  }
  private push(b: Bytes): void {
    this.parts.push(b);
    this.len += b.length;
  }
}

function writeLeaf(l: LeafOp): Writer {
  const w = new Writer();
  w.varintField(1, l.hash);
  w.varintField(2, l.prehashKey);
  w.varintField(3, l.prehashValue);
  w.varintField(4, l.length);
  w.bytesField(5, l.prefix);
  return w;
}

function writeInner(op: InnerOp): Writer {
  const w = new Writer();
  w.varintField(1, op.hash);
  w.bytesField(2, op.prefix);
  w.bytesField(3, op.suffix);
  return w;
}

function writeExist(p: ExistenceProof): Writer {
  const w = new Writer();
  w.bytesField(1, p.key);
  w.bytesField(2, p.value);
  w.messageField(3, writeLeaf(p.leaf));
  for (const op of p.path) w.messageField(4, writeInner(op));
  return w;
}

/** The protobuf bytes of an `ics23.CommitmentProof` (exist = 1, nonexist = 2). */
export function encodeCommitmentProof(proof: CommitmentProof): Bytes {
  const w = new Writer();
  if (proof.exist !== undefined) w.messageField(1, writeExist(proof.exist));
  else if (proof.nonexist !== undefined) {
    const n = new Writer();
    n.bytesField(1, proof.nonexist.key);
    if (proof.nonexist.left !== undefined) n.messageField(2, writeExist(proof.nonexist.left));
    if (proof.nonexist.right !== undefined) n.messageField(3, writeExist(proof.nonexist.right));
    w.messageField(2, n);
  }
  return w.finish();
}

/** Tendermint `ProofOp` types of the SDK's two proof levels (store/types/proof.go). */
export const PROOF_OP_IAVL = 'ics23:iavl';
export const PROOF_OP_SIMPLE = 'ics23:simple';
