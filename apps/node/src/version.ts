/** The node's version (chaind version, node_info, web3_clientVersion). */
export const VERSION = '0.1.0';

/** How this process runs: from `npm run build`'s output, or from the TypeScript sources (tsx). */
export const RUNS_FROM: 'compiled' | 'sources' = import.meta.url.endsWith('.ts') ? 'sources' : 'compiled';
