import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore, type Change } from '../../src/index.js';
const key = () => { const k = new Uint8Array(randomBytes(21)); k[0] = 2; return k; };
const dir = mkdtempSync(join(tmpdir(), 'p3-'));
let st = await CommitStore.open(dir);
for (let h = 1; h <= 3; h++) {
  const cs: Change[] = [];
  for (let i = 0; i < 100000; i++) cs.push({ key: key(), value: new Uint8Array(randomBytes(40)) });
  let t0 = performance.now();
  cs.sort((a, b) => Buffer.compare(a.key, b.key));
  console.log('sort', (performance.now() - t0).toFixed(1));
  t0 = performance.now();
  await st.commit(h, cs);
  console.log('commit 100k', (performance.now() - t0).toFixed(1));
}
await st.close();
let t0 = performance.now();
st = await CommitStore.open(dir);
console.log('open 300k', (performance.now() - t0).toFixed(1));
await st.close(); rmSync(dir, { recursive: true });
