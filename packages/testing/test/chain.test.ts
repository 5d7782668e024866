import { expect } from 'chai';
import type { AppModule, Context } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import { toHex } from '@chain/crypto';
import { GENESIS_TIME, TestChain, blockHashOf, devEthKey, devKey, testAppConfig } from '../src/index.js';

describe('testing: TestChain', () => {
  it('drives the app through InitChain, FinalizeBlock (with comet info) and Commit', async () => {
    const seen: { height: number; hash: string; votes: number; time: number }[] = [];
    const probe: AppModule = {
      name: 'probe',
      consensusVersion: 1,
      beginBlock(ctx: Context) {
        seen.push({ height: ctx.block.height, hash: toHex(ctx.block.hash!), votes: ctx.comet.lastCommit.votes.length, time: ctx.block.time.getTime() });
      },
    };
    const chain = await TestChain.open({ chainId: 'testing-1', registry: new ProtoRegistry(), modules: [probe] });
    try {
      await chain.init({});
      const vote = { validator: { address: new Uint8Array(20).fill(1), power: 7n }, blockIdFlag: 2 as const };
      await chain.block([], { lastCommit: { round: 0, votes: [vote] } });
      expect(chain.app.lastHeight).to.equal(2);
      expect(seen).to.deep.equal([
        { height: 1, hash: toHex(blockHashOf(1)), votes: 0, time: GENESIS_TIME.getTime() },
        { height: 2, hash: toHex(blockHashOf(2)), votes: 1, time: GENESIS_TIME.getTime() + 2000 },
      ]);
    } finally {
      await chain.close();
    }
  });

  it('testAppConfig lists each module in the orders of the hooks it has', () => {
    const noop = (): void => undefined;
    const c = testAppConfig([
      { name: 'a', consensusVersion: 1, beginBlock: noop },
      { name: 'b', consensusVersion: 1, endBlock: noop, genesisType: 'x.G', initGenesis: noop },
    ]);
    expect(c.modules).to.deep.equal(['a', 'b']);
    expect(c.order).to.deep.equal({ preBlock: [], beginBlock: ['a'], endBlock: ['b'], initGenesis: ['b'] });
  });

  it('dev keys are the documented dev accounts', () => {
    expect(devEthKey(0).address).to.equal('chain17w0adeg64ky0daxwd2ugyuneellmjgnxkl0eq4');
    expect(devKey(0).eth).to.equal(false);
  });
});
