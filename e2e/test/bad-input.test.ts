import { expect } from 'chai';
import { StargateClient } from '@cosmjs/stargate';
import { toBase64 } from '@cosmjs/encoding';
import { toBech32 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { getJson, postJson, ethDevAccount, buildEthSignedSend, DENOM } from '../src/clients.js';

describe('e2e: bad input gets a clear error and changes nothing', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  const sender = ethDevAccount(3);
  const recipient = ethDevAccount(8).address;

  const balance = async (addr: string): Promise<bigint> =>
    BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${addr}/by_denom?denom=${DENOM}`)).body.balance.amount);
  const account = async (addr: string): Promise<{ accountNumber: bigint; sequence: bigint }> => {
    const r = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${addr}`);
    return { accountNumber: BigInt(r.body.account.account_number), sequence: BigInt(r.body.account.sequence) };
  };
  const broadcast = async (raw: Uint8Array) => postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_SYNC' });

  before(async () => {
    node = await startNode();
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('wrong signature (signed for another chain id): code 4, nothing changes', async () => {
    const a = await account(sender.address);
    const before = [await balance(sender.address), await balance(recipient)];
    const r = await broadcast(buildEthSignedSend({ ...sender, from: sender.address, to: recipient, amount: '1', ...a, chainId: 'other_9-1' }));
    expect(r.status).to.equal(200);
    expect(r.body.tx_response.code).to.equal(4);
    expect(r.body.tx_response.codespace).to.equal('sdk');
    expect(r.body.tx_response.raw_log).to.match(/signature verification failed; please verify account number \(\d+\) and chain-id \(chain_1337-1\)/);
    expect([await balance(sender.address), await balance(recipient)]).to.deep.equal(before);
    expect((await account(sender.address)).sequence).to.equal(a.sequence);
  });

  it('wrong sequence: code 32 with the expected sequence', async () => {
    const a = await account(sender.address);
    const r = await broadcast(buildEthSignedSend({ ...sender, from: sender.address, to: recipient, amount: '1', accountNumber: a.accountNumber, sequence: a.sequence + 5n }));
    expect(r.body.tx_response.code).to.equal(32);
    expect(r.body.tx_response.raw_log).to.equal(`account sequence mismatch, expected ${a.sequence}, got ${a.sequence + 5n}: incorrect account sequence`);
  });

  it('insufficient fee: code 13 in CheckTx', async () => {
    // a cosmjs-built tx with a fee below gas x minimum gas price
    const a = await account(sender.address);
    const raw = buildEthSignedSend({ ...sender, from: sender.address, to: recipient, amount: '1', ...a, feeAmount: '1' });
    const r = await broadcast(raw);
    expect(r.body.tx_response.code).to.equal(13);
    expect(r.body.tx_response.raw_log).to.match(/^insufficient fees; got: 1achain required: \d+achain: insufficient fee$/);
  });

  it('insufficient funds: the send fails in the block with code 5 and moves no tokens', async () => {
    const a = await account(sender.address);
    const before = await balance(recipient);
    const tooMuch = (await balance(sender.address)) + 1n;
    const client = await StargateClient.connect(node.rpcUrl);
    const res = await client.broadcastTx(buildEthSignedSend({ ...sender, from: sender.address, to: recipient, amount: tooMuch.toString(), ...a }));
    expect(res.code).to.equal(5);
    expect(res.rawLog).to.match(/insufficient funds/);
    expect(await balance(recipient)).to.equal(before);
    client.disconnect();
  });

  it('garbage and empty tx_bytes', async () => {
    const garbage = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(new TextEncoder().encode('definitely not a tx')), mode: 'BROADCAST_MODE_SYNC' });
    expect(garbage.status).to.equal(200);
    expect(garbage.body.tx_response.code).to.equal(2);
    expect(garbage.body.tx_response.raw_log).to.match(/tx parse error/);
    const empty = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: '', mode: 'BROADCAST_MODE_SYNC' });
    expect(empty.status).to.equal(400);
    expect(empty.body).to.deep.equal({ code: 3, message: 'invalid empty tx', details: [] });
    const badB64 = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: '%%%', mode: 'BROADCAST_MODE_SYNC' });
    expect(badB64.status).to.equal(400);
    expect(badB64.body.code).to.equal(3);
    const badJson = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, '{not json');
    expect(badJson.status).to.equal(400);
    const rpc = await postJson(node.rpcUrl, { jsonrpc: '2.0', id: 7, method: 'broadcast_tx_sync', params: { tx: toBase64(new Uint8Array([1, 2, 3])) } });
    expect(rpc.body.id).to.equal(7);
    expect(rpc.body.result.code).to.equal(2);
  });

  it('unknown and invalid addresses', async () => {
    const unknown = toBech32('chain', new Uint8Array(20).fill(0x42));
    const acc = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${unknown}`);
    expect(acc.status).to.equal(404);
    expect(acc.body).to.deep.equal({ code: 5, message: `account ${unknown} not found`, details: [] });
    const bal = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${unknown}`);
    expect(bal.status).to.equal(200);
    expect(bal.body).to.deep.equal({ balances: [], pagination: { next_key: null, total: '0' } });
    const bad = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/notanaddress`);
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal(3);
    expect(bad.body.message).to.match(/^invalid address: decoding bech32 failed/);
    const client = await StargateClient.connect(node.rpcUrl);
    expect(await client.getAccount(unknown)).to.equal(null);
    client.disconnect();
  });

  it('bad denom and bad pagination', async () => {
    const r = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${sender.address}/by_denom?denom=1bad!`);
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('invalid denom: 1bad!');
    const lim = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${sender.address}?pagination.limit=101`);
    expect(lim.status).to.equal(400);
    expect(lim.body.message).to.match(/pagination.limit must be at most 100/);
    const nan = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${sender.address}?pagination.limit=abc`);
    expect(nan.status).to.equal(400);
  });

  it('keeps producing blocks after all of that', async () => {
    const h1 = Number((await getJson(`${node.rpcUrl}/status`)).body.result.sync_info.latest_block_height);
    await new Promise((r) => setTimeout(r, 800));
    const h2 = Number((await getJson(`${node.rpcUrl}/status`)).body.result.sync_info.latest_block_height);
    expect(h2).to.be.greaterThan(h1);
  });
});
