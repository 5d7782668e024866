/** CometBFT RPC: tx proofs and consensus_state / dump_consensus_state against cometbft v0.38 output (tools/cmt-vectors). */
import { expect } from 'chai';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { txProof, validateTxProof, dataHash, type Commit } from '@chain/consensus';
import { consensusStateJson, dumpConsensusStateJson, txProofJson } from '@chain/server';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import { initHome } from '../src/config/init.js';
import { createLogger } from '@chain/server';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON vectors are untyped */
const require = createRequire(import.meta.url);
const V: any = JSON.parse(readFileSync(require.resolve('../../../packages/consensus/test/vectors/cmt-v038.json'), 'utf8'));
const hexb = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

describe('rpc: tx proofs and consensus state (cometbft v0.38 vectors)', () => {
  it('txProofJson writes Txs.Proof(i) exactly as CometBFT for every vector', () => {
    for (const s of V.tx_proofs) {
      const txs = (s.txs as string[]).map(hexb);
      txs.forEach((_, i) => expect(txProofJson(txProof(txs, i)), `${s.name} #${i}`).to.deep.equal(s.proofs[i]));
    }
  });

  for (const v of V.round_states as any[]) {
    it(`consensus_state and dump_consensus_state equal CometBFT's idle round state (${v.validators} validators)`, () => {
      const full = v.dump_consensus_state.round_state;
      const set = (j: any) => j.validators.map((x: any) => ({
        address: hexb(x.address), pubKey: b64(x.pub_key.value), votingPower: Number(x.voting_power), proposerPriority: Number(x.proposer_priority),
      }));
      const votes = full.last_commit.votes as string[];
      const lastVals = set(full.last_validators);
      const own = lastVals.findIndex((x: any) => Buffer.from(x.address).toString('hex') === v.local_validator);
      // the precommit signature is not in the vector: take the fingerprint's 6 bytes (all Vote.String shows)
      const sigFp = votes[own]!.split(' ')[3]!;
      const commit: Commit = {
        height: v.height, round: 0,
        blockId: { hash: hexb(v.block_id.hash), partSetHeader: { total: v.block_id.part_set_header.total, hash: hexb(v.block_id.part_set_header.hash) } },
        signatures: lastVals.map((x: any, i: number) => i === own
          ? { blockIdFlag: 2, validatorAddress: x.address, timestamp: v.commit_time, signature: hexb(sigFp + '00'.repeat(58)) }
          : { blockIdFlag: 1, validatorAddress: new Uint8Array(), timestamp: { seconds: -62135596800, nanos: 0 }, signature: new Uint8Array() }),
      };
      const rs = {
        height: v.height + 1, validators: set(full.validators), proposer: hexb(full.validators.proposer.address),
        lastValidators: lastVals, lastProposer: hexb(full.last_validators.proposer.address),
        lastCommit: commit, commitTime: v.commit_time, timeoutCommitMs: v.timeout_commit_ms,
      };
      expect(consensusStateJson(rs)).to.deep.equal(v.consensus_state);
      expect(dumpConsensusStateJson(rs)).to.deep.equal(v.dump_consensus_state);
    });
  }

  describe('in-process node', function () {
    this.timeout(30_000);
    let home: string;
    let node: Node;
    let rpc: string;
    before(async () => {
      home = mkdtempSync(join(tmpdir(), 'chaind-rpccs-'));
      initHome({ home, dev: true });
      const cfg = applyFlags(loadConfig(home), {
        'rpc.laddr': 'tcp://127.0.0.1:0', 'api.address': 'tcp://127.0.0.1:0', 'grpc.address': '127.0.0.1:0', 'consensus.timeout_commit': '300ms',
      });
      node = await Node.create(cfg, createLogger('error'));
      await node.start();
      rpc = `http://127.0.0.1:${node.rpc!.port}`;
      while (node.engine.latestHeight < 2) await new Promise((r) => setTimeout(r, 20));
    });
    after(async () => {
      await node?.stop();
      rmSync(home, { recursive: true, force: true });
    });

    it('consensus_state (GET and JSON-RPC): NewHeight of latest+1, start = own precommit time + timeout_commit', async () => {
      const get = await (await fetch(`${rpc}/consensus_state`)).json() as any;
      const post = await (await fetch(rpc, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'consensus_state', params: {} }) })).json() as any;
      const dump = await (await fetch(`${rpc}/dump_consensus_state`)).json() as any;
      for (const r of [get.result, post.result]) {
        const [h, round, step] = r.round_state['height/round/step'].split('/').map(Number);
        expect(round).to.equal(0);
        expect(step).to.equal(1);
        const commit = await (await fetch(`${rpc}/commit?height=${h - 1}`)).json() as any;
        const ts = Date.parse(commit.result.signed_header.commit.signatures[0].timestamp);
        expect(Date.parse(r.round_state.start_time) - ts).to.equal(300);
        expect(r.round_state.proposer).to.deep.equal({ address: Buffer.from(node.engine.validatorAddr).toString('hex').toUpperCase(), index: 0 });
        expect(r.round_state.height_vote_set[0].prevotes_bit_array).to.match(/^BA\{1:_\} 0\/\d+ = 0\.00$/);
      }
      const rs = dump.result.round_state;
      expect(dump.result.peers).to.deep.equal([]);
      expect(rs.step).to.equal(1);
      expect(rs.last_commit.votes_bit_array).to.match(/^BA\{1:x\} (\d+)\/\1 = 1\.00$/);
      expect(rs.last_commit.votes[0]).to.match(new RegExp(`^Vote\\{0:[0-9A-F]{12} ${Number(rs.height) - 1}/00/SIGNED_MSG_TYPE_PRECOMMIT\\(Precommit\\) `));
      expect(rs.validators.proposer.address).to.equal(rs.validators.validators[0].address);
    });

    it('the proof of a tx validates against its block header data_hash', async () => {
      const b = await node.engine.blocks.block(1);
      const txs = b!.block.data.txs;
      if (txs.length) expect(validateTxProof(txProof(txs, 0), b!.block.header.dataHash)).to.equal(undefined);
      expect(dataHash(txs)).to.deep.equal(b!.block.header.dataHash);
    });
  });
});
