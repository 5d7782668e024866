import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import { initHome, devAccounts } from '../src/config/init.js';
import { createLogger } from '@chain/server';

describe('transports (in-process node)', function () {
  this.timeout(30_000);
  let home: string;
  let node: Node;
  let rpc: string;
  let rest: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chaind-tr-'));
    initHome({ home, dev: true });
    const cfg = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.address': 'tcp://127.0.0.1:0', 'grpc.address': '127.0.0.1:0', 'consensus.timeout_commit': '50ms',
    });
    node = await Node.create(cfg, createLogger('error'));
    await node.start();
    rpc = `http://127.0.0.1:${node.rpc!.port}`;
    rest = `http://127.0.0.1:${node.rest!.port}`;
    while (node.engine.latestHeight < 2) await new Promise((r) => setTimeout(r, 20));
  });

  after(async () => {
    await node?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const post = async (body: string) => {
    const r = await fetch(rpc, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return { status: r.status, body: await r.json() as any };
  };

  it('REST: unknown route and wrong method are 501 code 12', async () => {
    for (const [m, p] of [['GET', '/nope'], ['GET', '/chain/tx/v1beta1/simulate'], ['DELETE', '/chain/bank/v1beta1/params']]) {
      const r = await fetch(rest + p, { method: m });
      expect(r.status, `${m} ${p}`).to.equal(501);
      expect(await r.json()).to.deep.equal({ code: 12, message: 'Not Implemented', details: [] });
    }
  });

  it('REST: params, supply, metadata and node info in both spellings', async () => {
    const params = await (await fetch(`${rest}/chain/bank/v1beta1/params`)).json() as any;
    expect(params).to.deep.equal({ params: { send_enabled: [], default_send_enabled: true } });
    const supply = await (await fetch(`${rest}/cosmos/bank/v1beta1/supply/achain`)).json() as any;
    // the dev balances, the genesis self-delegation, and what mint has minted since
    expect(supply.amount.denom).to.equal('achain');
    expect(BigInt(supply.amount.amount) > 10n ** 24n * 20n + 10n ** 21n).to.equal(true);
    const meta = await (await fetch(`${rest}/chain/bank/v1beta1/denoms_metadata/achain`)).json() as any;
    expect(meta.metadata.display).to.equal('chain');
    const auth = await (await fetch(`${rest}/chain/auth/v1beta1/params`)).json() as any;
    expect(auth.params.max_memo_characters).to.equal('256');
    const ni = await (await fetch(`${rest}/cosmos/base/tendermint/v1beta1/node_info`)).json() as any;
    expect(ni.default_node_info.network).to.equal('chain_1337-1');
    const sync = await (await fetch(`${rest}/chain/base/consensus/v1beta1/syncing`)).json() as any;
    expect(sync).to.deep.equal({ syncing: false });
    const b1 = await (await fetch(`${rest}/chain/base/consensus/v1beta1/blocks/1`)).json() as any;
    expect(b1.block.header.height).to.equal('1');
    // sdk_block: the same block, the proposer as a bech32 consensus address (the validator set's form)
    const vals = await (await fetch(`${rest}/cosmos/base/tendermint/v1beta1/validatorsets/1`)).json() as any;
    expect(b1.sdk_block.header.proposer_address).to.equal(vals.validators[0].address).and.to.match(/^chainvalcons1/);
    expect({ ...b1.sdk_block, header: { ...b1.sdk_block.header, proposer_address: b1.block.header.proposer_address } }).to.deep.equal(b1.block);
    expect(Buffer.from(b1.block.header.proposer_address, 'base64')).to.have.length(20);
    const acc = await (await fetch(`${rest}/chain/auth/v1beta1/accounts/${devAccounts()[0]!.address}`)).json() as any;
    expect(acc.account['@type']).to.equal('/chain.auth.v1beta1.BaseAccount');
  });

  it('REST: swagger is served when enabled, from the route definitions', async () => {
    const r = await fetch(`${rest}/swagger`);
    expect(r.status).to.equal(200);
    const doc = await r.json() as any;
    expect(doc.swagger).to.equal('2.0');
    expect(doc.paths).to.have.property('/chain/bank/v1beta1/balances/{address}');
    expect(doc.paths).to.have.property('/cosmos/bank/v1beta1/balances/{address}');
    expect(doc.paths['/chain/tx/v1beta1/txs']).to.have.keys(['get', 'post']);
  });

  it('RPC: JSON-RPC errors for bad input', async () => {
    const parse = await post('{oops');
    expect(parse.status).to.equal(500);
    expect(parse.body.error.code).to.equal(-32700);
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'nope', params: {} }));
    expect(unknown.body).to.deep.equal({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'Method not found' } });
    const badParams = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'block', params: { height: 'x' } }));
    expect(badParams.body.error.code).to.equal(-32602);
    const future = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'block', params: { height: '999999' } }));
    expect(future.body.error.code).to.equal(-32603);
    expect(future.body.error.data).to.match(/must be less than or equal to the current blockchain height/);
    const wsOnly = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'subscribe', params: { query: "tm.event='NewBlock'" } }));
    expect(wsOnly.body.error.code).to.equal(-32601);
    const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'health' }, { jsonrpc: '2.0', id: 2, method: 'abci_info' }]));
    expect(batch.body).to.have.length(2);
    expect(batch.body[0]).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
    const big = await post(JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }))));
    expect(big.body.error.code).to.equal(-32600);
  });

  it('RPC: URI GET form', async () => {
    const r = await fetch(`${rpc}/block?height=1`);
    const j = await r.json() as any;
    expect(j.id).to.equal(-1);
    expect(j.result.block.header.height).to.equal('1');
    const q = await fetch(`${rpc}/abci_query?path="/cosmos.bank.v1beta1.Query/Params"`);
    const jq = await q.json() as any;
    expect(jq.result.response.code).to.equal(0);
    expect(Number(jq.result.response.height)).to.be.greaterThan(0);
    const bad = await fetch(`${rpc}/abci_query?path="/nope.Query/X"`);
    const jb = await bad.json() as any;
    expect(jb.result.response.code).to.equal(6);
  });

  it('websocket: NewBlock subscription, garbage frames and parse errors do not break the socket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${node.rpc!.port}/websocket`);
    await new Promise((r) => ws.once('open', r));
    const msgs: any[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
    ws.send('garbage{');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='NewBlock' AND" } }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscribe', params: ["tm.event='NewBlock'"] }));
    const deadline = Date.now() + 5000;
    while (!msgs.some((m) => m.id === 2 && m.result?.data) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(msgs.find((m) => m.error?.code === -32700)).to.not.equal(undefined);
    const perr = msgs.find((m) => m.id === 1);
    expect(perr.error.code).to.equal(-32603);
    expect(perr.error.data).to.match(/^failed to parse query: /);
    expect(msgs.find((m) => m.id === 2 && m.result && !m.result.data)).to.deep.equal({ jsonrpc: '2.0', id: 2, result: {} });
    const ev = msgs.find((m) => m.id === 2 && m.result?.data);
    expect(ev.result.query).to.equal("tm.event='NewBlock'");
    expect(ev.result.data.type).to.equal('tendermint/event/NewBlock');
    expect(ev.result.events['tm.event']).to.deep.equal(['NewBlock']);
    ws.close();
  });
});
