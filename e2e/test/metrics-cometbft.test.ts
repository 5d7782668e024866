/**
 * Prometheus metrics of a node on real CometBFT v0.38 (`chaind dev --consensus cometbft`,
 * `--instrumentation.prometheus true`): the spawned CometBFT serves its own metrics on `prometheus_listen_addr`
 * (cometbft_consensus_*, _mempool_*, _p2p_*, _state_*, its side of the ABCI calls, Go's process_*), chaind the
 * app's and the transports' on `app_prometheus_listen_addr` (the SDK's tx counters, gas and EVM gas per block,
 * its side of the ABCI calls, requests and errors per transport and route, websocket subscribers). Both are
 * parsed by the text format's rules (e2e/src/prometheus.ts), no family is served by both, and under load (bank
 * sends, a refused tx, an Ethereum transfer, requests on every transport chaind serves) CometBFT's height and
 * the app's counters move.
 */
import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { toBase64 } from '@cosmjs/encoding';
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { ensureCometbft } from '@chain/cometbft';
import { freePort, startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { CHAIN_ID, RawWs, devAddress, devHome, getJson, postJson, signedSend, waitTxCommitted } from '../src/clients.js';
import { grpcUnary } from '../src/grpc-call.js';
import { parsePrometheusText, sample } from '../src/prometheus.js';
import type { Family } from '../src/prometheus.js';
import { killProcessesUsingHome, processesUsingHome } from '../src/process-cleanup.js';

/** hardhat's first dev key: an account the dev genesis funds */
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

describe('e2e: Prometheus metrics in CometBFT mode (CometBFT\'s and the app\'s, on two ports)', function () {
  this.timeout(120_000);
  let home: string | undefined;
  let node: NodeHandle | undefined;
  let cometUrl: string;
  let appUrl: string;
  const chain = { chain_id: CHAIN_ID }; // CometBFT labels every metric with the chain id

  const scrape = async (url: string): Promise<Map<string, Family>> => {
    const r = await fetch(url);
    expect(r.status, url).to.equal(200);
    expect(r.headers.get('content-type'), url).to.match(/^text\/plain; version=0\.0\.4; charset=utf-8(;|$)/); // Go adds `; escaping=underscores`
    return parsePrometheusText(await r.text());
  };
  const cometHeight = (f: Map<string, Family>): number => sample(f, 'cometbft_consensus_height', chain)!;

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build (go install) takes a few minutes
    await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
    const cometPort = await freePort();
    const appPort = await freePort();
    cometUrl = `http://127.0.0.1:${cometPort}/metrics`;
    appUrl = `http://127.0.0.1:${appPort}/metrics`;
    home = devHome(); // ours, so that after() finds every process started on it even when startNode throws
    node = await startNode({
      home,
      consensus: 'cometbft',
      timeoutCommit: '300ms',
      extraArgs: [
        '--instrumentation.prometheus', 'true',
        '--instrumentation.prometheus_listen_addr', `127.0.0.1:${cometPort}`,
        '--instrumentation.app_prometheus_listen_addr', `127.0.0.1:${appPort}`,
        '--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3',
      ],
    });
  });

  after(async function () {
    this.timeout(60_000);
    try {
      await node?.stop(); // SIGTERM: chaind stops its CometBFT, then itself
    } finally {
      // and whatever is left (a chaind that did not stop in time, an orphaned CometBFT), by pid
      if (home) {
        const left = await killProcessesUsingHome(home);
        if (left.length > 0) process.stderr.write(`metrics-cometbft: SIGKILLed processes left running: ${left.join(', ')}\n`);
        rmSync(home, { recursive: true, force: true });
      }
    }
  });

  it('writes prometheus and prometheus_listen_addr into CometBFT\'s config.toml', () => {
    const toml = readFileSync(join(home!, 'cometbft', 'config', 'config.toml'), 'utf8');
    const inst = toml.slice(toml.indexOf('[instrumentation]'));
    expect(inst).to.match(/^prometheus = true$/m);
    expect(inst).to.include(`prometheus_listen_addr = "${new URL(cometUrl).host}"`);
    expect(inst).to.match(/^namespace = "cometbft"$/m);
    // both processes run on this test's home: what after() relies on
    expect(processesUsingHome(home!).length).to.equal(2);
  });

  /** no family name on both ports; the app's port has none of CometBFT's namespace or Go's process families */
  const expectDisjoint = (comet: Map<string, Family>, app: Map<string, Family>): void => {
    expect([...app.keys()].filter((n) => comet.has(n)), 'families served by both').to.deep.equal([]);
    expect([...app.keys()].filter((n) => /^(cometbft_|process_|go_|promhttp_)/.test(n))).to.deep.equal([]);
    expect([...comet.keys()].filter((n) => /^(chain_|tx_)/.test(n))).to.deep.equal([]);
  };

  it('serves CometBFT\'s metrics and the app\'s on their own ports, each by the text format rules, no family twice', async () => {
    // a few blocks first: CometBFT's labelled series exist from their first observation (block interval: height 2)
    let comet = await scrape(cometUrl);
    for (let i = 0; (sample(comet, 'cometbft_consensus_height', chain) ?? 0) < 4; i++) {
      if (i > 200) throw new Error('CometBFT\'s cometbft_consensus_height did not reach 4');
      await new Promise((r) => setTimeout(r, 100));
      comet = await scrape(cometUrl);
    }
    const app = await scrape(appUrl);
    for (const [name, type] of Object.entries({
      cometbft_consensus_height: 'gauge', cometbft_consensus_latest_block_height: 'gauge', cometbft_consensus_validators: 'gauge',
      cometbft_consensus_validators_power: 'gauge', cometbft_consensus_total_txs: 'gauge', cometbft_consensus_block_interval_seconds: 'histogram',
      cometbft_consensus_rounds: 'gauge', cometbft_mempool_size: 'gauge', cometbft_mempool_size_bytes: 'gauge',
      cometbft_state_block_processing_time: 'histogram', cometbft_abci_connection_method_timing_seconds: 'histogram',
      go_goroutines: 'gauge', process_cpu_seconds_total: 'counter',
    })) expect(comet.get(name)?.type, `CometBFT ${name}`).to.equal(type);
    expect(sample(comet, 'cometbft_consensus_validators', chain)).to.equal(1);
    for (const [name, type] of Object.entries({
      tx_count: 'counter', tx_successful: 'counter', tx_failed: 'counter', tx_msg_ethereum_tx_total: 'counter',
      chain_block_txs: 'histogram', chain_block_gas_used: 'histogram', chain_evm_block_gas_used: 'histogram',
      chain_abci_method_timing_seconds: 'histogram', chain_requests_total: 'counter', chain_request_errors_total: 'counter',
      chain_request_duration_seconds: 'histogram', chain_websocket_connections: 'gauge', chain_websocket_subscriptions: 'gauge',
      chain_process_cpu_seconds_total: 'counter', chain_nodejs_heap_size_used_bytes: 'gauge',
    })) {
      expect(app.get(name)?.type, `app ${name}`).to.equal(type);
      expect(app.get(name)?.help, `app ${name}`).to.be.a('string');
    }
    // CometBFT owns consensus, the mempool and its process: none of those names on the app's port, and the reverse
    expectDisjoint(comet, app);
    // the app's ABCI timings as the app sees them: CometBFT has been calling it
    expect(sample(app, 'chain_abci_method_timing_seconds_count', { method: 'finalize_block', type: 'sync' })).to.be.greaterThan(0);
    expect(sample(app, 'chain_abci_method_timing_seconds_count', { method: 'commit', type: 'sync' })).to.be.greaterThan(0);
    // anything else on either port is a 404
    expect((await fetch(appUrl.replace('/metrics', '/other'))).status).to.equal(404);
  });

  it('moves CometBFT\'s height and mempool counters and the app\'s tx, gas, ABCI and request counters under load', async () => {
    const n = node!;
    const c0 = await scrape(cometUrl);
    const a0 = await scrape(appUrl);
    const appDelta = (a1: Map<string, Family>, name: string, labels: Record<string, string> = {}): number =>
      (sample(a1, name, labels) ?? 0) - (sample(a0, name, labels) ?? 0);
    const cometDelta = (c1: Map<string, Family>, name: string, labels: Record<string, string> = {}): number =>
      (sample(c1, name, { ...chain, ...labels }) ?? 0) - (sample(c0, name, { ...chain, ...labels }) ?? 0);

    // an eth_subscribe over the Ethereum websocket: the app's subscription gauge while it is open
    const ws = await RawWs.open(n.ethWsUrl);
    try {
      const sub = await ws.call('eth_subscribe', ['newHeads'], 1);
      expect(sub.result, JSON.stringify(sub)).to.match(/^0x/);
      const open = await scrape(appUrl);
      expect(sample(open, 'chain_websocket_subscriptions', { transport: 'eth_jsonrpc' })).to.equal(1);
      expect(sample(open, 'chain_websocket_connections', { transport: 'eth_jsonrpc' })).to.equal(1);
    } finally {
      ws.close();
    }

    // three bank sends over REST (BROADCAST_MODE_SYNC, through CometBFT's mempool), committed
    const to = await devAddress(9);
    const hashes: string[] = [];
    for (const from of [3, 4, 5]) {
      const raw = await signedSend(n.restUrl, from, to, '1000');
      const r = await postJson(`${n.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_SYNC' });
      expect(r.body.tx_response.code, JSON.stringify(r.body)).to.equal(0);
      hashes.push(r.body.tx_response.txhash);
    }
    // a tx the app refuses at CheckTx (a sequence in the future): CometBFT's mempool counts it failed
    const badRaw = await signedSend(n.restUrl, 6, to, '1', { sequenceOffset: 5 });
    const bad = await postJson(`${n.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(badRaw), mode: 'BROADCAST_MODE_SYNC' });
    expect(bad.body.tx_response.code).to.not.equal(0);
    // an Ethereum value transfer through the JSON-RPC
    const provider = new JsonRpcProvider(n.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    try {
      const tx = await new Wallet(KEY0, provider).sendTransaction({ to: Wallet.createRandom().address, value: parseEther('0.01') });
      expect((await tx.wait(1, 60_000))!.status).to.equal(1);
    } finally {
      provider.destroy();
    }
    for (const h of hashes) await waitTxCommitted(n.restUrl, h, 30000);
    // requests on every transport chaind serves (CometBFT serves the RPC itself)
    await getJson(`${n.restUrl}/cosmos/bank/v1beta1/balances/${to}`);
    await getJson(`${n.restUrl}/not/a/route`);
    await postJson(n.ethUrl, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    await postJson(n.ethUrl, { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['not an address', 'latest'] });
    await grpcUnary(n.grpcAddress, '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo');
    await new Promise((r) => setTimeout(r, 1000)); // a block or two after the last tx

    const c1 = await scrape(cometUrl);
    const a1 = await scrape(appUrl);
    // after the load more of CometBFT's series exist (a failed CheckTx, tx sizes): still no family on both ports
    expect(c1.get('cometbft_mempool_failed_txs')?.type).to.equal('counter');
    expect(c1.get('cometbft_mempool_tx_size_bytes')?.type).to.equal('histogram');
    expectDisjoint(c1, a1);
    // CometBFT: the chain went on, the txs went through its mempool and into blocks
    expect(cometHeight(c1)).to.be.greaterThan(cometHeight(c0));
    expect(cometDelta(c1, 'cometbft_consensus_total_txs')).to.be.greaterThanOrEqual(4);
    expect(cometDelta(c1, 'cometbft_mempool_tx_size_bytes_count')).to.be.greaterThanOrEqual(4);
    expect(cometDelta(c1, 'cometbft_mempool_failed_txs')).to.equal(1);
    expect(cometDelta(c1, 'cometbft_abci_connection_method_timing_seconds_count', { method: 'finalize_block', type: 'sync' })).to.be.greaterThan(0);
    // the app: its tx counters, gas and EVM gas per block, its side of the ABCI calls
    expect(appDelta(a1, 'tx_count')).to.be.greaterThanOrEqual(4);
    expect(appDelta(a1, 'tx_successful')).to.be.greaterThanOrEqual(4);
    expect(appDelta(a1, 'tx_msg_ethereum_tx_total')).to.equal(1);
    expect(appDelta(a1, 'tx_msg_ethereum_tx_gas_used_total')).to.equal(21_000);
    expect(appDelta(a1, 'chain_evm_block_gas_used_sum')).to.equal(21_000);
    expect(appDelta(a1, 'chain_block_gas_used_sum')).to.be.greaterThan(21_000);
    expect(appDelta(a1, 'chain_block_txs_sum')).to.be.greaterThanOrEqual(4);
    expect(appDelta(a1, 'chain_abci_method_timing_seconds_count', { method: 'check_tx', type: 'sync' })).to.be.greaterThanOrEqual(5);
    expect(appDelta(a1, 'chain_abci_method_timing_seconds_count', { method: 'finalize_block', type: 'sync' })).to.be.greaterThan(0);
    // the app's FinalizeBlock count follows CometBFT's (each scraped at its own instant: a block apart at most)
    const appBlocks = sample(a1, 'chain_abci_method_timing_seconds_count', { method: 'finalize_block', type: 'sync' })!;
    const cometBlocks = sample(c1, 'cometbft_abci_connection_method_timing_seconds_count', { ...chain, method: 'finalize_block', type: 'sync' })!;
    expect(Math.abs(appBlocks - cometBlocks)).to.be.lessThanOrEqual(2);
    // requests and errors per transport and route
    const req = (transport: string, method: string): number => appDelta(a1, 'chain_requests_total', { transport, method });
    const err = (transport: string, method: string): number => appDelta(a1, 'chain_request_errors_total', { transport, method });
    expect(req('rest', 'POST /chain/tx/v1beta1/txs')).to.equal(4);
    expect(req('rest', 'GET /chain/tx/v1beta1/txs/{hash}')).to.be.greaterThanOrEqual(3);
    expect(req('rest', 'GET /cosmos/bank/v1beta1/balances/{address}')).to.equal(1);
    expect(err('rest', 'unmatched')).to.equal(1);
    expect(req('eth_jsonrpc', 'eth_sendRawTransaction')).to.equal(1);
    expect(req('eth_jsonrpc', 'eth_blockNumber')).to.be.greaterThanOrEqual(1);
    expect(err('eth_jsonrpc', 'eth_getBalance')).to.equal(1);
    expect(req('grpc', '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo')).to.equal(1);
    // CometBFT serves the CometBFT RPC in this mode: chaind counts no request of that transport
    expect([...(a1.get('chain_requests_total')?.samples ?? [])].filter((s) => s.labels.transport === 'cometbft_rpc')).to.deep.equal([]);
    // the closed websocket: back to no subscription
    expect(sample(a1, 'chain_websocket_subscriptions', { transport: 'eth_jsonrpc' })).to.equal(0);
    // the app's metrics are numbers (prom-client's process metrics may be NaN before their first sample)
    for (const f of a1.values()) {
      if (f.name.startsWith('chain_process_') || f.name.startsWith('chain_nodejs_')) continue;
      for (const s of f.samples) expect(Number.isNaN(s.value), `${s.name} ${JSON.stringify(s.labels)}`).to.equal(false);
    }
  });
});
