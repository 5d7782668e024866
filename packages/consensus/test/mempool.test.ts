import { expect } from 'chai';
import { sha256, toHex } from '@chain/crypto';
import { Mempool, MempoolError } from '../src/index.js';
import type { MempoolTx } from '../src/index.js';

/** A tx of `size` bytes (distinct per tag) with its hash. */
function mtx(tag: number, size = 8, gasWanted = 100): MempoolTx {
  const raw = new Uint8Array(size).fill(tag & 0xff);
  if (size >= 2) raw[1] = tag >> 8;
  const hash = sha256(raw);
  return { raw, hash, hashHex: toHex(hash), gasWanted };
}

/** precheck + add, as the engine does for a tx that passed CheckTx. */
function admit(mp: Mempool, tx: MempoolTx): void {
  mp.precheck(tx.raw, tx.hashHex);
  mp.add(tx);
}

function rejection(fn: () => void): MempoolError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(MempoolError);
    return e as MempoolError;
  }
  expect.fail('expected a MempoolError');
}

const tags = (txs: readonly MempoolTx[]): number[] => txs.map((t) => t.raw[0]!);

describe('Mempool', () => {
  describe('precheck', () => {
    it('rejects a tx over maxTxBytes with CometBFT\'s message', () => {
      const mp = new Mempool({ maxTxBytes: 10 });
      const big = mtx(1, 11);
      const e = rejection(() => mp.precheck(big.raw, big.hashHex));
      expect(e.kind).to.equal('too-large');
      expect(e.message).to.equal('Tx too large. Max size is 10, but got 11');
      const ok = mtx(2, 10);
      expect(() => mp.precheck(ok.raw, ok.hashHex)).to.not.throw();
      // a rejected tx is not remembered
      expect(() => mp.precheck(mtx(1, 11).raw, big.hashHex)).to.throw('Tx too large');
    });

    it('rejects a tx seen before with "tx already exists in cache" until forgotten', () => {
      const mp = new Mempool();
      const t = mtx(1);
      mp.precheck(t.raw, t.hashHex);
      const e = rejection(() => mp.precheck(t.raw, t.hashHex));
      expect(e.kind).to.equal('in-cache');
      expect(e.message).to.equal('tx already exists in cache');
      mp.forget(t.hashHex);
      expect(() => mp.precheck(t.raw, t.hashHex)).to.not.throw();
    });

    it('rejects when the tx count limit is reached', () => {
      const mp = new Mempool({ maxTxs: 2, maxTxsBytes: 1000 });
      admit(mp, mtx(1, 5));
      admit(mp, mtx(2, 7));
      const t = mtx(3, 4);
      const e = rejection(() => mp.precheck(t.raw, t.hashHex));
      expect(e.kind).to.equal('full');
      expect(e.message).to.equal('mempool is full: number of txs 2 (max: 2), total txs bytes 12 (max: 1000)');
      mp.remove(mtx(1, 5).hashHex);
      expect(() => mp.precheck(t.raw, t.hashHex)).to.not.throw();
    });

    it('rejects when the tx would push the total bytes over maxTxsBytes', () => {
      const mp = new Mempool({ maxTxs: 100, maxTxsBytes: 10 });
      admit(mp, mtx(1, 6));
      const five = mtx(2, 5);
      expect(rejection(() => mp.precheck(five.raw, five.hashHex)).message)
        .to.equal('mempool is full: number of txs 1 (max: 100), total txs bytes 6 (max: 10)');
      const four = mtx(3, 4);
      expect(() => mp.precheck(four.raw, four.hashHex)).to.not.throw();
    });

    it('checks fullness first, then size, then the cache (CometBFT order)', () => {
      const mp = new Mempool({ maxTxs: 1, maxTxBytes: 10 });
      const seen = mtx(1, 5);
      admit(mp, seen);
      const big = mtx(2, 50);
      expect(rejection(() => mp.precheck(big.raw, big.hashHex)).kind).to.equal('full');
      expect(rejection(() => mp.precheck(seen.raw, seen.hashHex)).kind).to.equal('full');
      mp.remove(seen.hashHex);
      expect(rejection(() => mp.precheck(big.raw, big.hashHex)).kind).to.equal('too-large');
      expect(rejection(() => mp.precheck(seen.raw, seen.hashHex)).kind).to.equal('in-cache');
    });

    it('evicts the oldest hash when the cache is full', () => {
      const mp = new Mempool({ cacheSize: 2 });
      const [a, b, c] = [mtx(1), mtx(2), mtx(3)];
      for (const t of [a, b, c]) mp.precheck(t.raw, t.hashHex);
      expect(() => mp.precheck(a.raw, a.hashHex)).to.not.throw(); // a was evicted; now b was
      expect(() => mp.precheck(c.raw, c.hashHex)).to.throw('tx already exists in cache');
      expect(() => mp.precheck(b.raw, b.hashHex)).to.not.throw();
    });
  });

  describe('contents', () => {
    it('adds once, tracks size and bytes, lists in arrival order and removes', () => {
      const mp = new Mempool();
      const [a, b, c] = [mtx(1, 3), mtx(2, 4), mtx(3, 5)];
      for (const t of [a, b, c]) admit(mp, t);
      mp.add(b);
      expect([mp.size, mp.bytes]).to.deep.equal([3, 12]);
      expect(tags(mp.list())).to.deep.equal([1, 2, 3]);
      expect(tags(mp.list(2))).to.deep.equal([1, 2]);
      expect(mp.has(b.hashHex)).to.equal(true);
      mp.remove(b.hashHex);
      mp.remove(b.hashHex);
      expect([mp.size, mp.bytes, mp.has(b.hashHex)]).to.deep.equal([2, 8, false]);
      expect(tags(mp.list())).to.deep.equal([1, 3]);
    });

    it('notifies onAdd listeners once per new tx until unsubscribed', () => {
      const mp = new Mempool();
      const seen: number[] = [];
      const off = mp.onAdd((t) => seen.push(t.raw[0]!));
      mp.add(mtx(1));
      mp.add(mtx(1));
      mp.add(mtx(2));
      off();
      mp.add(mtx(3));
      expect(seen).to.deep.equal([1, 2]);
    });
  });

  describe('reap', () => {
    it('takes txs in arrival order within the byte budget, stopping at the first that does not fit', () => {
      const mp = new Mempool();
      for (const t of [mtx(1, 3), mtx(2, 4), mtx(3, 5), mtx(4, 1)]) admit(mp, t);
      expect(tags(mp.reap(7, -1))).to.deep.equal([1, 2]);
      expect(tags(mp.reap(6, -1))).to.deep.equal([1]);
      expect(tags(mp.reap(12, -1))).to.deep.equal([1, 2, 3]);
      expect(tags(mp.reap(13, -1))).to.deep.equal([1, 2, 3, 4]);
      expect(tags(mp.reap(2, -1))).to.deep.equal([]);
      expect(mp.size).to.equal(4); // reaping does not remove
    });

    it('respects the gas budget (-1 = unlimited)', () => {
      const mp = new Mempool();
      for (const t of [mtx(1, 8, 100), mtx(2, 8, 200), mtx(3, 8, 50)]) admit(mp, t);
      expect(tags(mp.reap(1e9, 300))).to.deep.equal([1, 2]);
      expect(tags(mp.reap(1e9, 299))).to.deep.equal([1]);
      expect(tags(mp.reap(1e9, 350))).to.deep.equal([1, 2, 3]);
      expect(tags(mp.reap(1e9, 99))).to.deep.equal([]);
      expect(tags(mp.reap(1e9, -1))).to.deep.equal([1, 2, 3]);
      expect(tags(mp.reap(16, 1000))).to.deep.equal([1, 2]);
    });
  });

  describe('update', () => {
    it('removes committed txs, keeps them in the cache and returns the rest to re-check', () => {
      const mp = new Mempool();
      const [a, b, c] = [mtx(1, 3), mtx(2, 4), mtx(3, 5)];
      for (const t of [a, b, c]) admit(mp, t);
      const rest = mp.update([a.hash, c.hash]);
      expect(tags(rest)).to.deep.equal([2]);
      expect([mp.size, mp.bytes]).to.deep.equal([1, 4]);
      expect(() => mp.precheck(a.raw, a.hashHex)).to.throw('tx already exists in cache');
      expect(() => mp.precheck(c.raw, c.hashHex)).to.throw('tx already exists in cache');
    });

    it('caches committed txs it never saw (a block from elsewhere)', () => {
      const mp = new Mempool();
      const a = mtx(1);
      expect(mp.update([a.hash])).to.deep.equal([]);
      expect(() => mp.precheck(a.raw, a.hashHex)).to.throw('tx already exists in cache');
    });

    it('drops committed txs that failed from the cache so they can be resubmitted', () => {
      const mp = new Mempool();
      const [ok, bad] = [mtx(1), mtx(2)];
      admit(mp, ok);
      admit(mp, bad);
      expect(mp.update([ok.hash, bad.hash], [0, 5])).to.deep.equal([]);
      expect(() => mp.precheck(ok.raw, ok.hashHex)).to.throw('tx already exists in cache');
      expect(() => mp.precheck(bad.raw, bad.hashHex)).to.not.throw();
    });

    it('does not evict other hashes when re-caching a hash already cached', () => {
      const mp = new Mempool({ cacheSize: 2 });
      const [a, b] = [mtx(1), mtx(2)];
      admit(mp, a);
      admit(mp, b);
      mp.update([b.hash]);
      expect(mp.has(a.hashHex)).to.equal(true);
      expect(() => mp.precheck(a.raw, a.hashHex)).to.throw('tx already exists in cache');
      expect(() => mp.precheck(b.raw, b.hashHex)).to.throw('tx already exists in cache');
    });
  });
});
