import { expect } from 'chai';
import { toBase64 } from '@cosmjs/encoding';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { getJson, postJson, ethDevAccount, buildEthSignedSend, DENOM } from '../src/clients.js';

describe('e2e: SIGKILL under load, then restart', function () {
  this.timeout(180_000);
  let node: NodeHandle;
  const senders = [ethDevAccount(4), ethDevAccount(5)];
  const recipient = ethDevAccount(9).address;

  before(async () => {
    node = await startNode({ timeoutCommit: '100ms' });
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  const rpc = async (method: string, params: Record<string, unknown> = {}) => (await postJson(node.rpcUrl, { jsonrpc: '2.0', id: 1, method, params })).body;
  const balance = async (addr: string): Promise<bigint> =>
    BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${addr}/by_denom?denom=${DENOM}`)).body.balance.amount);

  it('resumes from the last committed height with the same app hash and balances', async () => {
    const initial = await balance(recipient);
    const accts = await Promise.all(senders.map(async (s) => {
      const r = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${s.address}`);
      return { ...s, accountNumber: BigInt(r.body.account.account_number), sequence: BigInt(r.body.account.sequence), initialSequence: BigInt(r.body.account.sequence) };
    }));

    // load: keep both senders' txs flowing while blocks are produced
    let stop = false;
    const observed: { height: number; appHash: string }[] = [];
    const load = Promise.all(accts.map(async (a) => {
      while (!stop) {
        const raw = buildEthSignedSend({ ...a, from: a.address, to: recipient, amount: '1', accountNumber: a.accountNumber, sequence: a.sequence });
        try {
          const r = await rpc('broadcast_tx_sync', { tx: toBase64(raw) });
          if (r.result && r.result.code === 0) a.sequence++;
          else await new Promise((res) => setTimeout(res, 20));
        } catch {
          return; // node gone
        }
      }
    }));
    const watcher = (async () => {
      while (!stop) {
        try {
          const s = (await rpc('status')).result.sync_info;
          observed.push({ height: Number(s.latest_block_height), appHash: s.latest_app_hash });
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    await new Promise((r) => setTimeout(r, 4000));
    await node.kill();
    stop = true;
    await Promise.all([load, watcher]);
    const last = observed[observed.length - 1]!;
    expect(last.height).to.be.greaterThan(3);

    await node.restart();
    const info = (await rpc('abci_info')).result.response;
    expect(Number(info.last_block_height)).to.be.at.least(last.height);

    // the app hash observed at `last.height` is the one committed: the next header carries it
    let next;
    for (let i = 0; i < 100; i++) {
      next = (await rpc('header', { height: String(last.height + 1) })).result;
      if (next) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(next.header.app_hash).to.equal(last.appHash);
    // every block links to its predecessor across the crash
    const prev = (await rpc('block', { height: String(last.height) })).result;
    expect(next.header.last_block_id.hash).to.equal(prev.block_id.hash);

    // balances agree with what was committed: one token per committed tx, sequences match
    const committed = [];
    for (const a of accts) {
      // both conditions in the send's transfer event (the tx index matches conditions within one event)
      const search = (await rpc('tx_search', { query: `transfer.sender='${a.address}' AND transfer.recipient='${recipient}'`, per_page: '100' })).result;
      const r = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${a.address}`);
      const seq = BigInt(r.body.account.sequence);
      // all txs of this sender after the test started are sends to the recipient
      const total = Number(search.total_count);
      committed.push(total);
      expect(search.txs.every((t: any) => t.tx_result.code === 0)).to.equal(true);
      expect(seq - a.initialSequence).to.equal(BigInt(total));
    }
    const n = committed.reduce((x, y) => x + y, 0);
    expect(n).to.be.greaterThan(10);
    expect(await balance(recipient) - initial).to.equal(BigInt(n));

    // and it keeps going
    const h = Number((await rpc('status')).result.sync_info.latest_block_height);
    await new Promise((r) => setTimeout(r, 600));
    expect(Number((await rpc('status')).result.sync_info.latest_block_height)).to.be.greaterThan(h);
  });
});
