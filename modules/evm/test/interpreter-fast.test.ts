/**
 * The interpreter's fast paths (src/interpreter-fast.ts) against ethereumjs's own code: the same scripted txs on two
 * chains, one built with the fast paths off, must give the same results (codes, gas, return data, events and logs)
 * and the same app hash.
 */
import { expect } from 'chai';
import { bigIntToBytes, bytesToHex, generateAddress } from '@ethereumjs/util';
import { fastInterpreterAvailable, originalJumpAnalysis, originalRunStep, useFastInterpreter } from '../src/interpreter-fast.js';
import { EvmTestChain, ETHER, ethKey } from './helpers.js';
import { calldata, calldataBytes, concat, contracts, encodeArgs, word } from './contracts.js';

interface Outcome {
  results: string[];
  calls: string[];
  appHash: string;
}

async function script(fast: boolean): Promise<Outcome> {
  useFastInterpreter(fast);
  const chain = await EvmTestChain.create();
  try {
    const { Token, Parent, Spin } = contracts();
    const [alice, bob] = [ethKey(0), ethKey(1)];
    const results: string[] = [];
    const calls: string[] = [];
    const record = (r: { code: number; log: string; gasUsed: number; gasWanted: number; data: Uint8Array; events: unknown }): void => {
      results.push(JSON.stringify({ code: r.code, log: r.log, gasUsed: r.gasUsed, gasWanted: r.gasWanted, data: bytesToHex(r.data), events: r.events }));
    };
    record(await chain.deliver(chain.ethTx(alice, { data: concat(Token.bytecode, encodeArgs(1_000_000n)), gasLimit: 1_500_000n })));
    const token = generateAddress(alice.addr, bigIntToBytes(0n));
    record(await chain.deliver(chain.ethTx(alice, { data: Parent.bytecode, gasLimit: 2_000_000n })));
    const parent = generateAddress(alice.addr, bigIntToBytes(1n));
    record(await chain.deliver(chain.ethTx(alice, { data: Spin.bytecode, gasLimit: 1_000_000n })));
    const spin = generateAddress(alice.addr, bigIntToBytes(2n));
    // several transfers in one block (the jump analysis of the same code reused), one that reverts
    const nonce = chain.nonce(alice.addr);
    const blk = await chain.block([
      chain.ethTx(alice, { to: token, data: calldata('transfer(address,uint256)', bob.addr, 250n), nonce }),
      chain.ethTx(alice, { to: token, data: calldata('transfer(address,uint256)', bob.addr, 1n), nonce: nonce + 1n }),
      chain.ethTx(bob, { to: token, data: calldata('transfer(address,uint256)', alice.addr, 10n ** 9n) }),
      chain.ethTx(alice, { to: parent, data: calldata('run()') }),
      chain.ethTx(alice, { to: parent, data: calldata('runAndFail()'), nonce: nonce + 2n }),
      chain.ethTx(alice, { to: parent, data: calldataBytes('hashIt(bytes)', Uint8Array.of(0xab, 0xcd, 0xef)), nonce: nonce + 3n }),
      chain.ethTx(alice, { to: spin, data: calldata('set(uint256)', 2n ** 255n + 12345n), nonce: nonce + 4n }),
      // out of gas in a loop
      chain.ethTx(alice, { to: spin, data: calldata('spin()'), gasLimit: 60_000n, nonce: nonce + 5n }),
      chain.ethTx(alice, { to: parent, data: calldata('payAndKeep()'), value: ETHER, nonce: nonce + 6n }),
    ]);
    for (const r of blk.txResults) record(r);
    for (const [to, data] of [
      [token, calldata('balanceOf(address)', bob.addr)],
      [spin, calldata('spinThenRead(uint256)', 500n)],
      [spin, calldata('x()')],
    ] as const) {
      const r = await chain.call({ to: bytesToHex(to), data });
      calls.push(JSON.stringify({ ret: bytesToHex(r.ret), vm_error: r.vm_error, gas_used: r.gas_used.toString() }));
    }
    expect(word((await chain.call({ to: bytesToHex(token), data: calldata('balanceOf(address)', bob.addr) })).ret)).to.equal(251n);
    return { results, calls, appHash: bytesToHex(chain.app.lastAppHash) };
  } finally {
    await chain.close();
    useFastInterpreter(true);
  }
}

describe('evm interpreter fast paths', () => {
  it('replace methods that still exist in the pinned @ethereumjs/evm', () => {
    // (a version without them would run ethereumjs's own code, slower: this test is what notices)
    expect(fastInterpreterAvailable).to.equal(true);
    expect(originalRunStep).to.be.a('function');
    expect(originalJumpAnalysis).to.be.a('function');
  });

  it('give the same results, gas, events, calls and app hash as ethereumjs’s own interpreter', async () => {
    const stock = await script(false);
    const fast = await script(true);
    expect(fast.results).to.have.length(12);
    for (let i = 0; i < stock.results.length; i++) expect(fast.results[i], `tx ${i}`).to.equal(stock.results[i]);
    expect(fast.calls).to.deep.equal(stock.calls);
    expect(fast.appHash).to.equal(stock.appHash);
    // the script reaches the paths it means to: a revert, an out-of-gas and successes
    const codes = fast.results.map((r) => (JSON.parse(r) as { code: number }).code);
    expect(codes.filter((c) => c === 0).length).to.be.greaterThan(6);
    expect(codes.filter((c) => c !== 0).length).to.be.greaterThan(0);
  });
});
