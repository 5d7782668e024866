/**
 * State proofs from outside: `abci_query` on the raw store paths (`/store/<name>/key`, `prove: true`) answers the
 * value with the SDK's proof ops, which `@confio/ics23` verifies against the app hash in the header of the next
 * block (membership of a balance and of an account, non-membership of an unknown account), as a light client does.
 * Runs against `chaind dev` and (E2E_TARGET=localnet) real CometBFT, where the ops cross the ABCI socket.
 */
import { expect } from 'chai';
import { ics23, iavlSpec, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { calculateExistenceRoot } from '@confio/ics23/build/proofs.js';
import { fromBase64, toHex } from '@cosmjs/encoding';
import { fromBech32 } from '@chain/crypto';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { startTargetNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, getJson, rpcCall, signedSend, DENOM } from '../src/clients.js';

const enc = new TextEncoder();
const concat = (...p: Uint8Array[]): Uint8Array => Uint8Array.from(p.flatMap((x) => [...x]));

/** bank balance key (SDK v0.45+ layout): 0x02 || len(address) || address || denom */
const balanceKey = (addr: Uint8Array, denom: string): Uint8Array => concat(Uint8Array.of(0x02, addr.length), addr, enc.encode(denom));
/** auth account key: 0x01 || address */
const accountKey = (addr: Uint8Array): Uint8Array => concat(Uint8Array.of(0x01), addr);

interface QueryAnswer { code: number; log: string; codespace: string; key: string | null; value: string | null; height: string; proofOps: { ops: { type: string; key: string; data: string }[] } | null }

describe('e2e: ICS-23 proofs of raw store queries (abci_query prove), verified against the next header', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let client: Comet38Client;
  let me: Uint8Array;
  let h: number;

  const query = async (path: string, data: Uint8Array, height: number, prove: boolean): Promise<QueryAnswer> => {
    const r = await rpcCall(node.rpcUrl, 'abci_query', { path, data: toHex(data), height: String(height), prove });
    expect(r.error, JSON.stringify(r.error)).to.equal(undefined);
    return r.result.response;
  };
  /** the app hash that commits to the state after block `height`: the header of block height + 1 */
  const appHashAfter = async (height: number): Promise<Uint8Array> => {
    for (;;) {
      const s = await client.status();
      if (s.syncInfo.latestBlockHeight > height) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return (await client.block(height + 1)).block.header.appHash;
  };

  before(async () => {
    node = await startTargetNode();
    client = await Comet38Client.connect(node.rpcUrl);
    const from = await devAddress(3);
    me = fromBech32(from).data;
    const to = await devAddress(7);
    const raw = await signedSend(node.restUrl, 3, to, '777');
    const res = await client.broadcastTxCommit({ tx: raw });
    expect(res.txResult!.code, res.txResult!.log).to.equal(0);
    h = res.height;
  });

  after(async () => {
    client?.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  it('a balance: membership in the bank tree, the bank root in the app hash of the next header', async () => {
    const key = balanceKey(me, DENOM);
    const a = await query('/store/bank/key', key, h, true);
    expect(a.code, a.log).to.equal(0);
    expect(a.height).to.equal(String(h));
    expect(a.key).to.equal(Buffer.from(key).toString('base64'));
    const value = fromBase64(a.value!);
    // the value is the balance at that height, as REST reports it
    const rest = (await getJson(`${node.restUrl}/cosmos/bank/v1beta1/balances/${await devAddress(3)}/by_denom?denom=${DENOM}`, { 'x-cosmos-block-height': String(h) })).body;
    expect(Buffer.from(value).toString()).to.equal(rest.balance.amount);
    expect(a.proofOps!.ops.map((o) => o.type)).to.deep.equal(['ics23:iavl', 'ics23:simple']);
    expect(fromBase64(a.proofOps!.ops[0]!.key)).to.deep.equal(key);
    expect(Buffer.from(fromBase64(a.proofOps!.ops[1]!.key)).toString()).to.equal('bank');
    const iavl = ics23.CommitmentProof.decode(fromBase64(a.proofOps!.ops[0]!.data));
    const simple = ics23.CommitmentProof.decode(fromBase64(a.proofOps!.ops[1]!.data));
    const storeRoot = calculateExistenceRoot(iavl.exist!);
    expect(verifyMembership(iavl, iavlSpec, storeRoot, key, value)).to.equal(true);
    const appHash = await appHashAfter(h);
    expect(verifyMembership(simple, tendermintSpec, appHash, enc.encode('bank'), storeRoot)).to.equal(true);
    // and not against the app hash of another height, nor for another value
    expect(verifyMembership(simple, tendermintSpec, await appHashAfter(h - 1), enc.encode('bank'), storeRoot)).to.equal(false);
    expect(verifyMembership(iavl, iavlSpec, storeRoot, key, enc.encode('1'))).to.equal(false);
  });

  it('an account (acc store) exists; an unknown address does not, with a non-membership proof', async () => {
    const appHash = await appHashAfter(h);
    const a = await query('/store/acc/key', accountKey(me), h, true);
    expect(a.code, a.log).to.equal(0);
    const iavl = ics23.CommitmentProof.decode(fromBase64(a.proofOps!.ops[0]!.data));
    const simple = ics23.CommitmentProof.decode(fromBase64(a.proofOps!.ops[1]!.data));
    const root = calculateExistenceRoot(iavl.exist!);
    expect(verifyMembership(iavl, iavlSpec, root, accountKey(me), fromBase64(a.value!))).to.equal(true);
    expect(verifyMembership(simple, tendermintSpec, appHash, enc.encode('acc'), root)).to.equal(true);
    // the value is the account Any: /cosmos.auth.v1beta1.BaseAccount (canonical /chain. name or Ethermint's EthAccount)
    expect(Buffer.from(fromBase64(a.value!)).toString('latin1')).to.match(/auth\.v1beta1\.(BaseAccount|EthAccount)|ethermint\.types\.v1\.EthAccount/);

    const nobody = accountKey(Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff));
    const n = await query('/store/acc/key', nobody, h, true);
    expect(n.code, n.log).to.equal(0);
    expect(n.value).to.equal(null);
    const np = ics23.CommitmentProof.decode(fromBase64(n.proofOps!.ops[0]!.data));
    expect(np.nonexist, 'a non-existence proof').to.not.equal(undefined);
    const side = np.nonexist!.left ?? np.nonexist!.right!;
    const nroot = calculateExistenceRoot(side);
    expect(verifyNonMembership(np, iavlSpec, nroot, nobody)).to.equal(true);
    const nsimple = ics23.CommitmentProof.decode(fromBase64(n.proofOps!.ops[1]!.data));
    expect(verifyMembership(nsimple, tendermintSpec, appHash, enc.encode('acc'), nroot)).to.equal(true);
  });

  it('without prove: the value and no proof; a subspace lists the pairs under a prefix', async () => {
    const a = await query('/store/bank/key', balanceKey(me, DENOM), 0, false);
    expect(a.code).to.equal(0);
    expect(a.proofOps).to.equal(null);
    expect(Number(a.height)).to.be.at.least(h);
    const sub = await query('/store/bank/subspace', concat(Uint8Array.of(0x02, me.length), me), 0, false);
    expect(sub.code, sub.log).to.equal(0);
    // cosmos.base.kv.v1beta1.Pairs: field 1 Pair { key = 1, value = 2 }; this account holds at least achain
    const bytes = fromBase64(sub.value!);
    expect(bytes[0]).to.equal(0x0a);
    expect(Buffer.from(bytes).includes(Buffer.from(balanceKey(me, DENOM)))).to.equal(true);
  });

  it('refuses as the SDK: proofs at height <= 1, unknown stores and subpaths, empty keys', async () => {
    const cases: [string, Uint8Array, number, boolean, number, string][] = [
      ['/store/bank/key', balanceKey(me, DENOM), 1, true, 18, 'cannot query with proof when height <= 1; please provide a valid height'],
      ['/store/nope/key', Uint8Array.of(1), h, false, 6, 'no such store: nope'],
      ['/store/bank/what', Uint8Array.of(1), h, false, 6, 'unexpected query path: /what'],
      ['/store/bank/key', new Uint8Array(0), h, false, 2, 'query cannot be zero length'],
    ];
    for (const [path, data, height, prove, code, log] of cases) {
      const a = await query(path, data, height, prove);
      expect(a.code, path).to.equal(code);
      expect(a.codespace).to.equal('sdk');
      expect(a.log).to.include(log);
    }
    const future = await query('/store/bank/key', balanceKey(me, DENOM), h + 100_000, false);
    expect(future.code).to.equal(0);
    expect(future.log).to.equal('version does not exist');
  });
});
