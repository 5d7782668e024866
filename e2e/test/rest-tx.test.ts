/**
 * Transactions over REST with raw HTTP: broadcast in every mode (SYNC, ASYNC, BLOCK), simulate (also
 * unsigned), get by hash, and search by events / `query` with offset, key and page pagination, ordering,
 * counts and the limit of 100, in both the `/chain/...` and `/cosmos/...` spellings.
 */
import { expect } from 'chai';
import { toBase64 } from '@cosmjs/encoding';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { startTargetNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, getJson, postJson, signedSend } from '../src/clients.js';

const HEX64 = /^[0-9A-F]{64}$/;
const q = (s: string): string => encodeURIComponent(s);

describe('e2e: transactions over REST (broadcast modes, simulate, get, search)', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let sender: string;
  let recipient: string;
  /** hashes of the search fixture txs, in commit order */
  const searchHashes: string[] = [];

  const broadcast = (raw: Uint8Array, mode: string, spelling = 'chain') =>
    postJson(`${node.restUrl}/${spelling}/tx/v1beta1/txs`, { tx_bytes: toBase64(raw), mode });

  const waitTx = async (hash: string): Promise<any> => {
    for (let i = 0; i < 200; i++) {
      const r = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${hash}`);
      if (r.status === 200) return r.body;
      expect(r.status, JSON.stringify(r.body)).to.equal(404);
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`tx ${hash} not committed within 20 s`);
  };

  before(async () => {
    node = await startTargetNode();
    sender = await devAddress(5);
    recipient = await devAddress(7);
    // five sends of one sender in SYNC mode (consecutive sequences), committed over one or more blocks
    // all signed before the first is broadcast: signedSend reads the committed sequence
    const signed: Uint8Array[] = [];
    for (let i = 0; i < 5; i++) signed.push(await signedSend(node.restUrl, 5, recipient, String(100 + i), { sequenceOffset: i, memo: `search ${i}` }));
    for (const raw of signed) {
      const r = await broadcast(raw, 'BROADCAST_MODE_SYNC');
      expect(r.status).to.equal(200);
      expect(r.body.tx_response.code, r.body.tx_response.raw_log).to.equal(0);
      searchHashes.push(r.body.tx_response.txhash);
    }
    for (const h of searchHashes) await waitTx(h);
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
  });

  it('BLOCK mode waits for the commit and answers the deliver result; GetTx finds it in both spellings', async () => {
    const raw = await signedSend(node.restUrl, 6, recipient, '777', { memo: 'block mode' });
    const r = await broadcast(raw, 'BROADCAST_MODE_BLOCK');
    expect(r.status).to.equal(200);
    const t = r.body.tx_response;
    expect(t.code, t.raw_log).to.equal(0);
    expect(Number(t.height)).to.be.greaterThan(0);
    expect(t.txhash).to.match(HEX64);
    expect(BigInt(t.gas_used) > 0n).to.equal(true);
    expect(t.events.map((e: any) => e.type)).to.include.members(['coin_spent', 'coin_received', 'transfer', 'message']);
    // already committed: GetTx answers at once, upper or lower case, in both dialects
    const got = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${t.txhash}`);
    expect(got.status).to.equal(200);
    expect(got.body).to.have.keys(['tx', 'tx_response']);
    expect(got.body.tx.body.memo).to.equal('block mode');
    expect(got.body.tx.body.messages[0]['@type']).to.equal('/chain.bank.v1beta1.MsgSend');
    expect(got.body.tx_response.height).to.equal(t.height);
    expect(got.body.tx_response.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const cosmos = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs/${t.txhash.toLowerCase()}`);
    expect(cosmos.body.tx.body.messages[0]['@type']).to.equal('/cosmos.bank.v1beta1.MsgSend');
    expect(cosmos.body.tx_response.tx['@type']).to.equal('/cosmos.tx.v1beta1.Tx');
    // the same bytes again: refused by the mempool cache, still HTTP 200
    const again = await broadcast(raw, 'BROADCAST_MODE_BLOCK');
    expect(again.status).to.equal(200);
    expect(again.body.tx_response.code).to.not.equal(0);
    expect(again.body.tx_response.height).to.equal('0');
  });

  it('ASYNC answers before CheckTx with the hash; the tx is committed later', async () => {
    const raw = await signedSend(node.restUrl, 6, recipient, '778', { memo: 'async mode' });
    const r = await broadcast(raw, 'BROADCAST_MODE_ASYNC', 'cosmos');
    expect(r.status).to.equal(200);
    expect(r.body.tx_response.code).to.equal(0);
    expect(r.body.tx_response.height).to.equal('0');
    const committed = await waitTx(r.body.tx_response.txhash);
    expect(committed.tx.body.memo).to.equal('async mode');
  });

  it('a CheckTx failure is HTTP 200 with the code; bad bodies and modes are errors', async () => {
    // wrong sequence in BLOCK mode: CheckTx result, height 0, nothing waited for
    const wrong = await broadcast(await signedSend(node.restUrl, 6, recipient, '1', { sequenceOffset: 9 }), 'BROADCAST_MODE_BLOCK');
    expect(wrong.status).to.equal(200);
    expect(wrong.body.tx_response.code).to.equal(32);
    expect(wrong.body.tx_response.raw_log).to.match(/^account sequence mismatch/);
    expect(wrong.body.tx_response.height).to.equal('0');
    const raw = await signedSend(node.restUrl, 6, recipient, '1');
    const unspecified = await broadcast(raw, 'BROADCAST_MODE_UNSPECIFIED');
    expect(unspecified.status).to.equal(500);
    expect(unspecified.body).to.deep.equal({ code: 2, message: 'unsupported return type unspecified; supported types: sync, async, block', details: [] });
    const badMode = await broadcast(raw, 'BROADCAST_MODE_FAST');
    expect(badMode.status).to.equal(400);
    expect(badMode.body.code).to.equal(3);
    const empty = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, {});
    expect(empty.status).to.equal(400);
    expect(empty.body.message).to.equal('invalid empty tx');
  });

  it('simulates signed and unsigned txs: gas_info, events and msg_responses', async () => {
    const raw = await signedSend(node.restUrl, 6, recipient, '5');
    const sim = await postJson(`${node.restUrl}/chain/tx/v1beta1/simulate`, { tx_bytes: toBase64(raw) });
    expect(sim.status, JSON.stringify(sim.body)).to.equal(200);
    expect(sim.body.gas_info.gas_wanted).to.equal('18446744073709551615');
    expect(BigInt(sim.body.gas_info.gas_used) > 0n).to.equal(true);
    expect(sim.body.result.msg_responses[0]['@type']).to.equal('/chain.bank.v1beta1.MsgSendResponse');
    expect(sim.body.result.events.map((e: any) => e.type)).to.include('transfer');
    // without signatures: simulation does not verify them, gas is still estimated
    const unsigned = TxRaw.encode({ ...TxRaw.decode(raw), signatures: [] }).finish();
    const sim2 = await postJson(`${node.restUrl}/cosmos/tx/v1beta1/simulate`, { tx_bytes: toBase64(unsigned) });
    expect(sim2.status, JSON.stringify(sim2.body)).to.equal(200);
    expect(sim2.body.result.msg_responses[0]['@type']).to.equal('/cosmos.bank.v1beta1.MsgSendResponse');
    // a failing message: the reason with the gas figures, HTTP 500 code 2 as the SDK answers
    const tooMuch = await signedSend(node.restUrl, 6, recipient, (10n ** 30n).toString());
    const fail = await postJson(`${node.restUrl}/chain/tx/v1beta1/simulate`, { tx_bytes: toBase64(tooMuch) });
    expect(fail.status).to.equal(500);
    expect(fail.body.code).to.equal(2);
    expect(fail.body.message).to.match(/insufficient funds.*With gas wanted: '\d+' and gas used: '\d+'/);
    const empty = await postJson(`${node.restUrl}/chain/tx/v1beta1/simulate`, { tx_bytes: '' });
    expect(empty.status).to.equal(400);
    expect(empty.body.message).to.equal('empty txBytes is not allowed');
  });

  it('GetTx: unknown hash 404, malformed hash 400', async () => {
    const missing = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${'AB'.repeat(32)}`);
    expect(missing.status).to.equal(404);
    expect(missing.body.code).to.equal(5);
    const bad = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/xyz`);
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal(3);
  });

  it('search: events AND-ed, offset pages of the given limit, count_total and both orders', async () => {
    const base = `${node.restUrl}/chain/tx/v1beta1/txs?events=${q(`message.sender='${sender}'`)}&events=${q("message.module='bank'")}`;
    const all = await getJson(`${base}&pagination.limit=100&pagination.offset=0`);
    expect(all.status).to.equal(200);
    expect(all.body).to.have.keys(['txs', 'tx_responses', 'pagination', 'total']);
    expect(all.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(searchHashes);
    expect(all.body.total).to.equal('5');
    expect(all.body.pagination).to.deep.equal({ next_key: null, total: '5' });
    expect(all.body.txs.map((t: any) => t.body.memo)).to.deep.equal([0, 1, 2, 3, 4].map((i) => `search ${i}`));
    // offset pages of 2: [0,1] [2,3] [4]; a next_key while more remain
    const pages: string[] = [];
    for (const offset of [0, 2, 4]) {
      const p = await getJson(`${base}&pagination.limit=2&pagination.offset=${offset}&pagination.count_total=true`);
      expect(p.body.tx_responses.length).to.equal(offset === 4 ? 1 : 2);
      expect(p.body.pagination.total).to.equal('5');
      expect(p.body.pagination.next_key === null).to.equal(offset === 4);
      pages.push(...p.body.tx_responses.map((t: any) => t.txhash));
    }
    expect(pages).to.deep.equal(searchHashes);
    // an offset that is not a multiple of the limit
    const odd = await getJson(`${base}&pagination.limit=3&pagination.offset=1`);
    expect(odd.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(searchHashes.slice(1, 4));
    // next_key continues where the page ended
    const first = await getJson(`${base}&pagination.limit=2`);
    const next = await getJson(`${base}&pagination.limit=2&pagination.key=${q(first.body.pagination.next_key)}`);
    expect(next.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(searchHashes.slice(2, 4));
    // descending order, and the 0.46 page/limit form
    const desc = await getJson(`${base}&order_by=ORDER_BY_DESC`);
    expect(desc.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal([...searchHashes].reverse());
    const descNum = await getJson(`${base}&order_by=2&page=2&limit=2`);
    expect(descNum.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal([...searchHashes].reverse().slice(2, 4));
  });

  it('search: the query form, tx.hash, tx.height ranges, action aliases, and the Cosmos spelling', async () => {
    const h0 = (await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${searchHashes[0]}`)).body.tx_response.height;
    const byHash = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${q(`tx.hash='${searchHashes[3]}'`)}`);
    expect(byHash.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal([searchHashes[3]]);
    const query = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?query=${q(`message.sender='${sender}' AND tx.height>=${h0} AND message.action='/cosmos.bank.v1beta1.MsgSend'`)}`);
    expect(query.status).to.equal(200);
    expect(query.body.tx_responses.map((t: any) => t.txhash)).to.deep.equal(searchHashes);
    expect(query.body.txs[0].body.messages[0]['@type']).to.equal('/cosmos.bank.v1beta1.MsgSend');
    const atHeight = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${q(`tx.height=${h0}`)}&events=${q(`message.sender='${sender}'`)}`);
    expect(atHeight.body.tx_responses.length).to.be.at.least(1);
    for (const t of atHeight.body.tx_responses) expect(t.height).to.equal(h0);
    const before = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?query=${q(`message.sender='${sender}' AND tx.height<${h0}`)}`);
    expect(before.body.tx_responses).to.deep.equal([]);
    expect(before.body.total).to.equal('0');
  });

  it('search errors: no events, bad events, bad queries, limits above 100, key and offset together', async () => {
    const url = `${node.restUrl}/chain/tx/v1beta1/txs`;
    const cases: [string, RegExp][] = [
      ['', /^must declare at least one event to search$/],
      [`?events=${q('message.sender')}`, /^invalid event; event message.sender should be of the format/],
      [`?query=${q('message.sender >')}`, /^failed to parse query: /],
      [`?events=${q(`message.sender='${sender}'`)}&pagination.limit=101`, /^pagination.limit must be at most 100/],
      [`?events=${q(`message.sender='${sender}'`)}&limit=1000`, /^limit must be at most 100/],
      [`?events=${q(`message.sender='${sender}'`)}&pagination.offset=1&pagination.key=AAAAAAAAAAE=`, /either offset or key is expected, got both/],
      [`?query=${q(`message.sender='${'x'.repeat(600)}'`)}`, /^maximum query length exceeded/],
    ];
    for (const [suffix, message] of cases) {
      const r = await getJson(url + suffix);
      expect(r.status, suffix).to.equal(400);
      expect(r.body.code, suffix).to.equal(3);
      expect(r.body.message, suffix).to.match(message);
      expect(r.body.details).to.deep.equal([]);
    }
  });
});
