/**
 * Slashing of stake, jail and unjail (Cosmos SDK v0.45 x/staking/keeper/slash.go), porting the cases of
 * x/staking/keeper/slash_test.go with their numbers. The SDK's `bootstrapSlashTest`: three bonded
 * validators of power 10 (tokens = shares, no delegation records), the bonded pool holding their tokens,
 * the not-bonded pool funded with 100 × power 10; a context at height 0 and Go's zero time. Power
 * reduction here is 10^18 (the SDK test's 10^6: the numbers are per power unit).
 */
import { expect } from 'chai';
import { Dec } from '@chain/math';
import type { Context } from '@chain/app';
import {
  DENOM, E18, GENESIS_DATE, assertInvariants, codec, createValidatorMsg, dec, devKey, emptyGenesis, hookRecorder, msgTx, openChain,
  sharedModuleAddress, validatorJson, valoper, writable,
} from './helpers.js';
import type { TestSetup } from './helpers.js';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME } from '../src/index.js';

const GO_ZERO = new Date(-62135596800000);
const half = Dec.withPrec(5, 1);

describe('staking: slash (slash_test.go)', () => {
  let s: TestSetup;
  let calls: string[];
  afterEach(async () => {
    await s.chain.close();
  });

  /** bootstrapSlashTest: three bonded validators of power 10 */
  const bootstrap = async (): Promise<{ at: (h: number, t?: Date) => Context }> => {
    const rec = hookRecorder();
    calls = rec.calls;
    s = await openChain({ hooks: [rec.hooks] });
    const staking = {
      params: { unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 0, bond_denom: DENOM },
      last_total_power: '0', last_validator_powers: [],
      validators: [0, 1, 2].map((i) => validatorJson(i, { status: 'BOND_STATUS_BONDED', tokens: 10n * E18, shares: dec(10n * E18) })),
      delegations: [], unbonding_delegations: [], redelegations: [], exported: false,
    };
    const bank = {
      params: { send_enabled: [], default_send_enabled: true },
      balances: [{ address: codec.encode(sharedModuleAddress(BONDED_POOL_NAME)), coins: [{ denom: DENOM, amount: (30n * E18).toString() }] }],
      supply: [], denom_metadata: [], send_enabled: [],
    };
    await s.chain.init({ staking, bank });
    const w = writable(s, 0, GO_ZERO);
    s.bank.initBalance(w.ctx, sharedModuleAddress(NOT_BONDED_POOL_NAME), [{ denom: DENOM, amount: (1000n * E18).toString() }]);
    calls.length = 0;
    return { at: w.at };
  };
  const op = (i: number) => s.keeper.valCodec.decode(valoper(i));
  const consAddr = (ctx: Context, i: number) => s.keeper.consAddress(s.keeper.getValidator(ctx, op(i))!);
  const bondedOf = (ctx: Context) => s.bank.getBalance(ctx, sharedModuleAddress(BONDED_POOL_NAME), DENOM);
  const notBondedOf = (ctx: Context) => s.bank.getBalance(ctx, sharedModuleAddress(NOT_BONDED_POOL_NAME), DENOM);
  const powerOf = (ctx: Context, i: number) => s.keeper.consensusPower(s.keeper.getValidator(ctx, op(i))!);
  const ts = (sec: number) => ({ seconds: BigInt(sec), nanos: 0 });

  it('TestSlashUnbondingDelegation: before the infraction, mature, then a valid slash of half', async () => {
    const { at } = await bootstrap();
    const ctx = at(0);
    const ubd = {
      delegator_address: devKey(0).address, validator_address: valoper(0),
      entries: [{ creation_height: 0n, completion_time: ts(5), initial_balance: '10', balance: '10' }],
    };
    s.keeper.setUnbondingDelegation(ctx, ubd);
    // unbonding started prior to the infraction height: stake didn't contribute
    expect(s.keeper.slashUnbondingDelegation(ctx, ubd, 1n, half)).to.equal(0n);
    // after the expiration time: no longer eligible
    expect(s.keeper.slashUnbondingDelegation(at(0, new Date(10_000)), ubd, 0n, half)).to.equal(0n);
    // a valid slash
    const before = notBondedOf(ctx);
    expect(s.keeper.slashUnbondingDelegation(at(0, new Date(0)), ubd, 0n, half)).to.equal(5n);
    const got = s.keeper.getUnbondingDelegation(ctx, devKey(0).addr, op(0))!;
    expect(got.entries.map((e) => [e.initial_balance, e.balance])).to.deep.equal([['10', '5']]);
    expect(before - notBondedOf(ctx)).to.equal(5n);
  });

  it('TestSlashRedelegation: before the infraction, mature, then a valid slash unbonding half the destination shares', async () => {
    const { at } = await bootstrap();
    const ctx = at(0);
    s.bank.initBalance(ctx, sharedModuleAddress(BONDED_POOL_NAME), [{ denom: DENOM, amount: '15' }]);
    const rd = {
      delegator_address: devKey(0).address, validator_src_address: valoper(0), validator_dst_address: valoper(1),
      entries: [{ creation_height: 0n, completion_time: ts(5), initial_balance: '10', shares_dst: Dec.fromInt(10).atomics() }],
    };
    s.keeper.setRedelegation(ctx, rd);
    s.keeper.setDelegation(ctx, { delegator_address: devKey(0).address, validator_address: valoper(1), shares: Dec.fromInt(10).atomics() });
    const src = s.keeper.getValidator(ctx, op(1))!;
    expect(s.keeper.slashRedelegation(ctx, src, rd, 1n, half)).to.equal(0n);
    expect(s.keeper.slashRedelegation(at(0, new Date(10_000)), src, rd, 0n, half)).to.equal(0n);
    const before = bondedOf(ctx);
    const c0 = at(0, new Date(0));
    expect(s.keeper.slashRedelegation(c0, src, rd, 0n, half)).to.equal(5n);
    expect(s.keeper.getRedelegation(ctx, devKey(0).addr, op(0), op(1))!.entries.map((e) => e.initial_balance)).to.deep.equal(['10']);
    s.keeper.applyAndReturnValidatorSetUpdates(c0);
    // shares decreased: 5 left
    expect(Dec.fromAtomics(s.keeper.getDelegation(ctx, devKey(0).addr, op(1))!.shares).roundInt()).to.equal(5n);
    // bonded pool decreased by the slash amount (the destination is bonded)
    expect(before - bondedOf(ctx)).to.equal(5n);
  });

  it('TestSlashAtFutureHeight: throws', async () => {
    const { at } = await bootstrap();
    const ctx = at(0);
    expect(() => s.keeper.slash(ctx, consAddr(ctx, 0), 1n, 10n, half)).to.throw('impossible attempt to slash future infraction at height 1 but we are at height 0');
    expect(() => s.keeper.slash(ctx, consAddr(ctx, 0), 0n, 10n, Dec.fromString('-0.5'))).to.throw(/negative slash factor/);
  });

  for (const [name, infraction] of [['TestSlashAtNegativeHeight', -2n], ['TestSlashValidatorAtCurrentHeight', 0n]] as const) {
    it(`${name}: half of power 10 burned from the bonded pool; hooks with the effective fraction`, async () => {
      const { at } = await bootstrap();
      const ctx = at(0);
      const before = bondedOf(ctx);
      s.keeper.slash(ctx, consAddr(ctx, 0), infraction, 10n, half);
      expect(s.keeper.applyAndReturnValidatorSetUpdates(ctx).map((u) => u.power)).to.deep.equal([5n]);
      expect(powerOf(ctx, 0)).to.equal(5n);
      expect(before - bondedOf(ctx)).to.equal(5n * E18);
      const h = Buffer.from(op(0)).toString('hex').slice(0, 8);
      expect(calls).to.deep.equal([`beforeValidatorModified(${h})`, `beforeValidatorSlashed(${h},0.500000000000000000)`]);
    });
  }

  it('TestSlashWithUnbondingDelegation: entries slashed first, the rest from the validator, to zero stake and unbonding', async () => {
    const { at } = await bootstrap();
    let ctx = at(0);
    s.keeper.setUnbondingDelegation(ctx, {
      delegator_address: devKey(0).address, validator_address: valoper(0),
      entries: [{ creation_height: 11n, completion_time: ts(0), initial_balance: (4n * E18).toString(), balance: (4n * E18).toString() }],
    });
    ctx = at(12);
    const start = bondedOf(ctx);
    const ca = consAddr(ctx, 0);
    s.keeper.slash(ctx, ca, 10n, 10n, half);
    expect(s.keeper.applyAndReturnValidatorSetUpdates(ctx)).to.have.length(1);
    const balance = () => s.keeper.getUnbondingDelegation(ctx, devKey(0).addr, op(0))!.entries.map((e) => BigInt(e.balance));
    expect(balance()).to.deep.equal([2n * E18]);
    expect(start - bondedOf(ctx)).to.equal(3n * E18);
    expect(powerOf(ctx, 0)).to.equal(7n);

    ctx = at(13);
    s.keeper.slash(ctx, ca, 9n, 10n, half);
    expect(balance()).to.deep.equal([0n]);
    expect(start - bondedOf(ctx)).to.equal(6n * E18);
    s.keeper.applyAndReturnValidatorSetUpdates(ctx);
    expect(powerOf(ctx, 0)).to.equal(4n);

    s.keeper.slash(ctx, ca, 9n, 10n, half);
    expect(balance()).to.deep.equal([0n]);
    expect(start - bondedOf(ctx)).to.equal(9n * E18);
    s.keeper.applyAndReturnValidatorSetUpdates(ctx);
    expect(powerOf(ctx, 0)).to.equal(1n);

    s.keeper.slash(ctx, ca, 9n, 10n, half);
    expect(start - bondedOf(ctx)).to.equal(10n * E18);
    s.keeper.applyAndReturnValidatorSetUpdates(ctx);
    // out of stake: unbonding
    expect(s.keeper.getValidator(ctx, op(0))!.status).to.equal(2);
  });

  it('TestSlashWithRedelegation: the redelegation entry first (unbonding the destination), the rest from the validator, to unbonding', async () => {
    const { at } = await bootstrap();
    let ctx = at(0);
    const rdTokens = 6n * E18;
    const del = devKey(3);
    s.keeper.setRedelegation(ctx, {
      delegator_address: del.address, validator_src_address: valoper(0), validator_dst_address: valoper(1),
      entries: [{ creation_height: 11n, completion_time: ts(0), initial_balance: rdTokens.toString(), shares_dst: Dec.fromInt(rdTokens).atomics() }],
    });
    s.keeper.setDelegation(ctx, { delegator_address: del.address, validator_address: valoper(1), shares: Dec.fromInt(rdTokens).atomics() });
    s.bank.initBalance(ctx, sharedModuleAddress(BONDED_POOL_NAME), [{ denom: DENOM, amount: (2n * rdTokens).toString() }]);
    let oldBonded = bondedOf(ctx);
    const oldNotBonded = notBondedOf(ctx);
    ctx = at(12);
    const ca = consAddr(ctx, 0);
    const entries = () => s.keeper.getRedelegation(ctx, del.addr, op(0), op(1))!.entries.length;

    s.keeper.slash(ctx, ca, 10n, 10n, half);
    expect([oldBonded - bondedOf(ctx), oldNotBonded - notBondedOf(ctx)]).to.deep.equal([5n * E18, 0n]);
    oldBonded = bondedOf(ctx);
    expect(entries()).to.equal(1);
    // 4 of the 10 were bonded at the infraction and slashed by half (2), the redelegated 6 paid 3 at the destination
    expect(powerOf(ctx, 0)).to.equal(8n);

    s.keeper.slash(ctx, ca, 10n, 10n, Dec.one());
    expect(oldBonded - bondedOf(ctx)).to.equal(7n * E18);
    oldBonded = bondedOf(ctx);
    expect(entries()).to.equal(1);
    expect(powerOf(ctx, 0)).to.equal(4n);

    s.keeper.slash(ctx, ca, 10n, 10n, Dec.one());
    expect(oldBonded - bondedOf(ctx)).to.equal(10n * E18 - rdTokens);
    oldBonded = bondedOf(ctx);
    expect(entries()).to.equal(1);
    s.keeper.applyAndReturnValidatorSetUpdates(ctx);
    expect(s.keeper.getValidator(ctx, op(0))!.status).to.equal(2);

    // nothing left to slash: the pools do not change, the validator stays unbonding
    s.keeper.slash(ctx, ca, 10n, 10n, Dec.one());
    expect([bondedOf(ctx), notBondedOf(ctx)]).to.deep.equal([oldBonded, oldNotBonded]);
    expect(entries()).to.equal(1);
    expect(s.keeper.getValidator(ctx, op(0))!.status).to.equal(2);
  });

  it('an unbonding validator is slashed from the not-bonded pool; an unbonded one throws; an unknown one is ignored', async () => {
    const { at } = await bootstrap();
    const ctx = at(5, new Date(0));
    const ca = consAddr(ctx, 0);
    s.keeper.jail(ctx, ca);
    expect(() => s.keeper.jail(ctx, ca)).to.throw(/cannot jail already jailed validator/);
    expect([...s.keeper.validatorsByPower(ctx)].map((o) => s.keeper.valCodec.encode(o))).to.not.include(valoper(0));
    expect(s.keeper.applyAndReturnValidatorSetUpdates(ctx).map((u) => u.power)).to.deep.equal([0n]);
    expect(s.keeper.getValidator(ctx, op(0))!.status).to.equal(2);
    const nb = notBondedOf(ctx);
    s.keeper.slash(ctx, ca, 5n, 10n, Dec.withPrec(1, 1));
    expect(nb - notBondedOf(ctx)).to.equal(E18);
    expect(s.keeper.getValidator(ctx, op(0))!.tokens).to.equal((9n * E18).toString());
    s.keeper.unjail(ctx, ca);
    expect(() => s.keeper.unjail(ctx, ca)).to.throw(/cannot unjail already unjailed validator/);
    expect([...s.keeper.validatorsByPower(ctx)].map((o) => s.keeper.valCodec.encode(o))).to.include(valoper(0));
    s.keeper.slash(ctx, new Uint8Array(20), 5n, 10n, half); // unknown: no-op
    const unbonded = { ...s.keeper.getValidator(ctx, op(1))!, status: 1 };
    s.keeper.setValidator(ctx, unbonded);
    expect(() => s.keeper.slash(ctx, consAddr(ctx, 1), 5n, 10n, half)).to.throw(/should not be slashing unbonded validator/);
  });

  it('a slash after undelegations and redelegations made through messages keeps the invariants', async () => {
    s = await openChain({ hooks: [] });
    await s.chain.init(emptyGenesis());
    for (const i of [0, 1]) await s.chain.deliver(msgTx(s, i, [createValidatorMsg(s, i, 100n * E18)]));
    const d = (msg: [string, Record<string, unknown>]) => s.chain.deliver(msgTx(s, 2, [msg]));
    await d(['MsgDelegate', { delegator_address: devKey(2).address, validator_address: valoper(0), amount: { denom: DENOM, amount: (60n * E18).toString() } }]);
    const h = s.chain.app.lastHeight;
    await d(['MsgUndelegate', { delegator_address: devKey(2).address, validator_address: valoper(0), amount: { denom: DENOM, amount: (20n * E18).toString() } }]);
    await d(['MsgBeginRedelegate', { delegator_address: devKey(2).address, validator_src_address: valoper(0), validator_dst_address: valoper(1), amount: { denom: DENOM, amount: (30n * E18).toString() } }]);
    const { ctx } = writable(s, s.chain.app.lastHeight + 1, new Date(GENESIS_DATE.getTime() + 3600_000));
    const bonded = bondedOf(ctx);
    const notBonded = notBondedOf(ctx);
    // power 160 at the infraction height; 10%: 16 tokens, 2 from the unbonding entry, 3 from the redelegation, 11 from the validator
    s.keeper.slash(ctx, consAddr(ctx, 0), BigInt(h), 160n, Dec.withPrec(1, 1));
    expect(s.keeper.getUnbondingDelegation(ctx, devKey(2).addr, op(0))!.entries.map((e) => e.balance)).to.deep.equal([(18n * E18).toString()]);
    expect(Dec.fromAtomics(s.keeper.getDelegation(ctx, devKey(2).addr, op(1))!.shares).toString()).to.equal('27000000000000000000.000000000000000000');
    expect(s.keeper.getValidator(ctx, op(0))!.tokens).to.equal((110n * E18 - 11n * E18).toString());
    expect([bonded - bondedOf(ctx), notBonded - notBondedOf(ctx)]).to.deep.equal([14n * E18, 2n * E18]);
    assertInvariants(s, ctx);
  });
});
