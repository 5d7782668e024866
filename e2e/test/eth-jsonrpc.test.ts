import { expect } from 'chai';
import WebSocket from 'ws';
import { JsonRpcProvider, Wallet, ContractFactory, Contract, Interface, SigningKey, Transaction, parseEther } from 'ethers';
import { createPublicClient, http } from 'viem';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, toBech32 } from '@chain/crypto';
import { startTargetNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { getJson, postJson, DENOM } from '../src/clients.js';
import { compileSolidity, compileToken } from '../src/solidity.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

class WsClient {
  readonly messages: any[] = [];
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => { this.messages.push(JSON.parse(d.toString())); for (const w of this.waiters.splice(0)) w(); });
  }
  static async open(url: string): Promise<WsClient> {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
    return new WsClient(ws);
  }
  send(v: unknown): void { this.ws.send(JSON.stringify(v)); }
  async waitFor(pred: (m: any) => boolean, ms = 15_000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.messages.findIndex(pred);
      if (i >= 0) return this.messages.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error(`timeout; got ${JSON.stringify(this.messages).slice(0, 500)}`);
      await new Promise<void>((r) => { this.waiters.push(r); setTimeout(r, 100); });
    }
  }
  async call(id: string | number, method: string, params: unknown[] = []): Promise<any> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id);
  }
  close(): void { this.ws.close(); }
}

