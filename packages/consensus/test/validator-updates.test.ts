/**
 * The ABCI boundary as the embedded engine drives it: validator updates returned by FinalizeBlock at
 * height H change the set from H+2 on (CometBFT's delay), the real sets are hashed into headers and
 * signed commits, and each FinalizeBlock carries the decided last commit (every validator of the previous
 * height with its vote: the local one signed, the others absent) and the block's header hash.
 */
import { expect } from 'chai';
import type { AppModule, CommitInfo, Context, ValidatorUpdate } from '@chain/app';
import { ed25519PublicKey, sha256, utf8 } from '@chain/crypto';
import { Engine, seedOfPrivValidatorKey, validatorAddress, validatorSetHash } from '../src/index.js';
import type { EmbeddedApp, Validator } from '../src/index.js';
import { consensusParamsHash } from '../src/hashing.js';
import { TestNode, VALIDATOR_KEY, hex } from './helpers.js';
import { fromBase64 } from '@chain/crypto';

/** Returns queued validator updates at chosen heights and records what each block's context carried. */
function valsetModule(updates: Map<number, ValidatorUpdate[]>) {
  const seen = new Map<number, { lastCommit: CommitInfo; hash: string; proposer: string; nextValidatorsHash: string }>();
  const module: AppModule = {
    name: 'valset',
    consensusVersion: 1,
    returnsValidatorUpdates: true,
    beginBlock(ctx: Context) {
      seen.set(ctx.block.height, {
        lastCommit: ctx.comet.lastCommit, hash: hex(ctx.block.hash ?? new Uint8Array()), proposer: hex(ctx.comet.proposerAddress),
        nextValidatorsHash: hex(ctx.comet.nextValidatorsHash),
      });
    },
    endBlock(ctx: Context) {
      return updates.get(ctx.block.height) ?? [];
    },
  };
  return { module, seen };
}

const OWN_PUB = fromBase64(VALIDATOR_KEY.pub_key.value);
const OTHER_PUB = ed25519PublicKey(sha256(utf8('another validator')));
const own = (power: number): Validator => ({ address: validatorAddress(OWN_PUB), pubKey: OWN_PUB, votingPower: power, proposerPriority: 0 });
const other = (power: number): Validator => ({ address: validatorAddress(OTHER_PUB), pubKey: OTHER_PUB, votingPower: power, proposerPriority: 0 });

