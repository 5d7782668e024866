import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { GENESIS_APP_HASH, leafHash, merkleRoot, nextAppHash, uvarint, type Change } from '../src/index.js';
import { hex, randBytes, refLeaf, refMth, refNextAppHash, rng, u } from './helpers.js';

const sha = (hexIn: string) => createHash('sha256').update(Buffer.from(hexIn, 'hex')).digest('hex');

describe('app hash', () => {
  it('uvarint', () => {
    expect(hex(uvarint(0))).to.equal('00');
    expect(hex(uvarint(127))).to.equal('7f');
    expect(hex(uvarint(128))).to.equal('8001');
    expect(hex(uvarint(300))).to.equal('ac02');
    expect(hex(uvarint(2 ** 32))).to.equal('8080808010');
    expect(() => uvarint(-1)).to.throw();
  });

  it('leaf hash: known answers for set, empty value and delete', () => {
    expect(hex(leafHash({ key: u(0xaa, 0xbb), value: u(0xcc) }))).to.equal(sha('0002aabb01cc'));
    expect(hex(leafHash({ key: u(0xaa), value: u() }))).to.equal(sha('0001aa01'));
    expect(hex(leafHash({ key: u(0xaa), value: undefined }))).to.equal(sha('0001aa00'));
    const long = new Uint8Array(200).fill(7);
    expect(hex(leafHash({ key: long, value: u(1) }))).to.equal(sha('00c801' + hex(long) + '0101'));
  });

  it('Merkle root equals the recursive RFC 6962 definition for 1..70 leaves', () => {
    const r = rng(5);
    const leaves = Array.from({ length: 70 }, () => leafHash({ key: randBytes(r, 4), value: randBytes(r, 4) }));
    for (let n = 1; n <= 70; n++) expect(hex(merkleRoot(leaves.slice(0, n))), `n=${n}`).to.equal(hex(refMth(leaves.slice(0, n))));
    expect(() => merkleRoot([])).to.throw();
  });

  it('three-leaf known answer', () => {
    const cs: Change[] = [
      { key: u(1), value: u(1) },
      { key: u(2), value: undefined },
      { key: u(3), value: u() },
    ];
    const [l0, l1, l2] = cs.map((c) => hex(leafHash(c)));
    const root = sha('01' + sha('01' + l0 + l1) + l2);
    expect(hex(merkleRoot(cs.map(leafHash)))).to.equal(root);
    const prev = u(9, 9);
    expect(hex(nextAppHash(prev, cs))).to.equal(sha('020909' + root));
    expect(hex(nextAppHash(GENESIS_APP_HASH, cs.slice(0, 1)))).to.equal(sha('02' + l0));
  });

  it('an empty changeset keeps the app hash; changes of any field change it', () => {
    const prev = u(1, 2, 3);
    expect(hex(nextAppHash(prev, []))).to.equal('010203');
    const base = hex(nextAppHash(prev, [{ key: u(1), value: u() }]));
    expect(hex(nextAppHash(prev, [{ key: u(1), value: undefined }]))).to.not.equal(base);
    expect(hex(nextAppHash(prev, [{ key: u(2), value: u() }]))).to.not.equal(base);
    expect(hex(nextAppHash(prev, [{ key: u(1), value: u(0) }]))).to.not.equal(base);
    expect(hex(nextAppHash(u(1, 2, 4), [{ key: u(1), value: u() }]))).to.not.equal(base);
    // Key/value boundary is unambiguous thanks to the key length prefix.
    expect(hex(leafHash({ key: u(1, 1), value: u(2) }))).to.not.equal(hex(leafHash({ key: u(1), value: u(1, 2) })));
  });

  it('matches the reference over random sorted changesets', () => {
    const r = rng(8);
    let prev: Uint8Array = GENESIS_APP_HASH;
    for (let h = 0; h < 30; h++) {
      const m = new Map<string, Change>();
      const n = Math.floor(r() * 40);
      for (let i = 0; i < n; i++) {
        const key = randBytes(r, 4);
        m.set(hex(key), { key, value: r() < 0.3 ? undefined : randBytes(r, 5) });
      }
      const cs = [...m.values()].sort((a, b) => Buffer.compare(a.key, b.key));
      for (const c of cs) expect(hex(leafHash(c))).to.equal(hex(refLeaf(c)));
      const next = nextAppHash(prev, cs);
      expect(hex(next)).to.equal(hex(refNextAppHash(prev, cs)));
      prev = next;
    }
  });
});
