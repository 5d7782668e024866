import { expect } from 'chai';
import { ics23, iavlSpec, tendermintSpec, verifyMembership } from '@confio/ics23';
import { TestApp, set } from './helpers.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('app: raw store queries (/store/<name>/key, /subspace) and pruned heights', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('answers a key with the SDK proof ops, which verify against the app hash of that height', async () => {
    t = await TestApp.create();
    await t.init([{ key: 'a', value: '1' }]);
    await t.deliver(t.tx([set('b', '2')]));
    const h = t.app.lastHeight;
    const appHash = t.app.lastAppHash;
    const r = await t.app.query({ path: '/store/kv/key', data: utf8('b'), height: h, prove: true });
    expect(r.code, r.log).to.equal(0);
    expect(text(r.value)).to.equal('2');
    expect(text(r.key!)).to.equal('b');
    expect(r.height).to.equal(h);
    expect(r.proofOps!.map((o) => o.type)).to.deep.equal(['ics23:iavl', 'ics23:simple']);
    const iavl = ics23.CommitmentProof.decode(r.proofOps![0]!.data);
    const simple = ics23.CommitmentProof.decode(r.proofOps![1]!.data);
    const root = simple.exist!.value!;
    expect(verifyMembership(iavl, iavlSpec, root, utf8('b'), utf8('2'))).to.equal(true);
    expect(verifyMembership(simple, tendermintSpec, appHash, utf8('kv'), root)).to.equal(true);
    // an earlier height: the value then (absent) and no proof asked
    const before = await t.app.query({ path: '/store/kv/key', data: utf8('b'), height: h - 1 });
    expect(before.code).to.equal(0);
    expect(before.value.length).to.equal(0);
    expect(before.proofOps).to.equal(undefined);
  });

  it('lists a subspace as cosmos.base.kv.v1beta1.Pairs and refuses as the SDK does', async () => {
    t = await TestApp.create();
    await t.init([{ key: 'p1', value: 'x' }, { key: 'p2', value: 'y' }, { key: 'q', value: 'z' }]);
    await t.deliver(t.tx([set('p3', 'w')]));
    const r = await t.app.query({ path: '/store/kv/subspace', data: utf8('p'), height: 0 });
    expect(r.code, r.log).to.equal(0);
    // Pairs { repeated Pair pairs = 1 }, Pair { bytes key = 1; bytes value = 2 }
    const pair = (k: string, v: string): number[] => [0x0a, 4 + k.length + v.length, 0x0a, k.length, ...utf8(k), 0x12, v.length, ...utf8(v)];
    expect([...r.value]).to.deep.equal([...pair('p1', 'x'), ...pair('p2', 'y'), ...pair('p3', 'w')]);
    const cases: [string, Uint8Array, number, boolean, number, string][] = [
      ['/store/kv/key', utf8('a'), 1, true, 18, 'cannot query with proof when height <= 1; please provide a valid height: invalid request'],
      ['/store/nope/key', utf8('a'), 0, false, 6, 'no such store: nope: unknown request'],
      ['/store', utf8('a'), 0, false, 6, 'no such store: : unknown request'],
      ['/store/kv/other', utf8('a'), 0, false, 6, 'unexpected query path: /other: unknown request'],
      ['/store/kv/key', new Uint8Array(0), 0, false, 2, 'query cannot be zero length: tx parse error'],
    ];
    for (const [path, data, height, prove, code, log] of cases) {
      const q = await t.app.query({ path, data, height, prove });
      expect([q.code, q.codespace, q.log], path).to.deep.equal([code, 'sdk', log]);
    }
  });

  it('pruned heights: gRPC queries answer the SDK NotFound, store keys "version does not exist"', async () => {
    t = await TestApp.create({ store: { pruning: { keepRecent: 2, interval: 10 } } });
    await t.init([{ key: 'a', value: '1' }]);
    for (let i = 0; i < 10; i++) await t.deliver(t.tx([set('b', String(i))]));
    expect(t.app.lastHeight).to.equal(11);
    expect(t.store.earliestHeight).to.equal(8); // pruned at 10: heights <= 10 - 1 - 2
    const e = await t.app.runQuery('/chain.apptest.v1.Query/Get', { key: 'a' }, 5).catch((x: unknown) => x as Error);
    expect((e as { codespace?: string }).codespace).to.equal('sdk');
    expect((e as { code?: number }).code).to.equal(38);
    expect((e as Error).message).to.match(/^failed to load state at height 5; version mismatch on immutable IAVL tree; version does not exist\..* \(latest height: 11\): not found$/);
    expect((await t.app.runQuery('/chain.apptest.v1.Query/Get', { key: 'b' }, 8)).value).to.equal('6');
    const k = await t.app.query({ path: '/store/kv/key', data: utf8('a'), height: 5 });
    expect([k.code, k.log]).to.deep.equal([0, 'version does not exist']);
    const p = await t.app.query({ path: '/store/kv/key', data: utf8('a'), height: 5, prove: true });
    expect([p.code, p.log]).to.deep.equal([18, 'proof is unexpectedly empty; ensure height has not been pruned: invalid request']);
  });
});
