import { expect } from 'chai';
import { ChainHaltError, aminoJson, decTextToAtomics, defineParamSubspace, isChainHalt, paramKey } from '../src/index.js';
import type { Context } from '../src/index.js';

describe('param subspaces and amino JSON', () => {
  it('encodes the SDK v0.45 amino JSON of each scalar type', () => {
    expect(aminoJson.uint64.encode(256n)).to.equal('"256"');
    expect(aminoJson.int64.encode(-5n)).to.equal('"-5"');
    expect(aminoJson.uint32.encode(100)).to.equal('100');
    expect(aminoJson.bool.encode(true)).to.equal('true');
    expect(aminoJson.string.encode('stake')).to.equal('"stake"');
    expect(aminoJson.decAtomics.encode('500000000000000000')).to.equal('"0.500000000000000000"');
    expect(aminoJson.decAtomics.encode('')).to.equal('"0.000000000000000000"');
    expect(aminoJson.decAtomics.encode('-1')).to.equal('"-0.000000000000000001"');
    expect(aminoJson.duration.encode({ seconds: 1814400n, nanos: 0 })).to.equal('"1814400000000000"');
    expect(aminoJson.duration.encode(null)).to.equal('"0"');
    expect(aminoJson.int.encode(10n ** 30n)).to.equal('"1000000000000000000000000000000"');
    expect(aminoJson.coins.encode([{ denom: 'achain', amount: '10' }])).to.equal('[{"denom":"achain","amount":"10"}]');
  });

  it('decodes as go-amino and encoding/json do, with their texts', () => {
    expect(aminoJson.uint64.decode('"18446744073709551615"')).to.equal(2n ** 64n - 1n);
    expect(() => aminoJson.uint64.decode('5')).to.throw('Amino:JSON int/int64/uint/uint64 expects quoted values');
    expect(() => aminoJson.int64.decode('"9223372036854775808"')).to.throw('json: cannot unmarshal number 9223372036854775808 into Go value of type int64');
    expect(aminoJson.int64.decode('"-9223372036854775808"')).to.equal(-(2n ** 63n));
    expect(aminoJson.uint32.decode(' 7 ')).to.equal(7);
    expect(() => aminoJson.uint32.decode('-1')).to.throw('json: cannot unmarshal number -1 into Go value of type uint32');
    expect(() => aminoJson.uint32.decode('true')).to.throw('json: cannot unmarshal bool into Go value of type uint32');
    expect(() => aminoJson.bool.decode('"true"')).to.throw('json: cannot unmarshal string into Go value of type bool');
    expect(() => aminoJson.string.decode('')).to.throw('unexpected end of JSON input');
    expect(aminoJson.duration.decode('"-1500000000"')).to.deep.equal({ seconds: -1n, nanos: -500_000_000 });
    expect(aminoJson.decAtomics.decode('"0.5"')).to.equal('500000000000000000');
    expect(aminoJson.decAtomics.decode('"-3"')).to.equal('-3000000000000000000');
    expect(() => aminoJson.decAtomics.decode('""')).to.throw('decimal string cannot be empty');
    expect(() => aminoJson.decAtomics.decode('"1."')).to.throw('invalid decimal length');
    expect(() => aminoJson.decAtomics.decode('"1.2.3"')).to.throw('invalid decimal string');
    expect(() => aminoJson.decAtomics.decode('"1e5"')).to.throw('failed to set decimal string');
    expect(() => decTextToAtomics('1'.repeat(80))).to.throw('decimal out of range');
    expect(aminoJson.int.decode('"-7"')).to.equal(-7n);
    expect(() => aminoJson.int.decode('"7.5"')).to.throw('failed to parse Int from "7.5"');
    expect(aminoJson.coins.decode('[{"denom":"a","amount":"1"}]')).to.deep.equal([{ denom: 'a', amount: '1' }]);
    expect(aminoJson.coins.decode('null')).to.deep.equal([]);
    expect(() => aminoJson.coins.decode('[{"denom":"a","amount":1}]')).to.throw('json: cannot unmarshal number into Go value of type string');
  });

  it('a subspace decodes on top of the params, validates the key, then stores through the module', () => {
    let stored = { a: 1, b: 'x' };
    const ctx = {} as Context;
    const sets: unknown[] = [];
    const ss = defineParamSubspace('m', {
      get: () => stored,
      set: (_c, p) => {
        if (p.b === 'bad') throw new Error('module refuses');
        sets.push(p);
        stored = p;
      },
    }, [
      paramKey<typeof stored, number>('A', aminoJson.uint32, (p) => p.a, (p, v) => ({ ...p, a: v }), (v) => {
        if (v === 0) throw new Error('a must be positive');
      }),
      paramKey<typeof stored, string>('B', aminoJson.string, (p) => p.b, (p, v) => ({ ...p, b: v })),
    ]);
    expect([ss.name, ss.keys()]).to.deep.equal(['m', ['A', 'B']]);
    expect(ss.getAmino(ctx, 'A')).to.equal('1');
    ss.setAmino(ctx, 'A', '5');
    expect(stored).to.deep.equal({ a: 5, b: 'x' });
    expect(() => ss.setAmino(ctx, 'A', '0')).to.throw('invalid parameter value: a must be positive');
    expect(() => ss.setAmino(ctx, 'B', '"bad"')).to.throw('module refuses');
    expect(() => ss.setAmino(ctx, 'C', '1')).to.throw('parameter C not registered');
    expect(sets).to.have.length(1);
    expect(() => defineParamSubspace('m', { get: () => stored, set: () => undefined }, [
      paramKey<typeof stored, number>('A', aminoJson.uint32, (p) => p.a, (p) => p),
      paramKey<typeof stored, number>('A', aminoJson.uint32, (p) => p.a, (p) => p),
    ])).to.throw('param subspace m: key A declared twice');
  });

  it('ChainHaltError is recognized by its marker', () => {
    const e = new ChainHaltError('UPGRADE "x" NEEDED at height: 5: ', 5);
    expect([isChainHalt(e), e.height, e.name]).to.deep.equal([true, 5, 'ChainHaltError']);
    const foreign = Object.assign(new Error('from another copy'), { chainHalt: true });
    expect(isChainHalt(foreign)).to.equal(true);
    expect(isChainHalt(new Error('other'))).to.equal(false);
    expect(isChainHalt('halt')).to.equal(false);
  });
});
