/**
 * A genesis moved to disk before the first block (CommitStore.spillGenesis): reads and iteration see it as a state in
 * memory would, the first block builds every tree from the flat copy plus its own changes and gets the app hash the
 * in-memory path gives (the merged changes committed as one block), later blocks and a reopen agree, reads during the
 * first block's write show the genesis state, and a restart before the first block finds an empty store.
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leafHash } from '@chain/iavl';
import { CommitStore, MemKVStore, branch, type Change, type PackedChanges } from '../src/index.js';
import { packChanges, SpilledState } from '../src/spill.js';
import { hex, hexEntries, randBytes, randInt, rng, s, tempDir, u } from './helpers.js';

const STORES = ['acc', 'bank', 'gov', 'zeta'];

/** A key of one of the stores: `<store>/<random tail>` (tails from a small alphabet, so writes collide). */
function key(r: () => number): Uint8Array {
  const name = STORES[randInt(r, STORES.length)]!;
  const tail = randBytes(r, 6);
  const out = new Uint8Array(name.length + 1 + Math.max(1, tail.length));
  out.set(s(`${name}/`), 0);
  if (tail.length === 0) out[name.length + 1] = 0x41;
  else out.set(tail.map((b) => 0x40 + (b & 0x0f)), name.length + 1);
  return out;
}

/** Applies writes to a model (hex key -> value | null for a delete). */
function apply(m: Map<string, Uint8Array | null>, cs: readonly Change[]): void {
  for (const c of cs) m.set(hex(c.key), c.value ?? null);
}

/** The writes as App moves them: a branch's packed changes. */
function packedOf(cs: readonly Change[]): PackedChanges {
  const b = branch(new MemKVStore());
  for (const c of cs) {
    if (c.value === undefined) b.delete(c.key);
    else b.set(c.key, c.value);
  }
  return b.packedChanges();
}

function toChanges(m: Map<string, Uint8Array | null>): Change[] {
  return [...m].map(([k, v]) => ({ key: Buffer.from(k, 'hex'), value: v ?? undefined }));
}

function randomWrites(r: () => number, n: number): Change[] {
  const m = new Map<string, Uint8Array | null>();
  for (let i = 0; i < n; i++) {
    const k = key(r);
    const v = randBytes(r, 40);
    m.set(hex(k), r() < 0.15 ? null : v.length > 0 ? v : Uint8Array.of(7));
  }
  return toChanges(m);
}

