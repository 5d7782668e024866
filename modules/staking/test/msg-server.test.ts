/**
 * The Msg service over delivered txs (auth + bank + staking TestChain): every success path with its state,
 * balances, events and hooks; every error with its codespace and code (the SDK's checks in order);
 * EndBlock's validator updates and the unbonding / redelegation lifecycles across blocks; the invariants
 * after each scenario.
 */
import { expect } from 'chai';
import { toHex } from '@chain/crypto';
import type { ExecTxResult } from '@chain/app';
import {
  DENOM, E18, GENESIS_DATE, assertInvariants, bal, bondedPool, consKey, createValidatorMsg, devKey, emptyGenesis, eventList, failure,
  hookRecorder, msgTx, notBondedPool, openChain, valoper,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

type Msg = [string, Record<string, unknown>];
const coin = (n: bigint, denom = DENOM) => ({ denom, amount: n.toString() });
const DAY = 24 * 3600 * 1000;
const UNBONDING_MS = 21 * DAY;
const atoms = (n: bigint) => (n * E18).toString();

const delegateMsg = (d: number, v: number, amount: bigint, denom = DENOM): Msg =>
  ['MsgDelegate', { delegator_address: devKey(d).address, validator_address: valoper(v), amount: coin(amount, denom) }];
const undelegateMsg = (d: number, v: number, amount: bigint, denom = DENOM): Msg =>
  ['MsgUndelegate', { delegator_address: devKey(d).address, validator_address: valoper(v), amount: coin(amount, denom) }];
const redelegateMsg = (d: number, src: number, dst: number, amount: bigint): Msg =>
  ['MsgBeginRedelegate', { delegator_address: devKey(d).address, validator_src_address: valoper(src), validator_dst_address: valoper(dst), amount: coin(amount) }];
const editMsg = (v: number, o: Record<string, unknown> = {}): Msg => ['MsgEditValidator', {
  description: { moniker: '[do-not-modify]', identity: '[do-not-modify]', website: '[do-not-modify]', security_contact: '[do-not-modify]', details: '[do-not-modify]' },
  validator_address: valoper(v), commission_rate: '', min_self_delegation: '', ...o,
}];

describe('staking: messages', () => {
  let s: TestSetup;
  let calls: string[];
  const open = async (params: Record<string, unknown> = {}) => {
    const rec = hookRecorder();
    calls = rec.calls;
    s = await openChain({ hooks: [rec.hooks] });
    await s.chain.init(emptyGenesis(params));
  };
  afterEach(async () => {
    if (s) {
      assertInvariants(s);
      await s.chain.close();
    }
  });
  const send = async (signer: number, msg: Msg, time?: Date): Promise<ExecTxResult> => s.chain.deliver(msgTx(s, signer, [msg]), time ? { time } : {});
  const ok = async (signer: number, msg: Msg, time?: Date): Promise<ExecTxResult> => {
    const r = await send(signer, msg, time);
    expect(r.code, r.log).to.equal(0);
    return r;
  };
  const op = (i: number) => s.keeper.valCodec.decode(valoper(i));
  const acc = (i: number) => devKey(i).addr;
  const val = (i: number) => s.keeper.getValidator(s.chain.ctx(), op(i));
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').slice(0, 8);
  /** the time of the next block (the test chain: genesis + height seconds) */
  const nextTime = () => new Date(GENESIS_DATE.getTime() + (s.chain.app.lastHeight + 1) * 1000);
  const fail = (code: number, codespace: string, log: string) => [codespace, code, `failed to execute message; message index: 0: ${log}`];
  const responseOf = (r: ExecTxResult) => s.registry.decode<{ msg_responses: { type_url: string; value: Uint8Array }[] }>('chain.base.abci.v1beta1.TxMsgData', r.data).msg_responses[0]!;

  describe('MsgCreateValidator', () => {
    it('stores the validator, self-delegates from the account to the not-bonded pool; EndBlock bonds it (power = tokens / 10^18)', async () => {
      await open();
      const time = nextTime();
      const res = await s.chain.block([msgTx(s, 0, [createValidatorMsg(s, 0, 100n * E18)])]);
      const r = res.txResults[0]!;
      expect(r.code, r.log).to.equal(0);
      const pool = s.keeper.notBondedPoolAddress();
      const poolText = s.keeper.accCodec.encode(pool);
      const bondedText = s.keeper.accCodec.encode(s.keeper.bondedPoolAddress());
      expect(eventList(r)).to.deep.equal([
        ['message', { action: '/chain.staking.v1beta1.MsgCreateValidator', sender: devKey(0).address, module: 'staking' }],
        ['coin_spent', { spender: devKey(0).address, amount: `${atoms(100n)}achain` }],
        ['coin_received', { receiver: poolText, amount: `${atoms(100n)}achain` }],
        ['transfer', { recipient: poolText, sender: devKey(0).address, amount: `${atoms(100n)}achain` }],
        ['message', { sender: devKey(0).address }],
        ['create_validator', { validator: valoper(0), amount: `${atoms(100n)}achain` }],
        ['message', { module: 'staking', sender: devKey(0).address }],
      ]);
      // EndBlock: unbonded → bonded, tokens moved not-bonded → bonded, the update
      expect(res.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 100n]]);
      expect(eventList({ events: res.events }).filter(([t]) => t === 'transfer')).to.deep.equal([
        ['transfer', { recipient: bondedText, sender: poolText, amount: `${atoms(100n)}achain` }],
      ]);
      const v = val(0)!;
      expect(v).to.deep.include({
        operator_address: valoper(0), jailed: false, status: 3, tokens: atoms(100n), delegator_shares: atoms(100n) + '000000000000000000',
        unbonding_height: 0n, unbonding_time: { seconds: 0n, nanos: 0 }, min_self_delegation: '1',
      });
      expect(v.description?.moniker).to.equal('node0');
      expect(v.commission).to.deep.equal({
        commission_rates: { rate: (10n ** 17n).toString(), max_rate: (2n * 10n ** 17n).toString(), max_change_rate: (10n ** 16n).toString() },
        update_time: { seconds: BigInt(time.getTime() / 1000), nanos: 0 },
      });
      expect(s.keeper.getDelegation(s.chain.ctx(), acc(0), op(0))?.shares).to.equal(atoms(100n) + '000000000000000000');
      expect(bal(s, devKey(0).address)).to.equal(900n * E18);
      expect(bondedPool(s)).to.equal(100n * E18);
      expect(notBondedPool(s)).to.equal(0n);
      expect(s.keeper.getLastTotalPower(s.chain.ctx())).to.equal(100n);
      expect(s.keeper.getLastValidatorPower(s.chain.ctx(), op(0))).to.equal(100n);
      const h = hex(op(0));
      expect(calls).to.deep.equal([
        `afterValidatorCreated(${h})`, `beforeDelegationCreated(${h},${h})`, `afterDelegationModified(${h},${h})`,
        `afterValidatorBonded(${hex(s.keeper.consAddress(v))},${h})`,
      ]);
      // BeginBlock of the next block tracks the historical info with the bonded set
      await s.chain.block([]);
      const hi = s.keeper.getHistoricalInfo(s.chain.ctx(), BigInt(s.chain.app.lastHeight));
      expect(hi?.valset.map((x) => x.operator_address)).to.deep.equal([valoper(0)]);
      expect(hi?.header?.height).to.equal(BigInt(s.chain.app.lastHeight));
    });

    it('a validator below one unit of power stays unbonded (no update)', async () => {
      await open();
      const res = await s.chain.block([msgTx(s, 0, [createValidatorMsg(s, 0, E18 - 1n)])]);
      expect(res.txResults[0]!.code).to.equal(0);
      expect(res.validatorUpdates).to.deep.equal([]);
      expect(val(0)!.status).to.equal(1);
      expect(notBondedPool(s)).to.equal(E18 - 1n);
    });

    it('refuses, in the SDK order, with its codespaces and codes', async () => {
      await open();
      await ok(1, createValidatorMsg(s, 1, 10n * E18));
      const rates = (rate: bigint, max: bigint, change: bigint) => ({ commission: { rate: rate.toString(), max_rate: max.toString(), max_change_rate: change.toString() } });
      const P = 10n ** 16n; // 1%
      const cases: [string, Msg, [string, number, string]][] = [
        ['no delegator', createValidatorMsg(s, 0, E18, { delegator_address: '' }), ['sdk', 7, 'invalid delegator address: empty address string is not allowed: invalid address']],
        ['no validator', createValidatorMsg(s, 0, E18, { validator_address: '' }), ['staking', 2, 'empty validator address']],
        ['validator ≠ delegator', createValidatorMsg(s, 0, E18, { validator_address: valoper(2) }), ['sdk', 18, 'validator address is invalid: invalid request']],
        ['no pubkey', createValidatorMsg(s, 0, E18, { pubkey: null }), ['staking', 39, 'empty validator public key']],
        ['zero value', createValidatorMsg(s, 0, 0n), ['sdk', 18, 'invalid delegation amount: invalid request']],
        ['empty description', createValidatorMsg(s, 0, E18, { description: { moniker: '', identity: '', website: '', security_contact: '', details: '' } }), ['sdk', 18, 'empty description: invalid request']],
        ['unset commission', createValidatorMsg(s, 0, E18, { commission: null }), ['sdk', 18, 'empty commission: invalid request']],
        ['max rate > 1', createValidatorMsg(s, 0, E18, rates(P, 101n * P, P)), ['staking', 10, 'commission cannot be more than 100%']],
        ['negative rate', createValidatorMsg(s, 0, E18, rates(-P, 20n * P, P)), ['staking', 9, 'commission must be positive']],
        ['rate > max rate', createValidatorMsg(s, 0, E18, rates(30n * P, 20n * P, P)), ['staking', 11, 'commission cannot be more than the max rate']],
        ['change rate > max rate', createValidatorMsg(s, 0, E18, rates(P, 20n * P, 30n * P)), ['staking', 14, 'commission change rate cannot be more than the max rate']],
        ['min self delegation 0', createValidatorMsg(s, 0, E18, { min_self_delegation: '0' }), ['sdk', 18, 'minimum self delegation must be a positive integer: invalid request']],
        ['value < min self delegation', createValidatorMsg(s, 0, E18, { min_self_delegation: (2n * E18).toString() }), ['staking', 16, "validator's self delegation must be greater than their minimum self delegation"]],
        ['operator exists', createValidatorMsg(s, 1, E18), ['staking', 4, 'validator already exist for this operator address; must use new validator operator address']],
        ['consensus key taken', createValidatorMsg(s, 0, E18, { pubkey: s.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey(1) }, '/cosmos.crypto.ed25519.PubKey') }), ['staking', 5, 'validator already exist for this pubkey; must use new validator pubkey']],
        ['another denom', createValidatorMsg(s, 0, E18, { value: coin(E18, 'foo') }), ['sdk', 18, 'invalid coin denomination: got foo, expected achain: invalid request']],
        ['a long moniker', createValidatorMsg(s, 0, E18, { description: { moniker: 'm'.repeat(71), identity: '', website: '', security_contact: '', details: '' } }), ['sdk', 18, 'invalid moniker length; got: 71, max: 70: invalid request']],
        ['a secp256k1 consensus key', createValidatorMsg(s, 0, E18, { pubkey: s.registry.packAny('chain.crypto.secp256k1.PubKey', { key: devKey(0).pub }, '/cosmos.crypto.secp256k1.PubKey') }), ['staking', 6, 'got: secp256k1, expected: [ed25519]: validator pubkey type is not supported']],
        ['insufficient funds', createValidatorMsg(s, 0, 2000n * E18), ['sdk', 5, `spendable balance ${atoms(1000n)}achain is smaller than ${atoms(2000n)}achain: insufficient funds`]],
      ];
      const got = [];
      for (const [what, m] of cases) {
        const r = await send(0, m);
        got.push([what, failure(r)]);
      }
      expect(got).to.deep.equal(cases.map(([what, , [cs, code, log]]) => [what, fail(code, cs, log)]));
      expect(val(0)).to.equal(undefined);
      expect(bal(s, devKey(0).address)).to.equal(1000n * E18);
    });
  });

  describe('MsgEditValidator', () => {
    it('keeps [do-not-modify] fields, changes the commission after 24h and the min self delegation; events; hook', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      const created = val(0)!.commission!.update_time!;
      calls.length = 0;
      const t = new Date(Number(created.seconds) * 1000 + DAY);
      const r = await ok(0, editMsg(0, {
        description: { moniker: 'renamed', identity: '[do-not-modify]', website: 'https://x', security_contact: '[do-not-modify]', details: '' },
        commission_rate: (11n * 10n ** 16n).toString(), min_self_delegation: (5n * E18).toString(),
      }), t);
      const v = val(0)!;
      expect(v.description).to.deep.equal({ moniker: 'renamed', identity: '', website: 'https://x', security_contact: '', details: '' });
      expect(v.commission).to.deep.equal({
        commission_rates: { rate: (11n * 10n ** 16n).toString(), max_rate: (2n * 10n ** 17n).toString(), max_change_rate: (10n ** 16n).toString() },
        update_time: { seconds: BigInt(t.getTime() / 1000), nanos: 0 },
      });
      expect(v.min_self_delegation).to.equal((5n * E18).toString());
      expect(eventList(r)).to.deep.equal([
        ['message', { action: '/chain.staking.v1beta1.MsgEditValidator', sender: valoper(0), module: 'staking' }],
        ['edit_validator', {
          commission_rate: `commissionrates:\n  rate: "0.110000000000000000"\n  max_rate: "0.200000000000000000"\n  max_change_rate: "0.010000000000000000"\nupdate_time: ${t.toISOString().slice(0, 19)}Z\n`,
          min_self_delegation: (5n * E18).toString(),
        }],
        ['message', { module: 'staking', sender: valoper(0) }],
      ]);
      expect(calls).to.deep.equal([`beforeValidatorModified(${hex(op(0))})`]);
    });

    it('refuses, in the SDK order', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      const created = Number(val(0)!.commission!.update_time!.seconds) * 1000;
      const P = 10n ** 16n;
      const later = new Date(created + 2 * DAY);
      const cases: [string, Msg, Date | undefined, [string, number, string]][] = [
        ['no validator', editMsg(0, { validator_address: '' }), undefined, ['staking', 2, 'empty validator address']],
        ['empty description', editMsg(0, { description: { moniker: '', identity: '', website: '', security_contact: '', details: '' } }), undefined, ['sdk', 18, 'empty description: invalid request']],
        ['min self delegation 0', editMsg(0, { min_self_delegation: '0' }), undefined, ['sdk', 18, 'minimum self delegation must be a positive integer: invalid request']],
        ['rate > 1', editMsg(0, { commission_rate: (101n * P).toString() }), undefined, ['sdk', 18, 'commission rate must be between 0 and 1 (inclusive): invalid request']],
        ['unknown validator', editMsg(3), undefined, ['staking', 3, 'validator does not exist']],
        ['within 24h', editMsg(0, { commission_rate: (11n * P).toString() }), new Date(created + DAY - 1000), ['staking', 12, 'commission cannot be changed more than once in 24h']],
        ['above the max rate', editMsg(0, { commission_rate: (21n * P).toString() }), later, ['staking', 11, 'commission cannot be more than the max rate']],
        ['above the max change rate', editMsg(0, { commission_rate: (12n * P).toString() }), later, ['staking', 15, 'commission cannot be changed more than max change rate']],
        ['min self delegation not increased', editMsg(0, { min_self_delegation: '1' }), later, ['staking', 17, 'minimum self delegation cannot be decrease']],
        ['min self delegation above the tokens', editMsg(0, { min_self_delegation: (101n * E18).toString() }), later, ['staking', 16, "validator's self delegation must be greater than their minimum self delegation"]],
      ];
      const got = [];
      for (const [what, m, t] of cases) got.push([what, failure(await send(0, m, t))]);
      expect(got).to.deep.equal(cases.map(([what, , , [cs, code, log]]) => [what, fail(code, cs, log)]));
      // a decrease of any size is allowed (once per 24h)
      await ok(0, editMsg(0, { commission_rate: '0' }), later);
      expect(val(0)!.commission!.commission_rates!.rate).to.equal('0');
    });
  });

  describe('MsgDelegate', () => {
    it('issues shares at the exchange rate, moves tokens to the bonded pool; hooks; EndBlock power update', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      calls.length = 0;
      const res = await s.chain.block([msgTx(s, 1, [delegateMsg(1, 0, 50n * E18)])]);
      const r = res.txResults[0]!;
      expect(r.code, r.log).to.equal(0);
      const bondedText = s.keeper.accCodec.encode(s.keeper.bondedPoolAddress());
      expect(eventList(r)).to.deep.equal([
        ['message', { action: '/chain.staking.v1beta1.MsgDelegate', sender: devKey(1).address, module: 'staking' }],
        ['coin_spent', { spender: devKey(1).address, amount: `${atoms(50n)}achain` }],
        ['coin_received', { receiver: bondedText, amount: `${atoms(50n)}achain` }],
        ['transfer', { recipient: bondedText, sender: devKey(1).address, amount: `${atoms(50n)}achain` }],
        ['message', { sender: devKey(1).address }],
        ['delegate', { validator: valoper(0), amount: `${atoms(50n)}achain`, new_shares: `${atoms(50n)}.000000000000000000` }],
        ['message', { module: 'staking', sender: devKey(1).address }],
      ]);
      expect(res.validatorUpdates.map((u) => u.power)).to.deep.equal([150n]);
      expect(bondedPool(s)).to.equal(150n * E18);
      expect(bal(s, devKey(1).address)).to.equal(950n * E18);
      expect(s.keeper.getDelegation(s.chain.ctx(), acc(1), op(0))?.shares).to.equal(atoms(50n) + '000000000000000000');
      const h = hex(op(0));
      const d = hex(acc(1));
      expect(calls).to.deep.equal([`beforeDelegationCreated(${d},${h})`, `afterDelegationModified(${d},${h})`]);
      calls.length = 0;
      await ok(1, delegateMsg(1, 0, 1n));
      expect(calls).to.deep.equal([`beforeDelegationSharesModified(${d},${h})`, `afterDelegationModified(${d},${h})`]);
    });

    it('refuses', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      const cases: [string, Msg, [string, number, string]][] = [
        ['no delegator', ['MsgDelegate', { delegator_address: '', validator_address: valoper(0), amount: coin(1n) }], ['staking', 18, 'empty delegator address']],
        ['no validator', ['MsgDelegate', { delegator_address: devKey(1).address, validator_address: '', amount: coin(1n) }], ['staking', 2, 'empty validator address']],
        ['zero amount', delegateMsg(1, 0, 0n), ['sdk', 18, 'invalid delegation amount: invalid request']],
        ['unknown validator', delegateMsg(1, 3, 1n), ['staking', 3, 'validator does not exist']],
        ['another denom', delegateMsg(1, 0, 1n, 'foo'), ['sdk', 18, 'invalid coin denomination: got foo, expected achain: invalid request']],
        ['insufficient funds', delegateMsg(1, 0, 1001n * E18), ['sdk', 5, `spendable balance ${atoms(1000n)}achain is smaller than ${atoms(1001n)}achain: insufficient funds`]],
      ];
      const got = [];
      for (const [what, m] of cases) got.push([what, failure(await send(1, m))]);
      expect(got).to.deep.equal(cases.map(([what, , [cs, code, log]]) => [what, fail(code, cs, log)]));
    });
  });

  describe('MsgUndelegate and the unbonding lifecycle', () => {
    it('unbonds at the exchange rate into a queued entry; the completion pays the delegator back', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      await ok(1, delegateMsg(1, 0, 50n * E18));
      calls.length = 0;
      const t = nextTime();
      const res = await s.chain.block([msgTx(s, 1, [undelegateMsg(1, 0, 20n * E18)])]);
      const r = res.txResults[0]!;
      expect(r.code, r.log).to.equal(0);
      const completion = new Date(t.getTime() + UNBONDING_MS);
      const completionText = completion.toISOString().slice(0, 19) + 'Z';
      const bondedText = s.keeper.accCodec.encode(s.keeper.bondedPoolAddress());
      const notBondedText = s.keeper.accCodec.encode(s.keeper.notBondedPoolAddress());
      expect(eventList(r)).to.deep.equal([
        ['message', { action: '/chain.staking.v1beta1.MsgUndelegate', sender: devKey(1).address, module: 'staking' }],
        ['coin_spent', { spender: bondedText, amount: `${atoms(20n)}achain` }],
        ['coin_received', { receiver: notBondedText, amount: `${atoms(20n)}achain` }],
        ['transfer', { recipient: notBondedText, sender: bondedText, amount: `${atoms(20n)}achain` }],
        ['message', { sender: bondedText }],
        ['unbond', { validator: valoper(0), amount: `${atoms(20n)}achain`, completion_time: completionText }],
        ['message', { module: 'staking', sender: devKey(1).address }],
      ]);
      const resp = responseOf(r);
      expect(resp.type_url).to.equal('/chain.staking.v1beta1.MsgUndelegateResponse');
      expect(s.registry.decode('chain.staking.v1beta1.MsgUndelegateResponse', resp.value)).to.deep.equal({ completion_time: { seconds: BigInt(completion.getTime() / 1000), nanos: 0 } });
      expect(res.validatorUpdates.map((u) => u.power)).to.deep.equal([130n]);
      const height = BigInt(s.chain.app.lastHeight);
      expect(s.keeper.getUnbondingDelegation(s.chain.ctx(), acc(1), op(0))).to.deep.equal({
        delegator_address: devKey(1).address, validator_address: valoper(0),
        entries: [{ creation_height: height, completion_time: { seconds: BigInt(completion.getTime() / 1000), nanos: 0 }, initial_balance: atoms(20n), balance: atoms(20n) }],
      });
      expect(s.keeper.getDelegation(s.chain.ctx(), acc(1), op(0))?.shares).to.equal(atoms(30n) + '000000000000000000');
      expect([bondedPool(s), notBondedPool(s), bal(s, devKey(1).address)]).to.deep.equal([130n * E18, 20n * E18, 950n * E18]);
      const d = hex(acc(1));
      const h = hex(op(0));
      expect(calls).to.deep.equal([`beforeDelegationSharesModified(${d},${h})`, `afterDelegationModified(${d},${h})`]);
      assertInvariants(s);

      // one second early: nothing
      const early = await s.chain.block([], { time: new Date(completion.getTime() - 1000) });
      expect(early.events.some((e) => e.type === 'complete_unbonding')).to.equal(false);
      // at the completion time: paid back from the not-bonded pool
      const done = await s.chain.block([], { time: completion });
      expect(eventList({ events: done.events }).filter(([t]) => t === 'complete_unbonding')).to.deep.equal([
        ['complete_unbonding', { amount: `${atoms(20n)}achain`, validator: valoper(0), delegator: devKey(1).address }],
      ]);
      expect([bondedPool(s), notBondedPool(s), bal(s, devKey(1).address)]).to.deep.equal([130n * E18, 0n, 970n * E18]);
      expect(s.keeper.getUnbondingDelegation(s.chain.ctx(), acc(1), op(0))).to.equal(undefined);
      expect(s.keeper.state.UnbondingQueue.iterate(s.chain.ctx()).toArray()).to.deep.equal([]);
    });

    it('refuses, in the SDK order; max entries', async () => {
      await open({ max_entries: 1 });
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      await ok(1, delegateMsg(1, 0, 50n * E18));
      await ok(1, undelegateMsg(1, 0, E18));
      const cases: [string, Msg, [string, number, string]][] = [
        ['no delegator', ['MsgUndelegate', { delegator_address: '', validator_address: valoper(0), amount: coin(1n) }], ['staking', 18, 'empty delegator address']],
        ['no validator', ['MsgUndelegate', { delegator_address: devKey(1).address, validator_address: '', amount: coin(1n) }], ['staking', 2, 'empty validator address']],
        ['zero amount', undelegateMsg(1, 0, 0n), ['sdk', 18, 'invalid shares amount: invalid request']],
        ['unknown validator', undelegateMsg(1, 3, 1n), ['staking', 3, 'validator does not exist']],
        ['no delegation', undelegateMsg(2, 0, 1n), ['staking', 19, 'no delegation for (address, validator) tuple']],
        ['more than delegated', undelegateMsg(1, 0, 50n * E18), ['sdk', 18, 'invalid shares amount: invalid request']],
        ['another denom', undelegateMsg(1, 0, 1n, 'foo'), ['sdk', 18, 'invalid coin denomination: got foo, expected achain: invalid request']],
        ['max entries', undelegateMsg(1, 0, 1n), ['staking', 27, 'too many unbonding delegation entries for (delegator, validator) tuple']],
      ];
      const got = [];
      for (const [what, m] of cases) got.push([what, failure(await send(what === 'no delegation' ? 2 : 1, m))]);
      expect(got).to.deep.equal(cases.map(([what, , [cs, code, log]]) => [what, fail(code, cs, log)]));
    });

    it('the operator unbonding below the min self delegation jails the validator: it leaves the set, unbonds, then is unbonded', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18, { min_self_delegation: (100n * E18).toString() }));
      await ok(1, delegateMsg(1, 0, 50n * E18));
      calls.length = 0;
      const t = nextTime();
      const res = await s.chain.block([msgTx(s, 0, [undelegateMsg(0, 0, E18)])]);
      expect(res.txResults[0]!.code, res.txResults[0]!.log).to.equal(0);
      // jailed: out of the power index, so EndBlock removes it from the set (power 0) and begins unbonding
      expect(res.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 0n]]);
      const v = val(0)!;
      const unbondingEnd = new Date(t.getTime() + UNBONDING_MS);
      expect(v).to.deep.include({ jailed: true, status: 2, tokens: atoms(149n), unbonding_height: BigInt(s.chain.app.lastHeight) });
      expect(v.unbonding_time).to.deep.equal({ seconds: BigInt(unbondingEnd.getTime() / 1000), nanos: 0 });
      expect([bondedPool(s), notBondedPool(s)]).to.deep.equal([0n, 150n * E18]);
      expect(s.keeper.getLastTotalPower(s.chain.ctx())).to.equal(0n);
      expect(s.keeper.getLastValidatorPower(s.chain.ctx(), op(0))).to.equal(0n);
      expect(calls.filter((c) => c.startsWith('afterValidatorBeginUnbonding'))).to.have.length(1);
      // the unbonding entry completes and the validator is unbonded at the same time
      const done = await s.chain.block([], { time: unbondingEnd });
      expect(val(0)!.status).to.equal(1);
      expect(s.keeper.state.ValidatorQueue.iterate(s.chain.ctx()).toArray()).to.deep.equal([]);
      expect(eventList({ events: done.events }).filter(([t2]) => t2 === 'complete_unbonding')).to.have.length(1);
      expect([bondedPool(s), notBondedPool(s), bal(s, devKey(0).address)]).to.deep.equal([0n, 149n * E18, 901n * E18]);
    });

    it('an unbonded validator whose last shares leave is removed (hook AfterValidatorRemoved)', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, E18 / 2n));
      expect(val(0)!.status).to.equal(1);
      calls.length = 0;
      await ok(0, undelegateMsg(0, 0, E18 / 2n));
      expect(val(0)).to.equal(undefined);
      expect(calls.at(-1)).to.match(/^afterValidatorRemoved\(/);
      expect(s.keeper.getValidatorByConsAddr(s.chain.ctx(), s.keeper.consAddress({ consensus_pubkey: s.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey(0) }), operator_address: valoper(0) } as never))).to.equal(undefined);
    });
  });

  describe('MsgBeginRedelegate', () => {
    it('moves the delegation between bonded validators (no pool move); entry, events, completion', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      await ok(1, createValidatorMsg(s, 1, 100n * E18));
      await ok(2, delegateMsg(2, 0, 30n * E18));
      const t = nextTime();
      const res = await s.chain.block([msgTx(s, 2, [redelegateMsg(2, 0, 1, 10n * E18)])]);
      const r = res.txResults[0]!;
      expect(r.code, r.log).to.equal(0);
      const completion = new Date(t.getTime() + UNBONDING_MS);
      expect(eventList(r)).to.deep.equal([
        ['message', { action: '/chain.staking.v1beta1.MsgBeginRedelegate', sender: devKey(2).address, module: 'staking' }],
        ['redelegate', { source_validator: valoper(0), destination_validator: valoper(1), amount: `${atoms(10n)}achain`, completion_time: completion.toISOString().slice(0, 19) + 'Z' }],
        ['message', { module: 'staking', sender: devKey(2).address }],
      ]);
      expect(s.registry.decode('chain.staking.v1beta1.MsgBeginRedelegateResponse', responseOf(r).value)).to.deep.equal({ completion_time: { seconds: BigInt(completion.getTime() / 1000), nanos: 0 } });
      expect(res.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 120n], [toHex(consKey(1)), 110n]]);
      expect(s.keeper.getRedelegation(s.chain.ctx(), acc(2), op(0), op(1))?.entries).to.deep.equal([{
        creation_height: BigInt(s.chain.app.lastHeight), completion_time: { seconds: BigInt(completion.getTime() / 1000), nanos: 0 },
        initial_balance: atoms(10n), shares_dst: atoms(10n) + '000000000000000000',
      }]);
      expect(s.keeper.getDelegation(s.chain.ctx(), acc(2), op(1))?.shares).to.equal(atoms(10n) + '000000000000000000');
      expect([bondedPool(s), notBondedPool(s)]).to.deep.equal([230n * E18, 0n]);

      // a transitive redelegation (from the destination while this one matures) is refused
      expect(failure(await send(2, redelegateMsg(2, 1, 0, E18)))).to.deep.equal(fail(32, 'staking', 'redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation'));
      const done = await s.chain.block([], { time: completion });
      expect(eventList({ events: done.events }).filter(([t2]) => t2 === 'complete_redelegation')).to.deep.equal([
        ['complete_redelegation', { amount: `${atoms(10n)}achain`, delegator: devKey(2).address, source_validator: valoper(0), destination_validator: valoper(1) }],
      ]);
      expect(s.keeper.getRedelegation(s.chain.ctx(), acc(2), op(0), op(1))).to.equal(undefined);
      await ok(2, redelegateMsg(2, 1, 0, E18));
    });

    it('from a bonded to an unbonded validator moves the tokens to the not-bonded pool; from an unbonded one completes at once', async () => {
      await open();
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      await ok(1, createValidatorMsg(s, 1, E18 / 2n)); // below one power unit: unbonded
      await ok(2, delegateMsg(2, 0, 30n * E18));
      await ok(2, redelegateMsg(2, 0, 1, 10n * E18));
      expect(val(1)!.status).to.equal(3); // 10.5 tokens: it entered the set at EndBlock
      await ok(3, createValidatorMsg(s, 3, E18 / 2n));
      await ok(3, delegateMsg(3, 3, E18 / 4n));
      const r = await ok(3, redelegateMsg(3, 3, 0, E18 / 4n));
      expect(s.registry.decode('chain.staking.v1beta1.MsgBeginRedelegateResponse', responseOf(r).value)).to.deep.equal({ completion_time: { seconds: -62135596800n, nanos: 0 } });
      expect(s.keeper.getRedelegation(s.chain.ctx(), acc(3), op(3), op(0))).to.equal(undefined);
      expect(eventList(r).find(([t]) => t === 'redelegate')?.[1].completion_time).to.equal('0001-01-01T00:00:00Z');
    });

    it('refuses, in the SDK order', async () => {
      await open({ max_entries: 1 });
      await ok(0, createValidatorMsg(s, 0, 100n * E18));
      await ok(1, createValidatorMsg(s, 1, 100n * E18));
      await ok(2, delegateMsg(2, 0, 30n * E18));
      await ok(2, redelegateMsg(2, 0, 1, E18));
      const cases: [string, Msg, [string, number, string]][] = [
        ['no delegator', ['MsgBeginRedelegate', { delegator_address: '', validator_src_address: valoper(0), validator_dst_address: valoper(1), amount: coin(1n) }], ['staking', 18, 'empty delegator address']],
        ['no source', ['MsgBeginRedelegate', { delegator_address: devKey(2).address, validator_src_address: '', validator_dst_address: valoper(1), amount: coin(1n) }], ['staking', 2, 'empty validator address']],
        ['no destination', ['MsgBeginRedelegate', { delegator_address: devKey(2).address, validator_src_address: valoper(0), validator_dst_address: '', amount: coin(1n) }], ['staking', 2, 'empty validator address']],
        ['zero amount', redelegateMsg(2, 0, 1, 0n), ['sdk', 18, 'invalid shares amount: invalid request']],
        ['unknown source', redelegateMsg(2, 3, 1, 1n), ['staking', 3, 'validator does not exist']],
        ['more than delegated', redelegateMsg(2, 0, 1, 30n * E18), ['sdk', 18, 'invalid shares amount: invalid request']],
        ['to itself', redelegateMsg(2, 0, 0, 1n), ['staking', 29, 'cannot redelegate to the same validator']],
        ['unknown destination', redelegateMsg(2, 0, 3, 1n), ['staking', 31, 'redelegation destination validator not found']],
        ['max entries', redelegateMsg(2, 0, 1, 1n), ['staking', 33, 'too many redelegation entries for (delegator, src-validator, dst-validator) tuple']],
      ];
      const got = [];
      for (const [what, m] of cases) got.push([what, failure(await send(2, m))]);
      expect(got).to.deep.equal(cases.map(([what, , [cs, code, log]]) => [what, fail(code, cs, log)]));
    });
  });

  it('delegation_test.go: Undelegate/Redelegate from an unbonding, then an unbonded validator; the last shares remove it', async () => {
    await open();
    await ok(0, createValidatorMsg(s, 0, 10n * E18));
    await ok(1, createValidatorMsg(s, 1, 10n * E18));
    await ok(2, delegateMsg(2, 0, 10n * E18));
    // TestUndelegateFromUnbondingValidator: the operator unbonds all its self-delegation → jailed, unbonding
    const t1 = nextTime();
    const r1 = await s.chain.block([msgTx(s, 0, [undelegateMsg(0, 0, 10n * E18)])]);
    expect(r1.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 0n]]);
    const h1 = BigInt(s.chain.app.lastHeight);
    const end1 = { seconds: BigInt((t1.getTime() + UNBONDING_MS) / 1000), nanos: 0 };
    expect(val(0)).to.deep.include({ status: 2, jailed: true, unbonding_height: h1, unbonding_time: end1 });
    const t2 = nextTime();
    await ok(2, undelegateMsg(2, 0, 6n));
    const ubd = s.keeper.getUnbondingDelegation(s.chain.ctx(), acc(2), op(0))!;
    expect(ubd.entries.map((e) => [e.balance, e.creation_height, e.completion_time])).to.deep.equal([
      ['6', BigInt(s.chain.app.lastHeight), { seconds: BigInt((t2.getTime() + UNBONDING_MS) / 1000), nanos: 0 }],
    ]);
    // TestRedelegateFromUnbondingValidator: the entry completes with the source's unbonding (height and time)
    const before = [bondedPool(s), notBondedPool(s)];
    await ok(2, redelegateMsg(2, 0, 1, 4n * E18));
    expect(s.keeper.getRedelegation(s.chain.ctx(), acc(2), op(0), op(1))!.entries.map((e) => [e.creation_height, e.completion_time, e.initial_balance]))
      .to.deep.equal([[h1, end1, (4n * E18).toString()]]);
    // unbonding source → bonded destination: not-bonded → bonded
    expect([bondedPool(s) - before[0]!, before[1]! - notBondedPool(s)]).to.deep.equal([4n * E18, 4n * E18]);
    assertInvariants(s);
    // TestUndelegateFromUnbondedValidator: at the unbonding time the validator is unbonded, kept while shares remain
    await s.chain.block([], { time: new Date(Number(end1.seconds) * 1000) });
    expect(val(0)!.status).to.equal(1);
    // TestRedelegateFromUnbondedValidator: completes at once, no record
    await ok(2, redelegateMsg(2, 0, 1, 1n * E18));
    expect(s.keeper.getRedelegation(s.chain.ctx(), acc(2), op(0), op(1))).to.equal(undefined);
    const left = BigInt(s.keeper.getValidator(s.chain.ctx(), op(0))!.tokens);
    calls.length = 0;
    await ok(2, undelegateMsg(2, 0, left));
    expect(val(0)).to.equal(undefined);
    expect(calls.at(-1)).to.match(/^afterValidatorRemoved\(/);
  });

  it('an unbonding validator left without shares is removed when it matures (hook AfterValidatorRemoved)', async () => {
    await open();
    await ok(0, createValidatorMsg(s, 0, 10n * E18));
    await ok(1, createValidatorMsg(s, 1, 10n * E18));
    const t = nextTime();
    await ok(0, undelegateMsg(0, 0, 10n * E18)); // all of it: jailed, then unbonding at EndBlock
    expect(val(0)).to.deep.include({ status: 2, tokens: '0', delegator_shares: '0' });
    calls.length = 0;
    const end = new Date(t.getTime() + UNBONDING_MS);
    await s.chain.block([], { time: end });
    expect(val(0)).to.equal(undefined);
    expect(calls.filter((c) => c.startsWith('afterValidatorRemoved'))).to.have.length(1);
    expect([bondedPool(s), notBondedPool(s), bal(s, devKey(0).address)]).to.deep.equal([10n * E18, 0n, 1000n * E18]);
  });

  it('BeginBlock keeps historical_entries entries of historical info (older heights pruned)', async () => {
    await open({ historical_entries: 2 });
    await ok(0, createValidatorMsg(s, 0, 10n * E18));
    for (let i = 0; i < 3; i++) await s.chain.block([]);
    const h = s.chain.app.lastHeight;
    const heights = s.keeper.state.HistoricalInfo.iterate(s.chain.ctx()).toArray().map((e) => Number(e.key)).sort((a, b) => a - b);
    expect(heights).to.deep.equal([h - 1, h]);
    expect(s.keeper.getHistoricalInfo(s.chain.ctx(), BigInt(h))?.header?.chain_id).to.equal(s.chain.chainId);
  });

  it('the set is capped at max_validators: a stronger newcomer replaces the weakest (bonded ↔ unbonding, one net pool move)', async () => {
    await open({ max_validators: 2 });
    await ok(0, createValidatorMsg(s, 0, 10n * E18));
    await ok(1, createValidatorMsg(s, 1, 20n * E18));
    const res = await s.chain.block([msgTx(s, 2, [createValidatorMsg(s, 2, 30n * E18)])]);
    expect(res.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(2)), 30n], [toHex(consKey(0)), 0n]]);
    expect([val(0)!.status, val(1)!.status, val(2)!.status]).to.deep.equal([2, 3, 3]);
    expect([bondedPool(s), notBondedPool(s)]).to.deep.equal([50n * E18, 10n * E18]);
    // one net transfer not-bonded → bonded of 30 − 10
    const transfers = eventList({ events: res.events }).filter(([t]) => t === 'transfer');
    expect(transfers.map(([, a]) => a.amount)).to.deep.equal([`${atoms(20n)}achain`]);
    expect(s.keeper.getLastTotalPower(s.chain.ctx())).to.equal(50n);
    // back in: the unbonding validator is bonded again when it outgrows the weakest
    const back = await s.chain.block([msgTx(s, 0, [delegateMsg(0, 0, 15n * E18)])]);
    expect(back.validatorUpdates.map((u) => [toHex(u.pubKey.key), u.power])).to.deep.equal([[toHex(consKey(0)), 25n], [toHex(consKey(1)), 0n]]);
    expect([val(0)!.status, val(1)!.status]).to.deep.equal([3, 2]);
    expect(s.keeper.state.ValidatorQueue.iterate(s.chain.ctx()).toArray().map((e) => e.value.addresses)).to.deep.equal([[valoper(1)]]);
  });
});
