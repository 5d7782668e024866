import { expect } from 'chai';
import { IavlTree, OpsCollector } from '../src/index.js';
import { hex, openTree, randBytes, rng, tempDb, testSeed, u, type TempDb } from './helpers.js';

type Model = Map<string, Uint8Array>;
const keyOf = (k: string): Uint8Array => Buffer.from(k, 'latin1');
const strOf = (k: Uint8Array): string => Buffer.from(k).toString('latin1');

function sortedModel(m: Model): [string, string][] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, hex(v)]);
}

function treeEntries(it: Iterable<[Uint8Array, Uint8Array]>): [string, string][] {
  return [...it].map(([k, v]) => [strOf(k), hex(v)]);
}

describe('IavlTree', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(async () => {
    await t.remove();
  });

  it('sets, updates, gets and removes', async () => {
    const tree = await openTree(t.db);
    expect(tree.get(u('a'))).to.equal(undefined);
    expect(tree.set(u('a'), u('1'))).to.equal(false);
    expect(tree.set(u('b'), u('2'))).to.equal(false);
    expect(tree.set(u('a'), u('3'))).to.equal(true);
    expect(hex(tree.get(u('a'))!)).to.equal(hex(u('3')));
    expect(tree.has(u('b'))).to.equal(true);
    expect(tree.size).to.equal(2);
    expect(hex(tree.remove(u('a'))!)).to.equal(hex(u('3')));
    expect(tree.remove(u('a'))).to.equal(undefined);
    expect(tree.size).to.equal(1);
    expect(() => tree.set(new Uint8Array(0), u('x'))).to.throw(/non-empty/);
    // Buffers are copied too (Buffer#slice would be a view)
    const kb = Buffer.from('buf');
    const vb = Buffer.from('val');
    tree.set(kb, vb);
    kb[0] = 0x41;
    vb[0] = 0x41;
    expect(Buffer.from(tree.get(u('buf'))!).toString()).to.equal('val');
  });

  it('keeps the AVL invariants and equals a sorted-map model under random ops', async function () {
    this.timeout(60_000);
    const seed = testSeed('model');
    const r = rng(seed);
    const tree = await openTree(t.db, 2_000);
    const model: Model = new Map();
    const keys: string[] = [];
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 400; i++) {
        const x = r();
        if (x < 0.3 && keys.length > 0) {
          const idx = Math.floor(r() * keys.length);
          const k = keys[idx]!;
          keys[idx] = keys[keys.length - 1]!;
          keys.pop();
          model.delete(k);
          expect(tree.remove(keyOf(k))).to.not.equal(undefined);
        } else if (x < 0.45 && keys.length > 0) {
          const k = keys[Math.floor(r() * keys.length)]!;
          const v = randBytes(r, 1 + Math.floor(r() * 8));
          model.set(k, v);
          expect(tree.set(keyOf(k), v)).to.equal(true);
        } else if (x < 0.5) {
          // removing an absent key changes nothing
          expect(tree.remove(keyOf('\xff\xff' + String(round) + 'absent'))).to.equal(undefined);
        } else {
          // short keys from a small alphabet: many shared prefixes and neighbours
          const k = strOf(randBytes(r, 1 + Math.floor(r() * 3)).map((b) => b % 8));
          const v = randBytes(r, 1 + Math.floor(r() * 8));
          const existed = model.has(k);
          if (!existed) keys.push(k);
          model.set(k, v);
          expect(tree.set(keyOf(k), v)).to.equal(existed);
        }
      }
      tree.checkInvariants();
      expect(tree.size).to.equal(model.size);
      expect(treeEntries(tree.iterator())).to.deep.equal(sortedModel(model));
      if (round % 3 === 2) await tree.saveVersion();
    }
    // ranges, forward and reverse, over the model
    const sorted = sortedModel(model);
    for (let i = 0; i < 50; i++) {
      const a = strOf(randBytes(r, 1 + Math.floor(r() * 2)).map((b) => b % 8));
      const b = strOf(randBytes(r, 1 + Math.floor(r() * 2)).map((b) => b % 8));
      const want = sorted.filter(([k]) => k >= a && k < b);
      expect(treeEntries(tree.iterator(keyOf(a), keyOf(b)))).to.deep.equal(want);
      expect(treeEntries(tree.iterator(keyOf(a), keyOf(b), true))).to.deep.equal([...want].reverse());
    }
    expect(treeEntries(tree.iterator(undefined, undefined, true))).to.deep.equal([...sorted].reverse());
  });

  it('keeps every saved version readable (getAt, views) and reopens with equal state and root', async () => {
    const seed = testSeed('versions');
    const r = rng(seed);
    let tree = await openTree(t.db, 500);
    const snapshots: { version: number; root: string; entries: [string, string][] }[] = [];
    const model: Model = new Map();
    for (let v = 1; v <= 8; v++) {
      for (let i = 0; i < 150; i++) {
        const k = strOf(randBytes(r, 2));
        if (r() < 0.25 && model.has(k)) {
          model.delete(k);
          tree.remove(keyOf(k));
        } else {
          const val = randBytes(r, 4);
          model.set(k, val);
          tree.set(keyOf(k), val);
        }
      }
      const s = await tree.saveVersion();
      expect(s.version).to.equal(v);
      snapshots.push({ version: v, root: hex(s.rootHash), entries: sortedModel(model) });
    }
    // a version with no change keeps the root
    const same = await tree.saveVersion();
    expect(hex(same.rootHash)).to.equal(snapshots[7]!.root);
    expect(same.version).to.equal(9);
    for (const s of snapshots) {
      const view = tree.view(s.version);
      expect(hex(view.rootHash)).to.equal(s.root);
      expect(treeEntries(view.iterator())).to.deep.equal(s.entries);
      const [k, v] = s.entries[0]!;
      expect(hex(tree.getAt(s.version, keyOf(k))!)).to.equal(v);
    }
    // uncommitted changes are not visible in views
    tree.set(u('zzz-working'), u('w'));
    expect(tree.view().get(u('zzz-working'))).to.equal(undefined);
    expect(tree.get(u('zzz-working'))).to.not.equal(undefined);
    tree.rollback();
    expect(tree.get(u('zzz-working'))).to.equal(undefined);

    // reopen: only the root is loaded, state and root are equal
    await t.reopen();
    tree = await openTree(t.db, 500);
    expect(tree.version).to.equal(9);
    expect(tree.availableVersions()).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(tree.dbReads).to.equal(1);
    expect(hex(tree.rootHash)).to.equal(snapshots[7]!.root);
    expect(treeEntries(tree.iterator())).to.deep.equal(snapshots[7]!.entries);
    expect(treeEntries(tree.view(3).iterator())).to.deep.equal(snapshots[2]!.entries);
    // and continues: same hash as a tree that never closed would produce
    tree.set(u('after'), u('reopen'));
    const s10 = await tree.saveVersion();
    expect(s10.version).to.equal(10);
    tree.checkInvariants();
  });

  it('stages a version into the caller batch, serves it before the write, and can discard it', async () => {
    const tree = await openTree(t.db);
    tree.set(u('a'), u('1'));
    await tree.saveVersion();
    tree.set(u('b'), u('2'));
    const sink = new OpsCollector();
    const staged = tree.stageVersion(sink);
    expect(staged.version).to.equal(2);
    expect(staged.ops).to.deep.equal([]);
    expect(sink.ops.length).to.be.at.least(2); // node chunk record(s) + root record
    expect(() => tree.set(u('c'), u('3'))).to.throw(/staged/);
    expect(hex(tree.getAt(2, u('b'))!)).to.equal(hex(u('2')));
    const proof = tree.getProof(u('b'));
    expect(proof.exist).to.not.equal(undefined);
    // the caller's own batch: its data and the tree's version together
    await t.db.batch([...sink.ops, { type: 'put', key: u('\x10caller'), value: u('x') }], { sync: true });
    tree.commitStaged();

    tree.set(u('c'), u('3'));
    const s3 = tree.stageVersion();
    expect(s3.ops.length).to.be.greaterThan(0);
    tree.discardStaged(); // pretend the write failed
    expect(tree.version).to.equal(2);
    expect(tree.get(u('c'))).to.equal(undefined);
    await t.reopen();
    const again = await openTree(t.db);
    expect(again.version).to.equal(2);
    expect(hex(again.rootHash)).to.equal(hex(staged.rootHash));
  });

  it('two trees share one database under different prefixes', async () => {
    const a = await IavlTree.open({ db: t.db, prefix: u('s/k:a/') });
    const b = await IavlTree.open({ db: t.db, prefix: u('s/k:b/') });
    a.set(u('k'), u('a'));
    b.set(u('k'), u('b'));
    await a.saveVersion();
    await b.saveVersion();
    await b.saveVersion();
    expect(a.version).to.equal(1);
    expect(b.version).to.equal(2);
    await t.reopen();
    const a2 = await IavlTree.open({ db: t.db, prefix: u('s/k:a/') });
    const b2 = await IavlTree.open({ db: t.db, prefix: u('s/k:b/') });
    expect(hex(a2.get(u('k'))!)).to.equal(hex(u('a')));
    expect(hex(b2.get(u('k'))!)).to.equal(hex(u('b')));
    expect(b2.availableVersions()).to.deep.equal([1, 2]);
  });

  it('initialVersion sets the first version', async () => {
    const tree = await IavlTree.open({ db: t.db, prefix: u('p/'), initialVersion: 100 });
    tree.set(u('a'), u('1'));
    expect((await tree.saveVersion()).version).to.equal(100);
    expect((await tree.saveVersion()).version).to.equal(101);
  });

  it('a small cache still reads everything (evictions reload from disk)', async () => {
    const tree = await openTree(t.db, 16);
    const r = rng(7);
    const model: Model = new Map();
    for (let v = 0; v < 5; v++) {
      for (let i = 0; i < 300; i++) {
        const k = strOf(randBytes(r, 3));
        const val = randBytes(r, 3);
        model.set(k, val);
        tree.set(keyOf(k), val);
      }
      await tree.saveVersion();
    }
    expect(tree.cacheSize).to.be.at.most(16);
    expect(treeEntries(tree.iterator())).to.deep.equal(sortedModel(model));
    tree.checkInvariants();
  });
});

