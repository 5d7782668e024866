/**
 * The `[json-rpc]` limits of app.toml against a real node, with the errors Ethereum clients expect:
 * gas-cap, evm-timeout (an endless eth_call is aborted and blocks go on meanwhile), txfee-cap, logs-cap,
 * block-range-cap, max-body-bytes, max-subscriptions-per-connection, max-open-connections and
 * http-idle-timeout.
 */
import { expect } from 'chai';
import { Socket } from 'node:net';
import WebSocket from 'ws';
import { JsonRpcProvider, Wallet, ContractFactory, Contract, parseUnits } from 'ethers';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devHome, postJson, rawHttp } from '../src/clients.js';
import { compileSolidity } from '../src/solidity.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Limits {
  mapping(uint256 => uint256) public slots;
  event Ping(uint256 indexed i);
  // endless, and slow per unit of gas (a call frame per 100-odd gas): the 10M gas cap lasts ~1.9 s on this machine,
  // where a plain counting loop spent it in ~0.45 s, under the 500 ms timeout
  function spin() external view returns (uint256 s) { while (true) { (bool ok, ) = address(this).staticcall(abi.encodeWithSignature("nop()")); if (ok) s += 1; } }
  function nop() external pure {}
  function fill(uint256 n) external { for (uint256 i; i < n; i++) slots[i] = i + 1; }
  function ping(uint256 n) external { for (uint256 i; i < n; i++) emit Ping(i); }
}`;

describe('e2e: Ethereum JSON-RPC limits ([json-rpc] in app.toml)', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let limits: Contract;
  let addr: string;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(node.ethUrl, { jsonrpc: '2.0', id: ++id, method, params })).body;
  const height = async (): Promise<number> => Number((await rpc('eth_blockNumber')).result);

  before(async () => {
    const home = devHome({
      app: {
        'json-rpc.gas-cap': 10_000_000, 'json-rpc.evm-timeout': '500ms', 'json-rpc.txfee-cap': 0.01,
        'json-rpc.logs-cap': 3, 'json-rpc.block-range-cap': 5, 'json-rpc.max-body-bytes': 20_000,
        'json-rpc.max-subscriptions-per-connection': 2, 'json-rpc.max-open-connections': 30,
        'json-rpc.http-idle-timeout': '1s',
      },
    });
    node = await startNode({ home });
    provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    wallet = new Wallet(KEY0, provider);
    const { abi, bytecode } = compileSolidity(SOURCE).Limits!;
    limits = (await new ContractFactory(abi, bytecode, wallet).deploy()) as Contract;
    await limits.waitForDeployment();
    addr = await limits.getAddress();
  });

  after(async () => {
    provider?.destroy();
    await node?.stop();
    node?.cleanup();
  });

  it('evm-timeout aborts an endless eth_call / eth_estimateGas, and blocks go on meanwhile', async () => {
    const data = limits.interface.encodeFunctionData('spin');
    const h0 = await height();
    const started = Date.now();
    const call = await rpc('eth_call', [{ to: addr, data }, 'latest']);
    expect(call.error).to.deep.equal({ code: -32000, message: 'execution aborted (timeout = 500ms)' });
    expect(Date.now() - started).to.be.at.least(450);
    const est = await rpc('eth_estimateGas', [{ to: addr, data }]);
    expect(est.error).to.deep.equal({ code: -32000, message: 'execution aborted (timeout = 500ms)' });
    // two aborted calls of 500 ms each: a node that ran them on the event loop would produce no block
    expect(await height()).to.be.greaterThan(h0);
  });

  it('gas-cap bounds eth_call / eth_estimateGas gas (more is clamped; needing more is an error)', async () => {
    // storing 600 new slots needs ~13M gas: more than the 10M cap
    const fill = limits.interface.encodeFunctionData('fill', [600n]);
    const est = await rpc('eth_estimateGas', [{ from: wallet.address, to: addr, data: fill }]);
    expect(est.error).to.deep.equal({ code: -32000, message: 'gas required exceeds allowance (10000000)' });
    const small = await rpc('eth_estimateGas', [{ from: wallet.address, to: addr, data: limits.interface.encodeFunctionData('fill', [10n]) }]);
    expect(Number(small.result)).to.be.within(200_000, 10_000_000);
    // an eth_call asking for more gas than the cap runs with the cap
    const call = await rpc('eth_call', [{ to: addr, data: limits.interface.encodeFunctionData('slots', [1n]), gas: '0xffffffffffff' }, 'latest']);
    expect(call.result).to.equal('0x' + '0'.repeat(64));
  });

  it('txfee-cap refuses transactions whose gas limit x fee cap is above it', async () => {
    const tx = await wallet.signTransaction({
      to: wallet.address, value: 1n, nonce: await provider.getTransactionCount(wallet.address, 'pending'), chainId: 1337n,
      gasLimit: 1_000_000n, maxFeePerGas: parseUnits('100', 'gwei'), maxPriorityFeePerGas: 1n, type: 2,
    });
    const r = await rpc('eth_sendRawTransaction', [tx]);
    expect(r.error.code).to.equal(-32000);
    expect(r.error.message).to.equal('tx fee (0.10 ether) exceeds the configured cap (0.01 ether)');
  });

  it('logs-cap and block-range-cap bound eth_getLogs', async () => {
    const rc = await (await limits.getFunction('ping')(5n)).wait();
    const at = '0x' + rc!.blockNumber.toString(16);
    const many = await rpc('eth_getLogs', [{ address: addr, fromBlock: at, toBlock: at }]);
    expect(many.error).to.deep.equal({ code: -32000, message: 'query returned more than 3 results' });
    const few = await rpc('eth_getLogs', [{ address: addr, fromBlock: at, toBlock: at, topics: [null, ['0x' + '0'.repeat(64), '0x' + '0'.repeat(63) + '1']] }]);
    expect(few.result.map((l: any) => l.topics[1])).to.deep.equal(['0x' + '0'.repeat(64), '0x' + '0'.repeat(63) + '1']);
    while ((await height()) < 8) await new Promise((r) => setTimeout(r, 200));
    const wide = await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }]);
    expect(wide.error).to.deep.equal({ code: -32000, message: 'maximum [from, to] blocks distance: 5' });
  });

  it('max-body-bytes: a larger body is HTTP 413 with a JSON-RPC error, and the server goes on', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: addr, data: '0x' + 'ab'.repeat(15_000) }, 'latest'] });
    const r = await rawHttp(node.ethUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(r.status).to.equal(413);
    expect(r.body.error.code).to.equal(-32600);
    expect(r.body.error.message).to.match(/^content length too large/);
    expect((await rpc('eth_chainId')).result).to.equal('0x539');
  });

  it('max-subscriptions-per-connection bounds eth_subscribe on one socket, not across sockets', async () => {
    const open = async (): Promise<{ ws: WebSocket; call: (m: string, p: unknown[]) => Promise<any> }> => {
      const ws = new WebSocket(node.ethWsUrl);
      await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
      let n = 0;
      const call = (method: string, params: unknown[]) => new Promise<any>((resolve) => {
        const myId = ++n;
        const onMsg = (d: WebSocket.RawData): void => {
          const m = JSON.parse(d.toString());
          if (m.id === myId) { ws.off('message', onMsg); resolve(m); }
        };
        ws.on('message', onMsg);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: myId, method, params }));
      });
      return { ws, call };
    };
    const a = await open();
    const b = await open();
    try {
      expect((await a.call('eth_subscribe', ['newHeads'])).result).to.match(/^0x[0-9a-f]+$/);
      expect((await a.call('eth_subscribe', ['logs', {}])).result).to.match(/^0x[0-9a-f]+$/);
      const third = await a.call('eth_subscribe', ['newHeads']);
      expect(third.error.code).to.equal(-32000);
      expect(third.error.message).to.equal('too many subscriptions on this connection (max 2)');
      expect((await b.call('eth_subscribe', ['newHeads'])).result).to.match(/^0x[0-9a-f]+$/);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });

  /** Opens a TCP connection to `url`; resolves with the socket and a promise of its close (and what it received). */
  function connect(url: string): Promise<{ socket: Socket; closed: Promise<string> }> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      let data = '';
      const closed = new Promise<string>((r) => { socket.once('close', () => r(data)); });
      socket.on('data', (d) => { data += d.toString(); });
      socket.once('error', () => undefined);
      socket.connect(Number(port), hostname, () => resolve({ socket, closed }));
      socket.once('error', reject);
    });
  }
  const within = <T>(p: Promise<T>, ms: number): Promise<T | 'open'> => Promise.race([p, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);

  it('max-open-connections: HTTP connections beyond the limit are closed at once, the server goes on', async () => {
    const conns = [];
    for (let i = 0; i < 40; i++) conns.push(await connect(node.ethUrl));
    try {
      // at most 30 (ethers' keep-alive connections included) stay open; the rest are closed without a byte
      const outcomes = await Promise.all(conns.map((c) => within(c.closed, 2000)));
      const refused = outcomes.filter((o) => o === '');
      expect(refused.length).to.be.at.least(10);
      expect(outcomes.filter((o) => o === 'open').length).to.be.at.most(30);
    } finally {
      for (const c of conns) c.socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await rpc('eth_chainId')).result).to.equal('0x539');
  });

  it('max-open-connections: websocket connections beyond the limit are refused, the others keep working', async () => {
    const opened = await Promise.all(Array.from({ length: 35 }, () => new Promise<WebSocket | undefined>((resolve) => {
      const ws = new WebSocket(node.ethWsUrl);
      ws.once('open', () => resolve(ws));
      ws.once('error', () => resolve(undefined));
      ws.once('close', () => resolve(undefined));
    })));
    const live = opened.filter((w): w is WebSocket => w !== undefined);
    try {
      expect(live.length).to.equal(30);
      const reply = await new Promise<any>((resolve) => {
        live[0]!.once('message', (d) => resolve(JSON.parse(d.toString())));
        live[0]!.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }));
      });
      expect(reply.result).to.equal('0x539');
    } finally {
      for (const w of live) w.terminate();
    }
    await new Promise((r) => setTimeout(r, 200));
    const ws = new WebSocket(node.ethWsUrl);
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    ws.terminate();
  });

  it('http-idle-timeout closes an idle keep-alive connection', async () => {
    const c = await connect(node.ethUrl);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    c.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const t0 = Date.now();
    const got = await within(c.closed, 6000);
    c.socket.destroy();
    expect(got).to.be.a('string').and.to.include('"result":"0x539"');
    expect(Date.now() - t0).to.be.at.least(900);
  });
});
