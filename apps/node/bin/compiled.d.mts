/** True when every workspace package's `npm run build` output under `root` is newer than its sources. */
export function compiledIsCurrent(root: string): boolean;
