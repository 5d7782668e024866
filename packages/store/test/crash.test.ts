import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CommitStore, type Bytes, type Change } from '../src/index.js';
import { Model, hex, hexEntries, refNextAppHash, rng, tempDir, u } from './helpers.js';

const fixture = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

/** Independent decoder of NS_VERSIONS keys: 0x02 || escape(key) || 0x00 0x00 || BE64(height). */
function decodeVersion(k: Bytes): { key: Bytes; height: number } {
  expect(k[0]).to.equal(0x02);
  const key: number[] = [];
  let i = 1;
  for (;;) {
    const b = k[i]!;
    if (b !== 0) {
      key.push(b);
      i++;
      continue;
    }
    if (k[i + 1] === 0xff) {
      key.push(0);
      i += 2;
      continue;
    }
    expect(k[i + 1]).to.equal(0);
    i += 2;
    break;
  }
  expect(k.length - i).to.equal(8);
  return { key: Uint8Array.from(key), height: Number(Buffer.from(k).readBigUInt64BE(i)) };
}

/** Run the writer, SIGKILL it after it reported `minHeight` plus a random delay; return the last reported height. */
function runAndKill(dir: string, seed: number, minHeight: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, String(seed)], {
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

/** Check the reopened database against a replay of its own version history. */
async function verify(store: CommitStore, reported: number): Promise<void> {
  const h = store.lastHeight;
  expect(h).to.be.greaterThan(0);
  expect(h, 'a reported (synced) block was lost').to.be.at.least(reported);

  const byHeight = new Map<number, Change[]>();
  for (const [k, v] of await store.iterateRaw(u(0x02), u(0x03))) {
    const { key, height } = decodeVersion(k);
    expect(height, 'version entry above lastHeight: partial block').to.be.within(1, h);
    expect(v.length).to.be.greaterThan(0);
    expect(v[0]).to.be.oneOf([0, 1]);
    const change: Change = { key, value: v[0] === 0 ? undefined : v.slice(1) };
    if (v[0] === 0) expect(v.length).to.equal(1);
    byHeight.set(height, [...(byHeight.get(height) ?? []), change]);
  }
  const replay = new Model();
  let appHash: Uint8Array = new Uint8Array(0);
  for (let height = 1; height <= h; height++) {
    const cs = byHeight.get(height) ?? [];
    for (const c of cs) {
      if (c.value === undefined) replay.delete(c.key);
      else replay.set(c.key, c.value);
    }
    appHash = refNextAppHash(appHash, cs);
  }
  const want = hexEntries(replay.range());
  const onDisk = hexEntries((await store.iterateRaw(u(0x01), u(0x02))).map(([k, v]) => [k.subarray(1), v]));
  expect(onDisk, 'NS_STATE differs from the replay of NS_VERSIONS').to.deep.equal(want);
  expect(hexEntries(store.state.iterator()), 'memory differs from the replay').to.deep.equal(want);
  expect(hex(store.lastAppHash), 'app hash differs from the recomputation').to.equal(hex(appHash));

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
      for (let round = 0; round < 6; round++) {
        const reported = await runAndKill(tmp.dir, 1000 + round, prev + 1 + Math.floor(r() * 3), Math.floor(r() * 120));
        const store = await CommitStore.open(tmp.dir);
        try {
          await verify(store, reported);
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
