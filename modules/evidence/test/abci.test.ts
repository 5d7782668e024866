/** BeginBlock through the chain: misbehaviour fed as the FinalizeBlock request's (the TestChain's `misbehavior` option). */
import { expect } from 'chai';
import { equivocationHash } from '../src/index.js';
import { attrsOfAll, duplicateVote, genesis, openChain } from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

describe('evidence BeginBlock (abci.go)', () => {
  let s: TestSetup;
  let val: FakeValidator;
  let other: FakeValidator;
  beforeEach(async () => {
    s = await openChain();
    val = s.staking.addValidator(0, 100n);
    other = s.staking.addValidator(1, 50n);
    await s.chain.init(genesis(s, 150n * 10n ** 6n, [val, other]));
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('a duplicate vote slashes, jails and tombstones the validator; the Equivocation is stored', async () => {
    const t = new Date('2024-01-01T00:00:01.5Z');
    const res = await s.chain.block([], { misbehavior: [duplicateVote(val, 100n, 1, t)] });
    expect(attrsOfAll(res.events, 'slash')).to.deep.equal([
      { address: val.consAddress, power: '100', reason: 'double_sign' },
      { jailed: val.consAddress },
    ]);
    expect(s.staking.validator(val).jailed).to.equal(true);
    expect(s.staking.validator(val).tokens).to.equal('95000000');
    expect(s.slashing.isTombstoned(s.chain.ctx(), val.consAddr)).to.equal(true);
    expect(s.staking.slashes[0]!.infractionHeight).to.equal(0n);
    const stored = { height: 1n, time: { seconds: 1704067201n, nanos: 500_000_000 }, power: 100n, consensus_address: val.consAddress };
    expect(s.keeper.getEvidence(s.chain.ctx(), equivocationHash(s.registry, stored))).to.deep.equal(stored);
    expect(s.staking.validator(other).jailed).to.equal(false);
  });

  it('a light client attack is handled the same (v0.45); the power is the one CometBFT reports', async () => {
    await s.chain.block([], { misbehavior: [duplicateVote(other, 40n, 1, new Date('2024-01-01T00:00:01Z'), 2)] });
    expect(s.staking.slashes.map((x) => x.power)).to.deep.equal([40n]);
    expect(s.staking.validator(other).tokens).to.equal(String(50_000_000n - 2_000_000n));
    expect(s.slashing.isTombstoned(s.chain.ctx(), other.consAddr)).to.equal(true);
  });

  it('two misbehaviours of one validator in a block: slashed once', async () => {
    const t = new Date('2024-01-01T00:00:01Z');
    await s.chain.block([], { misbehavior: [duplicateVote(val, 100n, 1, t), duplicateVote(val, 100n, 1, new Date(t.getTime() + 1000))] });
    expect(s.staking.slashes).to.have.length(1);
    expect(s.keeper.getAllEvidence(s.chain.ctx())).to.have.length(1);
  });
});
