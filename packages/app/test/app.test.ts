import { expect } from 'chai';
import { GENESIS_APP_HASH } from '@chain/store';
import { TestApp, set, fail, burn, countingAnte, utf8, SIGNER, CHAIN_ID, T0, finalizeRequest, initChainRequest } from './helpers.js';
import type { Event } from '@chain/events';

const flat = (events: readonly Event[]): [string, [string, string][]][] => events.map((e) => [e.type, e.attributes.map((a) => [a.key, a.value] as [string, string])]);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('app: App lifecycle', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await TestApp.create();
  });
  afterEach(async () => {
    await t.close();
  });

  it('info, initChain (genesis into block 1) and exportGenesis', async () => {
    expect(t.app.infoSync()).to.deep.include({ data: 'chain', version: '0.1.0', appVersion: 1, lastBlockHeight: 0 });
    expect(t.app.infoSync().lastBlockAppHash).to.deep.equal(GENESIS_APP_HASH);
    const h = await t.init([{ key: 'a', value: '1' }, { key: 'b', value: '2' }]);
    expect(t.app.lastHeight).to.equal(1);
    expect(hex(t.app.lastAppHash)).to.equal(hex(h));
    expect(t.get('a')).to.equal('1');
    expect(t.app.exportGenesis()).to.deep.equal({ kv: { entries: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] } });
    expect(t.app.defaultGenesis()).to.deep.equal({ kv: { entries: [] } });
    expect(() => t.app.initChainSync(initChainRequest({}))).to.throw('InitChain on a chain that has blocks');
  });

  it('starts at the genesis initial height (a chain from an export); exports the InitChain state before the first block', async () => {
    expect(() => t.app.initChainSync({ ...initChainRequest({}), initialHeight: 0 })).to.throw('InitChain with initial height 0');
    await t.app.initChain({ ...initChainRequest({ kv: { entries: [{ key: 'a', value: '1' }] } }), initialHeight: 100 });
    // between InitChain and the first block: export and the pending state show what InitChain wrote
    expect(t.app.exportGenesis()).to.deep.equal({ kv: { entries: [{ key: 'a', value: '1' }] } });
    expect([...t.app.pendingGenesisState()!.iterator()].map(([k, v]) => `${Buffer.from(k).toString()}=${Buffer.from(v).toString()}`)).to.deep.equal(['kv/a=1']);
    expect(() => t.app.pendingGenesisState()!.set(utf8('x'), utf8('y'))).to.throw('read-only');
    for (const height of [1, 99, 101]) {
      const err = await t.app.finalizeBlock(finalizeRequest(height, [])).catch((e: unknown) => e);
      expect(String(err)).to.contain(`finalizeBlock height ${height}, expected 100`);
    }
    await t.app.finalizeBlock(finalizeRequest(100, [t.tx([set('b', '2')])]));
    await t.app.commit();
    expect(t.app.lastHeight).to.equal(100);
    expect(t.store.firstHeight).to.equal(100);
    expect(t.app.pendingGenesisState()).to.equal(undefined);
    expect(t.get('a')).to.equal('1');
    expect(t.get('b')).to.equal('2');
    await t.block([]);
    expect(t.app.lastHeight).to.equal(101);
    expect(await t.app.exportGenesisAt(100)).to.deep.equal({ kv: { entries: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] } });
    expect(String(await t.app.exportGenesisAt(50).catch((e: unknown) => e))).to.contain('before the first height 100');
    expect(String(await t.app.replayBlock({ height: 100, time: T0, proposer: new Uint8Array(20), txs: [] }).catch((e: unknown) => e))).to.contain('cannot be replayed (101..101)');
  });

  it('commits a block whose listeners write more ops than a call takes arguments (an indexer of a 20,000-tx block)', async () => {
    await t.init();
    const n = 300_000;
    const key = (i: number): Uint8Array => utf8(`x/extra/${i}`);
    t.app.addCommitListener(() => Array.from({ length: n }, (_, i) => ({ type: 'put' as const, key: key(i), value: utf8(String(i)) })));
    await t.block([t.tx([set('a', '1')])]);
    expect(t.app.lastHeight).to.equal(2);
    expect(t.get('a')).to.equal('1');
  });

  it('rejects finalizeBlock at a wrong height and commit without a finalized block', async () => {
    await t.init();
    for (const height of [1, 3, 0]) {
      let err: unknown;
      await t.app.finalizeBlock(finalizeRequest(height, [])).catch((e: unknown) => { err = e; });
      expect(String(err)).to.contain(`finalizeBlock height ${height}, expected 2`);
    }
    let err: unknown;
    await t.app.commit().catch((e: unknown) => { err = e; });
    expect(String(err)).to.contain('commit without a finalized block');
    expect(t.app.lastHeight).to.equal(1);
  });

  it('delivers a message: state, events (message + module), data, log, gas; app hash of finalize = commit', async () => {
    await t.init([{ key: 'a', value: 'old' }]);
    const res = await t.block([t.tx([set('a', 'new')], { gas: 500000n })]);
    expect(hex(res.appHash)).to.equal(hex(res.committed));
    const r = res.txResults[0]!;
    expect([r.code, r.codespace]).to.deep.equal([0, '']);
    expect(t.get('a')).to.equal('new');
    expect(t.anteCount()).to.equal(1);
    expect(flat(r.events)).to.deep.equal([
      ['tx', [['ante', '1']]],
      ['message', [['action', '/chain.apptest.v1.MsgSet'], ['sender', SIGNER], ['module', 'kv']]],
      ['kv_set', [['key', 'a'], ['value', 'new']]],
    ]);
    const data = t.registry.decode<{ msg_responses: { type_url: string; value: Uint8Array }[] }>('chain.base.abci.v1beta1.TxMsgData', r.data);
    expect(data.msg_responses.map((m) => m.type_url)).to.deep.equal(['/chain.apptest.v1.MsgSetResponse']);
    expect(t.registry.decode('chain.apptest.v1.MsgSetResponse', data.msg_responses[0]!.value)).to.deep.equal({ previous: 'old' });
    expect(JSON.parse(r.log)).to.deep.equal([{ msg_index: 0, log: '', events: [
      { type: 'message', attributes: [{ key: 'action', value: '/chain.apptest.v1.MsgSet' }, { key: 'sender', value: SIGNER }, { key: 'module', value: 'kv' }] },
      { type: 'kv_set', attributes: [{ key: 'key', value: 'a' }, { key: 'value', value: 'new' }] },
    ] }]);
    expect(r.gasWanted).to.equal(500000);
    expect(r.gasUsed).to.be.greaterThan(0);
    // begin/end block events carry the mode
    expect(flat(res.events)).to.deep.equal([['begin', [['height', '2'], ['mode', 'BeginBlock']]], ['end', [['height', '2'], ['mode', 'EndBlock']]]]);
  });

  it('a failing message leaves no state of any message, while the ante effects persist', async () => {
    await t.init();
    const before = t.dump();
    const r = await t.deliver(t.tx([set('x', '1'), fail('y')]));
    expect([r.code, r.codespace, r.log]).to.deep.equal([10, 'sdk', 'failed to execute message; message index: 1: boom: invalid coins']);
    expect(t.get('x')).to.equal(undefined);
    expect(t.get('y')).to.equal(undefined);
    expect(t.anteCount()).to.equal(1);
    expect(t.dump().filter((e) => !before.includes(e))).to.deep.equal(['ante/count=1']);
    // only the ante events are reported
    expect(flat(r.events)).to.deep.equal([['tx', [['ante', '1']]]]);
    // a non-registered error is code 1 (codespace undefined) with its bare message
    const r2 = await t.deliver(t.tx([fail('z', 1)]));
    expect([r2.code, r2.codespace, r2.log]).to.deep.equal([1, 'undefined', 'plain failure']);
    expect(t.anteCount()).to.equal(2);
  });

  it('a failing ante leaves no trace and runs no message', async () => {
    await t.init();
    const before = t.dump();
    const r = await t.deliver(t.tx([set('x', '1')], { memo: 'ante-fail' }));
    expect([r.code, r.codespace, r.log]).to.deep.equal([4, 'sdk', 'ante says no: unauthorized']);
    expect(t.dump()).to.deep.equal(before);
  });

  it('out of gas in a message is code 11 without a message prefix; ante effects persist', async () => {
    await t.init();
    const r = await t.deliver(t.tx([set('k', 'v'), burn(1000)], { gas: 60000n }));
    expect([r.code, r.codespace]).to.deep.equal([11, 'sdk']);
    expect(r.log).to.match(/^out of gas in location: ReadFlat; gasWanted: 60000, gasUsed: \d+: out of gas$/);
    expect(r.gasUsed).to.be.greaterThan(60000);
    expect(r.gasWanted).to.equal(60000);
    expect(t.get('k')).to.equal(undefined);
    expect(t.anteCount()).to.equal(1);
    const ante = await t.deliver(t.tx([set('k', 'v')], { gas: 10n }));
    expect([ante.code, ante.log]).to.deep.equal([11, `out of gas in location: txSize; gasWanted: 10, gasUsed: ${ante.gasUsed}: out of gas`]);
    expect(t.anteCount()).to.equal(1);
  });

  it('validate-basic failures: no messages (18), unroutable message (6), parse error (2); signatures are the ante\'s business', async () => {
    await t.init();
    const noMsgs = await t.deliver(t.tx([]));
    expect([noMsgs.code, noMsgs.log]).to.deep.equal([18, 'must contain at least one message: invalid request']);
    // without signatures the tx reaches the ante handler (which decides: Ethereum txs carry none)
    const noSigs = await t.deliver(t.tx([set('a', 'b')], { signatures: [] }));
    expect(noSigs.code, noSigs.log).to.equal(0);
    const entry = await t.deliver(t.tx([{ type: 'chain.apptest.v1.Entry', value: { key: 'a', value: 'b' } }]));
    expect([entry.code, entry.log]).to.deep.equal([6, 'unrecognized message type: /chain.apptest.v1.Entry: unknown request']);
    const garbage = await t.deliver(Uint8Array.from([1, 2, 3]));
    expect([garbage.code, garbage.codespace]).to.deep.equal([2, 'sdk']);
    expect([garbage.gasWanted, garbage.gasUsed]).to.deep.equal([0, 0]);
    expect(t.anteCount()).to.equal(1);
  });

  it('simulate changes nothing (not even the check state) and reports the gas used', async () => {
    await t.init([{ key: 'a', value: '1' }]);
    const before = t.dump();
    const sim = await t.app.simulate(t.tx([set('a', '2'), set('b', '3')]));
    expect(sim.code, sim.log).to.equal(0);
    expect(sim.gasUsed).to.be.greaterThan(0);
    expect(sim.gasWanted).to.equal(Number.MAX_SAFE_INTEGER);
    expect(sim.msgResponses?.map((m) => m.type_url)).to.deep.equal(['/chain.apptest.v1.MsgSetResponse', '/chain.apptest.v1.MsgSetResponse']);
    expect(t.dump()).to.deep.equal(before);
    // the check state still has ante count 0: the first checkTx sees count 1
    const check = await t.app.checkTx({ tx: t.tx([set('a', '9')]), type: 'new' });
    expect(check.events.map((e) => e.attributes[0]!.value)).to.deep.equal(['1']);
    // simulate gas equals what the same tx uses when delivered on the same state (commit resets the check state)
    await t.block([]);
    const tx = t.tx([set('a', '2'), set('b', '3')], { gas: 10_000_000n });
    const sim2 = await t.app.simulate(tx);
    const real = await t.deliver(tx);
    expect(real.code).to.equal(0);
    expect(sim2.gasUsed).to.equal(real.gasUsed);
  });

  it('checkTx runs only the ante on the check state, which resets at commit', async () => {
    await t.init();
    const c1 = await t.app.checkTx({ tx: t.tx([set('a', '1')]), type: 'new' });
    const c2 = await t.app.checkTx({ tx: t.tx([set('a', '1')]), type: 'new' });
    expect([c1.code, c2.code]).to.deep.equal([0, 0]);
    expect(c2.events.map((e) => e.attributes[0]!.value)).to.deep.equal(['2']);
    expect(c1.gasWanted).to.equal(1_000_000);
    expect(t.anteCount()).to.equal(0);
    expect(t.get('a')).to.equal(undefined);
    await t.block([]);
    const c3 = await t.app.checkTx({ tx: t.tx([set('a', '1')]), type: 'new' });
    expect(c3.events.map((e) => e.attributes[0]!.value)).to.deep.equal(['1']);
    const failing = await t.app.checkTx({ tx: t.tx([set('a', '1')], { memo: 'ante-fail' }), type: 'new' });
    expect(failing.code).to.equal(4);
  });

  it('an empty block keeps the app hash; a block with changes moves it', async () => {
    const h1 = await t.init();
    const e = await t.block([]);
    expect(hex(e.committed)).to.equal(hex(h1));
    const c = await t.block([t.tx([set('a', '1')])]);
    expect(hex(c.committed)).to.not.equal(hex(h1));
    expect(t.app.infoSync().lastBlockHeight).to.equal(3);
  });

  it('returns the validator updates of EndBlock', async () => {
    await t.init();
    t.kv.validatorUpdates = [{ pubKey: { type: 'ed25519', key: new Uint8Array(32).fill(1) }, power: 10n }];
    const res = await t.block([]);
    expect(res.validatorUpdates).to.deep.equal(t.kv.validatorUpdates);
  });

  it('queries: latest and past heights, errors as ABCI codes', async () => {
    await t.init([{ key: 'a', value: '1' }]);
    await t.block([t.tx([set('a', '2')])]);
    const get = async (key: string, height?: number) => {
      const r = await t.app.query({ path: '/chain.apptest.v1.Query/Get', data: t.registry.encode('chain.apptest.v1.QueryGetRequest', { key }), height });
      return { ...r, v: r.code === 0 ? t.registry.decode<{ value: string }>('chain.apptest.v1.QueryGetResponse', r.value).value : undefined };
    };
    expect((await get('a')).v).to.equal('2');
    expect((await get('a', 1)).v).to.equal('1');
    const alias = await t.app.query({ path: '/cosmos.apptest.v1.Query/Get', data: t.registry.encode('chain.apptest.v1.QueryGetRequest', { key: 'a' }) });
    expect([alias.code, alias.height]).to.deep.equal([0, 2]);
    const missing = await get('nope');
    expect([missing.code, missing.codespace, missing.log]).to.deep.equal([22, 'sdk', 'no key nope: key not found']);
    const future = await get('a', 9);
    expect([future.code, future.codespace]).to.deep.equal([26, 'sdk']);
    const list = await t.app.runQuery('/chain.apptest.v1.Query/List', { pagination: { limit: 1n, count_total: true } });
    expect(list.entries).to.deep.equal([{ key: 'a', value: '2' }]);
  });
});

