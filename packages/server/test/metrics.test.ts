import { expect } from 'chai';
import type { AbciApplication, FinalizeBlockResponse } from '@chain/app';
import { NodeMetrics, configureLogger, createLogger, instrumentAbciApp, parseLogLevel, startMetricsServer } from '../src/index.js';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

async function value(m: NodeMetrics, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = m.registry.getSingleMetric(name);
  if (!metric) return undefined;
  const got = await metric.get();
  const v = got.values.find((x) => Object.entries(labels).every(([k, val]) => String((x.labels as Record<string, unknown>)[k]) === val)
    && (!('metricName' in x) || x.metricName === name || x.metricName === undefined));
  return v?.value;
}

type Val = { metricName?: string; labels: Record<string, string | number>; value: number };
async function vals(m: NodeMetrics, name: string): Promise<Val[]> {
  return (await m.registry.getSingleMetric(name)!.get()).values as Val[];
}

function stubApp(resp: FinalizeBlockResponse): AbciApplication & { lastHeight: number; extra(): number } {
  return {
    lastHeight: 7,
    extra() { return this.lastHeight; },
    info: async () => ({}) as never,
    initChain: async () => ({}) as never,
    checkTx: async () => ({ code: 0, codespace: '', log: '', info: '', data: new Uint8Array(), gasWanted: 0, gasUsed: 0, events: [] }),
    prepareProposal: async (r) => ({ txs: r.txs }),
    processProposal: async () => ({ status: 'ACCEPT' }),
    finalizeBlock: async () => resp,
    commit: async () => ({ retainHeight: 0 }),
    query: async () => ({}) as never,
  };
}

