import { expect } from 'chai';
import { NodeCache } from '../src/cache.js';
import { Node } from '../src/node.js';

const node = (id: number, height: number): Node => {
  const n = new Node(Uint8Array.of(1), undefined, 1, height, 1);
  n.id = id;
  return n;
};

describe('NodeCache', () => {
  it('never holds more than its capacity, and returns only the node cached under an id', () => {
    for (const cap of [0, 1, 3, 16, 100, 1000]) {
      const c = new NodeCache(cap);
      const nodes = Array.from({ length: 5_000 }, (_, i) => node(32 + i * 7, i % 5));
      for (const n of nodes) c.add(n.id, n, 1);
      expect(c.size).to.be.at.most(cap);
      let found = 0;
      for (const n of nodes) {
        const got = c.get(n.id);
        if (got !== undefined) {
          expect(got).to.equal(n);
          found++;
        }
      }
      expect(found).to.equal(c.size);
    }
  });

  it('grows without losing nodes while below capacity', () => {
    const c = new NodeCache(100_000);
    const nodes = Array.from({ length: 20_000 }, (_, i) => node(32 + i, 1));
    for (const n of nodes) c.add(n.id, n, 1);
    expect(c.size).to.equal(20_000);
    for (const n of nodes) expect(c.get(n.id)).to.equal(n);
  });

  it('evicts a cold node first, then the lowest hot node; offer never evicts a hot node', () => {
    const c = new NodeCache(16); // one set of 16 ways
    const nodes = Array.from({ length: 16 }, (_, i) => node(100 + i, i + 1)); // heights 1..16
    for (const n of nodes) c.add(n.id, n, 1);
    expect(c.size).to.equal(16);
    c.offer(500, node(500, 0)); // full of hot nodes: not taken
    expect(c.get(500)).to.equal(undefined);
    c.add(200, node(200, 9), 1); // evicts the lowest: height 1
    expect(c.get(100)).to.equal(undefined);
    expect(c.get(200)).to.not.equal(undefined);
    c.cool(110); // height 11, now cold: goes before any hot node
    c.add(201, node(201, 20), 1);
    expect(c.get(110)).to.equal(undefined);
    expect(c.get(101)).to.not.equal(undefined);
    c.cool(105);
    c.offer(501, node(501, 0)); // a cold slot: taken
    expect(c.get(105)).to.equal(undefined);
    expect(c.get(501)).to.not.equal(undefined);
    c.delete(501);
    expect(c.get(501)).to.equal(undefined);
    expect(c.size).to.equal(15);
  });
});
