#!/usr/bin/env node
// chaind: runs the node from its TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
