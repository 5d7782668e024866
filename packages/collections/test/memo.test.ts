import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { IdentityMemo, clonePlain, protoValue } from '../src/index.js';

describe('decode memo (memo.ts)', () => {
  it('IdentityMemo finds values by key identity and keeps at most two generations', () => {
    const memo = new IdentityMemo<Uint8Array, number>(3);
    const keys = Array.from({ length: 7 }, () => new Uint8Array([1]));
    keys.forEach((k, i) => memo.set(k, i));
    // generations of 3: [0 1 2] dropped, [3 4 5] old, [6] young
    expect(keys.map((k) => memo.get(k))).to.deep.equal([undefined, undefined, undefined, 3, 4, 5, 6]);
    // equal bytes, other instance: not the same stored value
    expect(memo.get(new Uint8Array([1]))).to.equal(undefined);
  });

  it('clonePlain copies objects and arrays deeply and shares bytes and scalars', () => {
    const bytes = new Uint8Array([9]);
    const v = { a: { b: [1n, { c: 'x' }], d: bytes }, e: null, f: true };
    const c = clonePlain(v);
    expect(c).to.deep.equal(v);
    expect(c).to.not.equal(v);
    expect(c.a).to.not.equal(v.a);
    expect(c.a.b).to.not.equal(v.a.b);
    expect(c.a.b[1]).to.not.equal(v.a.b[1]);
    expect(c.a.d).to.equal(bytes);
  });

  describe('protoValue decodes the same bytes once and hands out copies', () => {
    const registry = new ProtoRegistry();
    type Event = { type: string; attributes: { key: string; value: string; index: boolean }[] };
    const codec = protoValue<Event>(registry, 'chain.base.abci.v1beta1.Event');
    const bytes = codec.encode({ type: 't', attributes: [{ key: 'k', value: 'v', index: true }] });

    it('a change to one decoded value is not seen by the next decode of the same bytes', () => {
      const first = codec.decode(bytes);
      first.type = 'changed';
      first.attributes[0]!.value = 'changed';
      first.attributes.push({ key: 'x', value: 'y', index: false });
      expect(codec.decode(bytes)).to.deep.equal({ type: 't', attributes: [{ key: 'k', value: 'v', index: true }] });
    });

    it('other bytes decode on their own, equal bytes in another instance too', () => {
      const other = codec.encode({ type: 'u', attributes: [] });
      expect(codec.decode(other)).to.deep.equal({ type: 'u', attributes: [] });
      expect(codec.decode(Uint8Array.from(bytes)).type).to.equal('t');
    });
  });
});
