import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ClassicLevel } from 'classic-level';
import { CommitStore, MemKVStore, type Change } from '../../src/index.js';
import { toKey } from '../../src/keys.js';
const dir = '/tmp/st/p4db';
if (!existsSync(dir)) {
  const st = await CommitStore.open(dir);
  for (let h = 1; h <= 10; h++) {
    const cs: Change[] = [];
    for (let i = 0; i < 50000; i++) { const k = new Uint8Array(randomBytes(21)); k[0] = 2; cs.push({ key: k, value: new Uint8Array(randomBytes(40)) }); }
    await st.commit(h, cs);
  }
  await st.close();
}
for (let r = 0; r < 1; r++) {
let t0 = performance.now();
let st = await CommitStore.open(dir);
console.log('CommitStore.open', (performance.now() - t0).toFixed(1)); await st.close();
for (const [enc, n] of [['view', 4096], ['buffer', 4096], ['buffer', 65536]] as const) {
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: enc, valueEncoding: enc } as any);
  await db.open();
  t0 = performance.now();
  const it = db.iterator({ gte: Buffer.from([1]), lt: Buffer.from([2]), highWaterMarkBytes: 8 << 20, fillCache: false } as any);
  let c = 0; let t1 = 0;
  for (;;) { const ta = performance.now(); const rows = await it.nextv(n); t1 += performance.now() - ta; if (rows.length === 0) break; c += rows.length; }
  await it.close();
  console.log(enc, n, 'scan only', c, (performance.now() - t0).toFixed(1), 'in nextv', t1.toFixed(1));
  t0 = performance.now();
  const m = new MemKVStore();
  const it2 = db.iterator({ gte: Buffer.from([1]), lt: Buffer.from([2]), highWaterMarkBytes: 8 << 20, fillCache: false } as any);
  for (;;) { const rows = await it2.nextv(n); if (rows.length === 0) break; for (const [k, v] of rows) m.setByKey(enc === 'buffer' ? (k as Buffer).toString('latin1', 1) : toKey(k.subarray(1)), v); }
  await it2.close();
  console.log(enc, n, 'scan+tree', (performance.now() - t0).toFixed(1));
  await db.close();
}
}
