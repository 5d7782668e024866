/** Value transfers: one account space, nonce = sequence, fees and refunds, tx types, events and hashes. */
import { expect } from 'chai';
import { FEE_COLLECTOR } from '@chain/auth';
import { keccak256, sha256, toHex } from '@chain/crypto';
import { flattenEvents, parseQuery } from '@chain/events';
import { bytesToHex } from '@ethereumjs/util';
import { MSG_ETHEREUM_TX_URL, wrapEthereumTx } from '../src/index.js';
import { DENOM, ETH_CHAIN_ID, ETHER, EvmTestChain, GWEI, PREFIX, attrValues, ethKey, eventsOf, signEthTx } from './helpers.js';

describe('evm value transfers', () => {
  let chain: EvmTestChain;
  const alice = ethKey(0);
  const bob = ethKey(1);
  const fresh = ethKey(7);
  beforeEach(async () => { chain = await EvmTestChain.create(); });
  afterEach(async () => { await chain.close(); });

  it('moves bank balances, sets nonce = sequence and charges gasUsed × effective gas price (the rest refunded)', async () => {
    const feeCollector = chain.ak.getModuleAddress(FEE_COLLECTOR);
    const before = chain.balance(alice.addr);
    const collectorBefore = chain.balance(feeCollector);
    const baseFee = chain.baseFee();
    const tip = 1n * GWEI;
    const tx = chain.ethTx(alice, { to: fresh.addr, value: ETHER, gasLimit: 100_000n, maxFeePerGas: 5n * GWEI, maxPriorityFeePerGas: tip });
    expect((await chain.base.check(tx)).code).to.equal(0);
    const res = await chain.deliver(tx);
    expect(res.code, res.log).to.equal(0);
    expect(res.gasUsed).to.equal(21000);
    expect(res.gasWanted).to.equal(100000);
    const price = baseFee + tip;
    expect(chain.balance(fresh.addr)).to.equal(ETHER);
    expect(chain.balance(alice.addr)).to.equal(before - ETHER - 21000n * price);
    expect(chain.balance(feeCollector)).to.equal(collectorBefore + 21000n * price);
    expect(chain.nonce(alice.addr)).to.equal(1n);
    // the recipient got an auth account, like a bank send would create
    expect(chain.ak.getAccount(chain.ctx(), fresh.addr)).to.not.equal(undefined);
    // the refund is a bank transfer from the fee collector back to the sender
    const received = eventsOf(res.events, 'coin_received').filter((e) => e.receiver === alice.address);
    expect(received.map((e) => e.amount)).to.deep.equal([`${79000n * price}${DENOM}`]);
  });

  it('executes legacy (EIP-155) and EIP-2930 transactions', async () => {
    const r0 = await chain.deliver(chain.ethTx(alice, { type: 0, to: bob.addr, value: 5n, gasPrice: 3n * GWEI }));
    expect(r0.code, r0.log).to.equal(0);
    const r1 = await chain.deliver(chain.ethTx(alice, {
      type: 1, to: bob.addr, value: 6n, gasPrice: 3n * GWEI, gasLimit: 30_000n,
      accessList: [{ address: bytesToHex(bob.addr), storageKeys: [] }],
    }));
    expect(r1.code, r1.log).to.equal(0);
    expect(r1.gasUsed).to.equal(21000 + 2400);
    expect(chain.nonce(alice.addr)).to.equal(2n);
    expect(chain.balance(bob.addr)).to.equal(1000n * ETHER + 11n);
    expect(attrValues(r0.events, 'ethereum_tx', 'txType')).to.deep.equal(['0']);
    expect(attrValues(r1.events, 'ethereum_tx', 'txType')).to.deep.equal(['1']);
  });

  it('sees one account space: bech32 and 0x forms are the same 20 bytes', async () => {
    await chain.deliver(chain.ethTx(alice, { to: bob.hex, value: 123n }));
    const viaHex = await chain.query<{ balance: string }>('Balance', { address: bob.hex });
    const viaBech = await chain.query<{ balance: string }>('Balance', { address: bob.address });
    expect(viaHex.balance).to.equal(viaBech.balance);
    expect(BigInt(viaHex.balance)).to.equal(chain.bk.getBalance(chain.ctx(), bob.addr, DENOM));
    const acc = await chain.query<{ nonce: bigint; code_hash: string }>('Account', { address: alice.address.toString() });
    expect(acc.nonce).to.equal(1n);
    expect(acc.code_hash).to.equal(bytesToHex(keccak256(new Uint8Array())));
    // a Cosmos-side sequence bump is an Ethereum nonce bump
    const ctxAcc = chain.ak.getAccount(chain.ctx(), alice.addr)!;
    expect(ctxAcc.base.sequence).to.equal(1n);
  });

  it('emits message, ethereum_tx, ethereum events; ethereum.recipient is EIP-55 and matches a subscription query', async () => {
    const raw = signEthTx(alice, { nonce: 0n, to: bob.addr, value: 42n });
    const wrapped = wrapEthereumTx(chain.registry, raw, { chainId: ETH_CHAIN_ID, prefix: PREFIX });
    const res = await chain.deliver(wrapped.tx);
    expect(res.code, res.log).to.equal(0);
    const ethHash = bytesToHex(keccak256(raw));
    expect(bytesToHex(wrapped.ethHash)).to.equal(ethHash);

    const [message] = eventsOf(res.events, 'message').filter((e) => e.action !== undefined);
    expect(message).to.deep.include({ action: MSG_ETHEREUM_TX_URL, module: 'evm', sender: alice.address });
    const [etx] = eventsOf(res.events, 'ethereum_tx');
    expect(etx).to.deep.equal({
      amount: '42', ethereumTxHash: ethHash, txIndex: '0', txGasUsed: '21000', txHash: toHex(sha256(wrapped.tx)).toUpperCase(),
      txType: '2', sender: alice.hex, recipient: bob.hex,
    });
    expect(bob.hex).to.match(/[A-F]/).and.to.match(/[a-f]/);
    const [eth] = eventsOf(res.events, 'ethereum');
    expect(eth).to.deep.equal({ sender: alice.hex, recipient: bob.hex, ethereumTxHash: ethHash });

    const flat = flattenEvents(res.events, { 'tm.event': ['Tx'] });
    expect(parseQuery(`tm.event='Tx' AND ethereum.recipient='${bob.hex}'`).matches(flat)).to.equal(true);
    expect(parseQuery(`tm.event='Tx' AND ethereum_tx.ethereumTxHash='${ethHash}'`).matches(flat)).to.equal(true);
    expect(parseQuery(`tm.event='Tx' AND ethereum.recipient='${alice.hex}'`).matches(flat)).to.equal(false);
  });

  it('orders several txs of one sender in one block (consecutive nonces, txIndex, block gas)', async () => {
    const txs = [0n, 1n, 2n].map((nonce) => chain.wrap(signEthTx(alice, { nonce, to: bob.addr, value: 1n })));
    for (const tx of txs) expect((await chain.base.check(tx)).code).to.equal(0);
    const res = await chain.block(txs);
    expect(res.txResults.map((r) => r.code)).to.deep.equal([0, 0, 0]);
    expect(res.txResults.flatMap((r) => attrValues(r.events, 'ethereum_tx', 'txIndex'))).to.deep.equal(['0', '1', '2']);
    expect(chain.nonce(alice.addr)).to.equal(3n);
    const [blockGas] = eventsOf(res.events, 'block_gas');
    expect(blockGas).to.deep.include({ amount: '63000', mode: 'EndBlock' });
  });

  it('runs the wrapped tx in simulate with the same result', async () => {
    const sim = await chain.app.simulate(chain.ethTx(alice, { to: bob.addr, value: 1n }));
    expect(sim.code, sim.log).to.equal(0);
    expect(sim.gasUsed).to.equal(21000);
    expect(chain.nonce(alice.addr)).to.equal(0n);
  });
});
