// What the tests of this folder share: the monorepo's build (`tsc -b tsconfig.build.json`, once per mocha process)
// and running commands in an environment without what the surrounding `npm run`/mocha set.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

/** an environment without what the surrounding `npm run`/mocha set: no tsx, no `source` condition, no workspace */
export function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'NODE_OPTIONS' || k.startsWith('npm_lifecycle_') || k.startsWith('npm_package_') || /^npm_config_(workspace|workspaces|include_workspace_root|prefix|local_prefix|global)$/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

export function run(cmd, args, cwd, { allowFail = false, input } = {}) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20, input });
  const ms = Date.now() - t;
  if (r.error) throw r.error;
  if (r.status !== 0 && !allowFail) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return { ...r, ms };
}

let built;
/** `tsc -b tsconfig.build.json` of the whole monorepo, once (its time in ms the first call, 0 after) */
export function buildOnce() {
  if (built) return 0;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = run(process.execPath, [tsc, '-b', 'tsconfig.build.json'], ROOT, { allowFail: true });
  if (build.status !== 0) throw new Error(`tsc -b tsconfig.build.json failed (exit ${build.status}):\n${build.stdout}${build.stderr}`);
  built = true;
  return build.ms;
}
