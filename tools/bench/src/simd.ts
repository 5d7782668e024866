/**
 * The Go reference node of the side-by-side bench: `simd` of ibc-go v8.5.2's `testing/simapp` (Cosmos SDK
 * v0.50, CometBFT v0.38 in process), built from the Go module proxy into `.cache/simd/<version>/simd`, once.
 * (`cosmossdk.io/simapp` is not served by the proxy here; ibc-go's simapp is the same app wiring plus IBC.)
 *
 *   node --import tsx tools/bench/src/simd.ts      # build if missing, print the binary's path
 *   import { ensureSimd } from './simd.js'; const bin = await ensureSimd();
 *
 * Everything Go writes stays in `.cache/simd` (GOPATH, GOMODCACHE with -modcacherw so `rm -rf` works, GOCACHE):
 * nothing is installed globally. `go install pkg@version` refuses a module whose go.mod has replace
 * directives (ibc-go's has), so the build goes through a wrapper module in `.cache/simd/<version>/src` that
 * requires ibc-go at that version and copies its non-local replace directives, then `go build`s the package.
 * A lock directory keeps two processes from building at once. CHAIN_SIMD_BIN=/path/to/simd skips the build.
 * Needs Go (>= 1.22; the machine's is used with GOTOOLCHAIN=local) and the Go module proxy.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryWorks, findGo, withBuildLock } from '@chain/cometbft';

export const SIMD_VERSION = 'v8.5.2';
export const SIMD_MODULE = 'github.com/cosmos/ibc-go/v8';
export const SIMD_PACKAGE = `${SIMD_MODULE}/testing/simapp/simd`;

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '..', '..', '..');

/** `.cache/simd`: the Go paths shared by every version's build. */
export function simdCacheRoot(): string {
  return join(REPO_ROOT, '.cache', 'simd');
}

/** The folder a version is built into. */
export function simdDir(version = SIMD_VERSION): string {
  return join(simdCacheRoot(), version);
}

/** The path the binary has once built (it may not exist yet). */
export function simdBinPath(version = SIMD_VERSION): string {
  return join(simdDir(version), 'simd');
}


/** The environment of every go command: all paths inside `.cache/simd`. */
export function goEnv(): NodeJS.ProcessEnv {
  const root = simdCacheRoot();
  return {
    ...process.env,
    GOPATH: join(root, 'gopath'),
    GOMODCACHE: join(root, 'gopath', 'pkg', 'mod'),
    GOCACHE: join(root, 'gocache'),
    GOFLAGS: '-mod=mod -modcacherw -buildvcs=false',
    GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
    GOWORK: 'off',
  };
}

