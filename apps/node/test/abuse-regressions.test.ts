/**
 * Regressions found by the e2e abuse test (e2e/test/abuse.test.ts), on an in-process node: answers to
 * bodies above the limit survive a client that is still sending; Ethereum JSON-RPC params of the wrong
 * type are -32602 (never a leaked -32603); eth_subscribe over HTTP is geth's -32601; REST bech32 of long
 * address bytes is encoded as the SDK does.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import type { NodeConfig } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';
import { createLogger } from '@chain/server';

const LIMIT = 2000;

/**
 * Writes `bytes` on a new connection and resolves with everything the server sent before closing. The
 * client runs in a worker thread (its own event loop, like a real client), else the race this guards
 * against (the server closing while the client still sends) cannot happen.
 */
function exchange(port: number, bytes: Buffer): Promise<string> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Socket } = require('node:net');
    const s = new Socket();
    const chunks = [];
    let sent = false;
    const done = () => { if (!sent) { sent = true; parentPort.postMessage(Buffer.concat(chunks).toString('utf8')); } };
    s.on('data', (c) => chunks.push(c));
    s.on('error', done);
    s.on('close', done);
    s.connect(workerData.port, '127.0.0.1', () => s.write(Buffer.from(workerData.bytes), () => undefined));`;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { port, bytes } });
    w.once('message', (m: string) => { resolve(m); void w.terminate(); });
    w.once('error', reject);
  });
}

function post(path: string, body: string): Buffer {
  return Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

describe('regressions of the abuse test (in-process node)', function () {
  this.timeout(60_000);
  let home: string;
  let node: Node;
  let eth: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chaind-abuse-'));
    initHome({ home, dev: true });
    const base = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.address': 'tcp://127.0.0.1:0', 'grpc.enable': 'false', 'consensus.timeout_commit': '50ms',
      'json-rpc.enable': true, 'json-rpc.address': '127.0.0.1:0', 'json-rpc.ws-address': '127.0.0.1:0',
    });
    const cfg: NodeConfig = structuredClone(base);
    cfg.config.rpc.max_body_bytes = LIMIT;
    cfg.app.api['rpc-max-body-bytes'] = LIMIT;
    cfg.app['json-rpc']['max-body-bytes'] = LIMIT;
    node = await Node.create(cfg, createLogger('error'));
    await node.start();
    eth = `http://127.0.0.1:${node.jsonRpc!.port}`;
    while (node.engine.latestHeight < 2) await new Promise((r) => setTimeout(r, 20));
  });

  after(async () => {
    await node?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const ethCall = async (method: string, params: unknown): Promise<any> =>
    (await fetch(eth, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();

  it('a body far above the limit is answered (not lost in a reset) on RPC, REST and eth, and the servers go on', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', tx_bytes: 'A'.repeat(8_000_000) });
    const ports = { rpc: node.rpc!.port, rest: node.rest!.port, eth: node.jsonRpc!.port };
    const lost: string[] = [];
    for (const [name, port, path, answer] of [
      ['rpc', ports.rpc, '/', 'HTTP/1.1 400'], ['rest', ports.rest, '/chain/tx/v1beta1/simulate', 'HTTP/1.1 400'], ['eth', ports.eth, '/', 'HTTP/1.1 413'],
    ] as const) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(port, post(path, big))));
      lost.push(...answers.map((text, i) => (text.startsWith(answer) && /too large/.test(text) ? '' : `${name} #${i}: ${JSON.stringify(text.slice(0, 60))}`)).filter(Boolean));
    }
    expect(lost, 'answers lost').to.deep.equal([]);
    expect((await ethCall('eth_chainId', [])).result).to.equal('0x539');
  });

  it('eth: wrong param types are -32602, eth_subscribe over HTTP is -32601', async () => {
    const sub = await ethCall('eth_subscribe', ['newHeads']);
    expect(sub.error).to.deep.equal({ code: -32601, message: 'notifications not supported' });
    for (const [method, params] of [
      ['eth_getFilterChanges', [{}]], ['eth_getFilterLogs', [5]], ['eth_feeHistory', ['0x2', 'latest', 5]], ['eth_getBalance', ['0x' + '11'.repeat(20), {}]],
      ['eth_getBlockByNumber', [[], false]], ['eth_getBalance', ['0x' + '11'.repeat(20), { blockNumber: '0x1', blockHash: '0x' + 'ab'.repeat(32) }]],
    ] as const) {
      const r = await ethCall(method, params);
      expect(r.error?.code, `${method} ${JSON.stringify(params)} → ${JSON.stringify(r)}`).to.equal(-32602);
    }
    // an unknown (string) filter id stays -32000 "filter not found"
    expect((await ethCall('eth_getFilterChanges', ['0x1234'])).error).to.deep.equal({ code: -32000, message: 'filter not found: 0x1234' });
  });

  it('REST: bech32 of long address bytes is encoded (the SDK does), not an internal error', async () => {
    const bytes = Buffer.alloc(3000, 7).toString('base64');
    const r = await fetch(`http://127.0.0.1:${node.rest!.port}/cosmos/auth/v1beta1/bech32/${encodeURIComponent(bytes)}`);
    expect(r.status).to.equal(200);
    expect(((await r.json()) as { address_string: string }).address_string).to.match(/^chain1[02-9ac-hj-np-z]{4806}$/);
  });
});
