import { expect } from 'chai';
import { CompactStringSet } from '../src/index.js';
import { SEED, rng } from './helpers.js';

describe('CompactStringSet', () => {
  it('answers add and has as a Set<string> does, over many members and growths (one-byte, latin1 and wide strings)', () => {
    const seed = SEED;
    const r = rng(seed);
    const alphabet = ['a', 'b', 'q', 'z', '0', '1', 'é', 'ÿ', '\u0000', '€', '中', '😀'];
    const str = (): string => {
      const n = Math.floor(r() * 6);
      let s = r() < 0.5 ? 'chain1' : '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * (r() < 0.9 ? 6 : alphabet.length))];
      return s;
    };
    const set = new CompactStringSet();
    const ref = new Set<string>();
    for (let i = 0; i < 60_000; i++) {
      const s = str();
      expect(set.has(s), `seed ${seed}: has ${JSON.stringify(s)}`).to.equal(ref.has(s));
      expect(set.add(s), `seed ${seed}: add ${JSON.stringify(s)}`).to.equal(!ref.has(s));
      ref.add(s);
      expect(set.has(s)).to.equal(true);
    }
    expect(set.size).to.equal(ref.size);
    for (const s of ref) expect(set.has(s)).to.equal(true);
  });

  it('holds a million distinct addresses, each found again, none twice', () => {
    const set = new CompactStringSet();
    const addr = (i: number): string => `chain1${i.toString(36).padStart(38, '_')}`;
    let added = 0;
    for (let i = 0; i < 1_000_000; i++) if (set.add(addr(i))) added++;
    expect(added).to.equal(1_000_000);
    expect(set.size).to.equal(1_000_000);
    for (let i = 0; i < 1_000_000; i += 997) expect(set.add(addr(i))).to.equal(false);
    expect(set.has(addr(1_000_000))).to.equal(false);
    expect(set.has('')).to.equal(false);
    expect(set.add('')).to.equal(true);
    expect(set.has('')).to.equal(true);
  });
});
