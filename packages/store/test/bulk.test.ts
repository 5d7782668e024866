/**
 * BulkWriter (the first block's bulk writes): everything put and deleted lands, in order, batch after batch; what was
 * not flushed is dropped by close; and it asks for a collection when written batches not yet collected pass its bound.
 */
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BulkWriter, EntryFile } from '../src/bulk.js';
import { tempDir } from './helpers.js';

const key = (i: number): Uint8Array => Uint8Array.of(1, (i >> 16) & 255, (i >> 8) & 255, i & 255);

describe('BulkWriter', () => {
  let dir: { dir: string; remove(): void };
  let db: ClassicLevel<Uint8Array, Uint8Array>;
  beforeEach(async () => {
    dir = tempDir('bulk');
    db = new ClassicLevel<Uint8Array, Uint8Array>(dir.dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
  });
  afterEach(async () => {
    await db.close();
    dir.remove();
  });

  it('writes every entry over many batches, later writes over earlier ones', async () => {
    const w = new BulkWriter(db, { batchBytes: 4096 });
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      w.put(key(i), Uint8Array.of(i & 255, 1));
      if (w.full) await w.flush();
    }
    // in a later batch: overwrite some, delete others
    for (let i = 0; i < n; i += 7) w.put(key(i), Uint8Array.of(9));
    for (let i = 3; i < n; i += 11) w.del(key(i));
    await w.drain();
    await w.close();
    let count = 0;
    for await (const [k, v] of db.iterator()) {
      const i = (k[1]! << 16) | (k[2]! << 8) | k[3]!;
      expect(i % 11 === 3 && i >= 3, `key ${i} was deleted`).to.equal(false);
      expect([...v]).to.deep.equal(i % 7 === 0 ? [9] : [i & 255, 1]);
      count++;
    }
    expect(count).to.equal(n - Math.floor((n - 3 + 10) / 11));
  });

  it('drops what was not flushed when closed', async () => {
    const w = new BulkWriter(db, { batchBytes: 1 << 20 });
    w.put(key(1), Uint8Array.of(1));
    await w.flush();
    w.put(key(2), Uint8Array.of(2));
    await w.close();
    expect(await db.get(key(1))).to.deep.equal(Uint8Array.of(1));
    expect(await db.get(key(2))).to.equal(undefined);
  });

  it('asks for a collection each time the written batches not yet collected pass the bound', async () => {
    let asked = 0;
    const value = new Uint8Array(1000).fill(7);
    const run = async (maxUnreleased: number): Promise<void> => {
      const w = new BulkWriter(db, { batchBytes: 64 << 10, maxUnreleased, gc: () => asked++ });
      for (let i = 0; i < 4096; i++) {
        w.put(key(i), value);
        if (w.full) await w.flush();
      }
      await w.drain();
    };
    // ~4 MB in 64 KB batches, none collected meanwhile (no gc ran): one ask per MB past the first
    await run(1 << 20);
    expect(asked).to.be.within(3, 4);
    asked = 0;
    await run(1 << 30);
    expect(asked).to.equal(0);
  });
});

describe('EntryFile', () => {
  let dir: { dir: string; remove(): void };
  let db: ClassicLevel<Uint8Array, Uint8Array>;
  beforeEach(async () => {
    dir = tempDir('entry-file');
    db = new ClassicLevel<Uint8Array, Uint8Array>(join(dir.dir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
  });
  afterEach(async () => {
    await db.close();
    dir.remove();
  });

  it('puts every entry it was given, in order, with its prefix byte: small ones, values larger than its blocks, entries across read blocks', async () => {
    const path = join(dir.dir, 'flat');
    const f = new EntryFile(path, 0x07);
    const want: [string, number][] = [];
    const value = (i: number): Uint8Array => {
      // every 500th value is 1.5 MB (above the 1 MiB write block); the rest 1-300 bytes
      const len = i % 500 === 250 ? 1_500_000 : 1 + ((i * 7919) % 300);
      return new Uint8Array(len).fill(i & 255);
    };
    const n = 30_000;
    for (let i = 0; i < n; i++) {
      const v = value(i);
      f.add(key(i), v);
      want.push([Buffer.from([0x07, ...key(i)]).toString('hex'), v.length]);
    }
    expect(f.count).to.equal(n);
    const w = new BulkWriter(db, { batchBytes: 1 << 16 });
    await f.putInto(w);
    await w.drain();
    await w.close();
    const got: [string, number][] = [];
    for await (const [k, v] of db.iterator()) {
      got.push([Buffer.from(k).toString('hex'), v.length]);
      expect(v.every((b) => b === v[0])).to.equal(true);
    }
    expect(got).to.deep.equal(want);
    f.close();
    expect(existsSync(path)).to.equal(false);
  });
});
