import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { JS_MAX, paddedLength, sha256Into, sha256Padded, sha256PaddedHash } from '../src/sha256.js';
import { hashToBytes } from '../src/node.js';
import { generateCompress } from './sha256-gen.js';
import { hex, randBytes, rng, testSeed } from './helpers.js';

describe('JS SHA-256 (node hashing)', () => {
  it('equals node:crypto for every length from 0 to 700 bytes and in place', () => {
    const r = rng(testSeed('sha256'));
    for (let n = 0; n <= 700; n++) {
      const data = randBytes(r, n);
      const want = createHash('sha256').update(data).digest('hex');
      const out = new Uint8Array(40);
      sha256Into(data, out, 5);
      expect(hex(out.subarray(5, 37)), `length ${n}`).to.equal(want);
      if (n <= JS_MAX) {
        const buf = new Uint8Array(paddedLength(n));
        buf.set(data);
        sha256Padded(buf, n, out, 0);
        expect(hex(out.subarray(0, 32))).to.equal(want);
        buf.set(data);
        expect(hex(hashToBytes(sha256PaddedHash(buf, n)))).to.equal(want);
      }
    }
  });

  it('the unrolled compression in src/sha256.ts is the generator output', () => {
    const src = readFileSync(new URL('../src/sha256.ts', import.meta.url), 'utf8');
    const a = src.indexOf('// BEGIN GENERATED\n');
    const b = src.indexOf('// END GENERATED');
    expect(a).to.be.greaterThan(0);
    expect(src.slice(a + '// BEGIN GENERATED\n'.length, b)).to.equal(generateCompress());
  });
});
