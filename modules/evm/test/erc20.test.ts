/** A Solidity ERC-20 compiled with solc (prague): deploy, transfer, eth_call, logs, reverts, gas estimation. */
import { expect } from 'chai';
import { FEE_COLLECTOR } from '@chain/auth';
import { keccak256 } from '@chain/crypto';
import { bigIntToBytes, bytesToHex, generateAddress, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { addToBloom, hexAddress, revertReason } from '../src/index.js';
import type { TxLogJSON } from '../src/index.js';
import { EvmTestChain, GWEI, attrValues, ethKey, eventsOf } from './helpers.js';
import { calldata, concat, contracts, encodeArgs, word } from './contracts.js';

const TRANSFER_TOPIC = bytesToHex(keccak256(new TextEncoder().encode('Transfer(address,address,uint256)')));
const topicOf = (addr: Uint8Array): string => bytesToHex(setLengthLeft(addr, 32));

describe('evm ERC-20 contract', () => {
  let chain: EvmTestChain;
  let token: Uint8Array;
  let tokenHex: string;
  const alice = ethKey(0);
  const bob = ethKey(1);
  const SUPPLY = 1_000_000n;

  const balanceOf = async (who: Uint8Array): Promise<bigint> => {
    const r = await chain.call({ to: tokenHex, data: calldata('balanceOf(address)', who) });
    expect(r.vm_error).to.equal('');
    return word(r.ret);
  };

  beforeEach(async () => {
    chain = await EvmTestChain.create();
    const { Token } = contracts();
    const res = await chain.deliver(chain.ethTx(alice, { data: concat(Token.bytecode, encodeArgs(SUPPLY)), gasLimit: 1_500_000n }));
    expect(res.code, res.log).to.equal(0);
    token = generateAddress(alice.addr, bigIntToBytes(0n));
    tokenHex = hexAddress(token);
    const [etx] = eventsOf(res.events, 'ethereum_tx');
    expect(etx!.contractAddress).to.equal(tokenHex);
    expect(etx!.recipient).to.equal(undefined);
    expect(eventsOf(res.events, 'ethereum')[0]!.recipient).to.equal(tokenHex);
    expect(etx!.ethereumTxFailed).to.equal(undefined);
  });
  afterEach(async () => { await chain.close(); });

  it('deploys: code in the evm store, nonce 1 for the contract, supply with the deployer', async () => {
    const code = await chain.query<{ code: Uint8Array }>('Code', { address: tokenHex });
    expect(code.code.length).to.be.greaterThan(100);
    const acc = await chain.query<{ nonce: bigint; code_hash: string }>('Account', { address: tokenHex });
    expect(acc.nonce).to.equal(1n);
    expect(acc.code_hash).to.equal(bytesToHex(keccak256(code.code)));
    expect(await balanceOf(alice.addr)).to.equal(SUPPLY);
    // totalSupply is slot 1
    const slot1 = await chain.query<{ value: string }>('Storage', { address: tokenHex, key: '0x01' });
    expect(BigInt(slot1.value)).to.equal(SUPPLY);
    expect(chain.nonce(alice.addr)).to.equal(1n);
  });

  it('transfers tokens; balanceOf through eth_call; the Transfer log in tx_log and the response', async () => {
    const blk = await chain.block([chain.ethTx(alice, { to: token, data: calldata('transfer(address,uint256)', bob.addr, 250n) })]);
    const res = blk.txResults[0]!;
    expect(res.code, res.log).to.equal(0);
    expect(await balanceOf(bob.addr)).to.equal(250n);
    expect(await balanceOf(alice.addr)).to.equal(SUPPLY - 250n);

    const logs = attrValues(res.events, 'tx_log', 'txLog').map((s) => JSON.parse(s) as TxLogJSON);
    expect(logs).to.have.length(1);
    const [etx] = eventsOf(res.events, 'ethereum_tx');
    expect(logs[0]).to.deep.equal({
      address: tokenHex,
      topics: [TRANSFER_TOPIC, topicOf(alice.addr), topicOf(bob.addr)],
      data: bytesToHex(encodeArgs(250n)),
      blockNumber: chain.app.lastHeight,
      transactionHash: etx!.ethereumTxHash,
      transactionIndex: 0,
      logIndex: 0,
      removed: false,
    });
    // the msg response carries the same logs and the return value (true)
    const data = chain.registry.decode<{ msg_responses: { type_url: string; value: Uint8Array }[] }>('chain.base.abci.v1beta1.TxMsgData', res.data);
    const resp = chain.registry.decode<{ logs: { topics: string[] }[]; ret: Uint8Array; vm_error: string; gas_used: bigint }>('chain.evm.v1.MsgEthereumTxResponse', data.msg_responses[0]!.value);
    expect(resp.vm_error).to.equal('');
    expect(word(resp.ret)).to.equal(1n);
    expect(resp.logs[0]!.topics[0]).to.equal(TRANSFER_TOPIC);
    expect(resp.gas_used).to.equal(BigInt(res.gasUsed));
    // the block's logs bloom covers the log's address and topics; an empty block has an empty bloom
    const bloom = new Uint8Array(256);
    addToBloom(bloom, token);
    for (const t of [TRANSFER_TOPIC, topicOf(alice.addr), topicOf(bob.addr)]) addToBloom(bloom, hexToBytes(t as `0x${string}`));
    expect(attrValues(blk.events, 'block_bloom', 'bloom')).to.deep.equal([bytesToHex(bloom)]);
    expect(attrValues((await chain.block([])).events, 'block_bloom', 'bloom')[0]).to.match(/^0x0+$/);
  });

  it('includes a reverting call with its gas charged, its state rolled back and the revert reason available', async () => {
    const feeCollector = chain.ak.getModuleAddress(FEE_COLLECTOR);
    const before = chain.balance(bob.addr);
    const collectorBefore = chain.balance(feeCollector);
    const baseFee = chain.baseFee();
    // bob has no tokens: transfer requires a balance; also sends 1 wei to a non-payable function
    const res = await chain.deliver(chain.ethTx(bob, {
      to: token, value: 0n, data: calldata('transfer(address,uint256)', alice.addr, 1n), gasLimit: 200_000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 0n,
    }));
    expect(res.code, res.log).to.equal(0);
    const [etx] = eventsOf(res.events, 'ethereum_tx');
    expect(etx!.ethereumTxFailed).to.equal('execution reverted: insufficient balance');
    expect(eventsOf(res.events, 'tx_log')).to.have.length(0);
    const gasUsed = BigInt(res.gasUsed);
    expect(res.gasUsed).to.be.greaterThan(21000).and.lessThan(200_000);
    expect(etx!.txGasUsed).to.equal(gasUsed.toString());
    expect(chain.balance(bob.addr)).to.equal(before - gasUsed * baseFee);
    expect(chain.balance(feeCollector)).to.equal(collectorBefore + gasUsed * baseFee);
    expect(chain.nonce(bob.addr)).to.equal(1n);
    expect(await balanceOf(alice.addr)).to.equal(SUPPLY);

    const data = chain.registry.decode<{ msg_responses: { value: Uint8Array }[] }>('chain.base.abci.v1beta1.TxMsgData', res.data);
    const resp = chain.registry.decode<{ ret: Uint8Array; vm_error: string }>('chain.evm.v1.MsgEthereumTxResponse', data.msg_responses[0]!.value);
    expect(revertReason(resp.ret)).to.equal('insufficient balance');
    expect(resp.vm_error).to.equal('execution reverted: insufficient balance');

    // value sent to a non-payable function: rolled back with the rest
    const valueRes = await chain.deliver(chain.ethTx(bob, { to: token, value: 1000n, data: calldata('totalSupply()'), gasLimit: 100_000n }));
    expect(attrValues(valueRes.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal(['execution reverted']);
    expect((await chain.query<{ balance: string }>('Balance', { address: tokenHex })).balance).to.equal('0');
  });

  it('reports reverts through eth_call and estimates gas', async () => {
    const fail = await chain.call({ from: bob.hex, to: tokenHex, data: calldata('transfer(address,uint256)', alice.addr, 1n) });
    expect(fail.vm_error).to.equal('execution reverted: insufficient balance');
    expect(revertReason(fail.ret)).to.equal('insufficient balance');

    const transfer = calldata('transfer(address,uint256)', bob.addr, 10n);
    const est = await chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', { from: alice.hex, to: tokenHex, data: transfer, value: '', gas: 0n, gas_price: '' });
    expect(est.vm_error).to.equal('');
    // one gas less than the estimate fails (out of gas, state unchanged), the estimate succeeds
    const low = await chain.deliver(chain.ethTx(alice, { to: token, data: transfer, gasLimit: est.gas - 1n }));
    expect(attrValues(low.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal(['out of gas']);
    expect(low.gasUsed).to.equal(Number(est.gas - 1n));
    const ok = await chain.deliver(chain.ethTx(alice, { to: token, data: transfer, gasLimit: est.gas }));
    expect(attrValues(ok.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    expect(await balanceOf(bob.addr)).to.equal(10n);

    const estFail = await chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', { from: ethKey(2).hex, to: tokenHex, data: calldata('transfer(address,uint256)', alice.addr, 1n), value: '', gas: 0n, gas_price: '' });
    expect(estFail.gas).to.equal(0n);
    expect(estFail.vm_error).to.equal('execution reverted: insufficient balance');
    const estSend = await chain.query<{ gas: bigint }>('EstimateGas', { from: alice.hex, to: bob.hex, data: new Uint8Array(), value: '1', gas: 0n, gas_price: '' });
    expect(estSend.gas).to.equal(21000n);
  });
});
