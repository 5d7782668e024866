/**
 * The bad inputs of the abuse test, per surface, drawn from a seeded Rng (same seed → same inputs).
 * Each case carries what it is (for the failure report), the request (structured, or raw bytes for
 * malformed HTTP) and what a defined answer may be.
 */
import { Rng, NASTY, nastyJson, deepJson } from './abuse.js';
import type { HttpRequest } from './abuse.js';

export interface SwaggerParam { name: string; type?: string; format?: string; enum?: string[] }
export interface SwaggerRoute { method: 'GET' | 'POST'; template: string; pathParams: SwaggerParam[]; queryParams: SwaggerParam[]; bodyFields: string[] }

export interface HttpCase<E> { what: string; req: HttpRequest | Buffer; expect: E }
export type RestCase = HttpCase<{ okAllowed?: boolean; allow500?: boolean; notImplemented?: boolean }>;
export interface RpcCase { what: string; req: HttpRequest | Buffer; emptyOk?: boolean; form?: 'post' | 'uri' }

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Picks a kind by weight and runs its generator `n` times. */
function mix<T>(rng: Rng, n: number, kinds: [number, () => T][]): T[] {
  const sum = kinds.reduce((s, [w]) => s + w, 0);
  return Array.from({ length: n }, () => {
    let x = rng.next() * sum;
    for (const [w, gen] of kinds) { if (x < w) return gen(); x -= w; }
    return kinds[0]![1]();
  });
}

/** A value put into a URL: percent-encoded, raw garbage (`%zz`, unicode bytes) or double-encoded. */
function urlValue(rng: Rng, v: string): string {
  const k = rng.int(4);
  if (k === 0) return encodeURIComponent(v).replace(/%25/g, rng.chance(0.5) ? '%' : '%25');
  if (k === 1) return encodeURIComponent(encodeURIComponent(v));
  return encodeURIComponent(v);
}

/** A CometBFT query with grammar errors (or an over-long one). */
export function badQuery(rng: Rng): string {
  if (rng.chance(0.15)) return `message.sender='${'x'.repeat(520 + rng.int(4000))}'`;
  const parts = ['tm.event', '=', "'Tx'", 'AND', 'tx.height', '>', '5', '<=', 'CONTAINS', 'EXISTS', 'DATE', 'TIME', '2021-13-45', "'unterminated", '(', ')', 'OR', 'NOT', '!!', '\u0000', 'and', '-1', '1.2.3', "message.sender=''", 'AND AND'];
  return Array.from({ length: 1 + rng.int(6) }, () => rng.pick(parts)).join(rng.pick([' ', '', '  ']));
}

const INTS = ['abc', '-1', '101', '1e3', '99999999999999999999999', '', ' 1', '0x10', '1.5', '-0', '18446744073709551616'];
const BOOLS = ['maybe', '2', 'TRUE', 'yes', '', '-1'];
const BYTES = ['@@@', '%zz', '====', 'AA', 'A', '!!!!', 'AAAA====', '_-_-'];

function queryValue(rng: Rng, p: SwaggerParam | undefined): string {
  if (p?.enum) return rng.pick(['FOO', '99', '-1', `${p.enum[0]}X`, p.enum[0]!.toLowerCase(), '']);
  if (p?.format === 'int64' || p?.format === 'uint64' || p?.type === 'integer') return rng.pick(INTS);
  if (p?.type === 'boolean') return rng.pick(BOOLS);
  if (p?.format === 'byte') return rng.pick(BYTES);
  if (p?.name === 'query' || p?.name === 'events') return badQuery(rng);
  return rng.pick(NASTY);
}

/** A path parameter value that is valid for the dev node (for cases that break something else). */
function validParam(name: string, ctx: { address: string; latest: number }): string {
  switch (name) {
    case 'address': case 'delegator_addr': return ctx.address;
    case 'denom': return 'achain';
    case 'height': return '1';
    case 'hash': return 'AB'.repeat(32);
    case 'name': return 'fee_collector';
    case 'id': return '0';
    case 'address_bytes': return encodeURIComponent(Buffer.alloc(20, 1).toString('base64'));
    case 'key': return '0x' + '00'.repeat(32);
    default: return 'x';
  }
}

function fill(r: SwaggerRoute, ctx: { address: string; latest: number }, over: Record<string, string> = {}): string {
  return r.template.replace(/\{([^}=]+)(=[^}]*)?\}/g, (_m, n: string) => over[n] ?? validParam(n, ctx));
}

