import { expect } from 'chai';
import { ed25519Verify, fromBase64, sha256, toHex } from '@chain/crypto';
import { parseQuery } from '@chain/events';
import type { BusMessage } from '@chain/events';
import { Engine, MempoolError, canonicalVoteSignBytes, privValidatorKeyJSON, seedOfPrivValidatorKey, validatorAddress } from '../src/index.js';
import type { Block, BlockID, Header, StoredResults, StoredTxResult, TxInclusion, Vote } from '../src/index.js';
import { CHAIN_ID, TestNode, VALIDATOR_KEY, counterOf, hex, makeGenesis, sleep, verifyChain } from './helpers.js';

const upper = (b: Uint8Array): string => toHex(b).toUpperCase();
const heightOf = (m: BusMessage): number => {
  const d = m.data as { height?: number; block?: Block; header?: Header; vote?: { height: number } };
  return d.height ?? d.vote?.height ?? d.block?.header.height ?? d.header!.height;
};

/** Submits `raw` through CheckTx and waits for its inclusion (the waiter is registered first). */
async function submit(node: TestNode, raw: Uint8Array, timeoutMs = 5000): Promise<TxInclusion> {
  const wait = node.engine.waitForTx(sha256(raw), timeoutMs);
  const res = await node.engine.checkTx(raw);
  expect(res.code, `CheckTx: ${res.log}`).to.equal(0);
  expect(hex(res.hash)).to.equal(hex(sha256(raw)));
  const inc = await wait;
  expect(inc, 'tx not included').to.not.equal(undefined);
  return inc!;
}

