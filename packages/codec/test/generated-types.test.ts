/**
 * The conventions of the generated types (tools/proto-gen), checked against what the registry really
 * decodes: the fixture `codectest.v1` (fixtures/codec_test.proto) covers every kind of field, and its
 * generated types (fixtures/gen) type the decoded values below, so each assertion shows a declared type
 * matching a runtime value. Also: the generated files are up to date with the protos (`--check`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ProtoRegistry } from '../src/index.js';
import type { ProtoObject, google_protobuf } from '../src/index.js';
import { Inner_Kind, Status } from './fixtures/gen/codectest/v1.js';
import type { Everything, QueryParamsRequest, Scalars } from './fixtures/gen/codectest/v1.js';

const FIXTURE_DIR = fileURLToPath(new URL('./fixtures', import.meta.url));
const GENERATOR = join('tools', 'proto-gen', 'gen.ts');

/** The monorepo root (the folder with tools/proto-gen) above the working directory, if any. */
function repoRoot(): string | undefined {
  for (let d = process.cwd(); ; d = dirname(d)) {
    if (existsSync(join(d, GENERATOR))) return d;
    if (dirname(d) === d) return undefined;
  }
}

const registry = new ProtoRegistry();
registry.addProtoDir(FIXTURE_DIR);

function roundTrip<T>(typeName: string, obj: ProtoObject): T {
  return registry.decode<T>(typeName, registry.encode(typeName, obj));
}

