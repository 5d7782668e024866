/**
 * `chaind localnet`: 4 validators (4 chaind + 4 CometBFT processes) on loopback, started and stopped through the
 * CLI: they agree on blocks, a tx sent to one node is seen on the others (REST, CometBFT websocket, Ethereum
 * JSON-RPC), a SIGKILLed validator is not needed for progress and catches up after `localnet restart-node`, and
 * `localnet stop` leaves no process behind.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { ensureCometbft } from '@chain/cometbft';
import { devAccounts } from '@chain/node';
import { devWallet, fee, getJson, postJson, rpcCall, WsSubscription, DENOM } from '../src/clients.js';

const CHAIND = new URL('../../apps/node/bin/chaind.mjs', import.meta.url).pathname;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface LnNode { rest: string; rpc: string; grpc: string; eth: string; ethWs: string; pids: number[]; home: string }

function chaind(args: string[], timeoutMs = 240_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHAIND, ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`chaind ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** alive and not a zombie (an exited process its reparented parent has not reaped yet) */
function alive(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch { return false; }
}

async function height(n: LnNode): Promise<number> {
  return Number((await rpcCall(n.rpc, 'status')).result.sync_info.latest_block_height);
}

async function waitHeight(n: LnNode, h: number, timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    let cur = -1;
    try { cur = await height(n); } catch { /* restarting */ }
    if (cur >= h) return cur;
    if (Date.now() > end) throw new Error(`${n.home}: height ${cur} did not reach ${h}`);
    await sleep(200);
  }
}

async function blockAt(n: LnNode, h: number): Promise<{ hash: string; appHash: string }> {
  const b = (await rpcCall(n.rpc, 'block', { height: String(h) })).result;
  return { hash: b.block_id.hash, appHash: b.block.header.app_hash };
}

