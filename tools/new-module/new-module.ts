/**
 * Scaffolds a module package of the agreed shape (docs/architecture.md, "Adding a module"):
 *
 *   npm run new-module -- <name> [--proto-package chain.<name>.v1beta1]
 *
 * creates modules/<name>/ (`@chain/<name>`) from the files of templates/, generates its src/gen with
 * tools/proto-gen, adds it to the build (tsconfig.build.json) and prints the next steps. It refuses an
 * invalid name (lowercase letters and digits, starting with a letter), a name already taken by a folder of
 * modules/ or a workspace package, and a proto package already declared elsewhere.
 *
 * Templates: every `*.tmpl` file below templates/ becomes the file of the same path without `.tmpl`, with
 * these placeholders replaced in its path and content (`foo` with the default proto package):
 *
 *   __name__ foo    __Name__ Foo    __NAME__ FOO
 *   __protoPackage__ chain.foo.v1beta1    __protoPath__ chain/foo/v1beta1    __protoNs__ chain_foo_v1beta1
 *
 * The package is assembled under .tmp/ and moved into modules/ by one rename, so nothing (nx, the boundary
 * check, proto-gen --check) ever sees it half-written.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, unitsOf } from '../proto-gen/generate.js';
import type { Unit } from '../proto-gen/generate.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'templates');

const NAME_RE = /^[a-z][a-z0-9]*$/;
const PROTO_PACKAGE_RE = /^chain(\.[a-z][a-z0-9_]*)+$/;
const PLACEHOLDER_RE = /__(name|Name|NAME|protoPackage|protoPath|protoNs)__/g;

export const USAGE = 'usage: npm run new-module -- <name> [--proto-package chain.<name>.v1beta1]';

/** A refusal: bad arguments or a name that is taken (the CLI prints the message and exits 1). */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

export interface ScaffoldOptions {
  /** lowercase letters and digits, starting with a letter: folder modules/<name>, package @chain/<name> */
  readonly name: string;
  /** default `chain.<name>.v1beta1` */
  readonly protoPackage?: string;
  /** repository root (default: the one holding this tool) */
  readonly root?: string;
}

export interface ScaffoldResult {
  /** absolute path of the new package folder */
  readonly dir: string;
  /** files written, relative to `dir`, sorted */
  readonly files: string[];
}

export type Placeholders = Record<'name' | 'Name' | 'NAME' | 'protoPackage' | 'protoPath' | 'protoNs', string>;

export function placeholders(name: string, protoPackage = `chain.${name}.v1beta1`): Placeholders {
  return {
    name,
    Name: name[0]!.toUpperCase() + name.slice(1),
    NAME: name.toUpperCase(),
    protoPackage,
    protoPath: protoPackage.replace(/\./g, '/'),
    protoNs: protoPackage.replace(/\./g, '_'),
  };
}

/** Replaces every placeholder of `text`. */
export function fill(text: string, p: Placeholders): string {
  return text.replace(PLACEHOLDER_RE, (_m, key: keyof Placeholders) => p[key]);
}

/** Throws ScaffoldError unless `name` is a valid module name. */
export function validateName(name: string): void {
  if (!NAME_RE.test(name)) {
    throw new ScaffoldError(`invalid module name ${JSON.stringify(name)}: lowercase letters and digits, starting with a letter (e.g. "mint", "erc20")`);
  }
}

/** Throws ScaffoldError unless `pkg` is a proto package under `chain.` (type URLs resolve only there). */
export function validateProtoPackage(pkg: string): void {
  if (!PROTO_PACKAGE_RE.test(pkg)) {
    throw new ScaffoldError(`invalid proto package ${JSON.stringify(pkg)}: chain.<segment>[.<segment>...], segments of lowercase letters, digits and _ (e.g. chain.mint.v1beta1)`);
  }
}

/** Names of the workspace packages (package.json `name`) → their folder, relative to `root`. */
function workspacePackages(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const patterns = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] }).workspaces ?? [];
  const add = (dir: string): void => {
    const file = join(root, dir, 'package.json');
    if (!existsSync(file)) return;
    const { name } = JSON.parse(readFileSync(file, 'utf8')) as { name?: string };
    if (name) out.set(name, dir);
  };
  for (const p of patterns) {
    if (p.endsWith('/*')) {
      const base = p.slice(0, -2);
      if (!existsSync(join(root, base))) continue;
      for (const d of readdirSync(join(root, base))) if (statSync(join(root, base, d)).isDirectory()) add(`${base}/${d}`);
    } else {
      add(p);
    }
  }
  return out;
}

function walkFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p, ext));
    else if (e.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

/** The .proto file (relative to `root`) that declares proto package `pkg`, if any. */
function protoPackageOwner(root: string, pkg: string): string | undefined {
  for (const u of unitsOf(root)) {
    for (const f of walkFiles(join(root, u.protoDir), '.proto')) {
      const m = /^\s*package\s+([\w.]+)\s*;/m.exec(readFileSync(f, 'utf8'));
      if (m?.[1] === pkg) return relative(root, f);
    }
  }
  return undefined;
}

const buildRef = (name: string): string => `modules/${name}/tsconfig.build.json`;

/**
 * Adds `{ "path": "modules/<name>/tsconfig.build.json" }` to the references of the root tsconfig.build.json
 * (`npm run build`; tools/check-boundaries.mjs requires every module there), among the modules in name order.
 */
export function addBuildReference(root: string, name: string): void {
  const file = join(root, 'tsconfig.build.json');
  const text = readFileSync(file, 'utf8');
  const want = buildRef(name);
  const refs = (JSON.parse(text) as { references?: { path: string }[] }).references ?? [];
  if (refs.some((r) => r.path === want)) return;
  const lines = text.split('\n');
  const moduleLine = /^(\s*)\{\s*"path":\s*"(modules\/[^"]+)"\s*\}(,?)\s*$/;
  const at = lines.map((l, i) => ({ m: moduleLine.exec(l), i })).filter((x) => x.m);
  let next: string;
  if (at.length === 0) {
    const json = JSON.parse(text) as { references?: { path: string }[] };
    json.references = [...refs, { path: want }];
    next = JSON.stringify(json, null, 2) + '\n';
  } else {
    const indent = at[0]!.m![1];
    const before = at.find((x) => x.m![2]! > want);
    if (before) {
      lines.splice(before.i, 0, `${indent}{ "path": "${want}" },`);
    } else {
      const last = at[at.length - 1]!;
      if (!last.m![3]) lines[last.i] = lines[last.i]!.replace(/\}\s*$/, '},');
      lines.splice(last.i + 1, 0, `${indent}{ "path": "${want}" }${last.m![3]}`);
    }
    next = lines.join('\n');
  }
  const check = (JSON.parse(next) as { references?: { path: string }[] }).references ?? [];
  if (!check.some((r) => r.path === want) || check.length !== refs.length + 1) throw new Error(`could not add ${want} to ${file}`);
  writeFileSync(file, next);
}

/** Removes the reference `addBuildReference` added (used by the scaffold's own test to clean up). */
export function removeBuildReference(root: string, name: string): void {
  const file = join(root, 'tsconfig.build.json');
  const text = readFileSync(file, 'utf8');
  const want = buildRef(name);
  const refs = (JSON.parse(text) as { references?: { path: string }[] }).references ?? [];
  if (!refs.some((r) => r.path === want)) return;
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(`"${want}"`));
  if (i < 0) throw new Error(`${want} is referenced in ${file} but not on a line of its own`);
  const hadComma = /\},\s*$/.test(lines[i]!);
  lines.splice(i, 1);
  if (!hadComma && i > 0) lines[i - 1] = lines[i - 1]!.replace(/\},(\s*)$/, '}$1');
  const next = lines.join('\n');
  const check = (JSON.parse(next) as { references?: { path: string }[] }).references ?? [];
  if (check.some((r) => r.path === want) || check.length !== refs.length - 1) throw new Error(`could not remove ${want} from ${file}`);
  writeFileSync(file, next);
}

