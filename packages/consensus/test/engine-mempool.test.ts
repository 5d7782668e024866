import { expect } from 'chai';
import { sha256, toHex } from '@chain/crypto';
import { Errors } from '@chain/errors';
import type { AnteHandler } from '@chain/app';
import { CHECK_TX_SLOTS, MempoolError } from '../src/index.js';
import type { TxInclusion } from '../src/index.js';
import { TestNode, makeGenesis, sleep, verifyChain } from './helpers.js';

/** Rejects txs with memo `stale` when they are re-checked after a block (state moved on). */
const staleOnRecheck: AnteHandler = (ctx, tx) => {
  if (ctx.mode === 'recheck' && tx.body.memo === 'stale') throw Errors.Unauthorized.wrap('stale tx');
};

describe('Engine mempool admission (engine not started)', () => {
  let node: TestNode;
  before(async () => { node = await TestNode.create({ mempool: { maxTxs: 2, maxTxBytes: 300 } }); });
  after(async () => { await node?.close(); });

  it('reports CometBFT mempool errors as MempoolError and admits the rest', async () => {
    const a = node.tx([{ sender: 'a' }]);
    const r = await node.engine.checkTx(a);
    expect([r.code, toHex(r.hash)]).to.deep.equal([0, toHex(sha256(a))]);
    expect(node.engine.mempool.has(toHex(sha256(a)))).to.equal(true);
    const dup = await node.engine.checkTx(a).catch((e: unknown) => e);
    expect(dup).to.be.instanceOf(MempoolError);
    expect((dup as MempoolError).message).to.equal('tx already exists in cache');
    const big = node.tx([{ sender: 'x'.repeat(400) }]);
    const tooBig = await node.engine.checkTx(big).catch((e: unknown) => e);
    expect((tooBig as MempoolError).message).to.equal(`Tx too large. Max size is 300, but got ${big.length}`);
    const b = node.tx([{ sender: 'b' }]);
    expect((await node.engine.checkTx(b)).code).to.equal(0);
    const c = node.tx([{ sender: 'c' }]);
    const full = await node.engine.checkTx(c).catch((e: unknown) => e);
    expect(full).to.be.instanceOf(MempoolError);
    expect((full as MempoolError).kind).to.equal('full');
    expect((full as MempoolError).message).to.equal(`mempool is full: number of txs 2 (max: 2), total txs bytes ${a.length + b.length} (max: 1073741824)`);
    expect(node.engine.mempool.size).to.equal(2);
    expect(node.engine.latestHeight).to.equal(0);
  });
});

describe('Engine admission order', () => {
  it('CheckTx sees txs in the order checkTx was called, however long each one\'s precheck takes', async () => {
    const node = await TestNode.create({});
    try {
      const raws = Array.from({ length: 8 }, (_, i) => node.tx([{ sender: `s${i}` }]));
      // the earlier a tx, the slower its precheck; one precheck fails (it reports nothing: CheckTx decides)
      const delay = new Map(raws.map((r, i) => [r, (raws.length - i) * 15]));
      node.app.precheckTx = async (raw) => {
        await sleep(delay.get(raw) ?? 0);
        if (raw === raws[3]) throw new Error('precheck failed');
      };
      const seen: number[] = [];
      const check = node.app.checkTx.bind(node.app);
      node.app.checkTx = async (req) => { seen.push(raws.indexOf(req.tx)); return check(req); };
      const results = await Promise.all(raws.map((r) => node.engine.checkTx(r).then((x) => x.code, (e: unknown) => String(e))));
      expect(results).to.deep.equal([0, 0, 0, 'Error: precheck failed', 0, 0, 0, 0]);
      expect(seen).to.deep.equal([0, 1, 2, 4, 5, 6, 7]);
      // a rejected tx does not hold the ones after it
      expect(node.engine.mempool.size).to.equal(7);
    } finally {
      await node.close();
    }
  });

  it(`has at most ${CHECK_TX_SLOTS} txs between precheck and the end of CheckTx, the rest waiting in order`, async () => {
    const node = await TestNode.create({});
    try {
      const raws = Array.from({ length: CHECK_TX_SLOTS * 3 }, (_, i) => node.tx([{ sender: `s${i}` }]));
      let open = 0;
      let most = 0;
      const started: number[] = [];
      node.app.precheckTx = async (raw) => {
        open++;
        most = Math.max(most, open);
        started.push(raws.indexOf(raw));
        await sleep(raws.indexOf(raw) % 3);
      };
      const seen: number[] = [];
      const check = node.app.checkTx.bind(node.app);
      node.app.checkTx = async (req) => {
        seen.push(raws.indexOf(req.tx));
        const r = await check(req);
        open--;
        return r;
      };
      const codes = await Promise.all(raws.map((r) => node.engine.checkTx(r).then((x) => x.code)));
      expect(codes.every((c) => c === 0)).to.equal(true);
      expect(most).to.equal(CHECK_TX_SLOTS);
      expect(started).to.deep.equal(raws.map((_, i) => i));
      expect(seen).to.deep.equal(raws.map((_, i) => i));
    } finally {
      await node.close();
    }
  });
});

