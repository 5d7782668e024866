/**
 * The app behind a real CometBFT v0.38 (`chaind start --consensus cometbft`): CometBFT produces the blocks and
 * serves the RPC, the app answers over ABCI and serves REST/gRPC state queries; a SIGKILL of the pair and a
 * restart continue the same chain (the Info handshake replays what the app did not commit).
 */
import { expect } from 'chai';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { ensureCometbft } from '@chain/cometbft';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, fee, getJson, rpcCall, DENOM, CHAIN_ID } from '../src/clients.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function status(node: NodeHandle): Promise<any> {
  return (await rpcCall(node.rpcUrl, 'status')).result;
}

async function waitHeight(node: NodeHandle, h: number, timeoutMs = 30_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const cur = Number((await status(node)).sync_info.latest_block_height);
    if (cur >= h) return cur;
    if (Date.now() > end) throw new Error(`height ${cur} did not reach ${h}:\n${node.output.slice(-3000)}`);
    await sleep(100);
  }
}

describe('e2e: chaind --consensus cometbft (the app behind a real CometBFT)', function () {
  this.timeout(120_000);
  let node: NodeHandle;

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build (go install) takes a few minutes
    await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
    node = await startNode({ consensus: 'cometbft', timeoutCommit: '300ms' });
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('CometBFT produces the blocks: its /status is CometBFT 0.38.26 for our chain, and heights increase', async () => {
    const s = await status(node);
    expect(s.node_info.version).to.equal('0.38.26');
    expect(s.node_info.network).to.equal(CHAIN_ID);
    const h = Number(s.sync_info.latest_block_height);
    await waitHeight(node, h + 2);
    // the app answers CometBFT's abci_info: its name and last committed height
    const info = (await rpcCall(node.rpcUrl, 'abci_info')).result.response;
    expect(Number(info.last_block_height)).to.be.greaterThanOrEqual(h);
    expect(node.output).to.match(/ABCI server listening on tcp:\/\/127\.0\.0\.1:\d+/);
  });

  it('the validator set CometBFT uses is the one staking decided (InitChain), with its power', async () => {
    const vals = (await rpcCall(node.rpcUrl, 'validators')).result;
    expect(vals.total).to.equal('1');
    const rest = await getJson(`${node.restUrl}/cosmos/staking/v1beta1/validators`);
    expect(rest.status).to.equal(200);
    const v = rest.body.validators[0];
    expect(vals.validators[0].pub_key.value).to.equal(v.consensus_pubkey.key);
    // consensus power = tokens / 10^18 (the SDK's power reduction)
    expect(BigInt(vals.validators[0].voting_power)).to.equal(BigInt(v.tokens) / 10n ** 18n);
  });

  it('a cosmjs bank send broadcast through CometBFT\'s RPC is committed and visible over REST and in CometBFT\'s tx index', async () => {
    const wallet = await devWallet(0);
    const [sender] = await wallet.getAccounts();
    const recipient = (await (await devWallet(6)).getAccounts())[0]!.address;
    const before = await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${recipient}`);
    expect(before.status).to.equal(200);
    const beforeAmount = BigInt(before.body.balances.find((b: { denom: string }) => b.denom === DENOM)?.amount ?? 0);

    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    const res = await client.sendTokens(sender!.address, recipient, [{ denom: DENOM, amount: '4242' }], fee(), 'via cometbft');
    expect(res.code, res.rawLog).to.equal(0);
    client.disconnect();

    const after = await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${recipient}`);
    expect(BigInt(after.body.balances.find((b: { denom: string }) => b.denom === DENOM).amount) - beforeAmount).to.equal(4242n);
    // the account's sequence moved (auth state over REST)
    const acct = await getJson(`${node.restUrl}/cosmos/auth/v1beta1/accounts/${sender!.address}`);
    expect(acct.status).to.equal(200);
    expect(Number(acct.body.account.sequence ?? acct.body.account.base_account?.sequence)).to.be.greaterThan(0);
    // CometBFT's own tx lookup has the app's result and events
    // JSON-RPC []byte params are base64 in CometBFT
    const tx = (await rpcCall(node.rpcUrl, 'tx', { hash: Buffer.from(res.transactionHash, 'hex').toString('base64') })).result;
    expect(tx, 'tx by hash from CometBFT').to.not.equal(undefined);
    expect(tx.tx_result.code).to.equal(0);
    expect(tx.tx_result.events.some((e: { type: string }) => e.type === 'transfer')).to.equal(true);
  });

  it('a bad tx is refused by the app\'s CheckTx through CometBFT\'s mempool', async () => {
    const r = await rpcCall(node.rpcUrl, 'broadcast_tx_sync', { tx: Buffer.from([1, 2, 3]).toString('base64') });
    expect(r.result.code).to.not.equal(0);
    expect(r.result.codespace).to.equal('sdk');
  });

  it('after SIGKILL of chaind and CometBFT together, a restart continues the same chain with the same app hashes', async () => {
    // keep txs flowing so the kill may land mid-block
    const wallet = await devWallet(1);
    const [sender] = await wallet.getAccounts();
    const recipient = (await (await devWallet(7)).getAccounts())[0]!.address;
    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    const sent = await client.sendTokens(sender!.address, recipient, [{ denom: DENOM, amount: '77' }], fee());
    expect(sent.code).to.equal(0);
    client.disconnect();

    const h = await waitHeight(node, sent.height + 2);
    const blockBefore = (await rpcCall(node.rpcUrl, 'block', { height: String(h) })).result;
    await node.kill();
    // no CometBFT left behind by the kill: its RPC is gone
    await sleep(300);
    await fetch(`${node.rpcUrl}/status`).then(() => { throw new Error('CometBFT still answers after SIGKILL'); }, () => undefined);

    await node.restart();
    const after = await waitHeight(node, h + 3);
    expect(after).to.be.greaterThan(h);
    // the blocks before the kill are unchanged
    const blockAgain = (await rpcCall(node.rpcUrl, 'block', { height: String(h) })).result;
    expect(blockAgain.block_id.hash).to.equal(blockBefore.block_id.hash);
    expect(blockAgain.block.header.app_hash).to.equal(blockBefore.block.header.app_hash);
    // the app's committed app hash is the one CometBFT puts into the next header
    const info = (await rpcCall(node.rpcUrl, 'abci_info')).result.response;
    const last = Number(info.last_block_height);
    await waitHeight(node, last + 1);
    const next = (await rpcCall(node.rpcUrl, 'block', { height: String(last + 1) })).result;
    expect(next.block.header.app_hash).to.equal(Buffer.from(info.last_block_app_hash, 'base64').toString('hex').toUpperCase());
    // state survived: the send before the kill is in the balance
    const bal = await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${recipient}/by_denom?denom=${DENOM}`);
    expect(BigInt(bal.body.balance.amount) >= 77n).to.equal(true);
  });
});
