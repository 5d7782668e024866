/**
 * The worker side of `SpilledState`'s leaf hashes (spill.ts): for each run it is given (copies of the run's packed
 * keys and value offsets, the path of its value file), it computes the IAVL leaf hash every written entry will have
 * in the first block's trees (`leafHash(tree key, value, version)`, the tree key being the state key after its
 * `<store>/` prefix, or all of it with a single store) and writes them to the run's leaf file, 32 bytes per entry in
 * the run's order (a deleted entry's place is left as is). Answers `{ id }`, or `{ id, error }`.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { leafHashInto } from '@chain/iavl';

export interface HashRunMessage {
  id: number;
  /** the run's keys, packed: key i is bytes[offs[i], offs[i + 1]) */
  bytes: Uint8Array;
  offs: Uint32Array;
  /** 1: written (its value is vals[i], vals[i + 1] of the value file), 0: deleted */
  put: Uint8Array;
  vals: Float64Array;
  n: number;
  values: string;
  out: string;
  version: number;
  /** every key is a tree key as it is (a store opened with `singleStore`) */
  single: boolean;
}

const HASH = 32;
/** value file bytes read at once */
const READ = 1 << 20;
/** hashes written at once */
const WRITE = 8192;

function hashRun(m: HashRunMessage): void {
  const fd = openSync(m.values, 'r');
  let outFd: number | undefined;
  try {
    outFd = openSync(m.out, 'w');
    let blk = new Uint8Array(READ);
    let at = 0;
    let have = 0;
    const out = new Uint8Array(WRITE * HASH);
    let outPos = 0;
    let filePos = 0;
    const flush = (): void => {
      let done = 0;
      while (done < outPos) done += writeSync(outFd!, out, done, outPos - done, filePos + done);
      filePos += outPos;
      outPos = 0;
    };
    for (let i = 0; i < m.n; i++) {
      if (m.put[i] === 1) {
        const a = m.vals[i]!;
        const b = m.vals[i + 1]!;
        if (a < at || b > at + have) {
          if (b - a > blk.length) blk = new Uint8Array(b - a);
          at = a;
          have = 0;
          for (;;) {
            const got = readSync(fd, blk, have, blk.length - have, a + have);
            if (got === 0) break;
            have += got;
            if (have >= b - a) break;
          }
          if (have < b - a) throw new Error('moved genesis state: a value file is shorter than its index');
        }
        const key = m.bytes.subarray(m.offs[i]!, m.offs[i + 1]!);
        const rel = m.single ? key : key.subarray(key.indexOf(0x2f) + 1);
        leafHashInto(rel, blk.subarray(a - at, b - at), m.version, out, outPos);
      }
      outPos += HASH;
      if (outPos === out.length) flush();
    }
    flush();
  } finally {
    closeSync(fd);
    if (outFd !== undefined) closeSync(outFd);
  }
}

parentPort!.on('message', (m: HashRunMessage) => {
  try {
    hashRun(m);
    parentPort!.postMessage({ id: m.id });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
