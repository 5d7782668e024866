import { expect } from 'chai';
import { BlockStore } from '../src/index.js';
import type { StoredBlock, StoredResults } from '../src/index.js';

/** A block store over an empty database: what it answers comes from its cache of the latest heights. */
function store(): BlockStore {
  return new BlockStore({ getRaw: async () => undefined, getRawSync: () => undefined, iterateRaw: async () => [] } as never);
}

function block(height: number, txs: number): [StoredBlock, StoredResults] {
  const raw = Array.from({ length: txs }, () => new Uint8Array(1));
  return [
    { block: { header: { height }, data: { txs: raw } }, blockId: { hash: new Uint8Array(32) }, size: txs } as unknown as StoredBlock,
    { height, txResults: raw.map(() => ({})), events: [], validatorUpdates: [], appHash: new Uint8Array(32) } as unknown as StoredResults,
  ];
}

describe('block store: the cache of the latest blocks', () => {
  it('keeps the latest 64 small blocks', async () => {
    const s = store();
    for (let h = 1; h <= 100; h++) s.committed(...block(h, 10));
    expect(s.cachedHeights).to.deep.equal({ blocks: 64, results: 64 });
    expect(await s.block(36)).to.equal(undefined);
    expect((await s.block(37))?.block.header.height).to.equal(37);
    expect((await s.results(100))?.height).to.equal(100);
  });

  it('holds at most ~1,000 txs: big blocks push out older ones, and the newest stays however big', async () => {
    const s = store();
    for (let h = 1; h <= 10; h++) s.committed(...block(h, 10));
    s.committed(...block(11, 900));
    expect(s.cachedHeights.blocks).to.equal(11); // 1,000 txs
    s.committed(...block(12, 1));
    expect(s.cachedHeights.blocks).to.equal(11); // over 1,000: the oldest (10 txs) left
    s.committed(...block(13, 20_000));
    expect(s.cachedHeights).to.deep.equal({ blocks: 1, results: 1 });
    expect((await s.results(13))?.txResults.length).to.equal(20_000);
    expect(await s.results(12)).to.equal(undefined); // from the database (empty here)
    s.committed(...block(14, 0));
    s.committed(...block(15, 5));
    expect(s.cachedHeights.blocks).to.equal(2); // 14 and 15: block 13 alone is over the bound
  });
});
