/**
 * The consensus source in CometBFT mode, against a real CometBFT v0.38 (`chaind start --consensus cometbft`):
 *  - `CometSource` (packages/server/src/consensus-source.ts) read directly: its decoded blocks, results, commits,
 *    validators, tx lookups, searches (paged), broadcasts and NewBlock events are checked against CometBFT's
 *    own RPC JSON;
 *  - the surfaces that read it in this mode: the REST tx service (broadcast SYNC / BLOCK / ASYNC, GetTx, tx
 *    search in both spellings), the node-info/blocks service, and the Ethereum JSON-RPC (block number, a value
 *    transfer and its receipt, an ERC-20 deployment and its logs, `eth_subscribe('newHeads')`).
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { JsonRpcProvider, Wallet, ContractFactory, Contract, parseEther } from 'ethers';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { ensureCometbft } from '@chain/cometbft';
import { CometSource, CometRpcError } from '@chain/node';
import { toHex, sha256 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, devWallet, fee, getJson, postJson, rpcCall, signedSend, CHAIN_ID, DENOM } from '../src/clients.js';
import { compileToken } from '../src/solidity.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HEX64 = /^[0-9A-F]{64}$/;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const q = encodeURIComponent;
const b64 = (s: string): string => Buffer.from(s, 'base64').toString('hex').toUpperCase();

describe('e2e: the consensus source in cometbft mode (CometSource, and the tx / node / Ethereum surfaces on it)', function () {
  this.timeout(180_000);
  let node: NodeHandle;
  let source: CometSource;
  /** hashes (upper hex) of committed bank sends of dev account 5, in order */
  const sent: string[] = [];
  let sentHeight = 0;

  const broadcast = (raw: Uint8Array, mode: string, dialect = 'chain') =>
    postJson(`${node.restUrl}/${dialect}/tx/v1beta1/txs`, { tx_bytes: Buffer.from(raw).toString('base64'), mode });

  const waitTx = async (hash: string): Promise<any> => {
    for (let i = 0; i < 200; i++) {
      const r = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${hash}`);
      if (r.status === 200) return r.body;
      await sleep(100);
    }
    throw new Error(`tx ${hash} not found over REST`);
  };

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build (go install) takes a few minutes
    await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
    node = await startNode({ consensus: 'cometbft', timeoutCommit: '300ms', extraArgs: ['--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3,txpool'] });
    source = new CometSource({ rpcUrl: node.rpcUrl, chainId: CHAIN_ID });
    // three sends of one sender through the REST tx service (SYNC), committed by CometBFT
    const recipient = await devAddress(7);
    const signed: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) signed.push(await signedSend(node.restUrl, 5, recipient, String(10 + i), { sequenceOffset: i, memo: `comet ${i}` }));
    for (const raw of signed) {
      const r = await broadcast(raw, 'BROADCAST_MODE_SYNC');
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.tx_response.code, r.body.tx_response.raw_log).to.equal(0);
      expect(r.body.tx_response.height).to.equal('0');
      expect(r.body.tx_response.txhash).to.equal(toHex(sha256(raw)).toUpperCase());
      sent.push(r.body.tx_response.txhash);
    }
    for (const h of sent) sentHeight = Math.max(sentHeight, Number((await waitTx(h)).tx_response.height));
  });

  after(async () => {
    source?.close();
    await node?.stop();
    node?.cleanup();
  });

  describe('CometSource against CometBFT\'s RPC', () => {
    it('status, blocks, results and commits decode to what CometBFT serves', async () => {
      const st = await source.status();
      const raw = (await rpcCall(node.rpcUrl, 'status')).result;
      expect(st.nodeInfo.network).to.equal(CHAIN_ID);
      expect(st.nodeInfo.version).to.equal(raw.node_info.version);
      expect(st.nodeInfo.nodeId).to.equal(raw.node_info.id);
      expect(st.catchingUp).to.equal(false);
      expect(st.latestHeight).to.be.greaterThanOrEqual(Number(raw.sync_info.latest_block_height));
      expect(st.earliestHeight).to.equal(1);

      const h = sentHeight;
      const rb = (await rpcCall(node.rpcUrl, 'block', { height: String(h) })).result;
      const b = (await source.block(h))!;
      expect(toHex(b.blockId.hash).toUpperCase()).to.equal(rb.block_id.hash);
      expect(b.block.header.height).to.equal(h);
      expect(b.block.header.chainId).to.equal(CHAIN_ID);
      expect(toHex(b.block.header.appHash).toUpperCase()).to.equal(rb.block.header.app_hash);
      expect(toHex(b.block.header.proposerAddress).toUpperCase()).to.equal(rb.block.header.proposer_address);
      expect(toHex(b.block.header.lastBlockId.hash).toUpperCase()).to.equal(rb.block.header.last_block_id.hash);
      expect(new Date(b.block.header.time.seconds * 1000).toISOString().slice(0, 19)).to.equal(rb.block.header.time.slice(0, 19));
      expect(b.block.header.time.nanos).to.equal(Number((/\.(\d+)Z$/.exec(rb.block.header.time)?.[1] ?? '').padEnd(9, '0')));
      expect(b.block.data.txs.map((t) => toHex(t).toUpperCase())).to.deep.equal(rb.block.data.txs.map(b64));
      expect(b.size).to.be.greaterThan(0);
      expect(b.block.lastCommit!.height).to.equal(h - 1);
      expect(await source.heightByHash(b.blockId.hash)).to.equal(h);
      expect(await source.heightByHash(new Uint8Array(32))).to.equal(undefined);
      expect(await source.block(10_000_000)).to.equal(undefined);

      const rr = (await rpcCall(node.rpcUrl, 'block_results', { height: String(h) })).result;
      const r = (await source.results(h))!;
      expect(r.txResults.length).to.equal(rr.txs_results.length).and.to.be.greaterThan(0);
      expect(r.txResults[0]!.gasUsed).to.equal(Number(rr.txs_results[0].gas_used));
      expect(r.txResults[0]!.events.map((e) => e.type)).to.deep.equal(rr.txs_results[0].events.map((e: any) => e.type));
      expect(r.events.length).to.equal(rr.finalize_block_events.length);
      expect(toHex(r.appHash).toUpperCase()).to.equal(b64(rr.app_hash));
      expect(await source.results(10_000_000)).to.equal(undefined);

      const c = (await source.commit(h))!;
      expect(c.height).to.equal(h);
      expect(toHex(c.blockId.hash)).to.equal(toHex(b.blockId.hash));
      expect(c.signatures[0]!.blockIdFlag).to.equal(2);
      expect(c.signatures[0]!.signature.length).to.equal(64);
    });

    it('validators by height, consensus params, and errors other than "not found" surface as CometRpcError', async () => {
      const vals = (await source.validators(sentHeight))!;
      const raw = (await rpcCall(node.rpcUrl, 'validators', { height: String(sentHeight) })).result;
      expect(vals.length).to.equal(1);
      expect(toHex(vals[0]!.address).toUpperCase()).to.equal(raw.validators[0].address);
      expect(Buffer.from(vals[0]!.pubKey).toString('base64')).to.equal(raw.validators[0].pub_key.value);
      expect(vals[0]!.votingPower).to.equal(Number(raw.validators[0].voting_power));
      const cp = (await rpcCall(node.rpcUrl, 'consensus_params')).result.consensus_params;
      expect(await source.blockMaxGas()).to.equal(Number(cp.block.max_gas));
      let err: unknown;
      try { await source.call('tx_search', { query: '"not a query"' }); } catch (e) { err = e; }
      expect(err).to.be.instanceOf(CometRpcError);
    });

    it('tx by hash, tx_search with paging in both orders, and block_search', async () => {
      const hash = Buffer.from(sent[0]!, 'hex');
      const ref = (await source.txByHash(hash))!;
      const raw = (await rpcCall(node.rpcUrl, 'tx', { hash: hash.toString('base64') })).result;
      expect(ref.height).to.equal(Number(raw.height));
      expect(ref.index).to.equal(raw.index);
      expect(await source.txByHash(new Uint8Array(32))).to.equal(undefined);

      const sender = await devAddress(5);
      const query = `message.sender='${sender}'`;
      const all = await source.searchTxs(query, { page: 1, perPage: 100, orderDesc: false });
      expect(all.total).to.equal(3);
      expect(all.txs.map((t) => toHex(t.hash).toUpperCase())).to.deep.equal(sent);
      const desc = await source.searchTxs(query, { page: 1, perPage: 100, orderDesc: true });
      expect(desc.txs.map((t) => toHex(t.hash).toUpperCase())).to.deep.equal([...sent].reverse());
      // pages of 2: [0, 1], [2]; a page past the end is empty with the total
      const p1 = await source.searchTxs(query, { page: 1, perPage: 2, orderDesc: false });
      const p2 = await source.searchTxs(query, { page: 2, perPage: 2, orderDesc: false });
      expect(p1.txs.map((t) => toHex(t.hash).toUpperCase())).to.deep.equal(sent.slice(0, 2));
      expect(p2.txs.map((t) => toHex(t.hash).toUpperCase())).to.deep.equal(sent.slice(2));
      const p9 = await source.searchTxs(query, { page: 9, perPage: 2, orderDesc: false });
      expect(p9).to.deep.equal({ total: 3, txs: [] });
      // a page larger than CometBFT's 100 is read as CometBFT pages
      expect((await source.searchTxs(query, { page: 1, perPage: 250, orderDesc: false })).txs.length).to.equal(3);

      const blocks = await source.searchBlocks(`block.height>=1 AND block.height<=3`, { page: 1, perPage: 10, orderDesc: false });
      expect(blocks).to.deep.equal({ total: 3, heights: [1, 2, 3] });
    });

    it('broadcast sync / async / commit, mempool rejections as MempoolError, and NewBlock / Tx events over the websocket', async () => {
      const heights: number[] = [];
      const txs: string[] = [];
      const off = source.onNewBlock((h) => heights.push(h));
      const offTx = source.onTx((r) => txs.push(toHex(r.hash).toUpperCase()));
      // both subscriptions go out on one websocket, in order: once a NewBlock arrives, the Tx one is live too
      for (let i = 0; i < 100 && heights.length === 0; i++) await sleep(100);
      expect(heights.length, 'a NewBlock event').to.be.greaterThan(0);
      const recipient = await devAddress(8);
      const raw = await signedSend(node.restUrl, 4, recipient, '5');
      const out = await source.broadcastCommit(raw, 20_000);
      expect(out.check.code, out.check.log).to.equal(0);
      expect(out.timedOut).to.equal(false);
      expect(out.included!.height).to.be.greaterThan(0);
      expect(out.included!.result.code).to.equal(0);
      expect(out.included!.result.events.some((e) => e.type === 'transfer')).to.equal(true);
      // the same bytes again: CometBFT's cache refuses them
      let again: unknown;
      try { await source.broadcastSync(raw); } catch (e) { again = e; }
      expect((again as Error).constructor.name).to.equal('MempoolError');
      expect((again as { kind: string }).kind).to.equal('in-cache');
      expect((await source.broadcastAsync(raw))?.kind).to.equal('in-cache');
      // a CheckTx failure is a result, not an error
      const bad = await source.broadcastSync(new Uint8Array([1, 2, 3]));
      expect(bad.code).to.not.equal(0);
      expect(bad.codespace).to.equal('sdk');
      // signed with the sequence committed after the first send (read over REST)
      const asyncRaw = await signedSend(node.restUrl, 4, recipient, '6');
      expect(await source.broadcastAsync(asyncRaw)).to.equal(undefined);
      const asyncHash = toHex(sha256(asyncRaw)).toUpperCase();
      for (let i = 0; i < 100 && !txs.includes(asyncHash); i++) await sleep(100);
      expect(txs).to.include(toHex(sha256(raw)).toUpperCase());
      expect(txs).to.include(asyncHash);
      off();
      offTx();
      expect(heights.length).to.be.greaterThan(0);
      for (let i = 1; i < heights.length; i++) expect(heights[i]).to.equal(heights[i - 1]! + 1);
      expect(await source.pendingTxs()).to.be.an('array');
    });
  });

  describe('the surfaces on CometSource', () => {
    it('REST: BLOCK mode commits and answers the deliver result; GetTx in both spellings; ASYNC; a bad tx', async () => {
      const recipient = await devAddress(7);
      const raw = await signedSend(node.restUrl, 6, recipient, '777', { memo: 'block mode' });
      const r = await broadcast(raw, 'BROADCAST_MODE_BLOCK');
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      const t = r.body.tx_response;
      expect(t.code, t.raw_log).to.equal(0);
      expect(Number(t.height)).to.be.greaterThan(0);
      expect(t.txhash).to.match(HEX64);
      expect(BigInt(t.gas_used) > 0n).to.equal(true);
      expect(t.events.map((e: any) => e.type)).to.include.members(['coin_spent', 'coin_received', 'transfer', 'message']);
      for (const [dialect, hash] of [['chain', t.txhash], ['cosmos', t.txhash.toLowerCase()]]) {
        const got = await getJson(`${node.restUrl}/${dialect}/tx/v1beta1/txs/${hash}`);
        expect(got.status).to.equal(200);
        expect(got.body.tx.body.memo).to.equal('block mode');
        expect(got.body.tx_response.height).to.equal(t.height);
        expect(got.body.tx_response.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
      const missing = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs/${'AB'.repeat(32)}`);
      expect(missing.status).to.equal(404);
      const again = await broadcast(raw, 'BROADCAST_MODE_SYNC');
      expect(again.body.tx_response.code).to.equal(19); // in cache (CometBFT's mempool)
      const asyncRaw = await signedSend(node.restUrl, 6, recipient, '1', { sequenceOffset: 0, memo: 'async' });
      const a = await broadcast(asyncRaw, 'BROADCAST_MODE_ASYNC', 'cosmos');
      expect(a.status).to.equal(200);
      expect(a.body.tx_response.code).to.equal(0);
      await waitTx(a.body.tx_response.txhash);
      const wrong = await broadcast(await signedSend(node.restUrl, 6, recipient, '1', { sequenceOffset: 9 }), 'BROADCAST_MODE_BLOCK');
      expect(wrong.body.tx_response.code).to.equal(32); // account sequence mismatch, from CheckTx
      expect(wrong.body.tx_response.height).to.equal('0');
    });

    it('REST: tx search by events and by query, paged, in both spellings', async () => {
      const sender = await devAddress(5);
      const byEvents = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${q(`message.sender='${sender}'`)}&events=${q("message.module='bank'")}&order_by=ORDER_BY_ASC`);
      expect(byEvents.status, JSON.stringify(byEvents.body)).to.equal(200);
      expect(byEvents.body.total).to.equal('3');
      expect(byEvents.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(sent);
      expect(byEvents.body.txs.map((t: any) => t.body.memo)).to.deep.equal(['comet 0', 'comet 1', 'comet 2']);
      const byQuery = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?query=${q(`message.sender='${sender}' AND message.action='/cosmos.bank.v1beta1.MsgSend'`)}&order_by=ORDER_BY_DESC`);
      expect(byQuery.status, JSON.stringify(byQuery.body)).to.equal(200);
      expect(byQuery.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal([...sent].reverse());
      // offset paging across CometBFT's pages: limit 2 offset 1 → txs 1, 2
      const paged = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?query=${q(`message.sender='${sender}'`)}&pagination.limit=2&pagination.offset=1&order_by=ORDER_BY_ASC`);
      expect(paged.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(sent.slice(1));
      const page2 = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?query=${q(`message.sender='${sender}'`)}&page=2&limit=2&order_by=ORDER_BY_ASC`);
      expect(page2.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(sent.slice(2));
      const bad = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?query=${q('message.sender >')}`);
      expect(bad.status).to.equal(400);
    });

    it('REST: latest block, block by height, node info, syncing and the validator set come from CometBFT', async () => {
      const latest = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/blocks/latest`);
      expect(latest.status, JSON.stringify(latest.body)).to.equal(200);
      const h = Number(latest.body.block.header.height);
      expect(h).to.be.greaterThan(sentHeight);
      expect(latest.body.sdk_block.header.proposer_address).to.match(/^chainvalcons1/);
      const byHeight = await getJson(`${node.restUrl}/chain/base/consensus/v1beta1/blocks/${sentHeight}`);
      expect(byHeight.status, JSON.stringify(byHeight.body)).to.equal(200);
      const rb = (await rpcCall(node.rpcUrl, 'block', { height: String(sentHeight) })).result;
      expect(b64(byHeight.body.block_id.hash)).to.equal(rb.block_id.hash);
      expect(b64(byHeight.body.block.header.app_hash)).to.equal(rb.block.header.app_hash);
      // the same instant: the gateway writes 0, 3, 6 or 9 fractional digits (protojson), CometBFT trims zeros (RFC3339Nano)
      const nanos9 = (t: string): string => t.replace(/(?:\.(\d+))?Z$/, (_m, f: string | undefined) => `.${(f ?? '').padEnd(9, '0')}Z`);
      expect(nanos9(byHeight.body.block.header.time)).to.equal(nanos9(rb.block.header.time));
      const future = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/blocks/${h + 1000}`);
      expect(future.status).to.equal(400);

      const info = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/node_info`);
      expect(info.status).to.equal(200);
      const st = (await rpcCall(node.rpcUrl, 'status')).result;
      expect(info.body.default_node_info.network).to.equal(CHAIN_ID);
      expect(info.body.default_node_info.default_node_id).to.equal(st.node_info.id);
      expect(info.body.default_node_info.version).to.equal(st.node_info.version);
      expect(info.body.default_node_info.moniker).to.equal(st.node_info.moniker);
      expect(info.body.application_version.app_name).to.equal('chaind');
      expect((await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/syncing`)).body).to.deep.equal({ syncing: false });
      const vals = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/validatorsets/latest`);
      expect(vals.status).to.equal(200);
      expect(vals.body.validators).to.have.length(1);
      expect(vals.body.validators[0].pub_key.key).to.equal((await rpcCall(node.rpcUrl, 'validators')).result.validators[0].pub_key.value);
    });

    it('cosmjs: a SigningStargateClient send through CometBFT\'s RPC is found by the REST GetTx', async () => {
      const wallet = await devWallet(3);
      const [acct] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
      const res = await client.sendTokens(acct!.address, await devAddress(9), [{ denom: DENOM, amount: '31' }], fee(), 'cosmjs via comet');
      client.disconnect();
      expect(res.code).to.equal(0);
      const got = await waitTx(res.transactionHash);
      expect(got.tx.body.memo).to.equal('cosmjs via comet');
      expect(Number(got.tx_response.height)).to.equal(res.height);
    });

    describe('Ethereum JSON-RPC', () => {
      let provider: JsonRpcProvider;
      let wallet: Wallet;
      let id = 0;
      const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(node.ethUrl, { jsonrpc: '2.0', id: ++id, method, params })).body;

      before(() => {
        provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
        provider.pollingInterval = 200;
        wallet = new Wallet(KEY0, provider);
      });
      after(() => provider?.destroy());

      it('eth_blockNumber follows CometBFT; blocks by number and hash', async () => {
        expect((await rpc('eth_chainId')).result).to.equal('0x539');
        const n = await provider.getBlockNumber();
        const st = Number((await rpcCall(node.rpcUrl, 'status')).result.sync_info.latest_block_height);
        expect(Math.abs(n - st)).to.be.lessThanOrEqual(2);
        const blk = (await rpc('eth_getBlockByNumber', [`0x${sentHeight.toString(16)}`, false])).result;
        const rb = (await rpcCall(node.rpcUrl, 'block', { height: String(sentHeight) })).result;
        // the Ethereum hash is keccak256(RLP(header)); the CometBFT block hash is the header's extraData
        expect(blk.extraData).to.equal(`0x${rb.block_id.hash.toLowerCase()}`);
        expect((await rpc('eth_getBlockByHash', [blk.hash, false])).result.number).to.equal(blk.number);
      });

      it('a value transfer with eth_sendRawTransaction, its receipt; an ERC-20 deployment, transfer and eth_getLogs', async () => {
        const to = Wallet.createRandom().address;
        const tx = await wallet.sendTransaction({ to, value: parseEther('0.5') });
        const rc = (await tx.wait(1, 60_000))!;
        expect(rc.status).to.equal(1);
        expect(await provider.getBalance(to)).to.equal(parseEther('0.5'));
        const byHash = await provider.getTransaction(tx.hash);
        expect(byHash!.blockNumber).to.equal(rc.blockNumber);
        // the Cosmos tx that carries it is in CometBFT's index
        const found = (await rpcCall(node.rpcUrl, 'tx_search', { query: `ethereum_tx.ethereumTxHash='${tx.hash}'` })).result;
        expect(found.total_count).to.equal('1');

        const { abi, bytecode } = compileToken();
        const c = await new ContractFactory(abi, bytecode, wallet).deploy(1_000_000n);
        await c.waitForDeployment();
        const addr = (await c.getAddress()).toLowerCase();
        const deployRc = (await provider.getTransactionReceipt(c.deploymentTransaction()!.hash))!;
        expect(deployRc.contractAddress!.toLowerCase()).to.equal(addr);
        const token = new Contract(addr, abi, wallet);
        const trc = await (await token.getFunction('transfer')(to, 250n)).wait(1, 60_000);
        expect(trc.status).to.equal(1);
        expect(await token.getFunction('balanceOf')(to)).to.equal(250n);
        const logs = await provider.getLogs({ address: addr, fromBlock: 1, toBlock: 'latest' });
        expect(logs).to.have.length(2); // the mint in the constructor, the transfer
        expect(logs[1]!.transactionHash).to.equal(trc.hash);
        expect(logs[1]!.blockNumber).to.equal(trc.blockNumber);
      });

      it('eth_subscribe newHeads over the JSON-RPC websocket is fed by CometBFT\'s NewBlock events', async () => {
        const ws = new WebSocket(node.ethWsUrl);
        await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
        const msgs: any[] = [];
        ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
        const deadline = Date.now() + 20_000;
        while (msgs.filter((m) => m.method === 'eth_subscription').length < 2 && Date.now() < deadline) await sleep(100);
        ws.close();
        const subId = msgs.find((m) => m.id === 1)?.result;
        expect(subId).to.match(/^0x/);
        const heads = msgs.filter((m) => m.method === 'eth_subscription').map((m) => m.params);
        expect(heads.length).to.be.greaterThanOrEqual(2);
        expect(heads[0].subscription).to.equal(subId);
        expect(Number(heads[1].result.number)).to.equal(Number(heads[0].result.number) + 1);
        const rb = (await rpcCall(node.rpcUrl, 'block', { height: String(Number(heads[0].result.number)) })).result;
        expect(heads[0].result.extraData).to.equal(`0x${rb.block_id.hash.toLowerCase()}`);
      });
    });
  });
});
