// tools/check-boundaries.mjs must report every kind of wrong-way dependency (so that it cannot silently pass):
// runs it on a bad temp tree and on small good/bad variants, through its API and through its CLI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { check, findImports, selfTest, writeBadFixture, SELF_TEST_EXPECTED } from '../../check-boundaries.mjs';

const SCRIPT = fileURLToPath(new URL('../../check-boundaries.mjs', import.meta.url));

describe('check-boundaries', function () {
  let dir;
  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'check-boundaries-test-'));
    writeBadFixture(dir);
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports every violation of the bad fixture, and nothing in comments, strings, regexes, type imports or tests', function () {
    expect(selfTest()).to.deep.equal([]);
    const v = check(dir);
    for (const [file, re] of SELF_TEST_EXPECTED) expect(v.some((x) => x.file === file && re.test(x.msg)), `${file} ${re}`).to.equal(true);
    expect(v.filter((x) => x.file.startsWith('packages/ok/') || x.file.startsWith('modules/m1/test/'))).to.deep.equal([]);
  });

  it('the CLI prints file:line: message and exits 1', function () {
    const r = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
    expect(r.status).to.equal(1);
    expect(r.stdout).to.match(/^packages\/low\/src\/index\.ts:1: '@chain\/m1': infrastructure must not import module/m);
    expect(r.stdout).to.match(/^packages\/low\/src\/index\.ts:2: relative import '\.\.\/\.\.\/other\/src\/y\.js' leaves the package folder/m);
    expect(r.stdout).to.match(/^modules\/m1\/src\/index\.ts:2: '@chain\/m2': a module's src may use another module only through `import type`/m);
  });

  it('exits 0 once the fixture is fixed', function () {
    const w = (rel, content) => writeFileSync(join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content));
    w('packages/low/package.json', { name: '@chain/low', version: '0.1.0' });
    w('packages/low/src/index.ts', 'export const z = 1;\n');
    w('packages/low/test/helpers.ts', "export const Q = new URL('../proto', import.meta.url);\n");
    w('modules/m1/package.json', {
      name: '@chain/m1', version: '0.1.0', peerDependencies: { '@chain/ok': '^0.1.0', '@chain/m2': '^0.1.0' }, devDependencies: { '@chain/m2': '^0.1.0' },
    });
    w('modules/m1/src/index.ts', "import type { Keeper } from '@chain/m2';\nimport { ok } from '@chain/ok';\nexport const k: Keeper | undefined = undefined; export { ok };\n");
    w('modules/m1/src/dyn.ts', "export type T = import('@chain/m2').Keeper;\n");
    w('apps/node/package.json', { name: '@chain/node', version: '0.1.0', private: true, dependencies: { '@chain/m1': '*' } });
    const r = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).to.contain('no violations');
    expect(r.status).to.equal(0);
  });

  it('reports packages left out of the build, missing project references and unconditional exports', function () {
    const w = (rel, content) => writeFileSync(join(dir, rel), JSON.stringify(content));
    w('tsconfig.build.json', { files: [], references: [{ path: 'packages/ok/tsconfig.build.json' }, { path: 'modules/m1/tsconfig.build.json' }] });
    w('packages/ok/tsconfig.build.json', { include: ['src'] });
    w('modules/m1/tsconfig.build.json', { include: ['src'], references: [{ path: '../m2/tsconfig.build.json' }] });
    w('modules/m2/tsconfig.build.json', { include: ['src'] });
    w('packages/ok/package.json', { name: '@chain/ok', version: '0.1.0', exports: { '.': './src/index.ts' } });
    const v = check(dir).map((x) => `${x.file}:${x.line}: ${x.msg}`);
    expect(v).to.include('packages/low/package.json:1: @chain/low has no tsconfig.build.json (the build cannot emit its dist/)');
    expect(v).to.include('tsconfig.build.json:1: modules/m2/tsconfig.build.json is not referenced here: npm run build skips @chain/m2');
    expect(v).to.include('modules/m1/tsconfig.build.json:1: references lack ../../packages/ok/tsconfig.build.json (@chain/m1 depends on @chain/ok)');
    expect(v.some((x) => /^packages\/ok\/package\.json:\d+: @chain\/ok: exports\["\."\] must be \{ source, types, default \}/.test(x)), v.join('\n')).to.equal(true);
  });

  it('checks the run-time file URLs of src: inside the package, not into src/, existing (they must work from dist/)', function () {
    mkdirSync(join(dir, 'packages/ok/src/gen'), { recursive: true });
    mkdirSync(join(dir, 'packages/ok/proto'));
    writeFileSync(join(dir, 'packages/ok/src/protos.ts'), "export const A = new URL('../proto', import.meta.url);\nexport const B = new URL('../protos', import.meta.url);\n");
    writeFileSync(join(dir, 'packages/ok/src/gen/x.ts'), "export const C = new URL('../proto', import.meta.url);\nexport const D = new URL('../../proto', import.meta.url);\n");
    const v = check(dir).filter((x) => x.file.startsWith('packages/ok/')).map((x) => `${x.file}:${x.line}: ${x.msg}`);
    expect(v).to.deep.equal([
      "packages/ok/src/gen/x.ts:1: new URL('../proto', import.meta.url) points into src/, which is not published (tsc copies no assets to dist/)",
      "packages/ok/src/protos.ts:2: new URL('../protos', import.meta.url) points to packages/ok/protos, which does not exist",
    ]);
  });

  it('finds static, re-export, side-effect, dynamic, require imports and import.meta.url file URLs with their lines', function () {
    const src = [
      "import a from 'a';",
      "import type { B } from 'b';",
      'import {',
      '  type C,',
      "} from 'c';",
      "export * from 'd';",
      "export type { E } from 'e';",
      "import 'f';",
      "const g = await import('g');",
      "type H = import('h').H;",
      "const i = require('i');",
      "// import j from 'j';",
      "const k = \"import k from 'k'\";",
      '/* import l from "l" */',
      "const m = `import m from 'm'`;",
      "const n = /import n from 'n'/;",
      "import('o').then((x) => x);",
      "const p = new URL('../proto', import.meta.url);",
      "const q = new URL('../proto', base);",
      'export type T = {',
      '  a: number',
      '}',
      "import { r } from 'r';",
    ].join('\n');
    const got = findImports(src).map((i) => [i.spec, i.line, i.typeOnly]);
    expect(got).to.deep.equal([
      ['a', 1, false], ['b', 2, true], ['c', 3, false], ['d', 6, false], ['e', 7, true], ['f', 8, false],
      ['g', 9, false], ['h', 10, true], ['i', 11, false], ['o', 17, false], ['../proto', 18, false], ['r', 23, false],
    ]);
    expect(findImports(src).find((i) => i.line === 18)?.kind).to.equal('url');
  });
});