describe('app: CheckTx limits and min gas prices', () => {
  it('rejects a tx larger than maxTxBytes with code 21', async () => {
    const t = await TestApp.create({ maxTxBytes: 100 });
    try {
      await t.init();
      const tx = t.tx([set('k', 'x'.repeat(200))]);
      const r = await t.app.checkTx({ tx, type: 'new' });
      expect([r.code, r.codespace, r.log]).to.deep.equal([21, 'sdk', `tx size ${tx.length} exceeds 100: tx too large`]);
    } finally {
      await t.close();
    }
  });

  it('hands the min gas prices and chain id to the ante context', async () => {
    let seen: unknown;
    const t = await TestApp.create({ minGasPrices: [{ denom: 'achain', amount: 25n * 10n ** 16n }], ante: (ctx, tx, sim) => { seen = [ctx.minGasPrices, ctx.block.chainId, ctx.mode, sim]; countingAnte(ctx, tx, sim); } });
    try {
      await t.init();
      await t.app.checkTx({ tx: t.tx([set('a', '1')]), type: 'new' });
      expect(seen).to.deep.equal([[{ denom: 'achain', amount: 25n * 10n ** 16n }], CHAIN_ID, 'check', false]);
      await t.app.simulate(t.tx([set('a', '1')]));
      expect((seen as unknown[])[2]).to.equal('simulate');
      expect((seen as unknown[])[3]).to.equal(true);
      expect(utf8('x')).to.have.length(1);
    } finally {
      await t.close();
    }
  });
});
