import { expect } from 'chai';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Koa from 'koa';
import {
  EXPLORER_STATIC_DIR, chainRegistryAssetList, chainRegistryChain, createExplorerHandler, explorerConfig, gasPriceSteps, hostnameOf,
  keplrChainInfo, publicEndpoints, publicHostPort,
} from '../src/index.js';
import type { ChainDescription } from '../src/index.js';

const CHAIN: ChainDescription = {
  chainId: 'chain_1337-1',
  chainName: 'chaindevnet',
  prettyName: 'Chain devnet (chain_1337-1)',
  networkType: 'devnet',
  bech32Prefix: 'chain',
  coinType: 60,
  keyAlgos: ['ethsecp256k1', 'secp256k1'],
  denom: { base: 'achain', display: 'chain', decimals: 18, symbol: 'CHAIN', description: 'The native staking and fee token of chain.' },
  gasPrice: gasPriceSteps(1e9),
  evmChainId: 1337,
  daemonName: 'chaind',
  nodeHome: '$HOME/.chaind',
  listen: { rpc: 'tcp://127.0.0.1:26657', grpc: '0.0.0.0:9090', jsonRpc: '0.0.0.0:8545', jsonRpcWs: '0.0.0.0:8546' },
};

// the properties chain.schema.json and assetlist.schema.json of the cosmos chain-registry allow (both refuse others)
const CHAIN_SCHEMA_KEYS = [
  '$schema', 'chain_name', 'chain_type', 'chain_id', 'pre_fork_chain_name', 'pretty_name', 'website', 'status', 'network_type', 'bech32_prefix',
  'bech32_config', 'daemon_name', 'node_home', 'key_algos', 'slip44', 'alternative_slip44s', 'fees', 'staking', 'codebase', 'images', 'logo_URIs',
  'description', 'peers', 'apis', 'explorers', 'keywords', 'extra_codecs',
];
const FEE_TOKEN_KEYS = ['denom', 'fixed_min_gas_price', 'low_gas_price', 'average_gas_price', 'high_gas_price', 'gas_costs'];
const API_KINDS = ['rpc', 'rest', 'grpc', 'wss', 'grpc-web', 'evm-http-jsonrpc'];
const EXPLORER_KEYS = ['kind', 'url', 'tx_page', 'account_page', 'validator_page', 'proposal_page', 'block_page'];
const ASSET_KEYS = ['description', 'denom_units', 'type_asset', 'address', 'base', 'name', 'display', 'symbol', 'traces', 'ibc', 'logo_URIs', 'images', 'coingecko_id', 'keywords'];

describe('explorer: public endpoints', () => {
  it('puts the client\'s host name in place of a wildcard listen host and keeps any other host', () => {
    expect(publicHostPort('0.0.0.0:8545', 'node.example')).to.equal('node.example:8545');
    expect(publicHostPort('tcp://0.0.0.0:1317', 'node.example')).to.equal('node.example:1317');
    expect(publicHostPort(':26660', 'h')).to.equal('h:26660');
    expect(publicHostPort('[::]:9090', '::1')).to.equal('[::1]:9090');
    expect(publicHostPort('tcp://127.0.0.1:26657', 'node.example')).to.equal('127.0.0.1:26657');
    expect(() => publicHostPort('tcp://127.0.0.1', 'h')).to.throw(/listen address/);
    expect(() => publicHostPort('tcp://127.0.0.1:70000', 'h')).to.throw(/port/);
  });

  it('reads host names out of Host headers', () => {
    expect(hostnameOf('localhost:1317')).to.equal('localhost');
    expect(hostnameOf('[::1]:1317')).to.equal('::1');
    expect(hostnameOf('node.example')).to.equal('node.example');
  });

  it('derives every URL from the listen addresses and the origin the client used', () => {
    const e = publicEndpoints(CHAIN, 'http://node.example:1317');
    expect(e).to.deep.equal({
      rest: 'http://node.example:1317',
      rpc: 'http://127.0.0.1:26657',
      rpcWebsocket: 'ws://127.0.0.1:26657/websocket',
      grpc: 'node.example:9090',
      jsonRpc: 'http://node.example:8545',
      jsonRpcWs: 'ws://node.example:8546',
      explorer: 'http://node.example:1317/explorer/',
    });
    // an external CometBFT's RPC URL is used as given; surfaces that are off have no URL
    const ext = publicEndpoints({ ...CHAIN, listen: { rpc: 'https://rpc.example:443/' } }, 'http://[::1]:1317');
    expect(ext.rpc).to.equal('https://rpc.example:443');
    expect(ext.rpcWebsocket).to.equal('wss://rpc.example:443/websocket');
    expect(ext.rest).to.equal('http://[::1]:1317');
    expect(ext.jsonRpc).to.equal(undefined);
    expect(ext.grpc).to.equal(undefined);
  });
});

