import { TestChain, devKey, genesisState, coins, flatEvents, DENOM } from './helpers.js';
describe('scratch', () => {
  it('runs', async () => {
    const c = await TestChain.create();
    try {
      const a = devKey(0), b = devKey(1);
      const h = await c.init(genesisState([{ address: a.address, coins: [...coins(1000000), { denom: 'foo', amount: '5' }].sort((x, y) => x.denom < y.denom ? -1 : 1) }]));
      console.log('hash', Buffer.from(h).toString('hex'), c.app.lastHeight);
      for (const acc of c.ak.iterateAccounts(c.ctx())) console.log(acc.base.address, acc.base.account_number, acc.module?.name);
      const r = await c.deliver(c.sign(a, [c.msgSend(a.address, b.address, coins(10))]));
      console.log(r.code, r.log, r.gasUsed, JSON.stringify(flatEvents(r.events)));
      const r2 = await c.deliver(c.sign(a, [c.msgSend(a.address, b.address, coins(10000000))]));
      console.log(r2.code, r2.codespace, r2.log, JSON.stringify(flatEvents(r2.events)));
      console.log(c.balance(a.address), c.balance(b.address), c.supply());
      console.log(JSON.stringify(c.app.exportGenesis(), null, 1));
    } finally { await c.close(); }
  });
});