describe('CommitStore: a genesis moved to disk before the first block', function () {
  this.timeout(60_000);
  const dirs: ReturnType<typeof tempDir>[] = [];
  const open: CommitStore[] = [];
  async function fresh(workerBuildEntries?: number): Promise<{ store: CommitStore; dir: string }> {
    const t = tempDir('spill');
    dirs.push(t);
    const store = await CommitStore.open(t.dir, { stateCacheSize: 64, workerBuildEntries });
    open.push(store);
    return { store, dir: t.dir };
  }
  afterEach(async () => {
    for (const st of open.splice(0)) await st.close().catch(() => undefined);
    for (const d of dirs.splice(0)) d.remove();
  });

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    // seeds 3 and 4 build every store's tree on a worker thread (IavlTree.beginSortedOnWorker); seeds 5 and 6 have
    // the leaf hashes computed during the moves (spillGenesis with the first height), 6 on worker threads too
    const onWorkers = seed === 3 || seed === 4 || seed === 6;
    const leafHashes = seed >= 5;
    it(`seed ${seed}: reads and iteration see the moved state; the first block and later ones give the in-memory path's app hashes${onWorkers ? ' (trees built on worker threads)' : ''}${leafHashes ? ' (leaf hashes computed ahead)' : ''}`, async () => {
      const r = rng(seed);
      // the genesis: three moves (later ones overwrite and delete earlier keys), then the first block's own changes
      const moves = [randomWrites(r, 400), randomWrites(r, 300), randomWrites(r, 200)];
      const block1 = randomWrites(r, 60);
      const genesis = new Map<string, Uint8Array | null>();
      for (const mv of moves) apply(genesis, mv);

      const a = (await fresh()).store; // the in-memory path: genesis and block 1 in one changeset
      const merged = new Map(genesis);
      apply(merged, block1);
      const hashA = await a.commit(1, toChanges(merged));

      const b = (await fresh(onWorkers ? 1 : undefined)).store;
      // even seeds move packed writes, as App does (a CacheKV's packedChanges), odd ones Change lists
      for (const mv of moves) await b.spillGenesis(seed % 2 === 0 ? packedOf(mv) : mv, leafHashes ? 1 : undefined);
      expect(b.spilledGenesis).to.equal(moves.reduce((n, mv) => n + mv.length, 0));
      // the moved state, as a state in memory shows it: point reads and iteration (both directions, ranges)
      const live = [...genesis].filter(([, v]) => v !== null).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      for (const [k, v] of genesis) {
        const kb = Buffer.from(k, 'hex');
        expect(b.state.has(kb), k).to.equal(v !== null);
        const got = b.state.get(kb);
        expect(got && hex(got), k).to.equal(v === null ? undefined : hex(v));
      }
      // keys never moved: absent (answered by the runs, without a disk read)
      for (let i = 0; i < 50; i++) {
        const k = key(r);
        if (!genesis.has(hex(k))) expect(b.state.has(k)).to.equal(false);
      }
      expect(hexEntries(b.state.iterator())).to.deep.equal(live.map(([k, v]) => [k, hex(v!)]));
      expect(hexEntries(b.state.iterator(undefined, undefined, true))).to.deep.equal(live.map(([k, v]) => [k, hex(v!)]).reverse());
      const lo = s('bank/D');
      const hi = s('gov/H');
      const inRange = live.filter(([k]) => k >= hex(lo) && k < hex(hi)).map(([k, v]) => [k, hex(v!)]);
      expect(hexEntries(b.state.iterator(lo, hi))).to.deep.equal(inRange);
      expect(hexEntries(b.state.iterator(lo, hi, true))).to.deep.equal(inRange.reverse());

      // FinalizeBlock's prepare, then the commit of the same changes
      const prepared = await b.prepare(1, block1);
      expect(hex(prepared)).to.equal(hex(hashA));
      expect(hex(await b.commit(1, block1))).to.equal(hex(hashA));
      expect(b.spilledGenesis).to.equal(0);
      expect(b.storeNames).to.deep.equal(a.storeNames);
      expect(hexEntries(b.state.iterator())).to.deep.equal(hexEntries(a.state.iterator()));

      // later blocks on both
      for (let h = 2; h <= 4; h++) {
        const cs = randomWrites(r, 80);
        expect(hex(await b.commit(h, cs)), `height ${h}`).to.equal(hex(await a.commit(h, cs)));
      }
      for (const name of a.storeNames) {
        const k = Buffer.concat([s(`${name}/`), Buffer.from('A')]);
        const pa = a.proveAt(4, name, k.subarray(name.length + 1));
        const pb = b.proveAt(4, name, k.subarray(name.length + 1));
        expect(pb.proofOps.map((o) => hex(o.data))).to.deep.equal(pa.proofOps.map((o) => hex(o.data)));
      }
    });
  }

  it('a genesis of 300,000 entries: the flat state and the tree records go in several batches, one written while the next is built (acc, ~250k entries, built on a worker thread)', async () => {
    const r = rng(17);
    const moves: Change[][] = [];
    const all = new Map<string, Uint8Array | null>();
    for (let m = 0; m < 3; m++) {
      const cs: Change[] = [];
      for (let i = 0; i < 100_000; i++) {
        const k = new Uint8Array(26);
        k.set(s(m === 2 && i % 2 === 0 ? 'bank/' : 'acc/'), 0);
        for (let j = 5; j < 26; j++) k[j] = randInt(r, 256);
        const v = randBytes(r, 60);
        cs.push({ key: k, value: v.length > 0 ? v : Uint8Array.of(0) });
      }
      cs.sort((x, y) => Buffer.compare(x.key, y.key));
      const uniq = cs.filter((c, i) => i === 0 || Buffer.compare(cs[i - 1]!.key, c.key) !== 0);
      moves.push(uniq);
      apply(all, uniq);
    }
    const block1: Change[] = [{ key: s('acc/\x00first'), value: Uint8Array.of(1) }, { key: s('zeta/z'), value: Uint8Array.of(2) }];
    const a = (await fresh()).store;
    const merged = new Map(all);
    apply(merged, block1);
    const hashA = await a.commit(1, toChanges(merged));
    const b = (await fresh()).store;
    for (const mv of moves) await b.spillGenesis(mv);
    expect(hex(await b.commit(1, block1))).to.equal(hex(hashA));
    const sample = [...all.keys()].filter((_, i) => i % 9973 === 0);
    for (const k of sample) expect(hex(b.state.get(Buffer.from(k, 'hex'))!)).to.equal(hex(a.state.get(Buffer.from(k, 'hex'))!));
  });

  it('a preview of the first block does not keep it; a failed prepare leaves nothing behind', async () => {
    const r = rng(9);
    const gen = randomWrites(r, 500);
    const block1 = randomWrites(r, 20);
    const a = (await fresh()).store;
    const m = new Map<string, Uint8Array | null>();
    apply(m, gen);
    apply(m, block1);
    const hashA = await a.commit(1, toChanges(m));
    const b = (await fresh()).store;
    await b.spillGenesis(gen);
    expect(hex(await b.previewAppHash(1, block1))).to.equal(hex(hashA));
    expect(b.storeNames).to.deep.equal([]);
    // a prepare replaced by another one (other changes), then the commit of the first changes
    await b.prepare(1, block1.slice(0, 5));
    expect(hex(await b.commit(1, block1))).to.equal(hex(hashA));
  });

  it('leaf hashes computed during the moves: the trees take them as given (a changed one changes the app hash); for another first height they are not used', async () => {
    const r = rng(23);
    const moves = [randomWrites(r, 300), randomWrites(r, 300)].map((m) => m.sort((x, y) => Buffer.compare(x.key, y.key)));
    const block1 = randomWrites(r, 30);
    const merged = new Map<string, Uint8Array | null>();
    for (const mv of moves) apply(merged, mv);
    apply(merged, block1);
    const a = (await fresh()).store;
    const hashA = await a.commit(1, toChanges(merged));
    const spillOf = (st: CommitStore): SpilledState => (st as unknown as { spill: SpilledState }).spill;
    for (const onWorkers of [false, true]) {
      // hashes for height 1, used by a first block of height 1
      const b = (await fresh(onWorkers ? 1 : undefined)).store;
      for (const mv of moves) await b.spillGenesis(mv, 1);
      const used = spillOf(b);
      expect(hex(await b.commit(1, block1))).to.equal(hex(hashA));
      const genesis = new Map<string, Uint8Array | null>();
      for (const mv of moves) apply(genesis, mv);
      // every written key of the genesis came with its hash
      expect(used.hashedEntries).to.equal([...genesis.values()].filter((v) => v !== null).length);
      // the same, with one byte of the first run's leaf file changed once it is written: the root is another
      const c = await fresh(onWorkers ? 1 : undefined);
      for (const mv of moves) await c.store.spillGenesis(mv, 1);
      await spillOf(c.store).leafHashesReady();
      const file = join(c.dir, 'genesis-spill', 'run-0.leaf');
      const bytes = readFileSync(file);
      // an entry of the first move that neither the second move nor the block changes
      const later = new Set([...moves[1]!, ...block1].map((ch) => hex(ch.key)));
      const written = moves[0]!.findIndex((ch) => ch.value !== undefined && !later.has(hex(ch.key)));
      bytes[written * 32] ^= 1;
      writeFileSync(file, bytes);
      expect(hex(await c.store.commit(1, block1))).to.not.equal(hex(hashA));
    }
    // hashes for height 5, a first block of height 1: not used
    const d = (await fresh()).store;
    for (const mv of moves) await d.spillGenesis(mv, 5);
    const spill = spillOf(d);
    expect(hex(await d.commit(1, block1))).to.equal(hex(hashA));
    expect(spill.hashedEntries).to.equal(0);
  });

  it('SpilledState: the leaf hashes of the last move of each written key, as @chain/iavl computes them, single store or not', async () => {
    const t = tempDir('spill-leaf');
    dirs.push(t);
    const r = rng(31);
    for (const single of [false, true]) {
      const st = new SpilledState(join(t.dir, `s-${single}`));
      try {
        const moves = [randomWrites(r, 200), randomWrites(r, 200)].map((m) => m.sort((x, y) => Buffer.compare(x.key, y.key)));
        for (const mv of moves) st.addRun(packChanges(mv), { version: 7, single });
        await st.leafHashesReady();
        const last = new Map<string, Uint8Array | null>();
        for (const mv of moves) apply(last, mv);
        let n = 0;
        for (const chunk of st.merged(50, 7)) {
          for (const [k, v, h] of chunk) {
            const rel = single ? k : k.subarray(k.indexOf(0x2f) + 1);
            expect(hex(v)).to.equal(hex(last.get(hex(k))!));
            expect(h && hex(h), hex(k)).to.equal(hex(leafHash(rel, v, 7)));
            n++;
          }
        }
        expect(n).to.equal([...last.values()].filter((v) => v !== null).length);
        expect(st.hashedEntries).to.equal(n);
        // for another version, or without one: no hashes
        for (const version of [8, undefined]) for (const chunk of st.merged(50, version)) for (const e of chunk) expect(e[2]).to.equal(undefined);
      } finally {
        st.close();
      }
    }
  });

  it('packed writes out of key order are refused, nothing moved', async () => {
    const b = (await fresh()).store;
    const p = packedOf([{ key: Buffer.from('acc/02', 'latin1'), value: u(1) }, { key: Buffer.from('acc/01', 'latin1'), value: u(2) }]);
    const swapped = { ...p, bytes: Uint8Array.from([...p.bytes.subarray(p.offs[1]!), ...p.bytes.subarray(0, p.offs[1]!)]) };
    await b.spillGenesis(p); // (in order: moved)
    let err: unknown;
    await b.spillGenesis(swapped).catch((e: unknown) => { err = e; });
    expect(String(err)).to.contain('not in ascending key order');
    expect(b.spilledGenesis).to.equal(2);
  });

  it('a store InitChain only deleted from is mounted by the first block, as in memory', async () => {
    const gen: Change[] = [{ key: s('acc/a'), value: Uint8Array.of(1) }, { key: s('gone/x'), value: undefined }];
    const a = (await fresh()).store;
    const hashA = await a.commit(1, gen);
    const b = (await fresh()).store;
    await b.spillGenesis(gen);
    expect(hex(await b.commit(1, []))).to.equal(hex(hashA));
    expect(b.storeNames).to.deep.equal(['acc', 'gone']);
  });

  it('reads during the first block\'s batch write show the genesis state', async () => {
    const b = (await fresh()).store;
    await b.spillGenesis([1, 2, 3, 4, 5].map((i) => ({ key: s(`acc/${i}`), value: Uint8Array.of(i) })));
    const changes: Change[] = [
      { key: s('acc/1'), value: Uint8Array.of(0x11) },
      { key: s('acc/2'), value: undefined },
      { key: s('acc/7'), value: Uint8Array.of(7) },
    ];
    const read = () => ['acc/1', 'acc/2', 'acc/7'].map((k) => {
      const v = b.state.get(s(k));
      return v === undefined ? undefined : hex(v);
    });
    const iter = () => hexEntries(b.state.iterator(s('acc/'), s('acc0'))).map(([k]) => Buffer.from(k, 'hex').toString());
    const p = b.commit(1, changes);
    let done = false;
    void p.then(() => (done = true));
    const seen: unknown[] = [];
    while (!done) {
      seen.push([read(), iter()]);
      await new Promise<void>((res) => setImmediate(res));
    }
    await p;
    for (const x of seen) expect(x).to.deep.equal([['01', '02', undefined], ['acc/1', 'acc/2', 'acc/3', 'acc/4', 'acc/5']]);
    expect(read()).to.deep.equal(['11', undefined, '07']);
    expect(iter()).to.deep.equal(['acc/1', 'acc/3', 'acc/4', 'acc/5', 'acc/7']);
  });

  it('a restart before the first block finds an empty store (InitChain runs again)', async () => {
    const { store, dir } = await fresh();
    await store.spillGenesis(randomWrites(rng(5), 300));
    await store.close();
    open.splice(open.indexOf(store), 1);
    const again = await CommitStore.open(dir);
    open.push(again);
    expect(again.lastHeight).to.equal(0);
    expect([...again.state.iterator()]).to.deep.equal([]);
    expect(await again.iterateRaw(Uint8Array.of(0x00), Uint8Array.of(0x10))).to.deep.equal([]);
    // and it takes a genesis again
    await again.spillGenesis([{ key: s('acc/z'), value: Uint8Array.of(9) }]);
    await again.commit(1, []);
    expect(hex(again.state.get(s('acc/z'))!)).to.equal('09');
  });
});