/** Runs a go command, streaming `go: downloading ...` lines and a heartbeat to `log`; rejects with the output's tail. */
function runGo(go: string, args: string[], cwd: string, log: (l: string) => void, started: number): Promise<string> {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(go, args, { cwd, env: goEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let downloads = 0;
    let partial = '';
    const onData = (d: Buffer): void => {
      const s = d.toString();
      out += s;
      partial += s;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const l of lines) {
        if (l.startsWith('go: downloading')) {
          downloads++;
          if (downloads <= 3 || downloads % 25 === 0) log(`  [${elapsed(started)}] ${l} (${downloads} modules so far)`);
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const beat = setInterval(() => log(`  [${elapsed(started)}] go ${args[0]} still running${downloads > 0 ? ` (${downloads} modules downloaded)` : ''}...`), 30_000);
    child.on('error', (e) => { clearInterval(beat); rejectRun(e); });
    child.on('exit', (code) => {
      clearInterval(beat);
      if (code === 0) resolveRun(out);
      else rejectRun(new Error(`go ${args.join(' ')} failed (exit ${code}):\n${out.slice(-6000)}`));
    });
  });
}

const elapsed = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(0)}s`;

/**
 * The replace directives of a go.mod that point at another module version (not at a local folder), as lines
 * `old [v] => new v` for the wrapper module's go.mod.
 */
export function remoteReplaces(goMod: string): string[] {
  const out: string[] = [];
  const clean = goMod.replace(/\/\/[^\n]*/g, '');
  const add = (body: string): void => {
    const t = body.trim();
    if (!t.includes('=>')) return;
    const right = t.split('=>')[1]!.trim();
    if (right.startsWith('.') || right.startsWith('/')) return; // a local folder of the ibc-go repository
    out.push(t);
  };
  for (const m of clean.matchAll(/^replace\s*\(([\s\S]*?)^\)/gm)) for (const l of m[1]!.split('\n')) add(l);
  for (const m of clean.matchAll(/^replace\s+([^(\n][^\n]*)$/gm)) add(m[1]!);
  return out;
}

export interface EnsureSimdOptions {
  readonly version?: string;
  readonly log?: (line: string) => void;
  readonly lockTimeoutMs?: number;
}

/** Returns the path of a working simd binary, building it first if needed (a few minutes, once). */
export async function ensureSimd(opts: EnsureSimdOptions = {}): Promise<string> {
  const override = process.env.CHAIN_SIMD_BIN;
  if (override) {
    if (!binaryWorks(override)) throw new Error(`CHAIN_SIMD_BIN=${override} does not run (\`${override} version\` failed)`);
    return override;
  }
  const version = opts.version ?? SIMD_VERSION;
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const dir = simdDir(version);
  const bin = simdBinPath(version);
  if (binaryWorks(bin)) return bin;

  return withBuildLock(dir, bin, { lockTimeoutMs: opts.lockTimeoutMs ?? 40 * 60_000, staleMs: 60 * 60_000 }, async () => {
    const go = findGo();
    if (!go) {
      throw new Error(
        `building simd needs the Go toolchain (>= 1.22) on PATH (or GO=/path/to/go): it builds ${SIMD_PACKAGE}@${version} ` +
          'from the Go module proxy. Install Go from https://go.dev/dl/, or point CHAIN_SIMD_BIN at an existing simd binary.',
      );
    }
    const started = Date.now();
    log(`building simd (${SIMD_PACKAGE}@${version}, Cosmos SDK v0.50) with ${go.version} into ${dir}`);
    log('  first use only: downloads ~300 modules from the Go module proxy and compiles them (several minutes on 2 cores)');
    // the wrapper module: requires ibc-go and repeats its replace directives, which `go install pkg@v` refuses
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'go.mod'), `module chain.local/simd-build\n\ngo 1.22\n`);
    const dl = await runGo(go.go, ['mod', 'download', '-json', `${SIMD_MODULE}@${version}`], src, log, started);
    const info = JSON.parse(dl) as { GoMod?: string; Error?: string };
    if (info.Error || !info.GoMod) throw new Error(`go mod download ${SIMD_MODULE}@${version}: ${info.Error ?? 'no go.mod'}`);
    const replaces = remoteReplaces(readFileSync(info.GoMod, 'utf8'));
    log(`  [${elapsed(started)}] ${SIMD_MODULE}@${version} downloaded; its go.mod has ${replaces.length} replace directive(s): ${replaces.join('; ') || 'none'}`);
    writeFileSync(
      join(src, 'go.mod'),
      `module chain.local/simd-build\n\ngo 1.22\n\nrequire ${SIMD_MODULE} ${version}\n` +
        (replaces.length ? `\nreplace (\n${replaces.map((r) => `\t${r}\n`).join('')})\n` : ''),
    );
    // a tools file makes `go mod tidy` keep the package's whole dependency graph in the wrapper's go.mod/go.sum
    writeFileSync(join(src, 'tools.go'), `//go:build tools\n\npackage tools\n\nimport _ "${SIMD_PACKAGE}/cmd"\n`);
    log(`  [${elapsed(started)}] resolving the dependency graph (go mod tidy)...`);
    await runGo(go.go, ['mod', 'tidy'], src, log, started);
    log(`  [${elapsed(started)}] compiling (go build ${SIMD_PACKAGE})...`);
    const tmp = join(dir, 'simd.tmp');
    rmSync(tmp, { force: true });
    await runGo(go.go, ['build', '-o', tmp, SIMD_PACKAGE], src, log, started);
    renameSync(tmp, bin);
    const secs = Number(((Date.now() - started) / 1000).toFixed(1));
    writeFileSync(join(dir, 'build.json'), JSON.stringify({ package: SIMD_PACKAGE, version, go: go.version, seconds: secs, deps: simdDeps(bin), at: new Date().toISOString() }, null, 2) + '\n');
    log(`built ${bin} in ${secs}s`);
    if (!binaryWorks(bin)) throw new Error(`built ${bin} but \`simd version\` fails`);
    return bin;
  });
}

/** The versions of the main dependencies a simd binary was built with (`simd version --long`'s build_deps). */
export function simdDeps(bin: string): Record<string, string> {
  const r = spawnSync(bin, ['version', '--long'], { encoding: 'utf8' });
  const out: Record<string, string> = {};
  for (const m of (r.stdout + r.stderr).matchAll(/^- (github\.com\/(?:cosmos\/cosmos-sdk|cometbft\/cometbft|cosmos\/iavl|cosmos\/cosmos-db))@(\S+)/gm)) out[m[1]!] = m[2]!;
  return out;
}

/** The first build's record (`.cache/simd/<version>/build.json`), if any. */
export function simdBuildInfo(version = SIMD_VERSION): { seconds: number; go: string; at: string } | undefined {
  const f = join(simdDir(version), 'build.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { seconds: number; go: string; at: string }) : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureSimd()
    .then((bin) => console.log(bin))
    .catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    });
}
