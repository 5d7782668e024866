import { expect } from 'chai';
import { addToBloom, encodeReceipt, encodeReceiptBytes, keccak256, logsBloom, type LogBytes } from '../src/index.js';

describe('Ethereum receipts', () => {
  it('encodeReceiptBytes (logs as bytes, bloom given) encodes what encodeReceipt encodes', () => {
    let seed = 7;
    const rnd = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex');
    for (let k = 0; k < 40; k++) {
      const logs: LogBytes[] = Array.from({ length: k % 5 }, (_, i) => [rnd(20), Array.from({ length: (k + i) % 5 }, () => rnd(32)), rnd((k * 7 + i) % 70)] as const);
      const bloom = new Uint8Array(256);
      for (const [a, topics] of logs) {
        addToBloom(bloom, a);
        for (const t of topics) addToBloom(bloom, t);
      }
      const asHex = logs.map(([a, t, d]) => ({ address: hex(a), topics: t.map(hex), data: hex(d) }));
      expect(hex(bloom)).to.equal(hex(logsBloom(asHex)));
      for (const type of [0, 1, 2]) {
        const gas = BigInt(21_000 * (k + 1));
        expect(hex(encodeReceiptBytes(type, k % 3 !== 0, gas, bloom, logs))).to.equal(hex(encodeReceipt(type, k % 3 !== 0, gas, asHex)));
      }
    }
  });

  it('addToBloom sets the yellow paper M3:2048 bits, the same for inputs seen before (its cache), long ones and after the cache is cleared', () => {
    // the definition: the low 11 bits of each of the first three byte pairs of keccak256(data)
    const m3 = (bloom: Uint8Array, data: Uint8Array): void => {
      const h = keccak256(data);
      for (let i = 0; i < 6; i += 2) {
        const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
        bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
      }
    };
    let seed = 11;
    const rnd = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    const inputs = Array.from({ length: 300 }, (_, i) => rnd([0, 1, 20, 32, 64, 65, 200][i % 7]!));
    // 30,000 additions: every input many times, past the cache's size with fresh inputs in between
    for (let round = 0; round < 100; round++) {
      const a = new Uint8Array(256);
      const b = new Uint8Array(256);
      for (const x of [...inputs.slice(round % 7, round % 7 + 3), ...Array.from({ length: 100 }, () => rnd(32)), ...inputs.slice(0, 200)]) {
        addToBloom(a, x);
        m3(b, x);
      }
      expect(Buffer.from(a).toString('hex'), `round ${round}`).to.equal(Buffer.from(b).toString('hex'));
    }
  });
});
