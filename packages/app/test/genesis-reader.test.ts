import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonAppState, JsonScanner, appStateOfBytes, bytesSource, objectAppState, openGenesisFile } from '../src/index.js';
import type { AppStateSource } from '../src/index.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Everything a source gives for the sections and large fields named. */
function readAll(src: AppStateSource, large: Record<string, string[]>): unknown {
  const out: Record<string, unknown> = { modules: src.modules };
  for (const m of src.modules) {
    out[`${m}/section`] = src.section(m);
    const fields = large[m] ?? [];
    const parts = src.sectionParts(m, fields);
    out[`${m}/head`] = parts?.head;
    out[`${m}/streamed`] = parts ? [...parts.streamed].sort() : undefined;
    for (const f of fields) {
      out[`${m}/${f}/count`] = src.count(m, f);
      out[`${m}/${f}`] = [...src.chunks(m, f)].flat();
    }
  }
  return out;
}

describe('genesis reader: app_state section by section, large fields in chunks', () => {
  const accounts = Array.from({ length: 2500 }, (_, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address: `chain1${'q'.repeat(i % 7)}é"\\${i}`, pub_key: null, account_number: String(i), sequence: '0' }));
  const appState = {
    auth: { params: { max_memo_characters: '256' }, accounts },
    bank: { params: { default_send_enabled: true }, balances: [{ address: 'a', coins: [{ denom: 'x', amount: '1' }] }, null, { address: 'b', coins: [] }], supply: [], denom_metadata: [{ base: 'x', denom_units: [] }] },
    staking: { params: {}, delegations: [] },
    weird: { accounts: null, n: [1, -2.5e3, true, false, null, '{[]}'] },
    empty: {},
  };
  const large = { auth: ['accounts'], bank: ['balances'], staking: ['delegations'], weird: ['accounts'] };

  for (const [name, text] of [
    ['compact', JSON.stringify(appState)],
    ['indented', JSON.stringify(appState, null, 2)],
    ['with odd whitespace', JSON.stringify(appState, null, '\t \r\n')],
  ] as const) {
    it(`${name}: the same sections, heads and chunks as the parsed object (windows of 1 byte to 4 MiB)`, () => {
      const expected = readAll(objectAppState(JSON.parse(text)), large);
      for (const window of [1, 7, 64, 4096, 1 << 22]) {
        const src = new JsonAppState(new JsonScanner(bytesSource(enc(text)), window), { start: 0, end: enc(text).length });
        expect(readAll(src, large), `window ${window}`).to.deep.equal(expected);
      }
      expect(readAll(appStateOfBytes(enc(text)), large)).to.deep.equal(expected);
    });
  }

  it('chunks: at most maxItems elements or about maxBytes of text each, in order', () => {
    const text = JSON.stringify(accounts);
    const s = new JsonScanner(bytesSource(enc(text)), 100);
    const byItems = [...s.arrayChunks({ start: 0, end: text.length }, 1000)];
    expect(byItems.map((c) => c.length)).to.deep.equal([1000, 1000, 500]);
    const byBytes = [...s.arrayChunks({ start: 0, end: text.length }, 1e9, 10_000)];
    expect(byBytes.length).to.be.greaterThan(10);
    expect(byBytes.flat()).to.deep.equal(accounts);
    expect([...new JsonScanner(bytesSource(enc(' [ ] '))).arrayChunks({ start: 1, end: 4 })]).to.deep.equal([]);
  });

  it('large arrays: the counts the first walk found, commas in strings and nested values not counted; chunks split at top-level commas only', () => {
    const tricky = (i: number): unknown => ({ s: `a,b],}{[",${i}\\`, n: [i, [i, { x: ',' }], []], e: {} });
    const doc = {
      one: [{ big: 'x'.repeat(70_000) }],
      many: Array.from({ length: 3000 }, (_, i) => tricky(i)),
      strings: Array.from({ length: 5000 }, (_, i) => `,]${i}"`),
      small: [1, 2, 3],
    };
    for (const window of [5, 4096, 1 << 22]) {
      const text = JSON.stringify(doc);
      const src = new JsonAppState(new JsonScanner(bytesSource(enc(text)), window), { start: 0, end: enc(text).length });
      for (const [name, arr] of Object.entries(doc)) {
        const r = src.sectionParts(name, []);
        expect(r?.head, `${name} window ${window}`).to.deep.equal(arr);
      }
      const scanner = new JsonScanner(bytesSource(enc(text)), window);
      const members = scanner.objectMembers(0).members;
      for (const { key, value } of members) {
        const arr = doc[key as keyof typeof doc];
        expect(scanner.arrayElements(value.start).count, key).to.equal(arr.length);
        const chunks = [...scanner.arrayChunks(value, 700, 20_000)];
        expect(chunks.flat(), key).to.deep.equal(arr);
        expect(Math.max(...chunks.map((c) => c.length)), key).to.be.at.most(700);
      }
    }
  });

  it('a key given twice: the last value, as JSON.parse; app_state null or empty bytes: no sections', () => {
    const text = '{"bank":{"balances":[1]},"auth":{},"bank":{"balances":[2,3]}}';
    const src = appStateOfBytes(enc(text));
    expect(src.modules).to.deep.equal(['bank', 'auth']);
    expect(src.sectionParts('bank', ['balances'])?.head).to.deep.equal({});
    expect([...src.chunks('bank', 'balances')].flat()).to.deep.equal([2, 3]);
    expect(appStateOfBytes(enc('null')).modules).to.deep.equal([]);
    expect(appStateOfBytes(new Uint8Array()).modules).to.deep.equal([]);
  });

  describe('a genesis file', () => {
    let dir: string;
    before(() => { dir = mkdtempSync(join(tmpdir(), 'genesis-reader-')); });
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string): string => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };

    it('the top-level fields but app_state are read; app_state by sections, or whole on demand', () => {
      const doc = { genesis_time: '2026-01-01T00:00:00Z', chain_id: 'c-1', app_state: appState, initial_height: '5', validators: [{ a: 1 }] };
      for (const window of [3, 1 << 22]) {
        const g = openGenesisFile(file('g.json', JSON.stringify(doc, null, 2)), undefined, window);
        expect(g.header).to.deep.equal({ genesis_time: '2026-01-01T00:00:00Z', chain_id: 'c-1', initial_height: '5', validators: [{ a: 1 }] });
        expect(g.hasAppState).to.equal(true);
        expect(g.appState()).to.deep.equal(appState);
        expect(readAll(g.appStateSource(), large)).to.deep.equal(readAll(objectAppState(appState), large));
        g.close();
      }
      const none = openGenesisFile(file('none.json', '{"chain_id":"x"}'));
      expect(none.hasAppState).to.equal(false);
      expect(none.appStateSource().modules).to.deep.equal([]);
      none.close();
    });

    it('a header cache is used while the file is unchanged, and only then', () => {
      const doc = { genesis_time: '2026-01-01T00:00:00Z', chain_id: 'c-1', app_state: appState, initial_height: '5' };
      const p = file('cached.json', JSON.stringify(doc, null, 2));
      const cache = join(dir, 'header-cache.json');
      rmSync(cache, { force: true });
      const first = openGenesisFile(p, undefined, undefined, cache);
      const want = readAll(first.appStateSource(), large);
      first.close();
      const written = JSON.parse(readFileSync(cache, 'utf8'));
      expect(written.header).to.deep.equal({ genesis_time: '2026-01-01T00:00:00Z', chain_id: 'c-1', initial_height: '5' });
      // a marker in the cache shows the next open reads the cache, not the file; app_state is found from it
      writeFileSync(cache, JSON.stringify({ ...written, header: { ...written.header, chain_id: 'from-cache' } }));
      const second = openGenesisFile(p, undefined, undefined, cache);
      expect(second.header['chain_id']).to.equal('from-cache');
      expect(second.appState()).to.deep.equal(appState);
      expect(readAll(second.appStateSource(), large)).to.deep.equal(want);
      second.close();
      // the file rewritten (same bytes: its mtime and ctime change): scanned again, the cache replaced
      writeFileSync(p, JSON.stringify(doc, null, 2));
      const third = openGenesisFile(p, undefined, undefined, cache);
      expect(third.header['chain_id']).to.equal('c-1');
      third.close();
      expect(JSON.parse(readFileSync(cache, 'utf8')).header.chain_id).to.equal('c-1');
      // a cache whose app_state range does not fit the file, or that is not JSON, is ignored
      for (const bad of [JSON.stringify({ ...written, app: { start: 0, end: 1e12 }, header: { chain_id: 'bad' } }), '{not json']) {
        writeFileSync(cache, bad);
        const g = openGenesisFile(p, undefined, undefined, cache);
        expect(g.header['chain_id']).to.equal('c-1');
        g.close();
      }
      // an unwritable cache place only costs the scan
      const g = openGenesisFile(p, undefined, undefined, join(dir, 'no-such-dir', 'cache.json'));
      expect(g.header['chain_id']).to.equal('c-1');
      g.close();
    });

    it('a syntax error anywhere is reported with the message JSON.parse gives for the whole file', () => {
      const good = JSON.stringify({ chain_id: 'x', app_state: appState }, null, 2);
      const jsonParseError = (t: string): string => { try { JSON.parse(t); } catch (e) { return (e as Error).message; } return 'parsed'; };
      const cases: [string, string][] = [
        ['a truncated file', good.slice(0, good.length - 30)],
        ['trailing data', good + ' x'],
        ['an empty file', ''],
        ['a missing comma between top-level fields', '{"a": 1 "b": 2}'],
        ['a bad number in a header field', '{"initial_height": 01, "app_state": {}}'],
        ['a bad token in a module section', good.replace('"max_memo_characters": "256"', '"max_memo_characters": tru')],
        ['a bad token inside a large field', good.replace('"account_number": "2000"', '"account_number": 2000x')],
        ['a missing comma between large-field entries', ((): string => { const i = good.indexOf('},', good.indexOf('"account_number": "1500"')); return good.slice(0, i + 1) + good.slice(i + 2); })()],
      ];
      for (const [what, text] of cases) {
        expect(text, what).to.not.equal(good);
        const expected = jsonParseError(text);
        expect(expected, what).to.not.equal('parsed');
        const p = file('bad.json', text);
        const wrap = (e: Error): Error => new Error(`cannot read: ${e.message}`);
        let message = 'no error';
        try {
          const g = openGenesisFile(p, wrap, 256);
          try {
            readAll(g.appStateSource(), large);
          } finally {
            g.close();
          }
        } catch (e) {
          message = (e as Error).message;
        }
        expect(message, what).to.equal(`cannot read: ${expected}`);
      }
      // valid JSON that is not an object
      expect(() => openGenesisFile(file('array.json', '[1, 2]'), (e) => new Error(`cannot read: ${e.message}`))).to.throw('cannot read: the genesis document is not a JSON object');
    });
  });
});

describe('genesis reader: strings with escapes across window edges', () => {
  it('finds the same values as JSON.parse for runs of backslashes and escaped quotes at every window size', () => {
    const values = ['', '\\', '\\\\', '"', '\\"', '\\\\"', 'a\\"b\\\\', '\u00e9\\u00e9', 'x'.repeat(40) + '\\'];
    const doc = { a: values, b: values.map((v) => ({ [v]: v, k: [v, 1, v] })), c: 'end' };
    const text = JSON.stringify(doc);
    const bytes = new TextEncoder().encode(text);
    for (let window = 1; window <= 24; window++) {
      const src = new JsonAppState(new JsonScanner(bytesSource(bytes), window), { start: 0, end: bytes.length });
      expect(src.modules, `window ${window}`).to.deep.equal(['a', 'b', 'c']);
      expect(src.section('b'), `window ${window}`).to.deep.equal(doc.b);
      expect(src.section('c')).to.equal('end');
      const parts = src.sectionParts('b', []);
      expect(parts?.head).to.deep.equal(doc.b);
    }
  });
});
