import { expect } from 'chai';
import { SigningStargateClient, StargateClient, GasPrice } from '@cosmjs/stargate';
import { toBase64 } from '@cosmjs/encoding';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, fee, getJson, postJson, WsSubscription, ethDevAccount, buildEthSignedSend, DENOM, CHAIN_ID } from '../src/clients.js';

describe('e2e: bank send through chaind dev', function () {
  this.timeout(120_000);
  let node: NodeHandle;

  before(async () => {
    node = await startNode();
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('serves status as CometBFT 0.38 so cosmjs connects, with the dev chain id', async () => {
    const client = await StargateClient.connect(node.rpcUrl);
    expect(await client.getChainId()).to.equal(CHAIN_ID);
    expect(await client.getHeight()).to.be.greaterThan(0);
    client.disconnect();
  });

  it('sends tokens with SigningStargateClient from a coin-type-118 dev account and everything sees it', async () => {
    const wallet = await devWallet(0);
    const [sender] = await wallet.getAccounts();
    const recipient = (await (await devWallet(5)).getAccounts())[0]!.address;
    const sub = await WsSubscription.open(node.wsUrl, `tm.event='Tx' AND message.sender='${sender!.address}'`);
    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });

    const before = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}`);
    expect(before.status).to.equal(200);
    const beforeAmount = BigInt(before.body.balances[0].amount);

    const res = await client.sendTokens(sender!.address, recipient, [{ denom: DENOM, amount: '12345' }], fee(), 'hello');
    expect(res.code, res.rawLog).to.equal(0);
    const hash = res.transactionHash;

    // balance over REST
    const after = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}`);
    expect(BigInt(after.body.balances[0].amount) - beforeAmount).to.equal(12345n);
    const byDenom = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}/by_denom?denom=${DENOM}`);
    expect(byDenom.body.balance.amount).to.equal(after.body.balances[0].amount);

    // the balance at the height before the send, through x-cosmos-block-height
    const past = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}`, { 'x-cosmos-block-height': String(res.height - 1) });
    expect(past.status).to.equal(200);
    expect(past.body.balances[0].amount).to.equal(before.body.balances[0].amount);
    const future = await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}`, { 'x-cosmos-block-height': String(res.height + 100000) });
    expect(future.status).to.equal(400);

    // tx by hash over REST
    const tx = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${hash}`);
    expect(tx.status).to.equal(200);
    expect(tx.body.tx_response.txhash).to.equal(hash);
    expect(tx.body.tx_response.code).to.equal(0);
    expect(tx.body.tx_response.height).to.equal(String(res.height));
    expect(tx.body.tx.body.memo).to.equal('hello');
    expect(tx.body.tx.body.messages[0]['@type']).to.equal('/chain.bank.v1beta1.MsgSend');
    const actions = tx.body.tx_response.events.filter((e: any) => e.type === 'message').flatMap((e: any) => e.attributes.filter((a: any) => a.key === 'action').map((a: any) => a.value));
    expect(actions).to.deep.equal(['/chain.bank.v1beta1.MsgSend']);
    // lower-case hash works too, and the cosmos spelling of the route
    const lower = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs/${hash.toLowerCase()}`);
    expect(lower.body.tx_response.txhash).to.equal(hash);
    expect(lower.body.tx.body.messages[0]['@type']).to.equal('/cosmos.bank.v1beta1.MsgSend');

    // search by message.action and by message.sender
    const byAction = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${encodeURIComponent("message.action='/chain.bank.v1beta1.MsgSend'")}&pagination.limit=100&pagination.offset=0`);
    expect(byAction.status).to.equal(200);
    expect(byAction.body.tx_responses.map((t: any) => t.txhash)).to.include(hash);
    const byAlias = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?events=${encodeURIComponent("message.action='/cosmos.bank.v1beta1.MsgSend'")}`);
    expect(byAlias.body.tx_responses.map((t: any) => t.txhash)).to.include(hash);
    const bySender = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${encodeURIComponent(`message.sender='${sender!.address}'`)}&events=${encodeURIComponent(`tx.height=${res.height}`)}`);
    expect(bySender.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal([hash]);
    expect(bySender.body.total).to.equal('1');

    // the websocket subscriber got the Tx event
    const ev = await sub.waitFor((e) => e.events['tx.hash']?.[0] === hash);
    expect(ev.data.type).to.equal('tendermint/event/Tx');
    expect(ev.data.value.TxResult.height).to.equal(String(res.height));
    expect(ev.events['message.sender']).to.include(sender!.address);
    sub.close();

    // cosmjs reads the same through abci_query and tx_search
    expect((await client.getBalance(recipient, DENOM)).amount).to.equal(after.body.balances[0].amount);
    const found = await client.searchTx(`message.sender='${sender!.address}'`);
    expect(found.map((t) => t.hash)).to.include(hash);
    const acct = await client.getAccount(sender!.address);
    expect(acct?.sequence).to.equal(1);
    client.disconnect();
  });

  it('simulates a send ("auto" fee) through abci_query and REST', async () => {
    const wallet = await devWallet(1);
    const [sender] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    const res = await client.sendTokens(sender!.address, sender!.address, [{ denom: DENOM, amount: '1' }], 'auto');
    expect(res.code, res.rawLog).to.equal(0);
    expect(Number(res.gasUsed)).to.be.greaterThan(0);
    client.disconnect();
  });

  it('sends from a coin-type-60 eth_secp256k1 dev account', async () => {
    const acct = ethDevAccount(0);
    const recipient = ethDevAccount(7).address;
    const info = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${acct.address}`);
    expect(info.status).to.equal(200);
    const accountNumber = BigInt(info.body.account.account_number);
    const sequence = BigInt(info.body.account.sequence);
    const before = BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}/by_denom?denom=${DENOM}`)).body.balance.amount);
    const raw = buildEthSignedSend({ ...acct, from: acct.address, to: recipient, amount: '777', accountNumber, sequence });
    const client = await StargateClient.connect(node.rpcUrl);
    const res = await client.broadcastTx(raw);
    expect(res.code, res.rawLog).to.equal(0);
    const after = BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${recipient}/by_denom?denom=${DENOM}`)).body.balance.amount);
    expect(after - before).to.equal(777n);
    const acc = await getJson(`${node.restUrl}/cosmos/auth/v1beta1/accounts/${acct.address}`);
    expect(acc.body.account.pub_key['@type']).to.equal('/ethermint.crypto.v1.ethsecp256k1.PubKey');
    expect(acc.body.account.sequence).to.equal(String(sequence + 1n));
    const chainAcc = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${acct.address}`);
    expect(chainAcc.body.account.pub_key['@type']).to.equal('/chain.crypto.ethsecp256k1.PubKey');
    client.disconnect();
  });

  it('broadcasts over REST in SYNC mode', async () => {
    const acct = ethDevAccount(1);
    const info = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${acct.address}`);
    const raw = buildEthSignedSend({ ...acct, from: acct.address, to: acct.address, amount: '5', accountNumber: BigInt(info.body.account.account_number), sequence: BigInt(info.body.account.sequence) });
    const r = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode: 'BROADCAST_MODE_SYNC' });
    expect(r.status).to.equal(200);
    expect(r.body.tx_response.code, r.body.tx_response.raw_log).to.equal(0);
    expect(r.body.tx_response.txhash).to.match(/^[0-9A-F]{64}$/);
  });
});
