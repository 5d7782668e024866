import { expect } from 'chai';
import protobuf from 'protobufjs';
import { CodecError, fromGatewayJSON, toGatewayJSON } from '../src/json.js';
import { Long, loadFixtureRoot, resolverFor } from './fixtures/fixture.js';

const root = loadFixtureRoot();
const resolver = resolverFor(root);
const T = (name: string): protobuf.Type => root.lookupType('codectest.v1.' + name);

/** Encodes a message to binary and decodes it again (values arrive as protobufjs decodes them). */
function wire(type: protobuf.Type, props: Record<string, unknown>): protobuf.Message {
  return type.decode(type.encode(type.fromObject(props)).finish());
}

function json(type: protobuf.Type, msg: unknown): string {
  return JSON.stringify(toGatewayJSON(type, msg, resolver));
}

function pack(typeName: string, props: Record<string, unknown>): { type_url: string; value: Uint8Array } {
  const t = root.lookupType(typeName);
  return { type_url: '/' + typeName, value: t.encode(t.fromObject(props)).finish() };
}

function expectCodecError(fn: () => unknown, message: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a CodecError').to.be.instanceOf(CodecError);
  expect((err as Error).message).to.equal(message);
}

const EVERYTHING_DEFAULTS = {
  scalars: null,
  inner: null,
  inners: [],
  tags: [],
  numbers: [],
  statuses: [],
  blobs: [],
  inner_map: {},
  counts: {},
  names_by_id: {},
  any: null,
  anys: [],
  time: null,
  period: null,
  rate: '0.000000000000000000',
  dec_coins: [],
  required_inner: { name: '', value: '0', kind: 'KIND_UNSPECIFIED' },
  required_time: '0001-01-01T00:00:00Z',
  total_int: '0',
  plain_dec: '',
  maybe: null,
  flags: {},
  names_by_height: {},
  data: null,
  wrapped_u64: null,
  wrapped_str: null,
  meta: null,
  any_value: null,
  mask: null,
  nothing: null,
  coins: [],
};

