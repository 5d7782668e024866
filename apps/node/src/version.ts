/** The node's version (chaind version, node_info, web3_clientVersion). */
export const VERSION = '0.1.0';

/**
 * How this process runs: from `npm run build`'s bundle or compiled files, or from the TypeScript sources (tsx).
 * bin/chaind.mjs says which one it loaded; without it (this module imported directly), the file's own extension.
 */
export const RUNS_FROM: 'bundle' | 'compiled' | 'sources' =
  ((globalThis as Record<symbol, unknown>)[Symbol.for('chaind.runsFrom')] as 'bundle' | 'compiled' | 'sources' | undefined)
  ?? (import.meta.url.endsWith('.ts') ? 'sources' : 'compiled');
