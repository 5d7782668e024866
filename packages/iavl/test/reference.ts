/**
 * A deliberately simple in-memory IAVL+ tree (cosmos/iavl v0.19.5 `mutable_tree.go` `recursiveSet`,
 * `recursiveRemove`, `balance`, `rotateLeft/Right`, `node.go` `clone` and `_hash`), written from the Go sources
 * without any of the package's storage or caching: the oracle of the randomized comparison test. Nodes are
 * objects with child references; a saved node is immutable (changes clone it at the working version); hashes use
 * `node:crypto` and Go's varints.
 */
import { createHash } from 'node:crypto';
import { iavlInnerOps, iavlLeafOp, type ExistenceProof, type PathStep } from '../src/proof.js';

interface RNode {
  key: Uint8Array;
  value: Uint8Array | undefined;
  version: number;
  height: number;
  size: number;
  left: RNode | undefined;
  right: RNode | undefined;
  saved: boolean;
  hash: Uint8Array | undefined;
}

const sha = (...parts: Uint8Array[]): Uint8Array => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

function uvarint(n: number): Uint8Array {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Uint8Array.from(out);
}

const varint = (n: number): Uint8Array => uvarint(n >= 0 ? n * 2 : -n * 2 - 1);

function cmp(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

function hashOf(n: RNode): Uint8Array {
  if (n.hash !== undefined) return n.hash;
  const head = [varint(n.height), varint(n.size), varint(n.version)];
  const h =
    n.height === 0
      ? sha(...head, uvarint(n.key.length), n.key, uvarint(32), sha(n.value!))
      : sha(...head, uvarint(32), hashOf(n.left!), uvarint(32), hashOf(n.right!));
  if (n.saved) n.hash = h; // only saved nodes are immutable
  return h;
}

const leaf = (key: Uint8Array, value: Uint8Array, version: number): RNode => ({
  key,
  value,
  version,
  height: 0,
  size: 1,
  left: undefined,
  right: undefined,
  saved: false,
  hash: undefined,
});

export class ReferenceTree {
  private root: RNode | undefined;
  private readonly roots = new Map<number, RNode | undefined>();
  version = 0;

  constructor(private readonly initialVersion = 1) {}

  private get working(): number {
    return this.version === 0 ? this.initialVersion : this.version + 1;
  }

  private clone(n: RNode): RNode {
    if (!n.saved) return n;
    return { ...n, version: this.working, saved: false, hash: undefined };
  }

  private fix(n: RNode): void {
    n.height = Math.max(n.left!.height, n.right!.height) + 1;
    n.size = n.left!.size + n.right!.size;
  }

  private rotateRight(n: RNode): RNode {
    const l = this.clone(n.left!);
    n.left = l.right;
    l.right = n;
    this.fix(n);
    this.fix(l);
    return l;
  }

  private rotateLeft(n: RNode): RNode {
    const r = this.clone(n.right!);
    n.right = r.left;
    r.left = n;
    this.fix(n);
    this.fix(r);
    return r;
  }

  private balance(n: RNode): RNode {
    const b = n.left!.height - n.right!.height;
    if (b > 1) {
      const l = n.left!;
      if (l.left!.height - l.right!.height >= 0) return this.rotateRight(n);
      n.left = this.rotateLeft(this.clone(l));
      return this.rotateRight(n);
    }
    if (b < -1) {
      const r = n.right!;
      if (r.left!.height - r.right!.height <= 0) return this.rotateLeft(n);
      n.right = this.rotateRight(this.clone(r));
      return this.rotateLeft(n);
    }
    return n;
  }

  set(key: Uint8Array, value: Uint8Array): void {
    const v = this.working;
    if (this.root === undefined) {
      this.root = leaf(key.slice(), value.slice(), v);
      return;
    }
    this.root = this.setRec(this.root, key.slice(), value.slice(), v).node;
  }

  private setRec(n: RNode, key: Uint8Array, value: Uint8Array, v: number): { node: RNode; updated: boolean } {
    if (n.height === 0) {
      const c = cmp(key, n.key);
      if (c === 0) return { node: leaf(n.key, value, v), updated: true };
      const l = leaf(key, value, v);
      const inner: RNode = {
        key: c < 0 ? n.key : key,
        value: undefined,
        version: v,
        height: 1,
        size: 2,
        left: c < 0 ? l : n,
        right: c < 0 ? n : l,
        saved: false,
        hash: undefined,
      };
      return { node: inner, updated: false };
    }
    const m = this.clone(n);
    let updated: boolean;
    if (cmp(key, m.key) < 0) {
      const r = this.setRec(m.left!, key, value, v);
      m.left = r.node;
      updated = r.updated;
    } else {
      const r = this.setRec(m.right!, key, value, v);
      m.right = r.node;
      updated = r.updated;
    }
    if (updated) return { node: m, updated };
    this.fix(m);
    return { node: this.balance(m), updated };
  }

  remove(key: Uint8Array): boolean {
    if (this.root === undefined) return false;
    const r = this.removeRec(this.root, key);
    if (r === undefined) return false;
    this.root = r.node;
    return true;
  }

  /** undefined: not found; node undefined: the subtree was the removed leaf. */
  private removeRec(n: RNode, key: Uint8Array): { node: RNode | undefined; newKey: Uint8Array | undefined } | undefined {
    if (n.height === 0) return cmp(key, n.key) === 0 ? { node: undefined, newKey: undefined } : undefined;
    if (cmp(key, n.key) < 0) {
      const r = this.removeRec(n.left!, key);
      if (r === undefined) return undefined;
      if (r.node === undefined) return { node: n.right, newKey: n.key };
      const m = this.clone(n);
      m.left = r.node;
      this.fix(m);
      return { node: this.balance(m), newKey: r.newKey };
    }
    const r = this.removeRec(n.right!, key);
    if (r === undefined) return undefined;
    if (r.node === undefined) return { node: n.left, newKey: undefined };
    const m = this.clone(n);
    m.right = r.node;
    if (r.newKey !== undefined) m.key = r.newKey;
    this.fix(m);
    return { node: this.balance(m), newKey: undefined };
  }

  /** Save the working tree as the next version; returns its root hash (sha256("") when empty). */
  save(): Uint8Array {
    const v = this.working;
    const mark = (n: RNode | undefined): void => {
      if (n === undefined || n.saved) return;
      mark(n.left);
      mark(n.right);
      n.saved = true;
    };
    mark(this.root);
    this.version = v;
    this.roots.set(v, this.root);
    return this.rootHash(v);
  }

  rootHash(version: number): Uint8Array {
    const r = this.roots.get(version);
    return r === undefined ? sha() : hashOf(r);
  }

  /** Drop a saved version (its root only: nodes are garbage collected). */
  forget(version: number): void {
    this.roots.delete(version);
  }

  get(version: number, key: Uint8Array): Uint8Array | undefined {
    let n = this.roots.get(version);
    while (n !== undefined && n.height > 0) n = cmp(key, n.key) < 0 ? n.left : n.right;
    return n !== undefined && cmp(n.key, key) === 0 ? n.value : undefined;
  }

  /** All entries of a version, in key order. */
  entries(version: number): [Uint8Array, Uint8Array][] {
    const out: [Uint8Array, Uint8Array][] = [];
    const walk = (n: RNode | undefined): void => {
      if (n === undefined) return;
      if (n.height === 0) out.push([n.key, n.value!]);
      else {
        walk(n.left);
        walk(n.right);
      }
    };
    walk(this.roots.get(version));
    return out;
  }

  /** IAVL's existence proof of a present key (`createExistenceProof` + `convertLeafOp`/`convertInnerOps`). */
  existenceProof(version: number, key: Uint8Array): ExistenceProof {
    let n = this.roots.get(version);
    const path: PathStep[] = [];
    while (n !== undefined && n.height > 0) {
      if (cmp(key, n.key) < 0) {
        path.push({ height: n.height, size: n.size, version: n.version, right: hashOf(n.right!) });
        n = n.left;
      } else {
        path.push({ height: n.height, size: n.size, version: n.version, left: hashOf(n.left!) });
        n = n.right;
      }
    }
    if (n === undefined || cmp(n.key, key) !== 0) throw new Error('reference: key not in tree');
    return { key: n.key.slice(), value: n.value!.slice(), leaf: iavlLeafOp(n.version), path: iavlInnerOps(path) };
  }
}
