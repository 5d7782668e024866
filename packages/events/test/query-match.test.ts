import { expect } from 'chai';
import { IndexedEvents, parseQuery } from '../src/index.js';
import { MATCH_CASES } from './fixtures/match-cases.js';

describe('Query.matches (CometBFT pubsub semantics)', () => {
  for (const c of MATCH_CASES) {
    const label = `${c.q}  on ${JSON.stringify(c.events)} → ${c.want}${c.deviation === undefined ? '' : ' (deliberate deviation)'}`;
    it(label, () => {
      expect(parseQuery(c.q).matches(c.events)).to.equal(c.want);
    });
  }

  it('gives the same answers through a prebuilt IndexedEvents', () => {
    const got = MATCH_CASES.map((c) => parseQuery(c.q).matches(new IndexedEvents(c.events)));
    expect(got).to.deep.equal(MATCH_CASES.map((c) => c.want));
    const index = new IndexedEvents({ 'tm.event': ['Tx'], 'tx.height': ['5'] });
    expect(index.empty).to.equal(false);
    expect(new IndexedEvents({}).empty).to.equal(true);
    expect(parseQuery('tx.height = 5').matches(index)).to.equal(true);
    expect(parseQuery('tx.height = 6').matches(index)).to.equal(false);
  });

  it('does not read inherited properties of the event map', () => {
    const events = Object.create({ 'a.b': ['x'] }) as Record<string, string[]>;
    expect(parseQuery("a.b = 'x'").matches(events)).to.equal(false);
  });

  it('handles an own "__proto__" key like any other key', () => {
    const events = JSON.parse('{"__proto__.x":["1"],"a.b":["2"]}') as Record<string, string[]>;
    expect(parseQuery('__proto__.x = 1').matches(events)).to.equal(true);
    expect(parseQuery('__proto__ EXISTS').matches(events)).to.equal(true);
  });
});
