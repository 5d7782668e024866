/**
 * The state store options of app.toml, as the Cosmos SDK's (`pruning`, `pruning-keep-recent`,
 * `pruning-interval`, `iavl-cache-size`) and `state-cache-size` (this node's cache of current values), with the SDK's strategies and validation messages
 * (store/pruning/types: PruningOptions.Validate).
 */
import type { CommitStoreOptions } from '@chain/store';

/** The strategies and what they keep: default 362880 recent heights, everything 2, both pruned every 10 blocks. */
const STRATEGIES: Record<string, { keepRecent: number; interval: number } | undefined> = {
  default: { keepRecent: 362_880, interval: 10 },
  everything: { keepRecent: 2, interval: 10 },
  nothing: { keepRecent: 0, interval: 0 },
};

export interface StoreToml {
  pruning: string;
  'pruning-keep-recent': string;
  'pruning-interval': string;
  'iavl-cache-size': number;
  'state-cache-size'?: number;
}

/** CommitStore options from app.toml; throws the SDK's message on a bad combination. */
export function storeOptions(app: StoreToml): CommitStoreOptions {
  const strategy = app.pruning;
  let pruning = STRATEGIES[strategy];
  if (strategy === 'custom') {
    const keepRecent = uint(app['pruning-keep-recent'], 'pruning-keep-recent');
    const interval = uint(app['pruning-interval'], 'pruning-interval');
    if (interval === 0) throw new Error('\'pruning-interval\' must not be 0. If you want to disable pruning, select pruning = "nothing"');
    if (interval < 10) throw new Error('\'pruning-interval\' must not be less than 10. For the most aggressive pruning, select pruning = "everything"');
    if (keepRecent < 2) throw new Error('\'pruning-keep-recent\' must not be less than 2. For the most aggressive pruning, select pruning = "everything"');
    pruning = { keepRecent, interval };
  }
  if (pruning === undefined) throw new Error(`unknown pruning strategy ${strategy}`);
  return { pruning, iavlCacheSize: app['iavl-cache-size'], stateCacheSize: app['state-cache-size'] };
}

function uint(v: string, name: string): number {
  if (!/^\d+$/.test(v.trim())) throw new Error(`invalid '${name}' ${JSON.stringify(v)}: expected an unsigned integer`);
  return Number(v.trim());
}
