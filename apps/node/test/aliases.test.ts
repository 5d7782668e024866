/**
 * The alias spellings the transports derive for a module's package alias (the token module's original
 * `plugchain.prc10`) and for `additional_bindings` outside `/chain/` (its original `/token/...` REST paths):
 * REST routes and their dialect, gRPC service names, ABCI query paths, and tx-search queries.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore } from '@chain/store';
import { createChainApp } from '../src/app.js';
import type { ChainApp } from '../src/app.js';
import { buildRoutes, matchRoute } from '@chain/server';
import { grpcServiceSpecs } from '@chain/server';
import { cosmosServiceName } from '@chain/server';
import { buildReflectionFiles } from '@chain/server';
import { canonicalizeQuery } from '@chain/server';

describe('alias spellings of the transports', () => {
  let dir: string;
  let store: CommitStore;
  let c: ChainApp;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chain-aliases-'));
    store = await CommitStore.open(join(dir, 'db'));
    c = createChainApp({ store, chainId: 'chain_1337-1', minGasPrices: '0achain' });
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('REST: a binding outside /chain/ is served once, as written, in the Cosmos dialect; /chain/ bindings keep both spellings', () => {
    const routes = buildRoutes(c.router.allQueryRoutes());
    const byTemplate = (t: string) => routes.filter((r) => r.template === t).map((r) => [r.dialect, r.query.path]);
    expect(byTemplate('/token/tokens/{denom}')).to.deep.equal([['cosmos', '/chain.prc10.Query/Token']]);
    expect(byTemplate('/token/tokens')).to.deep.equal([['cosmos', '/chain.prc10.Query/Tokens']]);
    expect(byTemplate('/token/fee/{symbol}')).to.deep.equal([['cosmos', '/chain.prc10.Query/Fees']]);
    expect(byTemplate('/token/params')).to.deep.equal([['cosmos', '/chain.prc10.Query/Params']]);
    expect(byTemplate('/chain/prc10/tokens/{denom}')).to.deep.equal([['chain', '/chain.prc10.Query/Token']]);
    expect(byTemplate('/cosmos/prc10/tokens/{denom}')).to.deep.equal([['cosmos', '/chain.prc10.Query/Token']]);
    expect(byTemplate('/chain/bank/v1beta1/params')).to.deep.equal([['chain', '/chain.bank.v1beta1.Query/Params']]);
    expect(byTemplate('/cosmos/bank/v1beta1/params')).to.deep.equal([['cosmos', '/chain.bank.v1beta1.Query/Params']]);
    const m = matchRoute(routes, 'GET', '/token/tokens/kitty');
    expect(m !== undefined && m !== 'method' ? [m.route.template, m.params] : m).to.deep.equal(['/token/tokens/{denom}', { denom: 'kitty' }]);
    // every route outside /chain/ and /cosmos/ is such an alias
    expect(routes.filter((r) => !/^\/(chain|cosmos)\//.test(r.template)).every((r) => r.dialect === 'cosmos')).to.equal(true);
  });

  it('gRPC: a service of a Cosmos-aliased package is served under the alias name (its Cosmos name), in the Cosmos dialect', () => {
    expect(cosmosServiceName(c.registry, 'chain.prc10.Query')).to.equal('plugchain.prc10.Query');
    expect(cosmosServiceName(c.registry, 'chain.bank.v1beta1.Query')).to.equal('cosmos.bank.v1beta1.Query');
    const specs = new Map(grpcServiceSpecs({ app: c.app }).map((s) => [s.name, s]));
    const canonical = specs.get('chain.prc10.Query')!;
    const alias = specs.get('plugchain.prc10.Query')!;
    expect(alias.dialect).to.equal('cosmos');
    expect([...alias.methods.keys()].sort()).to.deep.equal(['Fees', 'Params', 'Token', 'Tokens']);
    for (const [method, route] of canonical.methods) expect(alias.methods.get(method), method).to.equal(route);
    // the alias replaces the `cosmos.` rename (reflection describes the package under the alias)
    expect(specs.has('cosmos.prc10.Query')).to.equal(false);
    expect([...specs.keys()].filter((n) => n.startsWith('plugchain.'))).to.deep.equal(['plugchain.prc10.Query']);
    const files = buildReflectionFiles(c.registry).files.map((f) => f.name);
    expect(files).to.include.members(['plugchain/prc10/query.proto', 'plugchain/prc10/prc10.proto']);
  });

  it('ABCI: /plugchain.prc10.Query/M reaches the route of /chain.prc10.Query/M', () => {
    for (const m of ['Token', 'Tokens', 'Fees', 'Params']) {
      expect(c.router.queryRoute(`/plugchain.prc10.Query/${m}`)).to.equal(c.router.queryRoute(`/chain.prc10.Query/${m}`)).and.not.equal(undefined);
    }
    expect(c.router.queryRoute('/plugchain.prc10.Query/Nope')).to.equal(undefined);
  });

  it('tx search: alias type URLs in a query become the canonical ones events carry; other values stay', () => {
    const q = (s: string): string => canonicalizeQuery(c.app, s);
    expect(q("message.action='/plugchain.prc10.MsgIssueToken' AND message.module='token'")).to.equal("message.action='/chain.prc10.MsgIssueToken' AND message.module='token'");
    expect(q("message.action='/cosmos.bank.v1beta1.MsgSend'")).to.equal("message.action='/chain.bank.v1beta1.MsgSend'");
    expect(q("message.action='/chain.prc10.MsgMintToken'")).to.equal("message.action='/chain.prc10.MsgMintToken'");
    for (const same of ["message.action='/plugchain.prc10.Nope'", "message.action='/other.pkg.MsgX'", "transfer.amount='/x'", "tx.height=5"]) expect(q(same)).to.equal(same);
  });
});
