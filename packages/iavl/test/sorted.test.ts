import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { iavlSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { type BatchSink, EMPTY_HASH, type IavlDb, IavlTree, OpsCollector, type SortedBuild, type TreeView, leafHash } from '../src/index.js';
import { hex, randBytes, rng, tempDb, testSeed, u, type TempDb } from './helpers.js';

type Entry = [Uint8Array, Uint8Array];

/** `n` distinct random keys (1..maxLen bytes), sorted, with values of random lengths (1 byte .. 1 KB). */
function randomEntries(r: () => number, n: number, maxLen = 8): Entry[] {
  const seen = new Map<string, Uint8Array>();
  while (seen.size < n) {
    const k = randBytes(r, 1 + Math.floor(r() * maxLen));
    seen.set(hex(k), k);
  }
  const keys = [...seen.values()].sort(Buffer.compare);
  return keys.map((k) => {
    const x = r();
    const len = x < 0.2 ? 1 : x < 0.25 ? 1024 : 1 + Math.floor(r() * 60);
    return [k, randBytes(r, len)];
  });
}

const entriesOf = (it: Iterable<[Uint8Array, Uint8Array]>): [string, string][] => [...it].map(([k, v]) => [hex(k), hex(v)]);

/** The sequential reference: the entries set in order into a fresh tree, saved. */
async function sequential(db: IavlDb, prefix: string, entries: Entry[], initialVersion = 1): Promise<IavlTree> {
  const tree = await IavlTree.open({ db, prefix: u(prefix), initialVersion, cacheSize: 5_000 });
  for (const [k, v] of entries) tree.set(k, v);
  await tree.saveVersion();
  return tree;
}

interface Built {
  tree: IavlTree;
  build: SortedBuild;
  rootHash: Uint8Array;
  batches: number;
}

/**
 * A sorted build written the way the store does it: records into a chained batch, a new batch whenever
 * `pendingBytes` passes `batchBytes` (Infinity: one batch), the root record in the last one, then commitStaged.
 */
async function sortedBuild(
  db: IavlDb,
  prefix: string,
  entries: Entry[],
  opts: { initialVersion?: number; batchBytes?: number; commit?: boolean } = {},
): Promise<Built> {
  const tree = await IavlTree.open({ db, prefix: u(prefix), initialVersion: opts.initialVersion ?? 1, cacheSize: 5_000 });
  let batch = db.batch();
  let batches = 1;
  const build = tree.beginSorted(batch);
  const limit = opts.batchBytes ?? Infinity;
  for (const [k, v] of entries) {
    build.add(k, v);
    if (build.pendingBytes >= limit) {
      const full = batch;
      batch = db.batch();
      batches++;
      build.setSink(batch);
      await full.write();
    }
  }
  const saved = build.finish();
  expect(build.count).to.equal(entries.length);
  expect(build.nodes).to.equal(entries.length === 0 ? 0 : 2 * entries.length - 1);
  build.putRoot(batch);
  await batch.write();
  if (opts.commit ?? true) tree.commitStaged();
  return { tree, build, rootHash: saved.rootHash, batches };
}

/** Proofs of (a sample of) the present keys and of absent keys verify against the root. */
function checkProofs(view: TreeView, entries: Entry[], r: () => number, sample: number): void {
  const root = view.rootHash;
  const step = Math.max(1, Math.floor(entries.length / sample));
  for (let i = 0; i < entries.length; i += step) {
    const [k, v] = entries[i]!;
    expect(verifyMembership(view.getProof(k), iavlSpec, root, k, v), `member ${hex(k)}`).to.equal(true);
  }
  if (entries.length === 0) return;
  const present = new Set(entries.map(([k]) => hex(k)));
  const absent: Uint8Array[] = [Uint8Array.of(0), Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)];
  while (absent.length < Math.min(sample, 10)) {
    const k = randBytes(r, 1 + Math.floor(r() * 8));
    if (!present.has(hex(k))) absent.push(k);
  }
  for (const k of absent) {
    if (present.has(hex(k))) continue;
    expect(verifyNonMembership(view.getProof(k), iavlSpec, root, k), `absent ${hex(k)}`).to.equal(true);
  }
}

