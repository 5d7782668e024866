/**
 * Prometheus metrics and JSON logs of a real `chaind dev`: `--instrumentation.prometheus` on a free port,
 * `/metrics` scraped and parsed by the text format's rules (e2e/src/prometheus.ts, strict), counters checked to move under
 * load (bank sends, REST, CometBFT RPC, gRPC and Ethereum JSON-RPC requests), and every log line of
 * `--log_format json` a JSON object with level, module and msg.
 */
import { expect } from 'chai';
import { toBase64 } from '@cosmjs/encoding';
import { freePort, startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, devHome, getJson, postJson, rpcCall, signedSend, waitTxCommitted } from '../src/clients.js';
import { grpcUnary } from '../src/grpc-call.js';
import { parsePrometheusText, sample } from '../src/prometheus.js';
import type { Family } from '../src/prometheus.js';

// ---- the test --------------------------------------------------------------------------------------

describe('e2e: Prometheus metrics and JSON logs', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let metricsUrl: string;

  const scrape = async (): Promise<Map<string, Family>> => {
    const r = await fetch(metricsUrl);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    return parsePrometheusText(await r.text());
  };

  before(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    node = await startNode({
      home: devHome(), // initialized here, so every line the node logs is in the json format
      extraArgs: [
        '--instrumentation.prometheus', 'true', '--instrumentation.prometheus_listen_addr', `127.0.0.1:${port}`,
        '--log_format', 'json', '--log_level', 'info,json-rpc:error',
      ],
    });
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('the parser refuses what the format forbids', () => {
    const bad = [
      '# TYPE a counter\na -1\n',
      'a 1\n',
      '# TYPE a gauge\na{b="x} 1\n',
      '# TYPE a gauge\na{b="\\x"} 1\n',
      '# TYPE a gauge\na{1b="x"} 1\n',
      '# TYPE a gauge\na one\n',
      '# TYPE a gauge\n# TYPE b gauge\nb 1\na 1\n',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n',
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n',
      '# TYPE a gauge\na 1',
    ];
    for (const t of bad) expect(() => parsePrometheusText(t), JSON.stringify(t)).to.throw();
    // Go's ParseFloat (Prometheus' parser) takes NaN in any case: prom-client writes `Nan` (nodejs_eventloop_lag_* between samples)
    expect(Number.isNaN(parsePrometheusText('# TYPE g gauge\ng Nan\n').get('g')!.samples[0]!.value)).to.equal(true);
    expect(parsePrometheusText('# TYPE g gauge\ng -Inf\n').get('g')!.samples[0]!.value).to.equal(-Infinity);
    const ok = parsePrometheusText('# HELP a x\\ny\n# TYPE a gauge\na{b="q\\"\\\\\\n",} 1.5e3 1700000000000\n# TYPE h histogram\nh_bucket{le="0.5"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3\nh_count 2\n');
    expect(ok.get('a')!.help).to.equal('x\ny');
    expect(ok.get('a')!.samples[0]).to.deep.equal({ name: 'a', labels: { b: 'q"\\\n' }, value: 1500 });
  });

  it('serves /metrics by the text format rules, with CometBFT\'s names', async () => {
    const fams = await scrape();
    for (const [name, type] of Object.entries({
      cometbft_consensus_height: 'gauge', cometbft_consensus_block_interval_seconds: 'histogram', cometbft_consensus_num_txs: 'gauge',
      cometbft_consensus_total_txs: 'gauge', cometbft_consensus_block_size_bytes: 'gauge', cometbft_consensus_validators: 'gauge',
      cometbft_consensus_validators_power: 'gauge', cometbft_mempool_size: 'gauge', cometbft_mempool_size_bytes: 'gauge',
      cometbft_mempool_failed_txs: 'counter', cometbft_mempool_tx_size_bytes: 'histogram', cometbft_state_block_processing_time: 'histogram',
      cometbft_abci_connection_method_timing_seconds: 'histogram', tx_count: 'counter', chain_block_gas_used: 'histogram',
      chain_evm_block_gas_used: 'histogram', chain_requests_total: 'counter', chain_request_errors_total: 'counter',
      chain_websocket_subscriptions: 'gauge',
    })) {
      expect(fams.get(name)?.type, name).to.equal(type);
      expect(fams.get(name)?.help, name).to.be.a('string');
    }
    expect(sample(fams, 'cometbft_consensus_validators')).to.equal(1);
  });

  it('moves the counters under load: height, txs, gas, requests per route and method', async () => {
    const before = await scrape();
    const h0 = sample(before, 'cometbft_consensus_latest_block_height')!;
    const txs0 = sample(before, 'tx_count') ?? 0;
    const count0 = (name: string, labels: Record<string, string>): number => sample(before, name, labels) ?? 0;

    // three bank sends over REST (BROADCAST_MODE_SYNC), then wait for their blocks
    const to = await devAddress(9);
    const hashes: string[] = [];
    for (const from of [3, 4, 5]) {
      const raw = await signedSend(node.restUrl, from, to, '1000');
      const r = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_SYNC' });
      expect(r.body.tx_response.code, JSON.stringify(r.body)).to.equal(0);
      hashes.push(r.body.tx_response.txhash);
    }
    for (const h of hashes) await waitTxCommitted(node.restUrl, h, 20000);
    // a tx the app refuses at CheckTx (a sequence in the future) counts as failed
    const badRaw = await signedSend(node.restUrl, 6, to, '1', { sequenceOffset: 5 });
    const bad = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(badRaw), mode: 'BROADCAST_MODE_SYNC' });
    expect(bad.body.tx_response.code).to.not.equal(0);

    // requests on every transport
    await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${to}`);
    await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${await devAddress(8)}`);
    await getJson(`${node.restUrl}/not/a/route`);
    await rpcCall(node.rpcUrl, 'status');
    await rpcCall(node.rpcUrl, 'block', { height: '1' });
    await fetch(`${node.rpcUrl}/abci_info`);
    await postJson(node.ethUrl, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    await postJson(node.ethUrl, { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', 'latest'] });
    await postJson(node.ethUrl, { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['not an address', 'latest'] });
    await grpcUnary(node.grpcAddress, '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo');
    await new Promise((r) => setTimeout(r, 600)); // a block or two after the last tx

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>): number => (sample(after, name, labels) ?? 0) - count0(name, labels);
    expect(sample(after, 'cometbft_consensus_latest_block_height')).to.be.greaterThan(h0);
    expect(sample(after, 'cometbft_consensus_height')).to.equal(sample(after, 'cometbft_consensus_latest_block_height')! + 1);
    expect(sample(after, 'tx_count')! - txs0).to.be.greaterThanOrEqual(3);
    expect(delta('tx_successful', {})).to.be.greaterThanOrEqual(3);
    expect(delta('cometbft_consensus_total_txs', {})).to.be.greaterThanOrEqual(3);
    expect(delta('cometbft_mempool_tx_size_bytes_count', {})).to.be.greaterThanOrEqual(3);
    expect(delta('cometbft_mempool_failed_txs', {})).to.equal(1);
    expect(delta('cometbft_abci_connection_method_timing_seconds_count', { method: 'check_tx', type: 'sync' })).to.be.greaterThanOrEqual(4);
    expect(delta('chain_block_gas_used_sum', {})).to.be.greaterThan(0);
    expect(delta('cometbft_consensus_block_interval_seconds_count', {})).to.be.greaterThan(0);
    expect(delta('cometbft_state_block_processing_time_count', {})).to.be.greaterThan(0);

    const req = (transport: string, method: string): number => delta('chain_requests_total', { transport, method });
    const err = (transport: string, method: string): number => delta('chain_request_errors_total', { transport, method });
    expect(req('rest', 'POST /chain/tx/v1beta1/txs')).to.equal(4);
    expect(req('rest', 'GET /chain/auth/v1beta1/accounts/{address}')).to.equal(4);
    expect(req('rest', 'GET /chain/tx/v1beta1/txs/{hash}')).to.be.greaterThanOrEqual(3);
    expect(req('rest', 'GET /cosmos/bank/v1beta1/balances/{address}')).to.equal(2);
    expect(req('rest', 'unmatched')).to.equal(1);
    expect(err('rest', 'unmatched')).to.equal(1);
    expect(req('cometbft_rpc', 'status')).to.be.greaterThanOrEqual(1);
    expect(req('cometbft_rpc', 'block')).to.equal(1);
    expect(req('cometbft_rpc', 'abci_info')).to.equal(1);
    expect(req('eth_jsonrpc', 'eth_blockNumber')).to.equal(1);
    expect(req('eth_jsonrpc', 'eth_getBalance')).to.equal(2);
    expect(err('eth_jsonrpc', 'eth_getBalance')).to.equal(1);
    expect(req('grpc', '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo')).to.equal(1);
    // the node's own metrics are numbers (prom-client's process metrics may report NaN before their first sample)
    for (const f of after.values()) {
      if (f.name.startsWith('process_') || f.name.startsWith('nodejs_')) continue;
      for (const s of f.samples) expect(Number.isNaN(s.value), `${s.name} ${JSON.stringify(s.labels)}`).to.equal(false);
    }
    // bounded labels: route templates, never an address
    for (const s of after.get('chain_requests_total')!.samples) expect(s.labels.method).to.not.match(/chain1[0-9a-z]{20,}/);
  });

  it('writes every log line as JSON with level, module and msg, at each module\'s level', () => {
    const lines = node.output.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).to.be.greaterThan(3);
    const recs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of recs) {
      expect(r.level).to.be.oneOf(['debug', 'info', 'warn', 'error']);
      expect(r.module).to.be.a('string');
      expect(r.msg).to.be.a('string');
      expect(Number.isNaN(Date.parse(String(r.time)))).to.equal(false);
    }
    expect(recs.some((r) => r.module === 'metrics' && String(r.msg).includes('/metrics'))).to.equal(true);
    expect(recs.some((r) => r.module === 'node' && r.level === 'info')).to.equal(true);
    expect(recs.some((r) => r.module === 'json-rpc' && r.level === 'info')).to.equal(false);
    // no line in the plain format
    expect(node.output.split('\n').filter((l) => / (INFO|DEBUG|WARN|ERROR) +\[/.test(l))).to.deep.equal([]);
  });
});