describe('codec/json toGatewayJSON', () => {
  it('emits every scalar with its default', () => {
    const out = toGatewayJSON(T('Scalars'), T('Scalars').create(), resolver);
    expect(JSON.stringify(out)).to.equal(
      JSON.stringify({
        f_double: 0,
        f_float: 0,
        f_int32: 0,
        f_int64: '0',
        f_uint32: 0,
        f_uint64: '0',
        f_sint32: 0,
        f_sint64: '0',
        f_fixed32: 0,
        f_fixed64: '0',
        f_sfixed32: 0,
        f_sfixed64: '0',
        f_bool: false,
        f_string: '',
        f_bytes: null,
        f_enum: 'STATUS_UNSPECIFIED',
      }),
    );
  });

  it('writes every scalar type (decoded from the wire)', () => {
    const msg = wire(T('Scalars'), {
      f_double: 1.5,
      f_float: 0.1,
      f_int32: -7,
      f_int64: '-9223372036854775808',
      f_uint32: 4294967295,
      f_uint64: '18446744073709551615',
      f_sint32: -3,
      f_sint64: '-123456789012345',
      f_fixed32: 7,
      f_fixed64: '9007199254740993',
      f_sfixed32: -8,
      f_sfixed64: '-9007199254740993',
      f_bool: true,
      f_string: 'héllo "q"',
      f_bytes: new Uint8Array([1, 2, 3, 250]),
      f_enum: 2,
    });
    expect(toGatewayJSON(T('Scalars'), msg, resolver)).to.deep.equal({
      f_double: 1.5,
      f_float: 0.1,
      f_int32: -7,
      f_int64: '-9223372036854775808',
      f_uint32: 4294967295,
      f_uint64: '18446744073709551615',
      f_sint32: -3,
      f_sint64: '-123456789012345',
      f_fixed32: 7,
      f_fixed64: '9007199254740993',
      f_sfixed32: -8,
      f_sfixed64: '-9007199254740993',
      f_bool: true,
      f_string: 'héllo "q"',
      f_bytes: 'AQID+g==',
      f_enum: 'STATUS_INACTIVE',
    });
  });

  it('accepts Long, number, bigint and string for 64-bit fields', () => {
    const t = T('Scalars');
    const base = { f_int64: 0, f_uint64: 0 };
    const cases: Array<[unknown, unknown, string, string]> = [
      [Long.fromString('-42'), Long.fromString('42', true), '-42', '42'],
      [-42, 42, '-42', '42'],
      [-42n, 18446744073709551615n, '-42', '18446744073709551615'],
      ['-42', '18446744073709551615', '-42', '18446744073709551615'],
      [Long.fromBits(0, 1, false), Long.fromBits(-1, -1, true), '4294967296', '18446744073709551615'],
      [Number.MAX_SAFE_INTEGER + 2, 2 ** 63, '9007199254740992', '9223372036854775808'],
    ];
    for (const [i64, u64, si, su] of cases) {
      const out = toGatewayJSON(t, { ...base, f_int64: i64, f_uint64: u64 }, resolver) as Record<string, unknown>;
      expect([out['f_int64'], out['f_uint64']]).to.deep.equal([si, su]);
    }
  });

  it('writes non-finite floats as strings and float32 with its shortest digits', () => {
    const out = toGatewayJSON(T('Scalars'), { f_double: NaN, f_float: Math.fround(3.14159) }, resolver) as Record<string, unknown>;
    expect(out['f_double']).to.equal('NaN');
    expect(out['f_float']).to.equal(3.14159);
    const inf = toGatewayJSON(T('Scalars'), { f_double: -Infinity, f_float: Infinity }, resolver) as Record<string, unknown>;
    expect([inf['f_double'], inf['f_float']]).to.deep.equal(['-Infinity', 'Infinity']);
  });

  it('writes enums by name and unknown values as numbers', () => {
    expect((toGatewayJSON(T('Scalars'), { f_enum: 1 }, resolver) as Record<string, unknown>)['f_enum']).to.equal('STATUS_ACTIVE');
    expect((toGatewayJSON(T('Scalars'), { f_enum: 42 }, resolver) as Record<string, unknown>)['f_enum']).to.equal(42);
    expect((toGatewayJSON(T('Scalars'), { f_enum: 'STATUS_INACTIVE' }, resolver) as Record<string, unknown>)['f_enum']).to.equal(
      'STATUS_INACTIVE',
    );
  });

  it('emits all defaults of a complex message, unset messages as null, oneof omitted', () => {
    const t = T('Everything');
    expect(json(t, t.create())).to.equal(JSON.stringify(EVERYTHING_DEFAULTS));
    expect(json(t, {})).to.equal(JSON.stringify(EVERYTHING_DEFAULTS));
    expect(json(t, wire(t, {}))).to.equal(JSON.stringify(EVERYTHING_DEFAULTS));
  });

  it('writes nested messages, repeated fields and maps (Go key order)', () => {
    const t = T('Everything');
    const msg = wire(t, {
      inner: { name: 'a', value: 1, kind: 1 },
      inners: [{ name: 'x' }, { name: 'y', value: '18446744073709551615' }],
      tags: ['t1', 't2'],
      numbers: [1, '9007199254740993'],
      statuses: [1, 2, 0],
      inner_map: { zeta: { name: 'z' }, alpha: { name: 'a' } },
      counts: { b: 2, a: '-1' },
      names_by_id: { 10: 'ten', 2: 'two' },
      flags: { true: 'yes', false: 'no' },
      names_by_height: { '18446744073709551615': 'max', '5': 'five' },
    });
    const out = toGatewayJSON(t, msg, resolver) as Record<string, unknown>;
    expect(out['inner']).to.deep.equal({ name: 'a', value: '1', kind: 'KIND_A' });
    expect(out['inners']).to.deep.equal([
      { name: 'x', value: '0', kind: 'KIND_UNSPECIFIED' },
      { name: 'y', value: '18446744073709551615', kind: 'KIND_UNSPECIFIED' },
    ]);
    expect(out['tags']).to.deep.equal(['t1', 't2']);
    expect(out['numbers']).to.deep.equal(['1', '9007199254740993']);
    expect(out['statuses']).to.deep.equal(['STATUS_ACTIVE', 'STATUS_INACTIVE', 'STATUS_UNSPECIFIED']);
    expect(JSON.stringify(out['inner_map'])).to.equal(
      '{"alpha":{"name":"a","value":"0","kind":"KIND_UNSPECIFIED"},"zeta":{"name":"z","value":"0","kind":"KIND_UNSPECIFIED"}}',
    );
    expect(JSON.stringify(out['counts'])).to.equal('{"a":"-1","b":"2"}');
    expect(out['names_by_id']).to.deep.equal({ '2': 'two', '10': 'ten' });
    expect(JSON.stringify(out['flags'])).to.equal('{"false":"no","true":"yes"}');
    expect(out['names_by_height']).to.deep.equal({ '5': 'five', '18446744073709551615': 'max' });
  });

  it('emits only the set oneof member, at the oneof position, even with a default value', () => {
    const t = T('Everything');
    const keys = (m: unknown): string[] => Object.keys(toGatewayJSON(t, m, resolver) as object);
    const text = toGatewayJSON(t, wire(t, { choice_text: 'hi' }), resolver) as Record<string, unknown>;
    expect(text['choice_text']).to.equal('hi');
    expect(text).to.not.have.property('choice_inner');
    expect(text).to.not.have.property('choice_number');
    expect(keys(wire(t, { choice_text: 'hi' })).slice(9, 12)).to.deep.equal(['names_by_id', 'choice_text', 'any']);
    const zero = toGatewayJSON(t, wire(t, { choice_number: 0 }), resolver) as Record<string, unknown>;
    expect(zero['choice_number']).to.equal('0');
    const inner = toGatewayJSON(t, wire(t, { choice_inner: {} }), resolver) as Record<string, unknown>;
    expect(inner['choice_inner']).to.deep.equal({ name: '', value: '0', kind: 'KIND_UNSPECIFIED' });
  });

  it('writes proto3 optional fields as null when unset and their value when set (even zero)', () => {
    const t = T('Everything');
    expect((toGatewayJSON(t, wire(t, {}), resolver) as Record<string, unknown>)['maybe']).to.equal(null);
    expect((toGatewayJSON(t, wire(t, { maybe: 0 }), resolver) as Record<string, unknown>)['maybe']).to.equal('0');
    expect((toGatewayJSON(t, wire(t, { maybe: 7 }), resolver) as Record<string, unknown>)['maybe']).to.equal('7');
  });

  it('writes bytes: zero-length singular → null, repeated elements → "" , data → base64', () => {
    const t = T('Everything');
    const out = toGatewayJSON(t, { data: new Uint8Array(0), blobs: [new Uint8Array(0), new Uint8Array([255])] }, resolver) as Record<
      string,
      unknown
    >;
    expect(out['data']).to.equal(null);
    expect(out['blobs']).to.deep.equal(['', '/w==']);
    expect((toGatewayJSON(t, { data: Buffer.from('hello') }, resolver) as Record<string, unknown>)['data']).to.equal('aGVsbG8=');
    expect((toGatewayJSON(t, { data: [104, 105] }, resolver) as Record<string, unknown>)['data']).to.equal('aGk=');
  });

  it('writes Any inline with @type, nested Any recursively', () => {
    const t = T('BaseAccount');
    const key = new Uint8Array(33).fill(2);
    const msg = wire(t, {
      address: 'cosmos1xyz',
      pub_key: pack('codectest.v1.PubKey', { key }),
      account_number: 7,
      sequence: 3,
    });
    expect(json(t, msg)).to.equal(
      JSON.stringify({
        address: 'cosmos1xyz',
        pub_key: { '@type': '/codectest.v1.PubKey', key: Buffer.from(key).toString('base64') },
        account_number: '7',
        sequence: '3',
      }),
    );
    expect(json(t, { address: 'a' })).to.equal('{"address":"a","pub_key":null,"account_number":"0","sequence":"0"}');

    const env = T('Envelope');
    const innerEnv = pack('codectest.v1.Envelope', { label: 'inner', payload: pack('codectest.v1.PubKey', { key: [1] }) });
    const outer = wire(env, { label: 'outer', payload: innerEnv });
    expect(json(env, outer)).to.equal(
      JSON.stringify({
        label: 'outer',
        payload: { '@type': '/codectest.v1.Envelope', label: 'inner', payload: { '@type': '/codectest.v1.PubKey', key: 'AQ==' } },
      }),
    );
  });

  it('writes well-known payloads inside Any as {"@type","value"}', () => {
    const env = T('Envelope');
    const ts = pack('google.protobuf.Timestamp', { seconds: 1700000000, nanos: 5000000 });
    expect(json(env, { label: 'x', payload: ts })).to.equal(
      '{"label":"x","payload":{"@type":"/google.protobuf.Timestamp","value":"2023-11-14T22:13:20.005Z"}}',
    );
    const anyInAny = pack('google.protobuf.Any', pack('codectest.v1.PubKey', { key: [9] }));
    expect(json(env, { label: 'y', payload: anyInAny })).to.equal(
      '{"label":"y","payload":{"@type":"/google.protobuf.Any","value":{"@type":"/codectest.v1.PubKey","key":"CQ=="}}}',
    );
  });

  it('throws a clear CodecError for an unresolvable Any', () => {
    const env = T('Envelope');
    expectCodecError(() => toGatewayJSON(env, { payload: { type_url: '/unknown.Type', value: new Uint8Array() } }, resolver), 'unable to resolve type URL /unknown.Type');
  });

  it('writes Timestamps with 0/3/6/9 fraction digits and the Go zero time', () => {
    const t = T('Everything');
    const ts = (seconds: number | string, nanos: number): unknown =>
      (toGatewayJSON(t, wire(t, { time: { seconds, nanos } }), resolver) as Record<string, unknown>)['time'];
    expect(ts(1704164645, 0)).to.equal('2024-01-02T03:04:05Z');
    expect(ts(1704164645, 123000000)).to.equal('2024-01-02T03:04:05.123Z');
    expect(ts(1704164645, 123400000)).to.equal('2024-01-02T03:04:05.123400Z');
    expect(ts(1704164645, 123456789)).to.equal('2024-01-02T03:04:05.123456789Z');
    expect(ts(0, 0)).to.equal('1970-01-01T00:00:00Z');
    expect(ts('-62135596800', 0)).to.equal('0001-01-01T00:00:00Z');
    expect(ts('253402300799', 999999999)).to.equal('9999-12-31T23:59:59.999999999Z');
    expect(ts(951782400, 0)).to.equal('2000-02-29T00:00:00Z');
    // stdtime + nullable=false: unset is Go's zero time; a Date is accepted too
    const out = toGatewayJSON(t, { required_time: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) }, resolver) as Record<string, unknown>;
    expect(out['required_time']).to.equal('2024-01-02T03:04:05.006Z');
    expect(out['time']).to.equal(null);
  });

  it('writes Durations like gogo jsonpb', () => {
    const t = T('Everything');
    const d = (seconds: number | string, nanos: number): unknown =>
      (toGatewayJSON(t, { period: { seconds, nanos } }, resolver) as Record<string, unknown>)['period'];
    expect(d(1814400, 0)).to.equal('1814400s');
    expect(d(1, 500000000)).to.equal('1.500s');
    expect(d(0, 0)).to.equal('0s');
    expect(d(0, -500000000)).to.equal('-0.500s');
    expect(d(-3, -1)).to.equal('-3.000000001s');
    expect(d(2, 1000)).to.equal('2.000001s');
    expectCodecError(() => d(1, -1), 'signs of seconds and nanos do not match');
  });

  it('writes Dec custom types with 18 decimals and Int custom types as text', () => {
    const t = T('Everything');
    const msg = wire(t, {
      rate: '50000000000000000',
      dec_coins: [
        { denom: 'stake', amount: '1000000000000000000000' },
        { denom: 'neg', amount: '-500000000000000000' },
        { denom: 'tiny', amount: '1' },
        { denom: 'empty', amount: '' },
      ],
      total_int: '123456789012345678901234567890',
      plain_dec: '334000000000000000',
      coins: [{ denom: 'achain', amount: '10' }, { denom: 'zero' }],
    });
    const out = toGatewayJSON(t, msg, resolver) as Record<string, unknown>;
    expect(out['rate']).to.equal('0.050000000000000000');
    expect(out['dec_coins']).to.deep.equal([
      { denom: 'stake', amount: '1000.000000000000000000' },
      { denom: 'neg', amount: '-0.500000000000000000' },
      { denom: 'tiny', amount: '0.000000000000000001' },
      { denom: 'empty', amount: '0.000000000000000000' },
    ]);
    expect(out['total_int']).to.equal('123456789012345678901234567890');
    expect(out['plain_dec']).to.equal('0.334000000000000000');
    expect(out['coins']).to.deep.equal([
      { denom: 'achain', amount: '10' },
      { denom: 'zero', amount: '0' },
    ]);
    // already-decimal text passes through unchanged
    expect((toGatewayJSON(t, { plain_dec: '0.334000000000000000' }, resolver) as Record<string, unknown>)['plain_dec']).to.equal(
      '0.334000000000000000',
    );
  });

  it('writes wrappers, Struct/Value, FieldMask and Empty', () => {
    const t = T('Everything');
    const msg = wire(t, {
      wrapped_u64: { value: '18446744073709551615' },
      wrapped_str: { value: '' },
      meta: { fields: { b: { numberValue: 1.5 }, a: { stringValue: 's' }, n: { nullValue: 0 }, l: { listValue: { values: [{ boolValue: true }] } } } },
      any_value: { structValue: { fields: { k: { numberValue: 2 } } } },
      mask: { paths: ['a.b', 'c'] },
      nothing: {},
    });
    const out = toGatewayJSON(t, msg, resolver) as Record<string, unknown>;
    expect(out['wrapped_u64']).to.equal('18446744073709551615');
    expect(out['wrapped_str']).to.equal('');
    expect(JSON.stringify(out['meta'])).to.equal('{"a":"s","b":1.5,"l":[true],"n":null}');
    expect(out['any_value']).to.deep.equal({ k: 2 });
    expect(out['mask']).to.deep.equal({ paths: ['a.b', 'c'] });
    expect(out['nothing']).to.deep.equal({});
  });

  it('encodes a Cosmos-shaped QueryAllBalancesResponse exactly', () => {
    const t = T('QueryAllBalancesResponse');
    const msg = wire(t, { balances: [{ denom: 'achain', amount: '10' }], pagination: { next_key: new Uint8Array(), total: 1 } });
    expect(json(t, msg)).to.equal('{"balances":[{"denom":"achain","amount":"10"}],"pagination":{"next_key":null,"total":"1"}}');
    // the same from a plain object (registry model: bigint, Uint8Array)
    expect(json(t, { balances: [{ denom: 'achain', amount: '10' }], pagination: { next_key: new Uint8Array(0), total: 1n } })).to.equal(
      '{"balances":[{"denom":"achain","amount":"10"}],"pagination":{"next_key":null,"total":"1"}}',
    );
    expect(json(t, { balances: [] })).to.equal('{"balances":[],"pagination":null}');
    const withKey = json(t, { balances: [], pagination: { next_key: new Uint8Array([1, 2]), total: 0 } });
    expect(withKey).to.equal('{"balances":[],"pagination":{"next_key":"AQI=","total":"0"}}');
  });

  it('gives the same JSON for protobufjs instances and toObject plain objects', () => {
    const t = T('Everything');
    const msg = wire(t, {
      scalars: { f_int64: '-5', f_uint64: '5', f_bytes: [1], f_enum: 1 },
      choice_inner: { name: 'c' },
      counts: { x: 3 },
      names_by_height: { '7': 'seven' },
      time: { seconds: 10, nanos: 20 },
      any: pack('codectest.v1.PubKey', { key: [3] }),
      maybe: 4,
      rate: '1',
    });
    const plain = t.toObject(msg, { longs: BigInt as unknown as typeof String, enums: Number, arrays: true, defaults: true, oneofs: true });
    expect(json(t, plain)).to.equal(json(t, msg));
    const asStrings = t.toObject(msg, { longs: String, enums: String, bytes: String, defaults: true, oneofs: true });
    expect(json(t, asStrings)).to.equal(json(t, msg));
  });
});