describe('e2e: Ethereum JSON-RPC (HTTP and websocket)', function () {
  this.timeout(180_000);
  let node: NodeHandle;
  let url: string;
  let wsUrl: string;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let token: Contract;
  let tokenAddr: string;
  const other = Wallet.createRandom().address;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(url, { jsonrpc: '2.0', id: ++id, method, params })).body;

  before(async () => {
    node = await startTargetNode({ extraArgs: ['--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3,txpool,debug'] });
    url = node.ethUrl;
    wsUrl = node.ethWsUrl;
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    wallet = new Wallet(KEY0, provider);
  });
  after(async () => { provider?.destroy(); await node?.stop(); node?.cleanup(); });

  it('serves chain id, versions, block number and balances (the same account as chain1... over REST)', async () => {
    expect((await rpc('eth_chainId')).result).to.equal('0x539');
    expect((await rpc('net_version')).result).to.equal('1337');
    expect((await rpc('net_listening')).result).to.equal(true);
    expect((await rpc('web3_clientVersion')).result).to.match(/^chaind\//);
    expect((await rpc('web3_sha3', ['0x68656c6c6f20776f726c64'])).result).to.equal('0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
    expect((await rpc('eth_syncing')).result).to.equal(false);
    expect((await rpc('eth_accounts')).result).to.deep.equal([]);
    expect(await provider.getBlockNumber()).to.be.greaterThan(0);
    const bal = await provider.getBalance(wallet.address);
    const bech = toBech32('chain', Buffer.from(wallet.address.slice(2), 'hex'));
    const rest = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${bech}/by_denom?denom=${DENOM}`);
    expect(BigInt(rest.body.balance.amount)).to.equal(bal);
    const viem = createPublicClient({ transport: http(url) });
    expect(await viem.getBlockNumber() > 0n).to.equal(true);
    expect(await viem.getBalance({ address: wallet.address as `0x${string}` })).to.equal(bal);
  });

  it('answers standard errors, batches and string ids', async () => {
    expect((await postJson(url, '{bad')).body.error.code).to.equal(-32700);
    expect((await postJson(url, { jsonrpc: '2.0', id: 'x', method: 'nope_nope' })).body).to.deep.include({ id: 'x' });
    expect((await postJson(url, { jsonrpc: '2.0', id: 'x', method: 'nope_nope' })).body.error.code).to.equal(-32601);
    expect((await postJson(url, { jsonrpc: '2.0', id: 1, method: 'personal_listAccounts' })).body.error.code).to.equal(-32601);
    expect((await postJson(url, { id: 1, method: 'eth_chainId' })).body.error.code).to.equal(-32600);
    expect((await rpc('eth_getBalance', ['0x1234'])).error.code).to.equal(-32602);
    const b = (await postJson(url, [{ jsonrpc: '2.0', id: 'a', method: 'eth_chainId' }, { jsonrpc: '2.0', id: 7, method: 'net_version' }])).body;
    expect(b).to.deep.equal([{ jsonrpc: '2.0', id: 'a', result: '0x539' }, { jsonrpc: '2.0', id: 7, result: '1337' }]);
  });

  it('sends value; the tx, receipt and block are consistent', async () => {
    const before = await provider.getBalance(other);
    const tx = await wallet.sendTransaction({ to: other, value: 12345n });
    const rc = (await tx.wait())!;
    expect(rc.status).to.equal(1);
    expect(await provider.getBalance(other)).to.equal(before + 12345n);
    const raw = (await rpc('eth_getTransactionReceipt', [tx.hash])).result;
    for (const k of ['gasUsed', 'cumulativeGasUsed', 'effectiveGasPrice', 'logsBloom', 'type', 'blockHash', 'transactionIndex']) expect(raw, k).to.have.property(k);
    expect(raw.gasUsed).to.equal('0x5208');
    const got = await provider.getTransaction(tx.hash);
    expect(got!.from).to.equal(wallet.address);
    expect(got!.blockNumber).to.equal(rc.blockNumber);
    const block = (await rpc('eth_getBlockByNumber', ['0x' + rc.blockNumber.toString(16), true])).result;
    expect(block.hash).to.equal(rc.blockHash);
    expect(block.transactions[0].hash).to.equal(tx.hash);
    expect((await rpc('eth_getBlockByHash', [rc.blockHash, false])).result.transactions).to.deep.equal([tx.hash]);
    expect((await rpc('eth_getBlockTransactionCountByHash', [rc.blockHash])).result).to.equal('0x1');
    expect((await rpc('eth_getTransactionByBlockHashAndIndex', [rc.blockHash, '0x0'])).result.hash).to.equal(tx.hash);
    expect((await rpc('eth_getBlockReceipts', [block.number])).result[0].transactionHash).to.equal(tx.hash);
    const parent = (await rpc('eth_getBlockByNumber', ['0x' + (rc.blockNumber - 1).toString(16), false])).result;
    expect(block.parentHash).to.equal(parent.hash);
    expect(await provider.getTransactionCount(wallet.address, 'latest')).to.equal(tx.nonce + 1);
  });

  it('deploys an ERC-20, transfers, reads it back, with receipts, logs and eth_getLogs', async () => {
    const { abi, bytecode } = compileToken();
    const c = await new ContractFactory(abi, bytecode, wallet).deploy(1_000_000n);
    await c.waitForDeployment();
    tokenAddr = await c.getAddress();
    token = new Contract(tokenAddr, abi, wallet);
    expect((await provider.getCode(tokenAddr)).length).to.be.greaterThan(10);
    const deployRc = (await provider.getTransactionReceipt(c.deploymentTransaction()!.hash))!;
    expect(deployRc.contractAddress).to.equal(tokenAddr);
    const t = await token.getFunction('transfer')(other, 250n);
    const rc = (await t.wait())!;
    expect(rc.logs).to.have.length(1);
    const parsed = new Interface(abi).parseLog(rc.logs[0]!)!;
    expect(parsed.name).to.equal('Transfer');
    expect(parsed.args[2]).to.equal(250n);
    expect(await token.getFunction('balanceOf')(other)).to.equal(250n);
    expect(BigInt(await provider.getStorage(tokenAddr, 1))).to.equal(1_000_000n); // totalSupply slot
    const logs = await provider.getLogs({ address: tokenAddr, fromBlock: 1, toBlock: 'latest' });
    expect(logs.map((l) => l.transactionHash)).to.include(t.hash);
    expect(logs).to.have.length(2);
    const topicFiltered = await provider.getLogs({ address: tokenAddr, fromBlock: 1, topics: [null, null, '0x' + other.slice(2).toLowerCase().padStart(64, '0')] });
    expect(topicFiltered).to.have.length(1);
    expect(topicFiltered[0]!.index).to.equal(rc.logs[0]!.index);
    expect((await rpc('eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x1' }])).error.code).to.equal(-32602);
  });

  it('a reverted call returns error code 3 with the revert data', async () => {
    const data = token.interface.encodeFunctionData('transfer', [wallet.address, 10n ** 30n]);
    const r = await rpc('eth_call', [{ from: other, to: tokenAddr, data }, 'latest']);
    expect(r.error.code).to.equal(3);
    expect(r.error.message).to.equal('execution reverted: insufficient balance');
    expect(r.error.data).to.match(/^0x08c379a0/);
    const e = await rpc('eth_estimateGas', [{ from: other, to: tokenAddr, data }]);
    expect(e.error.code).to.equal(3);
  });

  it('fees: gasPrice, maxPriorityFeePerGas, feeHistory', async () => {
    expect(BigInt((await rpc('eth_gasPrice')).result) >= 1_000_000_000n).to.equal(true);
    expect(BigInt((await rpc('eth_maxPriorityFeePerGas')).result) >= 1_000_000_000n).to.equal(true);
    const fh = (await rpc('eth_feeHistory', ['0x4', 'latest', [25, 75]])).result;
    expect(fh.baseFeePerGas).to.have.length(5);
    expect(fh.reward).to.have.length(4);
  });

  it('filters: block, pending tx and log filters; unknown ids', async () => {
    const bf = (await rpc('eth_newBlockFilter')).result;
    const pf = (await rpc('eth_newPendingTransactionFilter')).result;
    const lf = (await rpc('eth_newFilter', [{ address: tokenAddr, fromBlock: '0x1' }])).result;
    expect(bf).to.match(/^0x[0-9a-f]+$/);
    const t = await token.getFunction('transfer')(other, 1n);
    const pending = (await rpc('eth_getFilterChanges', [pf])).result;
    expect(pending).to.include(t.hash);
    const rc = await t.wait();
    await new Promise((r) => setTimeout(r, 300));
    const hashes = (await rpc('eth_getFilterChanges', [bf])).result;
    expect(hashes).to.include(rc.blockHash);
    const logs = (await rpc('eth_getFilterChanges', [lf])).result;
    expect(logs.map((l: any) => l.transactionHash)).to.deep.equal([t.hash]);
    expect((await rpc('eth_getFilterChanges', [lf])).result).to.deep.equal([]);
    expect((await rpc('eth_getFilterLogs', [lf])).result.length).to.be.greaterThan(0);
    expect((await rpc('eth_uninstallFilter', [lf])).result).to.equal(true);
    expect((await rpc('eth_uninstallFilter', [lf])).result).to.equal(false);
    expect((await rpc('eth_getFilterChanges', [lf])).error.message).to.contain('filter not found');
  });

  it('txpool reflects the mempool', async () => {
    const s = (await rpc('txpool_status')).result;
    expect(s).to.have.keys('pending', 'queued');
    expect((await rpc('txpool_content')).result).to.have.keys('pending', 'queued');
  });

  it('websocket: methods, batches, string ids, newHeads, logs, newPendingTransactions, syncing, unsubscribe', async () => {
    const ws = await WsClient.open(wsUrl);
    expect((await ws.call('s1', 'eth_chainId')).result).to.equal('0x539');
    ws.send([{ jsonrpc: '2.0', id: 'b1', method: 'net_version' }, { jsonrpc: '2.0', id: 'b2', method: 'eth_chainId' }]);
    const batch = await ws.waitFor((m) => Array.isArray(m));
    expect(batch.map((x: any) => x.id)).to.deep.equal(['b1', 'b2']);
    const heads = (await ws.call(1, 'eth_subscribe', ['newHeads'])).result;
    const logSub = (await ws.call(2, 'eth_subscribe', ['logs', { address: tokenAddr }])).result;
    const pend = (await ws.call(3, 'eth_subscribe', ['newPendingTransactions'])).result;
    const sync = (await ws.call(4, 'eth_subscribe', ['syncing'])).result;
    expect(heads).to.match(/^0x[0-9a-f]+$/);
    expect((await ws.waitFor((m) => m.params?.subscription === sync)).params.result).to.equal(false);
    const head = (await ws.waitFor((m) => m.method === 'eth_subscription' && m.params.subscription === heads)).params.result;
    const blk = (await rpc('eth_getBlockByNumber', [head.number, false])).result;
    expect(head.hash).to.equal(blk.hash);
    expect(head.stateRoot).to.equal(blk.stateRoot);
    const t = await token.getFunction('transfer')(other, 2n);
    expect((await ws.waitFor((m) => m.params?.subscription === pend)).params.result).to.equal(t.hash);
    const log = (await ws.waitFor((m) => m.params?.subscription === logSub)).params.result;
    expect(log.transactionHash).to.equal(t.hash);
    expect(log.address).to.equal(tokenAddr.toLowerCase());
    expect((await ws.call(5, 'eth_unsubscribe', [heads])).result).to.equal(true);
    expect((await ws.call(6, 'eth_unsubscribe', [heads])).result).to.equal(false);
    expect((await ws.call(7, 'eth_subscribe', ['nope'])).error.code).to.equal(-32602);
    ws.close();
    expect((await rpc('eth_subscribe', ['newHeads'])).error).to.exist;
  });

  it('rejects bad raw txs with the CheckTx message', async () => {
    const signed = await wallet.signTransaction({ to: other, value: 1n, nonce: 0, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, chainId: 1337n, type: 2 });
    const r = await rpc('eth_sendRawTransaction', [signed]);
    expect(r.error.message).to.match(/nonce too low/);
    const big = await wallet.signTransaction({ to: other, value: 1n, nonce: 100, gasLimit: 21000n, maxFeePerGas: parseEther('1'), maxPriorityFeePerGas: 1n, chainId: 1337n, type: 2 });
    expect((await rpc('eth_sendRawTransaction', [big])).error.message).to.match(/exceeds the configured cap/);
    // signed without a chain id (v = 27): refused over RPC, as Ethermint words it
    const unprotected = Transaction.from({ type: 0, to: other, value: 1n, nonce: 0, gasLimit: 21000n, gasPrice: 10n ** 10n });
    unprotected.signature = new SigningKey(wallet.privateKey).sign(unprotected.unsignedHash);
    expect(Transaction.from(unprotected.serialized).chainId).to.equal(0n);
    const u = await rpc('eth_sendRawTransaction', [unprotected.serialized]);
    expect(u.error).to.deep.equal({ code: -32000, message: 'only replay-protected (EIP-155) transactions allowed over RPC' });
  });

  it('one account\'s transfers pipelined over a websocket and in a batch, without waiting: all admitted in nonce order, all committed', async () => {
    const sender = new Wallet('0x' + Buffer.from(derivePrivateKey(DEV_MNEMONIC, hdPath(60, 3))).toString('hex'));
    let nonce = Number((await rpc('eth_getTransactionCount', [sender.address, 'pending'])).result);
    const sign = (): Promise<string> => sender.signTransaction({
      to: other, value: 1n, nonce: nonce++, gasLimit: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n, chainId: 1337n, type: 2,
    });
    const n = 20;
    // more than twice the 64 sends a connection runs at once: the ones past it wait for a place, in order
    const nWs = 150;
    const viaWs: string[] = [];
    for (let i = 0; i < nWs; i++) viaWs.push(await sign());
    const viaBatch: string[] = [];
    for (let i = 0; i < n; i++) viaBatch.push(await sign());
    const ws = await WsClient.open(wsUrl);
    try {
      // every frame written at once: the node recovers the senders together but must CheckTx them in frame order
      for (let i = 0; i < nWs; i++) ws.send({ jsonrpc: '2.0', id: `p${i}`, method: 'eth_sendRawTransaction', params: [viaWs[i]] });
      ws.send({ jsonrpc: '2.0', id: 'after', method: 'eth_chainId', params: [] });
      const after = await ws.waitFor((m) => m.id === 'after', 60_000);
      expect(after.result).to.equal('0x539');
      const answers = ws.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('p'));
      expect(answers.map((a) => a.id), 'answered in request order, before the request that followed them').to.deep.equal(viaWs.map((_, i) => `p${i}`));
      for (const a of answers) expect(a.result, JSON.stringify(a)).to.equal(Transaction.from(viaWs[Number(a.id.slice(1))]!).hash);
    } finally {
      ws.close();
    }
    const batch = await postJson(url, viaBatch.map((raw, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [raw] })));
    expect((batch.body as any[]).map((a) => a.result ?? a.error)).to.deep.equal(viaBatch.map((raw) => Transaction.from(raw).hash));
    // all of them commit (an out-of-order CheckTx would have refused a nonce)
    const last = Transaction.from(viaBatch[n - 1]!).hash;
    const deadline = Date.now() + 60_000;
    while ((await rpc('eth_getTransactionReceipt', [last])).result === null) {
      if (Date.now() > deadline) throw new Error('the last pipelined transfer was not committed');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(Number((await rpc('eth_getTransactionCount', [sender.address, 'latest'])).result)).to.equal(nonce);
  });

  it('BLOCKHASH (in a tx and through eth_call) is the hash eth_getBlockByNumber serves; the header is the CometBFT block\'s', async () => {
    const c = compileSolidity(`// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract BlockHashes {
  event Parent(uint256 number, bytes32 hash);
  function at(uint256 n) external view returns (bytes32) { return blockhash(n); }
  function record() external { emit Parent(block.number - 1, blockhash(block.number - 1)); }
}`).BlockHashes!;
    const deployed = await new ContractFactory(c.abi, c.bytecode, wallet).deploy();
    await deployed.waitForDeployment();
    const hashes = deployed as unknown as Contract;
    const rc = (await (await hashes.getFunction('record')()).wait(1, 60_000))!;
    const log = hashes.interface.parseLog(rc.logs[0]!)!;
    const parent = (await rpc('eth_getBlockByNumber', ['0x' + (rc.blockNumber - 1).toString(16), false])).result;
    expect(log.args[0]).to.equal(BigInt(rc.blockNumber - 1));
    expect(log.args[1]).to.equal(parent.hash);
    const block = (await rpc('eth_getBlockByNumber', ['0x' + rc.blockNumber.toString(16), false])).result;
    expect(block.parentHash).to.equal(parent.hash);
    while ((await provider.getBlockNumber()) <= rc.blockNumber) await new Promise((r) => setTimeout(r, 100));
    expect(await hashes.getFunction('at')(rc.blockNumber, { blockTag: rc.blockNumber + 1 })).to.equal(block.hash);
    // stateRoot: the app hash the block started from (its CometBFT app_hash); extraData: the CometBFT hash
    const cb = (await getJson(`${node.rpcUrl}/block?height=${rc.blockNumber}`)).body.result;
    expect(block.stateRoot).to.equal('0x' + cb.block.header.app_hash.toLowerCase());
    expect(block.extraData).to.equal('0x' + cb.block_id.hash.toLowerCase());
    expect(block.miner).to.equal('0x' + cb.block.header.proposer_address.toLowerCase());
  });
});
