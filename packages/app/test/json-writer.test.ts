import { expect } from 'chai';
import { JsonStreamWriter, LazyArray, LazyObject, materialize, stringifyLazy } from '../src/index.js';

/** Builds the lazy form of a plain value: every object and array becomes lazy (generators, consumed once). */
function lazy(v: unknown): unknown {
  if (Array.isArray(v)) {
    return new LazyArray((function* () { for (const x of v) yield lazy(x); })(), v.length, 'x');
  }
  if (v !== null && typeof v === 'object' && (v as object).constructor === Object) {
    return new LazyObject((function* () { for (const [k, x] of Object.entries(v)) yield [k, lazy(x)] as const; })());
  }
  return v;
}

const SAMPLES: unknown[] = [
  {},
  [],
  { a: [], b: {}, c: [[]], d: [{}], e: null, f: 'x"\n\\y', g: 1.5, h: true, i: undefined, 'k"ey': [1, [2, [3, {}]]] },
  [undefined, null, 0, -1e21, 'é ✓ 𝄞', { x: undefined }, { y: [undefined] }],
  { genesis_time: '2026-01-01T00:00:00Z', app_state: { auth: { params: { a: '1' }, accounts: [{ '@type': '/t', address: 'chain1x', pub_key: null }] }, bank: { balances: [] } } },
  'top',
  42,
  null,
];

describe('JsonStreamWriter: the text of JSON.stringify(v, null, 2)', () => {
  for (const [i, v] of SAMPLES.entries()) {
    it(`sample ${i}: whole values, lazy values and mixed give the same text`, async () => {
      const expected = JSON.stringify(v, null, 2);
      expect(await stringifyLazy(v)).to.equal(expected);
      expect(await stringifyLazy(lazy(v))).to.equal(expected);
    });
  }

  it('lazy members mixed with whole values at every depth; materialize gives the same value', async () => {
    const deep = { a: { b: [{ c: [1, 2, { d: 'e' }] }, []] }, z: [{}, { y: [] }] };
    const mixed = new LazyObject([
      ['a', new LazyObject([['b', new LazyArray([deep.a.b[0], new LazyArray([])])]])],
      ['skipped', undefined],
      ['z', new LazyArray([{}, new LazyObject([['y', []]])])],
    ]);
    expect(await stringifyLazy(mixed)).to.equal(JSON.stringify(deep, null, 2));
    const again = new LazyObject([['a', new LazyArray([1, { b: 2 }])]]);
    expect(materialize(again)).to.deep.equal({ a: [1, { b: 2 }] });
  });

  it('a random large document, written through a small buffer: the same text, handed over in pieces', async () => {
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const gen = (d: number): unknown => {
      const r = rnd();
      if (d > 4 || r < 0.3) return [null, true, 12, 'a\u0000b', -0.5, ''][Math.floor(rnd() * 6)];
      if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 5) }, () => gen(d + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 5) }, (_, j) => [`k${j}`, gen(d + 1)]));
    };
    const doc = { items: Array.from({ length: 300 }, () => gen(0)) };
    const pieces: string[] = [];
    const w = new JsonStreamWriter(async (s) => { pieces.push(s); await Promise.resolve(); }, 64);
    const items: number[] = [];
    await w.write(lazy(doc), { item: () => { items.push(1); } });
    await w.flush();
    expect(pieces.length).to.be.greaterThan(10);
    expect(pieces.join('')).to.equal(JSON.stringify(doc, null, 2));
    expect(items.length).to.be.greaterThan(300);
    expect(w.depth).to.equal(0);
  });

  it('refuses a member without a key, a key in an array and an end() too many', () => {
    const w = new JsonStreamWriter(() => undefined);
    w.beginObject();
    expect(() => w.value(1)).to.throw('an object member without a key');
    const a = new JsonStreamWriter(() => undefined).beginArray().key('k');
    expect(() => a.value(1)).to.throw('a key inside an array');
    expect(() => new JsonStreamWriter(() => undefined).end()).to.throw('end() without an open container');
  });
});
