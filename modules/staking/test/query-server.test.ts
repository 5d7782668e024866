import { expect } from 'chai';
import type { ProtoObject } from '@chain/codec';
import { toBase64 } from '@chain/crypto';
import {
  BONDED, DENOM, E18, NOT_BONDED, appGenesis, consKey, dec, devKey, openChain, valoper,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

const Q = '/chain.staking.v1beta1.Query/';
const COSMOS_Q = '/cosmos.staking.v1beta1.Query/';

describe('staking: queries over ABCI', () => {
  let s: TestSetup;
  /** a query's gateway JSON in the Cosmos dialect (what `/cosmos/staking/...` REST routes answer) */
  const json = async (method: string, req: ProtoObject, path = COSMOS_Q): Promise<Record<string, unknown>> => {
    const { res, value } = await s.chain.query(path + method, req);
    expect(res.code, res.log).to.equal(0);
    return s.registry.toJSON(`chain.staking.v1beta1.Query${method}Response`, value!, path === COSMOS_Q ? 'cosmos' : 'chain') as Record<string, unknown>;
  };
  const fails = async (method: string, req: ProtoObject): Promise<{ code: number; codespace: string; log: string }> => {
    const { res } = await s.chain.query(Q + method, req);
    expect(res.code, 'expected an error').to.not.equal(0);
    return { code: res.code, codespace: res.codespace ?? '', log: res.log ?? '' };
  };
  const delegator = (i: number) => devKey(i).address;

  before(async () => {
    s = await openChain({ withHistory: true });
    await s.chain.init(appGenesis());
    await s.chain.block([]); // height 2: the test module writes its historical info
  });
  after(async () => {
    await s.chain.close();
  });

  describe('Validators', () => {
    it('answers every validator in operator-address order, in the SDK JSON shape', async () => {
      const out = await json('Validators', { status: '' });
      const vals = out.validators as Record<string, unknown>[];
      const ops = [valoper(0), valoper(1), valoper(2)];
      const byBytes = [...ops].sort((a, b) => Buffer.compare(s.keeper.valCodec.decode(a), s.keeper.valCodec.decode(b)));
      expect(vals.map((v) => v.operator_address)).to.deep.equal(byBytes);
      const v0 = vals.find((v) => v.operator_address === valoper(0))!;
      expect(v0).to.deep.equal({
        operator_address: valoper(0),
        consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: toBase64(consKey(0)) },
        jailed: false,
        status: 'BOND_STATUS_BONDED',
        tokens: (150n * E18).toString(),
        delegator_shares: '150.000000000000000000',
        description: { moniker: 'node0', identity: '', website: '', security_contact: '', details: '' },
        unbonding_height: '0',
        unbonding_time: '1970-01-01T00:00:00Z',
        commission: {
          commission_rates: { rate: '0.100000000000000000', max_rate: '0.200000000000000000', max_change_rate: '0.010000000000000000' },
          update_time: '2024-01-01T00:00:00Z',
        },
        min_self_delegation: '1',
      });
      expect(out.pagination).to.deep.equal({ next_key: null, total: '3' });
    });

    it('the canonical dialect names the canonical key type', async () => {
      const out = await json('Validators', { status: 'BOND_STATUS_BONDED' }, Q);
      const vals = out.validators as { consensus_pubkey: { '@type': string } }[];
      expect(vals[0]!.consensus_pubkey['@type']).to.equal('/chain.crypto.ed25519.PubKey');
    });

    it('filters by status while paginating (total counts matches only)', async () => {
      const bonded = await json('Validators', { status: 'BOND_STATUS_BONDED', pagination: { count_total: true } });
      expect((bonded.validators as { operator_address: string }[]).map((v) => v.operator_address).sort()).to.deep.equal([valoper(0), valoper(1)].sort());
      expect((bonded.pagination as { total: string }).total).to.equal('2');
      const unbonded = await json('Validators', { status: 'BOND_STATUS_UNBONDED' });
      expect((unbonded.validators as { operator_address: string }[]).map((v) => v.operator_address)).to.deep.equal([valoper(2)]);
      const unbonding = await json('Validators', { status: 'BOND_STATUS_UNBONDING' });
      expect(unbonding.validators).to.deep.equal([]);
    });

    it('pages with limit and next_key', async () => {
      const p1 = await json('Validators', { status: '', pagination: { limit: 2n } }, Q);
      expect((p1.validators as unknown[]).length).to.equal(2);
      const nextKey = (p1.pagination as { next_key: string }).next_key;
      expect(nextKey).to.be.a('string');
      const p2 = await json('Validators', { status: '', pagination: { key: Buffer.from(nextKey, 'base64') } }, Q);
      expect((p2.validators as unknown[]).length).to.equal(1);
      expect((p2.pagination as { next_key: unknown }).next_key).to.equal(null);
    });

    it('refuses an unknown status (InvalidArgument)', async () => {
      for (const status of ['BOND_STATUS_UNSPECIFIED', 'bonded', 'bond_status_bonded', 'toString', 'x']) {
        const e = await fails('Validators', { status });
        expect(e).to.deep.equal({ code: 18, codespace: 'sdk', log: `rpc error: code = InvalidArgument desc = invalid validator status ${status}: invalid request` });
      }
    });
  });

  describe('Validator', () => {
    it('answers one validator', async () => {
      const out = await json('Validator', { validator_addr: valoper(1) });
      const v = out.validator as Record<string, unknown>;
      expect(v.operator_address).to.equal(valoper(1));
      expect(v.tokens).to.equal((900n * E18).toString());
      expect(v.delegator_shares).to.equal('1000.000000000000000000');
    });

    it('not found, empty and invalid addresses', async () => {
      const missing = valoper(7);
      expect(await fails('Validator', { validator_addr: missing })).to.deep.equal({
        code: 22, codespace: 'sdk', log: `rpc error: code = NotFound desc = validator ${missing} not found: key not found`,
      });
      expect((await fails('Validator', { validator_addr: '' })).log).to.equal('rpc error: code = InvalidArgument desc = validator address cannot be empty: invalid request');
      const bad = await fails('Validator', { validator_addr: delegator(0) });
      expect(bad.code).to.equal(18);
      expect(bad.log).to.match(/InvalidArgument desc = invalid validator address: invalid Bech32 prefix; expected chainvaloper, got chain/);
    });
  });

  describe('delegations', () => {
    it('Delegation: shares and the balance at the exchange rate (truncated)', async () => {
      const out = await json('Delegation', { delegator_addr: delegator(3), validator_addr: valoper(1) });
      expect(out).to.deep.equal({
        delegation_response: {
          delegation: { delegator_address: delegator(3), validator_address: valoper(1), shares: '400.000000000000000000' },
          // 400 shares × 900 tokens / 1000 shares
          balance: { denom: DENOM, amount: (360n * E18).toString() },
        },
      });
    });

    it('Delegation errors', async () => {
      expect((await fails('Delegation', { delegator_addr: delegator(2), validator_addr: valoper(0) })).log).to.equal(
        `rpc error: code = NotFound desc = delegation with delegator ${delegator(2)} not found for validator ${valoper(0)}: key not found`,
      );
      expect((await fails('Delegation', { delegator_addr: '', validator_addr: valoper(0) })).log).to.match(/delegator address cannot be empty/);
      expect((await fails('Delegation', { delegator_addr: delegator(0), validator_addr: '' })).log).to.match(/validator address cannot be empty/);
      const bad = await fails('Delegation', { delegator_addr: 'chain1xyz', validator_addr: valoper(0) });
      expect(bad.code).to.equal(18);
      expect(bad.log).to.match(/invalid delegator address/);
    });

    it('ValidatorDelegations: the validator\'s delegations with balances', async () => {
      const out = await json('ValidatorDelegations', { validator_addr: valoper(1), pagination: { count_total: true } });
      const rs = out.delegation_responses as { delegation: { delegator_address: string }; balance: { amount: string } }[];
      const byDel = Object.fromEntries(rs.map((r) => [r.delegation.delegator_address, r.balance.amount]));
      expect(byDel).to.deep.equal({ [delegator(1)]: (540n * E18).toString(), [delegator(3)]: (360n * E18).toString() });
      expect((out.pagination as { total: string }).total).to.equal('2');
      const one = await json('ValidatorDelegations', { validator_addr: valoper(1), pagination: { limit: 1n } });
      expect((one.delegation_responses as unknown[]).length).to.equal(1);
      expect((one.pagination as { next_key: unknown }).next_key).to.be.a('string');
      const none = await json('ValidatorDelegations', { validator_addr: valoper(7) });
      expect(none.delegation_responses).to.deep.equal([]);
      expect((await fails('ValidatorDelegations', { validator_addr: '' })).log).to.match(/validator address cannot be empty/);
    });

    it('DelegatorDelegations: the delegator\'s delegations; none at all is NotFound (v0.45)', async () => {
      const out = await json('DelegatorDelegations', { delegator_addr: delegator(3) });
      const rs = out.delegation_responses as { delegation: { validator_address: string; shares: string }; balance: { denom: string; amount: string } }[];
      expect(rs.map((r) => [r.delegation.validator_address, r.delegation.shares, r.balance.amount]).sort()).to.deep.equal([
        [valoper(0), '50.000000000000000000', (50n * E18).toString()],
        [valoper(1), '400.000000000000000000', (360n * E18).toString()],
      ].sort());
      expect(out.pagination).to.deep.equal({ next_key: null, total: '2' });
      expect((await fails('DelegatorDelegations', { delegator_addr: delegator(5) })).log).to.equal(
        `rpc error: code = NotFound desc = unable to find delegations for address ${delegator(5)}: key not found`,
      );
      expect((await fails('DelegatorDelegations', { delegator_addr: '' })).log).to.match(/delegator address cannot be empty/);
    });

    it('DelegatorValidators and DelegatorValidator', async () => {
      const out = await json('DelegatorValidators', { delegator_addr: delegator(3) });
      expect((out.validators as { operator_address: string }[]).map((v) => v.operator_address).sort()).to.deep.equal([valoper(0), valoper(1)].sort());
      const one = await json('DelegatorValidator', { delegator_addr: delegator(3), validator_addr: valoper(0) });
      expect((one.validator as { description: { moniker: string } }).description.moniker).to.equal('node0');
      // no delegation: the staking error as Internal (v0.45)
      const e = await fails('DelegatorValidator', { delegator_addr: delegator(2), validator_addr: valoper(0) });
      expect(e.log).to.match(/code = Internal desc = no delegation for \(address, validator\) tuple/);
    });
  });

  describe('unbonding delegations', () => {
    const entry = { creation_height: '0', completion_time: '2024-01-22T00:00:00Z', initial_balance: (10n * E18).toString(), balance: (10n * E18).toString() };

    it('UnbondingDelegation', async () => {
      const out = await json('UnbondingDelegation', { delegator_addr: delegator(3), validator_addr: valoper(0) });
      expect(out).to.deep.equal({ unbond: { delegator_address: delegator(3), validator_address: valoper(0), entries: [entry] } });
      expect((await fails('UnbondingDelegation', { delegator_addr: delegator(3), validator_addr: valoper(1) })).log).to.equal(
        `rpc error: code = NotFound desc = unbonding delegation with delegator ${delegator(3)} not found for validator ${valoper(1)}: key not found`,
      );
    });

    it('ValidatorUnbondingDelegations and DelegatorUnbondingDelegations', async () => {
      const byVal = await json('ValidatorUnbondingDelegations', { validator_addr: valoper(0) });
      expect(byVal).to.deep.equal({
        unbonding_responses: [{ delegator_address: delegator(3), validator_address: valoper(0), entries: [entry] }],
        pagination: { next_key: null, total: '1' },
      });
      expect((await json('ValidatorUnbondingDelegations', { validator_addr: valoper(1) })).unbonding_responses).to.deep.equal([]);
      const byDel = await json('DelegatorUnbondingDelegations', { delegator_addr: delegator(3) });
      expect(byDel.unbonding_responses).to.deep.equal(byVal.unbonding_responses);
      expect((await json('DelegatorUnbondingDelegations', { delegator_addr: delegator(0) })).unbonding_responses).to.deep.equal([]);
    });
  });

  describe('Redelegations', () => {
    const expected = () => ({
      redelegation: {
        delegator_address: delegator(3),
        validator_src_address: valoper(0),
        validator_dst_address: valoper(1),
        entries: [{ creation_height: '0', completion_time: '2024-01-22T00:00:00Z', initial_balance: (50n * E18).toString(), shares_dst: '50.000000000000000000' }],
      },
      entries: [{
        redelegation_entry: { creation_height: '0', completion_time: '2024-01-22T00:00:00Z', initial_balance: (50n * E18).toString(), shares_dst: '50.000000000000000000' },
        // 50 shares of validator 1 at 0.9
        balance: (45n * E18).toString(),
      }],
    });

    it('by delegator, by source validator, and the one of a triplet', async () => {
      const byDel = await json('Redelegations', { delegator_addr: delegator(3) });
      expect(byDel).to.deep.equal({ redelegation_responses: [expected()], pagination: { next_key: null, total: '1' } });
      const bySrc = await json('Redelegations', { src_validator_addr: valoper(0) });
      expect(bySrc.redelegation_responses).to.deep.equal([expected()]);
      expect((await json('Redelegations', { src_validator_addr: valoper(1) })).redelegation_responses).to.deep.equal([]);
      const one = await json('Redelegations', { delegator_addr: delegator(3), src_validator_addr: valoper(0), dst_validator_addr: valoper(1) });
      expect(one).to.deep.equal({ redelegation_responses: [expected()], pagination: null });
      // a destination alone is ignored: every redelegation of the delegator
      const dstOnly = await json('Redelegations', { delegator_addr: delegator(3), dst_validator_addr: valoper(2) });
      expect(dstOnly.redelegation_responses).to.deep.equal([expected()]);
    });

    it('a missing triplet is the staking error as Internal; no delegator is an error', async () => {
      const e = await fails('Redelegations', { delegator_addr: delegator(3), src_validator_addr: valoper(1), dst_validator_addr: valoper(0) });
      expect(e.log).to.equal(
        `rpc error: code = Internal desc = redelegation not found for delegator address ${delegator(3)} from validator address ${valoper(1)}: no redelegation found: unknown request`,
      );
      expect((await fails('Redelegations', {})).log).to.equal('rpc error: code = InvalidArgument desc = delegator address cannot be empty: invalid request');
    });
  });

  describe('HistoricalInfo, Pool, Params', () => {
    it('HistoricalInfo: the stored entry; missing is NotFound; negative is InvalidArgument', async () => {
      const out = await json('HistoricalInfo', { height: 2n });
      const hist = out.hist as { header: { chain_id: string; height: string }; valset: { operator_address: string }[] };
      expect(hist.header.chain_id).to.equal('staking-test-1');
      expect(hist.header.height).to.equal('2');
      expect(hist.valset.map((v) => v.operator_address)).to.deep.equal([valoper(1), valoper(0)]);
      expect((await fails('HistoricalInfo', { height: 5n })).log).to.equal('rpc error: code = NotFound desc = historical info for height 5 not found: key not found');
      expect((await fails('HistoricalInfo', { height: -1n })).log).to.equal('rpc error: code = InvalidArgument desc = height cannot be negative: invalid request');
    });

    it('Pool: the pool balances in the bond denom', async () => {
      expect(await json('Pool', {})).to.deep.equal({ pool: { not_bonded_tokens: NOT_BONDED.toString(), bonded_tokens: BONDED.toString() } });
    });

    it('Params', async () => {
      expect(await json('Params', {})).to.deep.equal({
        params: { unbonding_time: '1814400s', max_validators: 2, max_entries: 7, historical_entries: 10000, bond_denom: DENOM },
      });
    });
  });

  it('every query of v0.45 is routed, under both spellings', () => {
    const methods = [
      'Validators', 'Validator', 'ValidatorDelegations', 'ValidatorUnbondingDelegations', 'Delegation', 'UnbondingDelegation',
      'DelegatorDelegations', 'DelegatorUnbondingDelegations', 'Redelegations', 'DelegatorValidators', 'DelegatorValidator',
      'HistoricalInfo', 'Pool', 'Params',
    ];
    for (const m of methods) {
      expect(s.chain.app.router.queryRoute(Q + m), m).to.not.equal(undefined);
      expect(s.chain.app.router.queryRoute(COSMOS_Q + m), m).to.not.equal(undefined);
    }
    // the Msg service is registered too
    expect(s.chain.app.router.allMsgRoutes().filter((r) => r.requestType.startsWith('chain.staking.')).map((r) => r.requestType).sort()).to.deep.equal([
      'chain.staking.v1beta1.MsgBeginRedelegate', 'chain.staking.v1beta1.MsgCreateValidator', 'chain.staking.v1beta1.MsgDelegate',
      'chain.staking.v1beta1.MsgEditValidator', 'chain.staking.v1beta1.MsgUndelegate',
    ]);
  });

  it('dec helper', () => {
    expect(dec(3n)).to.equal('3.000000000000000000');
  });
});
