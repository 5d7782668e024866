import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import type { NodeConfig } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';
import { createLogger } from '@chain/server';
import { minGasPriceWei } from '../src/eth-rpc.js';

describe('Ethereum JSON-RPC (in-process node)', function () {
  this.timeout(30_000);
  let home: string;
  let node: Node;
  let url: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chaind-jr-'));
    initHome({ home, dev: true });
    const base = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.enable': 'false', 'grpc.enable': 'false', 'consensus.timeout_commit': '50ms',
      'json-rpc.enable': true, 'json-rpc.address': '127.0.0.1:0', 'json-rpc.ws-address': '127.0.0.1:0', 'evm.rpc.api': 'eth,net,web3,txpool',
    });
    const app = structuredClone(base.app);
    app['json-rpc']['filter-timeout'] = '300ms';
    app['json-rpc']['filter-cap'] = 3;
    const cfg: NodeConfig = { ...base, app };
    node = await Node.create(cfg, createLogger('error'));
    await node.start();
    url = `http://127.0.0.1:${node.jsonRpc!.port}`;
    while (node.engine.latestHeight < 2) await new Promise((r) => setTimeout(r, 20));
  });

  after(async () => {
    await node?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const rpc = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers: { 'content-type': 'application/json' } });
    return r.json();
  };

  it('parses the minimum gas price', () => {
    expect(minGasPriceWei('1000000000achain')).to.equal(1_000_000_000n);
    expect(minGasPriceWei('0.5achain,3foo')).to.equal(1n);
    expect(minGasPriceWei('')).to.equal(0n);
  });

  it('limits filters per client and expires idle ones', async () => {
    const ids = [(await rpc('eth_newBlockFilter')).result, (await rpc('eth_newPendingTransactionFilter')).result, (await rpc('eth_newFilter', [{}])).result];
    expect(ids.every((i) => /^0x[0-9a-f]+$/.test(i))).to.equal(true);
    expect((await rpc('eth_newBlockFilter')).error.message).to.contain('max limit reached');
    // polled filters stay alive; idle ones expire
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 120));
      expect((await rpc('eth_getFilterChanges', [ids[0]])).result).to.be.an('array');
    }
    expect((await rpc('eth_getFilterChanges', [ids[1]])).error.message).to.contain('filter not found');
    expect((await rpc('eth_getFilterChanges', [ids[2]])).error.message).to.contain('filter not found');
    expect((await rpc('eth_uninstallFilter', [ids[0]])).result).to.equal(true);
    expect(node.jsonRpc!.filters.size).to.equal(0);
  });

  it('serves only the enabled namespaces and batch limits', async () => {
    expect((await rpc('debug_traceTransaction', ['0x' + '00'.repeat(32)])).error.code).to.equal(-32601);
    expect((await rpc('txpool_status')).result).to.deep.equal({ pending: '0x0', queued: '0x0' });
    const r = await fetch(url, { method: 'POST', body: '[]' });
    expect(((await r.json()) as any).error.code).to.equal(-32600);
  });
});