describe('codec: generated types match decoded messages', () => {
  it('int64, uint64, sint64, fixed64, sfixed64 → bigint; 32-bit ints, float, double → number; bool; string; bytes → Uint8Array', () => {
    const s = roundTrip<Scalars>('codectest.v1.Scalars', {
      f_double: 1.5, f_float: 0.5, f_int32: -3, f_int64: -(2n ** 62n), f_uint32: 4, f_uint64: 2n ** 64n - 1n, f_sint32: -5,
      f_sint64: -6n, f_fixed32: 7, f_fixed64: 8n, f_sfixed32: -9, f_sfixed64: -10n, f_bool: true, f_string: 'x', f_bytes: new Uint8Array([1, 2]),
    });
    const bigints: bigint[] = [s.f_int64, s.f_uint64, s.f_sint64, s.f_fixed64, s.f_sfixed64];
    expect(bigints).to.deep.equal([-(2n ** 62n), 2n ** 64n - 1n, -6n, 8n, -10n]);
    const numbers: number[] = [s.f_double, s.f_float, s.f_int32, s.f_uint32, s.f_sint32, s.f_fixed32, s.f_sfixed32];
    expect(numbers).to.deep.equal([1.5, 0.5, -3, 4, -5, 7, -9]);
    const flag: boolean = s.f_bool;
    const text: string = s.f_string;
    const bytes: Uint8Array = s.f_bytes;
    expect([flag, text]).to.deep.equal([true, 'x']);
    expect(bytes).to.be.instanceOf(Uint8Array);
    expect([...bytes]).to.deep.equal([1, 2]);
  });

  it('defaults are filled in: zero scalars, empty bytes, empty repeated fields and maps, null for absent messages', () => {
    const e = registry.decode<Everything>('codectest.v1.Everything', new Uint8Array());
    expect(e.scalars).to.equal(null);
    expect(e.inner).to.equal(null);
    expect(e.any).to.equal(null);
    expect(e.time).to.equal(null);
    const lists: unknown[][] = [e.inners, e.tags, e.numbers, e.statuses, e.blobs, e.anys, e.dec_coins, e.coins];
    for (const l of lists) expect(l).to.deep.equal([]);
    const maps: Record<string, unknown>[] = [e.inner_map, e.counts, e.names_by_id, e.flags, e.names_by_height];
    for (const m of maps) expect(m).to.deep.equal({});
    expect(e.data).to.be.instanceOf(Uint8Array);
    expect(e.data.length).to.equal(0);
    expect(e.rate).to.equal('');
    const s = registry.decode<Scalars>('codectest.v1.Scalars', new Uint8Array());
    expect([s.f_int64, s.f_int32, s.f_bool, s.f_string, s.f_enum]).to.deep.equal([0n, 0, false, '', 0]);
  });

  it('enums → number, with a const object of the values (nested enums: Parent_Enum)', () => {
    const s = roundTrip<Scalars>('codectest.v1.Scalars', { f_enum: Status.STATUS_INACTIVE });
    const v: number = s.f_enum;
    expect(v).to.equal(2);
    expect(Status).to.deep.equal({ STATUS_UNSPECIFIED: 0, STATUS_ACTIVE: 1, STATUS_INACTIVE: 2 });
    const e = roundTrip<Everything>('codectest.v1.Everything', { inner: { kind: Inner_Kind.KIND_A }, statuses: [Status.STATUS_ACTIVE, 7] });
    expect(e.inner!.kind).to.equal(1);
    // open enums: an unknown value stays a number
    expect(e.statuses).to.deep.equal([1, 7]);
  });

  it('maps → Record<string, V>: keys are strings whatever the key type; values follow the rules (message values filled in)', () => {
    const e = roundTrip<Everything>('codectest.v1.Everything', {
      inner_map: { a: { name: 'x' } }, counts: { b: 5n }, names_by_id: { 3: 'three' }, flags: { true: 'yes' }, names_by_height: { '18446744073709551615': 'max' },
    });
    const inner: Record<string, { name: string; value: bigint; kind: number }> = e.inner_map;
    expect(inner).to.deep.equal({ a: { name: 'x', value: 0n, kind: 0 } });
    const counts: Record<string, bigint> = e.counts;
    expect(counts).to.deep.equal({ b: 5n });
    expect(Object.keys(e.names_by_id)).to.deep.equal(['3']);
    expect(Object.keys(e.flags)).to.deep.equal(['true']);
    expect(e.names_by_height).to.deep.equal({ '18446744073709551615': 'max' });
  });

  it('a nested message is T | null; repeated messages are never null', () => {
    const e = roundTrip<Everything>('codectest.v1.Everything', { inner: { name: 'n' }, inners: [{}, { value: 2n }] });
    expect(e.inner).to.deep.equal({ name: 'n', value: 0n, kind: 0 });
    expect(e.inners).to.deep.equal([{ name: '', value: 0n, kind: 0 }, { name: '', value: 2n, kind: 0 }]);
  });

  it('google.protobuf.Any → { type_url, value }; Timestamp and Duration → { seconds: bigint, nanos: number }', () => {
    const e = roundTrip<Everything>('codectest.v1.Everything', {
      any: { type_url: '/codectest.v1.PubKey', value: new Uint8Array([10, 1, 7]) },
      time: { seconds: 1_700_000_000n, nanos: 5 }, period: { seconds: 3n, nanos: 0 },
    });
    const any: google_protobuf.Any = e.any!;
    expect(any.type_url).to.equal('/codectest.v1.PubKey');
    expect([...any.value]).to.deep.equal([10, 1, 7]);
    const t: google_protobuf.Timestamp = e.time!;
    const d: google_protobuf.Duration = e.period!;
    expect(t).to.deep.equal({ seconds: 1_700_000_000n, nanos: 5 });
    expect(d).to.deep.equal({ seconds: 3n, nanos: 0 });
    const wrapped: google_protobuf.UInt64Value = roundTrip<Everything>('codectest.v1.Everything', { wrapped_u64: { value: 9n } }).wrapped_u64!;
    expect(wrapped).to.deep.equal({ value: 9n });
  });

  it('oneof: only the member that is set is present, and the oneof name holds its field name; unset: neither', () => {
    const unset = registry.decode<Everything>('codectest.v1.Everything', new Uint8Array());
    expect('choice' in unset || 'choice_text' in unset || 'choice_inner' in unset || 'choice_number' in unset).to.equal(false);
    const n = roundTrip<Everything>('codectest.v1.Everything', { choice_number: 5n });
    const which: 'choice_text' | 'choice_inner' | 'choice_number' | undefined = n.choice;
    expect(which).to.equal('choice_number');
    expect(n.choice_number).to.equal(5n);
    expect('choice_text' in n || 'choice_inner' in n).to.equal(false);
    const q = roundTrip<QueryParamsRequest>('codectest.v1.QueryParamsRequest', { target_name: '' });
    expect([q.target, q.target_name]).to.deep.equal(['target_name', '']);
  });

  it('proto3 optional: present only when set, without a discriminator', () => {
    const unset = registry.decode<Everything>('codectest.v1.Everything', new Uint8Array());
    expect('maybe' in unset).to.equal(false);
    const set = roundTrip<Everything>('codectest.v1.Everything', { maybe: 0n });
    expect(set.maybe).to.equal(0n);
    expect(Object.keys(set).filter((k) => k.startsWith('_'))).to.deep.equal([]);
  });

  it('fromJSON gives the same model', () => {
    const e = registry.fromJSON('codectest.v1.Everything', { scalars: { f_int64: '12' }, choice_text: 'hi' }) as Everything;
    expect(e.scalars!.f_int64).to.equal(12n);
    expect([e.choice, e.choice_text, e.inner]).to.deep.equal(['choice_text', 'hi', null]);
  });
});

// The generator checks the whole monorepo (every package's protos and generated files); it lives in tools/,
// so this runs only inside the repository (skipped where this package is tested on its own).
describe('tools/proto-gen', () => {
  it('the generated files are up to date with the protos (npm run proto-gen to regenerate)', function () {
    const root = repoRoot();
    if (!root) this.skip();
    const r = spawnSync(process.execPath, ['--import', 'tsx', GENERATOR, '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.status, `${r.stderr}${r.stdout}`).to.equal(0);
  });
});
