import { expect } from 'chai';
import type { ClassicLevel } from 'classic-level';
import { CommitStore, GENESIS_APP_HASH, branch, type Change } from '../src/index.js';
import { Model, RefAppHash, hex, hexEntries, randBytes, randInt, randKey, rng, tempDir, u } from './helpers.js';

describe('CommitStore', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: CommitStore | undefined;
  beforeEach(() => {
    tmp = tempDir('commit');
  });
  let refs: RefAppHash[] = [];
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    store = undefined;
    for (const r of refs) await r.close();
    refs = [];
    tmp.remove();
  });
  const ref = async (): Promise<RefAppHash> => {
    const r = await RefAppHash.open();
    refs.push(r);
    return r;
  };
  const open = async () => (store = await CommitStore.open(tmp.dir, { singleStore: 'test' }));
  const reopen = async () => {
    await store!.close();
    return open();
  };

  it('starts empty at height 0 with an empty app hash', async () => {
    const st = await open();
    expect(st.lastHeight).to.equal(0);
    expect(st.lastAppHash).to.deep.equal(GENESIS_APP_HASH);
    expect([...st.state.iterator()]).to.deep.equal([]);
  });

  it('commits a branch, returns the reference app hash and survives reopen', async () => {
    let st = await open();
    const b = branch(st.state);
    b.set(u(2), u(20));
    b.set(u(1, 0), u());
    b.set(u(3), u(30));
    b.delete(u(3));
    const changes = b.changes();
    const h1 = await st.commit(1, changes);
    const r = await ref();
    expect(hex(h1)).to.equal(hex(await r.next(1, changes)));
    expect(hex(st.lastAppHash)).to.equal(hex(h1));
    expect(st.lastHeight).to.equal(1);
    expect(hexEntries(st.state.iterator())).to.deep.equal([
      ['0100', ''],
      ['02', '14'],
    ]);
    st = await reopen();
    expect(st.lastHeight).to.equal(1);
    expect(hex(st.lastAppHash)).to.equal(hex(h1));
    expect(hexEntries(st.state.iterator())).to.deep.equal([
      ['0100', ''],
      ['02', '14'],
    ]);
    const h2 = await st.commit(2, [{ key: u(2), value: undefined }]);
    expect(hex(h2)).to.equal(hex(await r.next(2, [{ key: u(2), value: undefined }])));
    st = await reopen();
    expect(hexEntries(st.state.iterator())).to.deep.equal([['0100', '']]);
    expect(hex(st.lastAppHash)).to.equal(hex(h2));
  });

  it('an empty block keeps the app hash and advances the height', async () => {
    let st = await open();
    expect(hex(await st.commit(1, []))).to.equal('');
    const h2 = await st.commit(2, [{ key: u(1), value: u(1) }]);
    expect(hex(await st.commit(3, []))).to.equal(hex(h2));
    st = await reopen();
    expect(st.lastHeight).to.equal(3);
    expect(hex(st.lastAppHash)).to.equal(hex(h2));
  });

  it('rejects a wrong height, duplicate keys and reserved extraOps keys without changing anything', async () => {
    const st = await open();
    await st.commit(1, [{ key: u(1), value: u(1) }]);
    const hash = hex(st.lastAppHash);
    for (const h of [0, 1, 3, 2.5, NaN]) {
      let err: unknown;
      await st.commit(h, [{ key: u(9), value: u(9) }]).catch((e: unknown) => (err = e));
      expect(err, `height ${h}`).to.be.instanceOf(Error);
    }
    const bad: [Change[], { type: 'put'; key: Uint8Array; value: Uint8Array }[]][] = [
      [[{ key: u(9), value: u(1) }, { key: u(9), value: u(2) }], []],
      [[{ key: u(9), value: u(1) }], [{ type: 'put', key: u(0x01, 9), value: u(1) }]],
      [[{ key: u(9), value: u(1) }], [{ type: 'put', key: u(0x0f), value: u(1) }]],
      [[{ key: u(9), value: u(1) }], [{ type: 'put', key: u(), value: u(1) }]],
    ];
    for (const [cs, ops] of bad) {
      let err: unknown;
      await st.commit(2, cs, ops).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(Error);
    }
    expect(st.lastHeight).to.equal(1);
    expect(hex(st.lastAppHash)).to.equal(hash);
    expect(st.state.has(u(9))).to.equal(false);
    const re = await reopen();
    expect(re.lastHeight).to.equal(1);
    expect(re.state.has(u(9))).to.equal(false);
  });

  it('starts at an initial height > 1 (a chain from an exported genesis) and refuses heights before it', async () => {
    const st = await open();
    expect(st.firstHeight).to.equal(0);
    for (const h of [0, -1, 1.5]) {
      let err: unknown;
      await st.commit(h, [{ key: u(1), value: u(1) }]).catch((e: unknown) => (err = e));
      expect(err, `height ${h}`).to.be.instanceOf(Error);
    }
    const h100 = await st.commit(100, [{ key: u(1), value: u(1) }]);
    expect(hex(h100)).to.equal(hex(await (await ref()).next(100, [{ key: u(1), value: u(1) }])));
    expect(st.lastHeight).to.equal(100);
    expect(st.firstHeight).to.equal(100);
    let err: unknown;
    await st.commit(102, []).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.equal('commit: height 102 is not lastHeight + 1 (101)');
    await st.commit(101, [{ key: u(1), value: u(2) }]);
    expect(hex((await st.getAt(100, u(1)))!)).to.equal(hex(u(1)));
    expect(await st.getAt(0, u(1))).to.equal(undefined);
    for (const h of [1, 50, 99]) {
      const e = await st.snapshotAt(h).catch((x: unknown) => x);
      expect(e, `height ${h}`).to.be.instanceOf(RangeError);
      expect((e as Error).message).to.equal(`height ${h} is before the first height 100 of this store (the chain's initial height)`);
    }
    const re = await reopen();
    expect(re.firstHeight).to.equal(100);
    expect(re.lastHeight).to.equal(101);
    expect(hex((await re.snapshotAt(100)).get(u(1))!)).to.equal(hex(u(1)));
  });

  it('reports first height 1 for a store that started at height 1', async () => {
    const st = await open();
    await st.commit(1, [{ key: u(1), value: u(1) }]);
    expect(st.firstHeight).to.equal(1);
    expect((await reopen()).firstHeight).to.equal(1);
  });

  it('accepts unsorted changes and hashes them sorted', async () => {
    const st = await open();
    const cs: Change[] = [
      { key: u(3), value: u(3) },
      { key: u(1), value: u(1) },
      { key: u(2), value: undefined },
    ];
    const h = await st.commit(1, cs);
    expect(hex(h)).to.equal(hex(await (await ref()).next(1, cs)));
    expect(hexEntries(st.state.iterator()).map(([k]) => k)).to.deep.equal(['01', '03']);
  });

  it('the state view is read-only', async () => {
    const st = await open();
    expect(() => st.state.set(u(1), u(1))).to.throw(/read-only/);
    expect(() => st.state.delete(u(1))).to.throw(/read-only/);
    const b = branch(st.state);
    b.set(u(1), u(1));
    expect(() => b.write()).to.throw(/read-only/);
  });

  it('a state iterator opened before a commit keeps its snapshot', async () => {
    const st = await open();
    await st.commit(1, [1, 2, 3].map((x) => ({ key: u(x), value: u(x) })));
    const it = st.state.iterator();
    expect(hex(it.next().value![0])).to.equal('01');
    await st.commit(2, [{ key: u(2), value: undefined }, { key: u(4), value: u(4) }, { key: u(3), value: u(9) }]);
    expect(hexEntries(it)).to.deep.equal([
      ['02', '02'],
      ['03', '03'],
    ]);
    expect(hexEntries(st.state.iterator()).map(([k]) => k)).to.deep.equal(['01', '03', '04']);
  });

  it('owns copies of committed values', async () => {
    const st = await open();
    const v = u(1, 2, 3);
    await st.commit(1, [{ key: u(1), value: v }]);
    v[0] = 9;
    expect(hex(st.state.get(u(1))!)).to.equal('010203');
    expect(hex(st.lastAppHash)).to.equal(hex(await (await ref()).next(1, [{ key: u(1), value: u(1, 2, 3) }])));
    st.lastAppHash.fill(0); // a copy
    expect(hex(st.lastAppHash)).to.not.equal('00'.repeat(32));
  });

  it('writes extraOps atomically with the block and serves raw reads', async () => {
    let st = await open();
    await st.commit(1, [{ key: u(1), value: u(1) }], [
      { type: 'put', key: u(0x10, 1), value: u(0xa1) },
      { type: 'put', key: u(0x10, 2), value: u(0xa2) },
      { type: 'put', key: u(0x11), value: u() },
    ]);
    await st.commit(2, [], [{ type: 'del', key: u(0x10, 1) }, { type: 'put', key: u(0x10, 3), value: u(0xa3) }]);
    st = await reopen();
    expect(await st.getRaw(u(0x10, 1))).to.equal(undefined);
    expect(hex((await st.getRaw(u(0x10, 2)))!)).to.equal('a2');
    expect(hex(st.getRawSync(u(0x10, 3))!)).to.equal('a3');
    expect(st.getRawSync(u(0x10, 4))).to.equal(undefined);
    expect(hexEntries(await st.iterateRaw(u(0x10), u(0x12)))).to.deep.equal([
      ['1002', 'a2'],
      ['1003', 'a3'],
      ['11', ''],
    ]);
    expect(hexEntries(await st.iterateRaw(u(0x10), u(0x12), { reverse: true, limit: 2 }))).to.deep.equal([
      ['11', ''],
      ['1003', 'a3'],
    ]);
    expect(await st.iterateRaw(u(0x10), u(0x12), { limit: 0 })).to.deep.equal([]);
    // The store's own namespaces are visible raw too.
    expect(hex((await st.getRaw(u(0x01, 1)))!)).to.equal('01');
  });

  it('leaves memory and disk untouched when the batch fails, then commits the same height', async () => {
    let st = await open();
    await st.commit(1, [{ key: u(1), value: u(1) }]);
    const before = hex(st.lastAppHash);
    const db = (st as unknown as { db: ClassicLevel<Uint8Array, Uint8Array> }).db;
    const realBatch = db.batch.bind(db);
    db.batch = (() => {
      const b = realBatch();
      b.write = async () => {
        await b.close();
        throw new Error('disk full');
      };
      return b;
    }) as typeof db.batch;
    let err: unknown;
    await st.commit(2, [{ key: u(1), value: undefined }, { key: u(2), value: u(2) }]).catch((e: unknown) => (err = e));
    expect(String(err)).to.contain('disk full');
    expect(st.lastHeight).to.equal(1);
    expect(hex(st.lastAppHash)).to.equal(before);
    expect(hexEntries(st.state.iterator())).to.deep.equal([['01', '01']]);
    Reflect.deleteProperty(db, 'batch');
    await st.commit(2, [{ key: u(2), value: u(2) }]);
    st = await reopen();
    expect(st.lastHeight).to.equal(2);
    expect(hexEntries(st.state.iterator()).map(([k]) => k)).to.deep.equal(['01', '02']);
  });

  it('rejects a second commit while one is in flight', async () => {
    const st = await open();
    const p1 = st.commit(1, [{ key: u(1), value: u(1) }]);
    let err: unknown;
    await st.commit(2, [{ key: u(2), value: u(2) }]).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(Error);
    expect(st.state.get(u(1))).to.equal(undefined); // not published before the batch is durable
    expect(st.lastHeight).to.equal(0);
    await p1;
    expect(st.lastHeight).to.equal(1);
    expect(st.state.get(u(1))).to.deep.equal(u(1));
    await st.commit(2, [{ key: u(2), value: u(2) }]);
  });

  it('getAt follows the history of a key', async () => {
    const st = await open();
    const k = u(0, 1);
    await st.commit(1, [{ key: k, value: u(1) }]);
    await st.commit(2, [{ key: u(0), value: u(9) }]); // a prefix of k, changed at another height
    await st.commit(3, [{ key: k, value: u(3) }]);
    await st.commit(4, [{ key: k, value: undefined }, { key: u(0, 1, 0), value: u(7) }]);
    await st.commit(5, []);
    await st.commit(6, [{ key: k, value: u() }]);
    const want = [undefined, '01', '01', '03', undefined, undefined, ''];
    for (let h = 0; h <= 6; h++) {
      const v = await st.getAt(h, k);
      expect(v === undefined ? undefined : hex(v), `height ${h}`).to.equal(want[h]);
    }
    expect(await st.getAt(1, u(0))).to.equal(undefined);
    expect(hex((await st.getAt(2, u(0)))!)).to.equal('09');
    for (const bad of [-1, 7, 1.5]) {
      let err: unknown;
      await st.getAt(bad, k).catch((e: unknown) => (err = e));
      expect(err, `height ${bad}`).to.be.instanceOf(RangeError);
    }
  });

  it('iterateAt and getAt match per-height model snapshots (random history, before and after reopen)', async () => {
    let st = await open();
    const r = rng(1234);
    const model = new Model();
    const snaps: Model[] = [model.clone()];
    const keys = Array.from({ length: 40 }, () => randKey(r, 3));
    for (let h = 1; h <= 25; h++) {
      const m = new Map<string, Change>();
      const n = randInt(r, 12);
      for (let i = 0; i < n; i++) {
        const key = keys[randInt(r, keys.length)]!;
        const value = r() < 0.35 ? undefined : randBytes(r, 3);
        m.set(hex(key), { key, value });
        if (value === undefined) model.delete(key);
        else model.set(key, value);
      }
      await st.commit(h, [...m.values()]);
      snaps.push(model.clone());
    }
    for (const phase of ['live', 'reopened']) {
      if (phase === 'reopened') st = await reopen();
      for (let h = 0; h <= 25; h++) {
        for (let q = 0; q < 6; q++) {
          const a = r() < 0.3 ? undefined : randBytes(r, 2);
          const e = r() < 0.3 ? undefined : randBytes(r, 3);
          const rev = r() < 0.5;
          const limit = r() < 0.5 ? undefined : randInt(r, 6);
          let want = snaps[h]!.range(a, e, rev);
          if (limit !== undefined) want = want.slice(0, limit);
          const got = await st.iterateAt(h, a, e, rev, limit);
          expect(hexEntries(got), `${phase} h=${h} [${a && hex(a)}, ${e && hex(e)}) rev=${rev} limit=${limit}`).to.deep.equal(
            hexEntries(want),
          );
        }
        for (const key of keys.slice(0, 10)) {
          const v = await st.getAt(h, key);
          const w = snaps[h]!.get(key);
          expect(v === undefined ? undefined : hex(v)).to.equal(w === undefined ? undefined : hex(w));
        }
      }
    }
    let err: unknown;
    await st.iterateAt(26).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(RangeError);
  });
});