describe('explorer: wallet descriptions', () => {
  const e = publicEndpoints(CHAIN, 'http://localhost:1317');

  it('gas price steps: the minimum, then 2x and 4x; a node without a minimum suggests 0 / 1e9 / 2e9', () => {
    expect(gasPriceSteps(1e9)).to.deep.equal({ min: 1e9, low: 1e9, average: 2e9, high: 4e9 });
    expect(gasPriceSteps(0)).to.deep.equal({ min: 0, low: 0, average: 1e9, high: 2e9 });
  });

  it('Keplr ChainInfo: endpoints, currencies, the SDK\'s bech32 prefixes, coin type 60 with the Ethereum key features, the EVM', () => {
    const k = keplrChainInfo(CHAIN, e);
    const currency = { coinDenom: 'CHAIN', coinMinimalDenom: 'achain', coinDecimals: 18 };
    expect(k).to.deep.equal({
      rpc: 'http://127.0.0.1:26657',
      rest: 'http://localhost:1317',
      chainId: 'chain_1337-1',
      chainName: 'Chain devnet (chain_1337-1)',
      stakeCurrency: currency,
      bip44: { coinType: 60 },
      bech32Config: {
        bech32PrefixAccAddr: 'chain', bech32PrefixAccPub: 'chainpub', bech32PrefixValAddr: 'chainvaloper',
        bech32PrefixValPub: 'chainvaloperpub', bech32PrefixConsAddr: 'chainvalcons', bech32PrefixConsPub: 'chainvalconspub',
      },
      currencies: [currency],
      feeCurrencies: [{ ...currency, gasPriceStep: { low: 1e9, average: 2e9, high: 4e9 } }],
      features: ['eth-address-gen', 'eth-key-sign'],
      evm: { chainId: 1337, rpc: 'http://localhost:8545', websocket: 'ws://localhost:8546' },
      beta: true,
    });
    // a secp256k1 chain without an EVM: no Ethereum features, no evm block; a mainnet is not beta
    const plain = keplrChainInfo({ ...CHAIN, coinType: 118, keyAlgos: ['secp256k1'], evmChainId: undefined, networkType: 'mainnet' }, e);
    expect(plain.features).to.deep.equal([]);
    expect(plain).to.not.have.property('evm');
    expect(plain).to.not.have.property('beta');
  });

  it('chain-registry chain.json: the schema\'s required fields, nothing it refuses, fees from the node\'s gas prices', () => {
    const c = chainRegistryChain(CHAIN, e) as Record<string, any>;
    for (const k of Object.keys(c)) expect(CHAIN_SCHEMA_KEYS, `chain.json property ${k}`).to.include(k);
    expect(c.$schema).to.match(/^(\.\.\/)+chain\.schema\.json$/);
    expect(c.chain_name).to.match(/^[a-z0-9]+$/);
    expect(c).to.include({ chain_type: 'cosmos', chain_id: 'chain_1337-1', bech32_prefix: 'chain', slip44: 60, status: 'live', network_type: 'devnet', daemon_name: 'chaind' });
    expect(c.key_algos).to.deep.equal(['ethsecp256k1', 'secp256k1']);
    expect(c.extra_codecs).to.deep.equal(['ethermint']);
    expect(c.fees.fee_tokens).to.deep.equal([{ denom: 'achain', fixed_min_gas_price: 1e9, low_gas_price: 1e9, average_gas_price: 2e9, high_gas_price: 4e9 }]);
    for (const k of Object.keys(c.fees.fee_tokens[0])) expect(FEE_TOKEN_KEYS).to.include(k);
    expect(c.staking).to.deep.equal({ staking_tokens: [{ denom: 'achain' }] });
    for (const [kind, list] of Object.entries(c.apis as Record<string, { address: string; provider: string }[]>)) {
      expect(API_KINDS).to.include(kind);
      for (const ep of list) expect(Object.keys(ep).sort()).to.deep.equal(['address', 'provider']);
    }
    expect(c.apis.rpc[0].address).to.equal('http://127.0.0.1:26657');
    expect(c.apis.rest[0].address).to.equal('http://localhost:1317');
    expect(c.apis.grpc[0].address).to.equal('localhost:9090');
    expect(c.apis['evm-http-jsonrpc'][0].address).to.equal('http://localhost:8545');
    expect(c.explorers).to.have.length(1);
    for (const k of Object.keys(c.explorers[0])) expect(EXPLORER_KEYS).to.include(k);
    expect(c.explorers[0].tx_page).to.equal('http://localhost:1317/explorer/#/tx/${txHash}');
    expect(c.explorers[0].account_page).to.equal('http://localhost:1317/explorer/#/account/${accountAddress}');
  });

  it('chain-registry assetlist.json: the staking token with both denom units', () => {
    const a = chainRegistryAssetList(CHAIN) as Record<string, any>;
    expect(Object.keys(a).sort()).to.deep.equal(['$schema', 'assets', 'chain_name']);
    expect(a.$schema).to.match(/^(\.\.\/)+assetlist\.schema\.json$/);
    expect(a.chain_name).to.equal('chaindevnet');
    const [asset] = a.assets;
    for (const k of Object.keys(asset)) expect(ASSET_KEYS).to.include(k);
    expect(asset).to.include({ base: 'achain', display: 'chain', symbol: 'CHAIN', type_asset: 'sdk.coin' });
    expect(asset.name.length).to.be.at.most(30);
    expect(asset.denom_units).to.deep.equal([{ denom: 'achain', exponent: 0 }, { denom: 'chain', exponent: 18 }]);
  });

  it('the explorer config names the surfaces the page reads', () => {
    const c = explorerConfig(CHAIN, e);
    expect(c).to.include({ chainId: 'chain_1337-1', bech32Prefix: 'chain', rest: 'http://localhost:1317', rpcWebsocket: 'ws://127.0.0.1:26657/websocket', jsonRpc: 'http://localhost:8545', evmChainId: 1337 });
    expect(c.denom).to.deep.equal({ base: 'achain', display: 'chain', decimals: 18, symbol: 'CHAIN' });
    const noEvm: ChainDescription = { ...CHAIN, evmChainId: undefined, listen: { rpc: CHAIN.listen.rpc } };
    expect(explorerConfig(noEvm, publicEndpoints(noEvm, 'http://localhost:1317'))).to.include({ jsonRpc: null, jsonRpcWs: null, evmChainId: null });
  });
});

