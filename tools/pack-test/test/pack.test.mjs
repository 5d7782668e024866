// The pack test: the importable packages work for a chain outside this monorepo.
// 1. builds every package (`tsc -b tsconfig.build.json`), 2. `npm pack`s auth, bank and every @chain package they
// need, 3. installs the tarballs into a new project under os.tmpdir(), 4. runs fixture/main.mjs there with plain
// `node` (public API only: dist/*.js through the "default" export condition) and checks what it printed, and that
// the installed tree holds exactly one @chain/errors.
// PACK_TEST_KEEP=1 keeps the temp project (its path is printed).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ROOT, buildOnce, run } from './build.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const FIXTURE = join(HERE, '..', 'fixture');
/** the packages the fixture chain is composed of; everything they depend on is packed too */
const ENTRY = ['@chain/auth', '@chain/bank', '@chain/server'];
const ROOT_PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** name -> { dir, json } for packages/* and modules/* */
function workspacePackages() {
  const map = new Map();
  for (const group of ['packages', 'modules']) {
    for (const d of readdirSync(join(ROOT, group)).sort()) {
      const file = join(ROOT, group, d, 'package.json');
      if (!existsSync(file)) continue;
      const json = JSON.parse(readFileSync(file, 'utf8'));
      map.set(json.name, { dir: join(ROOT, group, d), json });
    }
  }
  return map;
}

/** ENTRY plus the transitive closure over dependencies and peerDependencies inside the workspace */
function packageClosure(ws) {
  const out = new Set();
  const visit = (name) => {
    if (out.has(name)) return;
    const p = ws.get(name);
    if (!p) throw new Error(`${name} is not a package of packages/* or modules/*`);
    out.add(name);
    for (const dep of Object.keys({ ...p.json.dependencies, ...p.json.peerDependencies })) if (ws.has(dep)) visit(dep);
  };
  ENTRY.forEach(visit);
  return [...out].sort();
}

