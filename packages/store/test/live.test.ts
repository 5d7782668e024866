/**
 * The current state on disk behind a bounded cache (src/live.ts): reads equal a model under random blocks with a
 * cache far smaller than the state, reads while a block's batch is being written show the previous block, and a
 * reopen reads nothing of the state up front.
 */
import { expect } from 'chai';
import { CommitStore, branch, type Change } from '../src/index.js';
import { Model, hex, hexEntries, randBytes, randInt, randKey, rng, tempDir, u } from './helpers.js';

describe('CommitStore current state (disk + bounded cache)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: CommitStore | undefined;
  beforeEach(() => {
    tmp = tempDir('live');
  });
  afterEach(async () => {
    await store?.close().catch(() => undefined);
    store = undefined;
    tmp.remove();
  });

  it('matches a model under random blocks with a cache of 8 entries, before and after reopen', async () => {
    const seed = Number(process.env.SEED ?? Date.now() % 1e9);
    const r = rng(seed);
    const open = async () => (store = await CommitStore.open(tmp.dir, { stateCacheSize: 8 }));
    let st = await open();
    const model = new Model();
    const stores = ['acc/', 'bank/', 'evm/'].map((p) => new TextEncoder().encode(p));
    const keys = Array.from({ length: 120 }, () => {
      const p = stores[randInt(r, stores.length)]!;
      const k = randKey(r, 4);
      const out = new Uint8Array(p.length + k.length);
      out.set(p);
      out.set(k, p.length);
      return out;
    });
    const check = (phase: string) => {
      for (const key of keys) {
        const v = st.state.get(key);
        const w = model.get(key);
        expect(v === undefined ? undefined : hex(v), `${phase} seed=${seed} key ${hex(key)}`).to.equal(w === undefined ? undefined : hex(w));
        expect(st.state.has(key)).to.equal(w !== undefined);
      }
      for (let q = 0; q < 8; q++) {
        const a = r() < 0.3 ? undefined : randBytes(r, 3);
        const e = r() < 0.3 ? undefined : randBytes(r, 4);
        const rev = r() < 0.5;
        expect(hexEntries([...st.state.iterator(a, e, rev)]), `${phase} seed=${seed} range`).to.deep.equal(hexEntries(model.range(a, e, rev)));
      }
    };
    for (let h = 1; h <= 30; h++) {
      const tx = branch(st.state);
      const n = randInt(r, 15);
      for (let i = 0; i < n; i++) {
        const key = keys[randInt(r, keys.length)]!;
        tx.get(key); // reads through the cache, as execution does
        if (r() < 0.3) {
          tx.delete(key);
          model.delete(key);
        } else {
          const v = randBytes(r, 4);
          tx.set(key, v);
          model.set(key, v);
        }
      }
      await st.commit(h, tx.changes());
      check(`h=${h}`);
      if (h % 10 === 0) {
        await st.close();
        st = await open();
        check(`reopened at ${h}`);
      }
    }
    const stats = st.stateCacheStats;
    expect(stats.entries).to.be.at.most(8);
    expect(stats.misses).to.be.greaterThan(0);
  });

  it('reads during the batch write of a block show the previous block, the cache included', async () => {
    store = await CommitStore.open(tmp.dir, { singleStore: 't', stateCacheSize: 4 });
    const st = store;
    await st.commit(1, [1, 2, 3, 4, 5, 6].map((x) => ({ key: u(x), value: u(x) })));
    st.state.get(u(1)); // cached
    const changes: Change[] = [
      { key: u(1), value: u(0x11) },
      { key: u(2), value: undefined },
      { key: u(5), value: u(0x55) },
      { key: u(7), value: u(7) },
    ];
    const seen: (string | undefined)[][] = [];
    const read = () => [1, 2, 5, 7].map((x) => {
      const v = st.state.get(u(x));
      return v === undefined ? undefined : hex(v);
    });
    const p = st.commit(2, changes);
    // the commit is in flight (its batch write is asynchronous): read on every turn of the event loop until it ends
    let done = false;
    void p.then(() => (done = true));
    while (!done) {
      seen.push(read());
      await new Promise<void>((res) => setImmediate(res));
    }
    await p;
    expect(seen.length).to.be.greaterThan(0);
    for (const s of seen) expect(s).to.deep.equal(['01', '02', '05', undefined]);
    expect(read()).to.deep.equal(['11', undefined, '55', '07']);
  });

  it('opens without reading the state: a reopen of 20,000 keys costs no value reads, and the first read fills the cache', async () => {
    store = await CommitStore.open(tmp.dir, { stateCacheSize: 100 });
    const cs: Change[] = [];
    for (let i = 0; i < 20_000; i++) cs.push({ key: new TextEncoder().encode(`bank/k${String(i).padStart(6, '0')}`), value: u(i & 0xff, i >> 8) });
    await store.commit(1, cs);
    await store.close();
    store = await CommitStore.open(tmp.dir, { stateCacheSize: 100 });
    expect(store.stateCacheStats).to.deep.equal({ entries: 0, hits: 0, misses: 0 });
    const k = new TextEncoder().encode('bank/k012345');
    expect(hex(store.state.get(k)!)).to.equal(hex(u(12345 & 0xff, 12345 >> 8)));
    expect(hex(store.state.get(k)!)).to.equal(hex(u(12345 & 0xff, 12345 >> 8)));
    expect(store.stateCacheStats).to.deep.equal({ entries: 1, hits: 1, misses: 1 });
    expect([...store.state.iterator(new TextEncoder().encode('bank/k019998'))].length).to.equal(2);
  });
});
