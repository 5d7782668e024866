import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { Router } from '../src/index.js';
import type { MsgHandler, MsgServer, QueryHandler } from '../src/index.js';
import { Msg, Query } from './fixtures/gen/chain/apptest/v1.js';
import type { MsgMethods } from './fixtures/gen/chain/apptest/v1.js';
import { FIXTURE_PROTO_DIR } from './helpers.js';

const noop: MsgHandler = () => ({});
const q: QueryHandler = () => ({});

function makeRouter(): Router {
  const registry = new ProtoRegistry();
  registry.addProtoDir(FIXTURE_PROTO_DIR);
  return new Router(registry);
}

describe('app: Router', () => {
  it('routes messages by request type name, with module, event module and response type', () => {
    const r = makeRouter();
    r.forModule('kv', 'kv-events').registerMsgService('chain.apptest.v1.Msg', { Set: noop, Fail: noop, Burn: noop });
    const route = r.msgRoute('chain.apptest.v1.MsgSet')!;
    expect({ ...route, handler: undefined }).to.deep.equal({
      module: 'kv', eventModule: 'kv-events', requestType: 'chain.apptest.v1.MsgSet', responseType: 'chain.apptest.v1.MsgSetResponse', handler: undefined,
    });
    expect(route.handler).to.equal(noop);
    expect(r.msgRoute('/chain.apptest.v1.MsgSet')).to.equal(undefined);
    expect(r.msgRoute('chain.apptest.v1.Entry')).to.equal(undefined);
    expect(r.allMsgRoutes().map((m) => m.requestType).sort()).to.deep.equal(['chain.apptest.v1.MsgBurn', 'chain.apptest.v1.MsgFail', 'chain.apptest.v1.MsgSet']);
  });

  it('refuses services with missing handlers and duplicate message routes', () => {
    const r = makeRouter();
    expect(() => r.forModule('kv', 'kv').registerMsgService('chain.apptest.v1.Msg', { Set: noop, Burn: noop })).to.throw('chain.apptest.v1.Msg: no handler for Fail');
    const r2 = makeRouter();
    r2.forModule('kv', 'kv').registerMsgService('chain.apptest.v1.Msg', { Set: noop, Fail: noop, Burn: noop });
    expect(() => r2.forModule('other', 'other').registerMsgService('chain.apptest.v1.Msg', { Set: noop, Fail: noop, Burn: noop })).to.throw('duplicate msg route chain.apptest.v1.MsgSet');
    expect(() => r2.registerQueryService('chain.apptest.v1.Query', { Get: q })).to.throw('chain.apptest.v1.Query: no handler for List');
    expect(() => r2.registerQueryService('chain.apptest.v1.Nope', { Get: q })).to.throw();
  });

  it('typed registration (generated ServiceDef): the same routes; a missing handler fails tsc and is refused at run time', () => {
    const r = makeRouter();
    const server: MsgServer<MsgMethods> = { Set: (_ctx, m) => ({ previous: m.key }), Fail: () => ({}), Burn: () => ({}) };
    r.forModule('kv', 'kv').registerMsgService(Msg, server);
    r.forModule('kv', 'kv').registerQueryService(Query, { Get: (_ctx, req) => ({ value: req.key }), List: () => ({ entries: [], pagination: null }) });
    const route = r.msgRoute('chain.apptest.v1.MsgSet')!;
    expect([route.requestType, route.responseType]).to.deep.equal(['chain.apptest.v1.MsgSet', 'chain.apptest.v1.MsgSetResponse']);
    expect(route.handler).to.equal(server.Set);
    expect(r.queryRoute('/chain.apptest.v1.Query/List')!.responseType).to.equal('chain.apptest.v1.QueryListResponse');
    // @ts-expect-error Fail has no handler
    expect(() => makeRouter().registerMsgService(Msg, { Set: server.Set, Burn: server.Burn })).to.throw('chain.apptest.v1.Msg: no handler for Fail');
  });

  it('resolves query paths directly and through the /cosmos. → /chain. alias', () => {
    const r = makeRouter();
    r.forModule('kv', 'kv').registerQueryService('chain.apptest.v1.Query', { Get: q, List: q });
    const direct = r.queryRoute('/chain.apptest.v1.Query/Get')!;
    expect([direct.path, direct.requestType, direct.responseType]).to.deep.equal(['/chain.apptest.v1.Query/Get', 'chain.apptest.v1.QueryGetRequest', 'chain.apptest.v1.QueryGetResponse']);
    expect(r.queryRoute('/cosmos.apptest.v1.Query/Get')).to.equal(direct);
    expect(r.queryRoute('/cosmos.apptest.v1.Query/List')!.path).to.equal('/chain.apptest.v1.Query/List');
    for (const p of ['/cosmos.apptest.v1.Query/Nope', '/chain.apptest.v1.Query/get', 'chain.apptest.v1.Query/Get', '/other.apptest.v1.Query/Get', '']) {
      expect(r.queryRoute(p), p).to.equal(undefined);
    }
    expect(r.allQueryRoutes().map((x) => x.path).sort()).to.deep.equal(['/chain.apptest.v1.Query/Get', '/chain.apptest.v1.Query/List']);
  });

  it('registered path aliases are tried first, and fall back to the next alias when they do not resolve', () => {
    const r = makeRouter();
    r.registerQueryService('chain.apptest.v1.Query', { Get: q, List: q });
    r.registerPathAlias('/legacy.kv.', '/chain.apptest.');
    expect(r.queryRoute('/legacy.kv.v1.Query/Get')!.path).to.equal('/chain.apptest.v1.Query/Get');
    // an alias whose target does not exist does not hide the default /cosmos. alias
    r.registerPathAlias('/cosmos.apptest.', '/chain.missing.');
    expect(r.queryRoute('/cosmos.apptest.v1.Query/Get')!.path).to.equal('/chain.apptest.v1.Query/Get');
    // a more specific alias wins over the default one
    r.registerPathAlias('/cosmos.special.', '/chain.apptest.');
    expect(r.queryRoute('/cosmos.special.v1.Query/List')!.path).to.equal('/chain.apptest.v1.Query/List');
  });

  it('resolves the query paths of the registry\'s package aliases (`/<alias>.Query/M`)', () => {
    const r = makeRouter();
    r.registerQueryService('chain.apptest.v1.Query', { Get: q, List: q });
    expect(r.queryRoute('/legacy.apptest.v1.Query/Get')).to.equal(undefined);
    // declared after the services: the router reads the registry's aliases when it resolves
    r.registry.registerPackageAlias('legacy.apptest.v1', 'chain.apptest.v1');
    expect(r.queryRoute('/legacy.apptest.v1.Query/Get')).to.equal(r.queryRoute('/chain.apptest.v1.Query/Get'));
    expect(r.queryRoute('/legacy.apptest.v1.Query/List')!.path).to.equal('/chain.apptest.v1.Query/List');
    for (const p of ['/legacy.apptest.v1.Query/Nope', '/legacy.apptest.v1x.Query/Get', '/legacy.apptest.Query/Get']) expect(r.queryRoute(p), p).to.equal(undefined);
  });
});
