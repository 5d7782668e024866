/**
 * tendermint/liquidity v1.4.5 `x/liquidity/types/` tests not in ported-types.test.ts, each with the original's
 * cases and expected values: msgs_test.go (ValidateBasic), params_test.go, genesis_test.go, keys_test.go (the byte
 * keys, through our schema's collections), utils_test.go (denom pair, reserve account, sorting, pool naming, coin
 * helpers, overflow checks), liquidity_pool_test.go (Pool.Validate, codec round trips); and the pure checks of
 * `keeper/invariants_test.go` (`TestWithdrawRatioInvariant`, `TestMintingPoolCoinsInvariant`).
 *
 * The original's errors compare by text (`require.EqualError`): a registered error's text is its description; a
 * coin error of ValidateBasic is here sdk 10 (invalid coins) wrapping the original's text (README, Differences),
 * so the tests compare the wrapped text (`context`) and the code.
 */
import { expect } from 'chai';
import { AddressCodec } from '@chain/auth';
import { ProtoRegistry } from '@chain/codec';
import { sha256 } from '@chain/crypto';
import { Dec } from '@chain/math';
import {
  LiquidityErrors, alphabeticalDenomPair, checkOverflow, checkOverflowWithDec, defaultLiquidityGenesis, defaultLiquidityParams,
  getCoinsTotalAmount, getReserveAcc, liquiditySwap, mintingPoolCoinsInvariant, poolCoinDenom, poolName, poolReserveAcc, sortDenoms,
  validateBasicCreatePool, validateBasicDeposit, validateBasicSwap, validateBasicWithdraw, validateLiquidityGenesis, validateLiquidityParams,
  validatePool, validatePoolRecord, validateReserveCoinLimit, withdrawAmountInvariant, LIQUIDITY_PROTO_DIR,
} from '../src/index.js';
import type {
  LiquidityGenesisState, LiquidityParams, MsgCreatePool, MsgDepositWithinBatch, MsgSwapWithinBatch, MsgWithdrawWithinBatch, Pool,
} from '../src/index.js';
import { liquiditySchema } from '../src/keys.js';
import { liquidityParamSubspace } from '../src/index.js';
import { c, codec, dec } from './helpers.js';

const DenomX = 'denomX';
const DenomY = 'denomY';
const cosmos = new AddressCodec('cosmos');
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The text `require.EqualError` compares: a wrapped error's own message (the original's plain error), else the message. */
function errText(f: () => unknown): string {
  try {
    f();
    return '';
  } catch (e) {
    const err = e as { context?: string; message: string };
    return err.context ?? err.message;
  }
}
/** `codespace:code` of the thrown error ('' when none). */
function errCode(f: () => unknown): string {
  try {
    f();
    return '';
  } catch (e) {
    const err = e as { codespace?: string; code?: number };
    return `${err.codespace}:${err.code}`;
  }
}
const isAddress = (t: string): boolean => {
  try {
    codec.decode(t);
    return true;
  } catch {
    return false;
  }
};

