/**
 * `chaind localnet`: 4 validators (4 chaind + 4 CometBFT processes) on loopback, started and stopped through the
 * CLI: they agree on blocks, a tx sent to one node is seen on the others (REST, CometBFT websocket, Ethereum
 * JSON-RPC; an ERC-20's Transfer logs through `eth_subscribe('logs')`), a SIGKILLed validator is not needed for
 * progress and catches up after `localnet restart-node`, two SIGSTOPped validators halt the chain without a fork
 * until SIGCONT, and `localnet stop` leaves no process behind.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { Contract, ContractFactory, Interface, JsonRpcProvider, Wallet, id as keccakId, parseEther } from 'ethers';
import { devAccounts } from '@chain/node';
import { devWallet, fee, getJson, postJson, rpcCall, WsSubscription, DENOM } from '../src/clients.js';
import { EthWs } from '../src/eth-rpc-client.js';
import { alive, blockAt, chaind, height, sleep, waitHeight, startLocalnet, teardownLocalnet } from '../src/localnet.js';
import type { LnNode } from '../src/localnet.js';
import { compileToken } from '../src/solidity.js';

describe('e2e: chaind localnet (4 validators, each chaind + CometBFT)', function () {
  this.timeout(180_000);
  let dir: string;
  let nodes: LnNode[] = [];
  let stopped = false;

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build (go install) takes a few minutes
    let out: string;
    ({ dir, out, nodes } = await startLocalnet('localnet', ['--validators', '4', '--timeout-commit', '1s']));
    expect(out).to.match(/4 validators running/);
  });

  // whatever happened, no process of this localnet survives the test
  after(() => teardownLocalnet(dir, { stopped }));

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

  it('ethers: an ERC-20 deployed and transferred through node 2\'s JSON-RPC; node 3\'s eth_subscribe(\'logs\') receives both Transfer logs', async () => {
    const TRANSFER = keccakId('Transfer(address,address,uint256)');
    const ws = await EthWs.open(nodes[2]!.ethWs);
    const acct = devAccounts().find((a) => a.coinType === 60 && a.index === 3)!;
    const provider = new JsonRpcProvider(nodes[1]!.eth, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 250;
    try {
      const sub = (await ws.call(1, 'eth_subscribe', ['logs', { topics: [TRANSFER] }])).result;
      expect(sub).to.match(/^0x[0-9a-f]+$/);
      const wallet = new Wallet(`0x${acct.privateKey}`, provider);
      const { abi, bytecode } = compileToken();
      const c = await new ContractFactory(abi, bytecode, wallet).deploy(1_000_000n);
      const deployRc = (await c.deploymentTransaction()!.wait(1, 60_000))!;
      expect(deployRc.status).to.equal(1);
      const tokenAddr = (await c.getAddress()).toLowerCase();
      const to = Wallet.createRandom().address;
      const t = await new Contract(tokenAddr, abi, wallet).getFunction('transfer')(to, 250n);
      const rc = (await t.wait(1, 60_000))!;
      expect(rc.status).to.equal(1);
      expect(rc.logs).to.have.length(1);

      // node 3's websocket: the mint in the deployment, then the transfer, each with its block from node 3's chain
      const mint = (await ws.notification((m) => m.params.subscription === sub && m.params.result.transactionHash === deployRc.hash, 30_000)).params.result;
      expect(mint.address).to.equal(tokenAddr);
      expect(Number(mint.blockNumber)).to.equal(deployRc.blockNumber);
      const log = (await ws.notification((m) => m.params.subscription === sub && m.params.result.transactionHash === t.hash, 30_000)).params.result;
      expect(log.address).to.equal(tokenAddr);
      expect(log.blockHash).to.equal(rc.blockHash);
      expect(Number(log.blockNumber)).to.equal(rc.blockNumber);
      expect(log.topics[0]).to.equal(TRANSFER);
      expect(log.removed).to.equal(false);
      const parsed = new Interface(abi).parseLog({ topics: log.topics, data: log.data })!;
      expect(parsed.args[0].toLowerCase()).to.equal(wallet.address.toLowerCase());
      expect(parsed.args[1].toLowerCase()).to.equal(to.toLowerCase());
      expect(parsed.args[2]).to.equal(250n);
      // and node 3's state has the balance (eth_call on its own app)
      const p3 = new JsonRpcProvider(nodes[2]!.eth, undefined, { staticNetwork: true, cacheTimeout: -1 });
      try {
        expect(await new Contract(tokenAddr, abi, p3).getFunction('balanceOf')(to)).to.equal(250n);
      } finally {
        p3.destroy();
      }
    } finally {
      provider.destroy();
      await ws.close();
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
    // node 0 too: on a loaded machine node 3 may reach a height (from nodes 1 and 2) before node 0 has committed it
    await Promise.all([waitHeight(nodes[3]!, target, 60_000), waitHeight(nodes[0]!, target, 60_000)]);
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

  it('SIGSTOP two of four validators: blocks stop on the other two at one height without a fork; SIGCONT: blocks continue on all four', async () => {
    const frozen = [nodes[2]!, nodes[3]!];
    const live = [nodes[0]!, nodes[1]!];
    await Promise.all(nodes.map((n) => waitHeight(n, 2)));
    try {
      for (const n of frozen) for (const p of n.pids) process.kill(p, 'SIGSTOP');
      // the two live nodes (2000 of 4000 power, not > 2/3) may finish a block already precommitted, then halt:
      // wait until both report the same height and it did not move for 5 s
      let stuck = -1;
      let since = Date.now();
      const end = Date.now() + 60_000;
      for (;;) {
        const hs = await Promise.all(live.map(height));
        const h = hs[0] === hs[1] ? hs[0]! : -1;
        if (h !== stuck) { stuck = h; since = Date.now(); }
        else if (h >= 0 && Date.now() - since >= 5000) break;
        if (Date.now() > end) throw new Error(`live nodes did not settle: heights ${hs.join(',')}`);
        await sleep(250);
      }
      // no progress for another 8 s (8 block times) and no conflicting block: same hash at every recent height
      const watchEnd = Date.now() + 8000;
      while (Date.now() < watchEnd) {
        for (const n of live) expect(await height(n), `${n.home} while halted`).to.equal(stuck);
        await sleep(500);
      }
      for (let h = Math.max(1, stuck - 3); h <= stuck; h++) {
        const [a, b] = await Promise.all(live.map((n) => blockAt(n, h)));
        expect(b, `height ${h}`).to.deep.equal(a);
      }
      for (const n of live) expect((await rpcCall(n.rpc, 'status')).result.sync_info.latest_block_height).to.equal(String(stuck));
    } finally {
      for (const n of frozen) for (const p of n.pids) if (alive(p)) process.kill(p, 'SIGCONT');
    }
    // resumed: all four go past the halt height, on one chain
    const stuck = await height(nodes[0]!);
    await Promise.all(nodes.map((n) => waitHeight(n, stuck + 3, 90_000)));
    for (const h of [stuck, stuck + 1, stuck + 2]) {
      const bs = await Promise.all(nodes.map((n) => blockAt(n, h)));
      for (const b of bs) expect(b, `height ${h}`).to.deep.equal(bs[0]);
    }
    // the first block after the halt carries a commit of at least 3 validators again
    const commit = (await rpcCall(nodes[0]!.rpc, 'commit', { height: String(stuck + 2) })).result.signed_header.commit;
    expect(commit.signatures.filter((s: { block_id_flag: number }) => s.block_id_flag === 2).length).to.be.greaterThanOrEqual(3);
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
