/** The EIP-1559 fee market: the base fee follows block fullness; events and queries expose it. */
import { expect } from 'chai';
import { FEE_COLLECTOR } from '@chain/auth';
import { GWEI, EvmTestChain, attrValues, ethKey, eventsOf, signEthTx } from './helpers.js';

/** EIP-1559 with target 50,000 (block gas limit 100,000, elasticity 2) and denominator 8. */
function expected(base: bigint, used: bigint): bigint {
  const target = 50_000n;
  if (used === target) return base;
  if (used > target) {
    const d = (base * (used - target)) / target / 8n;
    return base + (d > 1n ? d : 1n);
  }
  return base - (base * (target - used)) / target / 8n;
}

describe('evm fee market', () => {
  let chain: EvmTestChain;
  const alice = ethKey(0);
  const bob = ethKey(1);
  beforeEach(async () => { chain = await EvmTestChain.create({ evmParams: { block_gas_limit: 100_000n } }); });
  afterEach(async () => { await chain.close(); });

  const transfers = (n: number, from = alice): Uint8Array[] => {
    const nonce = chain.nonce(from.addr);
    return Array.from({ length: n }, (_, i) => chain.wrap(signEthTx(from, { nonce: nonce + BigInt(i), to: bob.addr, value: 1n, gasLimit: 21000n, maxFeePerGas: 5n * GWEI })));
  };

  it('starts at 1 gwei and lowers the base fee after the empty genesis block', async () => {
    expect(chain.baseFee()).to.equal(expected(1_000_000_000n, 0n));
    expect(chain.baseFee()).to.equal(875_000_000n);
    const q = await chain.query<{ base_fee: string }>('BaseFee', {});
    expect(q.base_fee).to.equal('875000000');
    const p = await chain.query<{ params: { base_fee_change_denominator: number; elasticity_multiplier: number; evm_denom: string; block_gas_limit: bigint; initial_base_fee: string } }>('Params', {});
    expect(p.params).to.deep.include({ base_fee_change_denominator: 8, elasticity_multiplier: 2, evm_denom: 'achain', block_gas_limit: 100_000n, initial_base_fee: '1000000000' });
  });

  it('moves with block fullness: down when under target, up when over, emitted as fee_market and block_gas', async () => {
    let base = chain.baseFee();
    // empty block
    let res = await chain.block([]);
    expect(attrValues(res.events, 'fee_market', 'base_fee')).to.deep.equal([base.toString()]);
    base = expected(base, 0n);
    expect(chain.baseFee()).to.equal(base);
    // 2 transfers: 42,000 < 50,000
    res = await chain.block(transfers(2));
    expect(res.txResults.map((r) => r.code)).to.deep.equal([0, 0]);
    expect(eventsOf(res.events, 'block_gas')[0]).to.deep.include({ amount: '42000' });
    base = expected(base, 42_000n);
    expect(chain.baseFee()).to.equal(base);
    // 4 transfers: 84,000 > 50,000
    const before = base;
    res = await chain.block(transfers(4));
    expect(res.txResults.map((r) => r.code)).to.deep.equal([0, 0, 0, 0]);
    expect(attrValues(res.events, 'fee_market', 'base_fee')).to.deep.equal([before.toString()]);
    base = expected(base, 84_000n);
    expect(base > before).to.equal(true);
    expect(chain.baseFee()).to.equal(base);
    // the base fee of a past block through a query at that height is the one the next block used
    const past = await chain.app.runQuery('/chain.evm.v1.Query/BaseFee', {}, chain.app.lastHeight - 1);
    expect(past.base_fee).to.equal(before.toString());
  });

  it('charges the base fee of the block the tx runs in (tip 0: gasUsed × base fee)', async () => {
    const collector = chain.ak.getModuleAddress(FEE_COLLECTOR);
    const base = chain.baseFee();
    const c0 = chain.balance(collector);
    const a0 = chain.balance(alice.addr);
    const res = await chain.block(transfers(1));
    expect(res.txResults[0]!.code).to.equal(0);
    expect(chain.balance(collector) - c0).to.equal(21000n * base);
    expect(a0 - chain.balance(alice.addr)).to.equal(21000n * base + 1n);
  });

  it('rejects in CheckTx a fee cap that an increased base fee overtakes', async () => {
    await chain.block(transfers(4));
    const base = chain.baseFee();
    const tx = chain.ethTx(alice, { to: bob.addr, gasLimit: 21000n, maxFeePerGas: base - 1n });
    expect((await chain.base.check(tx)).code).to.equal(9);
    const ok = chain.ethTx(alice, { to: bob.addr, gasLimit: 21000n, maxFeePerGas: base });
    expect((await chain.base.check(ok)).code).to.equal(0);
  });
});
