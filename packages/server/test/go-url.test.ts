import { expect } from 'chai';
import { goCleanPath, goEscapePath, goQuery, goRedirect, goRouteName, goUnescape, parseGoTarget } from '../src/rpc/go-url.js';

describe('rpc: request targets read as Go net/http reads them', () => {
  it('keeps # in the path, splits the query at the first ?, decodes the path', () => {
    expect(parseGoTarget('/#?-?[Z}#9]')).to.deep.equal({ path: '/#', escapedPath: '/%23', rawQuery: '-?[Z}#9]' });
    expect(parseGoTarget('/status?x=1#2')).to.deep.equal({ path: '/status', escapedPath: '/status', rawQuery: 'x=1#2' });
    expect(parseGoTarget('/st%61tus')).to.deep.equal({ path: '/status', escapedPath: '/st%61tus', rawQuery: '' });
    expect(parseGoTarget('/%2Fstatus')?.path).to.equal('//status');
    expect(parseGoTarget('http://host:1/block?height=1')).to.deep.equal({ path: '/block', escapedPath: '/block', rawQuery: 'height=1' });
    expect(parseGoTarget('http://host')?.escapedPath).to.equal('');
    expect(parseGoTarget('http:x?y')).to.deep.equal({ path: '', escapedPath: '', rawQuery: 'y' });
  });

  it('refuses what Go answers with 400: bad escapes, relative targets, control bytes, *', () => {
    for (const t of ['/%zz', '/%', '/a%2', 'status', '', '*', '/a\x01b']) expect(parseGoTarget(t), JSON.stringify(t)).to.equal(undefined);
  });

  it('cleans paths as ServeMux, keeping a trailing slash', () => {
    const cases: [string, string][] = [['', '/'], ['/', '/'], ['//status', '/status'], ['/./status', '/status'], ['/a/../status', '/status'],
      ['/..', '/'], ['/.', '/'], ['/a/b/', '/a/b/'], ['/a//b//', '/a/b/'], ['/a/./', '/a/'], ['x', '/x']];
    for (const [p, want] of cases) expect(goCleanPath(p), p).to.equal(want);
  });

  it('matches one decoded segment; redirect locations escape the escaped path again, as Go does', () => {
    expect(goRouteName('/st%61tus')).to.equal('status');
    expect(goRouteName('/%2Fstatus')).to.equal('/status');
    expect(goRouteName('/a/b')).to.equal(undefined);
    expect(goRouteName('/')).to.equal(undefined);
    expect(goRedirect('/st%61tus', 'h=1')).to.deep.equal({ location: '/st%2561tus?h=1', body: '<a href="/st%2561tus?h=1">Temporary Redirect</a>.\n\n' });
    expect(goRedirect('/', '')).to.deep.equal({ location: '/', body: '<a href="/">Temporary Redirect</a>.\n\n' });
    expect(goEscapePath('/a b#é?')).to.equal('/a%20b%23%C3%A9%3F');
    expect(goEscapePath("/$&+,:;=@-_.~")).to.equal("/$&+,:;=@-_.~");
  });

  it('parses queries as url.ParseQuery: + is a space, pairs with ; or bad escapes are dropped', () => {
    const q = goQuery('height=1;x=2&a=%zz&b=x+y%21&c&&d=1#2&b=2');
    expect([...q.entries()]).to.deep.equal([['b', 'x y!'], ['c', ''], ['d', '1#2'], ['b', '2']]);
    expect(goUnescape('a+b', false)).to.equal('a+b');
    expect(goUnescape('%E2%82%AC', false)).to.equal('€');
  });
});
