#!/usr/bin/env node
// Runs every test of the monorepo: the layering check (tools/check-boundaries.mjs), the typecheck, then each
// project's `test` target through nx (unit tests per package, the pack test, then e2e against real chaind
// processes). Prints one total line at the end: `N passed, N failed, N skipped` (the line CI counts).
// Everything runs from the TypeScript sources (the `source` export condition); only the pack test builds.
import { spawn } from 'node:child_process';

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', FORCE_COLOR: '0' };
let passed = 0;
let failed = 0;
let skipped = 0;

function run(cmd, args) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    const onData = (d, stream) => {
      stream.write(d);
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const m = /(\d+) passed, (\d+) failed, (\d+) skipped\s*$/.exec(line);
        if (m) {
          passed += Number(m[1]);
          failed += Number(m[2]);
          skipped += Number(m[3]);
        }
      }
    };
    p.stdout.on('data', (d) => onData(d, process.stdout));
    p.stderr.on('data', (d) => onData(d, process.stderr));
    p.on('close', (code) => resolve(code ?? 1));
  });
}

const only = process.argv.slice(2);
let exit = 0;
console.log('== dependency boundaries');
if ((await run('node', ['tools/check-boundaries.mjs'])) !== 0) {
  console.log('check-boundaries failed: a dependency points the wrong way (see the file:line list above)');
  failed += 1;
  exit = 1;
}
console.log('== typecheck');
if ((await run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'])) !== 0) {
  console.log('typecheck failed');
  exit = 1;
}
console.log('== unit and e2e tests');
const nxArgs = ['nx', 'run-many', '-t', 'test', '--output-style=stream', '--parallel=2', '--skip-nx-cache'];
if (only.length) nxArgs.push('--projects', only.join(','));
if ((await run('npx', nxArgs)) !== 0) exit = 1;
if (failed > 0) exit = 1;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exit);
