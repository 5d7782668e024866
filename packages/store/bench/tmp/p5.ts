import { randomBytes } from 'node:crypto';
import { MemKVStore, branch } from '../../src/index.js';
const key = () => { const k = new Uint8Array(randomBytes(21)); k[0] = 2; return k; };
const base = new MemKVStore();
const keys = Array.from({ length: 100_000 }, key);
const v = new Uint8Array(40);
for (const k of keys) base.set(k, v);
for (let r = 0; r < 3; r++) {
  const block = branch(base);
  const TX = 200_000;
  const t0 = performance.now();
  for (let t = 0; t < TX; t++) {
    const tx = branch(block);
    for (let j = 0; j < 5; j++) { const k = keys[(t * 5 + j) % keys.length]!; tx.get(k); tx.set(k, v); }
    tx.write();
  }
  console.log((TX / ((performance.now() - t0) / 1000)).toFixed(0), 'tx/s');
}