/** Creates modules/<name>; throws ScaffoldError on a refusal (and then leaves nothing behind). */
export function scaffold(opts: ScaffoldOptions): ScaffoldResult {
  const root = opts.root ?? REPO_ROOT;
  const { name } = opts;
  validateName(name);
  const protoPackage = opts.protoPackage ?? `chain.${name}.v1beta1`;
  validateProtoPackage(protoPackage);
  const dir = join(root, 'modules', name);
  if (existsSync(dir)) throw new ScaffoldError(`modules/${name} already exists`);
  const taken = workspacePackages(root).get(`@chain/${name}`);
  if (taken) throw new ScaffoldError(`@chain/${name} already exists (${taken})`);
  const owner = protoPackageOwner(root, protoPackage);
  if (owner) throw new ScaffoldError(`proto package ${protoPackage} is already declared in ${owner}: choose another with --proto-package`);

  const p = placeholders(name, protoPackage);
  const tmpRoot = join(root, '.tmp');
  const hadTmpRoot = existsSync(tmpRoot);
  const staging = join(tmpRoot, `new-module-${name}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const files: string[] = [];
    for (const t of walkFiles(TEMPLATES_DIR, '.tmpl')) {
      const rel = fill(relative(TEMPLATES_DIR, t), p).slice(0, -'.tmpl'.length);
      mkdirSync(dirname(join(staging, rel)), { recursive: true });
      writeFileSync(join(staging, rel), fill(readFileSync(t, 'utf8'), p));
      files.push(rel);
    }
    // src/gen: tools/proto-gen over the repository's units plus the staged package
    const stagingRel = relative(root, staging);
    const unit: Unit = { npm: `@chain/${name}`, protoDir: join(stagingRel, 'proto'), outDir: join(stagingRel, 'src', 'gen'), exported: true };
    for (const [f, text] of generate(root, [...unitsOf(root), unit])) {
      if (!f.startsWith(unit.outDir! + sep)) continue;
      const rel = relative(staging, join(root, f));
      mkdirSync(dirname(join(staging, rel)), { recursive: true });
      writeFileSync(join(staging, rel), text);
      files.push(rel);
    }
    if (existsSync(dir)) throw new ScaffoldError(`modules/${name} already exists`);
    renameSync(staging, dir);
    addBuildReference(root, name);
    return { dir, files: files.map((f) => f.split(sep).join('/')).sort() };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    if (!hadTmpRoot) {
      try {
        rmdirSync(tmpRoot);
      } catch {
        // not empty: someone else uses it
      }
    }
  }
}

/** What to do after scaffolding. */
export function nextSteps(name: string, protoPackage = `chain.${name}.v1beta1`): string {
  const p = placeholders(name, protoPackage);
  return [
    'Next steps:',
    `  1. npm install                 links @chain/${name} into node_modules and records it in package-lock.json`,
    `  2. npx nx test @chain/${name}      the scaffold's tests pass as generated`,
    `  3. write the module: the protos in modules/${name}/proto/${p.protoPath}/, then \`npm run proto-gen\`;`,
    `     the state schema (src/keys.ts), keeper, msg-server, query-server, genesis; README.md is the spec`,
    `  4. add it to the app config, apps/node/src/app-config.ts: '${name}' in \`modules\` and \`order.initGenesis\``,
    '     (and in preBlock / beginBlock / endBlock when it gets those hooks)',
    `  5. wire it in createChainApp (apps/node/src/app.ts), keepers in dependency order, then hooks:`,
    `       const ${name}Keeper = new ${p.Name}Keeper({ registry, authority });`,
    `       modules: [..., new ${p.Name}Module(${name}Keeper)]`,
    `     and add "@chain/${name}": "*" to the dependencies of apps/node/package.json (then npm install)`,
  ].join('\n');
}

function parseArgs(argv: readonly string[]): { name: string; protoPackage?: string } {
  let name: string | undefined;
  let protoPackage: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--proto-package') {
      protoPackage = argv[++i];
      if (protoPackage === undefined) throw new ScaffoldError('--proto-package needs a value');
    } else if (a.startsWith('--proto-package=')) {
      protoPackage = a.slice('--proto-package='.length);
    } else if (a.startsWith('-')) {
      throw new ScaffoldError(`unknown option ${a}`);
    } else if (name === undefined) {
      name = a;
    } else {
      throw new ScaffoldError(`unexpected argument ${a}`);
    }
  }
  if (name === undefined) throw new ScaffoldError('missing the module name');
  return { name, protoPackage };
}

function main(argv: readonly string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  try {
    const args = parseArgs(argv);
    const res = scaffold(args);
    const rel = relative(process.cwd(), res.dir) || '.';
    console.log(`created ${rel} (@chain/${args.name}), referenced from tsconfig.build.json:`);
    for (const f of res.files) console.log(`  ${f}`);
    console.log('');
    console.log(nextSteps(args.name, args.protoPackage));
    return 0;
  } catch (e) {
    if (!(e instanceof ScaffoldError)) throw e;
    console.error(`new-module: ${e.message}`);
    console.error(USAGE);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
