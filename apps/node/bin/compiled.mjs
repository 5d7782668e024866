// Whether `npm run build` output is current (used by chaind.mjs, which says why it matters).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
 * True when every workspace package with a src/ folder (packages/*, modules/*, apps/*) under `root` has a dist/
 * folder and a tsconfig.build.tsbuildinfo newer than every file under its src/ (tsc -b rewrites a package's
 * tsbuildinfo after its outputs whenever it builds it). Anything missing or unreadable counts as not current.
 */
export function compiledIsCurrent(root) {
  try {
    for (const group of ['packages', 'modules', 'apps']) {
      if (!existsSync(join(root, group))) continue;
      for (const name of readdirSync(join(root, group))) {
        const pkg = join(root, group, name);
        if (!existsSync(join(pkg, 'src'))) continue;
        const info = join(pkg, 'tsconfig.build.tsbuildinfo');
        if (!existsSync(info) || !existsSync(join(pkg, 'dist'))) return false;
        if (newest(join(pkg, 'src')) > statSync(info).mtimeMs) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}
