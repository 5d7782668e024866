/**
 * Type-URL aliases of the registry: per type (`registerAlias`) and per package (`registerPackageAlias`,
 * e.g. the original chain's `/plugchain.prc10.*` for `chain.prc10`), in decoding and in the Cosmos dialect.
 */
import { expect } from 'chai';
import { ProtoRegistry } from '../src/index.js';

const COIN = { denom: 'achain', amount: '5' };

describe('codec: package aliases of the registry', () => {
  it('resolves /<alias>.X to the canonical type, and nothing the canonical package lacks', () => {
    const r = new ProtoRegistry();
    expect(r.nameOfTypeUrl('/legacy.coins.Coin')).to.equal(undefined);
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1');
    expect(r.nameOfTypeUrl('/legacy.coins.Coin')).to.equal('chain.base.v1beta1.Coin');
    expect(r.canonicalTypeUrl('/legacy.coins.DecCoin')).to.equal('/chain.base.v1beta1.DecCoin');
    expect(r.nameOfTypeUrl('/legacy.coins.NoSuchType')).to.equal(undefined);
    expect(r.nameOfTypeUrl('/legacy.coinsX.Coin'), 'the package boundary is a dot').to.equal(undefined);
    expect(r.nameOfTypeUrl('legacy.coins.Coin'), 'a type URL starts with a slash').to.equal(undefined);
    // the built-in spellings are unchanged
    expect(r.nameOfTypeUrl('/cosmos.base.v1beta1.Coin')).to.equal('chain.base.v1beta1.Coin');
    expect(r.nameOfTypeUrl('/chain.base.v1beta1.Coin')).to.equal('chain.base.v1beta1.Coin');
  });

  it('unpacks an Any sent under the alias', () => {
    const r = new ProtoRegistry();
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1');
    const any = r.packAny('chain.base.v1beta1.Coin', COIN, '/legacy.coins.Coin');
    expect(r.unpackAny(any)).to.deep.equal({ name: 'chain.base.v1beta1.Coin', message: COIN });
  });

  it('with `cosmos`, the alias is the Cosmos-dialect spelling of the package (JSON @type and Any rewrites)', () => {
    const r = new ProtoRegistry();
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1', { cosmos: true });
    expect(r.cosmosTypeUrl('/chain.base.v1beta1.Coin')).to.equal('/legacy.coins.Coin');
    // other packages keep the /cosmos. spelling
    expect(r.cosmosTypeUrl('/chain.crypto.secp256k1.PubKey')).to.equal('/cosmos.crypto.secp256k1.PubKey');
    const any = r.packAny('chain.base.v1beta1.Coin', COIN);
    // an Any inside a message (TxMsgData.msg_responses)
    const cosmos = r.toDialect(r.type('chain.base.abci.v1beta1.TxMsgData'), { data: [], msg_responses: [any] }, 'cosmos') as { msg_responses: { type_url: string }[] };
    expect(cosmos.msg_responses[0]!.type_url).to.equal('/legacy.coins.Coin');
    const chain = r.toDialect(r.type('chain.base.abci.v1beta1.TxMsgData'), { data: [], msg_responses: [r.packAny('chain.base.v1beta1.Coin', COIN, '/legacy.coins.Coin')] }, 'chain') as { msg_responses: { type_url: string }[] };
    expect(chain.msg_responses[0]!.type_url).to.equal('/chain.base.v1beta1.Coin');
    const json = r.toJSON('chain.base.abci.v1beta1.TxMsgData', { data: [], msg_responses: [any] }, 'cosmos') as { msg_responses: Record<string, unknown>[] };
    expect(json.msg_responses[0]).to.deep.equal({ '@type': '/legacy.coins.Coin', denom: 'achain', amount: '5' });
    // and gateway JSON in the alias spelling parses back
    expect(r.fromJSON('chain.base.abci.v1beta1.TxMsgData', json).msg_responses).to.deep.equal([{ type_url: '/legacy.coins.Coin', value: any.value }]);
  });

  it('without `cosmos`, the Cosmos dialect keeps /cosmos.', () => {
    const r = new ProtoRegistry();
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1');
    expect(r.cosmosTypeUrl('/chain.base.v1beta1.Coin')).to.equal('/cosmos.base.v1beta1.Coin');
  });

  it('lists the aliases; repeating one is a no-op, a conflicting or malformed one is refused', () => {
    const r = new ProtoRegistry();
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1', { cosmos: true });
    r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1', { cosmos: true });
    expect(r.packageAliases()).to.deep.equal([{ alias: 'legacy.coins', canonical: 'chain.base.v1beta1', cosmos: true }]);
    expect(() => r.registerPackageAlias('legacy.coins', 'chain.crypto.secp256k1')).to.throw(/already declared for chain.base.v1beta1/);
    expect(() => r.registerPackageAlias('legacy.coins', 'chain.base.v1beta1')).to.throw(/already declared/);
    expect(() => r.registerPackageAlias('a.b', 'a.b')).to.throw(/cannot alias itself/);
    for (const bad of ['', '.x', 'x.', 'x..y', 'x/y', '1x']) expect(() => r.registerPackageAlias(bad, 'chain.x'), bad).to.throw(/invalid proto package name/);
  });
});
