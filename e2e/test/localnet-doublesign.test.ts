/**
 * Double signing on a 4-validator localnet: `localnet add-node --validator-key-of 3` runs a second chaind +
 * CometBFT with a copy of validator 3's consensus key and a fresh priv_validator_state. Both sign at the same
 * heights; the other validators' CometBFT see conflicting votes, commit DuplicateVoteEvidence in a block and
 * hand it to the app in FinalizeBlock (misbehavior): the evidence module lists the equivocation, slashing
 * tombstones and jails validator 3, staking slashes its tokens by slash_fraction_double_sign, and CometBFT's
 * set drops it while the other three go on.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toBech32 } from '@chain/crypto';
import { getJson, rpcCall } from '../src/clients.js';
import { blockAt, chaind, height, readNodes, until, waitHeight, startLocalnet, teardownLocalnet } from '../src/localnet.js';
import type { LnNode } from '../src/localnet.js';

const E18 = 10n ** 18n;

describe('e2e: chaind localnet double-sign (a second signer of one validator\'s key)', function () {
  this.timeout(240_000);
  let dir: string;
  let nodes: LnNode[] = [];

  before(async function () {
    this.timeout(20 * 60_000); // the first CometBFT build takes a few minutes
    ({ dir, nodes } = await startLocalnet('localnet-dsign', ['--validators', '4', '--timeout-commit', '1s']));
  });

  after(() => teardownLocalnet(dir));

  it('DuplicateVoteEvidence is committed; the validator is tombstoned, jailed, slashed and listed by /chain/evidence/v1beta1/evidence', async () => {
    const rest = async (n: LnNode, path: string): Promise<any> => {
      const r = await getJson(`${n.rest}${path}`);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
      return r.body;
    };
    const key = JSON.parse(readFileSync(join(nodes[3]!.home, 'config', 'priv_validator_key.json'), 'utf8'));
    const consAddr = toBech32('chainvalcons', Buffer.from(key.address, 'hex'));
    const fraction = (await rest(nodes[0]!, '/cosmos/slashing/v1beta1/params')).params.slash_fraction_double_sign;
    expect(fraction).to.equal('0.050000000000000000');
    // no evidence before the duplicate signer runs
    expect((await rest(nodes[0]!, '/chain/evidence/v1beta1/evidence')).evidence).to.deep.equal([]);

    const out = await chaind(['localnet', 'add-node', '--home', dir, '--validator-key-of', '3']);
    expect(out).to.match(/node4 added \(a DUPLICATE signer of node3/);
    nodes = readNodes(dir);
    expect(readFileSync(join(nodes[4]!.home, 'config', 'priv_validator_key.json'), 'utf8')).to.equal(readFileSync(join(nodes[3]!.home, 'config', 'priv_validator_key.json'), 'utf8'));

    // the evidence module's list (REST of node 0's app)
    const evidence = await until('evidence on node 0', async () => {
      const e = (await rest(nodes[0]!, '/chain/evidence/v1beta1/evidence')).evidence;
      return e.length > 0 ? e : undefined;
    }, 150_000, 1000);
    expect(evidence).to.have.length(1);
    expect(evidence[0]['@type']).to.equal('/chain.evidence.v1beta1.Equivocation');
    expect(evidence[0].consensus_address).to.equal(consAddr);
    expect(evidence[0].power).to.equal('1000');
    const infractionHeight = Number(evidence[0].height);

    // CometBFT committed it: the block whose FinalizeBlock slashed for double_sign carries DuplicateVoteEvidence
    const found = (await rpcCall(nodes[1]!.rpc, 'block_search', { query: "slash.reason='double_sign'" })).result;
    expect(found.total_count).to.equal('1');
    const blk = found.blocks[0].block;
    // (one or more: a prevote and a precommit conflict may be committed together; the first one tombstones)
    const ev = blk.evidence.evidence as any[];
    expect(ev.length).to.be.greaterThanOrEqual(1);
    for (const e of ev) {
      expect(e.type).to.equal('tendermint/DuplicateVoteEvidence');
      expect(e.value.vote_a.validator_address).to.equal(key.address);
    }
    const dup = ev.find((e) => Number(e.value.vote_a.height) === infractionHeight);
    expect(dup, `evidence of height ${infractionHeight} in block ${blk.header.height}`).to.not.equal(undefined);
    const { vote_a: a, vote_b: b } = dup.value;
    expect(a.validator_address).to.equal(key.address);
    expect(b.validator_address).to.equal(key.address);
    expect([a.height, a.round, a.type]).to.deep.equal([b.height, b.round, b.type]);
    expect(a.block_id.hash).to.not.equal(b.block_id.hash);

    // slashing: tombstoned, jailed forever; staking: jailed, out of the bonded set, tokens cut by 5 %
    const info = (await rest(nodes[2]!, `/cosmos/slashing/v1beta1/signing_infos/${consAddr}`)).val_signing_info;
    expect(info.tombstoned).to.equal(true);
    expect(info.jailed_until).to.equal('9999-12-31T23:59:59Z');
    const vals = (await rest(nodes[2]!, '/cosmos/staking/v1beta1/validators')).validators;
    const v = vals.find((x: any) => x.consensus_pubkey.key === key.pub_key.value);
    expect(v, 'validator 3 in staking').to.not.equal(undefined);
    expect(v.jailed).to.equal(true);
    expect(v.status).to.not.equal('BOND_STATUS_BONDED');
    expect(BigInt(v.tokens)).to.equal(1000n * E18 - (1000n * E18 * 5n) / 100n);
    for (const o of vals.filter((x: any) => x !== v)) expect([o.jailed, o.tokens]).to.deep.equal([false, (1000n * E18).toString()]);

    // CometBFT's set drops it (power 0 update); the other three (3000 of 3000) go on and agree
    await until('validator 3 out of CometBFT\'s set', async () => {
      const s = (await rpcCall(nodes[0]!.rpc, 'validators')).result;
      return s.total === '3' && !s.validators.some((x: { address: string }) => x.address === key.address) ? s : undefined;
    }, 60_000);
    const h = await height(nodes[0]!);
    await Promise.all(nodes.slice(0, 3).map((n) => waitHeight(n, h + 3, 60_000)));
    const bs = await Promise.all(nodes.slice(0, 3).map((n) => blockAt(n, h + 2)));
    for (const x of bs) expect(x).to.deep.equal(bs[0]);
    // evidence is committed once: the same single entry later
    expect((await rest(nodes[1]!, '/chain/evidence/v1beta1/evidence')).evidence).to.deep.equal(evidence);
  });
});
