import { expect } from 'chai';
import protobuf from 'protobufjs';
import { CodecError, toGatewayJSON } from '../src/json.js';
import { fromQueryParams } from '../src/query-params.js';
import { Long, loadFixtureRoot, resolverFor } from './fixtures/fixture.js';

const root = loadFixtureRoot();
const resolver = resolverFor(root);
const Req = root.lookupType('codectest.v1.QueryParamsRequest');
const Balances = root.lookupType('codectest.v1.QueryAllBalancesRequest');

type Query = Record<string, string | string[] | undefined>;

/** Parses, round-trips through binary (proves the message is encodable) and returns gateway JSON. */
function parse(query: Query, pathParams: Record<string, string> = {}, type: protobuf.Type = Req): Record<string, unknown> {
  const msg = fromQueryParams(type, query, pathParams, resolver);
  const decoded = type.decode(type.encode(msg).finish());
  return toGatewayJSON(type, decoded, resolver) as Record<string, unknown>;
}

function expectError(fn: () => unknown, message: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a CodecError').to.be.instanceOf(CodecError);
  expect((err as CodecError).message).to.equal(message);
  expect((err as CodecError).code).to.equal(3);
}

describe('codec/query-params fromQueryParams', () => {
  it('fills path params and dotted pagination params (snake_case and lowerCamel)', () => {
    const out = parse(
      { 'pagination.limit': '10', 'pagination.count_total': 'true', 'pagination.key': 'AQID', 'pagination.reverse': '1' },
      { address: 'cosmos1abc' },
      Balances,
    );
    expect(JSON.stringify(out)).to.equal(
      '{"address":"cosmos1abc","pagination":{"key":"AQID","offset":"0","limit":"10","count_total":true,"reverse":true},"resolve_denom":false}',
    );
    const camel = parse({ 'pagination.countTotal': 'T', 'pagination.offset': '5', resolveDenom: 'true' }, { address: 'a' }, Balances);
    expect(camel['pagination']).to.deep.equal({ key: null, offset: '5', limit: '0', count_total: true, reverse: false });
    expect(camel['resolve_denom']).to.equal(true);
  });

  it('skips query keys that are path params and ignores unknown keys', () => {
    const out = parse({ address: 'other', 'address.x': 'y', foo: 'bar', 'pagination.nope': '1', 'nope.deeper': 'x' }, { address: 'mine' }, Balances);
    expect(out['address']).to.equal('mine');
    expect(out['pagination']).to.deep.equal({ key: null, offset: '0', limit: '0', count_total: false, reverse: false });
  });

  it('parses every scalar kind with strconv semantics', () => {
    const out = parse({
      height: '-42',
      proposal_id: '0x10',
      small: '-0b101',
      small_unsigned: '0o17',
      ratio: '1.5e3',
      ratio32: '0.1',
      flag: 'TRUE',
      key: '-_8=',
      name: 'n a m e',
      signed64: '1_000',
      fixed: '18446744073709551615',
    });
    expect(out).to.include({
      height: '-42',
      proposal_id: '16',
      small: -5,
      small_unsigned: 15,
      ratio: 1500,
      ratio32: 0.1,
      flag: true,
      key: '+/8=',
      name: 'n a m e',
      signed64: '1000',
      fixed: '18446744073709551615',
    });
    expect(parse({ small: '010' })['small']).to.equal(8); // a leading 0 is octal in Go's base-0 parsing
    for (const [v, b] of [['1', true], ['t', true], ['True', true], ['0', false], ['f', false], ['FALSE', false]] as const) {
      expect(parse({ flag: v })['flag']).to.equal(b);
    }
  });

  it('reads repeated fields by repeating the key, enums by name or number', () => {
    const out = parse({ events: ['a=1', 'b=2'], ids: ['1', '18446744073709551615'], statuses: ['STATUS_ACTIVE', '2'], status: '1' });
    expect(out['events']).to.deep.equal(['a=1', 'b=2']);
    expect(out['ids']).to.deep.equal(['1', '18446744073709551615']);
    expect(out['statuses']).to.deep.equal(['STATUS_ACTIVE', 'STATUS_INACTIVE']);
    expect(out['status']).to.equal('STATUS_ACTIVE');
    expect(parse({ status: 'STATUS_INACTIVE' })['status']).to.equal('STATUS_INACTIVE');
    expect(parse({ events: 'single' })['events']).to.deep.equal(['single']);
  });

  it('takes the first value of a repeated key for a singular field', () => {
    expect(parse({ name: ['first', 'second'] })['name']).to.equal('first');
  });

  it('fills nested messages and maps (key[mapkey]=value)', () => {
    const out = parse({ 'inner.name': 'x', 'inner.value': '7', 'inner.kind': 'KIND_A', 'labels[env]': 'prod', 'labels[x.y]': 'z', 'weights[3]': '9' });
    expect(out['inner']).to.deep.equal({ name: 'x', value: '7', kind: 'KIND_A' });
    expect(out['labels']).to.deep.equal({ env: 'prod', 'x.y': 'z' });
    expect(out['weights']).to.deep.equal({ '3': '9' });
  });

  it('parses Timestamp, Duration, wrappers, FieldMask and Dec', () => {
    const out = parse({
      since: '2024-01-02T03:04:05.5+01:00',
      period: '1m30.25s',
      limit_value: '12',
      bool_value: 'true',
      mask: 'a.b,c',
      min_rate: '0.05',
    });
    expect(out).to.include({ since: '2024-01-02T02:04:05.500Z', period: '90.250s', limit_value: '12', bool_value: true, min_rate: '0.050000000000000000' });
    expect(out['mask']).to.deep.equal({ paths: ['a.b', 'c'] });
    expect(parse({ since: 'null' })['since']).to.equal('1970-01-01T00:00:00Z');
  });

  it('sets oneof members and rejects a second member of the same oneof', () => {
    expect(parse({ target_name: 'n' })['target_name']).to.equal('n');
    expect(parse({ 'targetInner.name': 'i' })['target_inner']).to.deep.equal({ name: 'i', value: '0', kind: 'KIND_UNSPECIFIED' });
    expectError(() => fromQueryParams(Req, { target_name: 'n', 'target_inner.name': 'i' }, {}, resolver), 'field already set for target oneof');
  });

  it('reports invalid integers like strconv', () => {
    expectError(() => fromQueryParams(Req, { proposal_id: 'abc' }, {}, resolver), 'strconv.ParseUint: parsing "abc": invalid syntax');
    expectError(() => fromQueryParams(Req, { height: 'abc' }, {}, resolver), 'strconv.ParseInt: parsing "abc": invalid syntax');
    expectError(() => fromQueryParams(Req, { proposal_id: '-1' }, {}, resolver), 'strconv.ParseUint: parsing "-1": invalid syntax');
    expectError(
      () => fromQueryParams(Req, { proposal_id: '18446744073709551616' }, {}, resolver),
      'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    );
    expectError(
      () => fromQueryParams(Req, { height: '9223372036854775808' }, {}, resolver),
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    );
    expectError(() => fromQueryParams(Req, { small: '2147483648' }, {}, resolver), 'strconv.ParseInt: parsing "2147483648": value out of range');
    expectError(() => fromQueryParams(Req, { small_unsigned: '1.5' }, {}, resolver), 'strconv.ParseUint: parsing "1.5": invalid syntax');
    expectError(() => fromQueryParams(Req, { 'pagination.limit': '' }, {}, resolver), 'strconv.ParseUint: parsing "": invalid syntax');
    expectError(() => fromQueryParams(Req, { signed64: '1__0' }, {}, resolver), 'strconv.ParseInt: parsing "1__0": invalid syntax');
  });

  it('reports invalid bools, floats, bytes, enums and times', () => {
    expectError(() => fromQueryParams(Req, { flag: 'yes' }, {}, resolver), 'strconv.ParseBool: parsing "yes": invalid syntax');
    expectError(() => fromQueryParams(Req, { ratio: 'x1' }, {}, resolver), 'strconv.ParseFloat: parsing "x1": invalid syntax');
    expectError(() => fromQueryParams(Req, { ratio32: '1e39' }, {}, resolver), 'strconv.ParseFloat: parsing "1e39": value out of range');
    expectError(() => fromQueryParams(Req, { key: 'AQI' }, {}, resolver), 'illegal base64 data at input byte 0');
    expectError(() => fromQueryParams(Req, { key: 'AQ!D' }, {}, resolver), 'illegal base64 data at input byte 2');
    expectError(() => fromQueryParams(Req, { status: 'FOO' }, {}, resolver), 'FOO is not a valid types.Status');
    expectError(() => fromQueryParams(Req, { status: '7' }, {}, resolver), '7 is not a valid types.Status');
    expectError(() => fromQueryParams(Req, { 'inner.kind': 'X' }, {}, resolver), 'X is not a valid types.Inner_Kind');
    expectError(
      () => fromQueryParams(Req, { since: '2024-01-02' }, {}, resolver),
      'bad Timestamp: parsing time "2024-01-02" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "" as "T"',
    );
    expectError(() => fromQueryParams(Req, { period: 'soon' }, {}, resolver), 'bad Duration: time: invalid duration "soon"');
    expectError(() => fromQueryParams(Req, { limit_value: 'x' }, {}, resolver), 'bad DoubleValue: x');
    expectError(() => fromQueryParams(Req, { min_rate: '1.2.3' }, {}, resolver), 'invalid decimal string');
  });

  it('reports structural errors like the gateway', () => {
    expectError(() => fromQueryParams(Req, { inner: 'x' }, {}, resolver), 'field type *types.Inner is not supported in query parameters');
    expectError(() => fromQueryParams(Req, { 'name.x': '1' }, {}, resolver), 'unexpected nested field x in name');
    expectError(() => fromQueryParams(Req, { 'events.x': '1' }, {}, resolver), 'unexpected repeated field in events.x');
    expectError(() => fromQueryParams(Req, { inners: 'x' }, {}, resolver), 'unsupported field type *types.Inner');
    expectError(() => fromQueryParams(Req, { labels: 'x' }, {}, resolver), 'more than one value provided for key x in map Labels');
  });

  it('wraps bad path params as type mismatch', () => {
    expectError(
      () => fromQueryParams(Req, {}, { height: 'abc' }, resolver),
      'type mismatch, parameter: height, error: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expectError(
      () => fromQueryParams(Req, {}, { proposal_id: '-5' }, resolver),
      'type mismatch, parameter: proposal_id, error: strconv.ParseUint: parsing "-5": invalid syntax',
    );
    expectError(() => fromQueryParams(Req, {}, { status: 'NOPE' }, resolver), 'type mismatch, parameter: status, error: NOPE is not valid');
    expectError(
      () => fromQueryParams(Req, {}, { 'pagination.limit': 'x' }, resolver),
      'type mismatch, parameter: pagination.limit, error: strconv.ParseUint: parsing "x": invalid syntax',
    );
  });

  it('accepts typed path params (numbers, enums, bytes, dotted, comma-separated repeated)', () => {
    const out = parse({ height: '1' }, { height: '99', status: 'STATUS_INACTIVE', key: 'AQ==', 'inner.name': 'p', ids: '1,2' });
    expect(out).to.include({ height: '99', status: 'STATUS_INACTIVE', key: 'AQ==' });
    expect(out['inner']).to.deep.equal({ name: 'p', value: '0', kind: 'KIND_UNSPECIFIED' });
    expect(out['ids']).to.deep.equal(['1', '2']);
    expect(parse({}, { status: '1' })['status']).to.equal('STATUS_ACTIVE');
  });

  it('returns protobufjs values (Long for 64-bit, Uint8Array for bytes)', () => {
    const msg = fromQueryParams(Req, { height: '5', key: 'AQ==' }, {}, resolver) as unknown as Record<string, unknown>;
    expect(Long.isLong(msg['height'])).to.equal(true);
    expect(msg['key']).to.be.instanceOf(Uint8Array);
  });
});
