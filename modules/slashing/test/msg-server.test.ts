/**
 * Msg/Unjail through the chain (x/slashing/keeper/unjail.go v0.45 checks in order; handler_test.go
 * TestCannotUnjailUnlessJailed, TestCannotUnjailUnlessMeetMinSelfDelegation, TestJailedValidatorDelegations).
 */
import { expect } from 'chai';
import { attrsOfAll, genesis, msgUnjail, openChain, paramsJson, signedTx, signingInfoJson } from './helpers.js';
import type { FakeValidator, TestSetup } from './helpers.js';

describe('slashing: Msg/Unjail', () => {
  let s: TestSetup;
  let val: FakeValidator;
  async function setup(o: Parameters<TestSetup['staking']['addValidator']>[2] = {}, info: Record<string, unknown> = {}): Promise<void> {
    s = await openChain();
    val = s.staking.addValidator(0, 100n, o);
    const si = signingInfoJson(val.consAddress) as { validator_signing_info: Record<string, unknown> };
    Object.assign(si.validator_signing_info, info);
    await s.chain.init(genesis(s, 100n * 10n ** 6n, { params: paramsJson(), signing_infos: [si], missed_blocks: [] }));
  }
  afterEach(async () => {
    await s.chain.close();
  });
  const unjail = (addr: string) => s.chain.deliver(signedTx(s.registry, [msgUnjail(s.registry, addr)]));

  it('a jailed validator past its jail time is unjailed; message{module=slashing, sender=<valoper>}', async () => {
    await setup();
    s.staking.validator(val).jailed = true;
    const res = await unjail(val.operator);
    expect(res.code, res.log).to.equal(0);
    expect(s.staking.validator(val).jailed).to.equal(false);
    expect(attrsOfAll(res.events, 'message')).to.deep.equal([{ action: '/chain.slashing.v1beta1.MsgUnjail', sender: val.operator, module: 'slashing' }]);
  });

  it('empty address: slashing 3; not a valoper: slashing 3', async () => {
    await setup();
    const empty = await unjail('');
    expect([empty.codespace, empty.code]).to.deep.equal(['slashing', 3]);
    const bad = await unjail(val.consAddress);
    expect([bad.codespace, bad.code]).to.deep.equal(['slashing', 3]);
    expect(bad.log).to.contain('invalid Bech32 prefix; expected chainvaloper, got chainvalcons');
  });

  it('unknown validator: slashing 2', async () => {
    await setup();
    s.staking.validators.clear();
    const res = await unjail(val.operator);
    expect([res.codespace, res.code, res.log]).to.deep.equal(['slashing', 2, 'failed to execute message; message index: 0: address is not associated with any known validator']);
  });

  it('no self-delegation: slashing 6', async () => {
    await setup({ selfShares: null });
    s.staking.validator(val).jailed = true;
    const res = await unjail(val.operator);
    expect([res.codespace, res.code, res.log]).to.deep.equal(['slashing', 6, 'failed to execute message; message index: 0: validator has no self-delegation; cannot be unjailed']);
  });

  it('TestCannotUnjailUnlessMeetMinSelfDelegation: slashing 7 "<tokens> less than <min>"', async () => {
    await setup({ minSelfDelegation: 100n * 10n ** 6n, selfShares: 100n * 10n ** 6n - 1n });
    s.staking.validator(val).jailed = true;
    const res = await unjail(val.operator);
    expect([res.codespace, res.code]).to.deep.equal(['slashing', 7]);
    expect(res.log).to.equal("failed to execute message; message index: 0: 99999999 less than 100000000: validator's self delegation less than minimum; cannot be unjailed");
  });

  it('TestCannotUnjailUnlessJailed: slashing 5', async () => {
    await setup();
    const res = await unjail(val.operator);
    expect([res.codespace, res.code, res.log]).to.deep.equal(['slashing', 5, 'failed to execute message; message index: 0: validator not jailed; cannot be unjailed']);
  });

  it('tombstoned: slashing 4, whatever the jail time', async () => {
    await setup({}, { tombstoned: true });
    s.staking.validator(val).jailed = true;
    const res = await unjail(val.operator);
    expect([res.codespace, res.code, res.log]).to.deep.equal(['slashing', 4, 'failed to execute message; message index: 0: validator still jailed; cannot be unjailed']);
    expect(s.staking.validator(val).jailed).to.equal(true);
  });

  it('before jailed_until: slashing 4; at jailed_until: unjailed', async () => {
    // block times are genesis + height seconds; jailed until genesis + 5s
    await setup({}, { jailed_until: '2024-01-01T00:00:05Z' });
    s.staking.validator(val).jailed = true;
    const early = await unjail(val.operator); // height 2
    expect([early.codespace, early.code]).to.deep.equal(['slashing', 4]);
    await s.chain.block([]);
    await s.chain.block([]);
    const ok = await unjail(val.operator); // height 5: block time == jailed_until, not before it
    expect(ok.code, ok.log).to.equal(0);
    expect(s.staking.validator(val).jailed).to.equal(false);
  });

  it('without signing info the jail time is not checked', async () => {
    s = await openChain();
    val = s.staking.addValidator(0, 100n);
    await s.chain.init(genesis(s, 100n * 10n ** 6n, { params: paramsJson(), signing_infos: [], missed_blocks: [] }));
    s.staking.validator(val).jailed = true;
    const res = await unjail(val.operator);
    expect(res.code, res.log).to.equal(0);
  });
});
