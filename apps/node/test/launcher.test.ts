import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledIsCurrent, currentBuild } from '../bin/compiled.mjs';

const BIN = new URL('../bin/chaind.mjs', import.meta.url).pathname;
const CMD = new URL('../bin/chaind', import.meta.url).pathname;
const ROOT = new URL('../../..', import.meta.url).pathname;

describe('chaind launcher: compiled when the build is current, else the sources', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'launcher-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const file = (rel: string, at: number): void => {
    const p = join(root, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, 'x');
    utimesSync(p, at, at);
  };

  it('is current only when every package with sources has a dist/ and a tsbuildinfo newer than each source', () => {
    expect(compiledIsCurrent(root)).to.equal(true); // no packages
    file('packages/a/src/index.ts', 1000);
    file('packages/a/src/deep/x.ts', 1000);
    file('modules/m/src/index.ts', 1000);
    file('apps/node/README.md', 1000); // no src/: not a built package
    expect(compiledIsCurrent(root)).to.equal(false); // never built
    for (const p of ['packages/a', 'modules/m']) {
      file(`${p}/dist/index.js`, 2000);
      file(`${p}/tsconfig.build.tsbuildinfo`, 2000);
    }
    expect(compiledIsCurrent(root)).to.equal(true);
    file('packages/a/src/deep/x.ts', 3000); // an edit after the build
    expect(compiledIsCurrent(root)).to.equal(false);
    file('packages/a/tsconfig.build.tsbuildinfo', 4000); // rebuilt
    expect(compiledIsCurrent(root)).to.equal(true);
    rmSync(join(root, 'modules/m/dist'), { recursive: true });
    expect(compiledIsCurrent(root)).to.equal(false); // an output removed
  });

  it('runs the bundle only when it was made after the compiled files and the last npm install, in this checkout', () => {
    file('packages/a/src/index.ts', 1000);
    expect(currentBuild(root)).to.equal(undefined); // never built
    file('packages/a/dist/index.js', 2000);
    file('packages/a/tsconfig.build.tsbuildinfo', 2000);
    expect(currentBuild(root)).to.equal('compiled'); // no bundle
    const stamp = (at: number, at2 = root): void => {
      file('apps/node/dist/bundle/bundle.json', at);
      writeFileSync(join(root, 'apps/node/dist/bundle/bundle.json'), JSON.stringify({ root: at2 }));
      utimesSync(join(root, 'apps/node/dist/bundle/bundle.json'), at, at);
    };
    stamp(3000);
    expect(currentBuild(root)).to.equal('bundle');
    expect(currentBuild(`${root}/`)).to.equal('bundle'); // the same folder
    file('packages/a/tsconfig.build.tsbuildinfo', 4000); // compiled again, not bundled
    expect(currentBuild(root)).to.equal('compiled');
    stamp(5000);
    expect(currentBuild(root)).to.equal('bundle');
    file('node_modules/.package-lock.json', 6000); // npm install changed node_modules
    expect(currentBuild(root)).to.equal('compiled');
    stamp(7000);
    expect(currentBuild(root)).to.equal('bundle');
    stamp(8000, '/elsewhere'); // built in another checkout (its file paths are absolute)
    expect(currentBuild(root)).to.equal('compiled');
    file('packages/a/src/index.ts', 9000); // an edit: neither
    expect(currentBuild(root)).to.equal(undefined);
  });

  it('`chaind version --long` says how it runs: CHAIND_FROM_SOURCE=1 forces the sources; otherwise the build decides', () => {
    const run = (env: Record<string, string>): string => {
      const r = spawnSync(process.execPath, [BIN, 'version', '--long'], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status, r.stderr).to.equal(0);
      return /^runs: (.*)$/m.exec(r.stdout)![1]!;
    };
    expect(run({ CHAIND_FROM_SOURCE: '1' })).to.match(/^TypeScript sources/);
    // (CI's pack test may be building meanwhile: the answer is checked when the build's state held across the run)
    const before = compiledIsCurrent(ROOT);
    const runs = run({ CHAIND_FROM_SOURCE: '' });
    if (compiledIsCurrent(ROOT) === before) expect(runs).to.match(before ? /^compiled/ : /^TypeScript sources/);
    else expect(runs).to.match(/^(compiled|TypeScript sources)/);
    // CHAIND_BUNDLE=0: the compiled files even when a bundle is current
    if (before && compiledIsCurrent(ROOT)) expect(run({ CHAIND_FROM_SOURCE: '', CHAIND_BUNDLE: '0' })).to.equal('compiled (npm run build)');
    else expect(runs).to.match(/^(compiled|TypeScript sources)/);
  });

  it('the npm bin (bin/chaind) runs chaind.mjs with MALLOC_ARENA_MAX=4 and MALLOC_TRIM_THRESHOLD_=131072 unless the environment sets them', () => {
    const long = (env: Record<string, string | undefined>): Record<string, string> => {
      const r = spawnSync(CMD, ['version', '--long'], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status, r.stderr).to.equal(0);
      return Object.fromEntries(r.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
    };
    const env = { ...process.env };
    delete env.MALLOC_ARENA_MAX;
    delete env.MALLOC_TRIM_THRESHOLD_;
    const r = spawnSync(CMD, ['version', '--long'], { encoding: 'utf8', env });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('version: 0.1.0').and.to.contain('malloc_arena_max: 4').and.to.contain('malloc_trim_threshold: 131072');
    expect(long({ MALLOC_ARENA_MAX: '2' }).malloc_arena_max).to.equal('2');
    expect(long({ MALLOC_TRIM_THRESHOLD_: '1048576' }).malloc_trim_threshold).to.equal('1048576');
  });

  it('--help on a node command prints the usage and starts, creates and writes nothing', () => {
    const home = mkdtempSync(join(tmpdir(), 'chaind-help-'));
    try {
      for (const cmd of ['dev', 'start', 'init', 'export', 'localnet']) {
        const r = spawnSync(CMD, [cmd, '--help', '--home', join(home, cmd)], { encoding: 'utf8', timeout: 20_000 });
        expect(r.status, `${cmd}: ${r.stderr}`).to.equal(0);
        expect(r.stdout, cmd).to.contain(cmd === 'localnet' ? 'chaind localnet start --home DIR' : 'chaind dev');
        expect(existsSync(join(home, cmd)), cmd).to.equal(false);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