/** Raw HTTP that no parser should accept. */
function malformedHttp(rng: Rng, port: string): Buffer {
  const k = rng.int(9);
  const host = `Host: 127.0.0.1:${port}\r\n`;
  if (k === 0) return Buffer.from(rng.bytes(1 + rng.int(200)));
  if (k === 1) return Buffer.from('GET\r\n\r\n');
  if (k === 2) return Buffer.from(`GET / HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
  if (k === 3) return Buffer.from(`GET / HTTP/1.1\r\n${host}Bad Header Name: x\r\n\r\n`);
  if (k === 4) return Buffer.from(`POST / HTTP/1.1\r\n${host}Content-Length: ${rng.pick(['abc', '-1', '1, 2'])}\r\n\r\n{}`);
  if (k === 5) return Buffer.from(`POST / HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
  if (k === 6) return Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
  if (k === 7) return Buffer.from(`GET / HTTP/9.9\r\n${host}\r\n`);
  return Buffer.from(`GET /${rng.text(10)} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`, 'utf8');
}

/** REST: every route broken once per applicable way (wrong method, path param, query, body), then `n` random cases. */
export function restCases(rng: Rng, routes: SwaggerRoute[], ctx: { address: string; latest: number }, n: number): RestCase[] {
  const get = routes.filter((r) => r.method === 'GET');
  const search = get.filter((r) => /\/tx\/v1beta1\/txs$/.test(r.template));
  const req = (method: string, path: string, headers?: Record<string, string>, body?: string): HttpRequest => ({ method, path, headers, body });
  const served = new Set(routes.map((r) => `${r.method} ${r.template}`));
  const unknownRoute = (): RestCase => {
    const path = rng.pick([`/nope/${rng.int(99)}`, `/chain/zz${rng.int(99)}/v1beta1/x`, '/cosmos/bank/v1beta1/nope', '/swagger/x', '/', '/chain', `/cosmos/${urlValue(rng, rng.pick(NASTY))}`, '/chain/bank/v1beta1/balances']);
    return { what: `GET ${path}`, req: req('GET', path), expect: { notImplemented: true } };
  };
  const wrongMethod = (r: SwaggerRoute): RestCase => {
    const method = rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].filter((m) => !served.has(`${m} ${r.template}`)));
    const path = fill(r, ctx);
    return { what: `${method} ${path}`, req: req(method, path, JSON_HEADERS, method === 'GET' ? undefined : '{}'), expect: { notImplemented: true } };
  };
  const badPath = (r: SwaggerRoute): RestCase => {
    const p = rng.pick(r.pathParams);
    const path = fill(r, ctx, { [p.name]: urlValue(rng, rng.chance(0.3) ? rng.text(1 + rng.int(30)) : rng.pick(NASTY)) });
    return { what: `GET ${path}`, req: req('GET', path), expect: { okAllowed: true } };
  };
  const badQueryString = (r: SwaggerRoute): RestCase => {
    const parts = Array.from({ length: 1 + rng.int(4) }, () => {
      const p = rng.chance(0.85) ? rng.pick(r.queryParams) : { name: rng.pick(['foo', 'pagination', 'pagination.', '%zz', '']) };
      const raw = rng.chance(0.1) ? rng.pick(['%zz', '%', '%C0%AF']) : urlValue(rng, queryValue(rng, p));
      return `${p.name}=${raw}${rng.chance(0.2) ? `&${p.name}=${urlValue(rng, queryValue(rng, p))}` : ''}`;
    });
    const path = `${fill(r, ctx)}?${parts.join('&')}`;
    return { what: `GET ${path}`, req: req('GET', path), expect: { okAllowed: true } };
  };
  const badHeight = (r: SwaggerRoute): RestCase => {
    const h = rng.pick(['abc', '-1', '1.5', '99999999999999999999', '0x10', ' ', '1e3', '   7', String(ctx.latest + 100_000), 'é', '0']);
    return { what: `GET ${r.template} height ${h}`, req: req('GET', fill(r, ctx), { 'x-cosmos-block-height': encodeURIComponent(h) }), expect: { okAllowed: true } };
  };
  const badBody = (r: SwaggerRoute): RestCase => {
    const valid = r.bodyFields;
    const k = rng.int(7);
    let body: string;
    if (k === 0) body = JSON.stringify({ [valid[0] ?? 'x']: 'AQID', mode: 'BROADCAST_MODE_SYNC' }).slice(0, 1 + rng.int(30));
    else if (k === 1) body = JSON.stringify(nastyJson(rng));
    else if (k === 2) body = JSON.stringify(Object.fromEntries(valid.filter(() => rng.chance(0.7)).map((f) => [f, nastyJson(rng)])));
    else if (k === 3) body = rng.chance(0.5) ? deepJson(rng.pick([100, 1000, 50_000])) : `{"${valid[0] ?? 'tx'}":${deepJson(rng.pick([100, 5000]), '{"a":', '}')}}`;
    else if (k === 4) body = JSON.stringify({ tx_bytes: rng.pick(BYTES), mode: rng.pick(['BROADCAST_MODE_SYNC', 'FOO', 99, -1, true, {}, 1.5, null, '2']) });
    else if (k === 5) body = JSON.stringify({ tx_bytes: Buffer.from(rng.bytes(rng.int(300))).toString('base64'), mode: rng.pick(['BROADCAST_MODE_SYNC', 'BROADCAST_MODE_ASYNC', 'BROADCAST_MODE_BLOCK', 0]) });
    else body = rng.text(rng.int(100));
    const headers: Record<string, string> = rng.chance(0.8) ? JSON_HEADERS : rng.pick<Record<string, string>>([{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]);
    // the SDK answers undecodable txs to simulate, and broadcast modes it does not serve, with 500 code 2
    return { what: `POST ${r.template} ${body.slice(0, 120)}`, req: req('POST', r.template, headers, body), expect: { okAllowed: true, allow500: /\/tx\/v1beta1\/(txs|simulate)$/.test(r.template) } };
  };
  const badSearch = (): RestCase => {
    const r = rng.pick(search);
    const extra = rng.chance(0.3) ? `&pagination.limit=${rng.pick(INTS)}` : '';
    const path = `${r.template}?${rng.pick(['events', 'query'])}=${encodeURIComponent(badQuery(rng))}${rng.chance(0.3) ? `&events=${encodeURIComponent(badQuery(rng))}` : ''}${extra}`;
    return { what: `GET ${path}`, req: req('GET', path), expect: { okAllowed: true } };
  };
  const every = routes.flatMap((r) => [wrongMethod(r), ...(r.pathParams.length ? [badPath(r)] : []), ...(r.queryParams.length ? [badQueryString(r)] : []),
    ...(r.method === 'POST' ? [badBody(r), badBody(r)] : [badHeight(r)])]);
  const random = mix<RestCase>(rng, n, [
    [1, unknownRoute],
    [1, () => wrongMethod(rng.pick(routes))],
    [3, () => badPath(rng.pick(get.filter((r) => r.pathParams.length > 0)))],
    [3, () => badQueryString(rng.pick(get.filter((r) => r.queryParams.length > 0)))],
    [1, () => badHeight(rng.pick(get))],
    [3, () => badBody(rng.pick(routes.filter((r) => r.method === 'POST')))],
    [2, badSearch],
    [0.5, () => {
      const raw = malformedHttp(rng, '1317');
      return { what: `raw ${raw.toString('latin1').slice(0, 80)}`, req: raw, expect: { okAllowed: true } };
    }],
  ]);
  const huge = ['/chain/tx/v1beta1/simulate', '/cosmos/tx/v1beta1/txs'].map((path): RestCase => ({ what: `POST ${path}: body above rpc-max-body-bytes`, req: req('POST', path, JSON_HEADERS, `{"tx_bytes":"${'A'.repeat(1_200_000)}"}`), expect: {} }));
  return [...every, ...random, ...huge];
}

