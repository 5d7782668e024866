/**
 * A block hook that halts the chain (`ChainHaltError`, e.g. an upgrade without its handler): the engine stops
 * producing blocks without committing that height and without retrying, keeps serving CheckTx and queries,
 * and a restart on the same data dir halts again at the same height.
 */
import { expect } from 'chai';
import { ChainHaltError } from '@chain/app';
import type { AppModule, Context } from '@chain/app';
import { TestNode, counterOf, sleep } from './helpers.js';

/** A module whose pre-block hook halts the chain at `height` (or never, for `undefined`). */
function halter(height: number | undefined): AppModule & { calls: number } {
  const m = {
    name: 'halter',
    consensusVersion: 1,
    calls: 0,
    preBlock(ctx: Context) {
      if (ctx.block.height === height) {
        m.calls++;
        throw new ChainHaltError(`halt at ${height}`, height);
      }
    },
  };
  return m;
}

describe('engine: a halting app', () => {
  it('stops at the height, commits nothing of it, does not retry; a restart halts again', async () => {
    const h = halter(4);
    let node = await TestNode.create({ modules: [h] });
    try {
      await node.engine.start();
      const tx = node.tx([{ sender: 'alice' }]);
      await node.waitForHeight(3);
      const end = Date.now() + 5000;
      while (!node.engine.halted && Date.now() < end) await sleep(5);
      expect(node.engine.halted).to.deep.equal({ height: 4, reason: 'halt at 4' });
      await sleep(100);
      expect(h.calls).to.equal(1);
      expect(node.engine.latestHeight).to.equal(3);
      expect(node.store.lastHeight).to.equal(3);
      expect(await node.engine.blocks.block(4)).to.equal(undefined);
      expect(node.errors).to.deep.equal(['CONSENSUS HALTED at height 4: halt at 4 {"lastCommittedHeight":3}']);
      // CheckTx still answers (the mempool keeps the tx for a later binary); the state is the committed one
      expect((await node.engine.checkTx(tx)).code).to.equal(0);
      expect(counterOf(node.app, 'alice')).to.equal(0n);

      const h2 = halter(4);
      node = await node.restart({ modules: [h2] });
      await node.engine.start();
      const end2 = Date.now() + 5000;
      while (!node.engine.halted && Date.now() < end2) await sleep(5);
      expect(node.engine.halted?.height).to.equal(4);
      expect(h2.calls).to.equal(1);
      expect(node.store.lastHeight).to.equal(3);

      // a binary that does not halt there goes on from 4
      node = await node.restart({ modules: [halter(undefined)] });
      await node.engine.start();
      await node.waitForHeight(5);
      expect(node.engine.halted).to.equal(undefined);
    } finally {
      await node.close();
    }
  });
});
