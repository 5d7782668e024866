import { expect } from 'chai';
import { prc10ParamSubspace, PRC10_STORE_KEY } from '../src/index.js';
import { ALICE, codec, deliver, msg, startChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

describe('token: keeper', () => {
  let s: TestSetup;
  beforeEach(async () => {
    s = await startChain();
    const r = await deliver(s, ALICE, msg.issue(s.registry, { owner: ALICE.address }));
    expect(r.code, r.log).to.equal(0);
  });
  afterEach(async () => {
    await s.chain.close();
  });

  it('stores the original layout: 0x01|symbol → Token, 0x02|min_unit and 0x03|owner(20 bytes)|symbol → StringValue(symbol)', () => {
    const kv = s.chain.ctx().kv(PRC10_STORE_KEY);
    const t = s.keeper.getTokenBySymbol(s.chain.ctx(), 'kitty')!;
    expect(kv.get(cat(Uint8Array.of(0x01), utf8('kitty')))).to.deep.equal(s.registry.encode('chain.prc10.Token', t));
    // gogo StringValue{"kitty"}: field 1, length 5
    const symbolValue = cat(Uint8Array.of(0x0a, 5), utf8('kitty'));
    expect(kv.get(cat(Uint8Array.of(0x02), utf8('ukitty')))).to.deep.equal(symbolValue);
    const owner = codec.decode(ALICE.address);
    expect(owner).to.have.length(20);
    expect(kv.get(cat(Uint8Array.of(0x03), owner, utf8('kitty')))).to.deep.equal(symbolValue);
    expect(kv.get(Uint8Array.of(0x00))).to.deep.equal(s.registry.encode('chain.prc10.Params', s.keeper.getParams(s.chain.ctx())));
  });

  it('setParams validates: the ratio in [0, 1], a non-negative fee whose denom is a token; nothing stored otherwise', () => {
    const { ctx } = s.chain.branchCtx();
    const before = s.keeper.getParams(ctx);
    const fee = (denom: string, amount: string) => ({ ...before, issue_token_base_fee: { denom, amount } });
    expect(() => s.keeper.setParams(ctx, { ...before, operate_token_fee_ratio: (2n * 10n ** 18n).toString() })).to.throw('fee ratio for minting tokens [2.000000000000000000] should be between [0, 1]');
    expect(() => s.keeper.setParams(ctx, fee('achain', '-5'))).to.throw('base fee for issuing token should not be negative');
    expect(() => s.keeper.setParams(ctx, fee('nothing', '5'))).to.throw('Token nothing does not exist');
    expect(s.keeper.getParams(ctx)).to.deep.equal(before);
    // any token's symbol or min unit will do
    s.keeper.setParams(ctx, fee('kitty', '5'));
    expect(s.keeper.getParams(ctx).issue_token_base_fee).to.deep.equal({ denom: 'kitty', amount: '5' });
    expect(s.keeper.getIssueTokenFee(ctx, 'ab')).to.deep.equal({ denom: 'ukitty', amount: '5000000' });
  });

  it('the params subspace `token`: IssueTokenBaseFee (a coin) and OperateTokenFeeRatio (a Dec) in amino JSON, validated', () => {
    const { ctx } = s.chain.branchCtx();
    const sub = prc10ParamSubspace(s.keeper);
    expect(sub.name).to.equal('token');
    expect(sub.keys()).to.deep.equal(['IssueTokenBaseFee', 'OperateTokenFeeRatio']);
    expect(sub.getAmino(ctx, 'IssueTokenBaseFee')).to.equal('{"denom":"achain","amount":"500000000000000000000"}');
    expect(sub.getAmino(ctx, 'OperateTokenFeeRatio')).to.equal('"0.100000000000000000"');
    sub.setAmino(ctx, 'OperateTokenFeeRatio', '"0.25"');
    sub.setAmino(ctx, 'IssueTokenBaseFee', '{"denom":"kitty","amount":"3"}');
    expect(s.keeper.getParams(ctx)).to.deep.equal({ issue_token_base_fee: { denom: 'kitty', amount: '3' }, operate_token_fee_ratio: (25n * 10n ** 16n).toString() });
    expect(() => sub.setAmino(ctx, 'OperateTokenFeeRatio', '"1.5"')).to.throw('invalid parameter value: fee ratio for minting tokens [1.500000000000000000] should be between [0, 1]');
    expect(() => sub.setAmino(ctx, 'IssueTokenBaseFee', '{"denom":"achain","amount":"-1"}')).to.throw('invalid parameter value: base fee for issuing token should not be negative');
    expect(() => sub.setAmino(ctx, 'IssueTokenBaseFee', '{"denom":"nothing","amount":"1"}')).to.throw('Token nothing does not exist');
    expect(() => sub.setAmino(ctx, 'IssueTokenBaseFee', '5')).to.throw(/cannot unmarshal number into Go value of type types.Coin/);
    expect(() => sub.getAmino(ctx, 'Nope')).to.throw('parameter Nope not registered');
    expect(s.keeper.getParams(ctx).operate_token_fee_ratio).to.equal((25n * 10n ** 16n).toString());
  });
});
