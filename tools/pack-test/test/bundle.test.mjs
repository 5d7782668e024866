// chaind's bundle (the last step of `npm run build`, apps/node/scripts/bundle.mjs): built from the compiled output
// into a folder of its own, then run as a user runs chaind: a dev node, client commands (a key recovered, a bank send
// signed and broadcast, the tx found through the tx index's worker, which is bundled too), and contract code through
// eth_call (the EVM's interpreter fast paths must reach the bundled EVM: the node warns when they do not).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ROOT, buildOnce, cleanEnv, run } from './build.mjs';

const freePort = () => new Promise((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('bundle: chaind bundled by npm run build runs as the compiled files do', function () {
  // (inside the repository: the bundle loads the native addons from its node_modules)
  const out = join(ROOT, 'apps', 'node', 'dist', `bundle-test-${process.pid}`);
  let home;
  let keys;
  let node;
  let output = '';
  let rpc;
  let eth;
  let bundled;
  const chaind = (args, input) => run(process.execPath, [join(out, 'main.mjs'), ...args], ROOT, { allowFail: true, input });

  before(async function () {
    buildOnce();
    bundled = run(process.execPath, [join(ROOT, 'apps', 'node', 'scripts', 'bundle.mjs'), '--out', out], ROOT);
    home = mkdtempSync(join(tmpdir(), 'chaind-bundle-'));
    keys = mkdtempSync(join(tmpdir(), 'chaind-bundle-keys-'));
    const [p1, p2, p3, p4, p5] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    rpc = `http://127.0.0.1:${p1}`;
    eth = `http://127.0.0.1:${p4}`;
    node = spawn(process.execPath, [
      join(out, 'main.mjs'), 'dev', '--home', home, '--consensus.timeout_commit', '300ms',
      '--rpc.laddr', `tcp://127.0.0.1:${p1}`, '--api.address', `tcp://127.0.0.1:${p2}`, '--grpc.address', `127.0.0.1:${p3}`,
      '--json-rpc.address', `127.0.0.1:${p4}`, '--json-rpc.ws-address', `127.0.0.1:${p5}`,
    ], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    node.stdout.on('data', (d) => { output += d; });
    node.stderr.on('data', (d) => { output += d; });
    for (let i = 0; ; i++) {
      if (node.exitCode !== null) throw new Error(`the bundled chaind exited (${node.exitCode}):\n${output}`);
      const h = await fetch(`${rpc}/status`).then((r) => r.json()).then((j) => Number(j.result.sync_info.latest_block_height), () => 0);
      if (h >= 1) break;
      if (i > 600) throw new Error(`the bundled chaind did not commit a block in 60 s:\n${output}`);
      await sleep(100);
    }
  });

  after(async function () {
    if (node && node.exitCode === null) {
      const exited = new Promise((r) => node.once('exit', r));
      node.kill('SIGTERM');
      await exited;
    }
    for (const d of [home, keys, out]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('is a few files, made from the compiled output and node_modules, with its checkout recorded', function () {
    expect(bundled.stdout).to.match(/^bundle: \d+ files into \d+ /);
    const files = readdirSync(out);
    expect(files).to.include.members(['main.mjs', 'index-worker-main.mjs', 'bundle.json']);
    expect(files.length).to.be.below(80);
    const stamp = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8'));
    expect(stamp.root).to.equal(ROOT.replace(/\/$/, ''));
    expect(stamp.inputs).to.be.above(500);
  });

  it('a dev node from it commits blocks, with no warning (native addons loaded, the EVM fast paths installed)', async function () {
    const h0 = Number((await (await fetch(`${rpc}/status`)).json()).result.sync_info.latest_block_height);
    await sleep(1000);
    const h1 = Number((await (await fetch(`${rpc}/status`)).json()).result.sync_info.latest_block_height);
    expect(h1).to.be.above(h0);
    expect(output).to.not.match(/ (WARN|ERROR) /);
  });

  it('contract code runs: eth_call of init code returns the runtime code it copies out', async function () {
    // init code: CODECOPY the 10 bytes after it to memory and RETURN them
    const runtime = '602a60005260206000f3';
    const init = `0x600a600c600039600a6000f3${runtime}`;
    const r = await (await fetch(eth, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: init }, 'latest'] }),
    })).json();
    expect(r.result, JSON.stringify(r)).to.equal(`0x${runtime}`);
  });

  it('client commands from it: a recovered dev key sends a bank transfer, found by hash through the tx index worker', async function () {
    const common = ['--home', keys, '--keyring-backend', 'test', '--node', rpc, '-o', 'json'];
    const key = chaind(['keys', 'add', 'dev0', '--recover', '--dev', '--algo', 'eth_secp256k1', ...common]);
    expect(key.status, key.stderr).to.equal(0);
    const other = chaind(['keys', 'add', 'other', ...common]);
    expect(other.status, other.stderr).to.equal(0);
    const to = JSON.parse(other.stdout).address;
    const sent = chaind(['tx', 'bank', 'send', to, '1234achain', '--from', 'dev0', '--gas-prices', '1000000000achain', '--yes', ...common]);
    expect(sent.status, sent.stderr).to.equal(0);
    const { txhash, code } = JSON.parse(sent.stdout);
    expect(code).to.equal(0);
    let found;
    for (let i = 0; i < 100 && !found; i++) {
      const q = chaind(['query', 'tx', txhash, ...common]);
      if (q.status === 0) found = JSON.parse(q.stdout);
      else await sleep(200);
    }
    expect(found, `tx ${txhash} not found`).to.not.equal(undefined);
    expect(found.code).to.equal(0);
    const bal = chaind(['query', 'bank', 'balance', to, 'achain', ...common]);
    expect(JSON.parse(bal.stdout).balance.amount).to.equal('1234');
    expect(existsSync(join(out, 'index-worker-main.mjs'))).to.equal(true);
  });
});