describe('liquidity: ported types tests (types/msgs_test.go)', () => {
  // `sdk.AccAddress(crypto.AddressHash([]byte("testAccount")))`
  const addr = codec.encode(sha256(new TextEncoder().encode('testAccount')).slice(0, 20));
  const create = (creator: string, typeId: number, coins: ReturnType<typeof c>[]): MsgCreatePool => ({ pool_creator_address: creator, pool_type_id: typeId, deposit_coins: coins });
  const deposit = (depositor: string, poolId: bigint, coins: ReturnType<typeof c>[]): MsgDepositWithinBatch => ({ depositor_address: depositor, pool_id: poolId, deposit_coins: coins });
  const withdraw = (withdrawer: string, poolCoin: { denom: string; amount: string } | null): MsgWithdrawWithinBatch => ({ withdrawer_address: withdrawer, pool_id: 1n, pool_coin: poolCoin });
  const swap = (requester: string, offer: { denom: string; amount: string } | null, price: string): MsgSwapWithinBatch => ({
    swap_requester_address: requester, pool_id: 1n, swap_type_id: 1, offer_coin: offer, demand_coin_denom: DenomY,
    offer_coin_fee: offer ? { denom: offer.denom, amount: liquiditySwap.offerCoinFee(BigInt(offer.amount || '0') < 0n ? 0n : BigInt(offer.amount || '0'), Dec.withPrec(3, 3)).toString() } : null,
    order_price: price,
  });
  const xy = [c(1000, DenomX), c(1000, DenomY)];

  it('TestMsgCreatePool: ok; type 0 → 37; empty creator → 15; one coin, three coins → 5', () => {
    const cases: [string, MsgCreatePool][] = [
      ['', create(addr, 1, xy)],
      ['invalid index of the pool type', create(addr, 0, xy)],
      ['invalid pool creator address', create('', 1, xy)],
      ['invalid number of reserve coin', create(addr, 1, [c(1000, DenomY)])],
      ['invalid number of reserve coin', create(addr, 1, [...xy, c(1000, 'denomZ')])],
    ];
    expect(cases.map(([, m]) => errText(() => validateBasicCreatePool(m, isAddress)))).to.deep.equal(cases.map(([e]) => e));
  });

  it('TestMsgDepositWithinBatch: ok (pool id 1 and 0: not checked here); empty depositor → 16; one coin → 5', () => {
    const cases: [string, MsgDepositWithinBatch][] = [
      ['', deposit(addr, 1n, xy)],
      ['', deposit(addr, 0n, xy)],
      ['invalid pool depositor address', deposit('', 1n, xy)],
      ['invalid number of reserve coin', deposit(addr, 1n, [c(1000, DenomY)])],
    ];
    expect(cases.map(([, m]) => errText(() => validateBasicDeposit(m, isAddress)))).to.deep.equal(cases.map(([e]) => e));
  });

  it('TestMsgWithdrawWithinBatch: ok; empty withdrawer → 17; zero pool coin → 19', () => {
    const cases: [string, MsgWithdrawWithinBatch][] = [
      ['', withdraw(addr, c(1000, 'poolCoinDenom'))],
      ['invalid pool withdrawer address', withdraw('', c(1000, 'poolCoinDenom'))],
      ['invalid pool coin amount', withdraw(addr, c(0, 'poolCoinDenom'))],
    ];
    expect(cases.map(([, m]) => errText(() => validateBasicWithdraw(m, isAddress)))).to.deep.equal(cases.map(([e]) => e));
  });

  it('TestMsgSwapWithinBatch: ok; empty requester → 18; zero offer → 21; price 0 → 23; offer 1 → 34', () => {
    const offer = c(1000, DenomX);
    const cases: [string, MsgSwapWithinBatch][] = [
      ['', swap(addr, offer, dec('0.1'))],
      ['invalid pool swap requester address', swap('', offer, dec('0.1'))],
      ['invalid offer coin amount', swap(addr, c(0, DenomX), dec('0.1'))],
      ['invalid order price', swap(addr, offer, dec('0'))],
      ['offer amount should be over 100 micro', swap(addr, c(1, DenomX), dec('0.1'))],
    ];
    expect(cases.map(([, m]) => errText(() => validateBasicSwap(m, isAddress)))).to.deep.equal(cases.map(([e]) => e));
  });

  describe('TestMsgValidateBasic', () => {
    const validCoin = c(10000, DenomY);
    const invalidDenomCoin = { denom: '-', amount: '10000' };
    const negativeCoin = { denom: DenomX, amount: '-1' };
    const zeroCoin = { denom: DenomX, amount: '0' };
    const coinsWithInvalidDenom = [invalidDenomCoin, validCoin];
    const coinsWithNegative = [negativeCoin, validCoin];
    const coinsWithZero = [zeroCoin, validCoin];
    const invalidDenomErrMsg = 'invalid denom: -';
    const negativeCoinErrMsg = 'coin -1denomX amount is not positive';
    const negativeAmountErrMsg = 'negative coin amount: -1';
    const zeroCoinErrMsg = 'coin 0denomX amount is not positive';
    const E = (e: { error(): { message: string } }) => e.error().message;
    const L = LiquidityErrors;

    it('MsgCreatePool: the original eight cases and their errors (coin errors as sdk 10)', () => {
      const cases: [MsgCreatePool, string][] = [
        [create('', 0, []), E(L.BadPoolTypeID)],
        [create('', 1, []), E(L.InvalidPoolCreatorAddr)],
        [create(addr, 1, []), E(L.NumOfReserveCoin)],
        [create(addr, 1, coinsWithInvalidDenom), invalidDenomErrMsg],
        [create(addr, 1, coinsWithNegative), negativeCoinErrMsg],
        [create(addr, 1, coinsWithZero), zeroCoinErrMsg],
        [create(addr, 1, [c(1, DenomX)]), E(L.NumOfReserveCoin)], // MinReserveCoinNum − 1
        [create(addr, 1, [c(3, DenomX)]), E(L.NumOfReserveCoin)], // MaxReserveCoinNum + 1
      ];
      expect(cases.map(([m]) => errText(() => validateBasicCreatePool(m, isAddress)))).to.deep.equal(cases.map(([, e]) => e));
      expect(errCode(() => validateBasicCreatePool(create(addr, 1, coinsWithZero), isAddress))).to.equal('sdk:10');
    });

    it('MsgDepositWithinBatch: no coins → 20 (`IsAllPositive` of none is false), the coin errors, one coin → 5', () => {
      const cases: [MsgDepositWithinBatch, string][] = [
        [deposit('', 0n, []), E(L.InvalidDepositorAddr)],
        [deposit(addr, 0n, []), E(L.BadDepositCoinsAmount)],
        [deposit(addr, 0n, coinsWithInvalidDenom), invalidDenomErrMsg],
        [deposit(addr, 0n, coinsWithNegative), negativeCoinErrMsg],
        [deposit(addr, 0n, coinsWithZero), zeroCoinErrMsg],
        [deposit(addr, 0n, [c(1, DenomX)]), E(L.NumOfReserveCoin)],
        [deposit(addr, 0n, [c(3, DenomX)]), E(L.NumOfReserveCoin)],
      ];
      expect(cases.map(([m]) => errText(() => validateBasicDeposit(m, isAddress)))).to.deep.equal(cases.map(([, e]) => e));
    });

    it('MsgWithdrawWithinBatch: empty → 17, invalid denom, negative amount, zero → 19', () => {
      const cases: [MsgWithdrawWithinBatch, string][] = [
        [withdraw('', null), E(L.InvalidWithdrawerAddr)],
        [withdraw(addr, invalidDenomCoin), invalidDenomErrMsg],
        [withdraw(addr, negativeCoin), negativeAmountErrMsg],
        [withdraw(addr, zeroCoin), E(L.BadPoolCoinAmount)],
      ];
      expect(cases.map(([m]) => errText(() => validateBasicWithdraw(m, isAddress)))).to.deep.equal(cases.map(([, e]) => e));
    });

    it('MsgSwap: empty → 18, invalid denom, zero → 21, negative amount, price 0 → 23, offer 1 → 34', () => {
      const one = dec('1.0');
      const cases: [MsgSwapWithinBatch, string][] = [
        [swap('', null, ''), E(L.InvalidSwapRequesterAddr)],
        [swap(addr, invalidDenomCoin, one), invalidDenomErrMsg],
        [swap(addr, zeroCoin, ''), E(L.BadOfferCoinAmount)],
        [swap(addr, negativeCoin, ''), negativeAmountErrMsg],
        [swap(addr, c(10000, DenomX), dec('0')), E(L.BadOrderPrice)],
        [swap(addr, c(1, DenomX), one), E(L.LessThanMinOfferAmount)],
      ];
      expect(cases.map(([m]) => errText(() => validateBasicSwap(m, isAddress)))).to.deep.equal(cases.map(([, e]) => e));
    });
  });
});