describe('Engine: validator updates (H+2) and the decided last commit', () => {
  let node: TestNode;
  let seen: ReturnType<typeof valsetModule>['seen'];

  before(async () => {
    const updates = new Map<number, ValidatorUpdate[]>([
      // at height 3: the local validator goes from 10 to 20, another one joins with 5
      [3, [{ pubKey: { type: 'ed25519', key: OWN_PUB }, power: 20n }, { pubKey: { type: 'ed25519', key: OTHER_PUB }, power: 5n }]],
      // at height 6: the other one leaves
      [6, [{ pubKey: { type: 'ed25519', key: OTHER_PUB }, power: 0n }]],
    ]);
    const m = valsetModule(updates);
    seen = m.seen;
    node = await TestNode.create({ modules: [m.module] });
    await node.engine.start();
    await node.waitForHeight(9);
    await node.engine.stop();
  });

  after(async () => {
    await node.close();
  });

  it('hashes the set of each height into its header: updates at 3 show in next_validators_hash of 4 and take effect at 5', async () => {
    const before = validatorSetHash([own(10)]);
    const both = validatorSetHash([own(20), other(5)]);
    const after = validatorSetHash([own(20)]);
    const expected: [number, Uint8Array, Uint8Array][] = [
      [1, before, before], [2, before, before], [3, before, before], [4, before, both],
      [5, both, both], [6, both, both], [7, both, after], [8, after, after], [9, after, after],
    ];
    for (const [h, vals, next] of expected) {
      const b = (await node.engine.blocks.block(h))!;
      expect(hex(b.block.header.validatorsHash), `validators_hash of ${h}`).to.equal(hex(vals));
      expect(hex(b.block.header.nextValidatorsHash), `next_validators_hash of ${h}`).to.equal(hex(next));
      expect(seen.get(h)!.nextValidatorsHash, `FinalizeBlock next_validators_hash of ${h}`).to.equal(hex(next));
    }
    expect((await node.engine.validatorsAt(4))!.map((v) => v.votingPower)).to.deep.equal([10]);
    expect((await node.engine.validatorsAt(5))!.map((v) => v.votingPower)).to.deep.equal([20, 5]);
    expect((await node.engine.validatorsAt(9))!.map((v) => v.votingPower)).to.deep.equal([20]);
    const results = (await node.engine.blocks.results(3))!;
    expect(results.validatorUpdates.map((u) => u.power)).to.deep.equal([20, 5]);
  });

  it('signs commits over the real set: the local validator commits, the others are absent', async () => {
    const c4 = (await node.engine.blocks.seenCommit(4))!;
    expect(c4.signatures.map((s) => s.blockIdFlag)).to.deep.equal([2]);
    const c5 = (await node.engine.blocks.seenCommit(5))!;
    expect(c5.signatures.map((s) => s.blockIdFlag)).to.deep.equal([2, 1]);
    expect(hex(c5.signatures[0]!.validatorAddress)).to.equal(hex(own(20).address));
    expect(c5.signatures[1]!.validatorAddress.length).to.equal(0);
    const c8 = (await node.engine.blocks.seenCommit(8))!;
    expect(c8.signatures.map((s) => s.blockIdFlag)).to.deep.equal([2]);
  });

  it('hands FinalizeBlock the decided last commit of the previous height, the header hash and the proposer', async () => {
    expect(seen.get(1)!.lastCommit).to.deep.equal({ round: 0, votes: [] });
    const votes = (h: number) => seen.get(h)!.lastCommit.votes.map((v) => [hex(v.validator.address), v.validator.power, v.blockIdFlag]);
    expect(votes(5)).to.deep.equal([[hex(own(10).address), 10n, 2]]);
    // block 6 carries the commit of block 5, made by the set of 5: own (20) signed, the other (5) absent
    expect(votes(6)).to.deep.equal([[hex(own(20).address), 20n, 2], [hex(other(5).address), 5n, 1]]);
    expect(votes(9)).to.deep.equal([[hex(own(20).address), 20n, 2]]);
    for (let h = 1; h <= 9; h++) {
      const b = (await node.engine.blocks.block(h))!;
      expect(seen.get(h)!.hash, `hash of ${h}`).to.equal(hex(b.blockId.hash));
      expect(seen.get(h)!.proposer).to.equal(hex(own(10).address));
    }
  });

  it('keeps the sets across a restart', async () => {
    node = await node.restart();
    await node.engine.start();
    const h = node.engine.latestHeight;
    expect(node.engine.validators.map((v) => v.votingPower)).to.deep.equal([20]);
    await node.waitForHeight(h + 2);
    await node.engine.stop();
    const b = (await node.engine.blocks.block(h + 1))!;
    expect(hex(b.block.header.validatorsHash)).to.equal(hex(validatorSetHash([own(20)])));
    const c = (await node.engine.blocks.seenCommit(h + 1))!;
    expect(c.signatures.length).to.equal(1);
    expect(node.errors).to.deep.equal([]);
  });
});

describe('Engine: consensus param updates', () => {
  it('applies FinalizeBlock consensus_param_updates of H from H+1 on, and keeps them across a restart', async () => {
    const node = await TestNode.create();
    const changed = { ...node.engine.params, block: { maxBytes: 1_000_000, maxGas: 50_000_000 } };
    // an app answering consensus param updates at height 3 (no module does yet: the params module will)
    const app = node.app;
    const wrapped: EmbeddedApp = {
      info: (r) => app.info(r), initChain: (r) => app.initChain(r), checkTx: (r) => app.checkTx(r), query: (r) => app.query(r),
      prepareProposal: (r) => app.prepareProposal(r), processProposal: (r) => app.processProposal(r), commit: () => app.commit(),
      addCommitListener: (l) => app.addCommitListener(l),
      finalizeBlock: async (r) => {
        const res = await app.finalizeBlock(r);
        return r.height === 3 ? { ...res, consensusParamUpdates: changed } : res;
      },
    };
    const engineOf = (a: EmbeddedApp) => new Engine({
      app: a, store: node.store, bus: node.bus, indexer: node.engine.indexer, genesis: node.genesis,
      validatorKey: seedOfPrivValidatorKey(VALIDATOR_KEY), timeoutCommitMs: 20,
    });
    const first = engineOf(wrapped);
    try {
      await first.start();
      while (first.latestHeight < 5) await new Promise((r) => setTimeout(r, 5));
      await first.stop();
      const hashOf = async (h: number) => hex((await first.blocks.block(h))!.block.header.consensusHash);
      const before = hex(consensusParamsHash(node.engine.params));
      const after = hex(consensusParamsHash(changed));
      expect(before).to.not.equal(after);
      expect([await hashOf(3), await hashOf(4), await hashOf(5)]).to.deep.equal([before, after, after]);
      const second = engineOf(app);
      await second.start();
      expect(second.params.block).to.deep.equal(changed.block);
      const h = second.latestHeight;
      while (second.latestHeight < h + 1) await new Promise((r) => setTimeout(r, 5));
      await second.stop();
      expect(hex((await second.blocks.block(h + 1))!.block.header.consensusHash)).to.equal(after);
    } finally {
      await node.close();
    }
  });
});
