/**
 * Ports of x/evidence/keeper/infraction_test.go (SDK v0.45): TestHandleDoubleSign and
 * TestHandleDoubleSign_TooOld, calling `handleEquivocationEvidence` on a block context over a branch of the
 * chain's state, with the real slashing keeper and a staking fake (power reduction 10^6 as the SDK tests).
 */
import { expect } from 'chai';
import { EventManager } from '@chain/app';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { createSlashingMsgServer } from '@chain/slashing';
import { DEFAULT_EVIDENCE_AGE_PARAMS, equivocationHash } from '../src/index.js';
import type { Equivocation } from '../src/index.js';
import { attrsOfAll, blockCtx, genesis, openChain } from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

describe('evidence keeper: HandleEquivocationEvidence (infraction_test.go)', () => {
  let s: TestSetup;
  let st: CacheKVStore;
  let val: FakeValidator;
  const power = 100n;
  const amt = power * 10n ** 6n;
  beforeEach(async () => {
    s = await openChain();
    val = s.staking.addValidator(0, power);
    await s.chain.init(genesis(s, amt, [val]));
    st = branch(s.chain.store.state);
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const at = (h: number | bigint, time: Date, events?: EventManager) => blockCtx(st, Number(h), time, events);

  it('TestHandleDoubleSign: slashed 5%, jailed, tombstoned forever, stored; duplicate evidence ignored', async () => {
    const now = new Date('2024-01-01T00:00:00Z');
    // handle a signature to set signing info
    s.slashing.handleValidatorSignature(at(1, now), val.consAddr, amt, true);
    const oldTokens = BigInt(s.staking.validator(val).tokens);
    // double sign less than max age
    const evidence: Equivocation = { height: 0n, time: { seconds: 0n, nanos: 0 }, power, consensus_address: val.consAddress };
    const events = new EventManager();
    s.keeper.handleEquivocationEvidence(at(1, now, events), evidence);
    // jailed and tombstoned, jailed until 9999-12-31T23:59:59Z
    expect(s.staking.validator(val).jailed).to.equal(true);
    expect(s.slashing.isTombstoned(at(1, now), val.consAddr)).to.equal(true);
    expect(s.slashing.getValidatorSigningInfo(at(1, now), val.consAddr)!.jailed_until).to.deep.equal({ seconds: 253402300799n, nanos: 0 });
    // tokens decreased by 5% of power × 10^6; slashed at the distribution height infraction − 1
    const newTokens = BigInt(s.staking.validator(val).tokens);
    expect(newTokens).to.equal(oldTokens - 5_000_000n);
    expect(s.staking.slashes.map((x) => [x.infractionHeight, x.power, x.fraction.toString()])).to.deep.equal([[-1n, 100n, '0.050000000000000000']]);
    expect(attrsOfAll(events.events, 'slash')).to.deep.equal([
      { address: val.consAddress, power: '100', reason: 'double_sign' },
      { jailed: val.consAddress },
    ]);
    // submit duplicate evidence: tokens unchanged
    s.keeper.handleEquivocationEvidence(at(1, now), evidence);
    expect(BigInt(s.staking.validator(val).tokens)).to.equal(newTokens);
    expect(s.staking.slashes).to.have.length(1);
    // past the unbonding period (21 days): still cannot unjail (tombstoned)
    const later = new Date(1000 + 21 * 24 * 3600 * 1000);
    expect(() => createSlashingMsgServer(s.slashing).Unjail(at(2, later), { validator_addr: val.operator })).to.throw('validator still jailed; cannot be unjailed');
    // the evidence is stored under its hash
    expect(s.keeper.getAllEvidence(at(2, later))).to.have.length(1);
    expect(s.keeper.getEvidence(at(2, later), equivocationHash(s.registry, evidence))).to.deep.equal(evidence);
  });

  it('an already jailed validator is not jailed again (no slash{jailed} event) but is slashed and tombstoned', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    s.staking.validator(val).jailed = true;
    const events = new EventManager();
    s.keeper.handleEquivocationEvidence(at(5, now, events), { height: 4n, time: { seconds: 1704067190n, nanos: 0 }, power, consensus_address: val.consAddress });
    expect(attrsOfAll(events.events, 'slash')).to.deep.equal([{ address: val.consAddress, power: '100', reason: 'double_sign' }]);
    expect(s.staking.slashes[0]!.infractionHeight).to.equal(3n);
    expect(s.slashing.isTombstoned(at(5, now), val.consAddr)).to.equal(true);
  });

  it('TestHandleDoubleSign_TooOld: older than both max age limits → ignored', () => {
    const t0 = new Date('2024-01-01T00:00:00Z');
    const evidence: Equivocation = { height: 0n, time: { seconds: BigInt(t0.getTime() / 1000), nanos: 0 }, power, consensus_address: val.consAddress };
    const { maxAgeDuration, maxAgeNumBlocks } = DEFAULT_EVIDENCE_AGE_PARAMS;
    // block time + max age + 1ms (the context's time has millisecond precision), height 1 + max blocks + 1
    const late = new Date(t0.getTime() + Number(maxAgeDuration / 1_000_000n) + 1);
    s.keeper.handleEquivocationEvidence(at(1n + maxAgeNumBlocks + 1n, late), evidence);
    expect(s.staking.validator(val).jailed).to.equal(false);
    expect(s.slashing.isTombstoned(at(1, late), val.consAddr)).to.equal(false);
    expect(s.keeper.getAllEvidence(at(1, late))).to.deep.equal([]);
  });

  it('old by one limit only: still handled (both must be exceeded)', () => {
    const t0 = new Date('2024-01-01T00:00:00Z');
    const evidence: Equivocation = { height: 1n, time: { seconds: BigInt(t0.getTime() / 1000), nanos: 0 }, power, consensus_address: val.consAddress };
    const late = new Date(t0.getTime() + Number(DEFAULT_EVIDENCE_AGE_PARAMS.maxAgeDuration / 1_000_000n) + 1);
    s.keeper.handleEquivocationEvidence(at(10, late), evidence); // too old in time, not in blocks
    expect(s.slashing.isTombstoned(at(10, late), val.consAddr)).to.equal(true);
  });

  it('unknown consensus key, unbonded validator: ignored; missing signing info: throws (the SDK panics)', async () => {
    const now = new Date('2024-01-01T00:00:00Z');
    const unknown = s.staking.addValidator(9, 10n); // created after genesis: no pubkey relation
    s.keeper.handleEquivocationEvidence(at(2, now), { height: 1n, time: { seconds: 1n, nanos: 0 }, power: 10n, consensus_address: unknown.consAddress });
    expect(s.staking.slashes).to.deep.equal([]);
    s.staking.validator(val).status = 1; // Unbonded
    s.keeper.handleEquivocationEvidence(at(2, now), { height: 1n, time: { seconds: 1n, nanos: 0 }, power, consensus_address: val.consAddress });
    expect(s.staking.slashes).to.deep.equal([]);
    s.staking.validator(val).status = 3;
    s.slashing.addValidatorPubkey(at(2, now), s.staking.validator(unknown));
    expect(() => s.keeper.handleEquivocationEvidence(at(2, now), { height: 1n, time: { seconds: 1n, nanos: 0 }, power: 10n, consensus_address: unknown.consAddress }))
      .to.throw(`expected signing info for validator ${unknown.consAddress} but not found`);
  });

  it('the age limits come from the keeper option (a function of the context)', async () => {
    await s.chain.close();
    s = await openChain({ maxAgeNumBlocks: 2n, maxAgeDuration: 1_000_000_000n });
    val = s.staking.addValidator(0, power);
    await s.chain.init(genesis(s, amt, [val]));
    st = branch(s.chain.store.state);
    const t0 = new Date('2024-01-01T00:00:00Z');
    const ev: Equivocation = { height: 1n, time: { seconds: BigInt(t0.getTime() / 1000), nanos: 0 }, power, consensus_address: val.consAddress };
    s.keeper.handleEquivocationEvidence(at(4, new Date(t0.getTime() + 1001)), ev); // 3 blocks and 1.001s: too old
    expect(s.slashing.isTombstoned(at(4, t0), val.consAddr)).to.equal(false);
    s.keeper.handleEquivocationEvidence(at(3, new Date(t0.getTime() + 1001)), ev); // 2 blocks: not too old
    expect(s.slashing.isTombstoned(at(4, t0), val.consAddr)).to.equal(true);
  });
});
