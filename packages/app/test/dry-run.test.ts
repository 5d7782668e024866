import { expect } from 'chai';
import { TestApp, set, fail, utf8, str, finalizeRequest, initChainRequest } from './helpers.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const { txs: _txs, ...header } = finalizeRequest(2, []);

describe('app: App.dryRunBlock (the next block, step by step, committing nothing)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await TestApp.create();
  });
  afterEach(async () => {
    await t.close();
  });

  it('runs begin-block, then each tx as FinalizeBlock would; reads between txs; the same results and app hash; nothing committed', async () => {
    await t.init([{ key: 'a', value: '1' }]);
    const committed = hex(t.app.lastAppHash);
    const txs = [t.tx([set('a', '2')]), t.tx([fail('a')]), t.tx([set('b', '3')])];
    const dry = await t.app.dryRunBlock(header);
    expect(dry.block.height).to.equal(2);
    const ctx0 = dry.context();
    expect(str(ctx0.kv('kv').get(utf8('a')))).to.equal('1');
    const r0 = await dry.deliver(txs[0]!);
    expect(r0.code).to.equal(0);
    // the block's state so far: the first tx's write, the ante counter
    expect(str(dry.context().kv('kv').get(utf8('a')))).to.equal('2');
    expect(dry.changes().map((c) => str(c.key))).to.deep.equal(['ante/count', 'kv/a']);
    // a context's writes are thrown away
    dry.context().kv('kv').set(utf8('z'), utf8('x'));
    expect(dry.context().kv('kv').get(utf8('z'))).to.equal(undefined);
    const r1 = await dry.deliver(txs[1]!);
    expect(r1.code).to.not.equal(0);
    expect(str(dry.context().kv('kv').get(utf8('a')))).to.equal('2');
    const r2 = await dry.deliver(txs[2]!);
    const end = await dry.end();
    expect(String(await dry.deliver(txs[0]!).then(() => undefined, (e: unknown) => e))).to.contain('the block has ended');
    // nothing reached the committed state
    expect(t.app.lastHeight).to.equal(1);
    expect(hex(t.app.lastAppHash)).to.equal(committed);
    expect(t.get('a')).to.equal('1');
    // FinalizeBlock of the same block gives the same results and app hash
    const fin = await t.app.finalizeBlock({ ...header, txs });
    const strip = (r: typeof r0) => ({ code: r.code, log: r.log, gasUsed: r.gasUsed, events: r.events });
    expect(fin.txResults.map(strip)).to.deep.equal([r0, r1, r2].map(strip));
    expect(hex(fin.appHash)).to.equal(hex(end.appHash));
    expect(fin.validatorUpdates).to.deep.equal(end.validatorUpdates);
  });

  it('sees InitChain\'s state before the first block; refuses another height; a block ends once', async () => {
    await t.app.initChain(initChainRequest({ kv: { entries: [{ key: 'g', value: '1' }] } }));
    const dry = await t.app.dryRunBlock({ ...header, height: 1 });
    expect(str(dry.context().kv('kv').get(utf8('g')))).to.equal('1');
    const end = await dry.end();
    let err: unknown;
    try {
      await dry.end();
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.contain('the block has ended');
    const fin = await t.app.finalizeBlock(finalizeRequest(1, []));
    expect(hex(fin.appHash)).to.equal(hex(end.appHash));
    await t.app.commit();
    const wrong = await t.app.dryRunBlock({ ...header, height: 3 }).then(() => undefined, (e: unknown) => e);
    expect(String(wrong)).to.contain('dryRunBlock height 3, expected 2');
  });
});
