/**
 * The CometBFT v0.38 RPC through real clients: @cosmjs/tendermint-rpc Comet38Client (HTTP, batch and
 * websocket) for what it covers, raw JSON-RPC (POST, batch, URI GET, websocket) for the rest, with the
 * exact shapes of docs part B and the limits of `[rpc]`.
 */
import { expect } from 'chai';
import { Comet38Client, HttpBatchClient, connectComet, isComet38Client } from '@cosmjs/tendermint-rpc';
import type { comet38 } from '@cosmjs/tendermint-rpc';
import { toBase64, toHex } from '@cosmjs/encoding';
import { sha256 } from '@cosmjs/crypto';
import { QueryBalanceRequest, QueryBalanceResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { Socket } from 'node:net';
import { http as rawTarget } from '../src/abuse.js';
import WebSocket from 'ws';
import { startNode, startTargetNode, E2E_TARGET, TARGET_VALIDATORS } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, devHome, getJson, rawHttp, rpcCall, RawWs, signedSend as signSend, CHAIN_ID, DENOM } from '../src/clients.js';

const TM_EVENTS = [
  'NewBlock', 'NewBlockHeader', 'NewBlockEvents', 'NewEvidence', 'Tx', 'ValidatorSetUpdates', 'NewRound', 'NewRoundStep',
  'CompleteProposal', 'Vote', 'Polka', 'Lock', 'Unlock', 'Relock', 'ValidBlock', 'TimeoutPropose', 'TimeoutWait',
  'BlockSyncStatus', 'StateSyncStatus',
];
const HEX64 = /^[0-9A-F]{64}$/;
const HEX40 = /^[0-9A-F]{40}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
const HEADER_KEYS = ['version', 'chain_id', 'height', 'time', 'last_block_id', 'last_commit_hash', 'data_hash', 'validators_hash', 'next_validators_hash', 'consensus_hash', 'app_hash', 'last_results_hash', 'evidence_hash', 'proposer_address'];
const EXEC_TX_RESULT_KEYS = ['code', 'data', 'log', 'info', 'gas_wanted', 'gas_used', 'events', 'codespace'];
/** validators and peers of the node under test: `chaind dev` (one validator, no p2p) or a localnet node (E2E_TARGET) */
const VALIDATORS = E2E_TARGET === 'localnet' ? TARGET_VALIDATORS : 1;
const PEERS = VALIDATORS - 1;

/** Signs a MsgSend from coin-type-118 dev account `from`. */
function signedSend(node: NodeHandle, from: number, to: string, amount: string, sequenceOffset = 0, memo = ''): Promise<Uint8Array> {
  return signSend(node.restUrl, from, to, amount, { sequenceOffset, memo });
}

const addressOf = devAddress;

/** Collects `n` items of an xstream stream (rejects on error or timeout). */
function take<T>(stream: { subscribe(l: { next: (v: T) => void; error: (e: unknown) => void; complete: () => void }): { unsubscribe(): void } }, n: number, timeoutMs = 15_000): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const out: T[] = [];
    const timer = setTimeout(() => { sub.unsubscribe(); reject(new Error(`only ${out.length}/${n} events within ${timeoutMs} ms`)); }, timeoutMs);
    const sub = stream.subscribe({
      next: (v) => { out.push(v); if (out.length === n) { clearTimeout(timer); setTimeout(() => sub.unsubscribe(), 0); resolve(out); } },
      error: (e) => { clearTimeout(timer); reject(e); },
      complete: () => undefined,
    });
  });
}

/**
 * Comet38Client over the websocket. cosmjs 0.39's QueueingStreamingSocket stalls for good when the socket
 * opens before the first request is queued (processQueue leaves isProcessingQueue set on an empty queue),
 * so a first request is queued at once.
 */
async function connectWs(node: NodeHandle): Promise<Comet38Client> {
  const client = await Comet38Client.connect(node.wsUrl.replace(/\/websocket$/, ''));
  await client.health();
  return client;
}

/**
 * Closes a websocket Comet38Client for good. cosmjs 0.39's ReconnectingSocket.disconnect() marks the
 * socket Disconnected before setting its own `disconnected` flag, so its status listener schedules a
 * reconnect: the client reconnects (and, once the node is gone, retries forever, keeping mocha alive).
 * The pending reconnect timer is cleared right after the disconnect that scheduled it.
 */
function disconnectWs(client: Comet38Client): void {
  client.disconnect();
  const socket = (client as unknown as { client?: { socket?: { reconnectTimeout?: NodeJS.Timeout | null } } }).client?.socket;
  if (socket?.reconnectTimeout) {
    clearTimeout(socket.reconnectTimeout);
    socket.reconnectTimeout = null;
  }
}