describe('Engine with a block gas limit and re-checking', function () {
  this.timeout(30_000);
  let node: TestNode;

  before(async () => {
    node = await TestNode.create({ genesis: makeGenesis({ maxGas: 300_000 }), anteHandler: staleOnRecheck, timeoutCommitMs: 20 });
    await node.engine.start();
    await node.waitForHeight(1);
  });
  after(async () => { await node?.close(); });

  /** CheckTx several txs back to back (no block can start in between) and wait for all of them. */
  async function submitAll(raws: Uint8Array[], timeoutMs = 5000): Promise<(TxInclusion | undefined)[]> {
    const waits = raws.map((r) => node.engine.waitForTx(sha256(r), timeoutMs));
    const checks = await Promise.all(raws.map((r) => node.engine.checkTx(r)));
    for (const c of checks) expect(c.code, c.log).to.equal(0);
    return Promise.all(waits);
  }

  it('puts no more gas in a block than max_gas, in arrival order', async () => {
    const a = node.tx([{ sender: 'a' }], { gas: 200_000n });
    const b = node.tx([{ sender: 'b' }], { gas: 100_000n });
    const c = node.tx([{ sender: 'c' }], { gas: 200_000n });
    const d = node.tx([{ sender: 'd' }], { gas: 50_000n });
    const [ia, ib, ic, id] = (await submitAll([a, b, c, d])) as TxInclusion[];
    expect([ia!.height, ib!.height]).to.deep.equal([ia!.height, ia!.height]);
    expect([ia!.index, ib!.index]).to.deep.equal([0, 1]);
    // c does not fit after a + b; d is not taken ahead of it (reaping stops at the first misfit)
    expect([ic!.height, ic!.index]).to.deep.equal([ia!.height + 1, 0]);
    expect([id!.height, id!.index]).to.deep.equal([ia!.height + 1, 1]);
    for (let h = 1; h <= node.engine.latestHeight; h++) {
      const r = (await node.engine.blocks.results(h))!;
      expect(r.txResults.reduce((n, t) => n + t.gasWanted, 0), `gas of block ${h}`).to.be.at.most(300_000);
    }
  });

  it('refuses a tx whose gas limit exceeds max_gas (it could never be reaped) and keeps producing blocks', async () => {
    const huge = node.tx([{ sender: 'h' }], { gas: 300_001n });
    const err = await node.engine.checkTx(huge).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(MempoolError);
    expect((err as MempoolError).message).to.equal('gas wanted 300001 is greater than max gas 300000');
    expect(node.engine.mempool.has(toHex(sha256(huge)))).to.equal(false);
    const ok = node.tx([{ sender: 'after-huge' }], { gas: 100_000n });
    const [inc] = await submitAll([ok]);
    expect(inc?.result.code).to.equal(0);
  });

  it('drops txs that fail the re-check from the mempool and the cache', async () => {
    const a = node.tx([{ sender: 'a' }], { gas: 200_000n });
    const stale = node.tx([{ sender: 's' }], { gas: 200_000n, memo: 'stale' });
    const staleHex = toHex(sha256(stale));
    const waitA = node.engine.waitForTx(sha256(a), 5000);
    const checks = await Promise.all([node.engine.checkTx(a), node.engine.checkTx(stale)]);
    expect(checks.map((c) => c.code)).to.deep.equal([0, 0]);
    const ia = await waitA;
    expect(ia?.result.code).to.equal(0);
    await node.waitForHeight(ia!.height + 2); // the re-check after a's block ran before the next block
    expect(node.engine.mempool.has(staleHex)).to.equal(false);
    expect(node.engine.mempool.size).to.equal(0);
    expect(await node.engine.indexer.byHash(sha256(stale))).to.equal(undefined);
    // not cached any more: CheckTx runs again (and passes: only re-checks reject it), so it gets in
    const wait = node.engine.waitForTx(sha256(stale), 5000);
    const again = await node.engine.checkTx(stale).catch((e: Error) => e);
    expect(again instanceof Error ? again.message : again.code).to.equal(0);
    const inc = await wait;
    expect(inc?.result.code).to.equal(0);
    expect(inc!.height).to.be.greaterThan(ia!.height);
  });

  it('keeps producing a valid chain', async () => {
    await sleep(50);
    await verifyChain(node, node.engine.latestHeight);
    expect(node.errors).to.deep.equal([]);
  });
});