describe('Engine driving an app (single validator)', function () {
  this.timeout(30_000);
  let node: TestNode;
  let bus: BusMessage[];

  before(async () => {
    node = await TestNode.create({ timeoutCommitMs: 20 });
    bus = node.collect('tm.event EXISTS').messages;
    expect(node.engine.latestHeight).to.equal(0);
    expect(node.engine.latestBlock).to.equal(undefined);
    await node.engine.start();
  });
  after(async () => { await node?.close(); });

  it('uses the genesis validator key and chain id', () => {
    expect(node.engine.chainId).to.equal(CHAIN_ID);
    expect(hex(node.engine.validatorPubKey)).to.equal(hex(fromBase64(VALIDATOR_KEY.pub_key.value)));
    expect(upper(node.engine.validatorAddr)).to.equal(VALIDATOR_KEY.address);
    expect(upper(validatorAddress(node.engine.validatorPubKey))).to.equal(VALIDATOR_KEY.address);
  });

  it('produces linked, signed blocks from genesis', async () => {
    await node.waitForHeight(4);
    const latest = node.engine.latestHeight;
    await verifyChain(node, latest);
    expect(await node.engine.blocks.baseHeight()).to.equal(1);
    expect(await node.engine.blocks.block(latest + 1000)).to.equal(undefined);
    expect(await node.engine.blocks.heightByHash(new Uint8Array(32))).to.equal(undefined);
    expect(node.errors).to.deep.equal([]);
  });

  it('includes txs, stores their results and indexes them', async () => {
    const txs = [node.tx([{ sender: 'alice', by: 1 }]), node.tx([{ sender: 'bob', by: 2 }]), node.tx([{ sender: 'alice', by: 3 }, { sender: 'carol' }])];
    const incs = await Promise.all(txs.map((t) => submit(node, t)));
    expect(counterOf(node.app, 'alice')).to.equal(4n);
    expect(counterOf(node.app, 'bob')).to.equal(2n);
    expect(counterOf(node.app, 'carol')).to.equal(1n);
    for (let i = 0; i < txs.length; i++) {
      const { height, index, result } = incs[i]!;
      expect(result.code, result.log).to.equal(0);
      const block = (await node.engine.blocks.block(height))!;
      expect(hex(block.block.data.txs[index]!)).to.equal(hex(txs[i]!));
      const stored = (await node.engine.blocks.results(height))!.txResults[index]!;
      expect(stored.code).to.equal(0);
      expect(stored.gasWanted).to.equal(200_000);
      expect(stored.gasUsed).to.be.greaterThan(0);
      expect(result).to.deep.equal(stored);
      const attrs = (type: string, r: StoredTxResult): string[] => r.events.filter((e) => e.type === type).flatMap((e) => e.attributes.map((a) => `${a.key}=${a.value}`));
      expect(attrs('message', stored)).to.include('action=/test.counter.v1.MsgIncrement');
      expect(attrs('message', stored)).to.include('module=counter');
      const ref = await node.engine.indexer.byHash(sha256(txs[i]!));
      expect(ref && [ref.height, ref.index]).to.deep.equal([height, index]);
    }
    expect(attrs2(incs[0]!.result)).to.deep.include.members(['message.sender=alice', 'counter.sender=alice', 'counter.value=1', 'counter.secret=hidden']);
    // conditions hold within one event (CometBFT v0.38's kv indexer): counter.sender and counter.value are one event
    const found = await node.engine.indexer.search(parseQuery("counter.sender='alice' AND counter.value>=2"), { page: 1, perPage: 10, orderDesc: false });
    expect(found.txs.map((t) => [t.height, t.index])).to.deep.equal([[incs[2]!.height, incs[2]!.index]]);
    const carol = await node.engine.indexer.search(parseQuery("message.sender='carol'"), { page: 1, perPage: 10, orderDesc: false });
    expect(carol.total).to.equal(1);
    expect(hex(carol.txs[0]!.hash)).to.equal(hex(sha256(txs[2]!)));
    expect((await node.engine.indexer.search(parseQuery("counter.secret='hidden'"), { page: 1, perPage: 10, orderDesc: false })).total).to.equal(0);
    await node.waitForHeight(node.engine.latestHeight + 1);
    expect(node.engine.mempool.size).to.equal(0);
    await verifyChain(node, node.engine.latestHeight);
  });

  it('publishes NewBlock, NewBlockHeader and Tx events with CometBFT event maps, in order', async () => {
    const raw = node.tx([{ sender: 'dave', by: 5 }]);
    const { height, index } = await submit(node, raw);
    await sleep(10);
    const stored = (await node.engine.blocks.block(height))!;
    const results = (await node.engine.blocks.results(height))!;
    const at = bus.filter((m) => heightOf(m) === height);
    expect(at.map((m) => m.type)).to.deep.equal([
      'NewRoundStep', 'NewRound', 'NewRoundStep', 'CompleteProposal', 'NewRoundStep', 'Vote', 'Polka', 'Lock', 'ValidBlock',
      'NewRoundStep', 'Vote', 'NewRoundStep', 'NewBlock', 'NewBlockHeader', 'NewBlockEvents', 'Tx',
    ]);
    expect(at.filter((m) => m.type === 'NewRoundStep').map((m) => (m.data as { step: string }).step))
      .to.deep.equal(['RoundStepNewRound', 'RoundStepPropose', 'RoundStepPrevote', 'RoundStepPrecommit', 'RoundStepCommit']);
    const votes = at.filter((m) => m.type === 'Vote').map((m) => (m.data as { vote: Vote }).vote);
    expect(votes.map((v) => v.type)).to.deep.equal([1, 2]);
    for (const v of votes) {
      expect(hex(v.blockId.hash)).to.equal(hex(stored.blockId.hash));
      expect(ed25519Verify(node.engine.validatorPubKey, canonicalVoteSignBytes(CHAIN_ID, v), v.signature)).to.equal(true);
    }
    const commitSig = (await node.engine.blocks.seenCommit(height))!.signatures[0]!;
    expect(hex(commitSig.signature)).to.equal(hex(votes[1]!.signature));
    const byType = (t: string): BusMessage => at.find((m) => m.type === t)!;
    const [newBlock, newHeader, tx] = [byType('NewBlock'), byType('NewBlockHeader'), byType('Tx')];
    expect(newBlock.events['tm.event']).to.deep.equal(['NewBlock']);
    const nb = newBlock.data as { block: Block; blockId: BlockID; results: StoredResults };
    expect(hex(nb.blockId.hash)).to.equal(hex(stored.blockId.hash));
    expect(nb.block).to.deep.equal(stored.block);
    expect(nb.results).to.deep.equal(results);
    expect(newHeader.events).to.deep.equal({ 'tm.event': ['NewBlockHeader'] });
    expect((newHeader.data as { header: Header }).header).to.deep.equal(stored.block.header);
    expect(tx.events['tm.event']).to.deep.equal(['Tx']);
    expect(tx.events['tx.hash']).to.deep.equal([upper(sha256(raw))]);
    expect(tx.events['tx.height']).to.deep.equal([String(height)]);
    expect(tx.events['message.sender']).to.deep.equal(['dave']);
    expect(tx.events['counter.value']).to.deep.equal(['5']);
    expect(tx.events['counter.secret']).to.deep.equal(['hidden']);
    const d = tx.data as { height: number; index: number; tx: Uint8Array; result: StoredTxResult };
    expect([d.height, d.index, hex(d.tx)]).to.deep.equal([height, index, hex(raw)]);
    expect(d.result).to.deep.equal(results.txResults[index]);
    // every committed height got exactly one NewBlock and one NewBlockHeader, in height order
    const nbHeights = bus.filter((m) => m.type === 'NewBlock').map(heightOf);
    expect(nbHeights).to.deep.equal(Array.from({ length: nbHeights.length }, (_, i) => i + 1));
    expect(bus.filter((m) => m.type === 'NewBlockHeader').map(heightOf)).to.deep.equal(nbHeights);
  });

  it('records a tx that fails in the block with its code, and lets it be resubmitted', async () => {
    const bad = node.tx([{ sender: 'erin', fail: true }]);
    const good = node.tx([{ sender: 'erin', by: 7 }]);
    const [b, g] = await Promise.all([submit(node, bad), submit(node, good)]);
    expect(b.result.code).to.equal(18);
    expect(b.result.codespace).to.equal('sdk');
    expect(b.result.log).to.equal('failed to execute message; message index: 0: forced failure: invalid request');
    expect(g.result.code).to.equal(0);
    expect(counterOf(node.app, 'erin')).to.equal(7n);
    const stored = (await node.engine.blocks.results(b.height))!.txResults[b.index]!;
    expect([stored.code, stored.codespace, stored.log]).to.deep.equal([18, 'sdk', b.result.log]);
    expect(stored.events.some((e) => e.type === 'counter')).to.equal(false);
    const ref = await node.engine.indexer.byHash(sha256(bad));
    expect(ref && [ref.height, ref.index]).to.deep.equal([b.height, b.index]);
    // a committed good tx stays in the cache; a failed one may come again (CometBFT default)
    // waitForTx also resolves for a tx committed before the call
    expect((await node.engine.waitForTx(sha256(bad), 5000))?.height).to.equal(b.height);
    const again = await node.engine.checkTx(bad).catch((e: Error) => e);
    expect(again instanceof Error ? again.message : again.code).to.equal(0);
    const dup = await node.engine.checkTx(good).catch((e: unknown) => e);
    expect(dup).to.be.instanceOf(MempoolError);
    expect((dup as MempoolError).message).to.equal('tx already exists in cache');
    let ref2 = await node.engine.indexer.byHash(sha256(bad));
    for (let i = 0; i < 200 && ref2!.height === b.height; i++) {
      await new Promise((r) => setTimeout(r, 10));
      ref2 = await node.engine.indexer.byHash(sha256(bad));
    }
    expect(ref2!.height).to.be.greaterThan(b.height);
    expect((await node.engine.blocks.results(ref2!.height))!.txResults[ref2!.index]!.code).to.equal(18);
  });

  it('rejects undecodable txs in CheckTx without caching them', async () => {
    const garbage = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);
    for (let i = 0; i < 2; i++) {
      const r = await node.engine.checkTx(garbage);
      expect([r.code, r.codespace]).to.deep.equal([2, 'sdk']);
      expect(node.engine.mempool.has(toHex(sha256(garbage)))).to.equal(false);
    }
    const dup = node.tx([{ sender: 'frank' }]);
    expect((await node.engine.checkTx(dup)).code).to.equal(0);
    const e = await node.engine.checkTx(dup).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(MempoolError);
    expect((e as MempoolError).kind).to.equal('in-cache');
    expect(await node.engine.waitForTx(sha256(Uint8Array.of(1)), 30)).to.equal(undefined);
  });

  it('stops, and a new engine on the same store resumes from the last block', async () => {
    await node.engine.stop();
    const h = node.engine.latestHeight;
    const last = node.engine.latestBlock!;
    await sleep(60);
    expect(node.engine.latestHeight).to.equal(h);
    expect(last.block.header.height).to.equal(h);
    expect(hex(node.app.lastAppHash)).to.equal(hex(node.engine.latestResults!.appHash));
    expect(node.engine.latestResults!.height).to.equal(h);
    const engine2 = new Engine({
      app: node.app, store: node.store, bus: node.bus, indexer: node.engine.indexer, genesis: node.genesis,
      validatorKey: seedOfPrivValidatorKey(VALIDATOR_KEY), timeoutCommitMs: 20,
    });
    try {
      await engine2.start();
      expect(engine2.latestHeight).to.equal(h);
      expect(hex(engine2.latestBlock!.blockId.hash)).to.equal(hex(last.blockId.hash));
      expect(engine2.latestBlock!.block.header).to.deep.equal(last.block.header);
      const raw = node.tx([{ sender: 'alice', by: 10 }]);
      const wait = engine2.waitForTx(sha256(raw), 5000);
      expect((await engine2.checkTx(raw)).code).to.equal(0);
      const inc = await wait;
      expect(inc!.height).to.be.greaterThan(h);
      const next = (await engine2.blocks.block(h + 1))!;
      expect(hex(next.block.header.lastBlockId.hash)).to.equal(hex(last.blockId.hash));
      expect(counterOf(node.app, 'alice')).to.equal(14n);
    } finally {
      await engine2.stop();
    }
    await verifyChain(node, node.app.lastHeight);
  });

  it('restarts on a reopened store with a fresh app and engine, continuing the chain', async () => {
    const h = node.app.lastHeight;
    const lastId = hex((await node.engine.blocks.block(h))!.blockId.hash);
    node = await node.restart();
    bus = node.collect('tm.event EXISTS').messages;
    expect(node.app.lastHeight).to.equal(h);
    await node.engine.start();
    expect(node.engine.latestHeight).to.equal(h);
    expect(hex(node.engine.latestBlock!.blockId.hash)).to.equal(lastId);
    expect(counterOf(node.app, 'alice')).to.equal(14n);
    const inc = await submit(node, node.tx([{ sender: 'alice', by: 1 }]));
    expect(inc.height).to.be.greaterThan(h);
    expect(counterOf(node.app, 'alice')).to.equal(15n);
    const first = bus.find((m) => m.type === 'NewBlock')!;
    expect(heightOf(first)).to.equal(h + 1);
    expect(hex((first.data as { block: Block }).block.header.lastBlockId.hash)).to.equal(lastId);
    await verifyChain(node, node.engine.latestHeight);
    const found = await node.engine.indexer.search(parseQuery("message.sender='alice'"), { page: 1, perPage: 100, orderDesc: false });
    expect(found.total).to.equal(4);
    expect(node.errors).to.deep.equal([]);
  });
});

