/** The content router (routes contributed by modules), the `/cosmos.` alias of content types, and the gov invariant. */
import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { ContentRouter, govModuleAccountInvariant, textProposalRoute } from '../src/index.js';
import { BlockCtx, E18, TEST_PROTO_DIR, appGenesis, coins, deliver, openChain, setValueRoute, submitMsg, textContent } from './helpers.js';

describe('gov: content routes', () => {
  it('a type name is routed once; an empty route/type is refused; checkTypes refuses a type the registry does not know', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(TEST_PROTO_DIR);
    const r = new ContentRouter(registry);
    r.add(setValueRoute());
    expect(() => r.add(setValueRoute())).to.throw('gov: content type chain.govtest.v1.SetValueProposal is already routed');
    r.checkTypes();
    r.add({ ...setValueRoute(), typeName: 'chain.nope.v1.Nope' });
    expect(() => r.checkTypes()).to.throw('gov: content type(s) chain.nope.v1.Nope not in the registry');
    expect(() => r.add({ ...setValueRoute(), typeName: 'chain.base.v1beta1.Coin', route: '' })).to.throw('needs a typeName, a route and a proposalType');
    expect(r.byTypeUrl('/chain.govtest.v1.SetValueProposal')?.route.proposalType).to.equal('SetValue');
    expect(r.byTypeUrl('/cosmos.govtest.v1.SetValueProposal')?.name).to.equal('chain.govtest.v1.SetValueProposal');
    expect(r.byTypeUrl('/chain.base.v1beta1.Coin')).to.equal(undefined);
  });

  it('the keeper routes TextProposal itself and refuses a second TextProposal route', async () => {
    const s = await openChain();
    try {
      expect(s.keeper.router.typeNames()).to.deep.equal(['chain.gov.v1beta1.TextProposal']);
      expect(() => s.keeper.addContentRoute(textProposalRoute)).to.throw('already routed');
      s.keeper.addContentRoute(setValueRoute());
      expect(s.keeper.router.typeNames()).to.deep.equal(['chain.gov.v1beta1.TextProposal', 'chain.govtest.v1.SetValueProposal']);
    } finally {
      await s.chain.close();
    }
  });

  it('a content sent with its /cosmos. type URL is stored under the canonical one', async () => {
    const s = await openChain();
    try {
      await s.chain.init(appGenesis());
      const r = await deliver(s, 2, submitMsg(s.registry, 2, textContent(s.registry, 't', 'd', '/cosmos.gov.v1beta1.TextProposal'), coins(E18)));
      expect(r.code, r.log).to.equal(0);
      expect(s.keeper.getProposal(s.chain.ctx(), 1n)!.content!.type_url).to.equal('/chain.gov.v1beta1.TextProposal');
    } finally {
      await s.chain.close();
    }
  });

  it('the module-account invariant catches a gov balance that differs from the deposits', async () => {
    const s = await openChain();
    try {
      await s.chain.init(appGenesis());
      expect((await deliver(s, 2, submitMsg(s.registry, 2, textContent(s.registry), coins(E18)))).code).to.equal(0);
      const b = new BlockCtx(s.chain);
      const inv = govModuleAccountInvariant(s.keeper);
      expect(inv(b.ctx()).broken).to.equal(false);
      s.bank.initBalance(b.ctx(), s.keeper.moduleAddress(), coins(1n));
      const r = inv(b.ctx());
      expect(r.broken).to.equal(true);
      expect(r.message).to.equal(`gov: deposits invariant\n\tgov ModuleAccount coins: ${E18 + 1n}stake\n\tsum of deposit amounts:  ${E18}stake\n\n`);
    } finally {
      await s.chain.close();
    }
  });
});
