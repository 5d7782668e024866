import { expect } from 'chai';
import { Errors, GrpcCode, httpStatusOfGrpc } from '@chain/errors';
import { ParamsErrors } from '../src/index.js';
import { branchCtx, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

/** Every subspace and key of the chain's modules with its default value, in the amino JSON of SDK v0.45. */
const DEFAULTS: Record<string, Record<string, string>> = {
  auth: {
    MaxMemoCharacters: '"256"', TxSigLimit: '"7"', TxSizeCostPerByte: '"10"', SigVerifyCostED25519: '"590"', SigVerifyCostSecp256k1: '"1000"',
  },
  bank: { SendEnabled: '[]', DefaultSendEnabled: 'true' },
  staking: { UnbondingTime: '"1814400000000000"', MaxValidators: '100', MaxEntries: '7', HistoricalEntries: '10000', BondDenom: '"stake"' },
  distribution: {
    communitytax: '"0.020000000000000000"', baseproposerreward: '"0.010000000000000000"', bonusproposerreward: '"0.040000000000000000"',
    withdrawaddrenabled: 'true',
  },
  slashing: {
    SignedBlocksWindow: '"100"', MinSignedPerWindow: '"0.500000000000000000"', DowntimeJailDuration: '"600000000000"',
    SlashFractionDoubleSign: '"0.050000000000000000"', SlashFractionDowntime: '"0.010000000000000000"',
  },
  mint: {
    MintDenom: '"stake"', InflationRateChange: '"0.130000000000000000"', InflationMax: '"0.200000000000000000"',
    InflationMin: '"0.070000000000000000"', GoalBonded: '"0.670000000000000000"', BlocksPerYear: '"6311520"',
  },
  evm: { EVMDenom: '"achain"', AllowUnprotectedTxs: 'false', BlockGasLimit: '"30000000"' },
  // BaseFee is the live base fee: 1 gwei at genesis, 7/8 of it after the empty first block
  feemarket: { BaseFeeChangeDenominator: '8', ElasticityMultiplier: '2', BaseFee: '"875000000"', MinGasPrice: '"0.000000000000000000"' },
};

describe('params: Query/Params', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await openChain();
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('knows exactly the subspaces and keys of the modules', () => {
    expect(s.keeper.subspaceNames()).to.deep.equal(Object.keys(DEFAULTS).sort());
    for (const [name, keys] of Object.entries(DEFAULTS)) expect([...s.keeper.subspace(name).keys()], name).to.deep.equal(Object.keys(keys));
  });

  it('answers every key of every subspace with its amino JSON, over ABCI (canonical and /cosmos. path)', async () => {
    for (const [subspace, keys] of Object.entries(DEFAULTS)) {
      for (const [key, value] of Object.entries(keys)) {
        for (const path of ['/chain.params.v1beta1.Query/Params', '/cosmos.params.v1beta1.Query/Params']) {
          const { res, value: v } = await s.chain.query(path, { subspace, key });
          expect(res.code, `${subspace}/${key}: ${res.log}`).to.equal(0);
          expect(v, `${subspace}/${key}`).to.deep.equal({ param: { subspace, key, value } });
        }
      }
    }
  });

  it('writes the gateway JSON of the SDK: {"param":{"subspace","key","value"}}', async () => {
    const { value } = await s.chain.query('/chain.params.v1beta1.Query/Params', { subspace: 'staking', key: 'MaxValidators' });
    expect(s.registry.toJSON('chain.params.v1beta1.QueryParamsResponse', value!, 'cosmos')).to.deep.equal({
      param: { subspace: 'staking', key: 'MaxValidators', value: '100' },
    });
  });

  it('reads the live params of the owning module', () => {
    const { ctx } = branchCtx(s);
    s.sk.setParams(ctx, { ...s.sk.getParams(ctx), max_validators: 42, unbonding_time: { seconds: 172800n, nanos: 0 } });
    s.mk.setParams(ctx, { ...s.mk.getParams(ctx), mintDenom: 'achain' });
    s.bk.setSendEnabled(ctx, 'zzz', false);
    s.bk.setSendEnabled(ctx, 'abc', true);
    expect(s.keeper.getParam(ctx, 'staking', 'MaxValidators')).to.equal('42');
    // the SDK subspace test's duration: 48h is "172800000000000" (hex 2231373238303030303030303030303022)
    const raw = s.keeper.getParam(ctx, 'staking', 'UnbondingTime');
    expect(Buffer.from(raw).toString('hex').toUpperCase()).to.equal('2231373238303030303030303030303022');
    expect(s.keeper.getParam(ctx, 'mint', 'MintDenom')).to.equal('"achain"');
    expect(s.keeper.getParam(ctx, 'bank', 'SendEnabled')).to.equal('[{"denom":"abc","enabled":true},{"denom":"zzz"}]');
    // the committed state is not the branch's
    expect(s.keeper.getParam(s.chain.ctx(), 'staking', 'MaxValidators')).to.equal('100');
  });

  it('refuses an empty subspace or key (InvalidArgument, 400)', async () => {
    for (const req of [{ subspace: '', key: 'MaxValidators' }, { subspace: 'staking', key: '' }]) {
      const { res } = await s.chain.query('/chain.params.v1beta1.Query/Params', req);
      expect(res.code).to.equal(Errors.InvalidRequest.code);
      expect(res.codespace).to.equal('sdk');
      expect(res.log).to.equal('rpc error: code = InvalidArgument desc = invalid request: invalid request');
    }
  });

  it('answers an unknown subspace with params 2 (NotFound, 404)', async () => {
    const { res } = await s.chain.query('/chain.params.v1beta1.Query/Params', { subspace: 'nosuch', key: 'X' });
    expect([res.codespace, res.code, res.log]).to.deep.equal(['params', 2, 'nosuch: unknown subspace']);
    expect(httpStatusOfGrpc(ParamsErrors.UnknownSubspace.grpcCode)).to.equal(404);
  });

  it('answers an unknown key with sdk 22 naming the keys (NotFound, 404)', async () => {
    const { res } = await s.chain.query('/chain.params.v1beta1.Query/Params', { subspace: 'staking', key: 'MaxValidatorz' });
    expect([res.codespace, res.code]).to.deep.equal(['sdk', 22]);
    expect(res.log).to.equal(
      'parameter MaxValidatorz not registered in subspace staking (keys: UnbondingTime, MaxValidators, MaxEntries, HistoricalEntries, BondDenom): key not found',
    );
    expect(Errors.KeyNotFound.grpcCode).to.equal(GrpcCode.NOT_FOUND);
  });
});
