/**
 * eth_call / eth_estimateGas under the keeper's query budget: a long call yields to the event loop
 * (timers and blocks go on), sees the state of its height even when a block commits meanwhile, and is
 * aborted at the time limit with geth's message.
 */
import { expect } from 'chai';
import { bigIntToBytes, generateAddress } from '@ethereumjs/util';
import { hexAddress } from '../src/index.js';
import { EvmTestChain, ethKey } from './helpers.js';
import { calldata, contracts, word } from './contracts.js';

/** Counts timer ticks while `p` runs: a starved event loop gives none. */
async function ticksDuring<T>(p: () => Promise<T>): Promise<{ value: T | undefined; error: unknown; ticks: number; ms: number }> {
  let ticks = 0;
  const t = setInterval(() => { ticks++; }, 5);
  const start = performance.now();
  try {
    return { value: await p(), error: undefined, ticks, ms: performance.now() - start };
  } catch (error) {
    return { value: undefined, error, ticks, ms: performance.now() - start };
  } finally {
    clearInterval(t);
  }
}

describe('evm query budget (eth_call / eth_estimateGas)', function () {
  this.timeout(60_000);
  let chain: EvmTestChain;
  let spin: string;
  const alice = ethKey(0);
  const ENDLESS = 100_000_000_000n;

  before(async () => {
    // gas for far longer than the limit on any machine (25M gas of spin() ran out in under a second here)
    chain = await EvmTestChain.create({ queryTimeoutMs: 1000, gasCap: ENDLESS, evmParams: { block_gas_limit: ENDLESS } });
    const res = await chain.deliver(chain.ethTx(alice, { data: contracts().Spin.bytecode, gasLimit: 1_000_000n }));
    expect(res.code, res.log).to.equal(0);
    spin = hexAddress(generateAddress(alice.addr, bigIntToBytes(0n)));
  });

  after(async () => {
    await chain?.close();
  });

  it('aborts an endless call at the time limit without starving the event loop', async () => {
    const r = await ticksDuring(() => chain.call({ to: spin, data: calldata('spin()'), gas: ENDLESS }));
    expect(String(r.error)).to.match(/DeadlineExceeded desc = execution aborted \(timeout = 1s\)/);
    expect(r.ms).to.be.at.least(990);
    // the call ran ~1 s; a starved loop would have let no 5 ms tick through
    expect(r.ticks).to.be.at.least(5);
    // the same limit for the whole gas estimation
    const est = await ticksDuring(() => chain.query('EstimateGas', { from: '', to: spin, data: calldata('spin()'), value: '', gas: ENDLESS, gas_price: '' }));
    expect(String(est.error)).to.match(/execution aborted \(timeout = 1s\)/);
    // the executor still works afterwards
    const x = await chain.call({ to: spin, data: calldata('x()') });
    expect(word(x.ret)).to.equal(1n);
  });

  it('keeps seeing the state of its height while a block commits during the call', async () => {
    // a loop long enough to yield several times (well under the limit)
    const call = chain.call({ to: spin, data: calldata('spinThenRead(uint256)', 20_000n), gas: 25_000_000n });
    let settled = false;
    void call.then(() => { settled = true; }, () => { settled = true; });
    const res = await chain.deliver(chain.ethTx(alice, { to: spin, data: calldata('set(uint256)', 2n), gasLimit: 100_000n }));
    expect(res.code, res.log).to.equal(0);
    expect(settled, 'the call finished before the block: it did not yield').to.equal(false);
    const r = await call;
    expect(r.vm_error).to.equal('');
    expect(word(r.ret)).to.equal(1n); // x as of the call's height, not the 2 committed meanwhile
    expect(word((await chain.call({ to: spin, data: calldata('x()') })).ret)).to.equal(2n);
    expect(chain.store.openViews).to.equal(0);
  });

  it('a simulated tx (the tx service Simulate) has the same budget: an endless one is aborted, the loop goes on', async () => {
    const tx = chain.ethTx(alice, { to: spin, data: calldata('spin()'), gasLimit: ENDLESS / 10n });
    const r = await ticksDuring(() => chain.app.simulate(tx));
    expect(r.error).to.equal(undefined);
    expect(r.value!.code).to.not.equal(0);
    expect(r.value!.log).to.match(/execution aborted \(timeout = 1s\)/);
    expect(r.ms).to.be.at.least(990);
    expect(r.ticks).to.be.at.least(5);
    // a finite simulated tx still runs to its end and nothing of it is kept
    const ok = await chain.app.simulate(chain.ethTx(alice, { to: spin, data: calldata('set(uint256)', 9n), gasLimit: 100_000n }));
    expect(ok.code, ok.log).to.equal(0);
    expect(word((await chain.call({ to: spin, data: calldata('x()') })).ret)).to.not.equal(9n);
  });

  it('transactions are not budgeted: a tx longer than the query limit runs to its end', async () => {
    // a chain whose queries may run 200 ms: the tx below takes ~1 s here, well past it whatever the machine
    const short = await EvmTestChain.create({ queryTimeoutMs: 200 });
    try {
      const deployed = await short.deliver(short.ethTx(alice, { data: contracts().Spin.bytecode, gasLimit: 1_000_000n }));
      expect(deployed.code, deployed.log).to.equal(0);
      const start = performance.now();
      const res = await short.deliver(short.ethTx(alice, { to: spin, data: calldata('spinThenRead(uint256)', 200_000n), gasLimit: 25_000_000n }));
      expect(res.code, res.log).to.equal(0);
      expect(performance.now() - start, 'the tx must outlast the 200 ms query limit to prove anything').to.be.above(200);
    } finally {
      await short.close();
    }
  });
});
