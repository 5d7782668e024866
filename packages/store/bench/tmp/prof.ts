import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { nextAppHash, type Change, MemKVStore, stateKey, versionKey, encodeVersionValue } from '../../src/index.js';
const ms = (t0: bigint) => (Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1);
const key = () => { const k = new Uint8Array(randomBytes(21)); k[0] = 2; return k; };
const cs: Change[] = Array.from({ length: 10000 }, () => ({ key: key(), value: new Uint8Array(randomBytes(40)) })).sort((a, b) => Buffer.compare(a.key, b.key));
let t0 = 0n; for (let i=0;i<4;i++){t0 = process.hrtime.bigint();
nextAppHash(new Uint8Array(0), cs); console.log('apphash', ms(t0));}
for (let i=0;i<3;i++){ t0 = process.hrtime.bigint();
const ops: { type: 'put'; key: Uint8Array; value: Uint8Array }[] = [];
for (const c of cs) { ops.push({ type: 'put', key: stateKey(c.key), value: c.value! }); ops.push({ type: 'put', key: versionKey(c.key, 5), value: encodeVersionValue(c.value) }); }
console.log("ops", ms(t0));}
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
await db.open();
for (let i = 0; i < 3; i++) { t0 = process.hrtime.bigint(); await db.batch(ops, { sync: true }); console.log('batch sync', ms(t0)); }
for (let i = 0; i < 3; i++) { t0 = process.hrtime.bigint(); await db.batch(ops, { sync: false }); console.log('batch nosync', ms(t0)); }
for (let i = 0; i < 3; i++) { t0 = process.hrtime.bigint(); const b = db.batch(); for (const o of ops) b.put(o.key, o.value); await b.write({ sync: true }); console.log('chained sync', ms(t0)); }
const m = new MemKVStore(); for (let i = 0; i < 300000; i++) m.set(key(), cs[0]!.value!);
for (let i=0;i<4;i++){t0 = process.hrtime.bigint(); for (const c of cs) m.set(c.key, c.value!.slice()); console.log('mem', ms(t0));}
await db.close(); rmSync(dir, { recursive: true });
