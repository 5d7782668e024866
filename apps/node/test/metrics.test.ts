import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { parse as parseToml } from 'smol-toml';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig, FLAG_TARGETS } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';
import { createLogger } from '@chain/server';
import { ensureCometbft } from '@chain/cometbft';
import { cometHome, cometMetricsAddresses, prepareCometHome } from '../src/comet-node.js';

/** `name{labels} value` lines of a scrape → value by the line's name and label text */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

describe('metrics and logs config', () => {
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'chaind-mcfg-'));
    initHome({ home, dev: true });
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('config.toml has CometBFT\'s [instrumentation] and log keys, off and plain by default', () => {
    const toml = parseToml(readFileSync(join(home, 'config', 'config.toml'), 'utf8')) as any;
    expect(toml.log_level).to.equal('info');
    expect(toml.log_format).to.equal('plain');
    expect(toml.instrumentation).to.deep.equal({ prometheus: false, prometheus_listen_addr: ':26660', namespace: 'cometbft', app_prometheus_listen_addr: '' });
    const cfg = loadConfig(home);
    expect(cfg.config.instrumentation.prometheus).to.equal(false);
    expect(cfg.config.log_format).to.equal('plain');
  });

  it('flags: --instrumentation.prometheus, --instrumentation.prometheus_listen_addr, --log_level, --log_format', () => {
    for (const f of ['instrumentation.prometheus', 'instrumentation.prometheus_listen_addr', 'log_level', 'log_format']) expect(FLAG_TARGETS).to.have.property(f);
    const cfg = applyFlags(loadConfig(home), {
      'instrumentation.prometheus': true, 'instrumentation.prometheus_listen_addr': '127.0.0.1:9999', log_level: 'info,rest:debug', log_format: 'json',
    });
    expect(cfg.config.instrumentation).to.include({ prometheus: true, prometheus_listen_addr: '127.0.0.1:9999' });
    expect(cfg.config.log_level).to.equal('info,rest:debug');
    expect(cfg.config.log_format).to.equal('json');
    expect(() => applyFlags(loadConfig(home), { log_level: 'loud' })).to.throw(/invalid config.toml: log_level: invalid log level/);
    expect(() => applyFlags(loadConfig(home), { log_format: 'xml' })).to.throw(/log_format/);
    expect(() => applyFlags(loadConfig(home), { 'instrumentation.prometheus': 'yes' })).to.throw(/true or false/);
  });
});

describe('metrics addresses in CometBFT mode', () => {
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'chaind-mcomet-'));
    initHome({ home, dev: true });
  });
  after(() => rmSync(home, { recursive: true, force: true }));
  const addrs = (flags: Record<string, string>) => cometMetricsAddresses(applyFlags(loadConfig(home), { 'instrumentation.prometheus': true, ...flags }));

  it('CometBFT on prometheus_listen_addr; the app on app_prometheus_listen_addr, by default the next port', () => {
    expect(addrs({})).to.deep.equal({ comet: ':26660', app: ':26661' });
    expect(addrs({ 'instrumentation.prometheus_listen_addr': '127.0.0.1:9100' })).to.deep.equal({ comet: '127.0.0.1:9100', app: '127.0.0.1:9101' });
    expect(addrs({ 'instrumentation.prometheus_listen_addr': 'tcp://127.0.0.1:0' })).to.deep.equal({ comet: '127.0.0.1:0', app: '127.0.0.1:0' });
    expect(addrs({ 'instrumentation.app_prometheus_listen_addr': '127.0.0.1:9200' })).to.deep.equal({ comet: ':26660', app: '127.0.0.1:9200' });
    expect(FLAG_TARGETS).to.have.property('instrumentation.app_prometheus_listen_addr');
  });

  it('refuses one listener for both, and a port with no next one', () => {
    expect(() => addrs({ 'instrumentation.app_prometheus_listen_addr': ':26660' })).to.throw(/port of their own/);
    expect(() => addrs({ 'instrumentation.prometheus_listen_addr': '127.0.0.1:9100', 'instrumentation.app_prometheus_listen_addr': '0.0.0.0:9100' })).to.throw(/port of their own/);
    expect(() => addrs({ 'instrumentation.prometheus_listen_addr': '127.0.0.1:65535' })).to.throw(/app_prometheus_listen_addr/);
  });

  it('writes CometBFT\'s [instrumentation] into its config.toml: on with the address and namespace, or off', async function () {
    this.timeout(20 * 60_000); // ensureCometbft builds the binary when .cache/cometbft has none (minutes)
    const bin = await ensureCometbft({ log: () => undefined });
    const read = () => (parseToml(readFileSync(join(cometHome(home), 'config', 'config.toml'), 'utf8')) as any).instrumentation;
    prepareCometHome(bin, applyFlags(loadConfig(home), { 'instrumentation.prometheus': true, 'instrumentation.prometheus_listen_addr': '127.0.0.1:9100' }));
    expect(read()).to.include({ prometheus: true, prometheus_listen_addr: '127.0.0.1:9100', namespace: 'cometbft' });
    prepareCometHome(bin, loadConfig(home));
    expect(read().prometheus).to.equal(false);
  });
});

