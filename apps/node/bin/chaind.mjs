#!/usr/bin/env node
// chaind: runs the node from its compiled output when `npm run build` made it and no source is newer, else from
// its TypeScript sources through tsx (no build step needed).
//
// Compiled: `npm run build` (tsc -b) writes each workspace package's dist/. Node then resolves `@chain/*` through
// the packages' `default` export (dist/index.js): no loader hooks, no transpiling at start, a smaller process
// (a restart with a 1M-account state: 1.8 s and 146 MB instead of 3.0 s and 224 MB). Whether the build is
// current is a stat walk of the sources (a few ms, see compiled.mjs); after any edit or checkout it is not, and
// chaind runs the sources until the next build. `chaind version --long` says which one runs.
//
// Sources: the workspace packages export `{ source: ./src/index.ts, types, default: ./dist/index.js }`; the resolve
// hook below adds the `source` condition (like `node --conditions=source`) so `@chain/*` resolves to src, not dist.
// `CHAIND_FROM_SOURCE=1` forces this path.
import { register } from 'node:module';
import { compiledIsCurrent } from './compiled.mjs';

if (process.env.CHAIND_FROM_SOURCE !== '1' && compiledIsCurrent(new URL('../../..', import.meta.url).pathname)) {
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
