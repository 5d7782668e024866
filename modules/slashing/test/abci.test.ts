/**
 * BeginBlock through the chain: votes fed as the FinalizeBlock request's decided last commit (the
 * TestChain's `lastCommit` block option). Port of x/slashing/abci_test.go TestBeginBlocker (v0.45) on
 * default params (window 100, min signed 0.5), with the heights shifted to the test chain's blocks.
 */
import { expect } from 'chai';
import { BlockIdFlags } from '@chain/app';
import { BONDED, UNBONDING, attrsOfAll, genesis, openChain, paramsJson, signingInfoJson, vote } from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

describe('slashing BeginBlock (abci_test.go TestBeginBlocker)', () => {
  let s: TestSetup;
  let val: FakeValidator;
  const power = 100n;
  beforeEach(async () => {
    s = await openChain();
    val = s.staking.addValidator(0, power);
    // bonded at genesis: signing info start height 0 (what AfterValidatorBonded writes at InitChain)
    await s.chain.init(genesis(s, power * 10n ** 6n, { params: paramsJson(), signing_infos: [signingInfoJson(val.consAddress)], missed_blocks: [] }));
  });
  afterEach(async () => {
    await s.chain.close();
  });

  const info = () => s.keeper.getValidatorSigningInfo(s.chain.ctx(), val.consAddr)!;
  const block = (signed: boolean) => s.chain.block([], { lastCommit: { round: 0, votes: [vote(val, power, signed)] } });

  it('signed votes advance the index; 51 misses after the window jail and slash the validator', async () => {
    // mark the validator as having signed
    await block(true);
    expect(info()).to.deep.include({ start_height: 0n, index_offset: 1n, missed_blocks_counter: 0n, jailed_until: { seconds: 0n, nanos: 0 } });
    // 100 more signed blocks (heights 3..102)
    for (let i = 0; i < 100; i++) await block(true);
    expect(info()).to.deep.include({ index_offset: 101n, missed_blocks_counter: 0n });
    // 50 missed blocks: at the threshold, not over it
    for (let i = 0; i < 50; i++) {
      const res = await block(false);
      expect(attrsOfAll(res.events, 'liveness')).to.deep.equal([
        { address: val.consAddress, missed_blocks: String(i + 1), height: String(s.chain.app.lastHeight) },
      ]);
      expect(attrsOfAll(res.events, 'slash')).to.deep.equal([]);
    }
    expect(info().missed_blocks_counter).to.equal(50n);
    expect(s.staking.validator(val).jailed).to.equal(false);
    // the 51st: slashed and jailed
    const res = await block(false);
    const height = s.chain.app.lastHeight;
    expect(height).to.equal(153);
    expect(attrsOfAll(res.events, 'slash')).to.deep.equal([
      { address: val.consAddress, power: '100', reason: 'missing_signature', jailed: val.consAddress },
    ]);
    expect(s.staking.slashes.map((x) => [x.infractionHeight, x.power, x.fraction.toString()])).to.deep.equal([[151n, 100n, '0.010000000000000000']]);
    // jailed until the block time + 600s; counter, index and bit array reset
    const blockSeconds = BigInt(Math.floor(new Date('2024-01-01T00:00:00Z').getTime() / 1000) + height);
    expect(info()).to.deep.include({ missed_blocks_counter: 0n, index_offset: 0n, jailed_until: { seconds: blockSeconds + 600n, nanos: 0 } });
    expect(s.keeper.getValidatorMissedBlocks(s.chain.ctx(), val.consAddr)).to.deep.equal([]);
    s.staking.endBlock(s.chain.ctx());
    expect(s.staking.validator(val).status).to.equal(UNBONDING);
    expect(s.staking.validator(val).tokens).to.equal('99000000');
  });

  it('a nil vote counts as signed (Tendermint SignedLastBlock = not absent)', async () => {
    await s.chain.block([], { lastCommit: { round: 0, votes: [{ validator: { address: val.consAddr, power }, blockIdFlag: BlockIdFlags.Nil }] } });
    expect(info()).to.deep.include({ index_offset: 1n, missed_blocks_counter: 0n });
    await block(false);
    expect(info()).to.deep.include({ index_offset: 2n, missed_blocks_counter: 1n });
    expect(s.keeper.getValidatorMissedBlocks(s.chain.ctx(), val.consAddr)).to.deep.equal([{ index: 1n, missed: true }]);
    // a signed vote over a missed index clears it (and keeps the entry, false)
    for (let i = 0; i < 99; i++) await block(true);
    expect(info()).to.deep.include({ index_offset: 101n, missed_blocks_counter: 1n });
    await block(true);
    expect(info()).to.deep.include({ index_offset: 102n, missed_blocks_counter: 0n });
    expect(s.keeper.getValidatorMissedBlocks(s.chain.ctx(), val.consAddr)).to.deep.equal([{ index: 1n, missed: false }]);
    expect(s.staking.validator(val).status).to.equal(BONDED);
  });

  it('a vote of an unknown validator fails the block (the SDK panics)', async () => {
    let err: unknown;
    try {
      await s.chain.block([], { lastCommit: { round: 0, votes: [{ validator: { address: new Uint8Array(20).fill(7), power: 1n }, blockIdFlag: BlockIdFlags.Commit }] } });
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/Validator consensus-address chainvalcons1\w+ not found/);
  });
});