/** A value for a CometBFT RPC argument, by its name: the wrong JSON type, out of range, bad hex or base64. */
function cometArg(rng: Rng, name: string): unknown {
  if (/height|page|limit|chunk|Height/.test(name)) return rng.pick(['5', 5, -1, '-1', '99999999999999999999', '0x10', 'abc', 1.5, '', true, {}, [], null, '1e3', '0', '9007199254740993']);
  if (name === 'hash') return rng.pick(['zz', 'ABCD', '@@@', 'A'.repeat(63), '', 5, Buffer.from(rng.bytes(32)).toString('base64'), Buffer.from(rng.bytes(32)).toString('hex'), null]);
  if (name === 'tx') return rng.pick(['@@@', '', 5, {}, Buffer.from(rng.bytes(rng.int(200))).toString('base64'), 'AQ', '====']);
  if (name === 'query') return rng.chance(0.8) ? badQuery(rng) : nastyJson(rng);
  if (name === 'data') return rng.pick(['zz', '0x12', 'ABC', 5, '', Buffer.from(rng.bytes(20)).toString('hex')]);
  return nastyJson(rng);
}

const WS_ONLY = ['subscribe', 'unsubscribe', 'unsubscribe_all'];
const IDS: unknown[] = ['abc', '', 0, -5, 1.5, true, false, { a: 1 }, [1], null, 2 ** 64, 'ü', 123456789012];