describe('metrics (in-process node)', function () {
  this.timeout(30_000);
  let home: string;
  let node: Node;
  const lines: string[] = [];
  let metricsUrl: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chaind-metrics-'));
    initHome({ home, dev: true });
    const cfg = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.address': 'tcp://127.0.0.1:0', 'grpc.address': '127.0.0.1:0', 'consensus.timeout_commit': '50ms',
      'json-rpc.address': '127.0.0.1:0', 'json-rpc.ws-address': '127.0.0.1:0',
      'instrumentation.prometheus': true, 'instrumentation.prometheus_listen_addr': '127.0.0.1:0',
      log_level: 'info,rpc:debug,json-rpc:error', log_format: 'json',
    });
    node = await Node.create(cfg, createLogger('info', 'node', (l) => lines.push(l)));
    await node.start();
    metricsUrl = `http://127.0.0.1:${node.metricsServer!.port}/metrics`;
    while (node.engine.latestHeight < 3) await new Promise((r) => setTimeout(r, 20));
  });

  after(async () => {
    await node?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const scrape = async (): Promise<Map<string, number>> => {
    const r = await fetch(metricsUrl);
    expect(r.status).to.equal(200);
    return samples(await r.text());
  };

  it('reports the height and blocks of the embedded engine', async () => {
    const h0 = node.engine.latestHeight;
    while (node.engine.latestHeight < h0 + 2) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    const s = await scrape();
    expect(s.get('cometbft_consensus_latest_block_height')).to.be.greaterThanOrEqual(h0 + 1);
    expect(s.get('cometbft_consensus_height')).to.equal(s.get('cometbft_consensus_latest_block_height')! + 1);
    expect(s.get('cometbft_consensus_validators')).to.equal(1);
    expect(s.get('cometbft_consensus_validators_power')).to.be.greaterThan(0);
    expect(s.get('cometbft_consensus_block_interval_seconds_count')).to.be.greaterThan(0);
    expect(s.get('cometbft_abci_connection_method_timing_seconds_count{method="finalize_block",type="sync"}')).to.be.greaterThan(0);
    expect(s.get('cometbft_abci_connection_method_timing_seconds_count{method="commit",type="sync"}')).to.be.greaterThan(0);
    expect(s.get('cometbft_state_block_processing_time_count')).to.be.greaterThan(0);
    expect(s.get('chain_block_txs_count')).to.be.greaterThan(0);
  });

  it('counts requests per transport with route templates and method names, errors apart', async () => {
    const rest = `http://127.0.0.1:${node.rest!.port}`;
    const rpc = `http://127.0.0.1:${node.rpc!.port}`;
    const eth = `http://127.0.0.1:${node.jsonRpc!.port}`;
    await fetch(`${rest}/cosmos/bank/v1beta1/balances/chain1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq`);
    await fetch(`${rest}/chain/bank/v1beta1/params`);
    await fetch(`${rest}/no/such/route/12345`);
    await fetch(`${rpc}/status`);
    await fetch(rpc, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no_such_method' }) });
    await fetch(eth, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    await fetch(eth, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_bogus_' + Date.now(), params: [] }) });
    const s = await scrape();
    expect(s.get('chain_requests_total{transport="rest",method="GET /cosmos/bank/v1beta1/balances/{address}"}')).to.equal(1);
    expect(s.get('chain_requests_total{transport="rest",method="GET /chain/bank/v1beta1/params"}')).to.equal(1);
    expect(s.get('chain_requests_total{transport="rest",method="unmatched"}')).to.equal(1);
    expect(s.get('chain_request_errors_total{transport="rest",method="unmatched"}')).to.equal(1);
    expect(s.get('chain_requests_total{transport="cometbft_rpc",method="status"}')).to.be.greaterThanOrEqual(1);
    expect(s.get('chain_request_errors_total{transport="cometbft_rpc",method="unknown"}')).to.equal(1);
    expect(s.get('chain_requests_total{transport="eth_jsonrpc",method="eth_chainId"}')).to.equal(1);
    expect(s.get('chain_request_errors_total{transport="eth_jsonrpc",method="unknown"}')).to.equal(1);
    for (const k of s.keys()) expect(k).to.not.include('chain1qqq'); // never a raw path
  });

  it('keeps the websocket connection and subscription gauges', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${node.rpc!.port}/websocket`);
    await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
    const reply = new Promise((r) => ws.once('message', r));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='NewBlock'" } }));
    await reply;
    let s = await scrape();
    expect(s.get('chain_websocket_connections{transport="cometbft_rpc"}')).to.equal(1);
    expect(s.get('chain_websocket_subscriptions{transport="cometbft_rpc"}')).to.equal(1);
    expect(s.get('chain_requests_total{transport="cometbft_rpc",method="subscribe"}')).to.equal(1);
    ws.close();
    const deadline = Date.now() + 5000;
    do {
      await new Promise((r) => setTimeout(r, 50));
      s = await scrape();
    } while (s.get('chain_websocket_connections{transport="cometbft_rpc"}') !== 0 && Date.now() < deadline);
    expect(s.get('chain_websocket_connections{transport="cometbft_rpc"}')).to.equal(0);
    expect(s.get('chain_websocket_subscriptions{transport="cometbft_rpc"}')).to.equal(0);
  });

  it('logs JSON lines with level, module and msg, at each module\'s level', () => {
    expect(lines.length).to.be.greaterThan(0);
    const recs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of recs) {
      expect(r.level).to.be.oneOf(['debug', 'info', 'warn', 'error']);
      expect(r.module).to.be.a('string');
      expect(r.msg).to.be.a('string');
    }
    expect(recs.some((r) => r.module === 'metrics' && String(r.msg).includes('/metrics'))).to.equal(true);
    expect(recs.some((r) => r.module === 'json-rpc' && r.level === 'info')).to.equal(false); // json-rpc:error
  });
});
