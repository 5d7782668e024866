import { expect } from 'chai';
import { CommitStore } from '../src/index.js';
import type { Change } from '../src/types.js';
import { hex, rng, randInt, s, tempDir } from './helpers.js';

/**
 * Commits height `h` with `writes` random puts and deletes over `keys` keys, applies them to `model`
 * (key → value) and appends the resulting state to `history`.
 */
async function commitRandom(
  store: CommitStore, r: () => number, h: number, writes: number, keys: number, model: Map<string, string>, history: Map<string, string>[],
): Promise<void> {
  const changes = new Map<string, Change>();
  for (let i = 0; i < writes; i++) {
    const k = `k${randInt(r, keys).toString().padStart(2, '0')}`;
    if (randInt(r, 4) === 0) changes.set(k, { key: s(k), value: undefined });
    else changes.set(k, { key: s(k), value: s(`v${h}-${i}`) });
  }
  await store.commit(h, [...changes.values()]);
  for (const [k, c] of changes) {
    if (c.value === undefined) model.delete(k);
    else model.set(k, Buffer.from(c.value).toString());
  }
  history.push(new Map(model));
}

describe('CommitStore.snapshotAt', () => {
  it('serves the whole state of every past height, synchronously, read-only', async () => {
    const dir = tempDir('snap');
    const store = await CommitStore.open(dir.dir, { singleStore: 'test' });
    try {
      const r = rng(7);
      const model = new Map<string, string>();
      const history: Map<string, string>[] = [new Map()];
      for (let h = 1; h <= 12; h++) {
        await commitRandom(store, r, h, 20, 40, model, history);
      }
      for (let h = 0; h <= 12; h++) {
        const view = await store.snapshotAt(h);
        const got = [...view.iterator()].map(([k, v]) => `${Buffer.from(k).toString()}=${Buffer.from(v).toString()}`);
        const want = [...history[h]!.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`);
        expect(got, `height ${h}`).to.deep.equal(want);
        for (const [k, v] of history[h]!) expect(Buffer.from(view.get(s(k))!).toString()).to.equal(v);
        expect(view.get(s('k99'))).to.equal(undefined);
        expect(() => view.set(s('x'), s('y'))).to.throw(/read-only/);
      }
      // a snapshot taken before a later commit is not reused after it
      const before = await store.snapshotAt(5);
      await store.commit(13, [{ key: s('k00'), value: s('late') }]);
      const after = await store.snapshotAt(5);
      expect(hex(after.get(s('k00')) ?? new Uint8Array())).to.equal(hex(before.get(s('k00')) ?? new Uint8Array()));
      expect(Buffer.from((await store.snapshotAt(13)).get(s('k00'))!).toString()).to.equal('late');
    } finally {
      await store.close();
      dir.remove();
    }
  });
});

describe('CommitStore.openView', () => {
  it('keeps showing its height while later blocks commit, until released', async () => {
    const dir = tempDir('view');
    const store = await CommitStore.open(dir.dir, { singleStore: 'test' });
    try {
      const r = rng(11);
      const model = new Map<string, string>();
      const history: Map<string, string>[] = [new Map()];
      const views: { height: number; view: Awaited<ReturnType<CommitStore['openView']>> }[] = [];
      const dump = (v: { iterator(): IterableIterator<[Uint8Array, Uint8Array]> }) =>
        [...v.iterator()].map(([k, x]) => `${Buffer.from(k).toString()}=${Buffer.from(x).toString()}`);
      const want = (h: number) => [...history[h]!.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`);
      for (let h = 1; h <= 10; h++) {
        // a view of the latest state opened before this commit, and one of a past height
        views.push({ height: h - 1, view: await store.openView() });
        if (h > 2) views.push({ height: h - 2, view: await store.openView(h - 2) });
        await commitRandom(store, r, h, 15, 30, model, history);
        for (const { height, view } of views) {
          expect(dump(view.store), `view at ${height} after commit ${h}`).to.deep.equal(want(height));
          expect(view.height).to.equal(height);
          for (const [k, v] of history[height]!) expect(Buffer.from(view.store.get(s(k))!).toString()).to.equal(v);
          expect(dump({ iterator: () => view.store.iterator(undefined, undefined, true) })).to.deep.equal(want(height).reverse());
        }
      }
      expect(store.openViews).to.equal(views.length);
      for (const { view } of views) view.release();
      views[0]!.view.release(); // idempotent
      expect(store.openViews).to.equal(0);
      expect(() => views[0]!.view.store.set(s('x'), s('y'))).to.throw(/read-only/);
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
