#!/usr/bin/env node
/**
 * Builds the CometBFT binary the node runs in `--consensus cometbft` mode, from the Go module proxy,
 * into a folder of the project (`.cache/cometbft/<version>/bin/cometbft`), once.
 *
 *   node tools/cometbft/install.mjs          # build if missing, print the binary's path
 *   import { ensureCometbft } from '.../tools/cometbft/install.mjs'; const bin = await ensureCometbft();
 *
 * Needs Go (>= 1.22) and the Go module proxy. The version is the one tools/cmt-vectors pins.
 * A lock directory (mkdir is atomic) keeps two processes from building at once: the second waits for
 * the first and reuses its binary. CHAIN_COMETBFT_BIN overrides the whole thing with a given binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const COMETBFT_VERSION = 'v0.38.26';
export const COMETBFT_MODULE = 'github.com/cometbft/cometbft/cmd/cometbft';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '..', '..');

/** The folder the binary is built into. */
export function cometbftDir(version = COMETBFT_VERSION) {
  return join(REPO_ROOT, '.cache', 'cometbft', version);
}

/** The path the binary has once built (it may not exist yet). */
export function cometbftBinPath(version = COMETBFT_VERSION) {
  return join(cometbftDir(version), 'bin', 'cometbft');
}

/** The Go toolchain to build with: $GO, `go` on PATH or /usr/local/go/bin/go (undefined if none runs). */
export function findGo() {
  const candidates = [process.env.GO, 'go', '/usr/local/go/bin/go'].filter(Boolean);
  for (const c of candidates) {
    const r = spawnSync(c, ['version'], { encoding: 'utf8' });
    if (r.status === 0) return { go: c, version: r.stdout.trim() };
  }
  return undefined;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether `bin version` runs. */
export function binaryWorks(bin) {
  if (!existsSync(bin)) return false;
  const r = spawnSync(bin, ['version'], { encoding: 'utf8' });
  return r.status === 0;
}

/**
 * Returns the path of a working CometBFT binary, building it first if needed.
 * @param {{ version?: string, log?: (line: string) => void, lockTimeoutMs?: number }} [opts]
 */
export async function ensureCometbft(opts = {}) {
  if (process.env.CHAIN_COMETBFT_BIN) {
    const bin = process.env.CHAIN_COMETBFT_BIN;
    if (!binaryWorks(bin)) throw new Error(`CHAIN_COMETBFT_BIN=${bin} does not run (\`${bin} version\` failed)`);
    return bin;
  }
  const version = opts.version ?? COMETBFT_VERSION;
  const log = opts.log ?? ((l) => process.stderr.write(l + '\n'));
  const dir = cometbftDir(version);
  const bin = cometbftBinPath(version);
  if (binaryWorks(bin)) return bin;

  return withBuildLock(dir, bin, { lockTimeoutMs: opts.lockTimeoutMs ?? 20 * 60_000, staleMs: 30 * 60_000 }, async () => {
    const go = findGo();
    if (!go) {
      throw new Error(
        'building CometBFT needs the Go toolchain (>= 1.22) on PATH (or GO=/path/to/go): ' +
          `it runs \`go install ${COMETBFT_MODULE}@${version}\`. Install Go from https://go.dev/dl/, ` +
          'or point CHAIN_COMETBFT_BIN at an existing cometbft binary.',
      );
    }
    const tmpBin = join(dir, 'bin.tmp');
    rmSync(tmpBin, { recursive: true, force: true });
    mkdirSync(tmpBin, { recursive: true });
    log(`building CometBFT ${version} with ${go.version} (first use only; takes a few minutes)...`);
    const started = Date.now();
    await new Promise((resolveRun, rejectRun) => {
      const child = spawn(go.go, ['install', `${COMETBFT_MODULE}@${version}`], {
        env: { ...process.env, GOBIN: tmpBin, GOFLAGS: '-mod=mod', CGO_ENABLED: process.env.CGO_ENABLED ?? '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('error', rejectRun);
      child.on('exit', (code) =>
        code === 0
          ? resolveRun()
          : rejectRun(new Error(`go install ${COMETBFT_MODULE}@${version} failed (exit ${code}):\n${out.slice(-4000)}`)),
      );
    });
    mkdirSync(join(dir, 'bin'), { recursive: true });
    renameSync(join(tmpBin, 'cometbft'), bin);
    rmSync(tmpBin, { recursive: true, force: true });
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    writeFileSync(join(dir, 'build.json'), JSON.stringify({ version, go: go.version, seconds: Number(secs), at: new Date().toISOString() }, null, 2) + '\n');
    log(`built ${bin} in ${secs}s`);
    if (!binaryWorks(bin)) throw new Error(`built ${bin} but \`cometbft version\` fails`);
    return bin;
  });
}

/**
 * Runs `build` (which returns the built binary's path) under a lock directory in `dir` (mkdir is atomic): a
 * second process waits for the first and reuses its binary; a lock whose holder is gone, or older than
 * `staleMs`, or still held at `lockTimeoutMs`, is broken. Returns `bin` at once when it already works.
 * @param {string} dir @param {string} bin
 * @param {{ lockTimeoutMs: number, staleMs: number }} o
 * @param {() => Promise<string>} build
 */
export async function withBuildLock(dir, bin, o, build) {
  if (binaryWorks(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'build.lock');
  const deadline = Date.now() + o.lockTimeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (binaryWorks(bin)) return bin;
      let holderAlive = true;
      try {
        const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
        if (pid > 0) process.kill(pid, 0);
      } catch (err) {
        // no pid file yet (just created) or the holder is gone
        if (err.code === 'ESRCH') holderAlive = false;
      }
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (!holderAlive || Date.now() > deadline || age > o.staleMs) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      await sleep(1000);
    }
  }
  try {
    if (binaryWorks(bin)) return bin;
    return await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureCometbft()
    .then((bin) => console.log(bin))
    .catch((e) => {
      console.error(e.message);
      process.exit(1);
    });
}
