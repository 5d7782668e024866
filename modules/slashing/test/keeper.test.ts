/**
 * Ports of x/slashing v0.45 keeper tests (x/slashing/keeper/keeper_test.go and handler_test.go's
 * TestHandleAbsentValidator), calling `handleValidatorSignature` at the SDK tests' exact heights on a block
 * context over a branch of the chain's state (the SDK tests call HandleValidatorSignature directly too).
 * `FakeStaking.endBlock` stands for `staking.EndBlocker`. Amounts use the SDK's power reduction 10^6.
 */
import { expect } from 'chai';
import { EventManager } from '@chain/app';
import type { CacheKVStore } from '@chain/store';
import { Dec } from '@chain/math';
import { SlashingErrors, createSlashingMsgServer } from '../src/index.js';
import type { SlashingKeeper } from '../src/index.js';
import {
  BONDED, BOND_DENOM, TEST_PARAMS_JSON, UNBONDING, attrsOfAll, blockCtx, branchOf, genesis, openChain, paramsJson, signingInfoJson,
} from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

const EPOCH = { seconds: 0n, nanos: 0 };
const T0 = new Date(0);

describe('slashing keeper: liveness (SDK v0.45 keeper tests)', () => {
  let s: TestSetup;
  let k: SlashingKeeper;
  let st: CacheKVStore;
  let val: FakeValidator;
  const power = 100n;
  const amt = 100n * 10n ** 6n;

  /** a chain whose genesis has the validator, its signing info at start height 0, and `params` */
  async function setup(params: Record<string, string>, withInfo = true): Promise<void> {
    s = await openChain();
    k = s.keeper;
    val = s.staking.addValidator(0, power);
    await s.chain.init(genesis(s, amt, { params, signing_infos: withInfo ? [signingInfoJson(val.consAddress)] : [], missed_blocks: [] }));
    st = branchOf(s);
  }
  afterEach(async () => {
    await s.chain.close();
  });

  const at = (height: bigint | number, time = T0, events?: EventManager) => blockCtx(st, Number(height), time, events);
  const bondedPool = () => s.bk.getBalance(at(0), s.bondedPool, BOND_DENOM);
  const info = (h = 0) => k.getValidatorSigningInfo(at(h), val.consAddr)!;

  it('TestHandleAbsentValidator: uptime, downtime, jail, unjail, start height kept, jailed again', async () => {
    await setup(TEST_PARAMS_JSON);
    const window = k.signedBlocksWindow(at(0));
    const minSigned = k.minSignedPerWindow(at(0));
    expect([window, minSigned]).to.deep.equal([1000n, 500n]);
    const msgs = createSlashingMsgServer(k);

    // will exist since the validator has been bonded
    expect(info()).to.deep.include({ start_height: 0n, index_offset: 0n, missed_blocks_counter: 0n, jailed_until: EPOCH });
    let height = 0n;
    // 1000 first blocks OK
    for (; height < window; height++) k.handleValidatorSignature(at(height), val.consAddr, power, true);
    expect(info()).to.deep.include({ start_height: 0n, missed_blocks_counter: 0n });
    // 500 blocks missed
    for (; height < window + (window - minSigned); height++) k.handleValidatorSignature(at(height), val.consAddr, power, false);
    expect(info()).to.deep.include({ start_height: 0n, missed_blocks_counter: window - minSigned });
    // validator should be bonded still
    expect(s.staking.validator(val).status).to.equal(BONDED);
    expect(bondedPool()).to.equal(amt);

    // 501st block missed
    const events = new EventManager();
    k.handleValidatorSignature(at(height, T0, events), val.consAddr, power, false);
    // counter now reset to zero
    expect(info()).to.deep.include({ start_height: 0n, missed_blocks_counter: 0n, index_offset: 0n });
    expect(info().jailed_until).to.deep.equal({ seconds: 3600n, nanos: 0 });
    expect(attrsOfAll(events.events, 'slash')).to.deep.equal([
      { address: val.consAddress, power: '100', reason: 'missing_signature', jailed: val.consAddress },
    ]);
    expect(attrsOfAll(events.events, 'liveness')).to.deep.equal([{ address: val.consAddress, missed_blocks: '501', height: '1500' }]);
    expect(s.staking.slashes).to.have.length(1);
    expect(s.staking.slashes[0]!.infractionHeight).to.equal(1498n); // height - ValidatorUpdateDelay - 1
    expect(s.staking.slashes[0]!.fraction.toString()).to.equal('0.010000000000000000');
    s.staking.endBlock(at(height));
    // validator should have been jailed
    expect(s.staking.validator(val).status).to.equal(UNBONDING);
    const slashAmt = Dec.fromInt(amt).mul(k.slashFractionDowntime(at(0))).roundInt();
    expect(slashAmt).to.equal(1_000_000n);
    expect(BigInt(s.staking.validator(val).tokens)).to.equal(amt - slashAmt);

    // 502nd block *also* missed (the LastCommit would have still included the just-unbonded validator)
    height++;
    k.handleValidatorSignature(at(height), val.consAddr, power, false);
    expect(info()).to.deep.include({ start_height: 0n, missed_blocks_counter: 1n });
    s.staking.endBlock(at(height));
    // not slashed any more, since it was already jailed
    expect(BigInt(s.staking.validator(val).tokens)).to.equal(amt - slashAmt);
    expect(s.staking.slashes).to.have.length(1);

    // unrevocation should fail prior to jail expiration
    expect(() => msgs.Unjail(at(height), { validator_addr: val.operator })).to.throw().that.satisfies((e: unknown) => SlashingErrors.ValidatorJailed.is(e));
    // unrevocation should succeed after jail expiration
    await msgs.Unjail(at(height, new Date(1000 + 3600_000)), { validator_addr: val.operator });
    s.staking.endBlock(at(height));
    // validator should be rebonded now, slashed once
    expect(s.staking.validator(val).status).to.equal(BONDED);
    expect(bondedPool()).to.equal(amt - slashAmt);
    // start height not changed; missed 2 blocks more than the maximum: reset at 1 more, now 1
    expect(info()).to.deep.include({ start_height: 0n, missed_blocks_counter: 1n });

    // validator should not be immediately jailed again
    height++;
    k.handleValidatorSignature(at(height), val.consAddr, power, false);
    expect(s.staking.validator(val).status).to.equal(BONDED);

    // 500 signed blocks (the SDK's loop marks them missed, from the same height again)
    let nextHeight = height + minSigned + 1n;
    for (; height < nextHeight; height++) k.handleValidatorSignature(at(height), val.consAddr, power, false);
    s.staking.endBlock(at(height));

    // validator should be jailed again after 500 unsigned blocks
    nextHeight = height + minSigned + 1n;
    for (; height <= nextHeight; height++) k.handleValidatorSignature(at(height), val.consAddr, power, false);
    s.staking.endBlock(at(height));
    expect(s.staking.validator(val).status).to.equal(UNBONDING);
    expect(s.staking.slashes).to.have.length(2);
  });

  it('TestHandleNewValidator: start height of a validator bonded late, not jailed', async () => {
    await setup(paramsJson(), false);
    const window = k.signedBlocksWindow(at(0));
    // the validator is created and bonded at height window + 1 (staking's hooks)
    k.stakingHooks.afterValidatorCreated!(at(window + 1n), val.valAddr);
    k.stakingHooks.afterValidatorBonded!(at(window + 1n), val.consAddr, val.valAddr);
    // now a validator, for two blocks
    k.handleValidatorSignature(at(window + 1n), val.consAddr, 100n, true);
    k.handleValidatorSignature(at(window + 2n), val.consAddr, 100n, false);
    expect(info()).to.deep.equal({
      address: val.consAddress, start_height: window + 1n, index_offset: 2n, jailed_until: EPOCH, tombstoned: false, missed_blocks_counter: 1n,
    });
    // bonded still, not jailed or slashed
    expect(s.staking.validator(val).status).to.equal(BONDED);
    expect(s.staking.validator(val).jailed).to.equal(false);
    expect(bondedPool()).to.equal(amt);
  });

  it('TestHandleAlreadyJailed: a jailed validator down twice is slashed once', async () => {
    await setup(paramsJson());
    const window = k.signedBlocksWindow(at(0));
    const minSigned = k.minSignedPerWindow(at(0));
    let height = 0n;
    for (; height < window; height++) k.handleValidatorSignature(at(height), val.consAddr, power, true);
    // 51 blocks missed
    for (; height < window + (window - minSigned) + 1n; height++) k.handleValidatorSignature(at(height), val.consAddr, power, false);
    s.staking.endBlock(at(height));
    expect(s.staking.validator(val).status).to.equal(UNBONDING);
    const resultingTokens = amt - 1n * 10n ** 6n; // amt - TokensFromConsensusPower(1)
    expect(BigInt(s.staking.validator(val).tokens)).to.equal(resultingTokens);
    // another block missed
    k.handleValidatorSignature(at(height), val.consAddr, power, false);
    expect(BigInt(s.staking.validator(val).tokens)).to.equal(resultingTokens);
  });

  it('TestValidatorDippingInAndOut: missed blocks tracked across leaving and rejoining the set', async () => {
    await setup(TEST_PARAMS_JSON);
    const window = k.signedBlocksWindow(at(0));
    let height = 0n;
    // 100 first blocks OK
    for (; height < 100n; height++) k.handleValidatorSignature(at(height), val.consAddr, power, true);
    // kicked out of the validator set by a validator of power 101 (MaxValidators = 1)
    s.staking.validator(val).status = UNBONDING;
    // 600 more blocks happened; a delegation of power 50 brings it back in (AfterValidatorBonded: info kept)
    height = 700n;
    const v = s.staking.validator(val);
    v.tokens = (BigInt(v.tokens) + 50n * 10n ** 6n).toString();
    v.status = BONDED;
    k.stakingHooks.afterValidatorBonded!(at(height), val.consAddr, val.valAddr);
    expect(info().start_height).to.equal(0n);
    const newPower = 150n;
    // misses a block: not jailed yet
    k.handleValidatorSignature(at(height), val.consAddr, newPower, false);
    height++;
    expect(s.staking.validator(val).jailed).to.equal(false);
    // misses 500 more blocks, 501 total
    const latest = height;
    for (; height < latest + 500n; height++) k.handleValidatorSignature(at(height), val.consAddr, newPower, false);
    s.staking.endBlock(at(height));
    expect(s.staking.validator(val)).to.deep.include({ status: UNBONDING, jailed: true });
    // the signing information is reset and the array cleared
    expect(info()).to.deep.include({ missed_blocks_counter: 0n, index_offset: 0n });
    for (let offset = 0n; offset < window; offset++) expect(k.getValidatorMissedBlockBitArray(at(height), val.consAddr, offset)).to.equal(false);
    expect(k.getValidatorMissedBlocks(at(height), val.consAddr)).to.deep.equal([]);

    // some blocks pass; the validator rejoins and signs again
    height = 5000n;
    s.staking.unjail(at(height), val.consAddr);
    k.handleValidatorSignature(at(height), val.consAddr, newPower, true);
    height++;
    // not kicked: the counter and the array were reset at the jailing
    s.staking.endBlock(at(height));
    expect(s.staking.validator(val)).to.deep.include({ status: BONDED, jailed: false });
    // misses 501 blocks: jailed and kicked again
    const latest2 = height;
    for (; height < latest2 + 501n; height++) k.handleValidatorSignature(at(height), val.consAddr, newPower, false);
    s.staking.endBlock(at(height));
    expect(s.staking.validator(val)).to.deep.include({ status: UNBONDING, jailed: true });
  });

  it('a vote of a consensus address without pubkey relation or signing info throws (the SDK panics)', async () => {
    await setup(paramsJson(), false);
    expect(() => k.handleValidatorSignature(at(2), new Uint8Array(20).fill(9), 1n, true)).to.throw(/Validator consensus-address chainvalcons1.* not found/);
    expect(() => k.handleValidatorSignature(at(2), val.consAddr, 1n, true)).to.throw(`Expected signing info for validator ${val.consAddress} but not found`);
  });

  it('min signed per window is RoundInt64 of fraction × window (banker\'s rounding)', async () => {
    await setup(paramsJson());
    k.setParams(at(0), { ...k.getParamsProto(at(0)), signed_blocks_window: 5n, min_signed_per_window: Dec.withPrec(5, 1).atomics() });
    expect(k.minSignedPerWindow(at(0))).to.equal(2n); // 2.5 → 2
    k.setParams(at(0), { ...k.getParamsProto(at(0)), signed_blocks_window: 7n });
    expect(k.minSignedPerWindow(at(0))).to.equal(4n); // 3.5 → 4
  });

  it('setParams: the subspace validators\' messages', async () => {
    await setup(paramsJson());
    const p = k.getParamsProto(at(0));
    expect(() => k.setParams(at(0), { ...p, signed_blocks_window: 0n })).to.throw('signed blocks window must be positive: 0');
    expect(() => k.setParams(at(0), { ...p, min_signed_per_window: Dec.fromInt(2).atomics() })).to.throw('min signed per window too large: 2.000000000000000000');
    expect(() => k.setParams(at(0), { ...p, downtime_jail_duration: { seconds: 0n, nanos: 0 } })).to.throw('downtime jail duration must be positive: 0s');
    expect(() => k.setParams(at(0), { ...p, slash_fraction_double_sign: Dec.fromInt(-1).atomics() })).to.throw('double sign slash fraction cannot be negative: -1.000000000000000000');
    expect(() => k.setParams(at(0), { ...p, slash_fraction_downtime: Dec.fromInt(2).atomics() })).to.throw('downtime slash fraction too large: 2.000000000000000000');
  });
});