/** CometBFT RPC over HTTP: every method with bad params four times, then `n` random cases. */
export function cometCases(rng: Rng, methods: { name: string; args: string[] }[], n: number): RpcCase[] {
  const post = (body: string): HttpRequest => ({ method: 'POST', path: '/', headers: JSON_HEADERS, body });
  const call = (m: { name: string; args: string[] }): Record<string, unknown> => {
    const k = rng.int(5);
    const params = k === 0 ? m.args.map((a) => cometArg(rng, a)).slice(0, rng.int(m.args.length + 2))
      : k === 1 ? nastyJson(rng)
      : Object.fromEntries(m.args.filter(() => rng.chance(0.7)).map((a) => [a, cometArg(rng, a)]));
    return { jsonrpc: '2.0', id: rng.int(1000), method: m.name, params };
  };
  const every = methods.flatMap((m) => [0, 1, 2, 3].map((): RpcCase => { const body = JSON.stringify(call(m)); return { what: body, req: post(body) }; }));
  return every.concat(mix<RpcCase>(rng, n, [
    [2, () => {
      const valid = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: {} });
      const body = rng.pick([valid.slice(0, 1 + rng.int(valid.length - 2)), rng.text(1 + rng.int(50)), `${valid}x`, '\ufeff' + valid.replace('1', 'NaN'), "{'a':1}", '{"id":1,"method":"status",}']);
      return { what: body, req: post(body) };
    }],
    [2, () => {
      const e: Record<string, unknown> = { method: rng.chance(0.7) ? rng.pick(methods).name : rng.pick(NASTY) };
      if (rng.chance(0.8)) e.id = rng.pick(IDS);
      if (rng.chance(0.8)) e.jsonrpc = rng.pick(['2.0', '1.0', 2, null, '', {}]);
      if (rng.chance(0.5)) e.params = nastyJson(rng);
      const body = JSON.stringify(e);
      return { what: body, req: post(body), emptyOk: e.id === undefined || e.id === null };
    }],
    [1, () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: rng.pick([...WS_ONLY, 'Status', ' status', 'status\u0000', 'nope', '', 'constructor', '__proto__', 'toString', 'hasOwnProperty', rng.text(8)]) });
      return { what: body, req: post(body) };
    }],
    [5, () => {
      const body = JSON.stringify(call(rng.pick(methods)));
      return { what: body, req: post(body) };
    }],
    [2, () => {
      const k = rng.int(4);
      const entries = k === 0 ? [] : Array.from({ length: k === 1 ? 11 + rng.int(40) : 1 + rng.int(10) }, () => (k === 3 && rng.chance(0.3) ? nastyJson(rng) : call(rng.pick(methods))));
      const body = JSON.stringify(entries);
      return { what: body, req: post(body), emptyOk: entries.every((e) => e === null || (e && typeof e === 'object' && !Array.isArray(e) && ((e as { id?: unknown }).id === undefined || (e as { id?: unknown }).id === null))) };
    }],
    [3, () => {
      const m = rng.chance(0.9) ? rng.pick(methods) : { name: rng.pick([...WS_ONLY, 'nope', 'status/x', 'websocket', '%zz']), args: ['query'] };
      const value = (a: string): string => { const v = rng.chance(0.5) ? cometArg(rng, a) : rng.pick(NASTY); return typeof v === 'string' ? v : JSON.stringify(v) ?? ''; };
      const args = (m.args.length ? m.args : ['x']).filter(() => rng.chance(0.7)).map((a) => `${a}=${urlValue(rng, value(a))}`);
      const path = `/${m.name}${args.length ? '?' + args.join('&') : ''}`;
      return { what: `GET ${path}`, req: { method: 'GET', path }, form: 'uri' };
    }],
    [0.3, () => {
      const method = rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS']);
      return { what: `${method} /`, req: { method, path: '/', headers: JSON_HEADERS, body: '{"jsonrpc":"2.0","id":1,"method":"health"}' } };
    }],
    [0.5, () => {
      const raw = malformedHttp(rng, '26657');
      return { what: `raw ${raw.toString('latin1').slice(0, 80)}`, req: raw };
    }],
  ])).concat([1_000_001, 3_000_000].map((size) => ({ what: `body of ${size} bytes`, req: post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'check_tx', params: { tx: 'A'.repeat(size) } })) })));
}