const post = (url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => rawHttp(url, { method: 'POST', headers, body });

describe('e2e: CometBFT v0.38 RPC (cosmjs Comet38Client, raw JSON-RPC, URI, websocket)', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let http: Comet38Client;
  let sender: string;
  let recipient: string;
  let tx: { raw: Uint8Array; hash: string; height: number };

  before(async () => {
    node = await startTargetNode();
    http = await Comet38Client.connect(node.rpcUrl);
    sender = await addressOf(2);
    recipient = await addressOf(6);
    const raw = await signedSend(node, 2, recipient, '4242', 0, 'comet rpc');
    const res = await http.broadcastTxCommit({ tx: raw });
    expect(res.checkTx.code, res.checkTx.log).to.equal(0);
    expect(res.txResult!.code, res.txResult!.log).to.equal(0);
    tx = { raw, hash: toHex(res.hash).toUpperCase(), height: res.height };
    expect(tx.hash).to.equal(toHex(sha256(raw)).toUpperCase());
  });

  after(async () => {
    http?.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  it('status: connectComet picks Comet38Client and every status field decodes', async () => {
    const client = await connectComet(node.rpcUrl);
    expect(isComet38Client(client)).to.equal(true);
    const s = await client.status();
    expect(s.nodeInfo.network).to.equal(CHAIN_ID);
    expect(s.nodeInfo.version).to.match(/^0\.38\./);
    expect(s.nodeInfo.protocolVersion).to.deep.equal({ p2p: 8, block: 11, app: 0 });
    expect(s.syncInfo.latestBlockHeight).to.be.at.least(tx.height);
    expect(s.syncInfo.latestBlockHash).to.have.length(32);
    expect(s.syncInfo.earliestBlockHeight).to.equal(1);
    expect(s.syncInfo.catchingUp).to.equal(false);
    expect(s.validatorInfo.votingPower).to.equal(1000n); // the genesis self-delegation, 1000 chain at 10^18 per unit of power
    expect(s.validatorInfo.pubkey?.algorithm).to.equal('ed25519');
    client.disconnect();
    const raw = (await rpcCall(node.rpcUrl, 'status')).result;
    expect(raw).to.have.keys(['node_info', 'sync_info', 'validator_info']);
    expect(raw.node_info).to.have.keys(['protocol_version', 'id', 'listen_addr', 'network', 'version', 'channels', 'moniker', 'other']);
    expect(raw.node_info.id).to.match(/^[0-9a-f]{40}$/);
    expect(raw.node_info.other).to.have.keys(['tx_index', 'rpc_address']);
    expect(raw.sync_info).to.have.keys(['latest_block_hash', 'latest_app_hash', 'latest_block_height', 'latest_block_time', 'earliest_block_hash', 'earliest_app_hash', 'earliest_block_height', 'earliest_block_time', 'catching_up']);
    expect(raw.sync_info.latest_block_hash).to.match(HEX64);
    expect(raw.sync_info.earliest_block_hash).to.match(HEX64);
    expect(raw.sync_info.latest_block_time).to.match(RFC3339);
    expect(raw.validator_info.address).to.match(HEX40);
    // the same node id as REST node_info
    const ni = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/node_info`);
    expect(ni.body.default_node_info.default_node_id).to.equal(raw.node_info.id);
  });

  it('block: latest, height 1 (no last commit) and the tx block, linked by hashes', async () => {
    const b1 = await http.block(1);
    expect(b1.block.header.height).to.equal(1);
    expect(b1.block.header.chainId).to.equal(CHAIN_ID);
    expect(b1.block.lastCommit).to.equal(null);
    expect(b1.block.header.lastBlockId).to.equal(null);
    const b2 = await http.block(2);
    expect(toHex(b2.block.header.lastBlockId!.hash)).to.equal(toHex(b1.blockId.hash));
    expect(b2.block.lastCommit!.height).to.equal(1);
    expect(b2.block.lastCommit!.signatures[0]!.blockIdFlag).to.equal(2);
    const bt = await http.block(tx.height);
    expect(bt.block.txs.map((t) => toBase64(t))).to.deep.equal([toBase64(tx.raw)]);
    const latest = await http.block();
    expect(latest.block.header.height).to.be.at.least(tx.height);

    const raw = (await rpcCall(node.rpcUrl, 'block', { height: String(tx.height) })).result;
    expect(raw).to.have.keys(['block_id', 'block']);
    expect(raw.block_id.parts.total).to.equal(1);
    expect(raw.block).to.have.keys(['header', 'data', 'evidence', 'last_commit']);
    expect(Object.keys(raw.block.header)).to.deep.equal(HEADER_KEYS);
    expect(raw.block.header.version).to.deep.equal({ block: '11' }); // app 0 omitted
    expect(raw.block.evidence).to.deep.equal({ evidence: [] });
    expect(raw.block.last_commit.signatures[0]).to.have.keys(['block_id_flag', 'validator_address', 'timestamp', 'signature']);
    const raw1 = (await rpcCall(node.rpcUrl, 'block', { height: '1' })).result;
    expect(raw1.block.header.last_block_id).to.deep.equal({ hash: '', parts: { total: 0, hash: '' } });
    expect(raw1.block.last_commit).to.deep.equal({ height: '0', round: 0, block_id: { hash: '', parts: { total: 0, hash: '' } }, signatures: [] });
    expect(raw1.block.data).to.deep.equal({ txs: [] });
  });

  it('blockResults: the tx result and its events; empty blocks have nulls', async () => {
    const r = await http.blockResults(tx.height);
    expect(r.height).to.equal(tx.height);
    expect(r.results).to.have.length(1);
    expect(r.results[0]!.code).to.equal(0);
    expect(r.results[0]!.gasUsed > 0n).to.equal(true);
    const actions = r.results[0]!.events.filter((e) => e.type === 'message').flatMap((e) => e.attributes.filter((a) => a.key === 'action').map((a) => a.value));
    expect(actions).to.deep.equal(['/chain.bank.v1beta1.MsgSend']);
    const raw = (await rpcCall(node.rpcUrl, 'block_results', { height: String(tx.height) })).result;
    expect(Object.keys(raw)).to.deep.equal(['height', 'txs_results', 'finalize_block_events', 'validator_updates', 'consensus_param_updates', 'app_hash']);
    expect(Object.keys(raw.txs_results[0])).to.deep.equal(EXEC_TX_RESULT_KEYS);
    expect(raw.txs_results[0].events[0].attributes[0]).to.have.keys(['key', 'value', 'index']);
    const empty = (await rpcCall(node.rpcUrl, 'block_results', { height: '1' })).result;
    expect(empty.txs_results).to.equal(null);
    expect(empty.validator_updates).to.equal(null);
    expect(empty.consensus_param_updates).to.equal(null);
  });

  it('tx and txSearch: by hash, sender, height, alias type URL, ranges, order and pages', async () => {
    const t = await http.tx({ hash: new Uint8Array(Buffer.from(tx.hash, 'hex')) });
    expect(t.height).to.equal(tx.height);
    expect(t.index).to.equal(0);
    expect(t.result.code).to.equal(0);
    // prove=true: CometBFT's TxProof, rooted in the block's data_hash, for tx and tx_search
    const proven = await http.tx({ hash: new Uint8Array(Buffer.from(tx.hash, 'hex')), prove: true });
    const header = (await http.block(tx.height)).block.header;
    expect(toHex(proven.proof!.rootHash)).to.equal(toHex(header.dataHash));
    expect(toHex(proven.proof!.data)).to.equal(toHex(proven.tx));
    expect(proven.proof!.proof.index).to.equal(0);
    const searched = await http.txSearch({ query: `tx.hash='${tx.hash}'`, prove: true });
    expect(toHex(searched.txs[0]!.proof!.rootHash)).to.equal(toHex(header.dataHash));
    const cs = await (await fetch(`${node.rpcUrl}/consensus_state`)).json() as any;
    expect(cs.result.round_state['height/round/step']).to.match(/^\d+\/0\/1$/);
    const dump = await (await fetch(`${node.rpcUrl}/dump_consensus_state`)).json() as any;
    expect(dump.result.peers).to.have.length(PEERS);
    expect(dump.result.round_state.step).to.equal(1);
    const byHash = await http.txSearch({ query: `tx.hash='${tx.hash}'` });
    expect(byHash.totalCount).to.equal(1);
    const bySender = await http.txSearchAll({ query: `message.sender='${sender}'` });
    expect(bySender.txs.map((x) => toHex(x.hash).toUpperCase())).to.include(tx.hash);
    // the embedded engine also finds a type URL by its alias spelling (it canonicalizes the query); CometBFT's own
    // tx_search matches what the app emitted (the canonical URL); the REST tx search canonicalizes in both modes
    const canonical = await http.txSearch({ query: `message.action='/chain.bank.v1beta1.MsgSend' AND tx.height=${tx.height}` });
    expect(canonical.totalCount).to.equal(1);
    const alias = await http.txSearch({ query: `message.action='/cosmos.bank.v1beta1.MsgSend' AND tx.height=${tx.height}` });
    expect(alias.totalCount).to.equal(E2E_TARGET === 'dev' ? 1 : 0);
    const range = await http.txSearch({ query: `tx.height>=${tx.height} AND tx.height<=${tx.height} AND transfer.amount='4242${DENOM}'` });
    expect(range.totalCount).to.equal(1);
    // the kv index compares numbers only with values that are numbers ("4242achain" is not), conditions hold
    // within one event (message.sender and transfer.recipient are two), and it has no tm.event key
    for (const q of [`tx.height=${tx.height} AND transfer.amount>=4242`, `message.sender='${sender}' AND transfer.recipient='${recipient}'`, `tm.event='Tx' AND tx.height=${tx.height}`]) {
      expect((await http.txSearch({ query: q })).totalCount, q).to.equal(0);
    }
    expect((await http.txSearch({ query: `transfer.sender='${sender}' AND transfer.recipient='${recipient}' AND tx.height=${tx.height}` })).totalCount).to.equal(1);
    const none = await http.txSearch({ query: `tx.height>${tx.height} AND tx.height<${tx.height}` });
    expect(none.totalCount).to.equal(0);
    // two more txs from another sender, then pages and order
    const other = await addressOf(3);
    for (let i = 0; i < 2; i++) {
      const res = await http.broadcastTxCommit({ tx: await signedSend(node, 3, recipient, String(i + 1)) });
      expect(res.txResult!.code).to.equal(0);
    }
    // CometBFT indexes a block's txs after broadcast_tx_commit has returned: wait until both are searchable
    for (let i = 0; i < 50 && (await http.txSearch({ query: `message.sender='${other}'` })).totalCount < 2; i++) await new Promise((r) => setTimeout(r, 100));
    const asc = await http.txSearch({ query: `message.sender='${other}'`, order_by: 'asc' });
    const desc = await http.txSearch({ query: `message.sender='${other}'`, order_by: 'desc' });
    expect(asc.totalCount).to.equal(2);
    expect(desc.txs.map((x) => x.height)).to.deep.equal(asc.txs.map((x) => x.height).reverse());
    const page2 = await http.txSearch({ query: `message.sender='${other}'`, per_page: 1, page: 2 });
    expect(page2.txs).to.have.length(1);
    expect(page2.txs[0]!.height).to.equal(asc.txs[1]!.height);

    const raw = (await rpcCall(node.rpcUrl, 'tx', { hash: Buffer.from(tx.hash, 'hex').toString('base64') })).result;
    expect(Object.keys(raw)).to.deep.equal(['hash', 'height', 'index', 'tx_result', 'tx']);
    expect(raw.hash).to.equal(tx.hash);
    expect(Object.keys(raw.tx_result)).to.deep.equal(EXEC_TX_RESULT_KEYS);
    const search = (await rpcCall(node.rpcUrl, 'tx_search', { query: `tx.hash='${tx.hash}'`, prove: false, page: '1', per_page: '30', order_by: '' })).result;
    expect(search).to.have.keys(['txs', 'total_count']);
    expect(search.total_count).to.equal('1');

    const missing = await rpcCall(node.rpcUrl, 'tx', { hash: Buffer.alloc(32, 7).toString('base64') });
    expect(missing.error).to.deep.equal({ code: -32603, message: 'Internal error', data: `tx (${'07'.repeat(32).toUpperCase()}) not found` });
    const badQuery = await rpcCall(node.rpcUrl, 'tx_search', { query: "tx.height >" });
    expect(badQuery.error.code).to.equal(-32603);
    expect(badQuery.error.data).to.match(/^offset \d+: /);
    const badOrder = await rpcCall(node.rpcUrl, 'tx_search', { query: 'tx.height=1', order_by: 'up' });
    expect(badOrder.error.data).to.equal('expected order_by to be either `asc` or `desc` or empty');
    const badPage = await rpcCall(node.rpcUrl, 'tx_search', { query: `message.sender='${other}'`, page: '3', per_page: '1' });
    expect(badPage.error.data).to.equal('page should be within [1, 2] range, given 3');
    const long = await rpcCall(node.rpcUrl, 'tx_search', { query: `message.sender='${'x'.repeat(600)}'` });
    expect(long.error.data).to.equal('maximum query length exceeded');
  });

  it('subscribeNewBlock and subscribeNewBlockHeader over the websocket', async () => {
    const ws = await connectWs(node);
    try {
      const [blocks, headers] = await Promise.all([take(ws.subscribeNewBlock(), 2), take(ws.subscribeNewBlockHeader(), 2)]);
      expect(blocks[1]!.header.height).to.equal(blocks[0]!.header.height + 1);
      expect(blocks[0]!.header.chainId).to.equal(CHAIN_ID);
      expect(headers[1]!.height).to.equal(headers[0]!.height + 1);
    } finally {
      disconnectWs(ws);
    }
  });

  it('subscribeTx: a matching tx event arrives with its result', async () => {
    const ws = await connectWs(node);
    try {
      const from = await addressOf(4);
      const events = take(ws.subscribeTx(`tm.event='Tx' AND message.sender='${from}'`), 1, 20_000);
      await new Promise((r) => setTimeout(r, 300)); // let the subscription register
      const raw = await signedSend(node, 4, recipient, '7');
      const res = await ws.broadcastTxSync({ tx: raw });
      expect(res.code, res.log).to.equal(0);
      const [ev] = await events;
      expect(toHex(ev!.hash).toUpperCase()).to.equal(toHex(res.hash).toUpperCase());
      expect(ev!.result.code).to.equal(0);
      expect(ev!.height).to.be.greaterThan(0);
    } finally {
      disconnectWs(ws);
    }
  });

  it('the other Comet38Client calls decode: abci, blockchain, commit, genesis, health, validators, unconfirmed, broadcasts', async () => {
    const info = await http.abciInfo();
    expect(info.data).to.equal('chain');
    expect(info.lastBlockHeight).to.be.greaterThan(0);
    const q = await http.abciQuery({ path: '/cosmos.bank.v1beta1.Query/Balance', data: QueryBalanceRequest.encode({ address: recipient, denom: DENOM }).finish() });
    expect(q.code).to.equal(0);
    expect(q.height).to.be.greaterThan(0);
    expect(BigInt(QueryBalanceResponse.decode(q.value).balance!.amount) > 0n).to.equal(true);
    const chain = await http.blockchain(1, 3);
    expect(chain.blockMetas.map((m) => m.header.height)).to.deep.equal([3, 2, 1]);
    const commit = await http.commit(2);
    expect(commit.canonical).to.equal(true);
    expect(commit.header.height).to.equal(2);
    expect((await http.commit()).canonical).to.equal(false);
    const genesis = await http.genesis();
    expect(genesis.chainId).to.equal(CHAIN_ID);
    expect(genesis.validators).to.have.length(VALIDATORS);
    expect(await http.health()).to.equal(null);
    const vals = await http.validatorsAll();
    expect(vals.total).to.equal(VALIDATORS);
    expect(vals.validators[0]!.votingPower).to.equal(1000n);
    expect((await http.numUnconfirmedTxs()).total).to.be.at.least(0);
    const async = await http.broadcastTxAsync({ tx: await signedSend(node, 5, recipient, '1') });
    const deadline = Date.now() + 10_000;
    let found: comet38.TxResponse | undefined;
    while (!found && Date.now() < deadline) {
      found = await http.tx({ hash: async.hash }).catch(() => undefined);
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found?.result.code).to.equal(0);
    // a CheckTx failure through broadcast_tx_commit returns at once, height 0, zero tx_result
    const bad = (await rpcCall(node.rpcUrl, 'broadcast_tx_commit', { tx: toBase64(await signedSend(node, 5, recipient, '1', 9)) })).result;
    expect(bad.check_tx.code).to.equal(32);
    expect(bad.height).to.equal('0');
    expect(bad.tx_result).to.deep.equal({ code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' });
  });

  it('every other method over raw JSON-RPC, with exact shapes', async () => {
    const r = async (method: string, params: unknown = {}) => {
      const body = await rpcCall(node.rpcUrl, method, params, method);
      expect(body.id).to.equal(method);
      expect(body.error, `${method}: ${JSON.stringify(body.error)}`).to.equal(undefined);
      return body.result;
    };
    expect(await r('health')).to.deep.equal({});
    // the listener is p2p.external_address (empty by default); the embedded engine has no peers
    const net = await r('net_info');
    expect(net).to.deep.include({ listening: true, listeners: ['Listener(@)'], n_peers: String(PEERS) });
    expect(net.peers).to.have.length(PEERS);
    const info = await r('abci_info');
    expect(Object.keys(info.response)).to.deep.equal(['data', 'version', 'app_version', 'last_block_height', 'last_block_app_hash']);
    const q = await r('abci_query', { path: '/cosmos.bank.v1beta1.Query/Balance', data: Buffer.from(QueryBalanceRequest.encode({ address: recipient, denom: DENOM }).finish()).toString('hex'), height: '0', prove: false });
    expect(Object.keys(q.response)).to.deep.equal(['code', 'log', 'info', 'index', 'key', 'value', 'proofOps', 'height', 'codespace']);
    expect(q.response).to.include({ code: 0, log: '', info: '', index: '0', key: null, proofOps: null, codespace: '' });
    const past = await r('abci_query', { path: '/cosmos.bank.v1beta1.Query/Balance', data: Buffer.from(QueryBalanceRequest.encode({ address: recipient, denom: DENOM }).finish()).toString('hex'), height: String(tx.height - 1) });
    expect(past.response.height).to.equal(String(tx.height - 1));
    const diff = BigInt(QueryBalanceResponse.decode(Buffer.from(q.response.value, 'base64')).balance!.amount) - BigInt(QueryBalanceResponse.decode(Buffer.from(past.response.value, 'base64')).balance!.amount);
    expect(diff >= 4242n, `balance grew by ${diff}`).to.equal(true);
    const unknownPath = await r('abci_query', { path: '/nope.Query/X', data: '' });
    expect(unknownPath.response).to.include({ code: 6, codespace: 'sdk', value: null });
    const notFound = await r('abci_query', { path: '/cosmos.auth.v1beta1.Query/Account', data: Buffer.from([10, 3, 0x61, 0x62, 0x63]).toString('hex') });
    expect(notFound.response.code).to.not.equal(0);

    const blk = await r('block', { height: String(tx.height) });
    const byHash = await r('block_by_hash', { hash: Buffer.from(blk.block_id.hash, 'hex').toString('base64') });
    expect(byHash).to.deep.equal(blk);
    expect(await r('block_by_hash', { hash: Buffer.alloc(32).toString('base64') })).to.deep.equal({ block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null });
    expect(await r('header', { height: String(tx.height) })).to.deep.equal({ header: blk.block.header });
    expect(await r('header_by_hash', { hash: blk.block_id.hash })).to.deep.equal({ header: blk.block.header });
    expect(await r('header_by_hash', { hash: '00'.repeat(32) })).to.deep.equal({ header: null });
    const commit = await r('commit', { height: String(tx.height) });
    expect(commit).to.have.keys(['signed_header', 'canonical']);
    expect(commit.signed_header.header).to.deep.equal(blk.block.header);
    expect(commit.signed_header.commit.block_id).to.deep.equal(blk.block_id);
    const chain = await r('blockchain', { minHeight: '1', maxHeight: '100000' });
    expect(chain.block_metas).to.have.length(Math.min(20, Number(chain.last_height)));
    expect(Object.keys(chain.block_metas[0])).to.deep.equal(['block_id', 'block_size', 'header', 'num_txs']);
    expect(Number(chain.block_metas[0].header.height)).to.equal(Number(chain.last_height));
    const vals = await r('validators', { height: String(tx.height), page: '1', per_page: '1' });
    expect(Object.keys(vals)).to.deep.equal(['block_height', 'validators', 'count', 'total']);
    expect(Object.keys(vals.validators[0])).to.deep.equal(['address', 'pub_key', 'voting_power', 'proposer_priority']);
    expect(vals).to.include({ block_height: String(tx.height), count: '1', total: String(VALIDATORS) });
    const cp = await r('consensus_params', { height: '1' });
    expect(cp).to.deep.equal({
      block_height: '1',
      consensus_params: {
        block: { max_bytes: '22020096', max_gas: '-1' },
        evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
        validator: { pub_key_types: ['ed25519'] },
        version: { app: '0' },
        abci: { vote_extensions_enable_height: '0' },
      },
    });
    const genesis = await r('genesis');
    expect(Object.keys(genesis.genesis)).to.deep.equal(['genesis_time', 'chain_id', 'initial_height', 'consensus_params', 'validators', 'app_hash', 'app_state']);
    expect(genesis.genesis.genesis_time).to.match(RFC3339);
    expect(genesis.genesis.consensus_params).to.deep.equal(cp.consensus_params);
    const chunk = await r('genesis_chunked', { chunk: '0' });
    expect(chunk).to.include({ chunk: '0', total: '1' });
    expect(JSON.parse(Buffer.from(chunk.data, 'base64').toString('utf8'))).to.deep.equal(genesis.genesis);
    const chunkErr = await rpcCall(node.rpcUrl, 'genesis_chunked', { chunk: '1' });
    expect(chunkErr.error.data).to.equal('there are 0 chunks, 1 is invalid');

    // check_tx: a CheckTx result, flat (ResponseCheckTx jsonpb)
    const check = await r('check_tx', { tx: toBase64(new Uint8Array([1, 2, 3])) });
    expect(Object.keys(check)).to.deep.equal(EXEC_TX_RESULT_KEYS);
    expect(check).to.include({ code: 2, codespace: 'sdk' });

    // unconfirmed txs: a tx sent right after a commit is seen in the mempool before the next block
    let seen: any;
    for (let i = 0; i < 10 && !seen; i++) {
      const raw = await signedSend(node, 7, recipient, '1');
      const res = await r('broadcast_tx_sync', { tx: toBase64(raw) });
      expect(Object.keys(res)).to.deep.equal(['code', 'data', 'log', 'codespace', 'hash']);
      const un = await r('unconfirmed_txs', { limit: '100' });
      expect(Object.keys(un)).to.deep.equal(['n_txs', 'total', 'total_bytes', 'txs']);
      if (un.txs.includes(toBase64(raw))) seen = un;
      const num = await r('num_unconfirmed_txs');
      expect(Object.keys(num)).to.deep.equal(['n_txs', 'total', 'total_bytes', 'txs']);
      expect(num.txs).to.equal(null);
      // wait for the tx to be committed before the next round (it reuses the sequence)
      for (let k = 0; k < 50 && (await rpcCall(node.rpcUrl, 'tx', { hash: Buffer.from(res.hash, 'hex').toString('base64') })).error; k++) await new Promise((x) => setTimeout(x, 50));
    }
    expect(seen, 'a broadcast tx was never visible in unconfirmed_txs').to.not.equal(undefined);
    expect(Number(seen.n_txs)).to.be.at.least(1);

    // mempool rejections are JSON-RPC errors
    const dupRaw = await signedSend(node, 8, recipient, '1');
    expect((await r('broadcast_tx_sync', { tx: toBase64(dupRaw) })).code).to.equal(0);
    const dup = await rpcCall(node.rpcUrl, 'broadcast_tx_sync', { tx: toBase64(dupRaw) });
    expect(dup.error).to.deep.equal({ code: -32603, message: 'Internal error', data: 'tx already exists in cache' });
    const dupAsync = await rpcCall(node.rpcUrl, 'broadcast_tx_async', { tx: toBase64(dupRaw) });
    expect(dupAsync.error.data).to.equal('tx already exists in cache');
  });

  it('block_search: block.height ranges and finalize-block events, newest first by default (Comet38Client and raw)', async () => {
    // cosmjs decodes every block (and sorts them ascending itself)
    const res = await http.blockSearch({ query: 'block.height >= 2 AND block.height <= 4' });
    expect(res.totalCount).to.equal(3);
    expect(res.blocks.map((b) => b.block.header.height)).to.deep.equal([2, 3, 4]);
    const desc = await rpcCall(node.rpcUrl, 'block_search', { query: 'block.height >= 2 AND block.height <= 4' });
    expect(desc.result.blocks.map((b: any) => b.block.header.height)).to.deep.equal(['4', '3', '2']);
    const asc = await rpcCall(node.rpcUrl, 'block_search', { query: 'block.height >= 2 AND block.height <= 4', order_by: 'asc', per_page: '2', page: '2' });
    expect(asc.result.total_count).to.equal('3');
    expect(asc.result.blocks.map((b: any) => b.block.header.height)).to.deep.equal(['4']);
    expect(asc.result.blocks[0].block_id.hash).to.match(HEX64);
    // the block_gas event of the tx's block carries its height
    const byEvent = await rpcCall(node.rpcUrl, 'block_search', { query: `block_gas.height = '${tx.height}'` });
    expect(byEvent.result.blocks.map((b: any) => Number(b.block.header.height))).to.deep.equal([tx.height]);
    // CometBFT v0.38 indexes no tm.event for blocks: a condition on it matches nothing
    for (const q of ["tm.event = 'Tx'", "tm.event = 'NewBlock'", `block_gas.height = '${tx.height}' AND tm.event = 'NewBlock'`]) {
      const none = await rpcCall(node.rpcUrl, 'block_search', { query: q });
      expect(none.result, q).to.deep.equal({ blocks: [], total_count: '0' });
    }
    const bad = await rpcCall(node.rpcUrl, 'block_search', { query: 'block.height >' });
    expect(bad.error.code).to.equal(-32603);
    const badOrder = await rpcCall(node.rpcUrl, 'block_search', { query: 'block.height > 1', order_by: 'up' });
    expect(badOrder.error.data).to.equal('expected order_by to be either `asc` or `desc` or empty');
  });

  it('height and parameter errors are the CometBFT ones', async () => {
    const latest = Number((await rpcCall(node.rpcUrl, 'status')).result.sync_info.latest_block_height);
    const future = await rpcCall(node.rpcUrl, 'block', { height: String(latest + 1000) });
    expect(future.error.code).to.equal(-32603);
    expect(future.error.data).to.match(new RegExp(`^height ${latest + 1000} must be less than or equal to the current blockchain height \\d+$`));
    expect((await rpcCall(node.rpcUrl, 'block_results', { height: '0' })).error.data).to.equal('height must be greater than 0, but got 0');
    expect((await rpcCall(node.rpcUrl, 'commit', { height: '-3' })).error.data).to.equal('height must be greater than 0, but got -3');
    expect((await rpcCall(node.rpcUrl, 'blockchain', { minHeight: '-1' })).error.data).to.equal('heights must be non-negative');
    expect((await rpcCall(node.rpcUrl, 'validators', { page: '2' })).error.data).to.equal('page should be within [1, 1] range, given 2');
    for (const [method, params] of [
      ['block', { height: 'abc' }], ['block', { height: true }], ['block', { height: '1.5' }], ['block', { height: {} }],
      ['tx', { hash: 'not base64!' }], ['tx', { hash: 12 }], ['tx_search', { query: 5 }], ['tx_search', { query: 'tx.height=1', prove: 'yes' }],
      ['header_by_hash', { hash: 'zz' }], ['abci_query', { path: '/x', data: 'nothex' }], ['block', ['1', '2']], ['block', 'height'],
      ['validators', { per_page: '99999999999999999999999' }],
    ] as const) {
      const res = await rpcCall(node.rpcUrl, method, params, 9);
      expect(res.error?.code, `${method} ${JSON.stringify(params)} → ${JSON.stringify(res)}`).to.equal(-32602);
      expect(res.error.message).to.equal('Invalid params');
      expect(res.error.data).to.match(/^error converting json params to arguments: /);
      expect(res.id).to.equal(9);
    }
    // positional params: exactly one per declared parameter
    expect((await rpcCall(node.rpcUrl, 'block', ['1'])).result.block.header.height).to.equal('1');
    expect((await rpcCall(node.rpcUrl, 'header', [])).error.code).to.equal(-32602);
    // null and missing params mean defaults
    expect((await rpcCall(node.rpcUrl, 'block', null)).result.block.header.height).to.match(/^\d+$/);
    expect((await rpcCall(node.rpcUrl, 'block', { height: null })).result.block.header.height).to.match(/^\d+$/);
  });

  it('URI GET form: every method, CometBFT argument syntax, id -1, errors as HTTP 500', async () => {
    const hashHex = tx.hash;
    const blk = (await rpcCall(node.rpcUrl, 'block', { height: String(tx.height) })).result;
    const balanceData = Buffer.from(QueryBalanceRequest.encode({ address: recipient, denom: DENOM }).finish()).toString('hex');
    const calls: [string, string][] = [
      ['health', ''], ['status', ''], ['net_info', ''], ['abci_info', ''], ['genesis', ''], ['genesis_chunked', 'chunk=0'],
      ['num_unconfirmed_txs', ''], ['unconfirmed_txs', 'limit=5'], ['blockchain', 'minHeight=1&maxHeight=2'],
      ['block', `height=${tx.height}`], ['block', `height="${tx.height}"`], ['block', ''], ['block_by_hash', `hash=0x${blk.block_id.hash}`],
      ['header', 'height=1'], ['header_by_hash', `hash=0x${blk.block_id.hash}`], ['block_results', `height=${tx.height}`],
      ['commit', 'height=2'], ['validators', 'height=2&page=1&per_page=10'], ['consensus_params', 'height=1'],
      ['tx', `hash=0x${hashHex}&prove=false`], ['tx_search', `query="tx.height=${tx.height}"&page=1&per_page=5&order_by="desc"`],
      ['tx_search', `query=0x${Buffer.from(`tx.hash='${hashHex}'`).toString('hex')}`],
      ['abci_query', `path="/cosmos.bank.v1beta1.Query/Balance"&data=0x${balanceData}&height=0&prove=false`],
      ['check_tx', 'tx=0x010203'], ['broadcast_tx_sync', 'tx=0x01'], ['broadcast_tx_async', 'tx="garbage"'],
      ['broadcast_tx_commit', 'tx=0x0102'],
    ];
    for (const [method, query] of calls) {
      const res = await rawHttp(`${node.rpcUrl}/${method}${query ? `?${query}` : ''}`);
      expect(res.status, `${method}?${query}: ${res.text.slice(0, 300)}`).to.equal(200);
      expect(res.body.jsonrpc).to.equal('2.0');
      expect(res.body.id).to.equal(-1);
      expect(res.body).to.have.property('result');
      expect(res.headers.get('x-server-time')).to.match(/^\d+$/);
    }
    const t = await rawHttp(`${node.rpcUrl}/tx?hash=0x${hashHex}`);
    expect(t.body.result.hash).to.equal(hashHex);
    const s = await rawHttp(`${node.rpcUrl}/tx_search?query=${encodeURIComponent(`"tx.hash='${hashHex}'"`)}`);
    expect(s.body.result.total_count).to.equal('1');
    const q = await rawHttp(`${node.rpcUrl}/abci_query?path="/cosmos.bank.v1beta1.Query/Balance"&data=0x${balanceData}`);
    expect(q.body.result.response.code).to.equal(0);
    // cacheable methods with an explicit height
    expect((await rawHttp(`${node.rpcUrl}/block?height=1`)).headers.get('cache-control')).to.equal('public, max-age=86400');
    expect((await rawHttp(`${node.rpcUrl}/block`)).headers.get('cache-control')).to.equal(null);
    expect((await rawHttp(`${node.rpcUrl}/status`)).headers.get('cache-control')).to.equal(null);
    // errors
    const badInt = await rawHttp(`${node.rpcUrl}/block?height=abc`);
    expect(badInt.status).to.equal(500);
    expect(badInt.body.id).to.equal(-1);
    expect(badInt.body.error.code).to.equal(-32602);
    expect(badInt.body.error.data).to.match(/^error converting http params to arguments: /);
    const unquoted = await rawHttp(`${node.rpcUrl}/tx_search?query=tx.height=1`);
    expect(unquoted.status).to.equal(500);
    expect(unquoted.body.error.code).to.equal(-32602);
    const hexInt = await rawHttp(`${node.rpcUrl}/block?height=0x01`);
    expect(hexInt.body.error.data).to.match(/got a hex string arg, but expected 'int64'/);
    const future = await rawHttp(`${node.rpcUrl}/block?height=99999999`);
    expect(future.status).to.equal(500);
    expect(future.body.error.code).to.equal(-32603);
    const wsOnly = await rawHttp(`${node.rpcUrl}/subscribe?query="tm.event='NewBlock'"`);
    expect(wsOnly.status).to.equal(404);
    expect(wsOnly.body).to.deep.equal({ jsonrpc: '2.0', id: -1, error: { code: -32601, message: 'Method not found' } });
    const unknown = await rawHttp(`${node.rpcUrl}/nope`);
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.equal('404 page not found\n');
    // request targets as Go's net/http and ServeMux read them (seen from CometBFT v0.38.26 built with Go 1.26):
    // '#' is a path character, paths are percent-decoded per segment, unclean paths are redirected (307)
    const port = Number(new URL(node.rpcUrl).port);
    const targets: [string, number, string?][] = [
      ['/#?-?[Z}#9]', 404], ['/#', 404], ['/status#x', 404], ['/%2Fstatus', 404], ['/status/', 404], ['/%2E%2E/status', 404],
      ['//status', 307, '/status'], ['/./status', 307, '/status'], ['/a/../status', 307, '/status'], ['/.', 307, '/'], ['/..', 307, '/'],
      ['/a/../st%61tus?h=1', 307, '/st%2561tus?h=1'], ['/%zz', 400], ['/a b', 400], ['status', 400],
      ['/st%61tus', 200], ['/status?x=1#2', 200], ['/block?height=1;x=2', 200], ['/block?height=%zz', 200], ['/?x#y', 200],
    ];
    for (const [target, status, location] of targets) {
      const a = await rawTarget(port, { method: 'GET', path: target });
      expect(a.status, target).to.equal(status);
      if (status === 404) expect(a.text, target).to.equal('404 page not found\n');
      if (status === 400) expect(a.text, target).to.equal('400 Bad Request');
      if (location !== undefined) {
        expect(a.headers.location, target).to.equal(location);
        expect(a.text, target).to.equal(`<a href="${location}">Temporary Redirect</a>.\n\n`);
      }
    }
    const list = await rawHttp(`${node.rpcUrl}/`);
    expect(list.status).to.equal(200);
    expect(list.headers.get('content-type')).to.equal('text/html');
    expect(list.text).to.include('Available endpoints:');
    expect(list.text).to.include('/tx_search?query=_&prove=_');
    // v0.38.26: every method under "require arguments", websocket-only ones too, no-argument ones ending in ?
    const host = node.rpcUrl.replace('http://', '');
    expect(list.text.startsWith('<html><body><br>Available endpoints:<br><br>Endpoints that require arguments:<br><a href=')).to.equal(true);
    for (const link of ['abci_info?', 'subscribe?query=_', 'unsubscribe_all?', 'validators?height=_&page=_&per_page=_']) {
      expect(list.text).to.include(`<a href="//${host}/${link}">//${host}/${link}</a></br>`);
    }
  });

  it('JSON-RPC envelope: ids, notifications, batches (also through HttpBatchClient), parse errors', async () => {
    // ids: string and number come back unchanged
    for (const id of ['abc', '', 0, -5, 123456789012, 'äöü']) {
      const res = await rpcCall(node.rpcUrl, 'health', {}, id);
      expect(res).to.deep.equal({ jsonrpc: '2.0', id, result: {} });
    }
    // a fractional id is truncated (Go's int(float64)), as CometBFT v0.38.26 does
    expect((await post(node.rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'health' }))).body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
    // bad ids are parse errors without an id
    for (const id of [true, { a: 1 }, [1]]) {
      const res = await post(node.rpcUrl, JSON.stringify({ jsonrpc: '2.0', id, method: 'health' }));
      expect(res.status).to.equal(500);
      expect(res.body.error.code).to.equal(-32700);
      expect(res.body).to.not.have.property('id');
    }
    // notifications (no id or id null) are neither executed nor answered
    const raw = await signedSend(node, 9, recipient, '3');
    for (const payload of [{ jsonrpc: '2.0', method: 'broadcast_tx_sync', params: { tx: toBase64(raw) } }, { jsonrpc: '2.0', id: null, method: 'broadcast_tx_sync', params: { tx: toBase64(raw) } }]) {
      const res = await post(node.rpcUrl, JSON.stringify(payload));
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
    }
    expect((await rpcCall(node.rpcUrl, 'broadcast_tx_sync', { tx: toBase64(raw) })).result.code, 'the notification was executed').to.equal(0);
    // batches: responses in order, notifications skipped, errors per entry
    const batch = await post(node.rpcUrl, JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'health' },
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: 'x', method: 'nope' },
      { jsonrpc: '2.0', id: 3, method: 'block', params: { height: 'bad' } },
      { jsonrpc: '2.0', id: 4, method: 'subscribe', params: { query: "tm.event='NewBlock'" } },
      { jsonrpc: '2.0', id: 5, method: 'header', params: { height: '1' } },
    ]));
    expect(batch.status).to.equal(200);
    expect(batch.body.map((x: any) => x.id)).to.deep.equal([1, 'x', 3, 4, 5]);
    expect(batch.body[0]).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
    expect(batch.body[1].error).to.deep.equal({ code: -32601, message: 'Method not found' });
    expect(batch.body[2].error.code).to.equal(-32602);
    expect(batch.body[3].error.code).to.equal(-32601);
    expect(batch.body[4].result.header.height).to.equal('1');
    // CometBFT writes a batch with one response as a bare object; only notifications → empty body
    expect((await post(node.rpcUrl, JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'health' }]))).body).to.deep.equal({ jsonrpc: '2.0', id: 7, result: {} });
    expect((await post(node.rpcUrl, JSON.stringify([{ jsonrpc: '2.0', method: 'health' }]))).text).to.equal('');
    // too large, empty
    const tooMany = await post(node.rpcUrl, JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }))));
    expect(tooMany.body).to.deep.equal({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: 'batch request exceeds maximum (10) allowed number of requests' } });
    // an empty batch is answered with an empty body (CometBFT v0.38.26)
    const emptyBatch = await post(node.rpcUrl, '[]');
    expect([emptyBatch.status, emptyBatch.text]).to.deep.equal([200, '']);
    // malformed bodies
    // JSON null is an empty request without an id: a notification, not answered
    const nullBody = await post(node.rpcUrl, 'null');
    expect([nullBody.status, nullBody.text]).to.deep.equal([200, '']);
    // a batch with one bad element fails as a whole (Go decodes it as []RPCRequest, then as one RPCRequest)
    const badBatch = await post(node.rpcUrl, '[{"id":1,"method":"health"}, 5]');
    expect(badBatch.body.error.data).to.match(/^error unmarshaling request: json: cannot unmarshal array into Go value of type struct \{ JSONRPC string /);
    for (const body of ['{oops', '[{"id":1,"method":"health"}, 5]', '"health"', '42', '{"id":1,"method":7}', '{"id":1,"jsonrpc":2,"method":"health"}']) {
      const res = await post(node.rpcUrl, body);
      expect(res.status, body).to.equal(500);
      expect(res.body.error.code, body).to.equal(-32700);
      expect(res.body.error.message).to.equal('Parse error. Invalid JSON');
      expect(res.body.error.data).to.match(/^error unmarshaling request: /);
    }
    // empty body: the endpoint list; other paths: 404
    expect((await post(node.rpcUrl, '')).text).to.include('Available endpoints:');
    expect((await post(`${node.rpcUrl}/nope`, '{}')).status).to.equal(404);
    // params of the wrong kind
    const params = await rpcCall(node.rpcUrl, 'health', 5);
    expect(params.error.code).to.equal(-32602);
    // HttpBatchClient sends real batches
    const batchClient = Comet38Client.create(new HttpBatchClient(node.rpcUrl, { batchSizeLimit: 10, dispatchInterval: 20 }));
    const [status, b1, h2, health] = await Promise.all([batchClient.status(), batchClient.block(1), batchClient.blockResults(2), batchClient.health()]);
    expect(status.nodeInfo.network).to.equal(CHAIN_ID);
    expect(b1.block.header.height).to.equal(1);
    expect(h2.height).to.equal(2);
    expect(health).to.equal(null);
    expect((await batchClient.status()).nodeInfo.version).to.match(/^0\.38\./); // a batch of one
    batchClient.disconnect();
  });

  it('websocket: subscribe forms, every tm.event, unsubscribe, RPC calls and errors', async () => {
    const ws = await RawWs.open(node.wsUrl);
    try {
      // params as an object and as an array; events come with the subscribe id and the query as sent
      expect(await ws.call('subscribe', { query: "tm.event = 'NewBlockEvents'" }, 'events')).to.deep.equal({ jsonrpc: '2.0', id: 'events', result: {} });
      expect(await ws.call('subscribe', ["tm.event='NewBlockHeader'"], 77)).to.deep.equal({ jsonrpc: '2.0', id: 77, result: {} });
      const ev = await ws.waitFor((m) => m.id === 'events' && m.result?.data);
      expect(ev.result.query).to.equal("tm.event = 'NewBlockEvents'");
      expect(ev.result.data.type).to.equal('tendermint/event/NewBlockEvents');
      expect(Object.keys(ev.result.data.value)).to.deep.equal(['height', 'events', 'num_txs']);
      expect(ev.result.events['tm.event']).to.deep.equal(['NewBlockEvents']);
      const hdr = await ws.waitFor((m) => m.id === 77 && m.result?.data);
      expect(hdr.result.data.type).to.equal('tendermint/event/NewBlockHeader');
      expect(Object.keys(hdr.result.data.value.header)).to.deep.equal(HEADER_KEYS);
      expect(hdr.result.events).to.deep.equal({ 'tm.event': ['NewBlockHeader'] });
      // duplicate (normalized) subscription, per-client limit (5), unsubscribe compares normalized queries
      expect((await ws.call('subscribe', { query: "tm.event='NewBlockEvents'" }, 'dup')).error).to.deep.equal({ code: -32603, message: 'Internal error', data: 'already subscribed' });
      expect((await ws.call('unsubscribe', { query: "tm.event='NewBlockEvents'   " }, 'u1')).result).to.deep.equal({});
      expect((await ws.call('unsubscribe', { query: "tm.event='NewBlockEvents'" }, 'u2')).error.data).to.equal('subscription not found');
      expect((await ws.call('unsubscribe_all', {}, 'ua')).result).to.deep.equal({});
      expect((await ws.call('unsubscribe_all', {}, 'ua2')).error.data).to.equal('subscription not found');
      // every tm.event value is accepted (at most 5 at a time per client)
      for (let i = 0; i < TM_EVENTS.length; i += 5) {
        for (const e of TM_EVENTS.slice(i, i + 5)) {
          expect(await ws.call('subscribe', { query: `tm.event='${e}'` }, `s-${e}`), e).to.deep.equal({ jsonrpc: '2.0', id: `s-${e}`, result: {} });
        }
        if (i === 0) {
          const sixth = await ws.call('subscribe', { query: "tm.event='Vote'" }, 'sixth');
          expect(sixth.error).to.deep.equal({ code: -32603, message: 'Internal error', data: 'max_subscriptions_per_client 5 reached' });
        }
        expect((await ws.call('unsubscribe_all', [], `ua-${i}`)).result).to.deep.equal({});
      }
      // the full grammar: numbers, ranges, CONTAINS, EXISTS, DATE, TIME
      for (const q of ["tm.event='Tx' AND tx.height>=5 AND tx.height<100000", "message.sender CONTAINS 'chain1'", 'transfer.amount EXISTS', 'block.height > 1.5', "tm.event='NewBlock' AND block.time >= TIME 2021-11-23T22:04:19Z", 'x.date <= DATE 2021-01-01']) {
        expect((await ws.call('subscribe', { query: q }, `g-${q}`)).result, q).to.deep.equal({});
        expect((await ws.call('unsubscribe', { query: q }, `gu-${q}`)).result, q).to.deep.equal({});
      }
      // parse errors carry the parser's reason
      const bad = await ws.call('subscribe', { query: "tm.event='NewBlock' AND" }, 'bad');
      expect(bad.error.code).to.equal(-32603);
      expect(bad.error.data).to.match(/^failed to parse query: offset \d+: /);
      expect((await ws.call('subscribe', { query: 'a' + '.b'.repeat(300) + ' EXISTS' }, 'long')).error.data).to.equal('maximum query length exceeded');
      expect((await ws.call('subscribe', { query: 5 }, 'type')).error.data).to.match(/^error converting json params to arguments: /);
      expect((await ws.call('subscribe', {}, 'empty')).error.data).to.match(/^failed to parse query: /);
      // any RPC method works over the socket; unknown ones are -32601
      expect((await ws.call('status', {}, 'st')).result.node_info.network).to.equal(CHAIN_ID);
      expect((await ws.call('nope', {}, 'np')).error).to.deep.equal({ code: -32601, message: 'Method not found' });
      // notifications are ignored, batches and garbage are parse errors, the socket keeps working
      ws.send({ jsonrpc: '2.0', method: 'subscribe', params: { query: "tm.event='NewBlock'" } });
      ws.send('not json');
      ws.send([{ jsonrpc: '2.0', id: 1, method: 'health' }]);
      ws.ws.send(Buffer.from([0xff, 0xfe, 0x00]));
      const health = await ws.call('health', {}, 'h');
      expect(health).to.deep.equal({ jsonrpc: '2.0', id: 'h', result: {} });
      const parseErrors = ws.messages.filter((m) => m.error?.code === -32700);
      expect(parseErrors).to.have.length(3);
      for (const p of parseErrors) {
        expect(p).to.not.have.property('id');
        expect(p.error.data).to.match(/^error unmarshaling request: /);
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(ws.messages.some((m) => m.result?.data && (m.id === undefined || m.id === null)), 'the notification subscribed').to.equal(false);
    } finally {
      ws.close();
    }
    // subscriptions die with the socket: a new socket can subscribe 5 times again
    const ws2 = await RawWs.open(node.wsUrl);
    for (let i = 0; i < 5; i++) expect((await ws2.call('subscribe', { query: `tm.event='${TM_EVENTS[i]}'` }, i)).result).to.deep.equal({});
    ws2.close();
  });

  it('websocket: broadcasts pipelined without waiting (one account, consecutive sequences) are all admitted; a later request is answered after them', async () => {
    const n = 30;
    const raws: Uint8Array[] = [];
    for (let i = 0; i < n; i++) raws.push(await signedSend(node, 0, recipient, '1', i, `pipelined ${i}`));
    const ws = await RawWs.open(node.wsUrl);
    try {
      // every frame written at once; the node overlaps them but must CheckTx them in frame order
      for (let i = 0; i < n; i++) ws.send({ jsonrpc: '2.0', id: `b${i}`, method: i % 2 === 0 ? 'broadcast_tx_sync' : 'broadcast_tx_async', params: { tx: toBase64(raws[i]!) } });
      ws.send({ jsonrpc: '2.0', id: 'after', method: 'num_unconfirmed_txs', params: {} });
      const after = await ws.waitFor((m) => m.id === 'after');
      const answers = ws.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('b'));
      expect(answers, 'every broadcast is answered before the request that followed them').to.have.length(n);
      for (const a of answers) {
        expect(a.error, JSON.stringify(a)).to.equal(undefined);
        expect(a.result.code, a.result.log).to.equal(0);
        expect(a.result.hash).to.equal(toHex(sha256(raws[Number(a.id.slice(1))]!)).toUpperCase());
      }
      expect(ws.messages.indexOf(after), 'the later request is answered last').to.be.greaterThan(Math.max(...answers.map((a) => ws.messages.indexOf(a))));
      // all of them commit (an out-of-order CheckTx would have refused a sequence)
      for (const raw of raws) {
        const hash = toHex(sha256(raw)).toUpperCase();
        const deadline = Date.now() + 30_000;
        for (;;) {
          const r = await rpcCall(node.rpcUrl, 'tx', { hash: Buffer.from(hash, 'hex').toString('base64') }).catch(() => undefined);
          if (r?.result?.tx_result) { expect(r.result.tx_result.code, r.result.tx_result.log).to.equal(0); break; }
          if (Date.now() > deadline) throw new Error(`tx ${hash} not committed`);
          await new Promise((res) => setTimeout(res, 200));
        }
      }
    } finally {
      ws.close();
    }
  });

  it('websocket events: NewBlock and Tx payloads in CometBFT shapes', async () => {
    const ws = await RawWs.open(node.wsUrl);
    try {
      const from = await addressOf(1);
      await ws.call('subscribe', { query: "tm.event='NewBlock'" }, 'nb');
      await ws.call('subscribe', { query: `tm.event='Tx' AND message.sender='${from}'` }, 'tx');
      const nb = await ws.waitFor((m) => m.id === 'nb' && m.result?.data);
      expect(nb.result.data.type).to.equal('tendermint/event/NewBlock');
      expect(nb.result.data.value).to.have.keys(['block', 'block_id', 'result_finalize_block']);
      expect(nb.result.data.value.block).to.have.keys(['header', 'data', 'evidence', 'last_commit']);
      expect(nb.result.events['tm.event']).to.deep.equal(['NewBlock']);
      expect(nb.result.events).to.not.have.property('block.height'); // CometBFT v0.38 adds only tm.event
      const res = (await rpcCall(node.rpcUrl, 'broadcast_tx_sync', { tx: toBase64(await signedSend(node, 1, recipient, '11')) })).result;
      expect(res.code, res.log).to.equal(0);
      const ev = await ws.waitFor((m) => m.id === 'tx' && m.result?.data);
      expect(ev.result.data.type).to.equal('tendermint/event/Tx');
      const txr = ev.result.data.value.TxResult;
      expect(Object.keys(txr)).to.deep.equal(['height', 'tx', 'result']); // index 0 is omitted
      // libs/json omitempty: code 0, info "" and codespace "" are left out of a Tx event's result
      expect(Object.keys(txr.result)).to.deep.equal(['data', 'log', 'gas_wanted', 'gas_used', 'events']);
      expect(ev.result.events['tx.hash']).to.deep.equal([res.hash]);
      expect(ev.result.events['tx.height']).to.deep.equal([txr.height]);
      expect(ev.result.events['message.sender']).to.include(from);
      // the block that carries it lists the tx result in result_finalize_block
      const withTx = await ws.waitFor((m) => m.id === 'nb' && m.result?.data?.value.block.header.height === txr.height);
      expect(withTx.result.data.value.result_finalize_block.tx_results[0].code).to.equal(0);
      expect(withTx.result.data.value.block.data.txs).to.have.length(1);
    } finally {
      ws.close();
    }
  });
});