describe('slashing keeper: hooks and the functions evidence uses', () => {
  let s: TestSetup;
  let st: CacheKVStore;
  let val: FakeValidator;
  beforeEach(async () => {
    s = await openChain();
    val = s.staking.addValidator(1, 10n);
    await s.chain.init(genesis(s, 10n * 10n ** 6n, { params: paramsJson(), signing_infos: [], missed_blocks: [] }));
    st = branchOf(s);
  });
  afterEach(async () => {
    await s.chain.close();
  });
  const at = (h: number, events?: EventManager) => blockCtx(st, h, T0, events);

  it('InitGenesis records the consensus key of every staking validator; AfterValidatorRemoved deletes it', () => {
    const k = s.keeper;
    const pk = k.getPubkey(at(2), val.consAddr)!;
    expect(pk.type_url).to.equal('/chain.crypto.ed25519.PubKey');
    expect(s.registry.unpackAny<{ key: Uint8Array }>(pk).message.key).to.deep.equal(val.consKey);
    k.stakingHooks.afterValidatorRemoved!(at(2), val.consAddr, val.valAddr);
    expect(k.getPubkey(at(2), val.consAddr)).to.equal(undefined);
    k.stakingHooks.afterValidatorCreated!(at(2), val.valAddr);
    expect(k.getPubkey(at(2), val.consAddr)).to.deep.equal(pk);
  });

  it('AfterValidatorBonded creates the signing info once (start height = the block)', () => {
    const k = s.keeper;
    k.stakingHooks.afterValidatorBonded!(at(7), val.consAddr, val.valAddr);
    expect(k.getValidatorSigningInfo(at(7), val.consAddr)).to.deep.equal({
      address: val.consAddress, start_height: 7n, index_offset: 0n, jailed_until: EPOCH, tombstoned: false, missed_blocks_counter: 0n,
    });
    k.stakingHooks.afterValidatorBonded!(at(9), val.consAddr, val.valAddr);
    expect(k.getValidatorSigningInfo(at(9), val.consAddr)!.start_height).to.equal(7n);
  });

  it('tombstone / isTombstoned / jailUntil / hasValidatorSigningInfo, with the SDK\'s panics', () => {
    const k = s.keeper;
    expect(k.hasValidatorSigningInfo(at(2), val.consAddr)).to.equal(false);
    expect(k.isTombstoned(at(2), val.consAddr)).to.equal(false);
    expect(() => k.tombstone(at(2), val.consAddr)).to.throw('cannot tombstone validator that does not have any signing information');
    expect(() => k.jailUntil(at(2), val.consAddr, EPOCH)).to.throw('cannot jail validator that does not have any signing information');
    k.stakingHooks.afterValidatorBonded!(at(2), val.consAddr, val.valAddr);
    k.jailUntil(at(2), val.consAddr, { seconds: 253402300799n, nanos: 0 });
    k.tombstone(at(2), val.consAddr);
    expect(k.isTombstoned(at(2), val.consAddr)).to.equal(true);
    expect(k.getValidatorSigningInfo(at(2), val.consAddr)!.jailed_until).to.deep.equal({ seconds: 253402300799n, nanos: 0 });
    expect(() => k.tombstone(at(2), val.consAddr)).to.throw('cannot tombstone validator that is already tombstoned');
  });

  it('slash and jail wrappers emit slash{address, power, reason=double_sign} and slash{jailed}', () => {
    const events = new EventManager();
    const fraction = s.keeper.slashFractionDoubleSign(at(2));
    expect(fraction.toString()).to.equal('0.050000000000000000');
    s.keeper.slash(at(2, events), val.consAddr, fraction, 10n, 1n);
    s.keeper.jail(at(2, events), val.consAddr);
    expect(attrsOfAll(events.events, 'slash')).to.deep.equal([
      { address: val.consAddress, power: '10', reason: 'double_sign' },
      { jailed: val.consAddress },
    ]);
    expect(s.staking.slashes[0]).to.deep.include({ infractionHeight: 1n, power: 10n });
    expect(s.staking.validator(val).jailed).to.equal(true);
    // 10 × 10^6 × 0.05 burnt from the bonded pool
    expect(s.staking.validator(val).tokens).to.equal('9500000');
    expect(s.bk.getBalance(at(2), s.bondedPool, BOND_DENOM)).to.equal(9_500_000n);
  });
});
