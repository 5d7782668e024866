import { expect } from 'chai';
import { toHex } from '@chain/crypto';
import {
  BONDED, E18, NOT_BONDED, appGenesis, bankGenesis, consKey, dec, openChain, stakingGenesis, validatorJson, valoper,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

type Json = Record<string, unknown>;

describe('staking: genesis', () => {
  const open: TestSetup[] = [];
  const chain = async (): Promise<TestSetup> => {
    const s = await openChain();
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.chain.close();
  });
  const withStaking = (patch: (g: Json) => void): Json => {
    const g = stakingGenesis();
    patch(g);
    return g;
  };

  it('the default genesis is the SDK\'s (params defaults, nothing else)', async () => {
    const s = await chain();
    expect(s.chain.app.defaultGenesis().staking).to.deep.equal({
      params: { unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: 'stake' },
      last_total_power: '0',
      last_validator_powers: [],
      validators: [],
      delegations: [],
      unbonding_delegations: [],
      redelegations: [],
      exported: false,
    });
  });

  it('a default genesis inits (empty pools)', async () => {
    const s = await chain();
    const res = await s.chain.init({});
    expect(res.validators).to.deep.equal([]);
  });

  it('InitGenesis returns the bonded validators in power order, power = tokens / 10^18, within max_validators', async () => {
    const s = await chain();
    const res = await s.chain.init(appGenesis());
    expect(res.validators.map((u) => [toHex(u.pubKey.key), u.pubKey.type, u.power])).to.deep.equal([
      [toHex(consKey(1)), 'ed25519', 900n],
      [toHex(consKey(0)), 'ed25519', 150n],
    ]);
    const ctx = s.chain.ctx();
    expect(s.keeper.getLastTotalPower(ctx)).to.equal(1050n);
    expect(s.keeper.getLastValidatorPower(ctx, s.keeper.valCodec.decode(valoper(1)))).to.equal(900n);
    expect(s.keeper.getLastValidatorPower(ctx, s.keeper.valCodec.decode(valoper(2)))).to.equal(0n);
    // the unbonded validator stays in the power index (outside the set: max_validators is 2)
    expect([...s.keeper.validatorsByPower(ctx)].map((op) => s.keeper.valCodec.encode(op))).to.deep.equal([valoper(1), valoper(0), valoper(2)]);
    expect(s.keeper.getValidatorByConsAddr(ctx, s.keeper.consAddress(s.keeper.getValidator(ctx, s.keeper.valCodec.decode(valoper(0)))!))?.operator_address).to.equal(valoper(0));
  });

  it('exported: true stores and returns the last validator powers as given', async () => {
    const s = await chain();
    const g = withStaking((x) => {
      x.exported = true;
      x.last_total_power = '1000';
      x.last_validator_powers = [{ address: valoper(0), power: '100' }, { address: valoper(1), power: '900' }];
    });
    const res = s.chain.initChain(appGenesis(g));
    expect(res.validators.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 100n], [toHex(consKey(1)), 900n]]);
    // block 1's EndBlock then brings the set in line with the tokens (v0: 150 tokens → power 150)
    const b1 = await s.chain.block([]);
    expect(b1.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 150n]]);
    expect(s.keeper.getLastTotalPower(s.chain.ctx())).to.equal(1050n);
    expect(s.keeper.getLastValidatorPower(s.chain.ctx(), s.keeper.valCodec.decode(valoper(0)))).to.equal(150n);
  });

  it('round trip: export → init on a fresh chain gives the same app hash and the same export', async () => {
    const a = await chain();
    const initA = await a.chain.init(appGenesis());
    const exported = a.chain.app.exportGenesis();
    const st = exported.staking as Json;
    expect(st.exported).to.equal(true);
    expect(st.last_total_power).to.equal('1050');
    expect((st.last_validator_powers as Json[]).map((l) => l.address).sort()).to.deep.equal([valoper(0), valoper(1)].sort());
    expect((st.validators as Json[]).length).to.equal(3);
    expect((st.delegations as Json[]).length).to.equal(5);
    expect(st.unbonding_delegations).to.deep.equal(stakingGenesis().unbonding_delegations);
    expect(st.redelegations).to.deep.equal(stakingGenesis().redelegations);
    const b = await chain();
    const initB = await b.chain.init(exported);
    expect(toHex(initB.appHash)).to.equal(toHex(initA.appHash));
    expect(initB.validators.map((u) => u.power).sort()).to.deep.equal([150n, 900n]);
    expect(b.chain.app.exportGenesis()).to.deep.equal(exported);
  });

  describe('ValidateGenesis', () => {
    const refuses = async (g: Json, re: RegExp): Promise<void> => {
      const s = await chain();
      expect(() => s.chain.initChain(appGenesis(g))).to.throw(re);
    };

    it('a duplicate consensus key', async () => {
      await refuses(withStaking((g) => {
        const v = validatorJson(0, { status: 'BOND_STATUS_UNBONDED', tokens: 0n, shares: dec(1n) });
        v.operator_address = valoper(5);
        (g.validators as Json[]).push(v);
      }), /^duplicate validator in genesis state: moniker node0, address chainvalcons1/);
    });

    it('a bonded jailed validator', async () => {
      await refuses(withStaking((g) => {
        (g.validators as Json[])[0]!.jailed = true;
      }), /^validator is bonded and jailed in genesis state: moniker node0, address chainvalcons1/);
    });

    it('zero delegator shares unless unbonding', async () => {
      await refuses(withStaking((g) => {
        (g.validators as Json[])[2]!.delegator_shares = '0';
      }), /bonded\/unbonded genesis validator cannot have zero delegator shares/);
    });

    it('invalid params, with the SDK\'s messages', async () => {
      const p = (patch: Json) => withStaking((g) => {
        g.params = { ...(g.params as Json), ...patch };
      });
      await refuses(p({ unbonding_time: '0s' }), /^unbonding time must be positive: 0$/);
      await refuses(p({ max_validators: 0 }), /^max validators must be positive$/);
      await refuses(p({ max_entries: 0 }), /^max entries must be positive$/);
      await refuses(p({ bond_denom: ' ' }), /^bond denom cannot be blank$/);
      await refuses(p({ bond_denom: '1x' }), /^invalid denom: 1x$/);
    });
  });

  describe('InitGenesis checks', () => {
    it('the bonded pool must hold exactly the bonded tokens', async () => {
      const s = await chain();
      expect(() => s.chain.initChain(appGenesis(stakingGenesis(), bankGenesis({ bonded: BONDED - 1n })))).to.throw(
        `bonded pool balance is different from bonded coins: ${BONDED - 1n}achain <-> ${BONDED}achain`,
      );
    });

    it('the not-bonded pool must hold the not-bonded tokens plus the unbonding balances', async () => {
      const s = await chain();
      expect(() => s.chain.initChain(appGenesis(stakingGenesis(), bankGenesis({ notBonded: 5n * E18 })))).to.throw(
        `not bonded pool balance is different from not bonded coins: ${5n * E18}achain <-> ${NOT_BONDED}achain`,
      );
    });

    it('an empty expected pool must be empty', async () => {
      const s = await chain();
      const empty = withStaking((g) => {
        g.validators = [];
        g.delegations = [];
        g.unbonding_delegations = [];
        g.redelegations = [];
      });
      expect(() => s.chain.initChain(appGenesis(empty, bankGenesis()))).to.throw(`bonded pool balance is different from bonded coins: ${BONDED}achain <-> `);
    });

    it('a validator with an unspecified status', async () => {
      const s = await chain();
      expect(() => s.chain.initChain(appGenesis(withStaking((g) => {
        (g.validators as Json[])[2]!.status = 'BOND_STATUS_UNSPECIFIED';
      })))).to.throw(/^invalid validator status$/);
    });

    it('exported: false bonds a validator entering the set (status, pools) through ApplyAndReturnValidatorSetUpdates', async () => {
      const s = await chain();
      const res = s.chain.initChain(appGenesis(withStaking((g) => {
        (g.params as Json).max_validators = 3;
      })));
      expect(res.validators.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(1)), 900n], [toHex(consKey(0)), 150n], [toHex(consKey(2)), 5n]]);
      await s.chain.block([]);
      const ctx = s.chain.ctx();
      expect(s.keeper.getValidator(ctx, s.keeper.valCodec.decode(valoper(2)))!.status).to.equal(3);
      expect(s.keeper.totalBondedTokens(ctx)).to.equal(BONDED + 5n * E18);
      expect(s.bank.getBalance(ctx, s.keeper.notBondedPoolAddress(), 'achain')).to.equal(NOT_BONDED - 5n * E18);
      expect(s.keeper.getLastTotalPower(ctx)).to.equal(1055n);
    });

    it('exported: false calls the hooks (AfterValidatorCreated, BeforeDelegationCreated / AfterDelegationModified); exported: true none', async () => {
      const calls: string[] = [];
      const hooks = { afterValidatorCreated: () => calls.push('created'), beforeDelegationCreated: () => calls.push('before'), afterDelegationModified: () => calls.push('after'), afterValidatorBonded: () => calls.push('bonded') };
      const s = await openChain({ hooks: [hooks] });
      open.push(s);
      s.chain.initChain(appGenesis());
      expect(calls).to.deep.equal(['created', 'created', 'created', 'before', 'after', 'before', 'after', 'before', 'after', 'before', 'after', 'before', 'after']);
      const t = await openChain({ hooks: [hooks] });
      open.push(t);
      calls.length = 0;
      t.chain.initChain(appGenesis(withStaking((g) => {
        g.exported = true;
      })));
      expect(calls).to.deep.equal([]);
    });

    it('exported: false with a bonded validator outside the set that was never in the last set: no update, status kept (as the SDK)', async () => {
      const s = await chain();
      const res = s.chain.initChain(appGenesis(withStaking((g) => {
        (g.params as Json).max_validators = 1;
      })));
      // v0 was never in the last set: it is unbonded without an update; v1 enters
      expect(res.validators.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(1)), 900n]]);
      await s.chain.block([]);
      expect(s.keeper.getValidator(s.chain.ctx(), s.keeper.valCodec.decode(valoper(0)))?.status).to.equal(3);
    });

    it('an unbonding validator goes into the validator queue', async () => {
      const s = await chain();
      await s.chain.init(appGenesis(withStaking((g) => {
        const v = (g.validators as Json[])[2]!;
        v.status = 'BOND_STATUS_UNBONDING';
        v.unbonding_height = '7';
        v.unbonding_time = '2024-02-01T00:00:00.5Z';
      })));
      const q = s.keeper.state.ValidatorQueue.iterate(s.chain.ctx()).toArray();
      expect(q.map((e) => [e.key, e.value])).to.deep.equal([[['2024-02-01T00:00:00.500000000', 7n], { addresses: [valoper(2)] }]]);
    });
  });
});
