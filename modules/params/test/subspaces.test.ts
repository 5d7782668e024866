import { expect } from 'chai';
import type { Context } from '@chain/app';
import { authParamSubspace } from '@chain/auth';
import { ParamsKeeper } from '../src/index.js';
import { branchCtx, openChain, thrown } from './helpers.js';
import type { TestSetup } from './helpers.js';

/** [subspace, key, value to set, amino JSON read back, what the owning keeper holds then] */
type Case = [string, string, string, string, (s: TestSetup, ctx: Context) => unknown, unknown];

const CASES: Case[] = [
  ['auth', 'MaxMemoCharacters', '"512"', '"512"', (s, c) => s.ak.getParams(c).max_memo_characters, 512n],
  ['auth', 'SigVerifyCostSecp256k1', '"2000"', '"2000"', (s, c) => s.ak.getParams(c).sig_verify_cost_secp256k1, 2000n],
  ['bank', 'DefaultSendEnabled', 'false', 'false', (s, c) => s.bk.getParams(c).default_send_enabled, false],
  ['staking', 'UnbondingTime', '"1500000000"', '"1500000000"', (s, c) => s.sk.getParams(c).unbonding_time, { seconds: 1n, nanos: 500_000_000 }],
  ['staking', 'MaxValidators', '7', '7', (s, c) => s.sk.getParams(c).max_validators, 7],
  ['staking', 'MaxEntries', '1', '1', (s, c) => s.sk.getParams(c).max_entries, 1],
  ['staking', 'HistoricalEntries', '0', '0', (s, c) => s.sk.getParams(c).historical_entries, 0],
  ['staking', 'BondDenom', '"achain"', '"achain"', (s, c) => s.sk.getParams(c).bond_denom, 'achain'],
  ['distribution', 'communitytax', '"0.05"', '"0.050000000000000000"', (s, c) => s.dk.getParams(c).communityTax.toString(), '0.050000000000000000'],
  ['distribution', 'withdrawaddrenabled', 'false', 'false', (s, c) => s.dk.getParams(c).withdrawAddrEnabled, false],
  ['slashing', 'SignedBlocksWindow', '"10000"', '"10000"', (s, c) => s.slk.getParams(c).signedBlocksWindow, 10000n],
  ['slashing', 'MinSignedPerWindow', '"0.05"', '"0.050000000000000000"', (s, c) => s.slk.getParams(c).minSignedPerWindow.toString(), '0.050000000000000000'],
  ['slashing', 'DowntimeJailDuration', '"60000000000"', '"60000000000"', (s, c) => s.slk.getParams(c).downtimeJailDuration, 60_000_000_000n],
  ['slashing', 'SlashFractionDoubleSign', '"1"', '"1.000000000000000000"', (s, c) => s.slk.getParams(c).slashFractionDoubleSign.toString(), '1.000000000000000000'],
  ['mint', 'MintDenom', '"achain"', '"achain"', (s, c) => s.mk.getParams(c).mintDenom, 'achain'],
  ['mint', 'GoalBonded', '"0.5"', '"0.500000000000000000"', (s, c) => s.mk.getParams(c).goalBonded.toString(), '0.500000000000000000'],
  ['mint', 'BlocksPerYear', '"100"', '"100"', (s, c) => s.mk.getParams(c).blocksPerYear, 100n],
  ['evm', 'AllowUnprotectedTxs', 'true', 'true', (s, c) => s.ek.getParams(c).allow_unprotected_txs, true],
  ['evm', 'BlockGasLimit', '"40000000"', '"40000000"', (s, c) => s.ek.getParams(c).block_gas_limit, 40_000_000n],
  ['feemarket', 'BaseFeeChangeDenominator', '50', '50', (s, c) => s.ek.getParams(c).base_fee_change_denominator, 50],
  ['feemarket', 'ElasticityMultiplier', '4', '4', (s, c) => s.ek.getParams(c).elasticity_multiplier, 4],
  ['feemarket', 'BaseFee', '"7"', '"7"', (s, c) => s.ek.getBaseFee(c), 7n],
  ['feemarket', 'MinGasPrice', '"5"', '"5.000000000000000000"', (s, c) => s.ek.getParams(c).min_gas_price, '5'],
];

