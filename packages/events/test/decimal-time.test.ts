import { expect } from 'chai';
import { compareDecimal } from '../src/index.js';
import { parseAttributeNumber, parseDecimal } from '../src/decimal.js';
import { parseGoTime } from '../src/gotime.js';

describe('compareDecimal', () => {
  const cases: [string, string, number][] = [
    ['1', '1', 0],
    ['1', '1.', 0],
    ['1.0', '1', 0],
    ['007', '7', 0],
    ['1.5', '1.50', 0],
    ['0.1', '0.10000000000000000000000000000000000000001', -1],
    ['10', '9.999', 1],
    ['18446744073709551616', '18446744073709551615', 1],
    ['340282366920938463463374607431768211456', '340282366920938463463374607431768211457', -1],
    ['99999999999999999999.10', '99999999999999999998.10', 1],
  ];
  for (const [a, b, want] of cases) {
    it(`${a} vs ${b} → ${want}`, () => {
      expect(compareDecimal(a, b)).to.equal(want);
      expect(compareDecimal(b, a)).to.equal(-want || 0);
    });
  }

  it('rejects malformed decimals', () => {
    expect(() => compareDecimal('-1', '1')).to.throw(RangeError, 'not a decimal: "-1"');
    expect(() => compareDecimal('1', '1e3')).to.throw(RangeError, 'not a decimal: "1e3"');
    expect(parseDecimal('.5')).to.equal(undefined);
  });

  it('reads attribute values by their leading number', () => {
    expect(parseAttributeNumber('10stake')).to.deep.equal({ mantissa: 10n, scale: 0 });
    expect(parseAttributeNumber('6.50stake')).to.deep.equal({ mantissa: 65n, scale: 1 });
    expect(parseAttributeNumber('1.stake')).to.deep.equal({ mantissa: 1n, scale: 0 });
    expect(parseAttributeNumber('-5')).to.equal(undefined);
    expect(parseAttributeNumber('stake')).to.equal(undefined);
    expect(parseAttributeNumber('')).to.equal(undefined);
  });
});

describe('parseGoTime (Go time.Parse emulation)', () => {
  const ns = (iso: string, extraNs = 0n): bigint => BigInt(Date.parse(iso)) * 1_000_000n + extraNs;

  it('parses RFC3339 with zones and fractions', () => {
    expect(parseGoTime('2021-11-23T22:04:19-09:00', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-11-24T07:04:19Z'), year: 2021 });
    expect(parseGoTime('2021-01-01T00:00:00.123456789Z', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-01-01T00:00:00.123Z', 456789n), year: 2021 });
    expect(parseGoTime('2021-01-01T00:00:00,5Z', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-01-01T00:00:00.5Z'), year: 2021 });
    // more than nine fraction digits are truncated, as Go does
    expect(parseGoTime('2021-01-01T00:00:00.1234567899Z', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-01-01T00:00:00.123Z', 456789n), year: 2021 });
    // Go's general parser accepts a one-digit hour and a +24:00 offset
    expect(parseGoTime('2021-01-01T1:00:00Z', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-01-01T01:00:00Z'), year: 2021 });
    expect(parseGoTime('2021-01-02T00:00:00+24:00', 'rfc3339')).to.deep.equal({ ok: true, epochNs: ns('2021-01-01T00:00:00Z'), year: 2021 });
  });

  it('parses dates (midnight UTC), including years outside 1900-2999 and before 100', () => {
    expect(parseGoTime('2020-02-29', 'date')).to.deep.equal({ ok: true, epochNs: ns('2020-02-29T00:00:00Z'), year: 2020 });
    expect(parseGoTime('0050-03-01', 'date')).to.deep.equal({ ok: true, epochNs: ns('0050-03-01T00:00:00Z'), year: 50 });
    expect(parseGoTime('9999-12-31', 'date')).to.deep.equal({ ok: true, epochNs: ns('9999-12-31T00:00:00Z'), year: 9999 });
  });

  it('reports Go error texts', () => {
    expect(parseGoTime('2021-02-29', 'date')).to.deep.equal({ ok: false, error: 'parsing time "2021-02-29": day out of range' });
    expect(parseGoTime('2021-02-01T00:00:00z', 'rfc3339')).to.deep.equal({
      ok: false,
      error: 'parsing time "2021-02-01T00:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"',
    });
    expect(parseGoTime('2021-01-01T00:60:00Z', 'rfc3339')).to.deep.equal({ ok: false, error: 'parsing time "2021-01-01T00:60:00Z": minute out of range' });
    expect(parseGoTime('2021-01-01T00:00:00+01:61', 'rfc3339')).to.deep.equal({ ok: false, error: 'parsing time "2021-01-01T00:00:00+01:61": time zone offset minute out of range' });
    expect(parseGoTime('2021-01-01x', 'date')).to.deep.equal({ ok: false, error: 'parsing time "2021-01-01x": extra text: "x"' });
    expect(parseGoTime('"é"', 'date')).to.deep.equal({ ok: false, error: 'parsing time "\\"\\xc3\\xa9\\"" as "2006-01-02": cannot parse "\\"\\xc3\\xa9\\"" as "2006"' });
  });
});