/** every `node_modules/<name>` folder below `dir` */
function findInstalled(dir, name) {
  const found = [];
  const walk = (nm) => {
    if (!existsSync(nm)) return;
    const target = join(nm, ...name.split('/'));
    if (existsSync(join(target, 'package.json'))) found.push(target);
    for (const e of readdirSync(nm, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const pkgs = e.name.startsWith('@') ? readdirSync(join(nm, e.name)).map((s) => join(nm, e.name, s)) : [join(nm, e.name)];
      for (const p of pkgs) walk(join(p, 'node_modules'));
    }
  };
  walk(join(dir, 'node_modules'));
  return found;
}

describe('pack test: the packed packages compose a chain outside the monorepo', function () {
  const timings = {};
  let tmp;
  let packed; // npm pack --json output
  let consumer;
  let result;
  let names;

  before(function () {
    tmp = mkdtempSync(join(tmpdir(), 'chain-pack-test-'));
    const ws = workspacePackages();
    names = packageClosure(ws);

    // 1. build
    timings.build = buildOnce();

    // 2. pack
    const tarballs = join(tmp, 'tarballs');
    mkdirSync(tarballs);
    const pack = run('npm', ['pack', '--json', '--pack-destination', tarballs, ...names.flatMap((n) => ['-w', n])], ROOT);
    timings.pack = pack.ms;
    packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));

    // 3. a project outside the monorepo that depends on the tarballs
    consumer = join(tmp, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({
      name: 'pack-test-consumer',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:${relative(consumer, join(tarballs, p.filename))}`])),
      // for the TypeScript consumer check (the declarations use Buffer & co.)
      devDependencies: { '@types/node': ROOT_PKG.devDependencies['@types/node'] },
    }, null, 2));
    const install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', consumer], consumer);
    timings.install = install.ms;

    // 4. the script, run with plain node
    copyFileSync(join(FIXTURE, 'compose.mjs'), join(consumer, 'compose.mjs'));
    copyFileSync(join(FIXTURE, 'main.mjs'), join(consumer, 'main.mjs'));
    const main = run(process.execPath, ['main.mjs'], consumer, { allowFail: true });
    timings.run = main.ms;
    if (main.status !== 0) throw new Error(`node main.mjs exited with ${main.status}:\n${main.stdout}\n${main.stderr}`);
    const lines = main.stdout.trim().split('\n');
    result = JSON.parse(lines[lines.length - 1]);
  });

  after(function () {
    console.log(`      timings (ms): ${JSON.stringify(timings)}`);
    if (!tmp) return;
    if (process.env.PACK_TEST_KEEP) console.log(`      kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  });

  it('packs auth, bank and the infrastructure they need', function () {
    expect(names).to.include.members(['@chain/app', '@chain/auth', '@chain/bank', '@chain/codec', '@chain/crypto', '@chain/errors', '@chain/store', '@chain/tx']);
    expect(packed.map((p) => p.name).sort()).to.deep.equal(names);
  });

  it('each tarball holds the built JS, declarations and protos, and no TypeScript sources', function () {
    const ws = workspacePackages();
    for (const p of packed) {
      const files = p.files.map((f) => f.path);
      expect(files, p.name).to.include.members(['package.json', 'dist/index.js', 'dist/index.d.ts']);
      expect(files.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f)), `${p.name}: .ts sources`).to.deep.equal([]);
      expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/')), p.name).to.deep.equal([]);
      if (existsSync(join(ws.get(p.name).dir, 'proto'))) expect(files.some((f) => f.startsWith('proto/') && f.endsWith('.proto')), `${p.name}: protos`).to.equal(true);
    }
  });

  it('the installed tree has exactly one @chain/errors and passes npm ls', function () {
    const copies = findInstalled(consumer, '@chain/errors');
    expect(copies.map((c) => relative(consumer, c))).to.deep.equal([join('node_modules', '@chain', 'errors')]);
    const ls = run('npm', ['ls', '--all', '--json', '--prefix', consumer], consumer, { allowFail: true });
    const tree = JSON.parse(ls.stdout);
    const paths = [];
    const walk = (deps, path) => {
      for (const [name, d] of Object.entries(deps ?? {})) {
        if (name === '@chain/errors') paths.push([...path, name].join(' > '));
        walk(d.dependencies, [...path, name]);
      }
    };
    walk(tree.dependencies, []);
    expect(paths.length, `npm ls @chain/errors: ${paths.join(', ')}`).to.be.greaterThan(0);
    const versions = new Set();
    const collect = (deps) => {
      for (const [name, d] of Object.entries(deps ?? {})) {
        if (name === '@chain/errors') versions.add(`${d.version}${d.deduped ? '' : ' (installed)'}`);
        collect(d.dependencies);
      }
    };
    collect(tree.dependencies);
    expect([...versions].filter((v) => v.endsWith('(installed)'))).to.have.length(1);
    expect(ls.status, `npm ls --all problems:\n${ls.stdout.slice(0, 2000)}\n${ls.stderr}`).to.equal(0);
  });

  it('plain node loads the packages from dist through their public exports', function () {
    for (const [name, url] of Object.entries(result.resolved)) {
      const file = fileURLToPath(url);
      expect(file, name).to.equal(join(consumer, 'node_modules', ...name.split('/'), 'dist', 'index.js'));
    }
  });

  it('@chain/server loads from its tarball, with its protos', function () {
    expect(result.server).to.deep.equal({ startRestServer: 'function', startRpcServer: 'function', registerNodeServices: 'function', proto: true });
  });

  it('InitChain funds the account, a signed MsgSend in a committed block succeeds', function () {
    expect(result.genesisAppHash).to.match(/^[0-9a-f]{64}$/);
    expect(result.height).to.equal(3);
    expect(result.send, JSON.stringify(result.send)).to.include({ code: 0 });
  });

  it('the recipient balance is visible through the ABCI query (canonical and /cosmos. path)', function () {
    expect(result.bob).to.deep.equal({ code: 0, amount: '12345' });
    expect(result.bobCosmos).to.deep.equal({ code: 0, amount: '12345' });
    // genesis 10^9, minus 12345 sent, minus the 100 fee of each of the two txs (the failed one pays its fee too)
    expect(result.alice).to.deep.equal({ code: 0, amount: String(1_000_000_000 - 12345 - 200) });
  });

  it('a TypeScript consumer typechecks against the published declarations', function () {
    copyFileSync(join(FIXTURE, 'types-check.ts'), join(consumer, 'types-check.ts'));
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'],
      },
      files: ['types-check.ts'],
    }));
    const tsc = run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], consumer, { allowFail: true });
    timings.typecheck = tsc.ms;
    expect(tsc.status, `${tsc.stdout}${tsc.stderr}`).to.equal(0);
  });

  it("a module's error reaches the app with its registered code (one error registry)", function () {
    expect(result.overdraw.code, JSON.stringify(result.overdraw)).to.equal(result.insufficientFunds.code);
    expect(result.overdraw.codespace).to.equal(result.insufficientFunds.codespace);
  });
});