/** [subspace, key, value, the error's reason (inside `key: …, value: …, err: <reason>: failed to set parameter`)] */
const BAD: [string, string, string, string][] = [
  // go-amino: 64-bit integers (and durations) only quoted
  ['auth', 'TxSigLimit', '7', 'invalid character -- Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support'],
  ['auth', 'TxSigLimit', '"-1"', 'json: cannot unmarshal number -1 into Go value of type uint64'],
  ['auth', 'TxSigLimit', '"18446744073709551616"', 'json: cannot unmarshal number 18446744073709551616 into Go value of type uint64'],
  // encoding/json: uint32 only bare
  ['staking', 'MaxValidators', '"7"', 'json: cannot unmarshal string into Go value of type uint32'],
  ['staking', 'MaxValidators', '1.5', 'json: cannot unmarshal number 1.5 into Go value of type uint32'],
  ['staking', 'MaxValidators', '4294967296', 'json: cannot unmarshal number 4294967296 into Go value of type uint32'],
  ['bank', 'DefaultSendEnabled', '1', 'json: cannot unmarshal number into Go value of type bool'],
  ['staking', 'BondDenom', 'achain', "invalid character 'a' looking for beginning of value"],
  ['staking', 'BondDenom', '"1x"', 'invalid parameter value: invalid denom: 1x'],
  ['staking', 'BondDenom', '" "', 'invalid parameter value: bond denom cannot be blank'],
  ['staking', 'UnbondingTime', '"-5"', 'invalid parameter value: unbonding time must be positive: -5'],
  ['slashing', 'DowntimeJailDuration', '"0"', 'invalid parameter value: downtime jail duration must be positive: 0s'],
  ['slashing', 'SignedBlocksWindow', '"0"', 'invalid parameter value: signed blocks window must be positive: 0'],
  // sdk.Dec: quoted, at most 18 decimals, in range
  ['slashing', 'MinSignedPerWindow', '0.5', 'json: cannot unmarshal number into Go value of type string'],
  ['slashing', 'MinSignedPerWindow', '"0.1234567890123456789"', 'invalid precision; max: 18, got: 19'],
  ['slashing', 'MinSignedPerWindow', '"1.5"', 'invalid parameter value: min signed per window too large: 1.500000000000000000'],
  ['slashing', 'SlashFractionDowntime', '"-0.1"', 'invalid parameter value: downtime slash fraction cannot be negative: -0.100000000000000000'],
  ['distribution', 'communitytax', '"-0.01"', 'invalid parameter value: community tax must be positive: -0.010000000000000000'],
  ['mint', 'InflationMin', '"0.3"', 'max inflation (0.200000000000000000) must be greater than or equal to min inflation (0.300000000000000000)'],
  ['mint', 'BlocksPerYear', '"0"', 'invalid parameter value: blocks per year must be positive: 0'],
  ['mint', 'MintDenom', '""', 'invalid parameter value: mint denom cannot be blank'],
  ['evm', 'EVMDenom', '"x"', 'invalid parameter value: invalid denom: x'],
  ['evm', 'BlockGasLimit', '"20000"', 'block_gas_limit must be at least 21000: invalid evm params'],
  ['feemarket', 'BaseFeeChangeDenominator', '0', 'invalid parameter value: base fee change denominator cannot be 0'],
  ['feemarket', 'ElasticityMultiplier', '0', 'elasticity_multiplier must be positive: invalid evm params'],
  ['feemarket', 'BaseFee', '"-1"', 'invalid parameter value: base fee cannot be negative'],
  ['feemarket', 'BaseFee', '7', 'json: cannot unmarshal number into Go value of type string'],
  ['feemarket', 'MinGasPrice', '"0.5"', 'invalid parameter value: min gas price must be an integer: 0.500000000000000000'],
  ['bank', 'SendEnabled', '[{"denom":"abc","enabled":true},{"denom":"abc"}]', "invalid parameter value: duplicate send enabled parameter found: 'abc'"],
  ['bank', 'SendEnabled', '[{"denom":"1x","enabled":true}]', 'invalid parameter value: invalid denom: 1x'],
  ['bank', 'SendEnabled', '{"denom":"abc"}', 'json: cannot unmarshal object into Go value of type types.SendEnabledParams'],
];

