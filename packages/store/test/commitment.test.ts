import { expect } from 'chai';
import { ics23, iavlSpec, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { IavlTree, multistoreRoot } from '@chain/iavl';
import { ClassicLevel } from 'classic-level';
import { CommitStore, VersionNotFoundError, type Bytes, type Change } from '../src/index.js';
import { Model, hex, hexEntries, randBytes, randInt, rng, s, tempDir } from './helpers.js';

const kv = (store: string, key: Bytes): Bytes => new Uint8Array([...s(`${store}/`), ...key]);
const decodeOp = (data: Bytes): ics23.ICommitmentProof => ics23.CommitmentProof.decode(data);

/** Independent per-store IAVL trees fed the same blocks: the reference multistore app hash. */
class RefMulti {
  private readonly trees = new Map<string, IavlTree>();
  private constructor(private readonly db: ClassicLevel<Bytes, Bytes>, private readonly dir: { remove: () => void }) {}
  static async open(): Promise<RefMulti> {
    const dir = tempDir('refmulti');
    const db = new ClassicLevel<Bytes, Bytes>(dir.dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
    return new RefMulti(db, dir);
  }
  async next(height: number, changes: readonly Change[]): Promise<{ appHash: Bytes; roots: Map<string, Bytes> }> {
    // in key order, as a block's writes reach the trees (the SDK's cache store writes sorted)
    for (const c of [...changes].sort((a, b) => Buffer.compare(a.key, b.key))) {
      const i = c.key.indexOf(0x2f);
      const name = Buffer.from(c.key.subarray(0, i)).toString();
      let t = this.trees.get(name);
      if (t === undefined) this.trees.set(name, (t = await IavlTree.open({ db: this.db, prefix: s(`${name}\u0000`), initialVersion: height })));
      if (c.value === undefined) t.remove(c.key.subarray(i + 1));
      else t.set(c.key.subarray(i + 1), c.value);
    }
    const roots = new Map<string, Bytes>();
    for (const [name, t] of this.trees) roots.set(name, (await t.saveVersion({ sync: false })).rootHash);
    return { appHash: multistoreRoot([...roots].map(([name, hash]) => ({ name, hash }))), roots };
  }
  async close(): Promise<void> {
    await this.db.close();
    this.dir.remove();
  }
}

describe('CommitStore: the state commitment (an IAVL tree per store)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: CommitStore | undefined;
  let ref: RefMulti | undefined;
  beforeEach(() => {
    tmp = tempDir('commitment');
  });
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    await ref?.close();
    store = undefined;
    ref = undefined;
    tmp.remove();
  });

  /** Random blocks over stores whose names sort differently from their prefixes (`a-b/` < `a/`). */
  const NAMES = ['acc', 'bank', 'a', 'a-b', 'evm'];
  const randomBlocks = (seed: number, n: number, nonEmpty = false): Change[][] => {
    const r = rng(seed);
    const keys = Array.from({ length: 60 }, (_, i) => kv(NAMES[i % NAMES.length]!, Uint8Array.of(randInt(r, 4), ...randBytes(r, 3))));
    return Array.from({ length: n }, (_, h) => {
      const m = new Map<string, Change>();
      // store 'evm' first appears at height 4
      for (let i = 0; i < 1 + randInt(r, 15); i++) {
        const key = keys[randInt(r, keys.length)]!;
        if (h < 3 && hex(key).startsWith(hex(s('evm/')))) continue;
        m.set(hex(key), { key, value: r() < 0.3 ? undefined : nonEmpty ? Uint8Array.of(1, ...randBytes(r, 6)) : randBytes(r, 6) });
      }
      return [...m.values()];
    });
  };

  it('app hash = the multistore root of independent per-store trees; past heights read the trees, across stores', async () => {
    store = await CommitStore.open(tmp.dir);
    ref = await RefMulti.open();
    const model = new Model();
    const snaps: Model[] = [model.clone()];
    const blocks = randomBlocks(7, 12);
    for (let h = 1; h <= blocks.length; h++) {
      const cs = blocks[h - 1]!;
      const want = await ref.next(h, cs);
      expect(hex(await store.prepare(h, cs)), `h=${h} ${[...want.roots.keys()]}`).to.equal(hex(want.appHash));
      expect(hex(await store.commit(h, cs))).to.equal(hex(want.appHash));
      for (const c of cs) c.value === undefined ? model.delete(c.key) : model.set(c.key, c.value);
      snaps.push(model.clone());
    }
    expect(store.storeNames).to.deep.equal(['a', 'a-b', 'acc', 'bank', 'evm']);
    const r = rng(99);
    for (const phase of ['live', 'reopened']) {
      if (phase === 'reopened') {
        await store.close();
        store = await CommitStore.open(tmp.dir);
      }
      for (let h = 0; h <= blocks.length; h++) {
        expect(hexEntries(await store.iterateAt(h)), `${phase} h=${h}`).to.deep.equal(hexEntries(snaps[h]!.range()));
        for (let q = 0; q < 8; q++) {
          const a = r() < 0.3 ? undefined : kv(NAMES[randInt(r, NAMES.length)]!, randBytes(r, 2)).subarray(0, 1 + randInt(r, 5));
          const e = r() < 0.3 ? undefined : kv(NAMES[randInt(r, NAMES.length)]!, randBytes(r, 2)).subarray(0, 1 + randInt(r, 5));
          const rev = r() < 0.5;
          expect(hexEntries(await store.iterateAt(h, a, e, rev)), `${phase} h=${h} [${a && hex(a)}, ${e && hex(e)}) rev=${rev}`)
            .to.deep.equal(hexEntries(snaps[h]!.range(a, e, rev)));
        }
      }
    }
  });

  it('proves membership and non-membership with ICS-23 (iavlSpec, then tendermintSpec against the app hash)', async () => {
    store = await CommitStore.open(tmp.dir);
    // ICS-23 has no proof of an empty value ("Missing value"), as with the SDK's stores: values here are not empty
    const blocks = randomBlocks(11, 6, true);
    const hashes: Bytes[] = [];
    for (let h = 1; h <= blocks.length; h++) hashes.push(await store.commit(h, blocks[h - 1]!));
    const model = new Model();
    for (let h = 1; h <= blocks.length; h++) {
      for (const c of blocks[h - 1]!) c.value === undefined ? model.delete(c.key) : model.set(c.key, c.value);
      if (h < 3) continue;
      for (const [full, value] of model.range()) {
        const i = full.indexOf(0x2f);
        const name = Buffer.from(full.subarray(0, i)).toString();
        const key = full.subarray(i + 1);
        const p = store.proveAt(h, name, key);
        expect(hex(p.value!)).to.equal(hex(value));
        expect(p.proofOps.map((o) => o.type)).to.deep.equal(['ics23:iavl', 'ics23:simple']);
        expect(hex(p.proofOps[0]!.key)).to.equal(hex(key));
        expect(Buffer.from(p.proofOps[1]!.key).toString()).to.equal(name);
        const iavl = decodeOp(p.proofOps[0]!.data);
        const simple = decodeOp(p.proofOps[1]!.data);
        const root = simple.exist!.value!;
        expect(verifyMembership(iavl, iavlSpec, root, key, value)).to.equal(true);
        expect(verifyMembership(simple, tendermintSpec, hashes[h - 1]!, s(name), root)).to.equal(true);
        const wrong = Uint8Array.from(hashes[h - 1]!);
        wrong[0]! ^= 1;
        expect(verifyMembership(simple, tendermintSpec, wrong, s(name), root)).to.equal(false);
        // an absent key next to it
        const absent = new Uint8Array([...key, 0x00, 0x7f]);
        if (model.get(new Uint8Array([...full, 0x00, 0x7f])) === undefined) {
          const q = store.proveAt(h, name, absent);
          expect(q.value).to.equal(undefined);
          const np = decodeOp(q.proofOps[0]!.data);
          expect(verifyNonMembership(np, iavlSpec, root, absent), `h=${h} ${name} absent ${hex(absent)} left ${np.nonexist?.left?.key && hex(np.nonexist.left.key)} right ${np.nonexist?.right?.key && hex(np.nonexist.right.key)}`).to.equal(true);
        }
      }
    }
    expect(() => store!.proveAt(2, 'evm', Uint8Array.of(1))).to.throw('no such store: evm');
    expect(() => store!.proveAt(6, 'nope', Uint8Array.of(1))).to.throw('no such store: nope');
  });

  it('refuses keys outside a store and empty keys, changing nothing', async () => {
    store = await CommitStore.open(tmp.dir);
    await store.commit(1, [{ key: kv('acc', Uint8Array.of(1)), value: Uint8Array.of(1) }]);
    const before = hex(store.lastAppHash);
    for (const bad of [Uint8Array.of(1, 2), s('/x'), s('acc/')]) {
      const e = await store.commit(2, [{ key: bad, value: Uint8Array.of(1) }]).catch((x: unknown) => x);
      expect(e, hex(bad)).to.be.instanceOf(Error);
      expect(store.lastHeight).to.equal(1);
    }
    expect(hex(store.lastAppHash)).to.equal(before);
    expect(hex(await store.commit(2, [{ key: kv('acc', Uint8Array.of(2)), value: Uint8Array.of(2) }]))).to.not.equal(before);
    expect(store.storeNames).to.deep.equal(['acc']);
  });

  it('prepare keeps the block staged for its commit; a preview or other changes leave nothing behind', async () => {
    store = await CommitStore.open(tmp.dir);
    ref = await RefMulti.open();
    const [b1, b2, b3] = randomBlocks(3, 3) as [Change[], Change[], Change[]];
    const preview = await store.previewAppHash(1, b1);
    expect(store.lastHeight).to.equal(0);
    expect(store.storeNames).to.deep.equal([]);
    const prepared = await store.prepare(1, b1);
    expect(hex(prepared)).to.equal(hex(preview));
    // FinalizeBlock ran again with other txs: the commit restages
    const h1 = await store.commit(1, b2);
    expect(hex(h1)).to.equal(hex((await ref.next(1, b2)).appHash));
    const e = await store.prepare(3, b3).catch((x: unknown) => x);
    expect((e as Error).message).to.equal('prepare: height 3 is not lastHeight + 1 (2)');
    await store.prepare(2, b3);
    const h2 = await store.commit(2, b3);
    expect(hex(h2)).to.equal(hex((await ref.next(2, b3)).appHash));
    await store.close();
    store = await CommitStore.open(tmp.dir);
    expect(hex(store.lastAppHash)).to.equal(hex(h2));
  });

  it('prunes as the SDK (every interval, keeping keep-recent), refuses pruned heights with the SDK message, never under an open view', async () => {
    store = await CommitStore.open(tmp.dir, { pruning: { keepRecent: 2, interval: 5 } });
    const blocks = randomBlocks(5, 20);
    const view = { h: 0 };
    let held: Awaited<ReturnType<CommitStore['openView']>> | undefined;
    for (let h = 1; h <= 20; h++) {
      await store.commit(h, blocks[h - 1]!);
      if (h === 5) expect(store.earliestHeight).to.equal(3); // 5 - 1 - 2 = 2 pruned
      if (h === 7) {
        held = await store.openView(6);
        view.h = 6;
      }
      if (h === 10) expect(store.earliestHeight).to.equal(6); // 10 - 3 = 7 wanted, held at 6
      if (h === 12) held!.release();
    }
    expect(store.earliestHeight).to.equal(18); // 20 - 1 - 2 = 17
    const e = await store.getAt(17, kv('acc', Uint8Array.of(1))).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(VersionNotFoundError);
    expect((e as Error).message).to.equal('failed to load state at height 17; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: 20)');
    expect(() => store!.proveAt(3, 'acc', Uint8Array.of(1))).to.throw('failed to load state at height 3');
    await store.iterateAt(18);
    await store.close();
    store = await CommitStore.open(tmp.dir);
    expect(store.earliestHeight).to.equal(18);
    expect(await store.getAt(10, kv('acc', Uint8Array.of(1))).catch((x: unknown) => (x as Error).name)).to.equal('VersionNotFoundError');
  });

  it('refuses a database of the first store format (flat history, no trees) with a clear message', async () => {
    const db = new ClassicLevel<Bytes, Bytes>(tmp.dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.put(Uint8Array.of(0x02, 0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), Uint8Array.of(1, 1));
    await db.close();
    const e = await CommitStore.open(tmp.dir).catch((x: unknown) => x);
    expect((e as Error).message).to.match(/written by an older chaind .* export the state with the older version/);
  });

  it('refuses a database of the first tree format (no format record: orphan lists of the old layout)', async () => {
    store = await CommitStore.open(tmp.dir);
    await store.commit(1, [{ key: kv('acc', Uint8Array.of(1)), value: Uint8Array.of(1) }]);
    await store.close();
    store = undefined;
    const db = new ClassicLevel<Bytes, Bytes>(tmp.dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.del(Uint8Array.of(0x03, 0x05));
    await db.close();
    const e = await CommitStore.open(tmp.dir).catch((x: unknown) => x);
    expect((e as Error).message).to.match(/written by an older chaind \(state tree format 1, this version reads format 2\)/);
  });
});