/** GET with a Host header of our choosing (fetch may not set one). */
function getWithHost(url: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('explorer: served files', () => {
  let server: Server;
  let base: string;
  const start = async (explorer: boolean): Promise<void> => {
    const handler = createExplorerHandler({ chain: CHAIN, explorer });
    const app = new Koa();
    app.use(async (ctx) => {
      if (!handler(ctx)) { ctx.status = 501; ctx.body = 'gateway'; }
    });
    server = createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => { await new Promise((r) => server.close(r)); });

  it('serves the page, its files and its config built for the Host the client used', async () => {
    await start(true);
    const redirect = await fetch(`${base}/explorer`, { redirect: 'manual' });
    expect(redirect.status).to.equal(301);
    expect(redirect.headers.get('location')).to.equal('/explorer/');
    const index = await fetch(`${base}/explorer/`);
    expect(index.headers.get('content-type')).to.match(/^text\/html/);
    expect(await index.text()).to.equal(readFileSync(join(EXPLORER_STATIC_DIR, 'index.html'), 'utf8'));
    const js = await fetch(`${base}/explorer/explorer.js`);
    expect(js.headers.get('content-type')).to.match(/^text\/javascript/);
    const cfg = JSON.parse((await getWithHost(`${base}/explorer/config.json`, 'node.example:1317')).body) as Record<string, unknown>;
    expect(cfg).to.include({ rest: 'http://node.example:1317', jsonRpc: 'http://node.example:8545', rpcWebsocket: 'ws://127.0.0.1:26657/websocket' });
    // unknown names and paths outside the folder go on to the gateway
    expect((await fetch(`${base}/explorer/nope.js`)).status).to.equal(501);
    expect((await fetch(`${base}/explorer/../package.json`)).status).to.equal(501);
    expect((await fetch(`${base}/explorerx`)).status).to.equal(501);
  });

  it('serves the wallet JSON (any origin may read it) also when the explorer is off', async () => {
    await start(false);
    expect((await fetch(`${base}/explorer/`)).status).to.equal(501);
    expect((await fetch(`${base}/explorer/config.json`)).status).to.equal(501);
    for (const [path, check] of [
      ['/keplr/chain-info.json', (b: any) => expect(b.chainId).to.equal('chain_1337-1')],
      ['/chain-registry/chain.json', (b: any) => expect(b.chain_id).to.equal('chain_1337-1')],
      ['/chain-registry/assetlist.json', (b: any) => expect(b.assets[0].base).to.equal('achain')],
    ] as const) {
      const r = await getWithHost(base + path, 'wallet.example:1317');
      expect(r.status, path).to.equal(200);
      expect(r.headers['access-control-allow-origin']).to.equal('*');
      const body = JSON.parse(r.body);
      check(body);
      if (path === '/keplr/chain-info.json') expect((body as any).rest).to.equal('http://wallet.example:1317');
    }
  });

  it('ships its files with the page: every asset index.html names is there, and nothing is fetched from elsewhere', () => {
    const files = readdirSync(EXPLORER_STATIC_DIR);
    const html = readFileSync(join(EXPLORER_STATIC_DIR, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]!).filter((r) => !r.startsWith('data:'));
    expect(refs).to.include.members(['explorer.css', 'lib.js', 'explorer.js', 'config.json']);
    for (const r of refs) if (r !== 'config.json') expect(files, r).to.include(r);
    for (const f of files) expect(readFileSync(join(EXPLORER_STATIC_DIR, f), 'utf8'), f).to.not.match(/(?:src|href)\s*=\s*["']https?:|@import\s+url\(\s*["']?https?:|fetch\(\s*["']https?:/);
  });
});
