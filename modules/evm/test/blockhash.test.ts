/**
 * BLOCKHASH reads the block hashes the evm module keeps in state (a ring of 8191 blocks, like EIP-2935's
 * history contract), written at each block's begin from the FinalizeBlock request's header hash. It never
 * reads the node's block store, so two nodes can never execute a block differently.
 */
import { expect } from 'chai';
import { blockHashOf } from '@chain/testing';
import { toHex } from '@chain/crypto';
import { EvmTestChain } from './helpers.js';

/** Init code returning blockhash(n) as the "deployed code": eth_call with no `to` returns it. */
function blockhashInitCode(n: number): Uint8Array {
  // PUSH2 n, BLOCKHASH, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN
  return Uint8Array.of(0x61, (n >> 8) & 0xff, n & 0xff, 0x40, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3);
}

describe('evm: BLOCKHASH from state', () => {
  let chain: EvmTestChain;

  before(async () => {
    chain = await EvmTestChain.create();
    for (let i = 0; i < 4; i++) await chain.block([]);
  });

  after(async () => {
    await chain.close();
  });

  it('answers the header hash each earlier block was finalized with', async () => {
    const latest = chain.app.lastHeight;
    expect(latest).to.equal(5);
    for (let h = 1; h <= latest; h++) {
      expect(toHex(chain.evm.blockHashAt(chain.ctx(), BigInt(h))!)).to.equal(toHex(blockHashOf(h)));
      // eth_call runs in the context of the latest block (as geth): its own hash is not yet BLOCKHASH's
      if (h === latest) continue;
      const { ret } = await chain.call({ data: blockhashInitCode(h) });
      expect(toHex(ret), `blockhash(${h})`).to.equal(toHex(blockHashOf(h)));
    }
  });

  it('answers zero for the current block, future blocks and blocks never finalized', async () => {
    for (const n of [0, 5, 6, 7, 4000]) {
      const { ret } = await chain.call({ data: blockhashInitCode(n) });
      expect(toHex(ret), `blockhash(${n})`).to.equal('00'.repeat(32));
    }
  });

  it('keeps only the last 8191 hashes: a slot reused by a later block no longer answers for the older one', () => {
    const { ctx } = chain.base.branchCtx();
    chain.evm.recordBlockHash(ctx, 8191 + 3, new Uint8Array(32).fill(9));
    expect(chain.evm.blockHashAt(ctx, 3n)).to.equal(undefined);
    expect(toHex(chain.evm.blockHashAt(ctx, 8194n)!)).to.equal('09'.repeat(32));
  });
});
