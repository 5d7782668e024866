/**
 * Writes the TypeScript types generated from the .proto files (see generate.ts for the conventions).
 *
 *   npx tsx tools/proto-gen/gen.ts          regenerate (and delete generated files whose proto package is gone)
 *   npx tsx tools/proto-gen/gen.ts --check  exit 1 when a generated file differs from what the protos give
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, onDisk, stale } from './generate.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

if (process.argv.includes('--check')) {
  const diffs = stale(repoRoot);
  if (diffs.length > 0) {
    console.error(`generated proto types are out of date (run \`npm run proto-gen\`):\n  ${diffs.join('\n  ')}`);
    process.exit(1);
  }
  console.log('generated proto types are up to date');
} else {
  const want = generate(repoRoot);
  const have = onDisk(repoRoot);
  let written = 0;
  for (const [f, text] of want) {
    if (have.get(f) === text) continue;
    mkdirSync(dirname(join(repoRoot, f)), { recursive: true });
    writeFileSync(join(repoRoot, f), text);
    written++;
    console.log(`wrote ${f}`);
  }
  for (const f of have.keys()) {
    if (want.has(f)) continue;
    rmSync(join(repoRoot, f));
    console.log(`removed ${f}`);
  }
  console.log(`${want.size} generated files, ${written} written`);
}