describe('IavlTree storage paths (no pinned levels, tiny cache)', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-store');
  });
  afterEach(async () => {
    await t.remove();
  });

  it('every read goes through the cache and chunk records; same roots as a pinned tree; pruning and reopen', async () => {
    const seed = testSeed('storage');
    const r = rng(seed);
    const a = await IavlTree.open({ db: t.db, prefix: u('a/'), cacheSize: 4, pinnedLevels: 0 });
    const b = await IavlTree.open({ db: t.db, prefix: u('b/'), cacheSize: 100_000 });
    const model: Model = new Map();
    const snaps = new Map<number, [string, string][]>();
    for (let v = 1; v <= 12; v++) {
      for (let i = 0; i < 200; i++) {
        const k = strOf(randBytes(r, 2));
        if (r() < 0.3 && model.has(k)) {
          model.delete(k);
          expect(a.remove(keyOf(k))).to.not.equal(undefined);
          b.remove(keyOf(k));
        } else {
          const val = randBytes(r, 1 + Math.floor(r() * 40));
          model.set(k, val);
          a.set(keyOf(k), val);
          b.set(keyOf(k), val);
        }
      }
      const sa = await a.saveVersion();
      const sb = await b.saveVersion();
      expect(hex(sa.rootHash)).to.equal(hex(sb.rootHash));
      snaps.set(v, sortedModel(model));
      a.checkInvariants();
    }
    expect(a.dbReads).to.be.greaterThan(0);
    for (const v of [2, 7, 3, 11]) await a.deleteVersion(v);
    await a.deleteVersionsTo(5);
    for (const v of a.availableVersions()) expect(treeEntries(a.view(v).iterator())).to.deep.equal(snaps.get(v));
    await t.reopen();
    const again = await IavlTree.open({ db: t.db, prefix: u('a/'), cacheSize: 4, pinnedLevels: 0 });
    expect(again.availableVersions()).to.deep.equal([6, 8, 9, 10, 12]);
    for (const v of again.availableVersions()) expect(treeEntries(again.view(v).iterator())).to.deep.equal(snaps.get(v));
    const seen = new Set<string>();
    for (const v of again.availableVersions()) for (const h of again.view(v).nodeHashes()) seen.add(hex(h));
    expect(await again.countStoredNodes()).to.equal(seen.size);
    await again.deleteVersionsTo(11);
    expect(await again.countStoredNodes()).to.equal(2 * again.size - 1);
  });
});