describe('codec/json fromGatewayJSON', () => {
  it('reads snake_case and lowerCamel names, ignores unknown fields and null', () => {
    const t = T('Scalars');
    const m = fromGatewayJSON(t, { fInt64: '12', f_uint64: 13, f_string: 'x', fBool: true, unknown_field: 1, f_int32: null }, resolver);
    expect(toGatewayJSON(t, m, resolver)).to.include({ f_int64: '12', f_uint64: '13', f_string: 'x', f_bool: true, f_int32: 0 });
    const r = fromGatewayJSON(T('QueryAllBalancesRequest'), { address: 'a', pagination: { countTotal: true, limit: '10' } }, resolver);
    expect(json(T('QueryAllBalancesRequest'), r)).to.equal(
      '{"address":"a","pagination":{"key":null,"offset":"0","limit":"10","count_total":true,"reverse":false},"resolve_denom":false}',
    );
    expect(json(t, fromGatewayJSON(t, null, resolver))).to.equal(json(t, t.create()));
  });

  it('reads every scalar type and produces protobufjs values (Long, Uint8Array, numbers)', () => {
    const t = T('Scalars');
    const input = {
      f_double: 1.25,
      f_float: '0.5',
      f_int32: '-7',
      f_int64: '-9223372036854775808',
      f_uint32: 4294967295,
      f_uint64: '18446744073709551615',
      f_sint32: -3,
      f_sint64: -4,
      f_fixed32: '7',
      f_fixed64: 8,
      f_sfixed32: -9,
      f_sfixed64: '-10',
      f_bool: false,
      f_string: 's',
      f_bytes: '-_8=',
      f_enum: 'STATUS_ACTIVE',
    };
    const m = fromGatewayJSON(t, input, resolver) as unknown as Record<string, unknown>;
    expect(Long.isLong(m['f_uint64'])).to.equal(true);
    expect(m['f_bytes']).to.be.instanceOf(Uint8Array);
    expect(Array.from(m['f_bytes'] as Uint8Array)).to.deep.equal([251, 255]);
    const back = toGatewayJSON(t, t.decode(t.encode(m as unknown as protobuf.Message).finish()), resolver);
    expect(back).to.deep.equal({
      f_double: 1.25,
      f_float: 0.5,
      f_int32: -7,
      f_int64: '-9223372036854775808',
      f_uint32: 4294967295,
      f_uint64: '18446744073709551615',
      f_sint32: -3,
      f_sint64: '-4',
      f_fixed32: 7,
      f_fixed64: '8',
      f_sfixed32: -9,
      f_sfixed64: '-10',
      f_bool: false,
      f_string: 's',
      f_bytes: '+/8=',
      f_enum: 'STATUS_ACTIVE',
    });
  });

  it('reads enums by name or number, bytes standard / URL-safe / unpadded, non-finite floats', () => {
    const t = T('Scalars');
    const get = (j: Record<string, unknown>): Record<string, unknown> => toGatewayJSON(t, fromGatewayJSON(t, j, resolver), resolver) as Record<string, unknown>;
    expect(get({ f_enum: 2 })['f_enum']).to.equal('STATUS_INACTIVE');
    expect(get({ f_enum: 9 })['f_enum']).to.equal(9);
    expect(get({ f_bytes: 'AQID' })['f_bytes']).to.equal('AQID');
    expect(get({ f_bytes: '-_8' })['f_bytes']).to.equal('+/8=');
    expect(get({ f_bytes: '+/8' })['f_bytes']).to.equal('+/8=');
    expect(get({ f_bytes: '' })['f_bytes']).to.equal(null);
    expect(get({ f_double: 'NaN', f_float: '-Infinity' })).to.include({ f_double: 'NaN', f_float: '-Infinity' });
  });

  it('reads Any, nested Any, Timestamp, Duration and Dec', () => {
    const t = T('Everything');
    const input = {
      any: { '@type': '/codectest.v1.Envelope', label: 'in', payload: { '@type': '/codectest.v1.PubKey', key: 'AQ==' } },
      anys: [{ '@type': '/google.protobuf.Duration', value: '1.5s' }],
      time: '2024-01-02T05:04:05.1+02:00',
      period: '1h30m',
      rate: '0.05',
      dec_coins: [{ denom: 'a', amount: '-1.5' }],
      total_int: '0x0c',
      plain_dec: '',
    };
    const m = fromGatewayJSON(t, input, resolver) as unknown as Record<string, unknown>;
    expect(m['rate']).to.equal('50000000000000000');
    const out = toGatewayJSON(t, m, resolver) as Record<string, unknown>;
    expect(out['any']).to.deep.equal({
      '@type': '/codectest.v1.Envelope',
      label: 'in',
      payload: { '@type': '/codectest.v1.PubKey', key: 'AQ==' },
    });
    expect(out['anys']).to.deep.equal([{ '@type': '/google.protobuf.Duration', value: '1.500s' }]);
    expect(out['time']).to.equal('2024-01-02T03:04:05.100Z');
    expect(out['period']).to.equal('5400s');
    expect(out['rate']).to.equal('0.050000000000000000');
    expect(out['dec_coins']).to.deep.equal([{ denom: 'a', amount: '-1.500000000000000000' }]);
    expect(out['total_int']).to.equal('12');
    expect(out['plain_dec']).to.equal('');
    // math.Int text is big.Int base-0 syntax, as in Go: a leading 0 means octal
    expect((fromGatewayJSON(t, { total_int: '0012' }, resolver) as unknown as Record<string, unknown>)['total_int']).to.equal('10');
  });

  it('round-trips JSON → message → binary → JSON for a full message', () => {
    const t = T('Everything');
    const full = {
      scalars: {
        f_double: -2.5,
        f_float: 0.25,
        f_int32: 1,
        f_int64: '2',
        f_uint32: 3,
        f_uint64: '4',
        f_sint32: -5,
        f_sint64: '-6',
        f_fixed32: 7,
        f_fixed64: '8',
        f_sfixed32: -9,
        f_sfixed64: '-10',
        f_bool: true,
        f_string: 'eleven',
        f_bytes: 'DA==',
        f_enum: 'STATUS_INACTIVE',
      },
      inner: { name: 'n', value: '1', kind: 'KIND_A' },
      inners: [{ name: 'i', value: '0', kind: 'KIND_UNSPECIFIED' }],
      tags: ['a', 'b'],
      numbers: ['1', '18446744073709551615'],
      statuses: ['STATUS_ACTIVE'],
      blobs: ['AQ==', ''],
      inner_map: { k: { name: 'v', value: '2', kind: 'KIND_UNSPECIFIED' } },
      counts: { a: '1', b: '-2' },
      names_by_id: { '1': 'one', '20': 'twenty' },
      choice_inner: { name: 'c', value: '0', kind: 'KIND_UNSPECIFIED' },
      any: { '@type': '/codectest.v1.PubKey', key: 'Ag==' },
      anys: [{ '@type': '/codectest.v1.Envelope', label: 'e', payload: null }],
      time: '2024-01-02T03:04:05.123456Z',
      period: '0.000000001s',
      rate: '1.000000000000000000',
      dec_coins: [{ denom: 'x', amount: '0.000000000000000001' }],
      required_inner: { name: 'r', value: '3', kind: 'KIND_UNSPECIFIED' },
      required_time: '2000-01-01T00:00:00Z',
      total_int: '-5',
      plain_dec: '2.500000000000000000',
      maybe: '0',
      flags: { false: 'f', true: 't' },
      names_by_height: { '3': 'c', '18446744073709551615': 'max' },
      data: 'ZGF0YQ==',
      wrapped_u64: '99',
      wrapped_str: 'w',
      meta: { a: [1, 'x', null, { b: false }] },
      any_value: 'str',
      mask: { paths: ['p'] },
      nothing: {},
      coins: [{ denom: 'achain', amount: '10' }],
    };
    const m = fromGatewayJSON(t, full, resolver);
    expect(toGatewayJSON(t, m, resolver)).to.deep.equal(full);
    const decoded = t.decode(t.encode(m).finish());
    expect(JSON.stringify(toGatewayJSON(t, decoded, resolver))).to.equal(JSON.stringify(full));
  });

  it('sets only the last oneof member given and keeps default-valued members', () => {
    const t = T('Everything');
    const m = fromGatewayJSON(t, { choice_text: 'a', choice_number: '0' }, resolver);
    const out = toGatewayJSON(t, t.decode(t.encode(m).finish()), resolver) as Record<string, unknown>;
    expect(out['choice_number']).to.equal('0');
    expect(out).to.not.have.property('choice_text');
  });

  it('rejects bad input with gateway-like messages', () => {
    const t = T('Everything');
    const s = T('Scalars');
    expectCodecError(() => fromGatewayJSON(s, { f_bool: 'true' }, resolver), 'json: cannot unmarshal string into Go value of type bool');
    expectCodecError(() => fromGatewayJSON(s, { f_string: 5 }, resolver), 'json: cannot unmarshal number into Go value of type string');
    expectCodecError(() => fromGatewayJSON(s, { f_uint64: 'abc' }, resolver), "invalid character 'a' looking for beginning of value");
    expectCodecError(() => fromGatewayJSON(s, { f_uint64: '-1' }, resolver), 'json: cannot unmarshal number -1 into Go value of type uint64');
    expectCodecError(() => fromGatewayJSON(s, { f_int64: 1.5 }, resolver), 'json: cannot unmarshal number 1.5 into Go value of type int64');
    expectCodecError(
      () => fromGatewayJSON(s, { f_int32: '2147483648' }, resolver),
      'json: cannot unmarshal number 2147483648 into Go value of type int32',
    );
    expectCodecError(() => fromGatewayJSON(s, { f_enum: 'NOPE' }, resolver), 'unknown value "NOPE" for enum codectest.v1.Status');
    expectCodecError(() => fromGatewayJSON(s, { f_enum: true }, resolver), 'json: cannot unmarshal bool into Go value of type types.Status');
    expectCodecError(() => fromGatewayJSON(s, { f_bytes: 'a b' }, resolver), 'illegal base64 data at input byte 1');
    expectCodecError(() => fromGatewayJSON(s, 'x', resolver), 'json: cannot unmarshal string into Go value of type map[string]json.RawMessage');
    expectCodecError(() => fromGatewayJSON(t, { tags: 'a' }, resolver), 'json: cannot unmarshal string into Go value of type []json.RawMessage');
    expectCodecError(() => fromGatewayJSON(t, { any: { key: 'AQ==' } }, resolver), "Any JSON doesn't have '@type'");
    expectCodecError(() => fromGatewayJSON(t, { any: { '@type': '/nope.Nope' } }, resolver), 'unable to resolve type URL /nope.Nope');
    expectCodecError(
      () => fromGatewayJSON(t, { any: { '@type': '/codectest.v1.Envelope', label: 1 } }, resolver),
      "can't unmarshal Any nested proto *types.Envelope: json: cannot unmarshal number into Go value of type string",
    );
    expectCodecError(
      () => fromGatewayJSON(t, { time: '2024-13-01T00:00:00Z' }, resolver),
      'bad Timestamp, should be RFC 3339 encoded: parsing time "2024-13-01T00:00:00Z": month out of range',
    );
    expectCodecError(
      () => fromGatewayJSON(t, { time: 'yesterday' }, resolver),
      'bad Timestamp, should be RFC 3339 encoded: parsing time "yesterday" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "yesterday" as "2006"',
    );
    expectCodecError(
      () => fromGatewayJSON(t, { time: '2024-02-30T00:00:00Z' }, resolver),
      'bad Timestamp, should be RFC 3339 encoded: parsing time "2024-02-30T00:00:00Z": day out of range',
    );
    expectCodecError(() => fromGatewayJSON(t, { period: '10' }, resolver), 'bad Duration: time: missing unit in duration "10"');
    expectCodecError(() => fromGatewayJSON(t, { period: '1x' }, resolver), 'bad Duration: time: unknown unit "x" in duration "1x"');
    expectCodecError(() => fromGatewayJSON(t, { rate: '' }, resolver), 'decimal string cannot be empty');
    expectCodecError(() => fromGatewayJSON(t, { rate: '1.' }, resolver), 'invalid decimal length');
    expectCodecError(
      () => fromGatewayJSON(t, { rate: '0.0000000000000000001' }, resolver),
      "value '0.0000000000000000001' exceeds max precision by -1 decimal places: max precision 18",
    );
    expectCodecError(() => fromGatewayJSON(t, { total_int: '1.5' }, resolver), 'math/big: cannot unmarshal "1.5" into a *big.Int');
    expectCodecError(() => fromGatewayJSON(t, { names_by_id: { x: 'a' } }, resolver), "invalid character 'x' looking for beginning of value");
  });

  it('exposes CodecError codes (3 for bad input, 2 for encode failures)', () => {
    try {
      fromGatewayJSON(T('Scalars'), { f_bool: 1 }, resolver);
      expect.fail('should throw');
    } catch (e) {
      expect((e as CodecError).code).to.equal(3);
      expect((e as CodecError).name).to.equal('CodecError');
    }
    try {
      toGatewayJSON(T('Envelope'), { payload: { type_url: '/x', value: new Uint8Array() } }, resolver);
      expect.fail('should throw');
    } catch (e) {
      expect((e as CodecError).code).to.equal(2);
    }
  });
});
