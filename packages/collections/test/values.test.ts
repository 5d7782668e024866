import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import {
  EncodingError,
  boolValue,
  bytesValue,
  jsonValue,
  intValue,
  keyAsValue,
  lazyProtoValue,
  pairKey,
  protoValue,
  stringKey,
  stringValue,
  uint64Key,
  uint64Value,
} from '../src/index.js';
import { fromHex, hex, u } from './helpers.js';

describe('value codecs', () => {
  it('bytesValue stores the bytes as they are', () => {
    const v = u(1, 2, 3);
    expect(bytesValue.encode(v)).to.equal(v);
    expect(bytesValue.decode(v)).to.equal(v);
    expect(() => bytesValue.encode([1] as unknown as Uint8Array)).to.throw(EncodingError);
  });

  it('stringValue is UTF-8 and refuses invalid UTF-8', () => {
    for (const s of ['', 'abc', 'é😀', '\ufeff', 'x'.repeat(100)]) expect(stringValue.decode(stringValue.encode(s))).to.equal(s);
    expect(hex(stringValue.encode('ab'))).to.equal('6162');
    expect(() => stringValue.decode(fromHex('c328'))).to.throw(EncodingError, /invalid UTF-8/);
  });

  it('uint64Value is 8 bytes big-endian (SDK Uint64Value = KeyToValueCodec(Uint64Key))', () => {
    expect(hex(uint64Value.encode(1n))).to.equal('0000000000000001');
    for (const n of [0n, 1n, 2n ** 53n + 1n, 2n ** 64n - 1n]) expect(uint64Value.decode(uint64Value.encode(n))).to.equal(n);
    expect(() => uint64Value.decode(u(1))).to.throw(EncodingError, /want 8 bytes, got 1/);
    expect(() => uint64Value.encode(-1n)).to.throw(EncodingError);
    expect(() => uint64Value.encode(2n ** 64n)).to.throw(EncodingError);
  });

  it('boolValue is one byte 0x00 / 0x01 and refuses anything else', () => {
    expect(hex(boolValue.encode(true))).to.equal('01');
    expect(hex(boolValue.encode(false))).to.equal('00');
    expect(boolValue.decode(u(1))).to.equal(true);
    expect(boolValue.decode(u(0))).to.equal(false);
    expect(() => boolValue.decode(u(2))).to.throw(EncodingError, /0x02/);
    expect(() => boolValue.decode(u(1, 0))).to.throw(EncodingError);
    expect(() => boolValue.decode(u())).to.throw(EncodingError);
  });

  it('jsonValue round-trips plain data and refuses bigint, undefined and corrupted JSON', () => {
    const c = jsonValue<{ a: number; b: string[]; c: null }>();
    const v = { a: 1, b: ['x', 'é'], c: null };
    expect(c.decode(c.encode(v))).to.deep.equal(v);
    expect(new TextDecoder().decode(c.encode(v))).to.equal('{"a":1,"b":["x","é"],"c":null}');
    expect(() => jsonValue<unknown>().encode({ n: 1n })).to.throw(EncodingError, /json value/);
    expect(() => jsonValue<unknown>().encode(undefined)).to.throw(EncodingError, /no JSON form/);
    expect(() => c.decode(new TextEncoder().encode('{"a":'))).to.throw(EncodingError, /json value/);
  });

  describe('protoValue', () => {
    const registry = new ProtoRegistry();
    type Coin = { denom: string; amount: string };
    const coin = protoValue<Coin>(registry, 'chain.base.v1beta1.Coin');

    it('encodes through the registry and decodes to a plain snake_case object', () => {
      const bytes = coin.encode({ denom: 'uatom', amount: '42' });
      expect(hex(bytes)).to.equal(hex(registry.encode('chain.base.v1beta1.Coin', { denom: 'uatom', amount: '42' })));
      expect(hex(bytes)).to.equal('0a057561746f6d' + '12023432');
      expect(coin.decode(bytes)).to.deep.equal({ denom: 'uatom', amount: '42' });
      expect(coin.valueType).to.equal('proto:chain.base.v1beta1.Coin');
    });

    it('throws on corrupted bytes', () => {
      const bytes = coin.encode({ denom: 'uatom', amount: '42' });
      expect(() => coin.decode(bytes.subarray(0, 4))).to.throw(EncodingError, /proto value chain.base.v1beta1.Coin/);
      expect(() => coin.decode(u(0x0f))).to.throw(EncodingError);
    });

    it('refuses an unknown type up front', () => {
      expect(() => protoValue(registry, 'chain.nope.v1.Nope')).to.throw(EncodingError, /unknown message type chain.nope.v1.Nope/);
    });
  });

  it('keyAsValue stores a key codec\'s terminal encoding (SDK KeyToValueCodec)', () => {
    const v = keyAsValue(pairKey(stringKey, uint64Key));
    expect(hex(v.encode(['a', 1n]))).to.equal('6100' + '0000000000000001');
    expect(v.decode(v.encode(['a', 1n]))).to.deep.equal(['a', 1n]);
  });

  it('intValue is the SDK\'s sdk.IntValue: decimal text, strict on decode', () => {
    for (const v of [0n, 7n, -12n, 10n ** 30n, -(10n ** 20n)]) {
      expect(Buffer.from(intValue.encode(v)).toString()).to.equal(v.toString());
      expect(intValue.decode(intValue.encode(v))).to.equal(v);
    }
    for (const bad of ['', '-', '1x', ' 1', '+1']) expect(() => intValue.decode(new TextEncoder().encode(bad)), bad).to.throw(EncodingError);
  });

  it('lazyProtoValue resolves its type on first use (a schema may be declared before the protos load)', () => {
    const registry = new ProtoRegistry();
    const later = lazyProtoValue<{ denom: string; amount: string }>(registry, 'chain.base.v1beta1.Coin');
    expect(later.decode(later.encode({ denom: 'a', amount: '1' }))).to.deep.equal({ denom: 'a', amount: '1' });
    const unknown = lazyProtoValue(registry, 'chain.nope.v1.Nope');
    expect(() => unknown.encode({})).to.throw(EncodingError, /unknown message type chain.nope.v1.Nope/);
  });
});