describe('liquidity: ported types tests (types/params_test.go, types/genesis_test.go)', () => {
  it('TestParams: the defaults (the creation fee in achain where the original has stake)', () => {
    const p = defaultLiquidityParams();
    expect(p.pool_types).to.deep.equal([{
      id: 1, name: 'StandardLiquidityPool', min_reserve_coin_num: 2, max_reserve_coin_num: 2,
      description: 'Standard liquidity pool with pool price function X/Y, ESPM constraint, and two kinds of reserve coins',
    }]);
    expect([p.min_init_deposit_amount, p.init_pool_coin_mint_amount, p.max_reserve_coin_amount]).to.deep.equal(['1000000', '1000000', '0']);
    expect(p.pool_creation_fee).to.deep.equal([c(40000000, 'achain')]);
    expect([p.swap_fee_rate, p.withdraw_fee_rate, p.max_order_amount_ratio].map((a) => Dec.fromAtomics(a).toString()))
      .to.deep.equal(['0.003000000000000000', '0.000000000000000000', '0.100000000000000000']);
    expect([p.unit_batch_height, p.circuit_breaker_enabled]).to.deep.equal([1, false]);
  });

  // TestParams_Validate: `Params.Validate` and the subspace's validators (`ParamSetPairs`) give the same text
  const poolType = defaultLiquidityParams().pool_types[0]!;
  const paramCases: [string, (p: LiquidityParams) => void, string][] = [
    ['EmptyPoolTypes', (p) => { p.pool_types = []; }, 'pool types must not be empty'],
    ['TooManyPoolTypes', (p) => { p.pool_types = [{ ...poolType }, { ...poolType }]; }, 'pool type ids must be sorted'],
    ['CustomPoolType', (p) => { p.pool_types = [{ ...poolType, name: 'CustomPoolType' }]; }, 'the only supported pool type is 1'],
    ['NilMinInitDepositAmount', (p) => { p.min_init_deposit_amount = ''; }, 'minimum initial deposit amount must not be nil'],
    ['NonPositiveMinInitDepositAmount', (p) => { p.min_init_deposit_amount = '0'; }, 'minimum initial deposit amount must be positive: 0'],
    ['NilInitPoolCoinMintAmount', (p) => { p.init_pool_coin_mint_amount = ''; }, 'initial pool coin mint amount must not be nil'],
    ['NonPositiveInitPoolCoinMintAmount', (p) => { p.init_pool_coin_mint_amount = '0'; }, 'initial pool coin mint amount must be positive: 0'],
    ['TooSmallInitPoolCoinMintAmount', (p) => { p.init_pool_coin_mint_amount = '10'; }, 'initial pool coin mint amount must be greater than or equal to 1000000: 10'],
    ['NilMaxReserveCoinAmount', (p) => { p.max_reserve_coin_amount = ''; }, 'max reserve coin amount must not be nil'],
    ['NegativeMaxReserveCoinAmount', (p) => { p.max_reserve_coin_amount = '-1'; }, 'max reserve coin amount must not be negative: -1'],
    ['NilSwapFeeRate', (p) => { p.swap_fee_rate = ''; }, 'swap fee rate must not be nil'],
    ['NegativeSwapFeeRate', (p) => { p.swap_fee_rate = dec('-1'); }, 'swap fee rate must not be negative: -1.000000000000000000'],
    ['TooLargeSwapFeeRate', (p) => { p.swap_fee_rate = dec('2'); }, 'swap fee rate too large: 2.000000000000000000'],
    ['NilWithdrawFeeRate', (p) => { p.withdraw_fee_rate = ''; }, 'withdraw fee rate must not be nil'],
    ['NegativeWithdrawFeeRate', (p) => { p.withdraw_fee_rate = dec('-1'); }, 'withdraw fee rate must not be negative: -1.000000000000000000'],
    ['TooLargeWithdrawFeeRate', (p) => { p.withdraw_fee_rate = dec('2'); }, 'withdraw fee rate too large: 2.000000000000000000'],
    ['NilMaxOrderAmountRatio', (p) => { p.max_order_amount_ratio = ''; }, 'max order amount ratio must not be nil'],
    ['NegativeMaxOrderAmountRatio', (p) => { p.max_order_amount_ratio = dec('-1'); }, 'max order amount ratio must not be negative: -1.000000000000000000'],
    ['TooLargeMaxOrderAmountRatio', (p) => { p.max_order_amount_ratio = dec('2'); }, 'max order amount ratio too large: 2.000000000000000000'],
    ['EmptyPoolCreationFee', (p) => { p.pool_creation_fee = []; }, 'pool creation fee must not be empty'],
    ['InvalidPoolCreationFeeDenom', (p) => { p.pool_creation_fee = [{ denom: 'invalid denom---', amount: p.pool_creation_fee[0]!.amount }]; }, 'invalid denom: invalid denom---'],
    // the original's `coin 0stake amount is not positive`: the default fee's denom is this chain's achain
    ['NotPositivePoolCreationFeeAmount', (p) => { p.pool_creation_fee = [{ denom: p.pool_creation_fee[0]!.denom, amount: '0' }]; }, 'coin 0achain amount is not positive'],
    ['NonPositiveUnitBatchHeight', (p) => { p.unit_batch_height = 0; }, 'unit batch height must be positive: 0'],
  ];

  it('TestParams_Validate: the defaults are valid; each of the 23 cases through Params.Validate', () => {
    expect(errText(() => validateLiquidityParams(defaultLiquidityParams()))).to.equal('');
    const got = paramCases.map(([name, configure]) => {
      const p = defaultLiquidityParams();
      configure(p);
      return [name, errText(() => validateLiquidityParams(p))];
    });
    expect(got).to.deep.equal(paramCases.map(([name, , e]) => [name, e]));
  });

  it('TestParams_Validate: the same text from the first failing validator of the subspace (`ParamSetPairs`), but the nil cases', () => {
    // each key's value goes through the x/params subspace as amino JSON (getAmino → setAmino, its validator; the
    // subspace prefixes the validator's text with `invalid parameter value: `, the Go test calls ValidatorFn itself);
    // a nil Int / Dec has no amino JSON, so the six Nil cases stay with Params.Validate above
    const got: [string, string][] = [];
    for (const [name, configure, want] of paramCases) {
      if (name.startsWith('Nil')) continue;
      const p = defaultLiquidityParams();
      configure(p);
      const space = liquidityParamSubspace({ getParams: () => p, setParams: () => undefined });
      const ctx = {} as Parameters<typeof space.getAmino>[0];
      let text = '';
      for (const key of space.keys()) {
        text = errText(() => space.setAmino(ctx, key, space.getAmino(ctx, key))).replace(/^invalid parameter value: /, '');
        if (text) break;
      }
      got.push([name, text]);
    }
    expect(got).to.deep.equal(paramCases.filter(([n]) => !n.startsWith('Nil')).map(([n, , e]) => [n, e]));
  });

  it('TestValidateGenesis: invalid params → the params error; a zero pool record → "bad msg index of the batch"', () => {
    const withParams = defaultLiquidityGenesis();
    withParams.params = { ...defaultLiquidityParams(), swap_fee_rate: dec('-1') };
    expect(errText(() => validateLiquidityGenesis(withParams))).to.equal('swap fee rate must not be negative: -1.000000000000000000');
    const withRecord: LiquidityGenesisState = { ...defaultLiquidityGenesis(), pool_records: [{ pool: null, pool_metadata: null, pool_batch: null, deposit_msg_states: [], withdraw_msg_states: [], swap_msg_states: [] }] };
    expect(errText(() => validateLiquidityGenesis(withRecord))).to.equal('bad msg index of the batch');
    expect(errText(() => validateLiquidityGenesis(defaultLiquidityGenesis()))).to.equal('');
  });

  it('TestPoolRecord_Validate: the seven records (one valid; a zero index or one not after the last msg state → ErrBadBatchMsgIndex)', () => {
    const batch = (d: bigint, w: bigint, s: bigint) => ({ pool_id: 0n, index: 0n, begin_height: 0n, deposit_msg_index: d, withdraw_msg_index: w, swap_msg_index: s, executed: false });
    const rec = (b: ReturnType<typeof batch>, dep: bigint[] = [], wd: bigint[] = [], sw: bigint[] = []) => ({
      pool: null, pool_metadata: null, pool_batch: b,
      deposit_msg_states: dep.map((i) => ({ msg_index: i })), withdraw_msg_states: wd.map((i) => ({ msg_index: i })), swap_msg_states: sw.map((i) => ({ msg_index: i })),
    }) as unknown as Parameters<typeof validatePoolRecord>[0];
    const cases: [string, Parameters<typeof validatePoolRecord>[0], boolean][] = [
      ['ValidPoolRecord', rec(batch(1n, 1n, 1n)), false],
      ['InvalidPoolBatchDepositMsgIndex', rec(batch(0n, 1n, 1n)), true],
      ['InvalidPoolBatchWithdrawMsgIndex', rec(batch(0n, 1n, 0n)), true],
      ['InvalidPoolBatchSwapMsgIndex', rec(batch(1n, 1n, 0n)), true],
      ['MismatchingPoolBatchDepositMsgIndex', rec(batch(10n, 1n, 1n), [1n]), true],
      ['MismatchingPoolBatchWithdrawMsgIndex', rec(batch(1n, 10n, 1n), [], [1n]), true],
      ['MismatchingPoolBatchSwapMsgIndex', rec(batch(1n, 1n, 10n), [], [], [1n]), true],
    ];
    for (const [name, r, fails] of cases) expect(errCode(() => validatePoolRecord(r)), name).to.equal(fails ? 'liquidity:32' : '');
  });
});

