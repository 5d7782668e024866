/**
 * e2e: the `debug` namespace (debug_traceTransaction / traceBlockByNumber / traceBlockByHash / traceCall
 * with the struct logger and callTracer) and state overrides on eth_call / eth_estimateGas, against a real
 * `chaind dev` process. Traces are checked against the receipts; a traced block holds a Cosmos bank send
 * before the EVM txs that depend on it (the replay must re-apply it).
 */
import { expect } from 'chai';
import { toBase64 } from '@cosmjs/encoding';
import { Contract, ContractFactory, Interface, JsonRpcProvider, Wallet, getAddress } from 'ethers';
import { toBech32 } from '@chain/crypto';
import { startNode, freePort } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { postJson, signedSend } from '../src/clients.js';
import { compileSolidity, compileToken } from '../src/solidity.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const PROBE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Probe {
  event Seen(address who, uint256 balance);
  /** reads (and logs) an account's balance */
  function bal(address a) external returns (uint256) { emit Seen(a, a.balance); return a.balance; }
  function spin(uint256 n) external pure returns (uint256 s) { for (uint256 i; i < n; i++) s += i; }
}`;

describe('e2e: debug_trace* and state overrides', function () {
  this.timeout(300_000);
  let node: NodeHandle;
  let url: string;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let token: Contract;
  let tokenAddr: string;
  let probeAddr: string;
  const probeIface = new Interface(compileSolidity(PROBE_SOURCE).Probe!.abi);
  const tokenIface = new Interface(compileToken().abi);
  const other = Wallet.createRandom().address;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(url, { jsonrpc: '2.0', id: ++id, method, params })).body;
  const ok = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await rpc(method, params);
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };

  /** A signed EIP-1559 tx from the wallet with an explicit nonce and gas limit (no estimation round trip). */
  async function signed(to: string, data: string, nonce: number, gasLimit = 300_000n): Promise<string> {
    const price = BigInt(await ok('eth_gasPrice'));
    return wallet.signTransaction({ type: 2, chainId: 1337n, to, data, nonce, gasLimit, maxFeePerGas: price * 2n, maxPriorityFeePerGas: price });
  }

  async function waitReceipt(hash: string): Promise<any> {
    for (let i = 0; i < 300; i++) {
      const r = await ok('eth_getTransactionReceipt', [hash]);
      if (r) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`no receipt for ${hash}`);
  }

  before(async () => {
    const [p, w] = [await freePort(), await freePort()];
    node = await startNode({
      timeoutCommit: '1s',
      extraArgs: ['--json-rpc.enable', '--json-rpc.address', `127.0.0.1:${p}`, '--json-rpc.ws-address', `127.0.0.1:${w}`, '--evm.rpc.api', 'eth,net,web3,debug'],
    });
    url = `http://127.0.0.1:${p}`;
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    wallet = new Wallet(KEY0, provider);
    const t = compileToken();
    token = (await new ContractFactory(t.abi, t.bytecode, wallet).deploy(1_000_000n)) as Contract;
    await token.waitForDeployment();
    tokenAddr = (await token.getAddress()).toLowerCase();
    const pr = compileSolidity(PROBE_SOURCE).Probe!;
    const probe = await new ContractFactory(pr.abi, pr.bytecode, wallet).deploy();
    await probe.waitForDeployment();
    probeAddr = (await probe.getAddress()).toLowerCase();
  });
  after(async () => { provider?.destroy(); await node?.stop(); node?.cleanup(); });

  it('traces an ERC-20 transfer with the struct logger and the callTracer, in agreement with the receipt', async () => {
    const tx = await token.getFunction('transfer')(other, 1234n);
    const rc = await waitReceipt(tx.hash);
    const s = await ok('debug_traceTransaction', [tx.hash]);
    expect(Object.keys(s).sort()).to.deep.equal(['failed', 'gas', 'returnValue', 'structLogs']);
    expect(s.gas).to.equal(Number(rc.gasUsed));
    expect(s.failed).to.equal(false);
    expect(s.returnValue).to.equal('0x' + '00'.repeat(31) + '01');
    const logs = s.structLogs as any[];
    expect(logs[0]).to.deep.equal({ pc: 0, op: 'PUSH1', gas: logs[0].gas, gasCost: 3, depth: 1, stack: [] });
    expect(logs.every((l) => typeof l.pc === 'number' && typeof l.gas === 'number' && typeof l.gasCost === 'number' && l.depth === 1)).to.equal(true);
    expect(logs.every((l) => l.stack.every((v: string) => /^0x[0-9a-f]+$/.test(v)))).to.equal(true);
    expect(logs.find((l) => l.op === 'SSTORE').storage).to.be.an('object');
    expect(logs[logs.length - 1].op).to.equal('RETURN');
    const c = await ok('debug_traceTransaction', [tx.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(c).to.include({ type: 'CALL', from: wallet.address.toLowerCase(), to: tokenAddr, value: '0x0', gasUsed: rc.gasUsed });
    expect(BigInt(c.gas)).to.equal((await provider.getTransaction(tx.hash))!.gasLimit);
    expect(c.input).to.equal(tokenIface.encodeFunctionData('transfer', [other, 1234n]));
    expect(c.output).to.equal(s.returnValue);
    expect(c.logs).to.have.length(1);
    expect(c.logs[0]).to.include({ address: tokenAddr, data: '0x' + (1234n).toString(16).padStart(64, '0'), position: '0x0' });
    expect(c.logs[0].topics[0]).to.equal(rc.logs[0].topics[0]);
    const top = await ok('debug_traceTransaction', [tx.hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }]);
    expect(top.calls).to.equal(undefined);
    const limited = await ok('debug_traceTransaction', [tx.hash, { limit: 5, disableStack: true, enableMemory: true }]);
    expect(limited.structLogs).to.have.length(5);
    expect(limited.structLogs.every((l: any) => l.stack === undefined)).to.equal(true);
    expect(limited.structLogs[3].memory).to.deep.equal(['0'.repeat(64), '0'.repeat(64), '0'.repeat(62) + '80']);
  });

  it('traces a failed (reverted) tx: failed, revert data and reason, gas as in the receipt', async () => {
    const nonce = await provider.getTransactionCount(wallet.address, 'pending');
    const raw = await signed(tokenAddr, tokenIface.encodeFunctionData('transfer', [other, 10n ** 30n]), nonce, 100_000n);
    const hash = await ok('eth_sendRawTransaction', [raw]);
    const rc = await waitReceipt(hash);
    expect(rc.status).to.equal('0x0');
    const s = await ok('debug_traceTransaction', [hash]);
    expect(s.failed).to.equal(true);
    expect(s.gas).to.equal(Number(rc.gasUsed));
    expect(s.returnValue.startsWith('0x08c379a0')).to.equal(true);
    const c = await ok('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(c).to.include({ error: 'execution reverted', revertReason: 'insufficient balance', gasUsed: rc.gasUsed, gas: '0x186a0' });
  });

  it('traces a block with a Cosmos bank send before the EVM txs that read its effect (by number and by hash)', async () => {
    const fresh = Wallet.createRandom().address;
    const bech = toBech32('chain', Buffer.from(fresh.slice(2), 'hex'));
    let blockNumber = '';
    let hashes: string[] = [];
    for (let attempt = 0; attempt < 3 && !blockNumber; attempt++) {
      const nonce = await provider.getTransactionCount(wallet.address, 'pending');
      const raws = [
        await signed(probeAddr, probeIface.encodeFunctionData('bal', [fresh]), nonce),
        await signed(tokenAddr, tokenIface.encodeFunctionData('transfer', [fresh, 5n]), nonce + 1),
      ];
      const cosmos = await signedSend(node.restUrl, 1, bech, String(777 + attempt));
      // right after a block: all three land in the next one, the Cosmos tx first
      const h0 = await ok('eth_blockNumber');
      while ((await ok('eth_blockNumber')) === h0) await new Promise((r) => setTimeout(r, 20));
      const sent = (await postJson(node.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: { tx: toBase64(cosmos) } })).body;
      expect(sent.result.code, sent.result.log).to.equal(0);
      hashes = [];
      for (const raw of raws) hashes.push(await ok('eth_sendRawTransaction', [raw]));
      const rcs = await Promise.all(hashes.map(waitReceipt));
      const cosmosTx = await ok('eth_getBlockByNumber', [rcs[0].blockNumber, false]);
      if (rcs[0].blockNumber === rcs[1].blockNumber && cosmosTx) {
        const block = (await postJson(node.rpcUrl, { jsonrpc: '2.0', id: 2, method: 'block', params: { height: String(Number(rcs[0].blockNumber)) } })).body;
        if (block.result.block.data.txs.length === 3) blockNumber = rcs[0].blockNumber;
      }
    }
    expect(blockNumber, 'the three txs did not land in one block').to.not.equal('');
    const amount = BigInt(await provider.getBalance(fresh));
    const traced = await ok('debug_traceBlockByNumber', [blockNumber]);
    expect(traced.map((t: any) => t.txHash)).to.deep.equal(hashes);
    // the probe saw the balance the Cosmos send (earlier in the same block) gave the fresh account
    expect(BigInt(traced[0].result.returnValue)).to.equal(amount);
    expect(amount > 0n).to.equal(true);
    const rcs = await Promise.all(hashes.map(waitReceipt));
    traced.forEach((t: any, i: number) => { expect(t.result.gas).to.equal(Number(rcs[i].gasUsed)); expect(t.result.failed).to.equal(false); });
    const blockHash = rcs[0].blockHash;
    const byHash = await ok('debug_traceBlockByHash', [blockHash, { tracer: 'callTracer' }]);
    expect(byHash.map((t: any) => t.txHash)).to.deep.equal(hashes);
    expect(byHash[0].result).to.include({ to: probeAddr, output: '0x' + amount.toString(16).padStart(64, '0') });
    expect(byHash[1].result).to.include({ to: tokenAddr, gasUsed: rcs[1].gasUsed });
    // the single-tx trace of the second tx equals its entry in the block trace
    expect(await ok('debug_traceTransaction', [hashes[1], { tracer: 'callTracer' }])).to.deep.equal(byHash[1].result);
    // a block without EVM txs traces to []
    let empty = Number(blockNumber) + 1;
    for (;;) {
      const b = await ok('eth_getBlockByNumber', ['0x' + empty.toString(16), false]);
      if (b && b.transactions.length === 0) break;
      if (b) empty++;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(await ok('debug_traceBlockByNumber', ['0x' + empty.toString(16)])).to.deep.equal([]);
  });

  it('debug_traceCall with state overrides and both tracers', async () => {
    const who = Wallet.createRandom().address;
    const call = { from: wallet.address, to: probeAddr, data: probeIface.encodeFunctionData('bal', [who]) };
    const c = await ok('debug_traceCall', [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true }, stateOverrides: { [who]: { balance: '0x2a' } } }]);
    expect(c).to.include({ type: 'CALL', to: probeAddr, output: '0x' + '2a'.padStart(64, '0') });
    expect(c.logs).to.have.length(1);
    const s = await ok('debug_traceCall', [call, 'latest']);
    expect(BigInt(s.returnValue)).to.equal(0n);
    expect(s.structLogs.some((l: any) => l.op === 'BALANCE')).to.equal(true);
    // code override: the probe replaced by code returning CALLER's balance
    const code = await ok('debug_traceCall', [{ from: wallet.address, to: probeAddr }, 'latest', { stateOverrides: { [probeAddr]: { code: '0x333160005260206000f3' } } }]);
    expect(code.structLogs.map((l: any) => l.op)).to.deep.equal(['CALLER', 'BALANCE', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN']);
    expect(BigInt(code.returnValue)).to.equal(await provider.getBalance(wallet.address));
    expect(await ok('eth_getCode', [probeAddr])).to.not.equal('0x333160005260206000f3');
  });

  it('eth_call and eth_estimateGas with balance, code and state overrides', async () => {
    const who = Wallet.createRandom().address;
    const bal = { to: probeAddr, data: probeIface.encodeFunctionData('bal', [who]) };
    expect(BigInt(await ok('eth_call', [bal, 'latest', { [who]: { balance: '0x1234' } }]))).to.equal(0x1234n);
    expect(BigInt(await ok('eth_call', [bal, 'latest']))).to.equal(0n);
    const empty = '0x00000000000000000000000000000000000c0de5';
    expect(await ok('eth_call', [{ from: wallet.address, to: empty }, 'latest', { [empty]: { code: '0x333160005260206000f3' } }]))
      .to.equal('0x' + (await provider.getBalance(wallet.address)).toString(16).padStart(64, '0'));
    // balanceOf[other] is at keccak256(pad(other) . pad(0)); totalSupply at slot 1
    const balanceOf = { to: tokenAddr, data: tokenIface.encodeFunctionData('balanceOf', [other]) };
    const slot = (await import('ethers')).keccak256('0x' + other.slice(2).toLowerCase().padStart(64, '0') + '0'.repeat(64));
    expect(BigInt(await ok('eth_call', [balanceOf, 'latest', { [tokenAddr]: { stateDiff: { [slot]: '0x' + 'ff'.padStart(64, '0') } } }]))).to.equal(255n);
    const supply = { to: tokenAddr, data: tokenIface.encodeFunctionData('totalSupply') };
    expect(BigInt(await ok('eth_call', [supply, 'latest', { [tokenAddr]: { stateDiff: { [slot]: '0x01' } } }]))).to.equal(1_000_000n);
    expect(BigInt(await ok('eth_call', [supply, 'latest', { [tokenAddr]: { state: { [slot]: '0x01' } } }]))).to.equal(0n);
    expect(BigInt(await ok('eth_call', [balanceOf, 'latest'])) > 0n).to.equal(true);
    // a value transfer from an empty account: estimable only with a balance override
    const pay = { from: who, to: other, value: '0x3e8' };
    expect((await rpc('eth_estimateGas', [pay, 'latest'])).error.message).to.match(/insufficient/);
    expect(await ok('eth_estimateGas', [pay, 'latest', { [who]: { balance: '0xffffffffffff' } }])).to.equal('0x5208');
  });

  it('answers bad input with clear JSON-RPC errors and keeps serving', async () => {
    const err = async (method: string, params: unknown[]): Promise<{ code: number; message: string }> => {
      const r = await rpc(method, params);
      expect(r.error, `${method} ${JSON.stringify(params)} → ${JSON.stringify(r.result)?.slice(0, 100)}`).to.be.an('object');
      return r.error;
    };
    const someTx = (await token.getFunction('transfer')(other, 1n)).hash as string;
    await waitReceipt(someTx);
    expect(await err('debug_traceTransaction', ['0x' + '11'.repeat(32)])).to.deep.equal({ code: -32000, message: 'transaction not found' });
    expect((await err('debug_traceTransaction', ['0x1234'])).code).to.equal(-32602);
    expect(await err('debug_traceTransaction', [someTx, { tracer: 'nope' }])).to.include({ code: -32000 });
    expect((await err('debug_traceTransaction', [someTx, { tracer: 'nope' }])).message).to.match(/^tracer not found/);
    expect((await err('debug_traceTransaction', [someTx, { timeout: 'soon' }])).message).to.match(/invalid duration "soon"/);
    expect((await err('debug_traceTransaction', [someTx, { limit: -1 }])).code).to.equal(-32602);
    expect((await err('debug_traceTransaction', [someTx, 5])).code).to.equal(-32602);
    expect((await err('debug_traceTransaction', [someTx, { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } }])).code).to.equal(-32602);
    expect(await err('debug_traceBlockByNumber', ['0x0'])).to.deep.equal({ code: -32000, message: 'genesis is not traceable' });
    expect(await err('debug_traceBlockByNumber', ['earliest'])).to.deep.equal({ code: -32000, message: 'genesis is not traceable' });
    expect((await err('debug_traceBlockByNumber', ['0xffffff'])).message).to.match(/not found/);
    expect((await err('debug_traceBlockByHash', ['0x' + '22'.repeat(32)])).message).to.match(/not found/);
    expect((await err('debug_traceBlockByHash', ['0x1234'])).code).to.equal(-32602);
    expect((await err('debug_traceCall', [{ to: probeAddr }, 'latest', { blockOverrides: { number: '0x1' } }])).code).to.equal(-32602);
    expect((await err('debug_traceCall', [{ to: 'nope' }, 'latest'])).code).to.equal(-32602);
    expect(await err('eth_call', [{ to: probeAddr }, 'latest', { [probeAddr]: { state: {}, stateDiff: {} } }]))
      .to.deep.equal({ code: -32000, message: `account ${getAddress(probeAddr)} has both 'state' and 'stateDiff'` });
    expect((await err('eth_call', [{ to: probeAddr }, 'latest', { nope: {} }])).code).to.equal(-32602);
    expect((await err('eth_estimateGas', [{ to: probeAddr }, 'latest', { [probeAddr]: { balance: 'lots' } }])).code).to.equal(-32602);
    expect((await err('debug_traceCall', [{ to: probeAddr }, 'latest', { stateOverrides: { [probeAddr]: { nonce: 'x' } } }])).code).to.equal(-32602);
    // eth_getProof's bad input (its proofs are checked in eth-spec.test.ts)
    expect((await err('eth_getProof', [probeAddr, 'nope', 'latest'])).code).to.equal(-32602);
    expect(await err('eth_getProof', [probeAddr, ['0xzz'], 'latest'])).to.deep.equal({ code: -32000, message: 'unable to decode storage key: hex string invalid' });
    expect(await err('eth_getProof', [probeAddr, [], '0x1'])).to.deep.equal({ code: -32000, message: 'cannot query with proof when height <= 1; please provide a valid height: invalid request' });
    // the time limit: a long loop traced with 1 ms
    const nonce = await provider.getTransactionCount(wallet.address, 'pending');
    const loop = await ok('eth_sendRawTransaction', [await signed(probeAddr, probeIface.encodeFunctionData('spin', [30_000n]), nonce, 5_000_000n)]);
    expect((await waitReceipt(loop)).status).to.equal('0x1');
    expect(await err('debug_traceTransaction', [loop, { timeout: '1ms' }])).to.deep.equal({ code: -32000, message: 'execution timeout' });
    expect(await err('debug_traceCall', [{ to: probeAddr, data: probeIface.encodeFunctionData('spin', [30_000n]) }, 'latest', { timeout: '1ms', tracer: 'callTracer' }]))
      .to.deep.equal({ code: -32000, message: 'execution timeout' });
    const full = await ok('debug_traceTransaction', [loop, { tracer: 'callTracer', timeout: '30s' }]);
    expect(full.gasUsed).to.equal((await waitReceipt(loop)).gasUsed);
    // still serving, still producing blocks
    const h = Number(await ok('eth_blockNumber'));
    for (let i = 0; i < 50 && Number(await ok('eth_blockNumber')) === h; i++) await new Promise((r) => setTimeout(r, 100));
    expect(Number(await ok('eth_blockNumber'))).to.be.greaterThan(h);
  });
});
