import { expect } from 'chai';
import { IavlTree, encodeCommitmentProof, type CommitmentProof } from '../src/index.js';
import { hex, randBytes, rng, tempDb, testSeed, type TempDb } from './helpers.js';
import { ReferenceTree } from './reference.js';

/**
 * Randomized comparison with the simple in-memory reference (test/reference.ts): after random sets, updates,
 * removes (present and absent keys), saves (saveVersion, or stageVersion + batch + commitStaged, sometimes a
 * discarded stage first), reopens and version deletions, every saved version has the reference's root hash, the
 * same entries and values, and byte-identical existence and non-existence proofs.
 */
describe('IavlTree against a reference implementation', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb('iavl-ref');
  });
  afterEach(async () => {
    await t.remove();
  });

  const configs = [
    { name: 'default cache, pinned top levels', cacheSize: 100_000, pinnedLevels: undefined },
    { name: 'tiny cache, no pinned levels (every read from disk)', cacheSize: 6, pinnedLevels: 0 },
    { name: 'small cache, 3 pinned levels', cacheSize: 64, pinnedLevels: 3 },
    { name: 'no cache, no pinned levels', cacheSize: 0, pinnedLevels: 0 },
    { name: 'a 3-node cache (below one set of the cache), 1 pinned level', cacheSize: 3, pinnedLevels: 1 },
  ];
  for (const cfg of configs) {
    it(`same roots, entries and proof bytes: ${cfg.name}`, async function () {
      this.timeout(120_000);
      const seed = testSeed(`reference ${cfg.cacheSize}`);
      const r = rng(seed);
      const prefix = Uint8Array.of(0x11, 0x22);
      const open = (db = t.db): Promise<IavlTree> =>
        IavlTree.open({ db, prefix, cacheSize: cfg.cacheSize, pinnedLevels: cfg.pinnedLevels, initialVersion: 3 });
      let tree = await open();
      const ref = new ReferenceTree(3);
      // a small key space (so updates and removes hit), keys of 1..3 bytes
      const pool: Uint8Array[] = [];
      for (let i = 0; i < 400; i++) pool.push(randBytes(r, 1 + Math.floor(r() * 3)));
      const pick = (): Uint8Array => pool[Math.floor(r() * pool.length)]!;
      const present = new Map<string, Uint8Array>();

      const check = (version: number): void => {
        const view = tree.view(version);
        expect(hex(view.rootHash), `root of ${version}`).to.equal(hex(ref.rootHash(version)));
        const entries = ref.entries(version);
        const got = [...view.iterator()].map(([k, v]) => `${hex(k)}=${hex(v)}`);
        expect(got).to.deep.equal(entries.map(([k, v]) => `${hex(k)}=${hex(v)}`));
        if (entries.length === 0) return;
        for (let i = 0; i < 6; i++) {
          const key = r() < 0.6 ? entries[Math.floor(r() * entries.length)]![0] : pick();
          const value = ref.get(version, key);
          expect(view.get(key) === undefined ? undefined : hex(view.get(key)!)).to.equal(value === undefined ? undefined : hex(value));
          let want: CommitmentProof;
          if (value !== undefined) want = { exist: ref.existenceProof(version, key) };
          else {
            const below = entries.filter(([k]) => Buffer.compare(k, key) < 0);
            const above = entries.filter(([k]) => Buffer.compare(k, key) > 0);
            want = { nonexist: { key: key.slice() } };
            if (below.length > 0) want.nonexist!.left = ref.existenceProof(version, below[below.length - 1]![0]);
            if (above.length > 0) want.nonexist!.right = ref.existenceProof(version, above[0]![0]);
          }
          expect(hex(encodeCommitmentProof(tree.getProof(key, version))), `proof of ${hex(key)} at ${version}`).to.equal(
            hex(encodeCommitmentProof(want)),
          );
        }
      };

      for (let round = 0; round < 40; round++) {
        const count = 1 + Math.floor(r() * (round < 5 ? 150 : 60));
        const ops: { key: Uint8Array; value: Uint8Array | undefined }[] = [];
        for (let i = 0; i < count; i++) ops.push({ key: pick(), value: r() < 0.65 ? randBytes(r, Math.floor(r() * 50)) : undefined });
        const apply = (): void => {
          const state = new Map(present);
          for (const { key, value } of ops) {
            const old = state.get(hex(key));
            if (value !== undefined) {
              expect(tree.set(key, value)).to.equal(old !== undefined);
              state.set(hex(key), value);
            } else {
              const got = tree.remove(key);
              expect(got === undefined ? undefined : hex(got)).to.equal(old === undefined ? undefined : hex(old));
              state.delete(hex(key));
            }
          }
        };
        apply();
        const how = r();
        if (how < 0.15) {
          // a discarded stage returns to the last saved version and drops the working changes: apply them again
          const latest = tree.version;
          tree.stageVersion(t.db.batch());
          tree.discardStaged();
          expect(tree.version).to.equal(latest);
          expect(hex(tree.rootHash)).to.equal(hex(ref.rootHash(ref.version)));
          apply();
        }
        for (const { key, value } of ops) {
          if (value !== undefined) {
            ref.set(key, value);
            present.set(hex(key), value);
          } else {
            ref.remove(key);
            present.delete(hex(key));
          }
        }
        let root: Uint8Array;
        if (how < 0.5) {
          const batch = t.db.batch();
          root = tree.stageVersion(batch).rootHash;
          await batch.write({ sync: false });
          tree.commitStaged();
        } else root = (await tree.saveVersion({ sync: false })).rootHash;
        const want = ref.save();
        expect(tree.version).to.equal(ref.version);
        expect(hex(root), `root of version ${tree.version}`).to.equal(hex(want));
        check(tree.version);
        const versions = tree.availableVersions();
        check(versions[Math.floor(r() * versions.length)]!);
        if (round % 7 === 6) {
          await t.reopen();
          tree = await open();
          expect(hex(tree.rootHash)).to.equal(hex(want));
        }
        if (round % 9 === 8 && versions.length > 3) {
          const v = versions[Math.floor(r() * (versions.length - 1))]!;
          await tree.deleteVersion(v);
          ref.forget(v);
        }
        if (round % 13 === 12 && versions.length > 4) {
          const to = versions[Math.floor(versions.length / 2)]!;
          await tree.deleteVersionsTo(to);
          for (const v of versions) if (v <= to) ref.forget(v);
        }
      }
      for (const v of tree.availableVersions()) check(v);
      // every node still stored belongs to a kept version (pruning removed exactly the unreachable ones)
      const seen = new Set<string>();
      for (const v of tree.availableVersions()) for (const h of tree.view(v).nodeHashes()) seen.add(hex(h));
      expect(await tree.countStoredNodes()).to.equal(seen.size);
      tree.checkInvariants();
    });
  }

  it('large values (hashed by node:crypto, records larger than an arena) match the reference and read back', async function () {
    this.timeout(60_000);
    const r = rng(testSeed('reference large'));
    const tree = await IavlTree.open({ db: t.db, prefix: Uint8Array.of(0x33), cacheSize: 4, pinnedLevels: 0 });
    const ref = new ReferenceTree();
    const want = new Map<string, Uint8Array>();
    for (let v = 0; v < 3; v++) {
      for (let i = 0; i < 25; i++) {
        const k = randBytes(r, 2);
        const size = r() < 0.3 ? 300_000 + Math.floor(r() * 200_000) : Math.floor(r() * 2_000);
        const value = randBytes(r, size);
        tree.set(k, value);
        ref.set(k, value);
        want.set(hex(k), value);
      }
      const { rootHash } = await tree.saveVersion();
      expect(hex(rootHash)).to.equal(hex(ref.save()));
    }
    await t.reopen();
    const again = await IavlTree.open({ db: t.db, prefix: Uint8Array.of(0x33), cacheSize: 4, pinnedLevels: 0 });
    for (const [k, v] of want) expect(hex(again.get(Buffer.from(k, 'hex'))!)).to.equal(hex(v));
    const k0 = Buffer.from([...want.keys()][0]!, 'hex');
    expect(hex(encodeCommitmentProof(again.getProof(k0)))).to.equal(hex(encodeCommitmentProof({ exist: ref.existenceProof(ref.version, k0) })));
  });
});
