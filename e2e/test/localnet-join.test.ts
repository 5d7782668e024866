/**
 * `chaind localnet add-node`: a 5th full node (not a validator) joins a 4-validator localnet and syncs; a
 * MsgCreateValidator with its consensus key (cosmjs) makes it a validator with a third of the power: CometBFT's
 * `ValidatorSetUpdates` carries it, `/validators` lists it, and its signature appears in the commits of later
 * blocks (with 2000 of 6000 power, the other four alone are not > 2/3: blocks after the change need it).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { PubKey } from 'cosmjs-types/cosmos/crypto/ed25519/keys';
import { fromBech32, toBech32 } from '@chain/crypto';
import { devWallet, getJson, rpcCall, WsSubscription, DENOM } from '../src/clients.js';
import { alive, blockAt, chaind, height, readNodes, until, waitHeight, startLocalnet, teardownLocalnet } from '../src/localnet.js';
import type { LnNode } from '../src/localnet.js';

const E18 = 10n ** 18n;

describe('e2e: chaind localnet add-node, and a validator created by a tx that starts signing', function () {
  this.timeout(180_000);
  let dir: string;
  let nodes: LnNode[] = [];

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build takes a few minutes
    ({ dir, nodes } = await startLocalnet('localnet-join', ['--validators', '4', '--timeout-commit', '1s']));
  });

  after(() => teardownLocalnet(dir));

  it('`localnet add-node` starts a 5th node that is not a validator and syncs the chain from the others', async () => {
    const out = await chaind(['localnet', 'add-node', '--home', dir]);
    expect(out).to.match(/node4 added/);
    nodes = readNodes(dir);
    expect(nodes).to.have.length(5);
    const n4 = nodes[4]!;
    for (const p of n4.pids) expect(alive(p), `pid ${p}`).to.equal(true);
    expect(new Set(nodes.map((n) => n.rpc)).size).to.equal(5);
    // synced: past the others' height at the time, with the same blocks
    const h = await height(nodes[0]!);
    await waitHeight(n4, h + 1, 60_000);
    for (const x of [1, h]) expect(await blockAt(n4, x), `height ${x}`).to.deep.equal(await blockAt(nodes[0]!, x));
    // not a validator: its key is not in the set (4 × 1000)
    const key = JSON.parse(readFileSync(join(n4.home, 'config', 'priv_validator_key.json'), 'utf8'));
    const vals = (await rpcCall(n4.rpc, 'validators')).result;
    expect(vals.total).to.equal('4');
    expect(vals.validators.map((v: { address: string }) => v.address)).to.not.include(key.address);
    const st = (await rpcCall(n4.rpc, 'status')).result;
    expect(st.validator_info.voting_power).to.equal('0');
    expect(st.sync_info.catching_up).to.equal(false);
    // its app serves the same state (REST on node 4: the 4 bonded validators)
    expect((await getJson(`${n4.rest}/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED`)).body.validators).to.have.length(4);
  });

  it('MsgCreateValidator with node 4\'s consensus key: ValidatorSetUpdates on the websocket, /validators lists it, its node signs later blocks', async () => {
    const n4 = nodes[4]!;
    const key = JSON.parse(readFileSync(join(n4.home, 'config', 'priv_validator_key.json'), 'utf8'));
    const consPub = Buffer.from(key.pub_key.value, 'base64');
    const updates = await WsSubscription.open(`${n4.rpc.replace('http', 'ws')}/websocket`, "tm.event='ValidatorSetUpdates'");
    try {
      const wallet = await devWallet(5);
      const operator = (await wallet.getAccounts())[0]!.address;
      const valoper = toBech32('chainvaloper', fromBech32(operator).data);
      const client = await SigningStargateClient.connectWithSigner(nodes[0]!.rpc, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
      const res = await client.signAndBroadcast(operator, [{
        typeUrl: '/cosmos.staking.v1beta1.MsgCreateValidator',
        value: {
          description: { moniker: 'node4', identity: '', website: '', securityContact: '', details: '' },
          commission: { rate: '100000000000000000', maxRate: '200000000000000000', maxChangeRate: '10000000000000000' },
          minSelfDelegation: '1',
          delegatorAddress: operator,
          validatorAddress: valoper,
          pubkey: { typeUrl: '/cosmos.crypto.ed25519.PubKey', value: PubKey.encode({ key: consPub }).finish() },
          value: { denom: DENOM, amount: (2000n * E18).toString() },
        },
      }], 2);
      client.disconnect();
      expect(res.code, res.rawLog).to.equal(0);

      // the set update, in the block of the tx, on node 4's CometBFT websocket
      const ev = await updates.waitFor((e) => (e.data?.value?.validator_updates ?? []).some((u: any) => u.pub_key?.value === key.pub_key.value), 30_000);
      const upd = ev.data.value.validator_updates.find((u: any) => u.pub_key.value === key.pub_key.value);
      expect(upd.voting_power).to.equal('2000');
      expect(upd.address).to.equal(key.address);
      // CometBFT applies it two blocks later: /validators lists it with its power
      const inSet = await until('node 4 in /validators', async () => {
        const v = (await rpcCall(nodes[2]!.rpc, 'validators')).result;
        return v.validators.find((x: { address: string }) => x.address === key.address) ? v : undefined;
      }, 60_000);
      expect(inSet.total).to.equal('5');
      expect(inSet.validators.find((x: { address: string }) => x.address === key.address).voting_power).to.equal('2000');
      expect((await rpcCall(n4.rpc, 'status')).result.validator_info.voting_power).to.equal('2000');
      const rest = await getJson(`${nodes[1]!.rest}/cosmos/staking/v1beta1/validators/${valoper}`);
      expect(rest.body.validator.status).to.equal('BOND_STATUS_BONDED');

      // its node signs: its address in the commit signatures (BLOCK_ID_FLAG_COMMIT) of later blocks on every node
      const from = Number(inSet.block_height);
      await waitHeight(nodes[0]!, from + 4, 60_000);
      // the other node asked below may be a block behind nodes[0] (a /commit of a height it does not have is an error)
      await waitHeight(nodes[3]!, from + 4, 60_000);
      const signedBy = async (n: LnNode, h: number): Promise<boolean> => {
        const sigs = (await rpcCall(n.rpc, 'commit', { height: String(h) })).result.signed_header.commit.signatures;
        expect(sigs).to.have.length(5);
        return sigs.some((s: { validator_address: string; block_id_flag: number }) => s.validator_address === key.address && s.block_id_flag === 2);
      };
      let signed = 0;
      for (let h = from + 1; h <= from + 4; h++) if (await signedBy(nodes[0]!, h)) signed++;
      expect(signed, 'blocks of 4 signed by node 4').to.be.greaterThanOrEqual(3);
      expect(await signedBy(nodes[3]!, from + 4) || await signedBy(nodes[3]!, from + 3)).to.equal(true);
    } finally {
      updates.close();
    }
  });

  it('`localnet stop` stops the added node too', async () => {
    const pids = nodes.flatMap((n) => n.pids);
    expect(pids).to.have.length(10);
    await chaind(['localnet', 'stop', '--home', dir], 60_000);
    for (const p of pids) expect(alive(p), `pid ${p}`).to.equal(false);
  });
});
