/**
 * The `[api]` options of app.toml against a real node: max-open-connections, rpc-read-timeout,
 * rpc-write-timeout, rpc-max-body-bytes and enabled-unsafe-cors.
 */
import { expect } from 'chai';
import { Socket } from 'node:net';
import { toBase64 } from '@cosmjs/encoding';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, devHome, getJson, rawHttp, signedSend } from '../src/clients.js';

/** Opens a TCP connection to `url`'s host and port. */
function connect(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = new Socket();
    s.once('error', reject);
    s.connect(Number(port), hostname, () => { s.off('error', reject); resolve(s); });
  });
}

/** Resolves when the server closes `s` (with what it sent), or with `undefined` after `ms`. */
function closedWithin(s: Socket, ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let data = '';
    const t = setTimeout(() => resolve(undefined), ms);
    s.on('data', (d) => { data += d.toString(); });
    s.once('close', () => { clearTimeout(t); resolve(data); });
    s.once('error', () => undefined);
  });
}

describe('e2e: REST [api] options', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  const sockets: Socket[] = [];

  before(async () => {
    const home = devHome({
      app: {
        'api.max-open-connections': 20, 'api.rpc-read-timeout': 2, 'api.rpc-write-timeout': 2,
        'api.rpc-max-body-bytes': 4000, 'api.enabled-unsafe-cors': true,
      },
    });
    // slow blocks: a BLOCK-mode broadcast then waits longer than the write timeout
    node = await startNode({ home, timeoutCommit: '4s' });
  });

  after(async () => {
    for (const s of sockets) s.destroy();
    await node?.stop();
    node?.cleanup();
  });

  it('rpc-max-body-bytes: a larger body is 400 code 3, and the server goes on', async () => {
    const r = await rawHttp(`${node.restUrl}/chain/tx/v1beta1/txs`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_bytes: 'A'.repeat(8000), mode: 'BROADCAST_MODE_SYNC' }),
    });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ code: 3, message: 'http: request body too large', details: [] });
    expect((await getJson(`${node.restUrl}/chain/bank/v1beta1/params`)).status).to.equal(200);
  });

  it('enabled-unsafe-cors: every origin may read, preflights of GET/POST with Content-Type pass', async () => {
    const r = await rawHttp(`${node.restUrl}/chain/bank/v1beta1/params`, { headers: { origin: 'https://wallet.example' } });
    expect(r.headers.get('access-control-allow-origin')).to.equal('*');
    const pre = await rawHttp(`${node.restUrl}/chain/tx/v1beta1/txs`, {
      method: 'OPTIONS', headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).to.equal(200);
    expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
    expect(pre.headers.get('access-control-allow-headers')).to.match(/content-type/i);
    const bad = await rawHttp(`${node.restUrl}/chain/tx/v1beta1/txs`, {
      method: 'OPTIONS', headers: { origin: 'https://wallet.example', 'access-control-request-method': 'DELETE' },
    });
    expect(bad.status).to.equal(405);
  });

  it('rpc-read-timeout: a client that never finishes its request is cut off', async () => {
    const s = await connect(node.restUrl);
    sockets.push(s);
    s.write('GET /chain/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\n'); // headers never end
    const started = Date.now();
    const answer = await closedWithin(s, 10_000);
    expect(answer, 'the connection was not closed within 10 s').to.not.equal(undefined);
    expect(Date.now() - started).to.be.within(1500, 9000);
    if (answer) expect(answer).to.match(/^HTTP\/1\.1 408|^$/);
  });

  it('rpc-write-timeout: a response not written within the timeout closes the connection', async () => {
    const raw = await signedSend(node.restUrl, 8, await devAddress(9), '1');
    // broadcast right after a block: the next one (and the answer) is ~4 s away
    const heightNow = async (): Promise<number> => Number((await getJson(`${node.rpcUrl}/status`)).body.result.sync_info.latest_block_height);
    const h0 = await heightNow();
    while ((await heightNow()) === h0) await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    let failed: unknown;
    try {
      await rawHttp(`${node.restUrl}/chain/tx/v1beta1/txs`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_BLOCK' }),
      });
    } catch (e) {
      failed = e;
    }
    expect(failed, 'a BLOCK broadcast waiting ~4 s answered despite the 2 s write timeout').to.not.equal(undefined);
    expect(Date.now() - started).to.be.within(1500, 6000);
    expect((await getJson(`${node.restUrl}/chain/bank/v1beta1/params`)).status).to.equal(200);
  });

  it('max-open-connections: connections beyond the limit are refused, the node keeps answering', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < 20; i++) held.push(await connect(node.restUrl));
    sockets.push(...held);
    // one more: accepted by the kernel, then closed by the server at once
    const extra = await connect(node.restUrl);
    sockets.push(extra);
    extra.write('GET /chain/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closedWithin(extra, 5000)).to.equal('');
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await getJson(`${node.restUrl}/chain/bank/v1beta1/params`)).status).to.equal(200);
  });
});
