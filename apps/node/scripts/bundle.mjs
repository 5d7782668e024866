#!/usr/bin/env node
// The last step of `npm run build`: bundles chaind's compiled output (apps/node/dist/main.js, what tsc -b wrote) and
// the JavaScript it imports from node_modules into a few files, dist/bundle/ (esbuild, ES modules, one chunk per
// dynamic import so a client command does not load the node). bin/chaind.mjs runs it when it is current.
//
// Why: Node resolves, reads and compiles each of the ~1,100 module files chaind loads separately (stat calls, a
// package.json lookup per import, one compile each); at start that was ~1.2 s of a ~2 s start to the engine on a
// slow 2-core machine. From the bundle the same start reaches the engine ~0.5 s sooner (see docs/architecture.md).
//
// What stays outside the bundle:
// - native addons (classic-level, secp256k1, keccak and their loader): loaded by Node from node_modules;
// - worker threads' code (the tx index, signature checks, the genesis hashing and tree builds): each worker loads the
//   compiled files named by `new URL('./x.js', import.meta.url)`;
// - files read at run time (protos, the explorer's assets, CometBFT's installer): every `import.meta.url` (and a
//   CommonJS file's `__dirname`/`__filename`) is replaced with its original file's location, so each such path
//   names the file it named before bundling. The bundle is therefore tied to this checkout: bundle.json records the
//   root, and chaind.mjs ignores a bundle built elsewhere.
//
// `node apps/node/scripts/bundle.mjs [--out DIR]` (default apps/node/dist/bundle). Exits non-zero when the build
// fails or when a check below fails.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(APP, '..', '..');
const outArg = process.argv.indexOf('--out');
const OUT = outArg >= 0 ? resolve(process.argv[outArg + 1]) : join(APP, 'dist', 'bundle');

/** Packages with native addons (Node loads their .node files relative to their own folders). */
const NATIVE = ['classic-level', 'secp256k1', 'keccak', 'node-gyp-build', 'bufferutil', 'utf-8-validate'];

/**
 * @ethereumjs/evm's files that @chain/evm's interpreter fast paths import by their path in the package (its exports
 * map has only the root; modules/evm/src/interpreter-fast.ts): resolved to the files the bundled EVM imports, so
 * the patch and the EVM share one module.
 */
const EVM_FILE = /^@ethereumjs\/evm\/dist\/esm\/([\w/-]+\.js)$/;

/**
 * Worker threads whose code is bundled too (an entry of its own, sharing chunks with the node's): the spawning file's
 * literal name of the worker's compiled file becomes the bundled entry's URL. The tx index's worker starts while the
 * node opens its store and the engine waits for it: from the bundle it was ready in ~145 ms instead of ~285 ms.
 * (The other workers run during a genesis import only, or from inline code.)
 */
const WORKERS = [
  { name: 'index-worker-main', spawner: 'packages/indexer/dist/index-worker.js', literal: "'./index-worker-main.js'", entry: 'packages/indexer/dist/index-worker-main.js' },
];

const locations = {
  name: 'original-locations',
  setup(b) {
    b.onResolve({ filter: EVM_FILE }, async (args) => {
      const root = await b.resolve('@ethereumjs/evm', { kind: 'import-statement', resolveDir: args.resolveDir });
      if (root.errors.length > 0) return { errors: root.errors };
      return { path: join(dirname(root.path), EVM_FILE.exec(args.path)[1]) };
    });
    b.onLoad({ filter: /\.(js|mjs|cjs)$/ }, (args) => {
      let src = readFileSync(args.path, 'utf8');
      const worker = WORKERS.find((w) => args.path === join(ROOT, w.spawner));
      if (worker) {
        if (src.split(worker.literal).length !== 2) throw new Error(`${worker.spawner} does not name ${worker.literal} exactly once`);
        src = src.replace(worker.literal, JSON.stringify(pathToFileURL(join(OUT, `${worker.name}.mjs`)).href));
        worker.replaced = true;
      }
      if (src.includes('import.meta.url')) src = src.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      // a CommonJS file (no `import.meta`, not .mjs) that names its own folder: esbuild wraps each CommonJS file in a
      // function, so these are that file's own
      if (!args.path.endsWith('.mjs') && !src.includes('import.meta') && /\b__(dirname|filename)\b/.test(src)) {
        src = `var __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)};\n${src}`;
      }
      return { contents: src, loader: 'js' };
    });
  },
};

const started = Date.now();
const tmp = `${OUT}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: join(APP, 'dist', 'main.js'), ...Object.fromEntries(WORKERS.map((w) => [w.name, join(ROOT, w.entry)])) },
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: tmp,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  external: NATIVE,
  // the compiled packages (their `default` export condition), never their TypeScript sources
  conditions: ['default'],
  // bundled CommonJS calls `require` for Node's built-in modules and the native addons
  banner: { js: "import { createRequire as __chaindCreateRequire } from 'node:module'; const require = __chaindCreateRequire(import.meta.url);" },
  plugins: [locations],
  metafile: true,
  minifyWhitespace: true,
  logLevel: 'warning',
});

for (const w of WORKERS) {
  if (!w.replaced) {
    console.error(`bundle: ${w.spawner} (which starts the ${w.name} worker) is not in the bundle`);
    process.exit(1);
  }
}

// the fast paths and the EVM must share @ethereumjs/evm's interpreter module (one copy in the bundle)
const inputs = result.metafile.inputs;
const fast = Object.entries(inputs).find(([p]) => /modules\/evm\/dist\/interpreter-fast\.js$/.test(p));
const interp = fast?.[1].imports.find((i) => i.original === '@ethereumjs/evm/dist/esm/interpreter.js');
const evmImports = Object.entries(inputs).filter(([p]) => /@ethereumjs\/evm\/dist\/esm\/evm\.js$/.test(p)).flatMap(([, v]) => v.imports.map((i) => i.path));
if (!fast || !interp || !evmImports.includes(interp.path)) {
  console.error(`bundle: @chain/evm's interpreter fast paths do not import the interpreter the bundled EVM imports (${interp?.path ?? 'not found'})`);
  process.exit(1);
}

if (process.env.BUNDLE_METAFILE) writeFileSync(process.env.BUNDLE_METAFILE, JSON.stringify(result.metafile));
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
writeFileSync(join(tmp, 'bundle.json'), JSON.stringify({
  root: ROOT, builtAt: new Date().toISOString(), inputs: Object.keys(inputs).length, bytes,
}, null, 2) + '\n');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(dirname(OUT), { recursive: true });
renameSync(tmp, OUT);
console.log(`bundle: ${Object.keys(inputs).length} files into ${Object.keys(result.metafile.outputs).length} (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${relative(ROOT, OUT) || OUT}, ${Date.now() - started} ms`);
