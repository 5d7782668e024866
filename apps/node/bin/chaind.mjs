#!/usr/bin/env node
// chaind: runs the node from its TypeScript sources through tsx (no build step).
// The workspace packages export `{ source: ./src/index.ts, types, default: ./dist/index.js }`; the resolve hook
// below adds the `source` condition (like `node --conditions=source`) so `@chain/*` resolves to src, not dist.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

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
