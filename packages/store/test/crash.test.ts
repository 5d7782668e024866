import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CommitStore } from '../src/index.js';
import { crashBlocks } from './fixtures/crash-blocks.js';
import { Model, RefAppHash, hex, hexEntries, rng, tempDir, u } from './helpers.js';

const fixture = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

/** Run the writer, SIGKILL it after it reported `minHeight` plus a random delay; return the last reported height. */
function runAndKill(dir: string, seed: number, minHeight: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture, dir, String(seed)], {
      cwd: pkgDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let reported = 0;
    let out = '';
    let err = '';
    let armed = false;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const l of lines) reported = Math.max(reported, Number(l));
      if (!armed && reported >= minHeight) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(reported);
      else reject(new Error(`writer exited early (code ${code}): ${err}`));
    });
  });
}

/**
 * Check the reopened database against a replay of what the writer rounds committed (each round's blocks are the
 * deterministic sequence of its seed, from the height it started at to the height the store reopened at).
 */
async function verify(store: CommitStore, reported: number, rounds: { seed: number; from: number; to: number }[]): Promise<void> {
  const h = store.lastHeight;
  expect(h).to.be.greaterThan(0);
  expect(h, 'a reported (synced) block was lost').to.be.at.least(reported);

  const replay = new Model();
  const snaps = new Map<number, Model>();
  const ref = await RefAppHash.open();
  let appHash: Uint8Array = new Uint8Array(0);
  try {
    for (const r of rounds) {
      const next = crashBlocks(r.seed);
      for (let height = r.from; height <= r.to; height++) {
        const { changes } = next(height);
        for (const c of changes) {
          if (c.value === undefined) replay.delete(c.key);
          else replay.set(c.key, c.value);
        }
        appHash = await ref.next(height, changes);
        if (height > h - 3) snaps.set(height, replay.clone());
      }
    }
  } finally {
    await ref.close();
  }
  const want = hexEntries(replay.range());
  const onDisk = hexEntries((await store.iterateRaw(u(0x01), u(0x02))).map(([k, v]) => [k.subarray(1), v]));
  expect(onDisk, 'NS_STATE differs from the replay').to.deep.equal(want);
  expect(hexEntries(store.state.iterator()), 'memory differs from the replay').to.deep.equal(want);
  expect(hex(store.lastAppHash), 'app hash differs from the recomputation').to.equal(hex(appHash));
  // the state trees serve the last heights as the replay saw them
  for (const [height, m] of snaps) {
    expect(hexEntries(await store.iterateAt(height)), `tree state at ${height}`).to.deep.equal(hexEntries(m.range()));
  }

  const meta = (await store.getRaw(u(0x03, 0x01)))!;
  expect(Number(Buffer.from(meta).readBigUInt64BE(0))).to.equal(h);
  expect(hex(meta.subarray(8))).to.equal(hex(appHash));

  // extraOps were in the same batches: exactly one 0x10 record per committed height.
  const extra = (await store.iterateRaw(u(0x10), u(0x11))).map(([k]) => Number(Buffer.from(k).readBigUInt64BE(1)));
  expect(extra).to.deep.equal(Array.from({ length: h }, (_, i) => i + 1));
}

describe('CommitStore crash safety (SIGKILL)', function () {
  this.timeout(120_000);

  it('reopens to a consistent state after being killed at random moments, several times in a row', async () => {
    const tmp = tempDir('crash');
    const r = rng(Date.now() >>> 0);
    try {
      let prev = 0;
      const rounds: { seed: number; from: number; to: number }[] = [];
      for (let round = 0; round < 6; round++) {
        const reported = await runAndKill(tmp.dir, 1000 + round, prev + 1 + Math.floor(r() * 3), Math.floor(r() * 120));
        const store = await CommitStore.open(tmp.dir, { singleStore: 'test' });
        try {
          rounds.push({ seed: 1000 + round, from: prev + 1, to: store.lastHeight });
          await verify(store, reported, rounds);
          expect(store.lastHeight).to.be.greaterThan(prev);
          prev = store.lastHeight;
        } finally {
          await store.close();
        }
      }
    } finally {
      tmp.remove();
    }
  });
});
