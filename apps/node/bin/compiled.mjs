// Whether `npm run build` output is current (used by chaind.mjs, which says why it matters).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** the newest mtime (ms) of any file under dir */
function newest(dir) {
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newest(p) : statSync(p).mtimeMs;
    if (t > max) max = t;
  }
  return max;
}

/**
 * The newest tsconfig.build.tsbuildinfo's mtime when every workspace package with a src/ folder (packages/*,
 * modules/*, apps/*) under `root` has a dist/ folder and a tsconfig.build.tsbuildinfo newer than every file under its
 * src/ (tsc -b rewrites a package's tsbuildinfo after its outputs whenever it builds it); else undefined. Anything
 * missing or unreadable counts as not current.
 */
function compiledAt(root) {
  try {
    let at = 0;
    for (const group of ['packages', 'modules', 'apps']) {
      if (!existsSync(join(root, group))) continue;
      for (const name of readdirSync(join(root, group))) {
        const pkg = join(root, group, name);
        if (!existsSync(join(pkg, 'src'))) continue;
        const info = join(pkg, 'tsconfig.build.tsbuildinfo');
        if (!existsSync(info) || !existsSync(join(pkg, 'dist'))) return undefined;
        const built = statSync(info).mtimeMs;
        if (newest(join(pkg, 'src')) > built) return undefined;
        if (built > at) at = built;
      }
    }
    return at;
  } catch {
    return undefined;
  }
}

/** True when the compiled dist/ folders are current (see compiledAt). */
export function compiledIsCurrent(root) {
  return compiledAt(root) !== undefined;
}

/**
 * Which build output chaind can run: 'bundle' when dist/ is current and apps/node/dist/bundle (the last step of
 * `npm run build`, apps/node/scripts/bundle.mjs) was made after it, after the last `npm install`
 * (node_modules/.package-lock.json: the bundle holds node_modules' code) and in this checkout (its file paths are
 * absolute); 'compiled' when only dist/ is current; undefined when neither is.
 */
export function currentBuild(root) {
  const at = compiledAt(root);
  if (at === undefined) return undefined;
  try {
    const stamp = join(root, 'apps', 'node', 'dist', 'bundle', 'bundle.json');
    const bundledAt = statSync(stamp).mtimeMs;
    const installed = join(root, 'node_modules', '.package-lock.json');
    const installedAt = existsSync(installed) ? statSync(installed).mtimeMs : 0;
    if (bundledAt >= at && bundledAt >= installedAt && JSON.parse(readFileSync(stamp, 'utf8')).root === resolve(root)) return 'bundle';
  } catch {
    // no bundle (or an unreadable one): the compiled files
  }
  return 'compiled';
}
