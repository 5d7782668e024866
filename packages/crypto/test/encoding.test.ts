import { expect } from 'chai';
import { bytesToString, toHex, toBase64, fromUtf8 } from '../src/index.js';

describe('bytesToString', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  // small typed arrays (V8 keeps their bytes on its heap), views into bigger buffers, Buffers
  const samples = [new Uint8Array(0), Uint8Array.of(0xff), all.slice(0, 20), all.slice(200, 256), all.subarray(7, 70), Buffer.from(all), all];
  for (const enc of ['hex', 'base64', 'utf8', 'latin1'] as const) {
    it(`${enc}: what Buffer#toString gives`, () => {
      for (const b of samples) expect(bytesToString(b, enc)).to.equal(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString(enc));
    });
  }
  it('toHex, toBase64 and fromUtf8 go through it', () => {
    const b = new TextEncoder().encode('héllo');
    expect(toHex(b)).to.equal('68c3a96c6c6f');
    expect(toBase64(b)).to.equal('aMOpbGxv');
    expect(fromUtf8(b)).to.equal('héllo');
  });
});