describe('liquidity: ported types tests (types/keys_test.go TestKeysTestSuite → src/keys.ts collections)', () => {
  const registry = new ProtoRegistry();
  registry.addProtoDir(LIQUIDITY_PROTO_DIR);
  const st = liquiditySchema(registry);
  const u64 = (n: number) => [0, 0, 0, 0, 0, 0, 0, n];
  const bytes = (b: Uint8Array) => Array.from(b);

  it('TestGetLiquidityPoolKey: 0x11 | pool id (8, big-endian) = Pools', () => {
    expect(bytes(st.Pools.encodeKey(9n))).to.deep.equal([0x11, ...u64(9)]);
    expect(bytes(st.Pools.encodeKey(0n))).to.deep.equal([0x11, ...u64(0)]);
  });

  it('TestGetLiquidityPoolByReserveAccIndexKey: 0x12 | len | address = PoolByReserveAcc (20- and 32-byte accounts of the vector denom)', () => {
    const denom = 'poolD35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A23A4';
    const len20 = getReserveAcc(denom, false);
    const len32 = getReserveAcc(denom, true);
    expect(bytes(st.PoolByReserveAcc.prefix)).to.deep.equal([0x12]); // GetPoolByReserveAccIndexKey(nil)
    expect(bytes(st.PoolByReserveAcc.encodeKey(len20))).to.deep.equal([0x12, 0x14, 0xd3, 0x5a, 0xc, 0xc1, 0x6e, 0xe5, 0x98, 0xf9, 0xb, 0x4, 0x4c, 0xe2, 0x96, 0xa4, 0x5, 0xba, 0x9c, 0x38, 0x1e, 0x38]);
    expect(bytes(st.PoolByReserveAcc.encodeKey(len32))).to.deep.equal([0x12, 0x20, 0x87, 0xec, 0x7d, 0x8f, 0xca, 0xee, 0xb0, 0xaa, 0x2, 0x1d, 0xc7, 0xd0, 0x69, 0xb, 0x1e, 0xb8, 0xfb, 0x3e, 0x8e, 0xb1, 0x22, 0x7f, 0x78, 0xae, 0x6c, 0x5e, 0x8a, 0x96, 0xc6, 0x7, 0xc4, 0x98]);
  });

  it('TestGetLiquidityPoolBatchKey: 0x22 | pool id = Batches', () => {
    expect(bytes(st.Batches.encodeKey(10n))).to.deep.equal([0x22, ...u64(10)]);
    expect(bytes(st.Batches.encodeKey(0n))).to.deep.equal([0x22, ...u64(0)]);
  });

  it('TestGetLiquidityPoolBatchDepositMsgsPrefix, TestGetLiquidityPoolBatchWithdrawMsgsPrefix, TestGetLiquidityPoolBatchSwapMsgsPrefix, TestGetLiquidityPoolBatchDepositMsgIndex, TestGetLiquidityPoolBatchWithdrawMsgIndex, TestGetLiquidityPoolBatchSwapMsgIndex: 0x31/0x32/0x33 | pool id | msg index', () => {
    for (const [m, p] of [[st.DepositMsgStates, 0x31], [st.WithdrawMsgStates, 0x32], [st.SwapMsgStates, 0x33]] as const) {
      // the per-pool prefix (GetPoolBatch…MsgStatesPrefix) is the key's first 9 bytes
      expect(bytes(m.encodeKey([10n, 10n]).slice(0, 9))).to.deep.equal([p, ...u64(10)]);
      expect(bytes(m.encodeKey([0n, 0n]).slice(0, 9))).to.deep.equal([p, ...u64(0)]);
      expect(bytes(m.encodeKey([10n, 10n]))).to.deep.equal([p, ...u64(10), ...u64(10)]);
      expect(bytes(m.encodeKey([0n, 0n]))).to.deep.equal([p, ...u64(0), ...u64(0)]);
    }
  });
});