describe('NodeMetrics', () => {
  it('names every metric as Prometheus allows, CometBFT\'s and the SDK\'s names included', async () => {
    const m = new NodeMetrics({ processMetrics: false });
    const names = (await m.registry.getMetricsAsJSON()).map((x) => x.name);
    for (const n of names) expect(n).to.match(NAME);
    for (const n of [
      'cometbft_consensus_height', 'cometbft_consensus_latest_block_height', 'cometbft_consensus_block_interval_seconds',
      'cometbft_consensus_num_txs', 'cometbft_consensus_total_txs', 'cometbft_consensus_block_size_bytes',
      'cometbft_consensus_validators', 'cometbft_consensus_validators_power', 'cometbft_mempool_size', 'cometbft_mempool_size_bytes',
      'cometbft_mempool_tx_size_bytes', 'cometbft_mempool_failed_txs', 'cometbft_mempool_rejected_txs', 'cometbft_mempool_recheck_times',
      'cometbft_state_block_processing_time', 'cometbft_abci_connection_method_timing_seconds',
      'tx_count', 'tx_successful', 'tx_failed', 'tx_msg_ethereum_tx_gas_used_total',
      'chain_block_txs', 'chain_block_gas_used', 'chain_evm_block_gas_used', 'chain_requests_total', 'chain_request_errors_total',
      'chain_request_duration_seconds', 'chain_websocket_connections', 'chain_websocket_subscriptions',
    ]) expect(names, n).to.include(n);
  });

  it('takes the namespace of config.toml and refuses one that is not a metric name', async () => {
    const m = new NodeMetrics({ namespace: 'tendermint', processMetrics: false });
    expect(m.registry.getSingleMetric('tendermint_consensus_height')).to.not.equal(undefined);
    expect(() => new NodeMetrics({ namespace: 'bad-name' })).to.throw(/namespace/);
  });

  it('serves no name CometBFT serves when CometBFT runs consensus', async () => {
    const m = new NodeMetrics({ consensusMetrics: false });
    const names = (await m.registry.getMetricsAsJSON()).map((x) => x.name);
    // CometBFT's own families (its namespace) and its Go process collector's process_*
    expect(names.filter((n) => n.startsWith('cometbft_') || n.startsWith('process_'))).to.deep.equal([]);
    expect(names).to.include('chain_abci_method_timing_seconds');
    expect(names).to.include('chain_process_cpu_seconds_total');
    expect(names).to.include('tx_count');
    m.observeBlock({ height: 1, time: new Date(), numTxs: 0, sizeBytes: 0 }); // harmless
    const app = instrumentAbciApp(stubApp({
      events: [], validatorUpdates: [], appHash: new Uint8Array(),
      txResults: [{ code: 0, codespace: '', log: '', info: '', data: new Uint8Array(), gasWanted: 1, gasUsed: 1, events: [] }],
    }), m);
    await app.finalizeBlock({ txs: [new Uint8Array(1)] } as never);
    const text = await m.text();
    expect(text).to.not.include('cometbft_');
    expect(text).to.include('chain_abci_method_timing_seconds_count{method="finalize_block",type="sync"} 1');
    expect(text).to.include('tx_count 1');
    // the embedded engine's registry keeps CometBFT's names (it plays CometBFT's part)
    const e = (await new NodeMetrics().registry.getMetricsAsJSON()).map((x) => x.name);
    expect(e).to.include.members(['cometbft_abci_connection_method_timing_seconds', 'cometbft_state_block_processing_time', 'process_cpu_seconds_total']);
  });

  it('bounds the method label per transport', async () => {
    const m = new NodeMetrics({ processMetrics: false, maxMethodsPerTransport: 2 });
    for (const method of ['a', 'b', 'c', 'd', 'a']) m.startRequest('rest', method)(false);
    m.startRequest('grpc', 'x')(true);
    m.startRequest('rest', 'x'.repeat(300))(false);
    expect(await value(m, 'chain_requests_total', { transport: 'rest', method: 'a' })).to.equal(2);
    expect(await value(m, 'chain_requests_total', { transport: 'rest', method: 'b' })).to.equal(1);
    expect(await value(m, 'chain_requests_total', { transport: 'rest', method: 'other' })).to.equal(3);
    expect(await value(m, 'chain_requests_total', { transport: 'grpc', method: 'x' })).to.equal(1);
    expect(await value(m, 'chain_request_errors_total', { transport: 'grpc', method: 'x' })).to.equal(1);
    const series = await vals(m, 'chain_requests_total');
    expect(series).to.have.length(4);
  });

  it('counts a request once and keeps websocket gauges', async () => {
    const m = new NodeMetrics({ processMetrics: false });
    const done = m.startRequest('eth_jsonrpc', 'eth_chainId');
    done(false);
    done(true);
    expect(await value(m, 'chain_requests_total', { method: 'eth_chainId' })).to.equal(1);
    expect(await value(m, 'chain_request_errors_total', { method: 'eth_chainId' })).to.equal(undefined);
    const gone = m.wsConnected('cometbft_rpc');
    m.wsConnected('cometbft_rpc');
    gone();
    gone();
    expect(await value(m, 'chain_websocket_connections', { transport: 'cometbft_rpc' })).to.equal(1);
    let subs = 3;
    const off = m.addWsSubscriptionSource('eth_jsonrpc', () => subs);
    expect(await value(m, 'chain_websocket_subscriptions', { transport: 'eth_jsonrpc' })).to.equal(3);
    subs = 5;
    expect(await value(m, 'chain_websocket_subscriptions', { transport: 'eth_jsonrpc' })).to.equal(5);
    off();
  });

  it('observes blocks: height, interval, txs, size, validators', async () => {
    const m = new NodeMetrics({ processMetrics: false });
    m.observeBlock({ height: 4, time: new Date(10_000), numTxs: 2, sizeBytes: 1500, validators: [{ votingPower: 10 }, { votingPower: 5 }] });
    m.observeBlock({ height: 5, time: new Date(11_500), numTxs: 3, sizeBytes: 2000 });
    expect(await value(m, 'cometbft_consensus_height')).to.equal(6);
    expect(await value(m, 'cometbft_consensus_latest_block_height')).to.equal(5);
    expect(await value(m, 'cometbft_consensus_total_txs')).to.equal(5);
    expect(await value(m, 'cometbft_consensus_num_txs')).to.equal(3);
    expect(await value(m, 'cometbft_consensus_validators')).to.equal(2);
    expect(await value(m, 'cometbft_consensus_validators_power')).to.equal(15);
    expect(await value(m, 'cometbft_consensus_chain_size_bytes')).to.equal(3500);
    const h = await vals(m, 'cometbft_consensus_block_interval_seconds');
    expect(h.find((v) => v.metricName === 'cometbft_consensus_block_interval_seconds_sum')!.value).to.equal(1.5);
    expect(h.find((v) => v.metricName === 'cometbft_consensus_block_interval_seconds_count')!.value).to.equal(1);
  });

  it('times the ABCI methods of a wrapped app and reads txs, gas and EVM gas of FinalizeBlock', async () => {
    const m = new NodeMetrics({ processMetrics: false });
    const ok = (gasUsed: number, events: FinalizeBlockResponse['txResults'][0]['events'] = []) => ({
      code: 0, codespace: '', log: '', info: '', data: new Uint8Array(), gasWanted: gasUsed, gasUsed, events,
    });
    const app = instrumentAbciApp(stubApp({
      events: [], validatorUpdates: [], appHash: new Uint8Array(),
      txResults: [
        ok(50_000),
        ok(30_000, [{ type: 'ethereum_tx', attributes: [{ key: 'amount', value: '1' }, { key: 'txGasUsed', value: '21000' }] }]),
        { ...ok(10_000), code: 5 },
      ],
    }), m);
    expect(app.extra()).to.equal(7); // other members pass through, bound to the app
    expect(app.lastHeight).to.equal(7);
    expect(app.checkTx).to.equal(app.checkTx); // wrappers are cached
    await app.checkTx({ tx: new Uint8Array(3), type: 'new' });
    await app.checkTx({ tx: new Uint8Array(3), type: 'recheck' });
    await app.finalizeBlock({} as never);
    await app.commit();
    expect(await value(m, 'tx_count')).to.equal(3);
    expect(await value(m, 'tx_successful')).to.equal(2);
    expect(await value(m, 'tx_failed')).to.equal(1);
    expect(await value(m, 'tx_msg_ethereum_tx_total')).to.equal(1);
    expect(await value(m, 'tx_msg_ethereum_tx_gas_used_total')).to.equal(21000);
    expect(await value(m, 'cometbft_mempool_recheck_times')).to.equal(1);
    const gas = await vals(m, 'chain_block_gas_used');
    expect(gas.find((v) => v.metricName === 'chain_block_gas_used_sum')!.value).to.equal(90_000);
    const evm = await vals(m, 'chain_evm_block_gas_used');
    expect(evm.find((v) => v.metricName === 'chain_evm_block_gas_used_sum')!.value).to.equal(21_000);
    const timing = await vals(m, 'cometbft_abci_connection_method_timing_seconds');
    const count = (method: string, type: string) => timing.find((v) => v.metricName?.endsWith('_count') && v.labels.method === method && v.labels.type === type)?.value;
    expect(count('check_tx', 'sync')).to.equal(1);
    expect(count('check_tx', 'recheck')).to.equal(1);
    expect(count('finalize_block', 'sync')).to.equal(1);
    expect(count('commit', 'sync')).to.equal(1);
    const proc = await vals(m, 'cometbft_state_block_processing_time');
    expect(proc.find((v) => v.metricName === 'cometbft_state_block_processing_time_count')!.value).to.equal(1);
  });

  it('serves /metrics in the text format and nothing else', async () => {
    const m = new NodeMetrics();
    m.startRequest('rest', 'GET /chain/bank/v1beta1/balances/{address}')(false);
    const log = createLogger('error', 'metrics', () => undefined);
    const s = await startMetricsServer({ metrics: m, host: '127.0.0.1', port: 0, log });
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/metrics`);
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      const text = await r.text();
      expect(text).to.include('# TYPE cometbft_consensus_height gauge');
      expect(text).to.include('chain_requests_total{transport="rest",method="GET /chain/bank/v1beta1/balances/{address}"} 1');
      expect(text).to.include('process_cpu_seconds_total');
      expect((await fetch(`http://127.0.0.1:${s.port}/other`)).status).to.equal(404);
      expect((await fetch(`http://127.0.0.1:${s.port}/metrics`, { method: 'POST' })).status).to.equal(404);
    } finally {
      await s.close();
    }
  });
});