describe('Engine construction', () => {
  it('refuses to start with a validator key that is not in the validator set', async () => {
    const node = await TestNode.create({ genesis: makeGenesis({ key: privValidatorKeyJSON(sha256(Uint8Array.of(9))) }) });
    try {
      const err = await node.engine.start().catch((e: Error) => e);
      expect(err).to.be.instanceOf(Error);
      expect((err as Error).message).to.equal('the validator key is not in the validator set');
    } finally {
      await node.close();
    }
  });
});

function attrs2(r: StoredTxResult): string[] {
  return r.events.flatMap((e) => e.attributes.map((a) => `${e.type}.${a.key}=${a.value}`));
}

describe('Engine with a genesis initial_height (a chain started from an exported state)', function () {
  this.timeout(30_000);

  it('InitChain gets the initial height, the first block is that height with an empty last block id, and a restart resumes', async () => {
    let node = await TestNode.create({ genesis: makeGenesis({ initialHeight: 1000 }), timeoutCommitMs: 20 });
    try {
      const calls: number[] = [];
      const initChain = node.app.initChain.bind(node.app);
      node.app.initChain = async (req) => { calls.push(req.initialHeight); return initChain(req); };
      const firstBlocks = node.collect("tm.event='NewBlock'").messages;
      await node.engine.start();
      expect(calls).to.deep.equal([1000]);
      await node.waitForHeight(1003);
      expect(heightOf(firstBlocks[0]!)).to.equal(1000);
      expect(await node.engine.blocks.baseHeight()).to.equal(1000);
      expect(await node.engine.blocks.block(999)).to.equal(undefined);
      expect(await node.engine.validatorsAt(999)).to.equal(undefined);
      expect((await node.engine.validatorsAt(1000))!.map((v) => hex(v.address))).to.deep.equal([hex(node.engine.validatorAddr)]);
      expect(node.store.firstHeight).to.equal(1000);
      // block 1000 is the first: no last block id, no last commit, empty app hash, genesis time
      await verifyChain(node, node.engine.latestHeight, 1000);
      const inc = await submit(node, node.tx([{ sender: 'alice', by: 2 }]));
      expect(inc.height).to.be.greaterThan(1000);
      const h = node.engine.latestHeight;
      node = await node.restart();
      await node.engine.start();
      expect(node.engine.latestHeight).to.equal(h);
      await node.waitForHeight(h + 2);
      await verifyChain(node, node.engine.latestHeight, 1000);
      expect(counterOf(node.app, 'alice')).to.equal(2n);
      expect(node.errors).to.deep.equal([]);
    } finally {
      await node.close();
    }
  });
});

describe('Engine: timeout_commit runs from the decision, as CometBFT\'s', function () {
  this.timeout(30_000);

  it('a block that takes as long as timeout_commit to execute does not double the interval', async () => {
    const node = await TestNode.create({ timeoutCommitMs: 400 });
    try {
      // execution as long as the timeout: block intervals stay ~400 ms (they were 400 + 400)
      const finalize = node.app.finalizeBlock.bind(node.app);
      node.app.finalizeBlock = async (req) => { await sleep(400); return finalize(req); };
      await node.engine.start();
      await node.waitForHeight(6);
      const times: number[] = [];
      for (let h = 2; h <= 6; h++) {
        const b = await node.engine.blocks.block(h);
        times.push(Number(b!.block.header.time.seconds) * 1000 + Math.floor(b!.block.header.time.nanos / 1e6));
      }
      const intervals = times.slice(1).map((t, i) => t - times[i]!);
      const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
      expect(mean, `intervals ${intervals.join(', ')} ms`).to.be.within(390, 650);
    } finally {
      await node.close();
    }
  });
});