describe('liquidity: ported types tests (types/utils_test.go, types/liquidity_pool_test.go)', () => {
  it('TestAlphabeticalDenomPair: (uCoinA, uCoinB) either way', () => {
    expect(alphabeticalDenomPair('uCoinA', 'uCoinB')).to.deep.equal(['uCoinA', 'uCoinB']);
    expect(alphabeticalDenomPair('uCoinB', 'uCoinA')).to.deep.equal(['uCoinA', 'uCoinB']);
  });

  it('TestGetReserveAcc: the vector denom → cosmos16ddqestwukv0jzcyfn3fdfq9h2wrs83cr4rfm3; short, unprefixed, ibc/ → ErrInvalidDenom (4)', () => {
    expect(cosmos.encode(getReserveAcc('poolD35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A23A4', false))).to.equal('cosmos16ddqestwukv0jzcyfn3fdfq9h2wrs83cr4rfm3');
    for (const d of ['poolD35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A', 'D35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A23A4', 'ibc/D35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A23A4']) {
      expect(errCode(() => getReserveAcc(d, false)), d).to.equal('liquidity:4');
    }
  });

  it('TestSortDenoms: 2, 3 and 4 denoms', () => {
    expect(sortDenoms(['uCoinB', 'uCoinA'])).to.deep.equal(['uCoinA', 'uCoinB']);
    expect(sortDenoms(['uCoinC', 'uCoinA', 'uCoinB'])).to.deep.equal(['uCoinA', 'uCoinB', 'uCoinC']);
    expect(sortDenoms(['uCoinC', 'uCoinA', 'uCoinD', 'uCoinB'])).to.deep.equal(['uCoinA', 'uCoinB', 'uCoinC', 'uCoinD']);
  });

  it('TestGetPoolInformation: pool name, reserve account (20 bytes; 32 with len32), pool coin denom, and back from the denom', () => {
    const cases: [string[], number, string, string, string, boolean][] = [
      [['denomX', 'denomY'], 1, 'denomX/denomY/1', 'cosmos16ddqestwukv0jzcyfn3fdfq9h2wrs83cr4rfm3', 'poolD35A0CC16EE598F90B044CE296A405BA9C381E38837599D96F2F70C2F02A23A4', false],
      [['stake', 'token'], 1, 'stake/token/1', 'cosmos1unfxz7l7q0s3gmmthgwe3yljk0thhg57ym3p6u', 'poolE4D2617BFE03E1146F6BBA1D9893F2B3D77BA29E7ED532BB721A39FF1ECC1B07', false],
      [['uatom', 'uusd'], 2, 'uatom/uusd/2', 'cosmos1xqm0g09czvdp5c7jk0fmz85u7maz52m040eh8g', 'pool3036F43CB8131A1A63D2B3D3B11E9CF6FA2A2B6FEC17D5AD283C25C939614A8C', false],
      [['uatom', 'usdt'], 3, 'uatom/usdt/3', 'cosmos1aqvez6g6wejw8hu35kplycf2taqsfkpj3ns3c5v4dhwazfdzhzastyr290', 'pool93E069B333B5ECEBFE24C6E1437E814003248E0DD7FF8B9F82119F4587449BA5', true],
    ];
    for (const [denoms, typeId, name, acc, denom, len32] of cases) {
      expect(poolName(denoms, typeId)).to.equal(name);
      expect(cosmos.encode(poolReserveAcc(name, len32))).to.equal(acc);
      expect(poolCoinDenom(name)).to.equal(denom);
      expect(cosmos.encode(getReserveAcc(denom, len32))).to.equal(acc);
    }
  });

  it('TestGetCoinsTotalAmount: 200, 400, 500', () => {
    expect(getCoinsTotalAmount([c(100, 'uCoinA'), c(100, 'uCoinB')])).to.equal(200n);
    expect(getCoinsTotalAmount([c(100, 'uCoinA'), c(300, 'uCoinB')])).to.equal(400n);
    expect(getCoinsTotalAmount([c(500, 'uCoinA')])).to.equal(500n);
  });

  it('TestValidateReserveCoinLimit: 0 = no limit; 10^12 with 5·10^11 + 5·10^11 ok; −100 and 10^12 + 100 over 10^12 → 38', () => {
    const cases: [bigint, ReturnType<typeof c>[], boolean][] = [
      [0n, [c(100_000_000_000n, 'uCoinA'), c(100, 'uCoinB')], false],
      [1_000_000_000_000n, [c(500_000_000_000n, 'uCoinA'), c(500_000_000_000n, 'uCoinB')], false],
      [-100n, [c(100_000_000_000n, 'uCoinA'), c(100, 'uCoinB')], true],
      [1_000_000_000_000n, [c(1_000_000_000_000n, 'uCoinA'), c(100, 'uCoinB')], true],
    ];
    for (const [max, coins, fails] of cases) expect(errCode(() => validateReserveCoinLimit(max, coins))).to.equal(fails ? 'liquidity:38' : '');
  });

  it('TestCheckOverflow: 10000 × 100 ok; 10^24 × 10^54 → 41', () => {
    expect(errCode(() => checkOverflow(10000n, 100n))).to.equal('');
    const e18 = 1_000_000_000_000_000_000n;
    expect(errCode(() => checkOverflow(e18 * 1_000_000n, e18 * e18 * e18))).to.equal('liquidity:41');
  });

  it('TestCheckOverflowWithDec: 1.0 and 0.0000001 ok; 10^60 and 10^-18 → 41', () => {
    expect(errCode(() => checkOverflowWithDec(Dec.fromString('1.0'), Dec.fromString('0.0000001')))).to.equal('');
    const big = Dec.fromString('100000000000000000000000000000000000000000000000000000000000.0').mulInt(10n);
    expect(errCode(() => checkOverflowWithDec(big, Dec.fromString('0.000000000000000001')))).to.equal('liquidity:41');
  });

  it('TestUnmarshalerPanics: Pool, PoolBatch, Deposit/Withdraw/SwapMsgState from the byte 0x00 → an error', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(LIQUIDITY_PROTO_DIR);
    for (const t of ['Pool', 'PoolBatch', 'DepositMsgState', 'WithdrawMsgState', 'SwapMsgState']) {
      expect(() => registry.decode(`chain.liquidity.v1beta1.${t}`, Uint8Array.of(0x00)), t).to.throw();
    }
  });

  it('TestLiquidityPoolBatch: Pool.Validate step by step (1, 2, 24, 24, 27, 25, 28, 26, 29, ok) and the codec round trips', () => {
    const enc = (a: Uint8Array) => codec.encode(a);
    const pool: Pool = { id: 0n, type_id: 0, reserve_coin_denoms: [], reserve_account_address: '', pool_coin_denom: '' };
    const steps: [(p: Pool) => void, string][] = [
      [() => undefined, 'liquidity:1'],
      [(p) => { p.id = 1n; }, 'liquidity:2'],
      [(p) => { p.type_id = 1; }, 'liquidity:24'],
      [(p) => { p.reserve_coin_denoms = [DenomY, DenomX, DenomX]; }, 'liquidity:24'],
      [(p) => { p.reserve_coin_denoms = [DenomY, DenomX]; }, 'liquidity:27'],
      [(p) => { p.reserve_coin_denoms = [DenomX, DenomY]; }, 'liquidity:25'],
      [(p) => { p.reserve_account_address = 'badaddress'; }, 'liquidity:28'],
      [(p) => { p.reserve_account_address = enc(poolReserveAcc(poolName(p.reserve_coin_denoms, p.type_id))); }, 'liquidity:26'],
      [(p) => { p.pool_coin_denom = 'badPoolCoinDenom'; }, 'liquidity:29'],
      // as the original: Validate wants the pool coin denom equal to the pool's name
      [(p) => { p.pool_coin_denom = poolName(p.reserve_coin_denoms, p.type_id); }, ''],
    ];
    for (const [step, want] of steps) {
      step(pool);
      expect(errCode(() => validatePool(pool, enc)), JSON.stringify(pool, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).to.equal(want);
    }
    expect(pool.pool_coin_denom).to.equal('denomX/denomY/1');
    expect(codec.decode(pool.reserve_account_address)).to.deep.equal(poolReserveAcc('denomX/denomY/1'));

    const registry = new ProtoRegistry();
    registry.addProtoDir(LIQUIDITY_PROTO_DIR);
    const T = (n: string) => `chain.liquidity.v1beta1.${n}`;
    const round = (t: string, v: object) => registry.decode(T(t), registry.encode(T(t), v as never));
    expect(round('Pool', pool)).to.deep.equal(pool);
    const batch = { pool_id: 1n, index: 1n, begin_height: 0n, deposit_msg_index: 1n, withdraw_msg_index: 1n, swap_msg_index: 1n, executed: false };
    expect(round('PoolBatch', batch)).to.deep.equal(batch);
    const fee = liquiditySwap.offerCoinFee(2000n, Dec.withPrec(3, 3));
    expect(fee).to.equal(3n); // GetOfferCoinFee(2000test, 0.003) = ceil(3)
    const swapState = { exchanged_offer_coin: c(1000, 'test'), remaining_offer_coin: c(1000, 'test'), reserved_offer_coin_fee: c(fee, 'test') };
    const decoded = round('SwapMsgState', swapState) as Record<string, unknown>;
    expect([decoded.exchanged_offer_coin, decoded.remaining_offer_coin, decoded.reserved_offer_coin_fee]).to.deep.equal([c(1000, 'test'), c(1000, 'test'), c(3, 'test')]);
  });
});

