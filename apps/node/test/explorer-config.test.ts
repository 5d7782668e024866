import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keplrChainInfo, publicEndpoints } from '@chain/server';
import { applyFlags, devDefaults, loadConfig } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';
import { chainDescription, minGasPriceOf } from '../src/app-transports.js';

describe('[api] explorer and the chain description', () => {
  const homes: string[] = [];
  const home = (dev: boolean): string => {
    const h = mkdtempSync(join(tmpdir(), 'chaind-explorer-'));
    homes.push(h);
    initHome({ home: h, dev });
    return h;
  };
  after(() => { for (const h of homes) rmSync(h, { recursive: true, force: true }); });

  it('a dev home turns the explorer on in app.toml, an init home leaves it off; --api.explorer overrides', () => {
    const dev = loadConfig(home(true));
    expect(readFileSync(join(dev.home, 'config', 'app.toml'), 'utf8')).to.match(/^explorer = true$/m);
    expect(dev.app.api.explorer).to.equal(true);
    const prod = loadConfig(home(false));
    expect(prod.app.api.explorer).to.equal(false);
    expect(applyFlags(prod, { 'api.explorer': 'true' }).app.api.explorer).to.equal(true);
    expect(applyFlags(dev, { 'api.explorer': false }).app.api.explorer).to.equal(false);
    expect(() => applyFlags(dev, { 'api.explorer': 'yes' })).to.throw(/true or false/);
  });

  it('chaind dev turns it on when app.toml does not say (a dev home written before the key), never against the file', () => {
    const h = home(true);
    const path = join(h, 'config', 'app.toml');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^explorer = true\n/m, ''));
    const old = loadConfig(h);
    expect(old.app.api.explorer).to.equal(undefined);
    expect(devDefaults(old).app.api.explorer).to.equal(true);
    expect(devDefaults(applyFlags(old, { 'api.explorer': 'false' })).app.api.explorer).to.equal(false);
  });

  it('reads the gas price of one denom out of minimum-gas-prices', () => {
    expect(minGasPriceOf('1000000000achain', 'achain')).to.equal(1e9);
    expect(minGasPriceOf('5utoken, 0.5achain', 'achain')).to.equal(0.5);
    expect(minGasPriceOf('5utoken', 'achain')).to.equal(0);
    expect(minGasPriceOf('', 'achain')).to.equal(0);
  });

  it('describes the chain from the node\'s config: chain id, prefix, coin type 60, denoms, gas prices, EVM id, listen addresses', () => {
    const cfg = applyFlags(loadConfig(home(true)), { 'rpc.laddr': 'tcp://127.0.0.1:36657', 'json-rpc.address': '0.0.0.0:38545' });
    const d = chainDescription('chain_1337-1', cfg);
    expect(d).to.deep.include({
      chainId: 'chain_1337-1', chainName: 'chaindevnet', networkType: 'devnet', bech32Prefix: 'chain', coinType: 60,
      keyAlgos: ['ethsecp256k1', 'secp256k1'], evmChainId: 1337, daemonName: 'chaind',
    });
    expect(d.denom).to.deep.include({ base: 'achain', display: 'chain', decimals: 18, symbol: 'CHAIN' });
    expect(d.gasPrice).to.deep.equal({ min: 1e9, low: 1e9, average: 2e9, high: 4e9 });
    expect(d.listen).to.deep.equal({ rpc: 'tcp://127.0.0.1:36657', grpc: '0.0.0.0:9090', jsonRpc: '0.0.0.0:38545', jsonRpcWs: '0.0.0.0:8546' });
    const k = keplrChainInfo(d, publicEndpoints(d, 'http://localhost:1317')) as any;
    expect(k.rpc).to.equal('http://127.0.0.1:36657');
    expect(k.evm).to.deep.equal({ chainId: 1337, rpc: 'http://localhost:38545', websocket: 'ws://localhost:8546' });

    // a production home: no minimum gas price, no JSON-RPC; another chain id is a mainnet named by the prefix
    const prod = chainDescription('chain_7-2', loadConfig(home(false)));
    expect(prod).to.deep.include({ chainName: 'chain', networkType: 'mainnet', evmChainId: 7 });
    expect(prod.gasPrice.min).to.equal(0);
    expect(prod.listen.jsonRpc).to.equal(undefined);
    // a chain id without an EIP-155 part has no EVM id; a CometBFT started separately is the RPC clients use
    const ext = chainDescription('mychain', applyFlags(loadConfig(home(true)), { 'cometbft.rpc': 'http://10.0.0.5:26657' }));
    expect(ext.evmChainId).to.equal(undefined);
    expect(ext.listen.rpc).to.equal('http://10.0.0.5:26657');
  });
});