describe('e2e: chaind localnet (4 validators, each chaind + CometBFT)', function () {
  this.timeout(180_000);
  let dir: string;
  let nodes: LnNode[] = [];
  let stopped = false;

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build (go install) takes a few minutes
    await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
    dir = mkdtempSync(join(tmpdir(), 'chaind-localnet-'));
    const out = await chaind(['localnet', 'start', '--home', dir, '--validators', '4', '--timeout-commit', '1s']);
    expect(out).to.match(/4 validators running/);
    nodes = JSON.parse(readFileSync(join(dir, 'localnet.json'), 'utf8')).nodes;
  });

  after(async () => {
    if (!stopped && dir) await chaind(['localnet', 'stop', '--home', dir]).catch(() => undefined);
    // whatever happened, no process of this localnet survives the test
    for (const p of nodes.flatMap((n) => n.pids)) if (alive(p)) process.kill(p, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('localnet.json lists 4 nodes with endpoints and two live pids each; status shows heights and 3 peers each', async () => {
    expect(nodes).to.have.length(4);
    for (const n of nodes) {
      expect(n.rest).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(n.rpc).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(n.eth).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(n.ethWs).to.match(/^ws:\/\/127\.0\.0\.1:\d+$/);
      expect(n.grpc).to.match(/^127\.0\.0\.1:\d+$/);
      expect(n.pids).to.have.length(2);
      for (const p of n.pids) expect(alive(p), `pid ${p}`).to.equal(true);
      expect(readFileSync(`/proc/${n.pids[0]}/cmdline`, 'utf8')).to.contain('cometbft');
    }
    expect(new Set(nodes.flatMap((n) => [n.rpc, n.rest, n.eth, n.ethWs, n.grpc])).size).to.equal(20);
    // peers connect once each CometBFT dialled the others
    const end = Date.now() + 30_000;
    let out = '';
    for (;;) {
      out = await chaind(['localnet', 'status', '--home', dir]);
      if ((out.match(/peers 3/g) ?? []).length === 4 || Date.now() > end) break;
      await sleep(500);
    }
    expect(out).to.match(/^node0: height \d+, peers 3$/m);
    expect((out.match(/height \d+, peers 3/g) ?? []).length, out).to.equal(4);
  });

  it('the 4 validators produce the blocks: all 4 in /validators, heights increase on every node, the same block hash at a common height', async () => {
    const vals = (await rpcCall(nodes[0]!.rpc, 'validators')).result;
    expect(vals.total).to.equal('4');
    const keys = new Set(vals.validators.map((v: { pub_key: { value: string } }) => v.pub_key.value));
    for (const n of nodes) {
      const key = JSON.parse(readFileSync(join(n.home, 'config', 'priv_validator_key.json'), 'utf8')).pub_key.value;
      expect(keys.has(key), `${n.home}'s key in the set`).to.equal(true);
    }
    for (const v of vals.validators) expect(v.voting_power).to.equal('1000');
    // staking agrees: 4 bonded validators, each with its operator's self-delegation
    const rest = await getJson(`${nodes[3]!.rest}/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED`);
    expect(rest.body.validators).to.have.length(4);

    const start = await Promise.all(nodes.map(height));
    await Promise.all(nodes.map((n, i) => waitHeight(n, start[i]! + 2, 30_000)));
    const common = Math.min(...(await Promise.all(nodes.map(height))));
    const blocks = await Promise.all(nodes.map((n) => blockAt(n, common)));
    for (const b of blocks) expect(b).to.deep.equal(blocks[0]);
    // blocks are signed by more than one validator (a 4-validator commit needs 3)
    const commit = (await rpcCall(nodes[1]!.rpc, 'commit', { height: String(common) })).result.signed_header.commit;
    expect(commit.signatures.filter((s: { block_id_flag: number }) => s.block_id_flag === 2).length).to.be.greaterThanOrEqual(3);
  });

  it('a cosmjs bank send through node 1\'s RPC is visible over REST on node 4 and as a Tx event on node 4\'s websocket', async () => {
    const ws = await WsSubscription.open(`${nodes[3]!.rpc.replace('http', 'ws')}/websocket`, "tm.event='Tx'");
    try {
      const wallet = await devWallet(0);
      const [sender] = await wallet.getAccounts();
      const recipient = (await (await devWallet(7)).getAccounts())[0]!.address;
      const balanceOn4 = async (): Promise<bigint> => {
        const r = await getJson(`${nodes[3]!.rest}/cosmos/bank/v1beta1/balances/${recipient}`);
        expect(r.status).to.equal(200);
        return BigInt(r.body.balances.find((b: { denom: string }) => b.denom === DENOM)?.amount ?? 0);
      };
      const before = await balanceOn4();
      const client = await SigningStargateClient.connectWithSigner(nodes[0]!.rpc, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
      const res = await client.sendTokens(sender!.address, recipient, [{ denom: DENOM, amount: '777' }], fee(), 'localnet');
      client.disconnect();
      expect(res.code, res.rawLog).to.equal(0);

      const ev = await ws.waitFor((e) => e.events?.['tx.hash']?.[0] === res.transactionHash, 20_000);
      expect(ev.data.type).to.equal('tendermint/event/Tx');
      expect(Number(ev.data.value.TxResult.height)).to.equal(res.height);
      expect(ev.data.value.TxResult.result.code ?? 0).to.equal(0);
      expect(ev.events['transfer.recipient']).to.include(recipient);
      // node 4's app committed the block (REST reads the app's state)
      const end = Date.now() + 15_000;
      let after = await balanceOn4();
      while (after === before && Date.now() < end) { await sleep(200); after = await balanceOn4(); }
      expect(after - before).to.equal(777n);
      // and node 4's CometBFT indexed it
      const tx = (await getJson(`${nodes[3]!.rpc}/tx?hash=0x${res.transactionHash}`)).body.result;
      expect(Number(tx.height)).to.equal(res.height);
    } finally {
      ws.close();
    }
  });

  it('ethers: a value transfer through node 2\'s Ethereum JSON-RPC is seen by node 3\'s eth_getTransactionReceipt', async () => {
    const acct = devAccounts().find((a) => a.coinType === 60 && a.index === 2)!;
    const provider = new JsonRpcProvider(nodes[1]!.eth, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 250;
    try {
      const wallet = new Wallet(`0x${acct.privateKey}`, provider);
      const to = Wallet.createRandom().address;
      const tx = await wallet.sendTransaction({ to, value: parseEther('0.25') });
      const rc = (await tx.wait(1, 60_000))!;
      expect(rc.status).to.equal(1);
      let id = 0;
      const call = async (m: string, params: unknown[]): Promise<any> => (await postJson(nodes[2]!.eth, { jsonrpc: '2.0', id: ++id, method: m, params })).body.result;
      const end = Date.now() + 20_000;
      let r3 = await call('eth_getTransactionReceipt', [tx.hash]);
      while (!r3 && Date.now() < end) { await sleep(250); r3 = await call('eth_getTransactionReceipt', [tx.hash]); }
      expect(r3, 'receipt on node 3').to.not.equal(null);
      expect(r3.status).to.equal('0x1');
      expect(r3.blockHash).to.equal(rc.blockHash);
      expect(Number(r3.blockNumber)).to.equal(rc.blockNumber);
      expect(r3.to.toLowerCase()).to.equal(to.toLowerCase());
      expect(BigInt(await call('eth_getBalance', [to, 'latest']))).to.equal(parseEther('0.25'));
    } finally {
      provider.destroy();
    }
  });

  it('a SIGKILLed validator is not needed for progress; `localnet restart-node` brings it back and it catches up with the same app hashes', async () => {
    const victim = nodes[3]!;
    const killedAt = await height(victim);
    for (const p of victim.pids) process.kill(p, 'SIGKILL');
    const end = Date.now() + 10_000;
    while (victim.pids.some(alive) && Date.now() < end) await sleep(50);
    expect(victim.pids.some(alive)).to.equal(false);
    // the other three (3000 of 4000 power > 2/3) go on
    const h0 = await height(nodes[0]!);
    await Promise.all(nodes.slice(0, 3).map((n) => waitHeight(n, h0 + 3, 30_000)));

    const out = await chaind(['localnet', 'restart-node', '--home', dir, '--node', '3']);
    expect(out).to.match(/node3 restarted/);
    const updated: LnNode[] = JSON.parse(readFileSync(join(dir, 'localnet.json'), 'utf8')).nodes;
    expect(updated[3]!.pids).to.not.deep.equal(victim.pids);
    for (const p of updated[3]!.pids) expect(alive(p)).to.equal(true);
    nodes = updated;

    const target = (await height(nodes[0]!)) + 1;
    await waitHeight(nodes[3]!, target, 60_000);
    // the same blocks and app hashes as the others: before the kill, while it was down and after it came back
    for (const h of [killedAt, h0 + 2, target]) {
      const [a, b] = await Promise.all([blockAt(nodes[0]!, h), blockAt(nodes[3]!, h)]);
      expect(b, `height ${h}`).to.deep.equal(a);
    }
    // its app committed the same state (abci_info: the app's last height and app hash)
    const info3 = (await rpcCall(nodes[3]!.rpc, 'abci_info')).result.response;
    const appH = Number(info3.last_block_height);
    expect(appH).to.be.greaterThanOrEqual(target - 1);
    // the app hash after height H is in the header of H + 1
    await waitHeight(nodes[0]!, appH + 1);
    const next = await blockAt(nodes[0]!, appH + 1);
    expect(Buffer.from(info3.last_block_app_hash, 'base64').toString('hex').toUpperCase()).to.equal(next.appHash);
  });

  it('`localnet stop` stops every process of it', async () => {
    const pids = nodes.flatMap((n) => n.pids);
    expect(pids).to.have.length(8);
    const out = await chaind(['localnet', 'stop', '--home', dir], 60_000);
    stopped = true;
    expect(out).to.match(/stopped/);
    for (const p of pids) expect(alive(p), `pid ${p}`).to.equal(false);
    for (const n of nodes) {
      const r = await fetch(`${n.rpc}/status`).then(() => 'up', () => 'down');
      expect(r).to.equal('down');
    }
    const s = await chaind(['localnet', 'status', '--home', dir]);
    expect((s.match(/not running/g) ?? []).length).to.equal(4);
  });
});