describe('logger', () => {
  it('parses per-module levels as the SDK\'s --log_level', () => {
    const a = parseLogLevel('info,rest:debug,consensus:error');
    expect(a.default).to.equal(20);
    expect(a.modules.get('rest')).to.equal(10);
    expect(a.modules.get('consensus')).to.equal(40);
    expect(parseLogLevel('*:warn,rpc:none').default).to.equal(30);
    expect(parseLogLevel('*:warn,rpc:none').modules.get('rpc')).to.equal(100);
    expect(() => parseLogLevel('loud')).to.throw(/invalid log level/);
    expect(() => parseLogLevel('rest:')).to.throw(/invalid log level/);
    expect(() => parseLogLevel(':debug')).to.throw(/module:level/);
    expect(() => parseLogLevel('')).to.throw(/empty/);
  });

  it('filters by module and writes json lines with level, module and msg', () => {
    const lines: string[] = [];
    const root = createLogger('info,rest:debug,consensus:error', 'node', (l) => lines.push(l), 'json');
    root.debug('hidden');
    root.info('shown', { height: 5, big: 10n, bytes: new Uint8Array([1, 2]), msg: 'not overriding' });
    root.child('rest').debug('rest debug');
    root.child('consensus').warn('hidden too');
    root.child('consensus').error('consensus error');
    expect(lines).to.have.length(3);
    const recs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recs[0]).to.include({ level: 'info', module: 'node', msg: 'shown', height: 5, big: '10', bytes: '0102' });
    expect(recs[0]!.time).to.be.a('string');
    expect(recs[1]).to.include({ level: 'debug', module: 'rest', msg: 'rest debug' });
    expect(recs[2]).to.include({ level: 'error', module: 'consensus', msg: 'consensus error' });
  });

  it('is reconfigured, children included, by configureLogger', () => {
    const lines: string[] = [];
    const root = createLogger('info', 'node', (l) => lines.push(l));
    const rest = root.child('rest');
    rest.info('plain line');
    expect(lines[0]).to.match(/^\S+ INFO {2}\[rest\] plain line$/);
    expect(configureLogger(root, { level: 'error,rest:debug', format: 'json' })).to.equal(true);
    rest.debug('now json');
    root.info('dropped');
    expect(JSON.parse(lines[1]!)).to.include({ level: 'debug', module: 'rest', msg: 'now json' });
    expect(lines).to.have.length(2);
    expect(configureLogger({ ...root }, { level: 'debug' })).to.equal(false);
    expect(() => configureLogger(root, { format: 'xml' as never })).to.throw(/log format/);
  });
});
