import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore, branch, type Change } from '../../src/index.js';
const key = () => { const k = new Uint8Array(randomBytes(21)); k[0] = 2; return k; };
const dir = mkdtempSync(join(tmpdir(), 'p2-'));
const st = await CommitStore.open(dir);
for (let h = 1; h <= 30; h++) {
  const b = branch(st.state);
  for (let i = 0; i < 10000; i++) b.set(key(), new Uint8Array(randomBytes(40)));
  const cs = b.changes();
  const t0 = performance.now();
  await st.commit(h, cs);
  if (h % 5 === 0) console.log(h, (performance.now() - t0).toFixed(1));
}
await st.close(); rmSync(dir, { recursive: true });
