import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseQuery } from '@chain/events';
import { IndexWorker, TxIndexer } from '@chain/indexer';
import { createLogger } from '@chain/server';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';

describe('[tx_index] worker_thread: the index in chain.db or in data/tx_index.db on a worker thread', function () {
  this.timeout(60_000);
  const home = mkdtempSync(join(tmpdir(), 'chaind-txi-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  const start = async (worker: boolean): Promise<Node> => {
    const cfg = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.enable': 'false', 'grpc.enable': 'false', 'json-rpc.enable': false,
      'consensus.timeout_commit': '50ms', 'tx_index.worker_thread': worker,
    });
    const node = await Node.create(cfg, createLogger('error'));
    await node.start();
    return node;
  };
  const blocks = async (node: Node): Promise<number> =>
    (await node.engine.indexer.searchBlocks(parseQuery('block.height >= 1'), { page: 1, perPage: 1, orderDesc: true })).total;

  // the node goes on committing blocks while the index is asked: every block committed before the question is in it
  const expectAllIndexed = async (node: Node): Promise<void> => {
    const latest = node.engine.latestHeight;
    expect(await node.engine.indexer.indexedHeight()).to.be.at.least(latest);
    expect(await blocks(node)).to.be.at.least(latest);
  };

  it('off: the index is in chain.db, committed with each block', async () => {
    initHome({ home, dev: true });
    const node = await start(false);
    try {
      while (node.engine.latestHeight < 3) await new Promise((r) => setTimeout(r, 20));
      expect(node.engine.indexer).to.be.instanceOf(TxIndexer);
      expect(await blocks(node)).to.be.at.least(3);
    } finally {
      await node.stop();
    }
    expect(existsSync(join(home, 'data', 'tx_index.db'))).to.equal(false);
  });

  it('on by default (config.toml says so): data/tx_index.db, filled from the stored blocks at start, then block by block; kept across a restart', async () => {
    expect(loadConfig(home).config.tx_index.worker_thread).to.equal(true);
    let node = await start(true);
    try {
      expect(node.engine.indexer).to.be.instanceOf(IndexWorker);
      expect(existsSync(join(home, 'data', 'tx_index.db'))).to.equal(true);
      // the blocks of the first run were indexed again into the new database before the first new block
      expect(await node.engine.indexer.indexedHeight()).to.be.at.least(3);
      const h = node.engine.latestHeight;
      while (node.engine.latestHeight < h + 3) await new Promise((r) => setTimeout(r, 20));
      await expectAllIndexed(node);
      await node.stop();
      node = await start(true);
      await expectAllIndexed(node);
    } finally {
      await node.stop();
    }
  });
});