/** The same tree as the sequential one: root, node hashes (shape and versions), entries, gets, proofs. */
function checkSame(built: IavlTree, seq: IavlTree, entries: Entry[], r: () => number, sample: number): void {
  expect(hex(built.rootHash)).to.equal(hex(seq.rootHash));
  expect(built.version).to.equal(seq.version);
  expect(built.size).to.equal(entries.length);
  expect([...built.view().nodeHashes()].map(hex)).to.deep.equal([...seq.view().nodeHashes()].map(hex));
  const want = entries.map(([k, v]) => [hex(k), hex(v)]);
  expect(entriesOf(built.iterator())).to.deep.equal(want);
  expect(entriesOf(built.iterator(undefined, undefined, true))).to.deep.equal([...want].reverse());
  for (const [k, v] of entries) expect(hex(built.get(k)!)).to.equal(hex(v));
  built.checkInvariants();
  checkProofs(built.view(), entries, r, sample);
}

/** Random sets (new keys and updates) and removes, the same on every tree; returns the saved hashes. */
async function laterVersions(trees: IavlTree[], entries: Entry[], r: () => number, versions: number, ops: number) {
  const keys = entries.map(([k]) => k);
  const hashes: string[][] = [];
  for (let v = 0; v < versions; v++) {
    for (let i = 0; i < ops; i++) {
      const x = r();
      if (x < 0.3 && keys.length > 0) {
        const idx = Math.floor(r() * keys.length);
        const k = keys[idx]!;
        keys[idx] = keys[keys.length - 1]!;
        keys.pop();
        for (const t of trees) expect(t.remove(k)).to.not.equal(undefined);
      } else if (x < 0.6 && keys.length > 0) {
        const k = keys[Math.floor(r() * keys.length)]!;
        const val = randBytes(r, 1 + Math.floor(r() * 40));
        for (const t of trees) expect(t.set(k, val)).to.equal(true);
      } else {
        const k = randBytes(r, 1 + Math.floor(r() * 8));
        const val = randBytes(r, 1 + Math.floor(r() * 40));
        let existed = false;
        for (const t of trees) existed = t.set(k, val);
        if (!existed) keys.push(k);
      }
    }
    const saved: string[] = [];
    for (const t of trees) saved.push(hex((await t.saveVersion()).rootHash));
    hashes.push(saved);
  }
  return hashes;
}