describe('e2e: CometBFT RPC limits from config.toml [rpc]', function () {
  this.timeout(120_000);
  let node: NodeHandle;

  before(async () => {
    const home = devHome({
      config: {
        'rpc.max_body_bytes': 4000,
        'rpc.max_request_batch_size': 3,
        'rpc.max_subscription_clients': 2,
        'rpc.max_subscriptions_per_client': 2,
        'rpc.max_open_connections': 40,
        'rpc.cors_allowed_origins': ['https://wallet.example'],
      },
    });
    node = await startNode({ home });
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('max_body_bytes: HTTP bodies and websocket frames', async () => {
    const big = await post(node.rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'check_tx', params: { tx: toBase64(new Uint8Array(5000)) } }));
    expect(big.status).to.equal(400);
    expect(big.body).to.deep.equal({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data: 'error reading request body: http: request body too large' } });
    const small = await rpcCall(node.rpcUrl, 'check_tx', { tx: toBase64(new Uint8Array(100)) });
    expect(small.result.code).to.equal(2);
    const ws = new WebSocket(node.wsUrl);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('error', () => undefined);
    ws.send('x'.repeat(5000));
    expect(await closed).to.equal(1009);
  });

  it('max_request_batch_size, max_subscription_clients, max_subscriptions_per_client', async () => {
    const batch = await post(node.rpcUrl, JSON.stringify(Array.from({ length: 4 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }))));
    expect(batch.body.error.data).to.equal('batch request exceeds maximum (3) allowed number of requests');
    expect((await post(node.rpcUrl, JSON.stringify(Array.from({ length: 3 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }))))).body).to.have.length(3);
    // clients are counted by the event bus, which may also serve internal subscribers (the Ethereum
    // JSON-RPC's block feed): the limit is reached after at most 2 websocket clients
    const clients: RawWs[] = [];
    let refused: { ws: RawWs; reply: any } | undefined;
    try {
      for (let i = 0; i < 3 && !refused; i++) {
        const w = await RawWs.open(node.wsUrl);
        clients.push(w);
        const reply = await w.call('subscribe', { query: "tm.event='NewBlock'" }, 1);
        if (reply.error) refused = { ws: w, reply };
      }
      expect(refused, 'a third subscribing client was accepted').to.not.equal(undefined);
      expect(refused!.reply.error).to.deep.equal({ code: -32603, message: 'Internal error', data: 'max_subscription_clients 2 reached' });
      const first = clients[0]!;
      expect(first, 'no client could subscribe').to.not.equal(refused!.ws);
      expect((await first.call('subscribe', { query: "tm.event='Tx'" }, 2)).result).to.deep.equal({});
      expect((await first.call('subscribe', { query: "tm.event='Vote'" }, 3)).error.data).to.equal('max_subscriptions_per_client 2 reached');
      // the first client's subscriptions end with its socket: the refused client may subscribe now
      first.close();
      let ok = false;
      for (let i = 0; i < 50 && !ok; i++) {
        const r = await refused!.ws.call('subscribe', { query: "tm.event='NewBlock'" }, `retry${i}`);
        ok = r.result !== undefined;
        if (!ok) await new Promise((x) => setTimeout(x, 50));
      }
      expect(ok).to.equal(true);
    } finally {
      for (const w of clients) w.close();
    }
  });

  it('max_open_connections: extra connections are refused, the node keeps answering', async () => {
    const sockets: Socket[] = [];
    const port = Number(new URL(node.rpcUrl).port);
    for (let i = 0; i < 80; i++) {
      const s = new Socket();
      s.on('error', () => undefined);
      s.connect(port, '127.0.0.1');
      sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 500));
    const closedByServer = sockets.filter((s) => s.destroyed || s.readyState === 'closed').length;
    expect(closedByServer).to.be.at.least(30);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await rpcCall(node.rpcUrl, 'health')).result).to.deep.equal({});
  });

  it('cors_allowed_origins: the allowed origin gets CORS headers, others do not', async () => {
    const ok = await rawHttp(`${node.rpcUrl}/health`, { headers: { origin: 'https://wallet.example' } });
    expect(ok.headers.get('access-control-allow-origin')).to.equal('https://wallet.example');
    const other = await rawHttp(`${node.rpcUrl}/health`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    const pre = await rawHttp(node.rpcUrl, { method: 'OPTIONS', headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
  });
});