describe('liquidity: ported keeper/invariants_test.go (the pure checks)', () => {
  it('TestWithdrawRatioInvariant: (1, 1) of reserves (2, 3) for 1 of 2 pool coins holds; (1, 1) of (2, 5) does not', () => {
    const rate = Dec.fromAtomics(defaultLiquidityParams().withdraw_fee_rate);
    expect(() => withdrawAmountInvariant(1n, 1n, 2n, 3n, 1n, 2n, rate)).not.to.throw();
    expect(() => withdrawAmountInvariant(1n, 1n, 2n, 5n, 1n, 2n, rate)).to.throw('withdraw coin amount 1 differs too much from 2.500000000000000000');
  });

  it('TestMintingPoolCoinsInvariant: the four cases (ok, panics, ok, panics)', () => {
    const cases: [number, number, number, number, number, number, number, number, boolean][] = [
      // supply, mint, reserveA, depositA, refundedA, reserveB, depositB, refundedB, panics
      [10000, 1000, 100000, 10000, 0, 100000, 10000, 0, false],
      [10000, 1000, 100000, 10000, 5000, 100000, 10000, 300, true],
      [3000000, 100, 100000000, 4000, 667, 200000000, 8000, 1334, false],
      [3000000, 100, 100000000, 4000, 0, 200000000, 8000, 1334, true],
    ];
    for (const [supply, mint, ra, da, fa, rb, db, fb, panics] of cases) {
      const B = BigInt;
      const f = () => mintingPoolCoinsInvariant(B(supply), B(mint), B(da), B(db), B(ra), B(rb), B(fa), B(fb));
      if (panics) expect(f).to.throw(/invariant check fails/);
      else expect(f).not.to.throw();
    }
  });

  it('hex helper sanity (reserve account of denomX/denomY/1 is sha256(name)[:20])', () => {
    expect(hex(poolReserveAcc('denomX/denomY/1'))).to.equal('d35a0cc16ee598f90b044ce296a405ba9c381e38');
  });
});
