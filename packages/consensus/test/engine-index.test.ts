import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@chain/crypto';
import { parseQuery } from '@chain/events';
import { IndexWorker } from '@chain/indexer';
import { TestNode, makeGenesis, tempDir } from './helpers.js';

const ALICE = parseQuery("message.sender = 'alice'");
const PAGE = { page: 1, perPage: 100, orderDesc: false };

/** Submits txs of alice one by one (each in its own block) and returns their hashes. */
async function sendAlice(node: TestNode, n: number, by: number): Promise<Uint8Array[]> {
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const raw = node.tx([{ sender: 'alice', by: by + i }]);
    const wait = node.engine.waitForTx(sha256(raw), 5000);
    expect((await node.engine.checkTx(raw)).code).to.equal(0);
    expect(await wait).to.not.equal(undefined);
    hashes.push(sha256(raw));
  }
  return hashes;
}

describe('Engine with the tx index on a worker thread (IndexWorker, its own database)', function () {
  this.timeout(60_000);
  const tmp = tempDir('engine-index');
  const indexA = join(tmp.dir, 'index-a');
  const indexB = join(tmp.dir, 'index-b');
  let node: TestNode;

  before(async () => {
    node = await TestNode.create({ dir: join(tmp.dir, 'chain'), indexDir: indexA, timeoutCommitMs: 10 });
    await node.engine.start();
  });
  after(async () => {
    await node.close();
    tmp.remove();
  });

  it('a tx is found by hash and by search as soon as its block is committed', async () => {
    const hashes = await sendAlice(node, 3, 1);
    // waitForTx resolved at the commit: the lookup waits for the worker to index that block
    for (const h of hashes) expect(await node.engine.indexer.byHash(h)).to.not.equal(undefined);
    expect((await node.engine.indexer.search(ALICE, PAGE)).total).to.equal(3);
    await expectIndexedToLatest(node);
  });

  it('a new, empty index is filled from the stored blocks at start', async () => {
    node = await node.restart({ indexDir: indexB });
    expect(await node.engine.indexer.indexedHeight()).to.equal(0);
    await node.engine.start();
    await expectIndexedToLatest(node);
    expect((await node.engine.indexer.search(ALICE, PAGE)).total).to.equal(3);
  });

  it('an index behind the blocks (index A missed the blocks committed since) catches up from its height', async () => {
    await sendAlice(node, 2, 10);
    const behind = await heightOfIndex(indexA);
    expect(behind).to.be.lessThan(node.engine.latestHeight);
    node = await node.restart({ indexDir: indexA });
    await node.engine.start();
    await expectIndexedToLatest(node);
    const found = await node.engine.indexer.search(ALICE, PAGE);
    expect(found.total).to.equal(5);
    expect(new Set(found.txs.map((t) => `${t.height}/${t.index}`)).size).to.equal(5);
  });

  it('an index ahead of the blocks (another chain in the same place) is dropped and rebuilt', async () => {
    // a new chain (its own store) with index B, which holds the old chain's heights
    await node.close();
    rmSync(join(tmp.dir, 'chain2'), { recursive: true, force: true });
    node = await TestNode.create({ dir: join(tmp.dir, 'chain2'), indexDir: indexB, timeoutCommitMs: 10 });
    await node.engine.start();
    await expectIndexedToLatest(node);
    expect((await node.engine.indexer.search(ALICE, PAGE)).total).to.equal(0);
    const [h] = await sendAlice(node, 1, 1);
    expect(await node.engine.indexer.byHash(h!)).to.not.equal(undefined);
    expect((await node.engine.indexer.search(ALICE, PAGE)).total).to.equal(1);
  });
});

describe('Engine with an IndexWorker on a chain that starts above height 1 (genesis initial_height)', function () {
  this.timeout(60_000);
  const tmp = tempDir('engine-index-initial');

  it('starts with no stored block to index, indexes from initial_height, and a new index catches up from there', async () => {
    let node = await TestNode.create({ dir: join(tmp.dir, 'chain'), indexDir: join(tmp.dir, 'index-a'), genesis: makeGenesis({ initialHeight: 1000 }), timeoutCommitMs: 10 });
    try {
      await node.engine.start();
      const [h] = await sendAlice(node, 2, 1);
      expect((await node.engine.indexer.byHash(h!))!.height).to.be.at.least(1000);
      node = await node.restart({ indexDir: join(tmp.dir, 'index-b') });
      await node.engine.start();
      await expectIndexedToLatest(node);
      expect((await node.engine.indexer.search(ALICE, PAGE)).total).to.equal(2);
    } finally {
      await node.close();
      tmp.remove();
    }
  });
});

/**
 * The index holds every block committed before the call (the worker answers in order). The engine goes on making
 * blocks meanwhile, so the height is read before asking, and the index may be further on by the answer.
 */
async function expectIndexedToLatest(node: TestNode): Promise<void> {
  const latest = node.engine.latestHeight;
  const indexed = await node.engine.indexer.indexedHeight();
  expect(indexed).to.be.at.least(latest);
  expect(indexed).to.be.at.most(node.engine.latestHeight);
}

/** The height of the index in `dir` (opened and closed beside the running node, which uses another index). */
async function heightOfIndex(dir: string): Promise<number> {
  const w = await IndexWorker.open(dir, async () => undefined);
  try {
    return await w.indexedHeight();
  } finally {
    await w.close();
  }
}
