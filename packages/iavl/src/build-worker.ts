/**
 * The worker side of `RemoteSortedBuild` (build-remote.ts): runs a `SortedBuilder` over the entries it receives and
 * sends back the chunk records it completes and, at the end, the root node. See build-remote.ts for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type BuildHost, SortedBuilder } from './build.js';
import { Packer, WITH_LEAF_HASH } from './build-remote.js';
import { EMPTY_HASH, readU32le, writeBE64 } from './encoding.js';
import { HASH_SIZE, type Node, encodeNodeInto, encodedSizeBound, hashFromBytes, putHash } from './node.js';
import { ChunkWriter } from './tree.js';

const { prefix, version, firstId } = workerData as { prefix: Uint8Array; version: number; firstId: number };
const port = parentPort!;
const records = new Packer(1 << 20);
let result: { root: Node | undefined; next: number } | undefined;
const host: BuildHost = {
  stage: (root, next) => {
    result = { root, next };
    return { version, rootHash: EMPTY_HASH };
  },
  release: () => undefined,
  putRoot: () => {
    throw new Error('iavl: build worker: putRoot runs on the tree side');
  },
  deleteRange: () => {
    throw new Error('iavl: build worker: deleteRange runs on the tree side');
  },
};
const sink = {
  put: (key: Uint8Array, value: Uint8Array) => records.add(key, value),
  del: () => {
    throw new Error('iavl: build worker: a sorted build writes no deletes');
  },
};
const builder = new SortedBuilder(version, firstId, new ChunkWriter(prefix, sink, false), host);

/** Adds the packed entries of `buf` (build-remote.ts): views into it, and the leaf hashes that came with them. */
function addEntries(buf: Uint8Array, end: number): void {
  let off = 0;
  while (off < end) {
    const word = readU32le(buf, off);
    const hashed = word >= WITH_LEAF_HASH;
    const kl = hashed ? word - WITH_LEAF_HASH : word;
    const vl = readU32le(buf, off + 4);
    off += 8;
    const key = buf.subarray(off, off + kl);
    const value = buf.subarray(off + kl, off + kl + vl);
    off += kl + vl;
    let hash: string | undefined;
    if (hashed) {
      hash = hashFromBytes(buf, off);
      off += HASH_SIZE;
    }
    builder.addHashed(key, value, hash);
  }
}

function sendRecords(t: 'rec' | 'done', extra: Record<string, unknown> = {}, transfer: ArrayBuffer[] = []): void {
  const { buf, end } = records.take();
  port.postMessage({ t, buf, end, ...extra }, [buf.buffer as ArrayBuffer, ...transfer]);
}

port.on('message', (m: { t: 'add' | 'finish'; buf?: Uint8Array; end?: number }) => {
  try {
    if (m.t === 'add') {
      // keys and values stay views into the received buffer (the builder keeps the spine's keys)
      addEntries(m.buf!, m.end!);
      sendRecords('rec');
    } else {
      builder.finish();
      const { root, next } = result!;
      if (root === undefined) {
        sendRecords('done', { next });
        return;
      }
      const enc = new Uint8Array(8 + HASH_SIZE + encodedSizeBound(root));
      writeBE64(enc, 0, root.id);
      putHash(enc, 8, root.hash!);
      const end = encodeNodeInto(root, enc, 8 + HASH_SIZE);
      const r = enc.slice(0, end);
      sendRecords('done', { next, root: r }, [r.buffer as ArrayBuffer]);
    }
  } catch (e) {
    port.postMessage({ t: 'err', message: (e as Error).message });
  }
});
