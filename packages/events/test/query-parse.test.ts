import { expect } from 'chai';
import { Query, QueryParseError, parseQuery, type Condition } from '../src/index.js';

/** Parses `q` expecting failure and returns the error. */
function parseError(q: string): QueryParseError {
  try {
    parseQuery(q);
  } catch (e) {
    expect(e).to.be.instanceOf(QueryParseError);
    return e as QueryParseError;
  }
  throw new Error(`expected ${JSON.stringify(q)} to be rejected`);
}

describe('parseQuery: valid queries', () => {
  const valid: [string, string][] = [
    ["tm.event='Tx' AND message.sender='chain1abc'", "tm.event = 'Tx' AND message.sender = 'chain1abc'"],
    ['tx.height>=5', 'tx.height >= 5'],
    ["tm.event='NewBlock'", "tm.event = 'NewBlock'"],
    ["a.b CONTAINS 'x'", "a.b CONTAINS 'x'"],
    ['a.b EXISTS', 'a.b EXISTS'],
    ['tx.date > DATE 2013-05-03', 'tx.date > DATE 2013-05-03'],
    ['tx.date<TIME 2013-05-03T14:45:00-02:00', 'tx.date < TIME 2013-05-03T14:45:00-02:00'],
    ['x <= TIME 2013-05-03T14:45:00Z', 'x <= TIME 2013-05-03T14:45:00Z'],
    ["tm.events.name = ''", "tm.events.name = ''"],
    ["a.b='with \"double\" quotes and spaces'", "a.b = 'with \"double\" quotes and spaces'"],
    ["tm.events.type='TIME'", "tm.events.type = 'TIME'"],
    ['account.balance=100', 'account.balance = 100'],
    ['a.b = 1.', 'a.b = 1.'],
    ['a.b = 007', 'a.b = 007'],
    ['a.b = 99999999999999999999999999999999999999999', 'a.b = 99999999999999999999999999999999999999999'],
    ['slashing EXISTS AND account.balance=100', 'slashing EXISTS AND account.balance = 100'],
    ['cosm-wasm.transfer_amount=100', 'cosm-wasm.transfer_amount = 100'],
    ['_a.b-c=1', '_a.b-c = 1'],
    ['and.x = 1 AND AND.x = 2', 'and.x = 1 AND AND.x = 2'],
    ['a=5AND b=1', 'a = 5 AND b = 1'],
    ["\tx.y\n=\r\n'z'  ", "x.y = 'z'"],
    ['ünï.tág = 1', 'ünï.tág = 1'],
    ['x = DATE 1900-01-01 AND y = TIME 2999-12-31T23:59:59Z', 'x = DATE 1900-01-01 AND y = TIME 2999-12-31T23:59:59Z'],
    // CometBFT quirk: an unterminated string after a complete condition reads as end of input.
    ["a = 1 'abc", 'a = 1'],
  ];
  for (const [input, normalized] of valid) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(normalized)}`, () => {
      const q = parseQuery(input);
      expect(q.toString()).to.equal(normalized);
      expect(parseQuery(q.toString()).toString()).to.equal(normalized); // round-trips
    });
  }

  it('exposes typed conditions', () => {
    const q = parseQuery("a.b = 'x' AND c.d >= 12.50 AND e.f < DATE 2021-03-04 AND g.h = TIME 2021-01-01T01:00:00+01:00 AND i EXISTS");
    expect(q.conditions).to.deep.equal([
      { tag: 'a.b', op: '=', arg: { type: 'string', text: 'x' } },
      { tag: 'c.d', op: '>=', arg: { type: 'number', text: '12.50' } },
      { tag: 'e.f', op: '<', arg: { type: 'date', text: '2021-03-04', value: new Date('2021-03-04T00:00:00Z') } },
      { tag: 'g.h', op: '=', arg: { type: 'time', text: '2021-01-01T01:00:00+01:00', value: new Date('2021-01-01T00:00:00Z') } },
      { tag: 'i', op: 'EXISTS' },
    ]);
    expect(Object.isFrozen(q.conditions)).to.equal(true);
  });

  it('normalizes whitespace so equivalent queries compare equal', () => {
    const a = parseQuery("tm.event='Tx'AND tx.height>=5");
    const b = parseQuery("  tm.event =  'Tx'\tAND\ntx.height >= 5 ");
    expect(a.toString()).to.equal("tm.event = 'Tx' AND tx.height >= 5");
    expect(a.equals(b)).to.equal(true);
    expect(a.equals(parseQuery("tm.event='Tx' AND tx.height>=05"))).to.equal(false);
    expect(Query.parse('a.b EXISTS').toString()).to.equal('a.b EXISTS');
  });
});

describe('parseQuery: errors (texts as CometBFT v0.38 produces them)', () => {
  const cases: [string, string][] = [
    ['', 'offset 0: EOF'],
    ['   ', 'offset 3: EOF'],
    ['tm.event', 'offset 8: EOF'],
    ['tm.event foo', 'offset 9: got tag, wanted <= operator, >= operator, < operator, > operator, = operator, CONTAINS operator or EXISTS operator'],
    ["tm.event 'x'", 'offset 9: got string, wanted <= operator, >= operator, < operator, > operator, = operator, CONTAINS operator or EXISTS operator'],
    ["tm.event!='x'", 'offset 8: invalid input ! at offset 9'],
    ['a.b ! 5', 'offset 4: invalid input ! at offset 5'],
    ["a.b = 'x' AN", 'offset 10: got tag, want 6'],
    ["a.b = 'x' OR c=1", 'offset 10: got tag, want 6'],
    ['a.b=33.22.1', 'offset 9: got invalid token, want 6'],
    ["x = 'it''s'", 'offset 8: got string, want 6'],
    ["tm.event='Tx' AND", 'offset 17: EOF'],
    ['AND a=1', 'offset 0: got AND operator, wanted tag'],
    ['and AND a=1', 'offset 4: got AND operator, wanted <= operator, >= operator, < operator, > operator, = operator, CONTAINS operator or EXISTS operator'],
    ["a.b = 'x", 'offset 6: EOF'],
    ['a.b =', 'offset 5: EOF'],
    ['=', 'offset 0: got = operator, wanted tag'],
    ['a<', 'offset 2: EOF'],
    ['x CONTAINS 5', 'offset 11: got number, wanted string'],
    ["x < 'a'", 'offset 4: got string, wanted number, timestamp or datestamp'],
    ['a.b >= -300', 'offset 7: invalid input - at offset 8'],
    ['a.b >>= 4', 'offset 5: got >= operator, wanted number, timestamp or datestamp'],
    ['tm.events.type=NewBlock', 'offset 15: got tag, wanted number, timestamp, datestamp or string'],
    ['1abc = 2', 'offset 0: got number, wanted tag'],
    ['.a=1', 'offset 0: invalid input . at offset 1'],
    ['-a=1', 'offset 0: invalid input - at offset 1'],
    ['x = TIME', 'offset 4: got tag, wanted number, timestamp, datestamp or string'],
    ['x = DATE\t2020-02-29', 'offset 4: got tag, wanted number, timestamp, datestamp or string'],
    ['x EXISTS 5', 'offset 9: got number, want 6'],
    // byte offsets count UTF-8 bytes
    ['é.ü = 1 !', 'offset 10: got invalid token, want 6'],
    ['a.b = 1 AND é!', 'offset 14: invalid input ! at offset 15'],
    // TIME / DATE values
    ['x = TIME 2021-01-01T00:00:00', 'offset 4: invalid TIME value: parsing time "2021-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
    ['x = TIME 2021-01-01', 'offset 4: invalid TIME value: parsing time "2021-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
    ['x = TIME 2021-01-01T34:56:08Z', 'offset 4: invalid TIME value: parsing time "2021-01-01T34:56:08Z": hour out of range'],
    ['x = TIME 2021-02-30T00:00:00Z', 'offset 4: invalid TIME value: parsing time "2021-02-30T00:00:00Z": day out of range'],
    ['x = TIME 2021-01-01T10:00:00+25:00', 'offset 4: invalid TIME value: parsing time "2021-01-01T10:00:00+25:00": time zone offset hour out of range'],
    ['x = TIME 2021-01-01T10:00:00+0100', 'offset 4: invalid TIME value: parsing time "2021-01-01T10:00:00+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00"'],
    ['x = TIME 2021-01-01T10:00:00ZZ', 'offset 4: invalid TIME value: parsing time "2021-01-01T10:00:00ZZ": extra text: "Z"'],
    ['x = TIME 3000-01-01T00:00:00Z', 'offset 4: timestamp year 3000 out of range'],
    ['TIME EXISTS', 'offset 0: invalid TIME value: parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
    ['x = DATE 2021-13-01', 'offset 4: invalid DATE value: parsing time "2021-13-01": month out of range'],
    ['x = DATE 1899-12-31', 'offset 4: datestamp year 1899 out of range'],
    ['x = DATE 2021-1-01', 'offset 4: invalid DATE value: parsing time "2021-1-01" as "2006-01-02": cannot parse "1-01" as "01"'],
    ['x = DATE 20130503', 'offset 4: invalid DATE value: parsing time "20130503" as "2006-01-02": cannot parse "0503" as "-"'],
    ['x = DATE  2020-02-29', 'offset 4: invalid DATE value: parsing time "" as "2006-01-02": cannot parse "" as "2006"'],
    ['DATE = 1', 'offset 0: invalid DATE value: parsing time "" as "2006-01-02": cannot parse "" as "2006"'],
  ];
  for (const [input, message] of cases) {
    it(`${JSON.stringify(input)} → ${message}`, () => {
      expect(parseError(input).message).to.equal(message);
    });
  }

  it('reports the token offset on the error object', () => {
    const err = parseError('a.b ! 5');
    expect(err.offset).to.equal(4);
    expect(err.name).to.equal('QueryParseError');
  });

  it('does not enforce a maximum length', () => {
    const long = `a.b = '${'x'.repeat(5000)}'`;
    expect(parseQuery(long).conditions[0]!.arg).to.deep.equal({ type: 'string', text: 'x'.repeat(5000) });
  });
});

describe('Query.fromConditions (compile step)', () => {
  it('builds a query equal to the parsed one', () => {
    const q = Query.fromConditions([
      { tag: 'tm.event', op: '=', arg: { type: 'string', text: 'Tx' } },
      { tag: 'tx.height', op: '>', arg: { type: 'number', text: '10' } },
    ]);
    expect(q.toString()).to.equal("tm.event = 'Tx' AND tx.height > 10");
    expect(q.equals(parseQuery("tm.event='Tx' AND tx.height>10"))).to.equal(true);
    expect(q.matches({ 'tm.event': ['Tx'], 'tx.height': ['11'] })).to.equal(true);
  });

  const invalid: [Condition[], string][] = [
    [[{ tag: 'a.b', op: 'CONTAINS', arg: { type: 'number', text: '5' } }], 'compile a.b CONTAINS 5: invalid op/arg combination (CONTAINS operator, number)'],
    [[{ tag: 'a.b', op: '<', arg: { type: 'string', text: 'x' } }], "compile a.b < 'x': invalid op/arg combination (< operator, string)"],
    [[{ tag: 'a.b', op: '>=' }], 'compile a.b >=: missing argument for >= operator'],
    [[{ tag: 'a.b', op: '=', arg: { type: 'number', text: '-1' } }], 'compile a.b = -1: invalid number "-1"'],
    [[{ tag: 'a.b', op: 'EXISTS', arg: { type: 'number', text: '1' } }], 'compile a.b EXISTS 1: unexpected argument for EXISTS operator'],
    [
      [{ tag: 'a.b', op: '=', arg: { type: 'date', text: '2021-02-30', value: new Date(0) } }],
      'compile a.b = DATE 2021-02-30: invalid DATE value: parsing time "2021-02-30": day out of range',
    ],
    [[], 'query must have at least one condition'],
  ];
  for (const [conds, message] of invalid) {
    it(message, () => {
      expect(() => Query.fromConditions(conds)).to.throw(QueryParseError, message);
      try {
        Query.fromConditions(conds);
      } catch (e) {
        expect((e as Error).message).to.equal(message);
      }
    });
  }
});