const ADDRS = ['0xzz', '0x12', 'chain1xyz', 5, null, {}, '0x' + 'f'.repeat(41), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', ''];
const TAGS = ['latest', 'pending', 'earliest', 'safe', 'finalized', '0x0', '0xffffffffffffffff', '-1', 'bogus', 1, {}, { blockHash: '0x00' }, { blockNumber: '0xzz' },
  { blockHash: '0x' + 'ab'.repeat(32), requireCanonical: 'x' }, { blockNumber: '0x1', blockHash: '0x' + 'ab'.repeat(32) }, null, [], '0x', '0x' + '1'.repeat(80)];
const HASHES = ['0x12', '0xzz', 5, null, '0x' + 'ab'.repeat(32), '0x' + 'ab'.repeat(33), 'ab'.repeat(32)];
const DATA = ['0x', '0xzz', '0x0', 5, null, '0xf8', '0x02f8', '0xc0'];

function ethArg(rng: Rng, kind: string): unknown {
  if (rng.chance(0.15)) return nastyJson(rng);
  switch (kind) {
    case 'a': return rng.pick(ADDRS);
    case 't': return rng.pick(TAGS);
    case 'h': return rng.pick(HASHES);
    case 'd': return rng.chance(0.3) ? '0x' + Buffer.from(rng.bytes(rng.int(60))).toString('hex') : rng.pick(DATA);
    case 'q': return rng.pick(['0x', '0xzz', '-0x1', '0x' + 'f'.repeat(70), 5, -1, '10', null]);
    case 'b': return rng.pick([true, 'yes', 1, null]);
    case 'c': return { to: rng.pick(ADDRS), from: rng.pick(ADDRS), data: rng.pick(DATA), value: ethArg(rng, 'q'), gas: ethArg(rng, 'q'), gasPrice: ethArg(rng, 'q') };
    case 'f': return { fromBlock: rng.pick(TAGS), toBlock: rng.pick(TAGS), address: rng.pick([...ADDRS, [5]]), topics: rng.pick([[5], [[5]], ['0x12'], 'x', [null, ['0xzz']]]), blockHash: rng.pick(HASHES) };
    case 's': return rng.pick(['foo', 5, null, [], 'logs', 'newHeads', 'newPendingTransactions', 'syncing', 'NEWHEADS']);
    case 'p': return rng.pick([5, [1, 'a'], [200], [-1], [50, 10], null]);
    default: return rng.pick(['0x1234', '0x' + 'ab'.repeat(16), 5, null, {}]);
  }
}

/** Methods and their argument kinds (a address, t block tag, h hash, d data, q quantity, b bool, c call, f filter, s sub kind, p percentiles, i id). */
export const ETH_METHODS: [string, string][] = [
  ['eth_chainId', ''], ['eth_blockNumber', ''], ['eth_getBalance', 'at'], ['eth_getTransactionCount', 'at'], ['eth_getCode', 'at'], ['eth_getStorageAt', 'aqt'],
  ['eth_call', 'ct'], ['eth_estimateGas', 'ct'], ['eth_gasPrice', ''], ['eth_maxPriorityFeePerGas', ''], ['eth_feeHistory', 'qtp'], ['eth_sendRawTransaction', 'd'],
  ['eth_getTransactionByHash', 'h'], ['eth_getTransactionReceipt', 'h'], ['eth_getBlockByNumber', 'tb'], ['eth_getBlockByHash', 'hb'],
  ['eth_getBlockTransactionCountByNumber', 't'], ['eth_getBlockTransactionCountByHash', 'h'], ['eth_getTransactionByBlockNumberAndIndex', 'tq'],
  ['eth_getTransactionByBlockHashAndIndex', 'hq'], ['eth_getLogs', 'f'], ['eth_newFilter', 'f'], ['eth_newBlockFilter', ''], ['eth_newPendingTransactionFilter', ''],
  ['eth_getFilterChanges', 'i'], ['eth_getFilterLogs', 'i'], ['eth_uninstallFilter', 'i'], ['eth_subscribe', 'sf'], ['eth_unsubscribe', 'i'], ['eth_syncing', ''],
  ['net_version', ''], ['net_listening', ''], ['web3_clientVersion', ''], ['web3_sha3', 'd'], ['txpool_status', ''], ['txpool_content', ''], ['eth_sign', 'ad'],
];

/** One eth request object with bad arguments (for `method`, else a random one). */
function ethRequest(rng: Rng, method?: [string, string]): Record<string, unknown> {
  const [name, kinds] = method ?? rng.pick(ETH_METHODS);
  const k = rng.int(6);
  const params = k === 0 ? nastyJson(rng) : [...kinds].map((c) => ethArg(rng, c)).slice(0, k === 1 ? rng.int(kinds.length + 1) : kinds.length + (k === 2 ? 1 : 0));
  return { jsonrpc: '2.0', id: rng.int(1_000_000), method: name, params };
}

/** Ethereum JSON-RPC over HTTP: every method with bad arguments three times, then `n` random cases. */
export function ethCases(rng: Rng, n: number): RpcCase[] {
  const post = (body: string): HttpRequest => ({ method: 'POST', path: '/', headers: JSON_HEADERS, body });
  const every = ETH_METHODS.flatMap((m) => [0, 1, 2].map((): RpcCase => { const body = JSON.stringify(ethRequest(rng, m)); return { what: body, req: post(body) }; }));
  return every.concat(mix<RpcCase>(rng, n, [
    [1, () => { const b = rng.pick(['{oops', '', ' ', rng.text(30), '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', deepJson(50_000)]); return { what: b.slice(0, 80), req: post(b) }; }],
    [1.5, () => {
      const e: Record<string, unknown> = { method: rng.chance(0.7) ? rng.pick(ETH_METHODS)[0] : rng.pick([...NASTY, 'eth_coinbase', 'debug_nope', 'admin_peers', '__proto__']) };
      if (rng.chance(0.8)) e.id = rng.pick(IDS);
      if (rng.chance(0.8)) e.jsonrpc = rng.pick(['2.0', '1.0', 2, null]);
      if (rng.chance(0.5)) e.params = nastyJson(rng);
      const body = JSON.stringify(e);
      return { what: body, req: post(body), emptyOk: e.id === undefined };
    }],
    [8, () => { const body = JSON.stringify(ethRequest(rng)); return { what: body, req: post(body) }; }],
    [1.5, () => {
      const k = rng.int(3);
      const entries = k === 0 ? [] : Array.from({ length: k === 1 ? 1001 : 1 + rng.int(20) }, () => (rng.chance(0.2) ? nastyJson(rng) : ethRequest(rng)));
      const body = JSON.stringify(entries);
      return { what: body.slice(0, 200), req: post(body) };
    }],
    [0.3, () => { const method = rng.pick(['GET', 'PUT', 'DELETE']); return { what: `${method} /`, req: { method, path: rng.pick(['/', '/x', '/%zz']) } }; }],
    [0.3, () => { const raw = malformedHttp(rng, '8545'); return { what: `raw ${raw.toString('latin1').slice(0, 80)}`, req: raw }; }],
  ])).concat([2_700_000, 4_000_000].map((n) => ({ what: `body of ${2 * n} bytes`, req: post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x' + 'ab'.repeat(n)] })) })));
}

export interface WsFrame { data: Buffer | string; binary: boolean; id?: string }

/** Garbage and bad requests for the CometBFT /websocket; frames that are requests with an id carry it. */
export function cometWsFrames(rng: Rng, n: number): WsFrame[] {
  let seq = 0;
  const req = (method: string, params: unknown): WsFrame => { const id = `w${seq++}`; return { data: JSON.stringify({ jsonrpc: '2.0', id, method, params }), binary: false, id }; };
  return mix<WsFrame>(rng, n, [
    [2, () => (rng.chance(0.5) ? { data: rng.text(1 + rng.int(80)), binary: rng.chance(0.3) } : { data: Buffer.from(rng.bytes(1 + rng.int(80))), binary: true })],
    [1, () => ({ data: rng.pick(['[]', '5', 'null', '"x"', '[{"jsonrpc":"2.0","id":1,"method":"health"}]', '{"jsonrpc":"2.0","id":1.5,"method":"health"}', '{"jsonrpc":"2.0","id":1,"method":"hea']), binary: false })],
    [3, () => req('subscribe', rng.chance(0.7) ? { query: badQuery(rng) } : rng.pick([{ query: 5 }, {}, [], 'x', { query: null }]))],
    [2, () => req('subscribe', { query: `tm.event='${rng.pick(['NewBlock', 'Tx', 'Vote', 'NewRound', 'Lock', 'Polka', 'NewBlockHeader'])}' AND x.y${rng.int(50)} EXISTS` })],
    [1, () => req('unsubscribe', rng.chance(0.7) ? { query: `tm.event='Nope${rng.int(9)}'` } : { query: badQuery(rng) })],
    [0.5, () => req('unsubscribe_all', nastyJson(rng))],
    [1, () => req(rng.pick(['nope', 'Subscribe', '', 'status ']), {})],
    [2, () => req(rng.pick(['block', 'tx', 'tx_search', 'abci_query', 'validators', 'blockchain']), { height: cometArg(rng, 'height'), hash: cometArg(rng, 'hash'), query: cometArg(rng, 'query'), minHeight: cometArg(rng, 'minHeight') })],
  ]);
}

/** Garbage and bad requests for the Ethereum websocket. */
export function ethWsFrames(rng: Rng, n: number): WsFrame[] {
  let seq = 0;
  const req = (method: string, params: unknown): WsFrame => { const id = `e${seq++}`; return { data: JSON.stringify({ jsonrpc: '2.0', id, method, params }), binary: false, id }; };
  return mix<WsFrame>(rng, n, [
    [2, () => (rng.chance(0.5) ? { data: rng.text(1 + rng.int(80)), binary: rng.chance(0.3) } : { data: Buffer.from(rng.bytes(1 + rng.int(80))), binary: true })],
    [3, () => req('eth_subscribe', [ethArg(rng, 's'), ethArg(rng, 'f')].slice(0, 1 + rng.int(2)))],
    [2, () => req('eth_unsubscribe', [ethArg(rng, 'i')])],
    [1, () => req(rng.pick(['eth_getFilterChanges', 'eth_uninstallFilter', 'eth_getFilterLogs']), [ethArg(rng, 'i')])],
    [3, () => { const r = ethRequest(rng); const id = `e${seq++}`; return { data: JSON.stringify({ ...r, id }), binary: false, id }; }],
    [0.5, () => ({ data: JSON.stringify(Array.from({ length: 1 + rng.int(5) }, () => ethRequest(rng))), binary: false })],
  ]);
}

/** gRPC calls: garbage bytes to every method (`per` each), unknown methods, bad height metadata, one oversized message. */
export function grpcGarbage(rng: Rng, methods: string[], per: number): { path: string; bytes: Uint8Array; height?: string; unknown?: boolean }[] {
  const out: { path: string; bytes: Uint8Array; height?: string; unknown?: boolean }[] = [];
  for (const path of methods) {
    for (let i = 0; i < per; i++) {
      const k = rng.int(4);
      const bytes = k === 0 ? rng.bytes(1 + rng.int(100)) : k === 1 ? Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]) : k === 2 ? Uint8Array.from([rng.int(256), rng.int(256)]) : new Uint8Array();
      out.push({ path, bytes, height: rng.chance(0.2) ? rng.pick(['abc', '-1', '99999999999', '1.5', '']) : undefined });
    }
  }
  for (let i = 0; i < 30; i++) out.push({ path: rng.pick(['/nope.Service/X', `${rng.pick(methods)}Nope`, '/chain.bank.v1beta1.Query/', '/cosmos.bank.v1beta1.Msg/Send', `/x${rng.int(1e6)}.Y/Z`]), bytes: rng.bytes(rng.int(20)), unknown: true });
  out.push({ path: '/cosmos.tx.v1beta1.Service/Simulate', bytes: new Uint8Array(11 * 1024 * 1024) });
  return out;
}