describe('IavlTree sorted build (beginSorted)', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-sorted');
  });
  afterEach(async () => {
    await t.remove();
  });

  it('equals the sequential tree for every n in 0..300 (hash, node hashes, reads, iteration, proofs)', async function () {
    this.timeout(60_000);
    const seed = testSeed('sorted-small');
    const r = rng(seed);
    for (let n = 0; n <= 300; n++) {
      const entries = randomEntries(r, n, n < 40 ? 2 : 8);
      const iv = n % 7 === 3 ? 17 : 1;
      const seq = await sequential(t.db, `s${n}/`, entries, iv);
      // every third build is written in several batches
      const b = await sortedBuild(t.db, `b${n}/`, entries, { initialVersion: iv, batchBytes: n % 3 === 1 ? 300 : Infinity });
      expect(b.tree.version, `n=${n}`).to.equal(iv);
      expect(hex(b.rootHash), `n=${n}`).to.equal(hex(seq.rootHash));
      checkSame(b.tree, seq, entries, r, n <= 64 ? n : 16);
      if (n % 50 === 7) expect(await b.tree.countStoredNodes()).to.equal(2 * n - 1);
    }
  });

  it('an empty build is an empty version (empty-tree root record) and the tree goes on from it', async () => {
    const b = await sortedBuild(t.db, 'e/', [], { initialVersion: 17 });
    expect(b.tree.version).to.equal(17);
    expect(b.tree.size).to.equal(0);
    expect(hex(b.rootHash)).to.equal(hex(EMPTY_HASH));
    expect(hex(b.rootHash)).to.equal(hex((await sequential(t.db, 'es/', [], 17)).rootHash));
    const sink = new OpsCollector();
    b.build.putRoot(sink);
    expect(sink.ops.length).to.equal(1);
    expect(sink.ops[0]!.type === 'put' && sink.ops[0]!.value.length).to.equal(8);
    const again = await IavlTree.open({ db: t.db, prefix: u('e/') });
    expect(again.availableVersions()).to.deep.equal([17]);
    again.set(u('a'), u('1'));
    expect((await again.saveVersion()).version).to.equal(18);
  });

  it('a large random build in several batches: equal to the sequential tree, reopens, 5 later versions, pruning', async function () {
    this.timeout(60_000);
    const seed = testSeed('sorted-large');
    const r = rng(seed);
    const n = 20_000 + Math.floor(r() * 30_000);
    const entries = randomEntries(r, n, 10);
    const seq = await sequential(t.db, 'seq/', entries);
    const b = await sortedBuild(t.db, 'blt/', entries, { batchBytes: 256 * 1024 });
    expect(b.batches).to.be.greaterThan(3);
    expect(hex(b.rootHash)).to.equal(hex(seq.rootHash));
    expect(entriesOf(b.tree.iterator())).to.deep.equal(entries.map(([k, v]) => [hex(k), hex(v)]));
    checkProofs(b.tree.view(), entries, r, 200);
    expect(await b.tree.countStoredNodes()).to.equal(2 * n - 1);

    // reopened from the database: root record and nodes
    const db = await t.reopen();
    const seq2 = await IavlTree.open({ db, prefix: u('seq/'), cacheSize: 5_000 });
    const built = await IavlTree.open({ db, prefix: u('blt/'), cacheSize: 5_000 });
    expect(built.availableVersions()).to.deep.equal([1]);
    expect(hex(built.rootHash)).to.equal(hex(seq.rootHash));
    const sample = entries.filter((_, i) => i % 97 === 0);
    for (const [k, v] of sample) expect(hex(built.get(k)!)).to.equal(hex(v));
    checkProofs(built.view(), entries, r, 50);

    // 5 later versions of sets, updates and removes: equal hashes each version
    const hashes = await laterVersions([built, seq2], entries, r, 5, 400);
    for (const [a, s] of hashes) expect(a).to.equal(s);
    built.checkInvariants();
    for (let v = 1; v <= 6; v++) expect(hex(built.view(v).rootHash)).to.equal(hex(seq2.view(v).rootHash));

    // pruning the built version and the next ones: the rest stays readable, exactly the reachable nodes are left
    const want4 = entriesOf(seq2.view(4).iterator());
    await built.deleteVersionsTo(2);
    expect(built.availableVersions()).to.deep.equal([3, 4, 5, 6]);
    expect(entriesOf(built.view(4).iterator())).to.deep.equal(want4);
    await built.deleteVersionsTo(5);
    expect(await built.countStoredNodes()).to.equal(2 * built.size - 1);
    expect(entriesOf(built.iterator())).to.deep.equal(entriesOf(seq2.iterator()));
  });

  it('initialVersion 17: the build is version 17, later versions continue from it and match', async () => {
    const seed = testSeed('sorted-iv');
    const r = rng(seed);
    const entries = randomEntries(r, 3_000);
    const seq = await sequential(t.db, 'seq/', entries, 17);
    const b = await sortedBuild(t.db, 'blt/', entries, { initialVersion: 17, batchBytes: 16 * 1024 });
    expect(b.tree.availableVersions()).to.deep.equal([17]);
    checkSame(b.tree, seq, entries, r, 30);
    const hashes = await laterVersions([b.tree, seq], entries, r, 5, 200);
    for (const [a, s] of hashes) expect(a).to.equal(s);
    expect(b.tree.availableVersions()).to.deep.equal([17, 18, 19, 20, 21, 22]);
    await b.tree.deleteVersion(17);
    await b.tree.deleteVersionsTo(19);
    expect(entriesOf(b.tree.iterator())).to.deep.equal(entriesOf(seq.iterator()));
    expect(entriesOf(b.tree.view(20).iterator())).to.deep.equal(entriesOf(seq.view(20).iterator()));
  });

  it('hash only (null sink) gives the same root; records go only to the sinks set', async () => {
    const r = rng(testSeed('sorted-null'));
    const entries = randomEntries(r, 1_000);
    const seq = await sequential(t.db, 'seq/', entries);
    const tree = await IavlTree.open({ db: t.db, prefix: u('h/') });
    const b = tree.beginSorted(null);
    for (const [k, v] of entries) b.add(k, v);
    expect(b.pendingBytes).to.equal(0);
    expect(hex(b.finish().rootHash)).to.equal(hex(seq.rootHash));
    tree.discardStaged();
    expect(await tree.countStoredNodes()).to.equal(0);
    // a sink, then null mid-build (records completed meanwhile are dropped), a sink again only at a record boundary
    const tree2 = await IavlTree.open({ db: t.db, prefix: u('h2/') });
    const a = new OpsCollector();
    const b2 = tree2.beginSorted(a);
    b2.add(u('a'), u('1'));
    b2.add(u('b'), u('2'));
    b2.setSink(null);
    b2.add(u('c'), u('3'));
    expect(() => b2.setSink(new OpsCollector())).to.not.throw(); // the record in progress was started with a sink
    const tree3 = await IavlTree.open({ db: t.db, prefix: u('h3/') });
    const b3 = tree3.beginSorted(null);
    b3.add(u('a'), u('1'));
    b3.add(u('b'), u('2')); // one node finalized: a record without a sink is in progress
    expect(() => b3.setSink(new OpsCollector())).to.throw(/record/);
    b3.abort();
  });

  it('discardStaged + deleteRecords removes the build; a following build does not reuse its ids', async () => {
    const r = rng(testSeed('sorted-discard'));
    const first = randomEntries(r, 2_000);
    const second = randomEntries(r, 1_500);
    const tree = await IavlTree.open({ db: t.db, prefix: u('d/'), cacheSize: 100 });
    // build 1, written; read through stagedView before commit
    const keys1 = new Set<string>();
    const recordKeys = (ops: OpsCollector): void => {
      for (const op of ops.ops) if (op.type === 'put') keys1.add(hex(op.key));
    };
    const s1 = new OpsCollector();
    const b1 = tree.beginSorted(s1);
    for (const [k, v] of first) b1.add(k, v);
    const v1 = b1.finish();
    expect(v1.version).to.equal(1);
    expect(() => tree.set(u('x'), u('y'))).to.throw(/staged/);
    await t.db.batch(s1.ops);
    recordKeys(s1);
    const view1 = tree.stagedView();
    expect(entriesOf(view1.iterator())).to.deep.equal(entriesOf(first));
    expect(hex(view1.rootHash)).to.equal(hex(v1.rootHash));
    tree.discardStaged();
    expect(tree.version).to.equal(0);
    expect(tree.availableVersions()).to.deep.equal([]);
    expect(tree.size).to.equal(0);

    // build 2 while build 1's records are still there: other records, build 1's view still reads its data
    const s2 = new OpsCollector();
    const b2 = tree.beginSorted(s2);
    for (const [k, v] of second) b2.add(k, v);
    b2.finish();
    b2.putRoot(s2);
    for (const op of s2.ops) if (op.type === 'put') expect(keys1.has(hex(op.key))).to.equal(false);
    await t.db.batch(s2.ops);
    expect(entriesOf(view1.iterator())).to.deep.equal(entriesOf(first));
    tree.commitStaged();

    // build 1's records deleted: only build 2's nodes are left
    const del = new OpsCollector();
    b1.deleteRecords(del);
    expect(del.ops.every((op) => op.type === 'del')).to.equal(true);
    expect(new Set(del.ops.map((op) => hex(op.key)))).to.deep.equal(keys1);
    await t.db.batch(del.ops);
    expect(await tree.countStoredNodes()).to.equal(2 * second.length - 1);
    const seq = await sequential(t.db, 'seq/', second);
    checkSame(tree, seq, second, r, 20);
    // and the saved build 2 goes on with normal versions
    tree.set(u('z'), u('1'));
    seq.set(u('z'), u('1'));
    expect(hex((await tree.saveVersion()).rootHash)).to.equal(hex((await seq.saveVersion()).rootHash));
  });

  it('rejects keys out of order, duplicates, a reused key array, and beginSorted on a used tree', async () => {
    const tree = await IavlTree.open({ db: t.db, prefix: u('x/') });
    const b = tree.beginSorted(new OpsCollector());
    b.add(u('b'), u('1'));
    expect(() => b.add(u('a'), u('1'))).to.throw(/ascending/);
    expect(() => b.add(u('b'), u('1'))).to.throw(/ascending/);
    expect(() => b.add(new Uint8Array(0), u('1'))).to.throw(/non-empty/);
    const k = u('c');
    b.add(k, u('2'));
    expect(() => b.add(k, u('3'))).to.throw(/same key array/);
    expect(b.count).to.equal(2);
    expect(() => tree.set(u('q'), u('1'))).to.throw(/sorted build/);
    expect(() => tree.beginSorted(null)).to.throw(/sorted build/);
    expect(() => tree.stageVersion()).to.throw(/sorted build/);
    b.abort();
    expect(() => b.add(u('d'), u('1'))).to.throw(/finished/);
    // after abort: a normal tree again
    tree.set(u('a'), u('1'));
    expect(() => tree.beginSorted(null)).to.throw(/working changes/);
    await tree.saveVersion();
    expect(() => tree.beginSorted(null)).to.throw(/saved versions/);
    const fresh = await IavlTree.open({ db: t.db, prefix: u('y/') });
    fresh.set(u('a'), u('1'));
    expect(hex(tree.rootHash)).to.equal(hex((await fresh.saveVersion()).rootHash));
    const b2 = (await IavlTree.open({ db: t.db, prefix: u('z/') })).beginSorted(null);
    b2.finish();
    expect(() => b2.finish()).to.throw(/finished/);
    expect(() => b2.add(u('a'), u('1'))).to.throw(/finished/);
  });

  it('keeps O(log n) nodes: the spine stays short and added keys and values are released', async function () {
    this.timeout(30_000);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const tree = await IavlTree.open({ db: t.db, prefix: u('m/') });
    let bytes = 0;
    const sink: BatchSink = {
      put: (k: Uint8Array, v: Uint8Array) => {
        bytes += k.length + v.length;
      },
      del: () => undefined,
    };
    const b = tree.beginSorted(sink);
    const n = 100_000;
    const key = (i: number): Uint8Array => {
      const k = new Uint8Array(4);
      new DataView(k.buffer).setUint32(0, i);
      return k;
    };
    let maxSpine = 0;
    const refs: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < n; i++) {
      const k = key(i);
      const v = new Uint8Array(8);
      if (i % 100 === 0) refs.push(new WeakRef(k), new WeakRef(v));
      b.add(k, v);
      maxSpine = Math.max(maxSpine, b.spineLength);
      // every node not on the right spine is finalized (hashed, encoded): nothing else is held
      if (i % 1000 === 999) expect(b.nodes).to.equal(2 * b.count - 1 - b.spineLength);
    }
    // AVL height bound: 1.44 log2(n + 2)
    expect(maxSpine).to.be.at.most(Math.ceil(1.45 * Math.log2(n + 2)) + 1);
    await new Promise((res) => setImmediate(res)); // WeakRefs keep their target alive until the job ends
    gc();
    const alive = refs.filter((w) => w.deref() !== undefined).length;
    // keys of inner nodes on the spine (and the last leaf's key and value) may be alive, nothing else
    expect(alive).to.be.at.most(2 * b.spineLength + 2);
    b.finish();
    expect(bytes).to.be.greaterThan(n * 12);
    tree.discardStaged();
  });
});

