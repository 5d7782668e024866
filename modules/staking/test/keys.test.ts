import { expect } from 'chai';
import { toHex } from '@chain/crypto';
import { formatTimeKey, tokensFromSharesTruncated } from '../src/index.js';
import { E18, appGenesis, codec, devKey, openChain, valoper } from './helpers.js';
import type { TestSetup } from './helpers.js';

const hex = (b: Uint8Array): string => toHex(b);
const lp = (b: Uint8Array): string => (b.length.toString(16).padStart(2, '0')) + hex(b);
const ascii = (s: string): string => Buffer.from(s, 'latin1').toString('hex');

describe('staking: store layout (SDK v0.45 x/staking/types/keys.go)', () => {
  let s: TestSetup;
  /** every raw key → value of the staking store, hex */
  let raw: Map<string, string>;
  before(async () => {
    s = await openChain({ withHistory: true });
    await s.chain.init(appGenesis());
    await s.chain.block([]);
    raw = new Map();
    for (const [k, v] of s.chain.ctx().kv('staking').iterator(undefined, undefined, false)) raw.set(hex(k), hex(v));
  });
  after(async () => {
    await s.chain.close();
  });

  const op = (i: number) => s.keeper.valCodec.decode(valoper(i));
  const acc = (i: number) => codec.decode(devKey(i).address);

  it('0x11 last validator power: lp(operator) → Int64Value; 0x12 last total power → IntProto', () => {
    expect(raw.get('11' + lp(op(1)))).to.equal('088407'); // field 1, 900 = varint 0x84 0x07
    expect(raw.get('12')).to.equal('0a04' + ascii('1050'));
  });

  it('0x21 validators, 0x22 by consensus address → raw operator', () => {
    expect(raw.has('21' + lp(op(0)))).to.equal(true);
    const v0 = s.keeper.getValidator(s.chain.ctx(), op(0))!;
    expect(raw.get('22' + lp(s.keeper.consAddress(v0)))).to.equal(hex(op(0)));
  });

  it('0x23 power index: 8-byte power | len | inverted operator → raw operator', () => {
    const inv = (b: Uint8Array) => Uint8Array.from(b, (x) => ~x & 0xff);
    const key = (power: bigint, i: number) => '23' + power.toString(16).padStart(16, '0') + lp(inv(op(i)));
    expect(raw.get(key(900n, 1))).to.equal(hex(op(1)));
    expect(raw.get(key(150n, 0))).to.equal(hex(op(0)));
    expect(raw.get(key(5n, 2))).to.equal(hex(op(2)));
  });

  it('0x31 delegations, 0x32 unbonding delegations, 0x33 their index by validator', () => {
    expect(raw.has('31' + lp(acc(3)) + lp(op(1)))).to.equal(true);
    expect(raw.has('32' + lp(acc(3)) + lp(op(0)))).to.equal(true);
    expect(raw.get('33' + lp(op(0)) + lp(acc(3)))).to.equal('');
  });

  it('0x34 redelegations, 0x35 / 0x36 their indexes by source and destination', () => {
    expect(raw.has('34' + lp(acc(3)) + lp(op(0)) + lp(op(1)))).to.equal(true);
    expect(raw.get('35' + lp(op(0)) + lp(acc(3)) + lp(op(1)))).to.equal('');
    expect(raw.get('36' + lp(op(1)) + lp(acc(3)) + lp(op(0)))).to.equal('');
  });

  it('0x41 / 0x42 queues keyed by the formatted completion time', () => {
    const t = ascii('2024-01-22T00:00:00.000000000');
    expect(raw.has('41' + t)).to.equal(true);
    expect(raw.has('42' + t)).to.equal(true);
    const pairs = s.keeper.state.UnbondingQueue.get(s.chain.ctx(), '2024-01-22T00:00:00.000000000');
    expect(pairs).to.deep.equal({ pairs: [{ delegator_address: devKey(3).address, validator_address: valoper(0) }] });
  });

  it('0x43 validator queue: 8-byte time length | time | 8-byte height', () => {
    const k = s.keeper.state.ValidatorQueue.keyCodec.encode(['2024-02-01T00:00:00.500000000', 7n]);
    expect(hex(k)).to.equal('000000000000001d' + ascii('2024-02-01T00:00:00.500000000') + '0000000000000007');
  });

  it('0x50 historical info keyed by the decimal height; 0x51 params', () => {
    expect(raw.has('50' + ascii('2'))).to.equal(true);
    expect(raw.has('51')).to.equal(true);
  });

  it('no other keys', () => {
    const prefixes = new Set([...raw.keys()].map((k) => k.slice(0, 2)));
    expect([...prefixes].sort()).to.deep.equal(['11', '12', '21', '22', '23', '31', '32', '33', '34', '35', '36', '41', '42', '50', '51']);
  });
});

describe('staking: numbers', () => {
  it('formatTimeKey is Go\'s FormatTimeBytes', () => {
    expect(formatTimeKey({ seconds: 1705881600n, nanos: 5 })).to.equal('2024-01-22T00:00:00.000000005');
    expect(formatTimeKey({ seconds: 0n, nanos: 0 })).to.equal('1970-01-01T00:00:00.000000000');
    expect(formatTimeKey(null)).to.equal('0001-01-01T00:00:00.000000000');
  });

  it('TokensFromShares(shares).TruncateInt(): Quo rounds half to even at 18 decimals, then truncates', () => {
    // 1:1
    expect(tokensFromSharesTruncated(5n * E18, 5n, 5n * E18)).to.equal(5n);
    // 400 shares × 900 tokens / 1000 shares = 360
    expect(tokensFromSharesTruncated(400n * E18, 900n * E18, 1000n * E18)).to.equal(360n * E18);
    // 1 share of 3 shares over 2 tokens = 0.666… → 0
    expect(tokensFromSharesTruncated(E18, 2n, 3n * E18)).to.equal(0n);
    // 2 of 3 shares of 5 tokens = 3.333… → 3
    expect(tokensFromSharesTruncated(2n * E18, 5n, 3n * E18)).to.equal(3n);
    // shares 99.99999999999999999, 1 token, 20 delegator shares: 4.9999999999999999995 exactly; Dec.Quo
    // rounds the half atto to even (…999 is odd: up) to 5.000000000000000000, so the balance is 5, not
    // the 4 a plain floor of s·t/d gives
    expect(tokensFromSharesTruncated(99999999999999999990n, 1n, 20n * E18)).to.equal(5n);
    expect((99999999999999999990n * 1n) / (20n * E18)).to.equal(4n);
    // half to even the other way: 0.0000000000000000005 → 0 (even)
    expect(tokensFromSharesTruncated(1n, 1n, 2n * E18)).to.equal(0n);
    expect(() => tokensFromSharesTruncated(1n, 1n, 0n)).to.throw(/division by zero/);
  });
});
