/**
 * Abuse: a few thousand bad inputs from a seeded generator (the seed is printed; `ABUSE_SEED=<n>`
 * replays a run) thrown at one running node over every surface: REST, the CometBFT RPC (HTTP and
 * /websocket), the Ethereum JSON-RPC (HTTP and websocket), gRPC, and thousands of TCP connections.
 * Every answer must be a *defined* error of its surface (checkers in src/abuse.ts); after each surface
 * the node must be alive, producing blocks, answering a valid query and committing a signed send, and
 * at the end its memory must not have exploded.
 */
import { expect } from 'chai';
import { Socket } from 'node:net';
import WebSocket from 'ws';
import * as grpc from '@grpc/grpc-js';
import { toBase64 } from '@cosmjs/encoding';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, getJson, postJson, rpcCall, signedSend } from '../src/clients.js';
import { Rng, http, rawExchange, pool, rssKb, grpcMethodPaths, checkRest, checkComet, checkEth, checkRpcObject, cometNotificationsOnly, isRpcError, JS_INTERNALS } from '../src/abuse.js';
import type { HttpRequest, RawAnswer } from '../src/abuse.js';
import { restCases, cometCases, ethCases, cometWsFrames, ethWsFrames, grpcGarbage } from '../src/abuse-inputs.js';
import type { SwaggerRoute } from '../src/abuse-inputs.js';