describe('params: the modules\' subspaces', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain();
  });
  afterEach(async () => {
    await s.chain.close();
  });

  for (const [subspace, key, value, out, read, expected] of CASES) {
    it(`${subspace}/${key} = ${value}: stored in the module's params, read back as ${out}`, () => {
      const { ctx } = branchCtx(s);
      s.keeper.setParam(ctx, { subspace, key, value });
      expect(s.keeper.getParam(ctx, subspace, key)).to.equal(out);
      expect(read(s, ctx)).to.deep.equal(expected);
    });
  }

  for (const [subspace, key, value, reason] of BAD) {
    it(`${subspace}/${key} = ${value} is refused: ${reason}`, () => {
      const { ctx, state } = branchCtx(s);
      const before = s.keeper.getParam(ctx, subspace, key);
      const err = thrown(() => s.keeper.setParam(ctx, { subspace, key, value })) as Error & { codespace: string; code: number };
      expect([err.codespace, err.code]).to.deep.equal(['params', 3]);
      expect(err.message).to.equal(`key: ${key}, value: ${value}, err: ${reason}: failed to set parameter`);
      expect(s.keeper.getParam(ctx, subspace, key)).to.equal(before);
      expect(state.changes()).to.deep.equal([]);
    });
  }

  it('bank SendEnabled: a change replaces the whole list, which bank then enforces', () => {
    const { ctx } = branchCtx(s);
    s.bk.setSendEnabled(ctx, 'old', false);
    s.keeper.setParam(ctx, { subspace: 'bank', key: 'SendEnabled', value: '[{"denom":"stake"},{"denom":"achain","enabled":true}]' });
    expect(s.keeper.getParam(ctx, 'bank', 'SendEnabled')).to.equal('[{"denom":"achain","enabled":true},{"denom":"stake"}]');
    expect(s.bk.getSendEnabled(ctx, 'old')).to.equal(undefined);
    expect(() => s.bk.isSendEnabledCoins(ctx, [{ denom: 'stake', amount: '1' }])).to.throw(/stake transfers are currently disabled/);
    s.bk.isSendEnabledCoins(ctx, [{ denom: 'achain', amount: '1' }]);
  });

  // x/params types/subspace_test.go TestUpdate, on staking's UnbondingTime
  it('Update: an unregistered key fails, an invalid value keeps the old one, a valid one replaces it', () => {
    const { ctx } = branchCtx(s);
    const ss = s.keeper.subspace('staking');
    expect(() => ss.setAmino(ctx, 'invalid_key', '"1"')).to.throw('parameter invalid_key not registered');
    ss.setAmino(ctx, 'UnbondingTime', JSON.stringify((48n * 3600n * 10n ** 9n).toString()));
    expect(() => ss.setAmino(ctx, 'UnbondingTime', '"0"')).to.throw('invalid parameter value: unbonding time must be positive: 0');
    expect(ss.getAmino(ctx, 'UnbondingTime')).to.equal('"172800000000000"');
    ss.setAmino(ctx, 'UnbondingTime', JSON.stringify((360n * 3600n * 10n ** 9n).toString()));
    expect(s.sk.getParams(ctx).unbonding_time).to.deep.equal({ seconds: 360n * 3600n, nanos: 0 });
    expect(() => ss.getAmino(ctx, 'invalid_key')).to.throw('parameter invalid_key not registered');
  });

  it('a subspace name is registered once', () => {
    const k = new ParamsKeeper({ subspaces: [authParamSubspace(s.ak)] });
    expect(() => k.addSubspace(authParamSubspace(s.ak))).to.throw('params keeper: subspace auth is already registered');
  });
});