describe('IavlTree sorted build on a worker thread (beginSortedOnWorker)', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-sorted-worker');
  });
  afterEach(async () => {
    await t.remove();
  });

  /**
   * The records and root of a build, as the in-thread build and the worker build write them; `hashes`: the leaf hash
   * each entry is added with (undefined: none, the build computes it).
   */
  async function recordsOf(prefix: string, entries: Entry[], worker: boolean, iv = 1, hashes?: (Uint8Array | undefined)[]): Promise<{ tree: IavlTree; ops: string[]; root: string }> {
    const tree = await IavlTree.open({ db: t.db, prefix: u(prefix), initialVersion: iv, cacheSize: 5_000 });
    const sink = new OpsCollector();
    let rootHash: Uint8Array;
    if (worker) {
      const b = tree.beginSortedOnWorker(sink);
      for (let i = 0; i < entries.length; i++) {
        b.add(entries[i]![0], entries[i]![1], hashes?.[i]);
        if (i % 1000 === 999) await b.pump();
      }
      rootHash = (await b.finish()).rootHash;
      b.putRoot(sink);
    } else {
      const b = tree.beginSorted(sink);
      for (let i = 0; i < entries.length; i++) b.add(entries[i]![0], entries[i]![1], hashes?.[i]);
      rootHash = b.finish().rootHash;
      b.putRoot(sink);
    }
    await t.db.batch(sink.ops);
    tree.commitStaged();
    // record keys without the tree prefix: both builds must write the same records
    const ops = sink.ops.map((op) => `${op.type}:${hex(op.key.subarray(prefix.length))}:${op.type === 'put' ? hex(op.value) : ''}`);
    return { tree, ops, root: hex(rootHash) };
  }

  it('writes the same records and root as the in-thread build (0, 1, 2, 33 and ~60k entries), and the tree goes on', async function () {
    this.timeout(120_000);
    const r = rng(testSeed('sorted-worker'));
    for (const n of [0, 1, 2, 33, 40_000 + Math.floor(r() * 20_000)]) {
      const entries = randomEntries(r, n, 10);
      const a = await recordsOf(`a${n}/`, entries, false, n === 33 ? 17 : 1);
      const w = await recordsOf(`w${n}/`, entries, true, n === 33 ? 17 : 1);
      expect(w.root, `n=${n}`).to.equal(a.root);
      expect(w.ops.length, `n=${n}`).to.equal(a.ops.length);
      expect(w.ops, `n=${n}`).to.deep.equal(a.ops);
      // reads and later versions of the worker-built tree
      for (const [k, v] of entries.filter((_, i) => i % 501 === 0)) expect(hex(w.tree.get(k)!)).to.equal(hex(v));
      w.tree.set(u('zz-new'), u('1'));
      a.tree.set(u('zz-new'), u('1'));
      expect(hex((await w.tree.saveVersion()).rootHash)).to.equal(hex((await a.tree.saveVersion()).rootHash));
    }
  });

  it('leaf hashes given with the entries (computed ahead): the same records and root, in the thread and on a worker; a wrong one gives another root', async function () {
    this.timeout(60_000);
    const r = rng(testSeed('sorted-leaf-hashes'));
    const entries = randomEntries(r, 5_000, 10);
    const plain = await recordsOf('p/', entries, false, 3);
    // every other entry with its hash, the others without
    const hashes = entries.map(([k, v], i) => (i % 2 === 0 ? Uint8Array.from(leafHash(k, v, 3)) : undefined));
    for (const worker of [false, true]) {
      const given = await recordsOf(`g${worker}/`, entries, worker, 3, hashes);
      expect(given.root, `worker ${worker}`).to.equal(plain.root);
      expect(given.ops, `worker ${worker}`).to.deep.equal(plain.ops);
      const wrong = hashes.slice();
      wrong[1000] = Uint8Array.from(leafHash(entries[1000]![0], u('not the value'), 3));
      expect((await recordsOf(`w${worker}/`, entries, worker, 3, wrong)).root, `worker ${worker}`).to.not.equal(plain.root);
    }
  });

  it('rejects keys out of order; abort and deleteRecords leave the tree empty and the ids unused', async () => {
    const tree = await IavlTree.open({ db: t.db, prefix: u('x/'), cacheSize: 100 });
    const b = tree.beginSortedOnWorker(new OpsCollector());
    b.add(u('b'), u('1'));
    expect(() => b.add(u('a'), u('1'))).to.throw(/ascending/);
    expect(() => b.add(u('b'), u('1'))).to.throw(/ascending/);
    const del = new OpsCollector();
    b.abort();
    b.deleteRecords(del);
    expect(del.ops.length).to.be.greaterThan(0);
    expect(tree.version).to.equal(0);
    // the tree builds again, in the thread, after the aborted worker build
    const s = new OpsCollector();
    const again = tree.beginSorted(s);
    again.add(u('a'), u('1'));
    const v = again.finish();
    expect(v.version).to.equal(1);
  });
});
