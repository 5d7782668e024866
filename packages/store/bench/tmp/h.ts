import { createHash, hash } from 'node:crypto';
const N = 20000; const data = Buffer.alloc(65, 1);
for (let r = 0; r < 3; r++) {
  let t0 = performance.now();
  for (let i = 0; i < N; i++) createHash('sha256').update(data.subarray(0,1)).update(data.subarray(1,33)).update(data.subarray(33)).digest();
  console.log('createHash x3 update', (performance.now() - t0).toFixed(1));
  t0 = performance.now();
  for (let i = 0; i < N; i++) createHash('sha256').update(data).digest();
  console.log('createHash 1 update', (performance.now() - t0).toFixed(1));
  t0 = performance.now();
  for (let i = 0; i < N; i++) hash('sha256', data, 'buffer');
  console.log('crypto.hash', (performance.now() - t0).toFixed(1));
}
