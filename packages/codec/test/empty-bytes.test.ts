import { expect } from 'chai';
import protobuf from 'protobufjs';
import '../src/index.js';

describe('codec: empty bytes defaults', () => {
  it('unset bytes fields convert to one shared empty Buffer (toObject defaults), set ones to their own bytes; encoding is unchanged', () => {
    const root = protobuf.Root.fromJSON({ nested: { M: { fields: { a: { type: 'bytes', id: 1 }, b: { type: 'bytes', id: 2 } } } } });
    const t = root.lookupType('M');
    const bytes = t.encode({ b: Buffer.from([1, 2]) }).finish();
    const o1 = t.toObject(t.decode(bytes), { defaults: true });
    const o2 = t.toObject(t.decode(new Uint8Array()), { defaults: true });
    expect(Buffer.isBuffer(o1.a)).to.equal(true);
    expect(o1.a).to.have.length(0);
    expect(o1.a).to.equal(o2.a);
    expect([...o1.b]).to.deep.equal([1, 2]);
    expect(Buffer.from(t.encode(t.fromObject(o1)).finish()).equals(Buffer.from(bytes))).to.equal(true);
    // a non-empty buffer is still a new one each time
    expect(protobuf.util.newBuffer(2)).to.not.equal(protobuf.util.newBuffer(2));
  });
});
