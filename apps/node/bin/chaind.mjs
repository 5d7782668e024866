#!/usr/bin/env node
// chaind: runs the node from its bundle or compiled output when `npm run build` made them and no source is newer,
// else from its TypeScript sources through tsx (no build step needed).
//
// Bundled: `npm run build` ends with apps/node/scripts/bundle.mjs, which bundles the compiled output and what it
// imports from node_modules into dist/bundle/ (a few files instead of ~1,100: Node's per-file resolving, reading and
// compiling went; a restart reached its engine ~0.5 s sooner on a slow 2-core machine).
//
// Compiled: `npm run build` (tsc -b) writes each workspace package's dist/. Node then resolves `@chain/*` through
// the packages' `default` export (dist/index.js): no loader hooks, no transpiling at start, a smaller process
// (a restart with a 1M-account state: 1.8 s and 146 MB instead of 3.0 s and 224 MB). Whether the build is
// current is a stat walk of the sources (a few ms, see compiled.mjs); after any edit or checkout it is not, and
// chaind runs the sources until the next build. `chaind version --long` says which one runs.
//
// Sources: the workspace packages export `{ source: ./src/index.ts, types, default: ./dist/index.js }`; the resolve
// hook below adds the `source` condition (like `node --conditions=source`) so `@chain/*` resolves to src, not dist.
// `CHAIND_FROM_SOURCE=1` forces this path; `CHAIND_BUNDLE=0` runs the compiled files instead of the bundle.
import { register } from 'node:module';
import { currentBuild } from './compiled.mjs';

let build = process.env.CHAIND_FROM_SOURCE === '1' ? undefined : currentBuild(new URL('../../..', import.meta.url).pathname);
if (build === 'bundle' && process.env.CHAIND_BUNDLE === '0') build = 'compiled';
// what `chaind version --long` reports (apps/node/src/version.ts)
globalThis[Symbol.for('chaind.runsFrom')] = build ?? 'sources';
if (build === 'bundle') {
  await import('../dist/bundle/main.mjs');
} else if (build === 'compiled') {
  await import('../dist/main.js');
} else {
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  // registered after tsx, so it runs first and hands tsx (and Node's resolver) the extra condition
  register(
    'data:text/javascript,' +
      encodeURIComponent(
        'export async function resolve(specifier, context, next) {' +
          " return next(specifier, context.conditions.includes('source') ? context : { ...context, conditions: [...context.conditions, 'source'] }); }",
      ),
  );
  await import('../src/main.ts');
}