describe('IavlTree pruning', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-prune');
  });
  afterEach(async () => {
    await t.remove();
  });

  async function build(tree: IavlTree, seed: number, versions: number) {
    const r = rng(seed);
    const snaps = new Map<number, [string, string][]>();
    const model: Model = new Map();
    for (let v = 1; v <= versions; v++) {
      for (let i = 0; i < 120; i++) {
        const k = strOf(randBytes(r, 2));
        if (r() < 0.3 && model.has(k)) {
          model.delete(k);
          tree.remove(keyOf(k));
        } else {
          const val = randBytes(r, 4);
          model.set(k, val);
          tree.set(keyOf(k), val);
        }
      }
      const s = await tree.saveVersion();
      snaps.set(s.version, sortedModel(model));
    }
    return snaps;
  }

  /** Distinct nodes reachable from the kept versions' roots. */
  function reachable(tree: IavlTree): number {
    const seen = new Set<string>();
    for (const v of tree.availableVersions()) for (const h of tree.view(v).nodeHashes()) seen.add(hex(h));
    return seen.size;
  }

  it('deleteVersion frees nodes no kept version references and keeps the others readable', async () => {
    const seed = testSeed('prune');
    const tree = await openTree(t.db, 1_000);
    const snaps = await build(tree, seed, 10);
    const before = await tree.countStoredNodes();
    expect(before).to.equal(reachable(tree));
    for (const v of [3, 5, 1, 9, 2]) await tree.deleteVersion(v);
    expect(tree.availableVersions()).to.deep.equal([4, 6, 7, 8, 10]);
    const after = await tree.countStoredNodes();
    expect(after).to.be.lessThan(before);
    for (const v of tree.availableVersions()) expect(treeEntries(tree.view(v).iterator())).to.deep.equal(snaps.get(v));
    expect(() => tree.view(3)).to.throw(/does not exist/);
    expect(after).to.equal(reachable(tree));
    // reopened: same versions, same contents (nothing kept is missing on disk)
    await t.reopen();
    const again = await openTree(t.db, 1_000);
    expect(again.availableVersions()).to.deep.equal([4, 6, 7, 8, 10]);
    for (const v of again.availableVersions()) expect(treeEntries(again.view(v).iterator())).to.deep.equal(snaps.get(v));
    expect(await again.countStoredNodes()).to.equal(reachable(again));
  });

  it('deleteVersionsTo(latest - 1) leaves exactly the nodes of the latest tree', async () => {
    const seed = testSeed('prune-to');
    const tree = await openTree(t.db, 1_000);
    const snaps = await build(tree, seed, 8);
    await tree.deleteVersion(4); // a middle deletion first, then the rest
    await tree.deleteVersionsTo(7);
    expect(tree.availableVersions()).to.deep.equal([8]);
    expect(await tree.countStoredNodes()).to.equal(2 * tree.size - 1);
    expect(treeEntries(tree.iterator())).to.deep.equal(snaps.get(8));
    // the tree goes on and prunes again
    tree.set(u('new'), u('v'));
    await tree.saveVersion();
    await tree.deleteVersionsTo(8);
    expect(await tree.countStoredNodes()).to.equal(2 * tree.size - 1);
    tree.checkInvariants();
  });

  it('refuses to delete the latest version', async () => {
    const tree = await openTree(t.db);
    tree.set(u('a'), u('1'));
    await tree.saveVersion();
    let err: unknown;
    try {
      await tree.deleteVersion(1);
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/latest/);
  });
});
