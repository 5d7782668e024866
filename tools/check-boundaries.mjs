#!/usr/bin/env node
// Enforces the layering of the monorepo (plain Node, no dependencies). Scans every import
// (`import ... from`, `import '...'`, `export ... from`, dynamic `import()`, `require()`) in the source and
// test folders of every workspace package, and every package.json's dependencies:
//
//  1. infrastructure (`packages/*`) never depends on a module (`modules/*`), on `@chain/node`, or on anything
//     from apps/, e2e/, tools/;
//  2. a module's src imports only infrastructure packages, external libraries and, from another module, only
//     `import type` (the interfaces it declares); module tests may import other modules (test composition);
//     a module declares the infrastructure it uses as peerDependencies, never as dependencies, and another
//     module at most as a devDependency (tests) or a peerDependency (types only);
//  3. no relative import leaves its package folder (`../../other-package/src/...`), and no infrastructure package
//     or module reads files outside its folder (`new URL('../../bank/proto', import.meta.url)`);
//  4. nothing depends on `@chain/node` (apps/node) except e2e/ and tools/;
//  5. every imported package (`@chain/*` and external) is declared in the importing package's package.json:
//     src of a published package in dependencies or peerDependencies, tests (and private packages) in any of
//     dependencies, peerDependencies, devDependencies;
//  6. dependencies between `@chain/*` packages use a real version range (not `*`);
//  7. every infrastructure package and module is in the build (root tsconfig.build.json), its tsconfig.build.json
//     references the @chain packages it depends on, and a published one has { source, types, default } exports.
//
// Prints each violation as `file:line: message` and exits 1 if there is any. Before checking the repository it
// checks itself on a built-in bad fixture (a temp dir tree) and fails if the fixture's violations are not all
// reported, so the check cannot silently pass.
//
// Usage: node tools/check-boundaries.mjs [--root DIR] [--no-self-test] [--json]
import { readFileSync, readdirSync, statSync, existsSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SOURCE_EXT = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.nx', '.tmp', 'coverage', 'fixtures-out']);
const SCAN_DIRS = ['src', 'test', 'bin'];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

// ---------------------------------------------------------------------------------------------------------
// Lexing: blank out comments and the contents of string/template literals (keeping offsets and newlines), so
// that the import regexes only see code; specifiers are read back from the original text at the same offsets.

const REGEX_PREV = new Set([...'(,=:[!&|?{};+-*%<>~^', '']);
const REGEX_KEYWORDS = /(?:^|[^\w$])(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;

export function mask(src) {
  const out = src.split('');
  const n = src.length;
  let i = 0;
  let lastSig = '';
  let lastSigEnd = 0;
  const blank = (a, b) => {
    for (let k = a; k < b; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const e = src.indexOf('\n', i);
      const end = e < 0 ? n : e;
      blank(i, end);
      i = end;
    } else if (c === '/' && d === '*') {
      const e = src.indexOf('*/', i + 2);
      const end = e < 0 ? n : e + 2;
      blank(i, end);
      i = end;
    } else if (c === "'" || c === '"') {
      let k = i + 1;
      while (k < n && src[k] !== c && src[k] !== '\n') k += src[k] === '\\' ? 2 : 1;
      blank(i + 1, k); // keep the quotes: specifiers are read from the original text
      i = k + 1;
      lastSig = c;
      lastSigEnd = i;
    } else if (c === '`') {
      let k = i + 1;
      let depth = 0;
      while (k < n) {
        if (src[k] === '\\') { k += 2; continue; }
        if (depth === 0 && src[k] === '`') break;
        if (src[k] === '$' && src[k + 1] === '{') { depth++; k += 2; continue; }
        if (depth > 0 && src[k] === '}') depth--;
        k++;
      }
      blank(i + 1, k);
      i = k + 1;
      lastSig = '`';
      lastSigEnd = i;
    } else if (c === '/' && (REGEX_PREV.has(lastSig) || REGEX_KEYWORDS.test(src.slice(Math.max(0, lastSigEnd - 12), lastSigEnd)))) {
      // a regular expression literal
      let k = i + 1;
      let cls = false;
      while (k < n && src[k] !== '\n') {
        if (src[k] === '\\') { k += 2; continue; }
        if (src[k] === '[') cls = true;
        else if (src[k] === ']') cls = false;
        else if (src[k] === '/' && !cls) break;
        k++;
      }
      blank(i + 1, k);
      i = k + 1;
      lastSig = '/';
      lastSigEnd = i;
    } else {
      if (!/\s/.test(c)) {
        lastSig = /[\w$]/.test(c) ? 'w' : c;
        lastSigEnd = i + 1;
      }
      i++;
    }
  }
  return out.join('');
}

/**
 * The imports of one source text: `{ spec, line, typeOnly, kind }`. `typeOnly` is true only for what is erased
 * at run time: `import type ...`, `export type ... from`, and `import('x').T` in a type position. Note that
 * `import { type A } from 'x'` still loads 'x' under verbatimModuleSyntax, so it counts as a value import.
 */
export function findImports(src) {
  const m = mask(src);
  const res = [];
  const lineAt = (pos) => {
    let l = 1;
    for (let k = 0; k < pos; k++) if (src.charCodeAt(k) === 10) l++;
    return l;
  };
  const specAt = (quotePos) => {
    const q = src[quotePos];
    const end = src.indexOf(q, quotePos + 1);
    return src.slice(quotePos + 1, end);
  };
  let r;
  // import/export ... from 'x'
  // the clause between the keyword and `from` holds only names, commas, braces and `*` (`{ a, type B as c }`,
  // `* as ns`, `def, { x }`), so `export type T = {...}` or `export interface I {...}` can never start a match
  const fromRe = /(?<![\w$.])(import|export)(\s+type(?=[\s{*]))?([\w$\s,{}*]*?)\bfrom\s*(['"])/g;
  while ((r = fromRe.exec(m))) {
    const quotePos = r.index + r[0].length - 1;
    res.push({ spec: specAt(quotePos), line: lineAt(r.index), typeOnly: Boolean(r[2]), kind: r[1] });
  }
  // import 'x' (side effect)
  const bareRe = /(?<![\w$.])import\s*(['"])/g;
  while ((r = bareRe.exec(m))) {
    const quotePos = r.index + r[0].length - 1;
    res.push({ spec: specAt(quotePos), line: lineAt(r.index), typeOnly: false, kind: 'import' });
  }
  // import('x') and require('x')
  const callRe = /(?<![\w$.])(typeof\s+)?(import|require)\s*\(\s*(['"])/g;
  while ((r = callRe.exec(m))) {
    const quotePos = r.index + r[0].length - 1;
    const spec = specAt(quotePos);
    const close = m.indexOf(')', quotePos + spec.length + 2);
    const after = m.slice(close + 1, close + 40);
    const member = /^\s*\.\s*([A-Za-z_$][\w$]*)/.exec(after);
    const typeOnly = r[2] === 'import' && (Boolean(r[1]) || (member !== null && !['then', 'catch', 'finally'].includes(member[1])));
    res.push({ spec, line: lineAt(r.index), typeOnly, kind: r[2] });
  }
  // new URL('x', import.meta.url): files a package reads at run time (protos, fixtures)
  const urlRe = /(?<![\w$.])new\s+URL\s*\(\s*(['"])/g;
  while ((r = urlRe.exec(m))) {
    const quotePos = r.index + r[0].length - 1;
    const spec = specAt(quotePos);
    if (/^\s*,\s*import\s*\.\s*meta\s*\.\s*url\b/.test(m.slice(quotePos + spec.length + 2))) {
      res.push({ spec, line: lineAt(r.index), typeOnly: false, kind: 'url' });
    }
  }
  return res.sort((a, b) => a.line - b.line);
}

// ---------------------------------------------------------------------------------------------------------
// Workspace discovery

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function expandWorkspaces(root, patterns) {
  const dirs = [];
  for (const p of patterns) {
    if (p.endsWith('/*')) {
      const base = join(root, p.slice(0, -2));
      if (!existsSync(base)) continue;
      for (const e of readdirSync(base).sort()) {
        const d = join(base, e);
        if (statSync(d).isDirectory() && existsSync(join(d, 'package.json'))) dirs.push(d);
      }
    } else if (existsSync(join(root, p, 'package.json'))) {
      dirs.push(join(root, p));
    }
  }
  return dirs;
}

function kindOf(root, dir) {
  const rel = relative(root, dir).split(sep);
  if (rel[0] === 'packages') return 'infra';
  if (rel[0] === 'modules') return 'module';
  if (rel[0] === 'apps') return 'app';
  if (rel[0] === 'e2e') return 'e2e';
  if (rel[0] === 'tools') return 'tool';
  return 'other';
}

export function loadWorkspace(root) {
  const rootPkg = readJson(join(root, 'package.json'));
  const pkgs = expandWorkspaces(root, rootPkg.workspaces ?? []).map((dir) => {
    const file = join(dir, 'package.json');
    const text = readFileSync(file, 'utf8');
    const json = JSON.parse(text);
    return { dir, file, text, json, name: json.name, kind: kindOf(root, dir) };
  });
  return { root, pkgs, byName: new Map(pkgs.map((p) => [p.name, p])) };
}

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) yield* walk(join(dir, e.name));
    } else if (SOURCE_EXT.test(e.name)) {
      yield join(dir, e.name);
    }
  }
}

const packageOf = (spec) => {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

const inside = (dir, file) => {
  const r = relative(dir, file);
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r));
};

function lineOfKey(text, section, key) {
  const lines = text.split('\n');
  let inSection = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].includes(`"${section}"`)) inSection = true;
    if (inSection && lines[i].includes(`"${key}"`)) return i + 1; // also a one-line section `"deps": { "x": "1" }`
    if (inSection && /}/.test(lines[i]) && !lines[i].includes(`"${section}"`)) inSection = false;
  }
  return 1;
}

// ---------------------------------------------------------------------------------------------------------
// The rules

const LAYER = { infra: 'infrastructure (packages/*)', module: 'module (modules/*)', app: 'app (apps/*)', e2e: 'e2e', tool: 'tools/*', other: 'other' };

export function check(root) {
  const ws = loadWorkspace(root);
  // tooling declared at the root (mocha, chai, tsx, @types/*) serves every test and every private package
  const rootPkg = readJson(join(root, 'package.json'));
  const rootDeclared = new Set([...Object.keys(rootPkg.dependencies ?? {}), ...Object.keys(rootPkg.devDependencies ?? {})]);
  const violations = [];
  const report = (file, line, msg) => violations.push({ file: relative(root, file) || file, line, msg });

  // package.json dependencies
  for (const p of ws.pkgs) {
    const sections = ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies'];
    for (const section of sections) {
      for (const [dep, range] of Object.entries(p.json[section] ?? {})) {
        const target = ws.byName.get(dep);
        if (!target) continue;
        const line = lineOfKey(p.text, section, dep);
        const err = (msg) => report(p.file, line, `${p.name} ${section} "${dep}": ${msg}`);
        if (target === p) { err('depends on itself'); continue; }
        if (p.kind === 'infra' && target.kind !== 'infra') err(`infrastructure must not depend on ${LAYER[target.kind]} package ${dep}`);
        if (target.name === '@chain/node' && p.kind !== 'e2e' && p.kind !== 'tool') err('only e2e/ and tools/ may depend on @chain/node');
        if (p.kind === 'module') {
          if (target.kind === 'app' || target.kind === 'e2e' || target.kind === 'tool') err(`a module must not depend on ${LAYER[target.kind]} package ${dep}`);
          if (target.kind === 'module' && (section === 'dependencies' || section === 'optionalDependencies')) {
            err('a module never depends on another module at run time: use a devDependency (tests), or a peerDependency when its published types `import type` from it');
          }
          if (target.kind === 'infra' && (section === 'dependencies' || section === 'optionalDependencies')) err('a module declares infrastructure packages as peerDependencies (one shared copy in the importing chain), not dependencies');
        }
        if (!p.json.private && section !== 'devDependencies' && (range === '*' || range === '' || range === 'latest')) {
          err(`use a real version range (e.g. ^${target.json.version ?? '0.1.0'}), not "${range}"`);
        }
      }
    }
  }

  // the build: every infrastructure package and module is built by `tsc -b tsconfig.build.json` (listed there) with a
  // tsconfig.build.json that references the @chain packages it depends on, and published through conditional exports
  const rootBuild = join(root, 'tsconfig.build.json');
  if (existsSync(rootBuild)) {
    const readTsconfig = (file) => {
      try {
        return JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        report(file, 1, `cannot parse: ${e.message}`);
        return undefined;
      }
    };
    const rootRefs = new Set((readTsconfig(rootBuild)?.references ?? []).map((r) => resolve(root, r.path)));
    for (const p of ws.pkgs) {
      if (p.kind !== 'infra' && p.kind !== 'module') continue;
      const own = join(p.dir, 'tsconfig.build.json');
      if (!existsSync(own)) {
        report(p.file, 1, `${p.name} has no tsconfig.build.json (the build cannot emit its dist/)`);
        continue;
      }
      if (![own, p.dir].some((x) => rootRefs.has(x))) report(rootBuild, 1, `${relative(root, own)} is not referenced here: npm run build skips ${p.name}`);
      const refs = new Set((readTsconfig(own)?.references ?? []).map((r) => resolve(p.dir, r.path)));
      for (const dep of Object.keys({ ...p.json.dependencies, ...p.json.peerDependencies })) {
        const t = ws.byName.get(dep);
        if (!t || t === p) continue;
        if (![join(t.dir, 'tsconfig.build.json'), t.dir].some((x) => refs.has(x))) {
          report(own, 1, `references lack ${relative(p.dir, join(t.dir, 'tsconfig.build.json'))} (${p.name} depends on ${dep})`);
        }
      }
      const dot = p.json.exports?.['.'];
      if (!p.json.private && !(dot && typeof dot === 'object' && dot.source && dot.types && dot.default)) {
        report(p.file, lineOfKey(p.text, 'exports', '.'), `${p.name}: exports["."] must be { source, types, default } (src for development, dist when installed)`);
      }
    }
  }

  // imports
  for (const p of ws.pkgs) {
    const deps = p.json.dependencies ?? {};
    const peers = p.json.peerDependencies ?? {};
    const devs = p.json.devDependencies ?? {};
    const opt = p.json.optionalDependencies ?? {};
    for (const sub of SCAN_DIRS) {
      const isSrc = sub !== 'test';
      for (const file of walk(join(p.dir, sub))) {
        const text = readFileSync(file, 'utf8');
        for (const imp of findImports(text)) {
          const err = (msg) => report(file, imp.line, msg);
          const spec = imp.spec;
          if (imp.kind === 'url') {
            // a package (published or not) reads only its own files; e2e/tools/apps may reach into the repo
            const target = fileURLToPath(new URL(spec, pathToFileURL(file)));
            if ((p.kind === 'infra' || p.kind === 'module') && !inside(p.dir, target)) {
              err(`new URL('${spec}', import.meta.url) reads outside the package folder of ${p.name}`);
            } else if ((p.kind === 'infra' || p.kind === 'module') && sub === 'src') {
              // the same URL must work from dist/ (one level below the package root, like src/): tsc copies no assets
              if (inside(join(p.dir, 'src'), target)) err(`new URL('${spec}', import.meta.url) points into src/, which is not published (tsc copies no assets to dist/)`);
              else if (!existsSync(target)) err(`new URL('${spec}', import.meta.url) points to ${relative(root, target)}, which does not exist`);
            }
            continue;
          }
          if (spec.startsWith('.') || spec.startsWith('/')) {
            const target = resolve(dirname(file), spec);
            // a tools/* project may use the plain scripts of tools/ itself (tools/check-boundaries.mjs), no package's files
            const toolScript = p.kind === 'tool' && inside(join(root, 'tools'), target) && !ws.pkgs.some((q) => inside(q.dir, target));
            if (!inside(p.dir, target) && !toolScript) err(`relative import '${spec}' leaves the package folder of ${p.name}; import the other package by its name`);
            continue;
          }
          if (BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]) || spec.startsWith('node:')) continue;
          const name = packageOf(spec);
          if (name === p.name) continue; // self-reference through exports
          const target = ws.byName.get(name);
          if (target) {
            if (target.name === '@chain/node' && p.kind !== 'e2e' && p.kind !== 'tool') err(`'${spec}': only e2e/ and tools/ may import @chain/node`);
            if (p.kind === 'infra' && target.kind !== 'infra') err(`'${spec}': infrastructure must not import ${LAYER[target.kind]} package ${name}`);
            if (p.kind === 'module') {
              if (target.kind === 'app' || target.kind === 'e2e' || target.kind === 'tool') err(`'${spec}': a module must not import ${LAYER[target.kind]} package ${name}`);
              if (target.kind === 'module' && isSrc && !imp.typeOnly) {
                err(`'${spec}': a module's src may use another module only through \`import type\` (declare the interface you need and let the app wire the keeper)`);
              }
            }
          }
          // declared?
          const declaredRuntime = name in deps || name in peers || name in opt;
          const declaredAny = declaredRuntime || name in devs || (!target && rootDeclared.has(name));
          const needsRuntime = isSrc && !p.json.private && !imp.typeOnly;
          if (needsRuntime ? !declaredRuntime : !declaredAny) {
            const where = needsRuntime ? (name in devs ? 'dependencies or peerDependencies (it is only a devDependency)' : 'dependencies or peerDependencies') : 'dependencies, peerDependencies or devDependencies';
            err(`'${spec}': ${name} is not declared in ${relative(root, p.file)} ${where}`);
          } else if (isSrc && !p.json.private && imp.typeOnly && !declaredRuntime && target) {
            // a type-only import still has to resolve for the consumers of the published declarations
            err(`'${spec}': ${name} is used in published types; declare it in dependencies or peerDependencies`);
          }
        }
      }
    }
  }
  violations.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  return violations;
}

// ---------------------------------------------------------------------------------------------------------
// Self-test: a small bad tree whose violations must all be reported.

export const SELF_TEST_EXPECTED = [
  ['packages/low/package.json', /infrastructure must not depend on module/],
  ['packages/low/src/index.ts', /infrastructure must not import module/],
  ['packages/low/src/index.ts', /leaves the package folder/],
  ['modules/m1/package.json', /as peerDependencies/],
  ['modules/m1/package.json', /real version range/],
  ['modules/m1/src/index.ts', /only through `import type`/],
  ['modules/m1/src/index.ts', /only e2e\/ and tools\/ may import @chain\/node/],
  ['modules/m1/src/index.ts', /lodash is not declared/],
  ['modules/m1/src/dyn.ts', /only through `import type`/],
  ['packages/low/test/helpers.ts', /reads outside the package folder/],
];

export function writeBadFixture(dir) {
  const w = (rel, content) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  w('package.json', { name: 'fixture', private: true, workspaces: ['packages/*', 'modules/*', 'apps/*'] });
  w('packages/low/package.json', { name: '@chain/low', version: '0.1.0', devDependencies: { '@chain/m1': '*' } });
  w('packages/low/src/index.ts', "import { x } from '@chain/m1';\nimport { y } from '../../other/src/y.js';\nexport const z = x + y;\n");
  w('packages/low/test/helpers.ts', "export const P = new URL('../../../modules/m1/proto', import.meta.url);\nexport const Q = new URL('../proto', import.meta.url);\n");
  w('packages/ok/package.json', { name: '@chain/ok', version: '0.1.0' });
  w('packages/ok/src/index.ts', "// import { nope } from '@chain/m1';\nconst s = \"import x from '@chain/m2'\";\nconst r = /from '@chain\\/m2'/;\nexport const ok = s + r;\n");
  w('modules/m1/package.json', { name: '@chain/m1', version: '0.1.0', dependencies: { '@chain/ok': '*' }, peerDependencies: { '@chain/m2': '^0.1.0' } });
  w('modules/m1/src/index.ts', [
    "import type { Keeper } from '@chain/m2';",
    "import { value } from '@chain/m2';",
    "import { run } from '@chain/node';",
    "import _ from 'lodash';",
    "import { ok } from '@chain/ok';",
    'export const k: Keeper | undefined = undefined; export { value, run, _, ok };',
    '',
  ].join('\n'));
  w('modules/m1/src/dyn.ts', "export type T = import('@chain/m2').Keeper;\nexport const load = () => import('@chain/m2');\n");
  w('modules/m1/test/compose.test.ts', "import { value } from '@chain/m2';\nexport { value };\n");
  w('modules/m2/package.json', { name: '@chain/m2', version: '0.1.0' });
  w('modules/m2/src/index.ts', 'export interface Keeper { a: number }\nexport const value = 1;\n');
  w('apps/node/package.json', { name: '@chain/node', version: '0.1.0', private: true, dependencies: { '@chain/m1': '*' } });
  w('apps/node/src/index.ts', "import { value } from '@chain/m1';\nexport const run = value;\n");
}

export function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), 'check-boundaries-'));
  try {
    writeBadFixture(dir);
    const v = check(dir);
    const problems = [];
    for (const [file, re] of SELF_TEST_EXPECTED) {
      if (!v.some((x) => x.file === file && re.test(x.msg))) problems.push(`not reported: ${file}: ${re}`);
    }
    // things that must NOT be reported: comments, strings, regexes, type-only imports, tests composing modules
    const falsePositives = v.filter((x) => x.file.startsWith('packages/ok/') || x.file.startsWith('modules/m1/test/') || x.file.startsWith('apps/')
      || (x.file === 'modules/m1/src/index.ts' && x.line === 1) || (x.file === 'modules/m1/src/dyn.ts' && x.line === 1));
    for (const x of falsePositives) problems.push(`false positive: ${x.file}:${x.line}: ${x.msg}`);
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const rootArg = args.indexOf('--root');
  const root = resolve(rootArg >= 0 ? args[rootArg + 1] : join(dirname(fileURLToPath(import.meta.url)), '..'));
  if (!args.includes('--no-self-test')) {
    const problems = selfTest();
    if (problems.length) {
      for (const p of problems) console.error(`check-boundaries self-test: ${p}`);
      console.error('check-boundaries: the self-test failed; the checker itself is broken');
      process.exit(2);
    }
  }
  const v = check(root);
  if (args.includes('--json')) {
    console.log(JSON.stringify(v));
  } else {
    for (const x of v) console.log(`${x.file}:${x.line}: ${x.msg}`);
    console.log(v.length ? `check-boundaries: ${v.length} violation(s)` : 'check-boundaries: no violations');
  }
  process.exit(v.length ? 1 : 0);
}
