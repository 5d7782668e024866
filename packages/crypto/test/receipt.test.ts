import { expect } from 'chai';
import { addToBloom, encodeReceipt, encodeReceiptBytes, logsBloom, type LogBytes } from '../src/index.js';

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
});
