import { expect } from 'chai';
import { ics23, iavlSpec, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import {
  type CommitmentProof,
  encodeCommitmentProof,
  multistoreProof,
  multistoreRoot,
  type IavlTree,
  type StoreRoot,
} from '../src/index.js';
import { hex, openTree, randBytes, rng, tempDb, testSeed, u, type TempDb } from './helpers.js';

const flip = (b: Uint8Array): Uint8Array => {
  const c = new Uint8Array(b);
  c[c.length - 1]! ^= 1;
  return c;
};

describe('ICS-23 proofs', () => {
  let t: TempDb;
  let tree: IavlTree;
  let keys: Uint8Array[];
  beforeEach(async () => {
    t = await tempDb('iavl-proof');
    tree = await openTree(t.db, 1_000);
    const r = rng(testSeed('proofs'));
    const set = new Map<string, Uint8Array>();
    for (let v = 0; v < 3; v++) {
      for (let i = 0; i < 200; i++) {
        const k = randBytes(r, 1 + Math.floor(r() * 6));
        k[0] = 0x10 + (k[0]! % 0xe0); // leave room below and above every key
        set.set(hex(k), k);
        tree.set(k, randBytes(r, 1 + Math.floor(r() * 40)));
      }
      await tree.saveVersion();
    }
    keys = [...set.values()].sort(Buffer.compare);
  });
  afterEach(async () => {
    await t.remove();
  });

  it('membership proofs verify for every key, and fail for a wrong value, key or root', () => {
    const root = tree.rootHash;
    for (const k of keys) {
      const value = tree.get(k)!;
      const proof = tree.getProof(k);
      expect(proof.exist, hex(k)).to.not.equal(undefined);
      expect(verifyMembership(proof, iavlSpec, root, k, value)).to.equal(true);
    }
    const k = keys[17]!;
    const proof = tree.getProof(k);
    const value = tree.get(k)!;
    expect(verifyMembership(proof, iavlSpec, root, k, flip(value))).to.equal(false);
    expect(verifyMembership(proof, iavlSpec, flip(root), k, value)).to.equal(false);
    expect(verifyMembership(proof, iavlSpec, root, keys[18]!, value)).to.equal(false);
    expect(verifyNonMembership(proof, iavlSpec, root, k)).to.equal(false);
    // a tampered sibling hash
    const bad: CommitmentProof = structuredClone(proof);
    bad.exist!.path[0]!.prefix = flip(bad.exist!.path[0]!.prefix);
    expect(verifyMembership(bad, iavlSpec, root, k, value)).to.equal(false);
    // the proof checks against the tendermint spec fail (wrong spec)
    expect(verifyMembership(proof, tendermintSpec, root, k, value)).to.equal(false);
  });

  it('non-membership proofs verify below the first key, above the last and in the middle', () => {
    const root = tree.rootHash;
    const below = Uint8Array.of(0x01);
    const above = Uint8Array.of(0xff, 0xff);
    const mid = Buffer.concat([keys[100]!, Uint8Array.of(0)]); // just after keys[100]
    expect(keys.some((k) => Buffer.compare(k, mid) === 0)).to.equal(false);
    for (const [k, left, right] of [
      [below, false, true],
      [above, true, false],
      [mid, true, true],
    ] as const) {
      const proof = tree.getProof(k);
      expect(proof.nonexist).to.not.equal(undefined);
      expect(proof.nonexist!.left !== undefined).to.equal(left);
      expect(proof.nonexist!.right !== undefined).to.equal(right);
      expect(verifyNonMembership(proof, iavlSpec, root, k)).to.equal(true);
      expect(verifyNonMembership(proof, iavlSpec, flip(root), k)).to.equal(false);
      expect(verifyMembership(proof, iavlSpec, root, k, u('x'))).to.equal(false);
    }
    // a non-membership proof does not prove another (present) key's absence
    const proof = tree.getProof(mid);
    expect(verifyNonMembership(proof, iavlSpec, root, keys[100]!)).to.equal(false);
    // dropping a neighbour breaks it
    const bad: CommitmentProof = structuredClone(proof);
    delete bad.nonexist!.left;
    expect(verifyNonMembership(bad, iavlSpec, root, mid)).to.equal(false);
    // a present key has no non-membership proof: getProof returns existence
    expect(tree.getProof(keys[5]!).exist).to.not.equal(undefined);
  });

  it('proofs of past versions verify against their own root', async () => {
    const k = keys[3]!;
    const v1 = tree.view(1);
    const v3 = tree.view(3);
    const p1 = v1.getProof(k);
    if (p1.exist !== undefined) {
      expect(verifyMembership(p1, iavlSpec, v1.rootHash, k, v1.get(k)!)).to.equal(true);
      expect(verifyMembership(p1, iavlSpec, v3.rootHash, k, v1.get(k)!)).to.equal(false);
    } else {
      expect(verifyNonMembership(p1, iavlSpec, v1.rootHash, k)).to.equal(true);
    }
    const p3 = tree.getProof(k, 3);
    expect(verifyMembership(p3, iavlSpec, v3.rootHash, k, v3.get(k)!)).to.equal(true);
  });

  it('single-key tree and empty tree', async () => {
    const t2 = await openTree(t.db, 100, u('other/'));
    await t2.saveVersion();
    expect(() => t2.getProof(u('a'))).to.throw(/empty tree/);
    t2.set(u('m'), u('v'));
    const { rootHash } = await t2.saveVersion();
    expect(verifyMembership(t2.getProof(u('m')), iavlSpec, rootHash, u('m'), u('v'))).to.equal(true);
    expect(verifyNonMembership(t2.getProof(u('a')), iavlSpec, rootHash, u('a'))).to.equal(true);
    expect(verifyNonMembership(t2.getProof(u('z')), iavlSpec, rootHash, u('z'))).to.equal(true);
  });

  it('encodes proofs as protobuf ics23.CommitmentProof bytes', () => {
    const exist = tree.getProof(keys[9]!);
    const nonexist = tree.getProof(Uint8Array.of(0xff, 0xff));
    for (const p of [exist, nonexist]) {
      const bytes = encodeCommitmentProof(p);
      const decoded = ics23.CommitmentProof.decode(bytes);
      expect(hex(ics23.CommitmentProof.encode(decoded).finish())).to.equal(hex(bytes));
      const k = p.exist?.key ?? p.nonexist!.key;
      if (p.exist) expect(verifyMembership(decoded, iavlSpec, tree.rootHash, k, p.exist.value)).to.equal(true);
      else expect(verifyNonMembership(decoded, iavlSpec, tree.rootHash, k)).to.equal(true);
    }
  });
});

describe('multistore commitment', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-ms');
  });
  afterEach(async () => {
    await t.remove();
  });

  it('chains key -> store root (iavlSpec) -> app hash (tendermintSpec)', async () => {
    const names = ['acc', 'bank', 'staking', 'distribution', 'gov', 'params', 'evm'];
    const trees = new Map<string, IavlTree>();
    for (const name of names) {
      const tr = await openTree(t.db, 1_000, u(`s/k:${name}/`));
      for (let i = 0; i < 20; i++) tr.set(u(`${name}-${i}`), u(`value-${name}-${i}`));
      trees.set(name, tr);
    }
    const empty = await openTree(t.db, 10, u('s/k:empty/'));
    trees.set('empty', empty);
    const roots: StoreRoot[] = [];
    for (const [name, tr] of trees) roots.push({ name, hash: (await tr.saveVersion()).rootHash });
    const appHash = multistoreRoot(roots);
    expect(appHash.length).to.equal(32);
    // order of the input does not matter (the map is sorted)
    expect(hex(multistoreRoot([...roots].reverse()))).to.equal(hex(appHash));

    for (const name of [...names, 'empty']) {
      const storeRoot = trees.get(name)!.rootHash;
      const sp = multistoreProof(roots, name);
      expect(verifyMembership(sp, tendermintSpec, appHash, u(name), storeRoot), name).to.equal(true);
      expect(verifyMembership(sp, tendermintSpec, appHash, u(name), flip(storeRoot))).to.equal(false);
      expect(verifyMembership(sp, tendermintSpec, flip(appHash), u(name), storeRoot)).to.equal(false);
    }
    // wrong spec: 'acc' (first) has only right-hand aunts, whose 1-byte inner prefixes iavlSpec refuses
    expect(verifyMembership(multistoreProof(roots, 'acc'), iavlSpec, appHash, u('acc'), trees.get('acc')!.rootHash)).to.equal(false);

    // the full chain for one key: first level against the store root, second level against the app hash
    const bank = trees.get('bank')!;
    const key = u('bank-7');
    const value = bank.get(key)!;
    const kp = bank.getProof(key);
    const sp = multistoreProof(roots, 'bank');
    expect(verifyMembership(kp, iavlSpec, bank.rootHash, key, value)).to.equal(true);
    expect(verifyMembership(sp, tendermintSpec, appHash, u('bank'), bank.rootHash)).to.equal(true);
    // the SDK derives the store root from the first proof (ics23 calculateExistenceRoot); chaining a wrong value fails
    const { calculateExistenceRoot } = await import('@confio/ics23');
    expect(hex(calculateExistenceRoot(kp.exist!))).to.equal(hex(bank.rootHash));
    const forgedRoot = calculateExistenceRoot({ ...kp.exist!, value: u('forged') });
    expect(verifyMembership(sp, tendermintSpec, appHash, u('bank'), forgedRoot)).to.equal(false);
    // absence chains the same way
    const np = bank.getProof(u('bank-zz'));
    expect(verifyNonMembership(np, iavlSpec, bank.rootHash, u('bank-zz'))).to.equal(true);

    // one store: the app hash is its leaf; no stores: empty (the SDK's nil)
    const one = multistoreRoot([{ name: 'bank', hash: bank.rootHash }]);
    expect(verifyMembership(multistoreProof([{ name: 'bank', hash: bank.rootHash }], 'bank'), tendermintSpec, one, u('bank'), bank.rootHash)).to.equal(true);
    expect(multistoreRoot([]).length).to.equal(0);
    expect(() => multistoreProof(roots, 'nope')).to.throw(/no store/);
  });
});
