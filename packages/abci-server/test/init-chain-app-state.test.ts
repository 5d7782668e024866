import { expect } from 'chai';
import { initChainFromPb } from '../src/convert.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('InitChain app_state_bytes', () => {
  const appState = { auth: { params: {}, accounts: [{ a: 1 }, { a: 2 }] }, bank: { balances: [] } };

  it('is read through appStateSource in sections and chunks; the whole appState is parsed only when read', () => {
    const req = initChainFromPb({ chain_id: 'c', initial_height: '1', app_state_bytes: utf8(JSON.stringify(appState)) });
    const src = req.appStateSource!;
    expect(src.modules).to.deep.equal(['auth', 'bank']);
    expect(src.sectionParts('auth', ['accounts'])?.head).to.deep.equal({ params: {} });
    expect([...src.chunks('auth', 'accounts')].flat()).to.deep.equal([{ a: 1 }, { a: 2 }]);
    expect(src.count('auth', 'accounts')).to.equal(2);
    expect(req.appState).to.deep.equal(appState);
    // no bytes: an empty app_state
    const empty = initChainFromPb({ chain_id: 'c', initial_height: '1' });
    expect(empty.appStateSource!.modules).to.deep.equal([]);
    expect(empty.appState).to.deep.equal({});
  });

  it('a syntax error has JSON.parse\'s message: at conversion in the module list, when a section is read inside it', () => {
    const text = '{"auth": {"accounts": [1, 2,]}}';
    let expected = '';
    try { JSON.parse(text); } catch (e) { expected = (e as Error).message; }
    expect(() => initChainFromPb({ chain_id: 'c', app_state_bytes: utf8('{"auth": {"accounts": [1, 2,]}} x') })).to.throw(SyntaxError);
    const req = initChainFromPb({ chain_id: 'c', app_state_bytes: utf8(text) });
    expect(() => [...req.appStateSource!.chunks('auth', 'accounts')]).to.not.throw(); // not located yet: sectionParts first
    expect(() => { req.appStateSource!.sectionParts('auth', ['accounts']); [...req.appStateSource!.chunks('auth', 'accounts')]; }).to.throw(expected);
  });
});
