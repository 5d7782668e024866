import { expect } from 'chai';
import { MemKVStore, branch, type Bytes, type KVStore } from '../src/index.js';
import { Model, hex, hexEntries, randBytes, rng, u } from './helpers.js';

/** A parent that records the writes it receives. */
class RecordingStore extends MemKVStore {
  readonly log: string[] = [];
  override set(key: Bytes, value: Bytes): void {
    this.log.push(`set ${hex(key)}=${hex(value)}`);
    super.set(key, value);
  }
  override delete(key: Bytes): void {
    this.log.push(`del ${hex(key)}`);
    super.delete(key);
  }
}

describe('branch (CacheKVStore)', () => {
  it('reads through to the parent, buffers writes, and hides deleted parent keys', () => {
    const parent = new MemKVStore([
      [u(1), u(10)],
      [u(2), u(20)],
    ]);
    const b = branch(parent);
    expect(b.get(u(1))).to.deep.equal(u(10));
    b.set(u(1), u(11));
    b.delete(u(2));
    b.set(u(3), u());
    expect(b.get(u(1))).to.deep.equal(u(11));
    expect(b.get(u(2))).to.equal(undefined);
    expect(b.has(u(2))).to.equal(false);
    expect(b.has(u(3))).to.equal(true);
    expect(b.get(u(3))).to.deep.equal(u());
    // The parent is untouched until write().
    expect(parent.get(u(1))).to.deep.equal(u(10));
    expect(parent.has(u(2))).to.equal(true);
    expect(parent.has(u(3))).to.equal(false);
    expect(hexEntries(b.iterator())).to.deep.equal([
      ['01', '0b'],
      ['03', ''],
    ]);
  });

  it('changes() lists buffered writes sorted ascending, last write wins, deletes as undefined', () => {
    const b = branch(new MemKVStore([[u(5), u(5)]]));
    b.set(u(9), u(1));
    b.set(u(0, 1), u(2));
    b.delete(u(5));
    b.set(u(7), u(3));
    b.delete(u(7)); // set then delete: a delete
    b.delete(u(8)); // delete of an absent key is still recorded
    b.set(u(9), u(4)); // overwrite
    expect(b.changes().map((c) => [hex(c.key), c.value === undefined ? null : hex(c.value)])).to.deep.equal([
      ['0001', '02'],
      ['05', null],
      ['07', null],
      ['08', null],
      ['09', '04'],
    ]);
  });

  it('packedChanges() holds what changes() lists: every key byte (0x00-0xff, short and long keys), values, deletes', () => {
    const r = rng(41);
    const b = branch(new MemKVStore());
    for (let i = 0; i < 2000; i++) {
      // keys of 0-300 bytes (the short and the long key conversions), each byte value possible
      const k = randBytes(r, r() < 0.9 ? 40 : 300);
      if (r() < 0.2) b.delete(k);
      else b.set(k, randBytes(r, 20));
    }
    const changes = b.changes();
    const p = b.packedChanges();
    expect(p.n).to.equal(changes.length);
    expect(p.offs.length).to.equal(p.n + 1);
    expect(p.offs[p.n]).to.equal(p.bytes.length);
    for (let i = 0; i < p.n; i++) {
      expect(hex(p.bytes.subarray(p.offs[i]!, p.offs[i + 1]!))).to.equal(hex(changes[i]!.key));
      const v = p.values[i];
      expect(v === undefined ? undefined : hex(v)).to.equal(changes[i]!.value === undefined ? undefined : hex(changes[i]!.value!));
    }
    expect(branch(new MemKVStore()).packedChanges()).to.deep.include({ n: 0 });
  });

  it('write() flushes to the parent in key order and clears the buffer; discard() drops it', () => {
    const parent = new RecordingStore();
    parent.set(u(2), u(2));
    parent.log.length = 0;
    const b = branch(parent);
    b.set(u(3), u(3));
    b.delete(u(2));
    b.set(u(1), u(1));
    b.write();
    expect(parent.log).to.deep.equal(['set 01=01', 'del 02', 'set 03=03']);
    expect(b.changes()).to.deep.equal([]);
    expect(hexEntries(parent.iterator())).to.deep.equal([
      ['01', '01'],
      ['03', '03'],
    ]);
    b.set(u(4), u(4));
    b.discard();
    expect(b.changes()).to.deep.equal([]);
    expect(b.get(u(4))).to.equal(undefined);
    b.write();
    expect(parent.log.length).to.equal(3);
  });

  it('nests: a child writes into its parent branch, not into the base store', () => {
    const base = new MemKVStore([[u(1), u(1)]]);
    const block = branch(base);
    const tx = branch(block);
    tx.set(u(2), u(2));
    tx.delete(u(1));
    expect(block.get(u(2))).to.equal(undefined);
    tx.write();
    expect(block.get(u(2))).to.deep.equal(u(2));
    expect(block.has(u(1))).to.equal(false);
    expect(base.has(u(1))).to.equal(true);
    expect(base.has(u(2))).to.equal(false);
    const failed = branch(block);
    failed.set(u(3), u(3));
    failed.discard();
    block.write();
    expect(hexEntries(base.iterator())).to.deep.equal([['02', '02']]);
  });

  it('keeps the buffer when the parent rejects the flush', () => {
    const readOnly: KVStore = {
      get: () => undefined,
      has: () => false,
      set: () => {
        throw new Error('read-only');
      },
      delete: () => {
        throw new Error('read-only');
      },
      iterator: () => [][Symbol.iterator]() as IterableIterator<[Bytes, Bytes]>,
    };
    const b = branch(readOnly);
    b.set(u(1), u(1));
    expect(() => b.write()).to.throw('read-only');
    expect(b.changes().length).to.equal(1);
  });

  it('iterator merges parent and buffer (3 nested levels) like a reference model, both directions', () => {
    const r = rng(7);
    for (let round = 0; round < 40; round++) {
      const base = new MemKVStore();
      const model = new Model();
      for (let i = 0; i < 60; i++) {
        const k = randBytes(r, 3);
        const v = randBytes(r, 2);
        base.set(k, v);
        model.set(k, v);
      }
      let store: KVStore = base;
      for (let level = 0; level < 3; level++) {
        const b = branch(store);
        for (let i = 0; i < 30; i++) {
          const k = randBytes(r, 3);
          if (r() < 0.5) {
            const v = randBytes(r, 2);
            b.set(k, v);
            model.set(k, v);
          } else {
            b.delete(k);
            model.delete(k);
          }
        }
        store = b;
        for (let q = 0; q < 10; q++) {
          const a = r() < 0.25 ? undefined : randBytes(r, 2);
          const e = r() < 0.25 ? undefined : randBytes(r, 2);
          const rev = r() < 0.5;
          expect(hexEntries(b.iterator(a, e, rev))).to.deep.equal(hexEntries(model.range(a, e, rev)));
          const probe = randBytes(r, 3);
          expect(b.get(probe)).to.deep.equal(model.get(probe));
          expect(b.has(probe)).to.equal(model.get(probe) !== undefined);
        }
      }
      // Flushing every level down yields the model in the base store.
      expect(hexEntries(store.iterator())).to.deep.equal(hexEntries(model.range()));
    }
  });

  it('writes between iterations (new keys, rewrites, deletes, writes flushed from a child) show in the next iterator, not in earlier ones', () => {
    const r = rng(11);
    for (let round = 0; round < 30; round++) {
      const base = new MemKVStore();
      const model = new Model();
      for (let i = 0; i < 40; i++) {
        const k = randBytes(r, 2);
        const v = randBytes(r, 2);
        base.set(k, v);
        model.set(k, v);
      }
      const b = branch(base);
      const open: { it: Iterator<[Uint8Array, Uint8Array]>; want: [string, string][] }[] = [];
      for (let step = 0; step < 12; step++) {
        // a burst of writes, some straight into b, some through a child branch flushed into it
        const child = r() < 0.3 ? branch(b) : undefined;
        const target = child ?? b;
        for (let i = 0; i < 1 + Math.floor(r() * 15); i++) {
          const k = randBytes(r, 2);
          if (r() < 0.7) {
            const v = randBytes(r, 2);
            target.set(k, v);
            model.set(k, v);
          } else {
            target.delete(k);
            model.delete(k);
          }
        }
        child?.write();
        expect(b.size).to.be.greaterThan(0);
        const a = r() < 0.3 ? undefined : randBytes(r, 1);
        const e = r() < 0.3 ? undefined : randBytes(r, 2);
        const rev = r() < 0.5;
        expect(hexEntries(b.iterator(a, e, rev))).to.deep.equal(hexEntries(model.range(a, e, rev)));
        // one iterator left open across the later writes: it shows the state of its moment
        if (r() < 0.3) open.push({ it: b.iterator(), want: hexEntries(model.range()) });
      }
      for (const o of open) expect(hexEntries({ [Symbol.iterator]: () => o.it } as Iterable<[Uint8Array, Uint8Array]>)).to.deep.equal(o.want);
      expect(b.changes().map((c) => Buffer.from(c.key).toString('hex'))).to.deep.equal(b.changes().map((c) => Buffer.from(c.key).toString('hex')).sort());
      b.write();
      expect(hexEntries(base.iterator())).to.deep.equal(hexEntries(model.range()));
    }
  });

  it('write() of nested levels reproduces the model in the base store', () => {
    const r = rng(99);
    const base = new MemKVStore();
    const model = new Model();
    const block = branch(base);
    for (let t = 0; t < 50; t++) {
      const tx = branch(block);
      const txModel = model.clone();
      for (let i = 0; i < 5; i++) {
        const k = randBytes(r, 2);
        if (r() < 0.7) {
          const v = randBytes(r, 2);
          tx.set(k, v);
          txModel.set(k, v);
        } else {
          tx.delete(k);
          txModel.delete(k);
        }
      }
      if (r() < 0.8) {
        tx.write();
        for (const [k, e] of txModel.m) model.m.set(k, e);
        for (const k of [...model.m.keys()]) if (!txModel.m.has(k)) model.m.delete(k);
      } else tx.discard();
      expect(hexEntries(block.iterator())).to.deep.equal(hexEntries(model.range()));
    }
    block.write();
    expect(hexEntries(base.iterator())).to.deep.equal(hexEntries(model.range()));
  });

  it('iterators are snapshots: writes to the branch or its parent while iterating are not seen', () => {
    for (const reverse of [false, true]) {
      const base = new MemKVStore();
      for (let i = 0; i < 100; i += 2) base.set(u(i), u(0));
      const b = branch(base);
      for (let i = 1; i < 100; i += 4) b.set(u(i), u(1));
      for (let i = 0; i < 100; i += 8) b.delete(u(i));
      const expected = hexEntries(b.iterator(undefined, undefined, reverse));
      const seen: [string, string][] = [];
      let n = 0;
      for (const [k, v] of b.iterator(undefined, undefined, reverse)) {
        seen.push([hex(k), hex(v)]);
        n++;
        for (let j = 0; j < 100; j++) {
          if ((j + n) % 3 === 0) b.set(u(j), u(7));
          if ((j + n) % 5 === 0) b.delete(u(j));
          if ((j + n) % 7 === 0) base.set(u(j, 1), u(8));
          if ((j + n) % 11 === 0) base.delete(u(j));
        }
      }
      expect(seen).to.deep.equal(expected);
      expect(seen.length).to.be.greaterThan(40);
    }
  });

  it('an iterator taken from a child branch survives the child being written into its parent', () => {
    const base = new MemKVStore([[u(1), u(1)]]);
    const block = branch(base);
    const tx = branch(block);
    tx.set(u(2), u(2));
    const it = tx.iterator();
    const first = it.next();
    tx.set(u(3), u(3));
    tx.write();
    block.write();
    expect(hex(first.value![0])).to.equal('01');
    expect([...it].map(([k]) => hex(k))).to.deep.equal(['02']);
    expect(hexEntries(base.iterator()).map(([k]) => k)).to.deep.equal(['01', '02', '03']);
  });
});