const SEED = Number(process.env.ABUSE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 12;

describe('e2e: abuse — bad input on every surface gets a defined error; the node keeps producing blocks', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let port: { rest: number; rpc: number; eth: number; ethWs: number };
  let grpcClient: grpc.Client;
  let rng: Rng;
  let routes: SwaggerRoute[];
  let cometMethods: { name: string; args: string[] }[];
  let sender: string;
  let rssBefore = 0;
  let total = 0;
  let lastHeight = 0;
  let firstStormHeight = 0;
  const failures: { why: string; example: string }[] = [];
  /** inputs per surface, and how many were answered with an error */
  const tally: Record<string, { n: number; errors: number }> = {};

  /** Records one input's verdict. */
  const judge = (surface: string, what: string, why: string | undefined, answer: string, error = true): void => {
    total++;
    const t = (tally[surface] ??= { n: 0, errors: 0 });
    t.n++;
    if (error) t.errors++;
    if (why) failures.push({ why: `[${surface}] ${why}`, example: `${what.slice(0, 160)} → ${answer.slice(0, 240)}` });
  };
  const shown = (a: RawAnswer): string => `${a.status} ${a.text}`;
  /** Fails with the distinct reasons (grouped, with up to 2 examples each) of this surface's undefined answers. */
  const expectNoFailures = (): void => {
    const list = failures.splice(0);
    const groups = new Map<string, string[]>();
    for (const f of list) groups.set(f.why.replace(/\d+/g, 'N'), [...(groups.get(f.why.replace(/\d+/g, 'N')) ?? []), f.example]);
    const report = [...groups].map(([why, ex]) => `${ex.length}× ${why}\n    e.g. ${ex.slice(0, 2).join('\n    e.g. ')}`);
    expect(list, `seed ${SEED}; ${list.length} undefined answers:\n${report.slice(0, 20).join('\n')}`).to.have.length(0);
  };
  const height = async (): Promise<number> => Number((await rpcCall(node.rpcUrl, 'status')).result.sync_info.latest_block_height);

  /** Alive, producing blocks, answering a valid query and committing a valid signed send. */
  const healthy = async (label: string): Promise<void> => {
    expect(node.proc.exitCode, `${label}: the node exited:\n${node.output.slice(-2000)}`).to.equal(null);
    const deadline = Date.now() + 10_000;
    let h = await height();
    while (h <= lastHeight && Date.now() < deadline) { await new Promise((r) => setTimeout(r, 100)); h = await height(); }
    expect(h, `${label}: no new block since height ${lastHeight}`).to.be.greaterThan(lastHeight);
    lastHeight = h;
    const bal = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${sender}`);
    expect(bal.status, `${label}: balance query`).to.equal(200);
    expect(bal.body.balances[0].denom).to.equal('achain');
    const raw = await signedSend(node.restUrl, 1, await devAddress(9), '1', { memo: label });
    const sent = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_SYNC' });
    expect(sent.body.tx_response?.code, `${label}: ${JSON.stringify(sent.body)}`).to.equal(0);
    for (let i = 0; ; i++) {
      if ((await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${sent.body.tx_response.txhash}`)).status === 200) break;
      if (i > 100) throw new Error(`${label}: the signed send was not committed within 10 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    rng = new Rng(SEED);
    console.log(`      abuse seed ${SEED} (ABUSE_SEED=${SEED} replays this run)`);
    node = await startNode();
    port = { rest: Number(new URL(node.restUrl).port), rpc: Number(new URL(node.rpcUrl).port), eth: Number(new URL(node.ethUrl).port), ethWs: Number(new URL(node.ethWsUrl).port) };
    grpcClient = new grpc.Client(node.grpcAddress, grpc.credentials.createInsecure());
    sender = await devAddress(1);
    const doc = (await getJson(`${node.restUrl}/swagger`)).body;
    routes = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([template, ops]) => Object.entries(ops).map(([m, op]) => ({
      method: m.toUpperCase() as 'GET' | 'POST', template,
      pathParams: op.parameters.filter((p: any) => p.in === 'path'), queryParams: op.parameters.filter((p: any) => p.in === 'query'),
      bodyFields: m === 'post' ? Object.keys(doc.definitions[op.parameters.find((p: any) => p.in === 'body').schema.$ref.split('/').pop()].properties) : [],
    })));
    // the CometBFT endpoint list (GET / with no body) names every HTTP method and its arguments
    const list = await http(port.rpc, { method: 'GET', path: '/' });
    cometMethods = [...list.text.matchAll(/<a href="\/\/[^/]+\/(\w+)(?:\?([^"]*))?">/g)].map((m) => ({ name: m[1]!, args: (m[2] ?? '').split('&').filter(Boolean).map((a) => a.split('=')[0]!) }));
    expect(cometMethods.length).to.be.greaterThan(20);
    lastHeight = await height();
    await healthy('before the storm');
    firstStormHeight = lastHeight;
    rssBefore = rssKb(node.proc.pid!);
  });

  after(async () => {
    grpcClient?.close();
    await node?.stop();
    node?.cleanup();
  });

  it('REST: unknown routes, wrong methods, bad path params, queries, headers, bodies and tx searches', async () => {
    const cases = restCases(rng, routes, { address: sender, latest: lastHeight }, 1100);
    await pool(cases, CONCURRENCY, async (c) => {
      const a = Buffer.isBuffer(c.req) ? await rawExchange(port.rest, c.req) : await http(port.rest, c.req);
      judge('rest', c.what, checkRest(a, { ...c.expect, echo: c.what }), shown(a), a.status !== 200);
    });
    expectNoFailures();
    await healthy('after REST');
  });

  it('CometBFT RPC over HTTP: malformed JSON, envelopes, ids, unknown methods, bad params, huge bodies, batches, URI args', async () => {
    const cases = cometCases(rng, cometMethods, 900);
    await pool(cases, CONCURRENCY, async (c) => {
      const a = Buffer.isBuffer(c.req) ? await rawExchange(port.rpc, c.req) : await http(port.rpc, c.req);
      const emptyOk = c.emptyOk || (!Buffer.isBuffer(c.req) && c.req.method === 'POST' && cometNotificationsOnly(c.req.body));
      judge('comet', c.what, checkComet(a, { form: c.form ?? 'post', emptyOk }), shown(a), a.status !== 200 || isRpcError(a.json));
    });
    expectNoFailures();
    await healthy('after the CometBFT RPC');
  });

  /** Opens a websocket; resolves with it and the messages it receives (parsed when JSON). */
  const openWs = async (url: string): Promise<{ ws: WebSocket; msgs: unknown[]; closed: Promise<number> }> => {
    const ws = new WebSocket(url);
    const msgs: unknown[] = [];
    ws.on('message', (d) => {
      let m: unknown;
      try { m = JSON.parse(d.toString()); } catch { m = d.toString(); }
      if (Array.isArray(m)) msgs.push(...m); else msgs.push(m);
    });
    ws.on('error', () => undefined);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    return { ws, msgs, closed };
  };
  const waitFor = async (pred: () => boolean, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (!pred()) { if (Date.now() > deadline) return false; await new Promise((r) => setTimeout(r, 20)); }
    return true;
  };

  /** Sends frames on sockets of `url`; every frame with an id must get an answer, every answer must be defined. */
  const wsStorm = async (surface: 'comet' | 'eth', url: string, sockets: number, framesPer: number, end: unknown): Promise<void> => {
    // drawn before any socket opens, so the seed alone decides them
    const perSocket = Array.from({ length: sockets }, () => (surface === 'comet' ? cometWsFrames(rng, framesPer) : ethWsFrames(rng, framesPer)));
    await pool(perSocket, 4, async (frames, s) => {
      const { ws, msgs, closed } = await openWs(url);
      let closeCode: number | undefined;
      void closed.then((c) => { closeCode = c; });
      for (const f of frames) ws.send(f.data, { binary: f.binary });
      ws.send(JSON.stringify(end));
      const endId = (end as { id: string }).id;
      const answered = await waitFor(() => msgs.some((m: any) => m?.id === endId) || closeCode !== undefined, 15_000);
      const why = closeCode !== undefined ? `socket closed by the server (${closeCode})` : answered ? undefined : 'no answer to the final request (hang)';
      judge(`${surface}-ws`, `socket ${s}: ${frames.length} frames`, why, JSON.stringify(msgs.slice(-3)));
      await new Promise((r) => setTimeout(r, 100));
      for (const f of frames) {
        if (f.id === undefined) { total++; continue; }
        const reply: any = msgs.find((m: any) => m?.id === f.id && (m.error !== undefined || (m.result !== undefined && m.result?.data === undefined)));
        judge(`${surface}-ws`, f.data.toString().slice(0, 160), reply ? checkRpcObject(reply, surface) : 'no reply for this id', JSON.stringify(reply ?? msgs.slice(-2)), reply?.error !== undefined);
      }
      for (const m of msgs) {
        if ((m as any)?.method === 'eth_subscription') continue;
        const why = typeof m === 'string' ? 'not JSON' : checkRpcObject(m, surface);
        if (why) judge(`${surface}-ws`, 'a message of the server', why, JSON.stringify(m));
      }
      ws.terminate();
    });
  };

  /** A frame larger than the limit closes the socket with 1009; abrupt closes and broken frames are survived. */
  const wsEdges = async (surface: string, url: string, wsPort: number, path: string, request: string, maxBytes: number): Promise<void> => {
    const big = await openWs(url);
    big.ws.send('x'.repeat(maxBytes + 10));
    const code = await Promise.race([big.closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    judge(`${surface}-ws`, 'oversized frame', code === 1009 ? undefined : `closed with ${code} instead of 1009`, '');
    // a text frame that is not UTF-8: a parse error, or a close with 1007
    const bad = await openWs(url);
    bad.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    const utf8 = await Promise.race([bad.closed, waitFor(() => bad.msgs.some((m: any) => m?.error?.code === -32700), 10_000).then((ok) => (ok ? 'parse error' : -1))]);
    judge(`${surface}-ws`, 'text frame with invalid UTF-8', utf8 === 'parse error' || utf8 === 1007 ? undefined : `answered ${utf8}`, JSON.stringify(bad.msgs));
    bad.ws.terminate();
    for (let i = 0; i < 20; i++) {
      const c = await openWs(url);
      c.ws.send(request);
      if (i % 2) c.ws.terminate(); else c.ws.close();
      total++;
    }
    // raw TCP: a handshake, then half a frame or an invalid (unmasked, reserved-opcode) frame, then nothing or a reset
    const handshake = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.from(rng.bytes(16)).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    await pool(Array.from({ length: 30 }, (_, i) => i), 10, async (i) => {
      const s = new Socket();
      s.on('error', () => undefined);
      let got = Buffer.alloc(0);
      s.on('data', (d: Buffer) => { got = Buffer.concat([got, d]); });
      // a close frame (0x88) after the 101 answer, or the socket closed
      const closeFrame = (): boolean => { const h = got.indexOf('\r\n\r\n'); return h >= 0 && got.subarray(h + 4).includes(0x88); };
      const closedByServer = new Promise<boolean>((r) => { s.once('close', () => r(true)); void waitFor(closeFrame, 8000).then(r); });
      await new Promise<void>((r) => s.connect(wsPort, '127.0.0.1', () => r()));
      s.write(handshake);
      await new Promise((r) => setTimeout(r, 30));
      const frame = i % 3 === 0 ? Buffer.from([0x81, 0xfe, 0x10]) : i % 3 === 1 ? Buffer.from([0x83, 0x05, 1, 2, 3, 4, 5]) : Buffer.from([0x81, 0x85, 1, 2, 3]);
      s.write(frame);
      if (i % 3 === 1) judge(`${surface}-ws`, 'invalid frame', (await closedByServer) ? undefined : 'no close after an invalid frame', got.toString('latin1').slice(0, 200));
      else { total++; s.destroy(); }
      s.destroy();
    });
  };

  it('CometBFT /websocket: garbage frames, bad and too many subscriptions, unknown unsubscribes, abrupt closes', async () => {
    await wsStorm('comet', node.wsUrl, 12, 35, { jsonrpc: '2.0', id: 'end', method: 'health', params: {} });
    await wsEdges('comet', node.wsUrl, port.rpc, '/websocket', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='NewBlock'" } }), 1_000_000);
    // max_subscription_clients (100): the 101st subscribing client is refused, none hangs
    const clients = await Promise.all(Array.from({ length: 105 }, () => openWs(node.wsUrl)));
    clients.forEach((c, i) => c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: `c${i}`, method: 'subscribe', params: { query: "tm.event='NewBlockHeader'" } })));
    const replies = await Promise.all(clients.map(async (c, i) => {
      await waitFor(() => c.msgs.some((m: any) => m?.id === `c${i}` && m.result?.data === undefined), 10_000);
      return c.msgs.find((m: any) => m?.id === `c${i}` && m.result?.data === undefined) as any;
    }));
    for (const r of replies) judge('comet-ws', 'subscription client', r ? checkRpcObject(r, 'comet') : 'no reply', JSON.stringify(r));
    const refused = replies.filter((r) => r?.error?.data === 'max_subscription_clients 100 reached').length;
    expect(refused, 'refused subscription clients').to.be.within(5, 11);
    expect(replies.filter((r) => r?.result).length + refused).to.equal(clients.length);
    for (const c of clients) c.ws.terminate();
    expectNoFailures();
    await healthy('after the CometBFT websocket');
  });

  it('Ethereum JSON-RPC over HTTP and websocket: malformed JSON, bad params, tags, addresses, batches, subscriptions, filters', async () => {
    const cases = ethCases(rng, 600);
    await pool(cases, CONCURRENCY, async (c) => {
      const a = Buffer.isBuffer(c.req) ? await rawExchange(port.eth, c.req) : await http(port.eth, c.req as HttpRequest);
      judge('eth', c.what, checkEth(a, { emptyOk: c.emptyOk }), shown(a), a.status !== 200 || isRpcError(a.json));
    });
    await wsStorm('eth', node.ethWsUrl, 6, 40, { jsonrpc: '2.0', id: 'end', method: 'eth_chainId', params: [] });
    await wsEdges('eth', node.ethWsUrl, port.ethWs, '/', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }), 5 * 1024 * 1024);
    // max-subscriptions-per-connection (100): the 101st eth_subscribe on one socket is refused
    const subs = await openWs(node.ethWsUrl);
    for (let i = 0; i < 101; i++) subs.ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['syncing'] }));
    await waitFor(() => subs.msgs.some((m: any) => m?.id === 100), 10_000);
    const last = subs.msgs.find((m: any) => m?.id === 100) as any;
    judge('eth-ws', '101st eth_subscribe on one socket', last?.error?.code === -32000 && /too many subscriptions/.test(last.error.message) ? undefined : 'not refused', JSON.stringify(last));
    subs.ws.terminate();
    expectNoFailures();
    await healthy('after the Ethereum JSON-RPC');
  });

  it('gRPC: garbage request bytes to every method (both names), unknown methods, bad height metadata', async () => {
    const methods = await grpcMethodPaths(grpcClient);
    expect(methods).to.include.members(['/cosmos.bank.v1beta1.Query/AllBalances', '/chain.tx.v1beta1.Service/BroadcastTx']);
    const id = (b: Buffer): Buffer => b;
    const calls = grpcGarbage(rng, methods, 3);
    await pool(calls, CONCURRENCY, async (c) => {
      const md = new grpc.Metadata();
      if (c.height !== undefined) md.set('x-cosmos-block-height', c.height);
      const err = await new Promise<grpc.ServiceError | null>((resolve) => {
        grpcClient.makeUnaryRequest<Buffer, Buffer>(c.path, id, id, Buffer.from(c.bytes), md, { deadline: Date.now() + 15_000 }, (e) => resolve(e));
      });
      let why: string | undefined;
      if (err) {
        if (err.code === grpc.status.DEADLINE_EXCEEDED) why = 'no answer (hang)';
        else if (!(err.code > 0 && err.code <= 16) || !err.details) why = `status ${err.code} without details`;
        else if (JS_INTERNALS.test(err.details)) why = 'JavaScript internals in the details';
        else if (c.unknown && err.code !== grpc.status.UNIMPLEMENTED) why = `unknown method answered ${err.code}`;
      } else if (c.unknown) why = 'an unknown method answered OK';
      judge('grpc', `${c.path} ${Buffer.from(c.bytes).toString('hex').slice(0, 80)}`, why, err ? `${err.code} ${err.details}` : 'OK', err !== null);
    });
    expectNoFailures();
    await healthy('after gRPC');
  });

  it('thousands of connections (idle, half-open, reset) on the RPC, REST and eth ports: excess refused, idle ones closed, still serving', async () => {
    const open = async (p: number, n: number): Promise<{ s: Socket; closed: boolean }[]> => {
      const out: { s: Socket; closed: boolean }[] = [];
      await pool(Array.from({ length: n }, (_, i) => i), 200, async (i) => {
        const c = { s: new Socket(), closed: false };
        c.s.on('error', () => undefined);
        c.s.on('data', () => undefined); // read what the server sends, so its close is seen
        c.s.on('close', () => { c.closed = true; });
        await new Promise<void>((r) => { c.s.once('connect', () => r()); c.s.once('close', () => r()); c.s.connect(p, '127.0.0.1'); });
        if (i % 3 === 1) c.s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"jsonr'); // half a request
        else if (i % 3 === 2) c.s.write('GET /sta'); // half a request line
        out.push(c);
      });
      return out;
    };
    const rpc = await open(port.rpc, 1300);
    const rest = await open(port.rest, 1300);
    const eth = await open(port.eth, 900);
    total += rpc.length + rest.length + eth.length;
    await new Promise((r) => setTimeout(r, 1500));
    // max_open_connections 900 (RPC) and max-open-connections 1000 (REST): the excess is closed at once
    expect(rpc.filter((c) => c.closed).length, 'RPC connections closed beyond max_open_connections').to.be.at.least(1300 - 900);
    expect(rest.filter((c) => c.closed).length, 'REST connections closed beyond max-open-connections').to.be.at.least(1300 - 1000);
    // the eth port (no limit) and gRPC keep answering meanwhile
    expect((await http(port.eth, { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })).json).to.have.property('result');
    // idle and half-open connections are closed by the read timeouts (10 s on RPC and REST)
    const idleClosed = await waitFor(() => rpc.every((c) => c.closed) && rest.every((c) => c.closed), 20_000);
    expect(idleClosed, `still open: RPC ${rpc.filter((c) => !c.closed).length}, REST ${rest.filter((c) => !c.closed).length}`).to.equal(true);
    for (const c of [...rpc, ...rest, ...eth]) c.s.destroy(); // eth idle ones: reset by the client
    await healthy('after the connection flood');
  });

  it('afterwards: alive, blocks kept coming during the whole storm, memory bounded, thousands of inputs judged', async () => {
    await healthy('at the end');
    // the block times of every height produced during the storm: no long stall
    let maxGap = 0;
    let prev: number | undefined;
    for (let h = firstStormHeight; h <= lastHeight; h += 20) {
      const metas = (await rpcCall(node.rpcUrl, 'blockchain', { minHeight: String(h), maxHeight: String(Math.min(h + 19, lastHeight)) })).result.block_metas as any[];
      for (const m of metas.reverse()) {
        const t = Date.parse(m.header.time);
        if (prev !== undefined) maxGap = Math.max(maxGap, t - prev);
        prev = t;
      }
    }
    const rssAfter = rssKb(node.proc.pid!);
    console.log(`      ${Object.entries(tally).map(([k, t]) => `${k} ${t.n} (${t.errors} errors)`).join(', ')}`);
    console.log(`      ${total} inputs judged; heights ${firstStormHeight}..${lastHeight}; longest gap between blocks ${maxGap} ms; RSS ${Math.round(rssBefore / 1024)} → ${Math.round(rssAfter / 1024)} MB`);
    expect(total).to.be.at.least(3000);
    expect(maxGap, 'longest time without a block during the storm (ms)').to.be.below(5000);
    expect(rssAfter - rssBefore, 'RSS growth (kB)').to.be.below(400 * 1024);
  });
});
