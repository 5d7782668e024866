/**
 * The collections the node runs when it falls idle: `exposedGc` frees what is unreachable, and `exposedCompactingGc`
 * also gives back the heap a load left sparse (pages each holding a few survivors), which a plain one keeps.
 */
import { expect } from 'chai';
import { getHeapStatistics } from 'node:v8';
import { exposedCompactingGc, exposedGc } from '../src/index.js';

const MB = 1024 * 1024;

describe('gc: the collections of an idle node', () => {
  it('exposes gc() at run time', () => {
    expect(exposedGc()).to.be.a('function');
    expect(exposedCompactingGc()).to.be.a('function');
  });

  it('a compacting collection shrinks a heap left sparse to about what is alive', function () {
    this.timeout(60_000);
    const compacting = exposedCompactingGc()!;
    compacting();
    // ~300 MB of objects allocated in rounds, one in 40 kept: every old-generation page ends up with a few survivors
    const survivors: object[] = [];
    let rounds: object[][] = [];
    for (let r = 0; r < 12; r++) {
      const batch: object[] = [];
      for (let i = 0; i < 200_000; i++) {
        const o = { i, s: `v${i}`, a: [i] };
        batch.push(o);
        if (i % 40 === 0) survivors.push(o);
      }
      rounds.push(batch);
      if (rounds.length > 6) rounds.shift();
    }
    rounds = [];
    const before = getHeapStatistics();
    compacting();
    const after = getHeapStatistics();
    expect(before.total_heap_size, 'the load grew the heap').to.be.above(200 * MB);
    expect(after.total_heap_size, `heap ${after.total_heap_size >> 20} MB for ${after.used_heap_size >> 20} MB alive`).to.be.below(after.used_heap_size + 64 * MB);
    expect(survivors.length).to.equal(12 * 5000);
  });
});
