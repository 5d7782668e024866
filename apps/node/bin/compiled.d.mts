/** True when every workspace package's `npm run build` output under `root` is newer than its sources. */
export function compiledIsCurrent(root: string): boolean;
/** Which current build output chaind can run under `root` (see compiled.mjs). */
export function currentBuild(root: string): 'bundle' | 'compiled' | undefined;
