import { expect } from 'chai';
import { CollectionError, Schema, jsonValue, uint64Key } from '../src/index.js';
import { dump, hex, memCtx, u, utf8 } from './helpers.js';

describe('Item', () => {
  it('is undefined until set, then stored at its prefix itself', () => {
    const { mem, ctx } = memCtx();
    const params = new Schema('bank').item(0x05, 'params', jsonValue<{ sendEnabled: boolean }>());
    expect(params.get(ctx)).to.equal(undefined);
    expect(params.has(ctx)).to.equal(false);
    expect(params.getOr(ctx, { sendEnabled: false })).to.deep.equal({ sendEnabled: false });
    params.set(ctx, { sendEnabled: true });
    expect(params.get(ctx)).to.deep.equal({ sendEnabled: true });
    expect(params.getOr(ctx, { sendEnabled: false })).to.deep.equal({ sendEnabled: true });
    expect(params.has(ctx)).to.equal(true);
    expect(dump(mem)).to.deep.equal([[hex(utf8('bank/')) + '05', hex(utf8('{"sendEnabled":true}'))]]);
    params.remove(ctx);
    expect(params.get(ctx)).to.equal(undefined);
  });

  it('throws naming the item on a corrupted value', () => {
    const { ctx } = memCtx();
    const params = new Schema('bank').item(0x05, 'params', jsonValue<unknown>());
    ctx.kv('bank').set(u(0x05), utf8('{oops'));
    expect(() => params.get(ctx)).to.throw(CollectionError, /^collection "params": decoding the value: json value/);
  });
});

describe('Sequence', () => {
  it('starts at 0: next returns the current value and stores the next one', () => {
    const { mem, ctx } = memCtx();
    const seq = new Schema('gov').sequence(0x03, 'proposal_id');
    expect(seq.peek(ctx)).to.equal(0n);
    expect(seq.next(ctx)).to.equal(0n);
    expect(seq.next(ctx)).to.equal(1n);
    expect(seq.peek(ctx)).to.equal(2n);
    expect(dump(mem)).to.deep.equal([[hex(utf8('gov/')) + '03', '0000000000000002']]);
  });

  it('starts at a given value, and set resets it', () => {
    const { ctx } = memCtx();
    const seq = new Schema('gov').sequence(0x03, 'proposal_id', 1n);
    expect(seq.next(ctx)).to.equal(1n);
    seq.set(ctx, 100n);
    expect(seq.next(ctx)).to.equal(100n);
    expect(seq.peek(ctx)).to.equal(101n);
  });

  it('refuses to go past 2^64 - 1 and a bad start', () => {
    const { ctx } = memCtx();
    const schema = new Schema('gov');
    const seq = schema.sequence(0x03, 'seq');
    seq.set(ctx, 2n ** 64n - 1n);
    expect(() => seq.next(ctx)).to.throw(CollectionError, /collection "seq": encoding the value: uint64 value/);
    expect(seq.peek(ctx)).to.equal(2n ** 64n - 1n);
    expect(() => schema.sequence(0x04, 'neg', -1n)).to.throw(CollectionError, /sequence start/);
  });

  it('is independent of a map keyed next to it', () => {
    const { ctx } = memCtx();
    const schema = new Schema('gov');
    const seq = schema.sequence(0x03, 'proposal_id');
    const proposals = schema.map(0x04, 'proposals', uint64Key, jsonValue<string>());
    proposals.set(ctx, seq.next(ctx), 'first');
    proposals.set(ctx, seq.next(ctx), 'second');
    expect(proposals.iterate(ctx).toArray()).to.deep.equal([
      { key: 0n, value: 'first' },
      { key: 1n, value: 'second' },
    ]);
  });
});
